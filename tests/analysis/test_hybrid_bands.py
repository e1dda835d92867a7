"""Bands, intervals and paired tests of hybrids (issue 11 item 6):
ccreport.analysis.selection.hybrid_bands."""

import numpy as np
import pytest
from scipy.integrate import trapezoid

from ccreport.analysis import selection as sel
from ccreport.analysis.bootstrap import path_layout, sample_hull
from ccreport.analysis.hull_costs import GRID
from ccreport.analysis.paired_bootstrap import bootstrap_dataset
from ccreport.analysis.priors import BetaPrior, PointPrior, UniformPrior
from ccreport.analysis.roc import crisp_roc, roc_points
from ccreport.analysis.selection import hybrid_bands as hb


def data(seed=0, n=300):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    z = rng.normal(size=n)
    a = 1 / (1 + np.exp(-(1.2 * y + z)))
    b = 1 / (1 + np.exp(-(0.9 * y + 0.6 * z + 0.8 * rng.normal(size=n))))
    c = np.round(1 / (1 + np.exp(-(1.0 * y + rng.normal(size=n)))), 1)  # ties
    crisp = (y & (rng.random(n) < 0.6)) | (~y & (rng.random(n) < 0.2))
    return y, {"a": a, "b": b, "c": c}, {"d": crisp}


PRIORS = {"uniform": UniformPrior(), "beta": BetaPrior(2, 8), "point": PointPrior(0.3)}


def test_sample_readers_match_the_criteria_module():
    y, scores, _ = data()
    for s in scores.values():
        lay = path_layout(y, s)
        h = sample_hull(lay)
        roc = roc_points(y, s)
        for alpha in (0.0, 0.05, 0.2, 0.5, 1.0):
            r = hb.neyman_pearson_reader(alpha)(h)
            c = sel.neyman_pearson(roc, alpha)
            assert r["tpr"][0] == pytest.approx(c.tpr, abs=1e-12) and r["fpr0"][0] == pytest.approx(
                c.fpr, abs=1e-12
            )
        for w in (0, 10, 60, 150, 1000):
            r = hb.workforce_reader(w)(h)
            c = sel.workforce(roc, capacity=w)
            assert r["tpr"][0] == pytest.approx(c.tpr, abs=1e-12) and r["fpr"][0] == pytest.approx(
                c.fpr, abs=1e-12
            )


@pytest.mark.parametrize("rule", sel.RULES)
def test_independent_expected_cost_is_the_exact_area_and_the_value_at_a_point(rule):
    y, scores, _ = data(1)
    for s in scores.values():
        roc = roc_points(y, s)
        pi = y.mean()
        found = sel.performance_independent(roc, rule, None)
        e = hb.independent_expected(y, s, rule, {"u": UniformPrior(), "p": PointPrior(0.37)}, pi)
        assert e["u"] == pytest.approx(found.area, abs=1e-12)
        assert e["p"] == pytest.approx(float(found.curve(0.37)), abs=1e-12)
        # the reader on the sample's own counts gives the same number
        lay = path_layout(y, s)
        cp = np.concatenate(([0], np.cumsum(np.ones(lay.n_pos))))[None, :]
        cn = np.concatenate(([0], np.cumsum(np.ones(lay.n_neg))))[None, :]
        r = hb.independent_reader(s, rule, {"u": UniformPrior()}, pi)(None, cp, cn, lay)
        assert r["u"][0] == pytest.approx(found.area, abs=1e-12)


def test_beta_expected_cost_of_independent_hybrid_by_quadrature():
    y, scores, _ = data(2)
    s = scores["a"]
    found = sel.performance_independent(roc_points(y, s), "score_driven", None)
    x = np.linspace(0, 1, 400_001)
    w = 72 * x * (1 - x) ** 7  # Beta(2, 8) density: x (1-x)^7 / B(2, 8), B(2, 8) = 1/72
    quad = trapezoid(found.curve(x) * w, x)
    e = hb.independent_expected(y, s, "score_driven", {"b": BetaPrior(2, 8)}, y.mean())["b"]
    assert e == pytest.approx(quad, abs=2e-5)


