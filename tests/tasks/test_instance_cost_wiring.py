"""Instance costs wired through the build (issue 13): tasks, results.json, section, errors,
determinism."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import FIXED_EPOCH

from ccreport.analysis import priors as pr
from ccreport.analysis.bands import percentile_interval
from ccreport.analysis.hull_costs import hull_curves
from ccreport.analysis.instance_cost_bootstrap import (
    bootstrap_instance_costs,
    instance_cost_priors,
    replicate_iv_hulls,
)
from ccreport.analysis.instance_costs import analyse_instance_costs
from ccreport.cli import main
from ccreport.project.settings import AnalysisSettings, task_rng
from ccreport.tasks import instance_cost_tasks as ict
from ccreport.tasks.battery import ClassifierData, TaskInputs

PRIORS = {
    "uniform": pr.UniformPrior(0.0, 1.0),
    "sceptic": pr.BetaPrior(2.0, 8.0),
    "at-0.6": pr.PointPrior(0.6),
    "five-to-one": pr.PointPrior(0.68, cost_ratio=5.0),
    "induced": pr.InducedPrior(pr.Beta(3, 7), pr.LogUniform(1, 10)),
}


def _inputs(n=300, seed=0, costs=True):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    y[:2] = True, False
    good = np.round(rng.normal(size=n) + 1.2 * y, 2)
    weak = np.round(rng.normal(size=n) + 0.4 * y, 1)
    crisp = rng.normal(size=n) + y > 0.7
    amount = np.round(rng.lognormal(7.5, 0.8, n))
    c = np.where(y, amount, 40.0) if costs else None
    members = (
        ClassifierData("good", good, None),
        ClassifierData("weak", weak, None),
        ClassifierData("rule", None, crisp),
    )
    return TaskInputs("d", y, None, (), PRIORS, members, c, "EUR")


def _one(inputs, k):
    return TaskInputs(
        inputs.dataset,
        inputs.labels,
        None,
        (),
        inputs.priors,
        (inputs.classifiers[k],),
        inputs.costs,
        inputs.cost_unit,
    )


def _pair(inputs, i, j):
    return TaskInputs(
        inputs.dataset,
        inputs.labels,
        None,
        (),
        inputs.priors,
        (inputs.classifiers[i], inputs.classifiers[j]),
        inputs.costs,
        inputs.cost_unit,
    )


SETTINGS = AnalysisSettings(bootstrap=300, calibration="off")


@pytest.mark.parametrize("k", [0, 1, 2])
def test_task_output_is_the_analysis_module_result(k):
    inputs = _inputs()
    c = inputs.classifiers[k]
    found = ict.classifier_task(_one(inputs, k), AnalysisSettings(bootstrap=0))[
        "instance_costs"
    ].to_dict()
    scores = c.scores if c.scores is not None else c.predictions.astype(float)
    want = analyse_instance_costs(
        inputs.labels, scores, inputs.costs, instance_cost_priors(PRIORS)
    ).to_dict()
    assert found == want  # same keys, same floats (no thinning at this size)
    assert list(found) == [
        "auciv",
        "rociv_points",
        "rociv_hull",
        "lower_envelope",
        "own_pc",
        "min_total_cost",
        "expected_cost",
        "operating_range",
    ]
    # priors built from a class-level cost ratio are left out, and said to be
    assert set(found["expected_cost"]) == {"uniform", "sceptic", "at-0.6"}
    result = ict.classifier_task(_one(inputs, k), AnalysisSettings(bootstrap=0))["instance_costs"]
    assert result.left_out_priors == ("five-to-one", "induced") and result.unit == "EUR"


def test_no_costs_no_instance_cost_fields():
    inputs = _inputs(costs=False)
    assert ict.classifier_task(_one(inputs, 0), SETTINGS) == {}
    assert ict.pair_task(_pair(inputs, 0, 1), SETTINGS) == {}


def test_intervals_contain_the_estimate_and_are_reproducible():
    inputs = _inputs()
    first = ict.classifier_task(_one(inputs, 0), SETTINGS)["instance_costs"]
    again = ict.classifier_task(_one(inputs, 0), SETTINGS)["instance_costs"]
    as_json = lambda r: json.dumps(r.to_dict(), default=np.ndarray.tolist)  # noqa: E731
    assert as_json(first) == as_json(again)
    iv = first.intervals
    assert iv.auciv[0] <= first.auciv <= iv.auciv[1]
    assert iv.min_total_cost[0] <= first.min_total <= iv.min_total_cost[1]
    for p, (lo, hi) in iv.expected_cost.items():
        assert lo <= first.expected_cost[p] <= hi
    assert np.all(iv.lower <= iv.upper)
    # the band's centre is the point estimate's envelope, exactly
    np.testing.assert_allclose(
        iv.estimate, np.interp(iv.pc, first.envelope_pc, first.envelope_nec), atol=1e-12
    )


def test_bootstrap_expected_costs_are_exact_not_grid_approximations():
    """The sample's expected cost read by the replicate machinery (hull switching points, closed
    form) equals Prior.expected on the envelope's vertices; a grid quadrature would not."""
    inputs = _inputs(n=400, seed=3)
    c = inputs.classifiers[0]
    priors = instance_cost_priors(PRIORS)
    point = analyse_instance_costs(inputs.labels, c.scores, inputs.costs, priors)
    hull = replicate_iv_hulls(point.rociv.fpr[None, :], point.rociv.tpr[None, :], point.rociv)
    exact = hull_curves(hull, np.linspace(0, 1, 11), priors)
    for p in priors:
        assert exact.raw_expected[p][0] == pytest.approx(point.expected_cost[p], abs=1e-12)


