"""Issue 12 wiring: settings, the threshold-choice task, its intervals and paired differences,
figures, section."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from ccreport.analysis import priors as pr
from ccreport.analysis.bootstrap import multinomial_counts
from ccreport.analysis.threshold_choice import (
    METHODS,
    crisp_threshold_choice,
    threshold_choice,
)
from ccreport.errors import UserInputError
from ccreport.project.loaders import Dataset
from ccreport.project.manifest import load_project
from ccreport.project.settings import AnalysisSettings, task_rng
from ccreport.tasks.battery import assemble, plan
from ccreport.tasks.executors import ProcessPoolExecutor, SerialExecutor
from ccreport.tasks.threshold_choice_task import replicate_area_arrays

MINIMAL = """[project]
title = "t"
{extra}

[[datasets]]
name = "d"
path = "d.csv"
label = "y"
positive = "1"

[[classifiers]]
name = "a"
scores = "a"
"""


def _manifest(tmp_path, extra: str):
    (tmp_path / "d.csv").write_text("y,a\n1,0.9\n0,0.1\n", encoding="utf-8")
    (tmp_path / "ccreport.toml").write_text(MINIMAL.format(extra=extra), encoding="utf-8")
    return tmp_path


def test_settings_defaults_and_read_values(tmp_path):
    assert AnalysisSettings().partial_ranges == () and AnalysisSettings().threshold_axis == "pc"
    p = load_project(
        _manifest(tmp_path, 'partial_ranges = [[0.1, 0.5], [0, 1]]\nthreshold_axis = "both"')
    )
    assert p.settings.partial_ranges == ((0.1, 0.5), (0.0, 1.0))
    assert p.settings.threshold_axis == "both"
    assert p.settings.to_dict()["partial_ranges"] == [[0.1, 0.5], [0.0, 1.0]]


@pytest.mark.parametrize(
    "extra, message",
    [
        (
            "partial_ranges = [[0.5, 0.1]]",
            "ccreport.toml:3: project.partial_ranges: entry 1: expected 0 <= low < high <= 1, "
            "got [0.5, 0.1]",
        ),
        ("partial_ranges = [[0.2, 0.2]]", "entry 1: expected 0 <= low < high <= 1, got [0.2, 0.2]"),
        (
            "partial_ranges = [[-0.1, 0.5]]",
            "entry 1: expected 0 <= low < high <= 1, got [-0.1, 0.5]",
        ),
        (
            "partial_ranges = [[0.1, 0.5], [0.2]]",
            "entry 2: expected a pair [low, high] of numbers, got [0.2]",
        ),
        (
            'partial_ranges = [[0.1, "x"]]',
            'entry 1: expected a pair [low, high] of numbers, got [0.1, "x" (a string)]',
        ),
        (
            "partial_ranges = 0.5",
            "project.partial_ranges: expected a list of [low, high] pairs with 0 <= low < "
            "high <= 1, got 0.5",
        ),
        (
            'threshold_axis = "cost"',
            'ccreport.toml:3: project.threshold_axis: expected one of "pc", '
            '"cost_proportion", "both", got "cost"',
        ),
    ],
)
def test_settings_validation_messages(tmp_path, extra, message):
    with pytest.raises(UserInputError) as err:
        load_project(_manifest(tmp_path, extra))
    assert message in str(err.value)


# --- the task ------------------------------------------------------------------------------------

RANGES = ((0.1, 0.5), (0.5, 0.9))
PRIORS = {"uniform": pr.UniformPrior(0.0, 1.0)}


def _dataset(n=120, seed=0, name="d"):
    rng = np.random.default_rng(seed)
    labels = np.r_[np.ones(n // 3, bool), np.zeros(n - n // 3, bool)]
    scores = {
        "a": 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + 1.5 * labels - 0.7))),  # probabilities
        "b": np.round(rng.normal(size=n) + 0.7 * labels, 1),  # not probabilities, ties
    }
    predictions = {"c": rng.random(n) < 0.3 + 0.4 * labels}
    return Dataset(
        name=name,
        path=None,
        sha256="0" * 64,
        labels=labels,
        positive_label="p",
        negative_label="n",
        scores=scores,
        predictions=predictions,
    )


def _run(data, settings, executor=None):
    tasks = plan([data], ["a", "b", "c"], {data.name: PRIORS}, settings)
    return assemble(tasks, (executor or SerialExecutor()).map(tasks))[data.name]


SETTINGS = AnalysisSettings(bootstrap=500, calibration="off", partial_ranges=RANGES)


def test_task_output_equals_the_analysis_module():
    data = _dataset()
    found = _run(data, SETTINGS)
    direct = threshold_choice(data.labels, data.scores["a"], partial_ranges=RANGES).to_dict()
    got = found.classifiers["a"].to_dict()
    assert got["auc_hull"] == direct["auc_hull"]
    for axis in ("pc", "cost_proportion"):
        assert set(got["threshold_choice"][axis]) == set(METHODS)
        for method in METHODS:
            g, d = got["threshold_choice"][axis][method], direct["threshold_choice"][axis][method]
            assert set(g) == {"area", "interval", "partial", "curve"}
            assert g["area"] == d["area"]
            assert [(p["low"], p["high"], p["area"], p.get("aoc")) for p in g["partial"]] == [
                (p["low"], p["high"], p["area"], p.get("aoc")) for p in d["partial"]
            ]
            assert np.array_equal(
                np.asarray(g["curve"]), np.asarray(d["curve"])
            )  # small: the exact polyline
    b = found.classifiers["b"].to_dict()["threshold_choice"]["pc"]["score_driven"]
    assert (
        b["area"] is None
        and b["curve"] is None
        and b["interval"] is None
        and "probabilities" in b["not_applicable"]
    )
    crisp = found.classifiers["c"].to_dict()["threshold_choice"]
    want = crisp_threshold_choice(
        data.labels, data.predictions["c"], partial_ranges=RANGES
    ).to_dict()["threshold_choice"]
    assert (
        crisp["note"] == want["note"]
        and crisp["pc"]["score_fixed"]["area"] == want["pc"]["score_fixed"]["area"]
    )
    assert set(crisp) == {"pc", "cost_proportion", "note"}


def test_intervals_contain_the_estimate_and_are_reproducible():
    data = _dataset(n=300, seed=4)
    first, again = _run(data, SETTINGS), _run(data, SETTINGS)
    for name in ("a", "b", "c"):
        tc = first.classifiers[name].threshold_choice
        assert _plain(tc.to_dict()) == _plain(again.classifiers[name].threshold_choice.to_dict())
        for axis, by_method in tc.methods.items():
            for method, r in by_method.items():
                if r.area is None:
                    continue
                assert r.interval[0] - 1e-12 <= r.area <= r.interval[1] + 1e-12, (
                    name,
                    axis,
                    method,
                )
                for (
                    p
                ) in r.partial:  # perfect ranker: the same in every replicate (class counts fixed)
                    assert p.interval[0] - 1e-12 <= p.area <= p.interval[1] + 1e-12, (
                        name,
                        axis,
                        method,
                        p.low,
                    )
    other = _run(data, dataclasses.replace(SETTINGS, seed=SETTINGS.seed + 1))
    assert (
        other.classifiers["a"].threshold_choice.methods["pc"]["kendall"].interval
        != first.classifiers["a"].threshold_choice.methods["pc"]["kendall"].interval
    )


def test_replicates_are_the_same_resampled_instances_for_every_classifier():
    """Each replicate's areas equal the analysis of the resampled data set, the same draw for a, b
    and c."""
    data = _dataset(n=40, seed=2)
    reps = replicate_area_arrays(
        task_rng(1, "x"), data.labels, [_cd(data, n) for n in "abc"], 5, RANGES
    )
    rng = task_rng(1, "x")  # the same stream: one chunk, positives then negatives
    cp_counts, cn_counts = (
        multinomial_counts(rng, 40 // 3, 5),
        multinomial_counts(rng, 40 - 40 // 3, 5),
    )
    y = data.labels
    for r in range(5):
        weights = np.empty(y.size, dtype=np.int64)
        weights[y], weights[~y] = cp_counts[r], cn_counts[r]
        idx = np.repeat(np.arange(y.size), weights)
        for name in "ab":
            tc = threshold_choice(y[idx], data.scores[name][idx], partial_ranges=RANGES)
            for method in ("kendall", "skull", "optimal", "rate_driven"):
                assert reps[name][0]["pc"][method][r] == pytest.approx(
                    tc["pc", method].area, abs=1e-12
                )
                assert reps[name][1]["cost_proportion"][method][r] == pytest.approx(
                    [p.area for p in tc["cost_proportion", method].partial], abs=1e-12
                )
        line = crisp_threshold_choice(y[idx], data.predictions["c"][idx], partial_ranges=RANGES)
        assert reps["c"][0]["cost_proportion"]["score_fixed"][r] == pytest.approx(
            line.lines["cost_proportion"].area
        )
        assert reps["c"][1]["pc"]["score_fixed"][r] == pytest.approx(
            [p.area for p in line.lines["pc"].partial]
        )


def _plain(d) -> str:
    return json.dumps(d, default=lambda a: a.tolist())


def _cd(data, name):
    from ccreport.tasks.battery import ClassifierData

    return ClassifierData(name, data.scores.get(name), data.predictions.get(name))


def test_paired_differences_of_scoring_pairs_only():
    data = _dataset(n=300, seed=4)
    found = _run(data, SETTINGS)
    m = found.comparisons["a vs b"].threshold_choice
    assert found.comparisons["a vs c"].threshold_choice is None
    a, b = (
        found.classifiers["a"].threshold_choice.methods,
        found.classifiers["b"].threshold_choice.methods,
    )
    for axis in ("pc", "cost_proportion"):
        k = m.differences[axis]["kendall"]
        assert k.difference == pytest.approx(
            a[axis]["kendall"].area - b[axis]["kendall"].area, abs=1e-15
        )
        assert k.interval[0] <= k.difference <= k.interval[1] and 0 < k.p_value <= 1
        s = m.differences[axis]["skull_minus_optimal"]
        want = (a[axis]["skull"].area - a[axis]["optimal"].area) - (
            b[axis]["skull"].area - b[axis]["optimal"].area
        )
        assert s.difference == pytest.approx(want, abs=1e-15)
    d = found.comparisons["a vs b"].to_dict()["threshold_choice"]
    assert set(d["pc"]) == {"kendall", "skull_minus_optimal"} and d["replicates"] == 500


def test_no_bootstrap_no_intervals():
    found = _run(_dataset(), dataclasses.replace(SETTINGS, bootstrap=0))
    r = found.classifiers["a"].threshold_choice.methods["pc"]["kendall"]
    assert r.interval is None and r.partial[0].interval is None
    assert found.comparisons["a vs b"].threshold_choice is None


def test_same_outputs_with_one_or_two_workers():
    data = _dataset(n=150, seed=9)
    serial = _run(data, SETTINGS)
    pooled = _run(data, SETTINGS, ProcessPoolExecutor(2))
    for name in "abc":
        assert _plain(serial.classifiers[name].to_dict()) == _plain(
            pooled.classifiers[name].to_dict()
        )
    assert _plain(serial.comparisons["a vs b"].to_dict()) == _plain(
        pooled.comparisons["a vs b"].to_dict()
    )


def test_large_curves_are_thinned_to_at_most_2001_points():
    rng = np.random.default_rng(0)
    n = 20_000
    y = rng.random(n) < 0.4
    s = rng.random(n) * 0.5 + 0.4 * y
    data = Dataset(
        name="big",
        path=None,
        sha256="0" * 64,
        labels=y,
        positive_label="p",
        negative_label="n",
        scores={"a": s},
        predictions={},
    )
    tasks = plan([data], ["a"], {"big": PRIORS}, dataclasses.replace(SETTINGS, bootstrap=0))
    found = assemble(tasks, SerialExecutor().map(tasks))["big"]
    tc = found.classifiers["a"].threshold_choice
    direct = threshold_choice(y, s)
    for method in METHODS:
        curve = tc.methods["pc"][method].curve
        assert curve.shape[0] <= 2001
        exact = direct["pc", method].curve
        if method != "score_driven":  # continuous curves: stored points lie on the exact curve
            np.testing.assert_allclose(curve[:, 1], exact(curve[:, 0]), atol=1e-12)


# --- the page section ----------------------------------------------------------------------------


def _dataset_result(settings):
    from ccreport.results import DatasetResult

    data = _dataset(n=200, seed=3)
    found = _run(data, settings)
    return DatasetResult(
        name="d",
        path="d.csv",
        sha256="0" * 64,
        n_pos=66,
        n_neg=134,
        positive_label="p",
        negative_label="n",
        n_folds=None,
        classifiers=found.classifiers,
        comparisons=found.comparisons,
        priors=("uniform",),
    )


def test_section_tables_say_what_does_not_apply():
    from ccreport.render.sections.threshold_choice import threshold_tables

    tables = threshold_tables(_dataset_result(SETTINGS), ["uniform"])
    assert set(tables) == {
        "threshold_areas",
        "threshold_partial",
        "threshold_differences",
    }  # "pc": one axis
    areas = tables["threshold_areas"]
    # the Kendall partial areas are in the partial-areas table only (one number, one table)
    assert areas.columns == [
        "Classifier",
        "Optimal",
        "Score-driven",
        "Rate-driven",
        "Kendall",
        "Skull",
    ]
    partial = tables["threshold_partial"]
    assert [r[1].text for r in partial.rows] == ["[0.1, 0.5]", "[0.5, 0.9]"] * 2
    assert all(r[5].note.startswith("[") for r in partial.rows)  # Kendall with its interval
    rows = {r[0].text: r for r in areas.rows}
    assert rows["b"][2].text == "n/a" and "probabilities in [0, 1]" in areas.note
    assert (
        "c is crisp: it has no threshold to choose" in areas.note
        and "another quantity" in areas.note
    )
    assert rows["a"][4].note.startswith("[")  # Kendall with its interval
    assert [r[0].text for r in tables["threshold_differences"].rows] == ["a vs b"]
    assert len(tables["threshold_partial"].rows) == 2 * 2  # two scoring classifiers x two ranges
    both = threshold_tables(
        _dataset_result(dataclasses.replace(SETTINGS, threshold_axis="both")), ["uniform"]
    )
    assert "cost-proportion" in both["threshold_areas_cost_proportion"].caption
