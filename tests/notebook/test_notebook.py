"""The notebook API (ccreport.notebook): evaluate runs build's battery, write_project round-trips,
displays draw the report's figures, arguments are checked with the manifest's messages."""

from __future__ import annotations

import dataclasses
import io
import json

import numpy as np
import pytest

import ccreport
from ccreport import BetaPrior, CostCurveDisplay, DifferenceDisplay, evaluate, write_project
from ccreport.commands.build import build
from ccreport.errors import UserInputError
from ccreport.figures import style
from ccreport.render.figure_files import SAVE_METADATA
from ccreport.results import results_to_json

FAST = dict(bootstrap=500, calibration="off")


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    n = 120
    y = np.where(rng.random(n) < 0.4, "M", "R")
    pos = y == "M"
    return {
        "y": y,
        "a": pos + rng.normal(0, 1, n),
        "b": np.round(rng.random(n) + 0.3 * pos, 2),  # ties
        "crisp": np.where(rng.random(n) < 0.8, y, np.where(pos, "R", "M")),
        "folds": rng.integers(1, 4, n),
    }


def svg_bytes(fig) -> bytes:
    buf = io.BytesIO()
    with style():
        fig.savefig(buf, format="svg", metadata=SAVE_METADATA["svg"])
    return buf.getvalue()


def test_evaluate_equals_build_of_written_project(data, tmp_path):
    priors = {
        "sceptic": BetaPrior(2, 8),
        "costly": {"distribution": "point", "p_positive": 0.3, "cost_ratio": 2},
    }
    results = evaluate(
        data["y"],
        {"a": data["a"], "b": data["b"]},
        predictions={"c": data["crisp"]},
        pos_label="M",
        folds=data["folds"],
        priors=priors,
        **FAST,
    )
    folder = write_project(results, tmp_path / "project")
    built = build(folder, pdf=False)
    # every number, path and digest: results.json is the same text, but for the build's provenance
    assert results.to_json() == results_to_json(dataclasses.replace(built, provenance=None))
    written = json.loads((folder / "site" / "results.json").read_text(encoding="utf-8"))
    assert written.pop("provenance") and written == json.loads(results.to_json())
    d, e = results.datasets["data"], built.datasets["data"]
    assert d.classifiers["a"].expected_cost == e.classifiers["a"].expected_cost
    np.testing.assert_array_equal(d.classifiers["c"].envelope_nec, e.classifiers["c"].envelope_nec)
    assert d.n_folds == 3 and d.classifiers["a"].fold_average is not None


def test_evaluate_matches_analysis_functions(data):
    results = evaluate(data["y"], {"a": data["a"]}, pos_label="M", **FAST)
    c = results.datasets["data"].classifiers["a"]
    roc = ccreport.roc_points(data["y"] == "M", data["a"])
    env = ccreport.lower_envelope(roc)
    assert c.auc == ccreport.auc(roc)
    assert c.expected_cost["uniform"] == ccreport.expected_cost(env, ccreport.UniformPrior())


def test_inputs_as_lists_pandas_and_pyarrow(data):
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    y01 = (data["y"] == "M").astype(int)
    ref = evaluate(y01, {"a": data["a"]}, **FAST).to_json()
    assert evaluate(list(y01), {"a": list(data["a"])}, **FAST).to_json() == ref
    assert evaluate(pd.Series(y01), {"a": pd.Series(data["a"])}, **FAST).to_json() == ref
    assert (
        evaluate(
            pa.array(y01), {"a": pa.chunked_array([data["a"][:50], data["a"][50:]])}, **FAST
        ).to_json()
        == ref
    )


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(bootstrap=10), "evaluate: bootstrap: expected an integer from 500 to 20000, got 10"),
        (
            dict(confidence=1.5),
            "evaluate: confidence: expected a number strictly between 0 and 1, got 1.5",
        ),
        (
            dict(bootstarp=1000),
            "evaluate: bootstarp: unknown key 'bootstarp'; did you mean 'bootstrap'?",
        ),
        (
            dict(band="wide"),
            'evaluate: band: expected one of "pointwise", "simultaneous", "both", got "wide" '
            "(a string)",
        ),
        (
            dict(priors={"sceptic": {"distribution": "beta", "a": -1, "b": 2}}),
            "evaluate: priors (sceptic).a: expected a number > 0, got -1",
        ),
        (
            dict(pos_label=None),
            "evaluate: pos_label: y_true holds 'M' and 'R'; expected pos_label= one of them",
        ),
        (
            dict(pos_label="X"),
            "evaluate: pos_label: expected one of y_true's classes ('M', 'R'), got 'X'",
        ),
    ],
)
def test_settings_and_arguments_checked_with_manifest_messages(data, kwargs, message):
    kwargs = {"pos_label": "M", **kwargs}
    with pytest.raises(UserInputError) as error:
        evaluate(data["y"], {"a": data["a"]}, **kwargs)
    assert str(error.value).startswith(message)


def test_array_problems_name_the_argument(data):
    bad = data["a"].copy()
    bad[[3, 9]] = np.nan
    with pytest.raises(
        UserInputError,
        match=r"^evaluate: scores\['a'\] at indices 3, 9: expected a finite number, got nan$",
    ):
        evaluate(data["y"], {"a": bad}, pos_label="M")
    with pytest.raises(
        UserInputError, match=r"expected 120 values \(one per element of y_true\), got 119"
    ):
        evaluate(data["y"], {"a": data["a"][:-1]}, pos_label="M")
    with pytest.raises(UserInputError, match="only one class present"):
        evaluate(np.ones(10), {"a": np.arange(10.0)})
    with pytest.raises(
        UserInputError,
        match=r"predictions\['c'\] at index 0: expected 'M' or 'R' \(the classes of y_true\), "
        r"got 'x'",
    ):
        evaluate(data["y"], predictions={"c": np.r_[["x"], data["crisp"][1:]]}, pos_label="M")
    with pytest.raises(UserInputError, match="no fold holds both classes"):
        evaluate(data["y"], {"a": data["a"]}, pos_label="M", folds=data["y"])