def test_pair_differences_are_the_differences_of_the_two_results_and_paired():
    inputs = _inputs()
    a = ict.classifier_task(_one(inputs, 0), SETTINGS)["instance_costs"]
    b = ict.classifier_task(_one(inputs, 2), SETTINGS)["instance_costs"]
    m = ict.pair_task(_pair(inputs, 0, 2), SETTINGS)["instance_costs"]
    assert m.auciv_difference == a.auciv - b.auciv
    assert m.min_total_cost_difference == a.min_total - b.min_total
    assert m.expected_cost_difference == {
        p: a.expected_cost[p] - b.expected_cost[p] for p in a.expected_cost
    }
    iv = m.intervals
    assert iv.auciv_difference.difference == m.auciv_difference
    # paired: the replicates of both classifiers come from the same dataset-keyed generator
    priors = instance_cost_priors(PRIORS)
    draws = []
    for c in (inputs.classifiers[0], inputs.classifiers[2]):
        rng = task_rng(SETTINGS.seed, "instance_costs", "d")
        scores = c.scores if c.scores is not None else c.predictions.astype(float)
        draws.append(
            bootstrap_instance_costs(
                rng, inputs.labels, scores, inputs.costs, SETTINGS.bootstrap, priors
            )
        )
    lo, hi = percentile_interval(draws[0].auciv - draws[1].auciv, SETTINGS.confidence)
    assert (iv.auciv_difference.lower, iv.auciv_difference.upper) == (float(lo), float(hi))
    lo, hi = percentile_interval(
        draws[0].expected["uniform"] - draws[1].expected["uniform"], SETTINGS.confidence
    )
    assert (
        iv.expected_cost_difference["uniform"].lower,
        iv.expected_cost_difference["uniform"].upper,
    ) == (float(lo), float(hi))
    # and the classifier task's own interval is read from the same replicates
    assert a.intervals.auciv == tuple(
        float(v) for v in percentile_interval(draws[0].auciv, SETTINGS.confidence)
    )


def test_thinning_keeps_hull_vertices_and_bounds_the_points():
    rng = np.random.default_rng(1)
    n = 20000
    y = rng.random(n) < 0.5
    s = rng.normal(size=n) + y
    c = rng.lognormal(0, 1, n)
    r = analyse_instance_costs(y, s, c)
    fpr, tpr = ict.thinned(r.rociv.fpr, r.rociv.tpr, r.envelope.hull_fpr, r.envelope.hull_tpr)
    assert r.rociv.fpr.size > ict.MAX_STORED_POINTS
    assert fpr.size <= 2 / ict.THIN_STEP + 2 + r.envelope.hull_fpr.size
    kept = set(zip(fpr.tolist(), tpr.tolist()))
    assert all(
        (x, y_) in kept for x, y_ in zip(r.envelope.hull_fpr.tolist(), r.envelope.hull_tpr.tolist())
    )
    assert (fpr[0], tpr[0]) == (0.0, 0.0) and (fpr[-1], tpr[-1]) == (1.0, 1.0)


# --- through the build ----------------------------------------------------------------------------


