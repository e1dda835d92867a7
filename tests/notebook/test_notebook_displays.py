"""The threshold-choice and instance-cost displays (ccreport.notebook.threshold_displays,
instance_cost_displays): the report's figures byte for byte, the report's numbers, and several
classifiers on one axes; the cost-benefit form of evaluate's ``costs``."""

from __future__ import annotations

import io
import json

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ccreport import (  # noqa: E402
    InstanceCostCurveDisplay,
    KendallCurveDisplay,
    RocivDisplay,
    ThresholdChoiceDisplay,
    evaluate,
    write_project,
)
from ccreport.commands.build import build  # noqa: E402
from ccreport.errors import UserInputError  # noqa: E402
from ccreport.figures import style  # noqa: E402
from ccreport.render.figure_files import SAVE_METADATA  # noqa: E402

FAST = dict(bootstrap=500, calibration="off", partial_ranges=[[0.1, 0.4], [0.6, 0.9]])


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(16)
    n = 160
    y = rng.integers(0, 2, n)
    a = y + rng.normal(0, 1, n)
    return {
        "y": y,
        "a": a,
        "p": 1
        / (1 + np.exp(-(1.3 * y + rng.normal(0, 1, n) - 0.6))),  # probabilities: a Brier curve
        "b": np.round(rng.random(n) + 0.4 * y, 1),  # ties
        "c": (a > 0.5).astype(int),  # crisp
        "costs": {"fn": rng.gamma(2.0, 100.0, n), "fp": 50, "unit": "DM"},
    }


def svg_bytes(fig) -> bytes:
    buf = io.BytesIO()
    with style():
        fig.savefig(buf, format="svg", metadata=SAVE_METADATA["svg"])
    return buf.getvalue()


@pytest.fixture(scope="module")
def one(data, tmp_path_factory):
    """A report of one scoring classifier with instance costs, built from write_project."""
    folder = write_project(
        data["y"],
        tmp_path_factory.mktemp("one") / "p",
        {"a": data["a"]},
        costs=data["costs"],
        **FAST,
    )
    build(folder, pdf=False)
    return folder / "site" / "figures" / "data"


@pytest.fixture(scope="module")
def many(data, tmp_path_factory):
    """Three scoring and one crisp classifier, both threshold axes: evaluate's Results and the built
    report."""
    results = evaluate(
        data["y"],
        {"a": data["a"], "p": data["p"], "b": data["b"]},
        predictions={"c": data["c"]},
        costs=data["costs"],
        threshold_axis="both",
        **FAST,
    )
    folder = write_project(results, tmp_path_factory.mktemp("many") / "p")
    build(folder, pdf=False)
    return results, folder


def test_cost_benefit_form_round_trips_through_a_build(data, many):
    results, folder = many
    written = json.loads((folder / "site" / "results.json").read_text(encoding="utf-8"))
    written.pop("provenance")
    assert written == json.loads(results.to_json())
    assert 'costs = { fn = "cost_fn", fp = 50.0, unit = "DM" }' in (
        folder / "ccreport.toml"
    ).read_text(encoding="utf-8")
    ic = results.datasets["data"].classifiers["a"].instance_costs
    assert ic.unit == "DM"
    # each positive costs its fn, each negative 50 (Fawcett 2006 section 3): own_pc from the class
    # totals
    y, fn = data["y"].astype(bool), data["costs"]["fn"]
    p_total, n_total = fn[y].sum(), 50.0 * (~y).sum()
    assert ic.own_pc == pytest.approx(p_total / (p_total + n_total), rel=1e-12)


@pytest.mark.parametrize(
    "costs, message",
    [
        (
            {"fn": 1.0},
            "evaluate: costs: expected fp (or the benefit tn), the negatives' cost; got neither",
        ),
        (
            {"fn": 1.0, "fp": 1.0, "fnn": 2},
            "evaluate: costs: unknown key 'fnn'; expected fn, fp, tp, tn",
        ),
        ({"fn": 1.0, "fp": 1.0, "tn": -3.0}, "evaluate: costs at indices"),
        (
            {"fn": 1.0, "fp": float("inf")},
            "evaluate: costs['fp']: expected a finite number or an array, got inf",
        ),
        ({"fn": 0.0, "fp": 1.0}, "evaluate: costs: every positive instance costs 0 (fn + tp)"),
        (
            {"fn": 1.0, "fp": 1.0, "unit": 5},
            "evaluate: costs['unit']: expected a label for the unit",
        ),
    ],
)
def test_cost_benefit_form_checked(data, costs, message):
    with pytest.raises(UserInputError) as error:
        evaluate(data["y"], {"a": data["a"]}, costs=costs, bootstrap=500)
    assert str(error.value).startswith(message)