def test_results_table_and_html(data):
    pytest.importorskip("pandas")
    results = evaluate(
        data["y"],
        {"a": data["a"], "b": data["b"]},
        pos_label="M",
        priors={"s": BetaPrior(2, 8)},
        **FAST,
    )
    table = results.table("expected_cost")
    assert (
        table.loc[("data", "b"), "s"]
        == results.datasets["data"].classifiers["b"].expected_cost["s"]
    )
    assert {"s lower", "s upper"} <= set(table.columns)
    assert (
        results.table("classifiers").loc[("data", "a"), "auc"]
        == results.datasets["data"].classifiers["a"].auc
    )
    assert len(results.table("comparisons")) == 1
    with pytest.raises(ValueError, match="expected one of"):
        results.table("nope")
    html = results._repr_html_()
    assert (
        "<table>" in html
        and "E[nec] s" in html
        and f"{results.datasets['data'].classifiers['a'].auc:.3f}" in html
    )


def test_cost_display_is_the_report_figure(data, tmp_path):
    folder = write_project(data["y"], tmp_path / "p", {"clf": data["a"]}, pos_label="M", **FAST)
    build(folder, pdf=False)
    display = CostCurveDisplay.from_predictions(
        data["y"], data["a"], name="clf", pos_label="M", band=True, **FAST
    )
    assert svg_bytes(display.figure_) == (folder / "site/figures/data/cost.svg").read_bytes()
    assert display.ax_ is display.figure_.axes[0]
    np.testing.assert_array_equal(display.line_.get_ydata(), display.classifier.envelope_nec)


def test_difference_display_is_the_report_figure(data, tmp_path):
    folder = write_project(
        data["y"], tmp_path / "p", {"a": data["a"], "b": data["b"]}, pos_label="M", **FAST
    )
    build(folder, pdf=False)
    display = DifferenceDisplay.from_predictions(
        data["y"], data["a"], data["b"], names=("a", "b"), pos_label="M", **FAST
    )
    assert (
        svg_bytes(display.figure_) == (folder / "site/figures/data/diff/a--vs--b.svg").read_bytes()
    )
    assert (
        display.comparison.significant is not None
        and display.comparison.difference_band is not None
    )


def test_calls_on_one_axes_add_curves(data):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    first = CostCurveDisplay.from_predictions(
        data["y"], data["a"], name="a", pos_label="M", ax=ax, **FAST
    )
    second = CostCurveDisplay.from_predictions(
        data["y"], data["b"], name="b", pos_label="M", ax=ax, band=True, **FAST
    )
    assert first.ax_ is second.ax_ is ax and first.figure_ is fig
    assert (
        first.line_ in ax.get_lines()
        and second.line_ in ax.get_lines()
        and first.line_ is not second.line_
    )
    np.testing.assert_array_equal(second.line_.get_ydata(), second.classifier.envelope_nec)
    assert first.line_.get_color() != second.line_.get_color()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "Trivial classifiers",
        "a",
        "b",
        "90% pointwise band",
    ]
    plt.close(fig)
    # on a display's own figure: the legend and the operating-range strip list every classifier
    own = CostCurveDisplay.from_predictions(data["y"], data["a"], name="a", pos_label="M", **FAST)
    CostCurveDisplay.from_predictions(
        data["y"], data["crisp"], name="c", crisp=True, pos_label="M", ax=own.ax_, **FAST
    )
    (legend,) = own.figure_.legends
    assert [t.get_text() for t in legend.get_texts()] == ["Trivial classifiers", "a", "c (crisp)"]
    assert [t.get_text() for t in own.figure_.axes[1].get_yticklabels()][::-1] == [
        "a",
        "c",
    ]  # rows top down


def test_from_estimator_uses_predict_proba_or_decision_function(data):
    sklearn = pytest.importorskip("sklearn")  # noqa: F841
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import LinearSVC

    rng = np.random.default_rng(3)
    X = rng.normal(size=(150, 3))
    y = (X[:, 0] + rng.normal(0, 1, 150) > 0).astype(int)
    lr = LogisticRegression().fit(X, y)
    display = CostCurveDisplay.from_estimator(lr, X, y, **FAST)
    expected = evaluate(y, {"LogisticRegression": lr.predict_proba(X)[:, 1]}, **FAST)
    assert (
        display.classifier.expected_cost
        == expected.datasets["data"].classifiers["LogisticRegression"].expected_cost
    )
    # dual="auto": scikit-learn 1.5's default, named so that 1.4 (the dev lower bound) does not
    # warn that its default will change
    svm = LinearSVC(dual="auto").fit(X, y)
    diff = DifferenceDisplay.from_estimator(lr, svm, X, y, **FAST)
    assert diff.comparison.a == "LogisticRegression" and diff.comparison.b == "LinearSVC"


def test_write_project_refuses_a_nonempty_folder_and_foreign_results(data, tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "keep.txt").write_text("mine")
    with pytest.raises(UserInputError, match="expected a new or empty folder"):
        write_project(data["y"], tmp_path / "x", {"a": data["a"]}, pos_label="M")
    built = build(
        write_project(data["y"], tmp_path / "y", {"a": data["a"]}, pos_label="M", **FAST), pdf=False
    )
    with pytest.raises(UserInputError, match="do not come from ccreport.evaluate"):
        write_project(built, tmp_path / "z")