def run(seed=0, replicates=200):
    y, scores, preds = data(seed)
    readers = {
        n: {
            "np": hb.neyman_pearson_reader(0.1),
            "wf": hb.workforce_reader(60),
            "pi": hb.independent_reader(s, "bayes_prior", PRIORS, y.mean()),
        }
        for n, s in scores.items()
    }
    readers["d"] = {"np": hb.neyman_pearson_reader(0.1), "wf": hb.workforce_reader(60)}
    reps = bootstrap_dataset(
        np.random.default_rng(seed), y, scores, preds, replicates, PRIORS, readers=readers
    )
    rocs = {n: roc_points(y, s) for n, s in scores.items()} | {
        n: crisp_roc(y, p) for n, p in preds.items()
    }
    hybrid = sel.dataset_hybrid(rocs)
    env = hybrid.envelope
    hybrid_expected = {p: pr.expected(env.pc, env.nec) for p, pr in PRIORS.items()}
    criteria = {
        "np": {
            "sample": {
                n: (c.fpr, c.tpr)
                for n, c in ((n, sel.neyman_pearson(r, 0.1)) for n, r in rocs.items())
            }
        },
        "wf": {
            "sample": {
                n: (c.fpr, c.tpr)
                for n, c in ((n, sel.workforce(r, capacity=60)) for n, r in rocs.items())
            }
        },
    }
    independent = {
        "pi": {
            n: ("pi", hb.independent_expected(y, s, "bayes_prior", PRIORS, y.mean()))
            for n, s in scores.items()
        }
    }
    inf = hb.hybrid_inference(
        reps,
        list(rocs),
        PRIORS,
        hybrid_expected,
        0.9,
        criteria={k: {"sample": v["sample"]} for k, v in criteria.items()},
        independent=independent,
    )
    return y, rocs, hybrid, reps, inf


def test_hybrid_band_is_about_the_sample_hybrid():
    y, rocs, hybrid, reps, inf = run()
    env = hybrid.envelope
    assert np.allclose(inf.estimate, np.interp(GRID, env.pc, env.nec), atol=1e-12)
    assert np.all(inf.lower <= inf.upper + 1e-12)
    assert np.all(inf.lower[1:-1] <= inf.estimate[1:-1] + 0.05)
    # at PC(+) = 0 and 1 the hybrid is a trivial classifier with cost 0, known exactly
    assert inf.lower[0] == inf.upper[0] == 0.0
    for i in inf.expected.values():
        assert i.lower <= i.estimate + 0.02 and i.lower < i.upper


def test_hybrid_optimism_correction_raises_the_replicates():
    """Selecting the cheapest of several classifiers is optimistic: the corrected replicates'
    mean lies above the in-sample hybrid on average (E[min] <= min E)."""
    _, _, _, reps, inf = run(3)
    t, values, optimism = hb.hybrid_replicates(reps, list(reps.classifiers))
    assert optimism.mean() > 0


def test_criteria_and_tests_present():
    _, rocs, _, reps, inf = run()
    assert set(inf.criteria) == {"np", "wf", "pi"}
    assert set(inf.criteria["np"]) >= {"a", "b", "c", "d", "dataset"}
    for n in ("a", "b", "c", "d", "dataset"):
        for p in PRIORS:
            i = inf.criteria["np"][n][p]
            assert i.lower <= i.upper
    kinds = {(t["a"], t["b"]) for t in inf.tests}
    assert any(a == "dataset hybrid" for a, _ in kinds)
    for t in inf.tests:
        assert 0 < t["interval"].p_value <= 1


def test_same_seed_same_numbers():
    *_, a = run(5, 100)
    *_, b = run(5, 100)
    assert np.array_equal(a.lower, b.lower) and np.array_equal(a.upper, b.upper)