def test_cost_benefit_transform_gives_the_costs(data):
    """tp and tn are benefits added to the error costs (F06 section 3): fn + tp, fp + tn."""
    y = data["y"]
    tp = np.full(y.size, 5.0)
    r1 = evaluate(
        y,
        {"a": data["a"]},
        costs={"fn": data["costs"]["fn"], "tp": tp, "fp": 20.0, "tn": 30.0},
        bootstrap=500,
        calibration="off",
    )
    r2 = evaluate(
        y,
        {"a": data["a"]},
        costs=np.where(y == 1, data["costs"]["fn"] + 5.0, 50.0),
        bootstrap=500,
        calibration="off",
    )
    ic1, ic2 = (r.datasets["data"].classifiers["a"].instance_costs for r in (r1, r2))
    assert ic1.auciv == ic2.auciv and ic1.own_pc == ic2.own_pc and ic1.min_total == ic2.min_total


# --- the report's figure, byte for byte --------------------------------------------------------


def test_from_predictions_is_the_report_figure(data, one):
    kw = dict(name="a", **FAST)
    cases = [
        (KendallCurveDisplay.from_predictions(data["y"], data["a"], **kw), "kendall.svg"),
        (
            ThresholdChoiceDisplay.from_predictions(data["y"], data["a"], **kw),
            "threshold-methods/a.svg",
        ),
        (
            RocivDisplay.from_predictions(data["y"], data["a"], costs=data["costs"], **kw),
            "rociv.svg",
        ),
        (
            InstanceCostCurveDisplay.from_predictions(
                data["y"], data["a"], costs=data["costs"], **kw
            ),
            "iv-cost.svg",
        ),
    ]
    for display, path in cases:
        assert svg_bytes(display.figure_) == (one / path).read_bytes(), path


def test_from_results_is_the_report_figure(many):
    results, folder = many
    figures = folder / "site" / "figures" / "data"
    assert (
        svg_bytes(KendallCurveDisplay.from_results(results).figure_)
        == (figures / "kendall.svg").read_bytes()
    )
    for name in ("a", "p", "b"):
        display = ThresholdChoiceDisplay.from_results(results, name)
        assert (
            svg_bytes(display.figure_) == (figures / f"threshold-methods/{name}.svg").read_bytes()
        )
        assert len(display.axes_) == 2  # threshold_axis = "both": two panels
    assert (
        svg_bytes(RocivDisplay.from_results(results).figure_)
        == (figures / "rociv.svg").read_bytes()
    )
    assert (
        svg_bytes(InstanceCostCurveDisplay.from_results(results).figure_)
        == (figures / "iv-cost.svg").read_bytes()
    )


# --- the report's numbers ----------------------------------------------------------------------


def test_display_curves_are_the_results_curves(many):
    results, _ = many
    d = results.datasets["data"]
    kendall = KendallCurveDisplay.from_results(results)
    assert list(kendall.lines_) == ["a", "p", "b"]  # the crisp classifier has no Kendall curve
    for name, line in kendall.lines_.items():
        np.testing.assert_array_equal(
            line.get_ydata(),
            d.classifiers[name].threshold_choice.methods["pc"]["kendall"].curve[:, 1],
        )
    methods = ThresholdChoiceDisplay.from_results(results, "p")
    assert list(methods.lines_) == [
        "optimal",
        "score_driven",
        "rate_driven",
        "perfect_ranker",
        "kendall",
        "skull",
    ]
    for method, line in methods.lines_.items():
        np.testing.assert_array_equal(
            line.get_xydata(), d.classifiers["p"].threshold_choice.methods["pc"][method].curve
        )
    assert (
        "score_driven" not in ThresholdChoiceDisplay.from_results(results, "a").lines_
    )  # scores not in [0, 1]
    roc = RocivDisplay.from_results(results)
    iv = InstanceCostCurveDisplay.from_results(results)
    for name in ("a", "p", "b", "c"):
        ic = d.classifiers[name].instance_costs
        np.testing.assert_array_equal(roc.lines_[name].get_xdata(), ic.hull_fpr)
        np.testing.assert_array_equal(roc.lines_[name].get_ydata(), ic.hull_tpr)
        np.testing.assert_array_equal(iv.lines_[name].get_xdata(), ic.envelope_pc)
        np.testing.assert_array_equal(iv.lines_[name].get_ydata(), ic.envelope_nec)


def test_from_predictions_numbers_equal_the_reports(data, many):
    results, _ = many
    report = results.datasets["data"].classifiers["b"]
    fig, ax = plt.subplots()
    k = KendallCurveDisplay.from_predictions(data["y"], data["b"], name="b", ax=ax, **FAST)
    assert (
        k.classifiers[0].threshold_choice.methods["pc"]["kendall"].area
        == report.threshold_choice.methods["pc"]["kendall"].area
    )
    np.testing.assert_array_equal(
        k.line_.get_ydata(), report.threshold_choice.methods["pc"]["kendall"].curve[:, 1]
    )
    iv = InstanceCostCurveDisplay.from_predictions(
        data["y"], data["c"], name="c", crisp=True, costs=data["costs"], ax=ax, **FAST
    )
    assert (
        iv.classifiers[0].instance_costs.min_total
        == results.datasets["data"].classifiers["c"].instance_costs.min_total
    )
    plt.close(fig)