def _project(root: Path, amount_bad: str | None = None) -> Path:
    rng = np.random.default_rng(5)
    n = 80
    y = np.arange(n) % 3 == 0
    rows = ["label,good,weak,rule,amount"]
    for i in range(n):
        amount = f"{rng.integers(100, 5000)}"
        if amount_bad is not None and i == 9:  # a positive: its cost is its amount
            amount = amount_bad
        rows.append(
            f"{'pos' if y[i] else 'neg'},{rng.normal() + 1.3 * y[i]:.3f},"
            f"{rng.normal() + 0.4 * y[i]:.1f},"
            f"{'pos' if rng.normal() + y[i] > 0.6 else 'neg'},{amount}"
        )
    root.mkdir(parents=True, exist_ok=True)
    (root / "data.csv").write_text("\n".join(rows) + "\n")
    (root / "plain.csv").write_text("\n".join(r.rsplit(",", 1)[0] for r in rows) + "\n")
    (root / "ccreport.toml").write_text(
        """
[project]
title = "IV"
seed = 4
bootstrap = 500
calibration = "off"

[[datasets]]
name = "costed"
path = "data.csv"
label = "label"
positive = "pos"
costs = { fn = "amount", fp = 100, unit = "EUR" }

[[datasets]]
name = "plain"
path = "plain.csv"
label = "label"
positive = "pos"

[[classifiers]]
name = "good"
scores = "good"

[[classifiers]]
name = "weak"
scores = "weak"

[[classifiers]]
name = "rule"
predictions = "rule"

[[priors]]
name = "uniform"
distribution = "uniform"

[[priors]]
name = "ratio"
distribution = "point"
p_positive = 0.3
cost_ratio = 5
""".lstrip()
    )
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = _project(tmp_path_factory.mktemp("iv") / "proj")
    out1, out2 = root.parent / "out1", root.parent / "out2"
    with (
        pytest.MonkeyPatch.context() as patch
    ):  # module scope: the autouse fixed date does not reach here
        patch.setenv("SOURCE_DATE_EPOCH", FIXED_EPOCH)
        assert main(["build", str(root), "-o", str(out1), "--no-pdf", "-j", "1", "--no-cache"]) == 0
        assert main(["build", str(root), "-o", str(out2), "--no-pdf", "-j", "2", "--no-cache"]) == 0
    return out1, out2


def test_build_is_deterministic_across_workers(built):
    out1, out2 = built
    assert (out1 / "results.json").read_bytes() == (out2 / "results.json").read_bytes()


def test_only_datasets_with_costs_get_instance_cost_keys(built):
    r = json.loads((built[0] / "results.json").read_text())
    costed, plain = r["datasets"]["costed"], r["datasets"]["plain"]
    assert all("instance_costs" in c for c in costed["classifiers"].values())
    assert all("instance_costs" in m for m in costed["comparisons"].values())
    assert not any("instance_costs" in c for c in plain["classifiers"].values())
    assert not any("instance_costs" in m for m in plain["comparisons"].values())
    ic = costed["classifiers"]["good"]["instance_costs"]
    assert set(ic["expected_cost"]) == {"uniform"}  # the cost-ratio prior is left out
    assert set(ic["intervals"]) == {
        "level",
        "replicates",
        "method",
        "band",
        "auciv",
        "min_total_cost",
        "expected_cost",
    }


def test_section_renders_on_the_costed_page_only(built):
    costed = (built[0] / "dataset-costed.html").read_text()
    plain = (built[0] / "dataset-plain.html").read_text()
    assert "What the amounts change." in costed and "Least total cost (EUR)" in costed
    assert "Left out of the instance-cost expected costs: ratio." in costed
    assert (built[0] / "figures" / "costed" / "rociv.svg").exists()
    assert (built[0] / "figures" / "costed" / "iv-cost.svg").exists()
    assert (
        "What the amounts change." not in plain
        and not (built[0] / "figures" / "plain" / "rociv.svg").exists()
    )


@pytest.mark.parametrize("bad", ["-5", "abc"])
def test_bad_cost_input_exit_2_one_line_nothing_written(tmp_path, capsys, bad):
    root = _project(tmp_path / "proj", amount_bad=bad)
    out = tmp_path / "out"
    assert main(["build", str(root), "-o", str(out), "--no-pdf"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    problem = [line for line in err if "data.csv" in line]
    assert (
        len(problem) == 1
        and "amount" in problem[0]
        and "data.csv:11: row 10: amount:" in problem[0]
    ), err
    assert "Traceback" not in "\n".join(err)
    assert not out.exists()


def test_dataset_task_gives_each_classifier_and_pair_what_the_one_scope_tasks_give():
    """One resampling for the dataset (issue 9): the dataset task's entries equal the
    single-classifier and single-pair tasks' (the same replicates whichever classifiers share the
    draw)."""
    inputs = _inputs(n=250, seed=4)
    settings = AnalysisSettings(bootstrap=60, calibration="off")
    found = ict.dataset_task(inputs, settings)

    def text(result):
        return json.dumps(
            result.to_dict(), default=lambda a: np.asarray(a).tolist(), sort_keys=True
        )

    names = [c.name for c in inputs.classifiers]
    assert list(found["classifier_fields"]) == names
    assert list(found["comparison_fields"]) == [
        ("good", "weak"),
        ("good", "rule"),
        ("weak", "rule"),
    ]
    for k, name in enumerate(names):
        alone = text(ict.classifier_task(_one(inputs, k), settings)["instance_costs"])
        assert text(found["classifier_fields"][name]["instance_costs"]) == alone
    pair = text(ict.pair_task(_pair(inputs, 1, 2), settings)["instance_costs"])
    assert text(found["comparison_fields"][("weak", "rule")]["instance_costs"]) == pair
    assert ict.dataset_task(_inputs(costs=False), settings) == {}