# --- several classifiers on one axes -----------------------------------------------------------


def test_repeated_calls_add_curves_to_an_axes(many):
    results, _ = many
    for cls, curve in (
        (KendallCurveDisplay, "kendall"),
        (RocivDisplay, "hull"),
        (InstanceCostCurveDisplay, "envelope"),
    ):
        fig, ax = plt.subplots()
        first = cls.from_results(results, "a", ax=ax)
        n_lines = len(ax.get_lines())
        second = cls.from_results(results, "b", ax=ax)
        assert first.ax_ is second.ax_ is ax and len(ax.get_lines()) > n_lines, curve
        assert first.line_ in ax.get_lines() and second.line_ in ax.get_lines()
        assert first.line_.get_color() != second.line_.get_color()
        texts = [t.get_text() for t in ax.get_legend().get_texts()]
        assert texts[-2].startswith("a") and texts[-1].startswith("b"), texts
        plt.close(fig)
    fig, ax = plt.subplots()
    first = ThresholdChoiceDisplay.from_results(results, "p", ax=ax)
    second = ThresholdChoiceDisplay.from_results(results, "a", ax=ax)
    assert len(ax.get_lines()) == len(first.lines_) + len(second.lines_)
    assert (
        first.lines_["kendall"].get_marker() == "^" and second.lines_["kendall"].get_marker() == "D"
    )  # whose curve
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert (
        "p (the methods' markers)" in texts
        and "a" in texts
        and "score-driven (Brier curve)" in texts
    )
    plt.close(fig)


def test_repeated_calls_on_a_displays_own_figure(many):
    results, _ = many
    own = RocivDisplay.from_results(results, "a")
    added = RocivDisplay.from_results(results, "c", ax=own.ax_)
    assert added.figure_ is own.figure_ and len(own.axes_) == 2
    left, right = own.axes_
    assert (
        len(left.get_lines()) == len(right.get_lines()) == 1 + 3 + 3
    )  # chance, then curve, hull, markers each
    (legend,) = own.figure_.legends
    assert [t.get_text().split()[0] for t in legend.get_texts()] == ["Chance", "a", "c"]
    kendall = KendallCurveDisplay.from_results(results, "a")  # threshold_axis "both": two panels
    KendallCurveDisplay.from_results(results, "p", ax=kendall.ax_)
    assert [len(panel.get_lines()) for panel in kendall.axes_] == [2, 2]


def test_display_arguments_checked(many):
    results, _ = many
    with pytest.raises(ValueError, match="'c' is not a scoring classifier"):
        KendallCurveDisplay.from_results(results, "c")
    with pytest.raises(ValueError, match="'c' is crisp"):
        ThresholdChoiceDisplay.from_results(results, "c")
    fig, ax = plt.subplots()
    with pytest.raises(
        ValueError,
        match="axis='both': expected one of 'pc', 'cost_proportion' when drawing into an axes",
    ):
        KendallCurveDisplay.from_results(results, "a", ax=ax, axis="both")
    plain = evaluate(
        np.r_[0, 1, 0, 1, 1, 0],
        {"s": [0.1, 0.9, 0.3, 0.6, 0.8, 0.2]},
        bootstrap=500,
        calibration="off",
    )
    with pytest.raises(ValueError, match="has no instance costs"):
        RocivDisplay.from_results(plain)
    plt.close(fig)


def test_from_estimator(data):
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LogisticRegression

    X = np.column_stack([data["a"], np.random.default_rng(1).normal(size=data["a"].size)])
    lr = LogisticRegression().fit(X, data["y"])
    display = RocivDisplay.from_estimator(lr, X, data["y"], costs=data["costs"], **FAST)
    expected = evaluate(
        data["y"], {"LogisticRegression": lr.predict_proba(X)[:, 1]}, costs=data["costs"], **FAST
    )
    assert (
        display.classifiers[0].instance_costs.auciv
        == expected.datasets["data"].classifiers["LogisticRegression"].instance_costs.auciv
    )
    methods = ThresholdChoiceDisplay.from_estimator(lr, X, data["y"], **FAST)
    assert "score_driven" in methods.lines_  # predict_proba: probabilities, so a Brier curve


def test_python_tuples_read_as_toml_arrays(data):
    """Arguments are Python values: a tuple is an array, as a TOML array reads as a list; the
    displays' default ``partial_ranges=()`` once failed the manifest reader's list check."""
    as_lists = evaluate(
        data["y"], {"a": data["a"]}, bootstrap=500, calibration="off", partial_ranges=[[0.1, 0.4]]
    )
    as_tuples = evaluate(
        data["y"], {"a": data["a"]}, bootstrap=500, calibration="off", partial_ranges=((0.1, 0.4),)
    )
    assert as_tuples.to_json() == as_lists.to_json()
    for display in (KendallCurveDisplay, ThresholdChoiceDisplay):
        shown = display.from_predictions(
            data["y"], data["a"], bootstrap=500, calibration="off"
        )  # partial_ranges=()
        assert shown.figure_ is not None
        plt.close(shown.figure_)
