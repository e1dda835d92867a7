"""Bootstrap bands, paired significance and fold averaging (D&H 2006 sections 4.5-4.7, 5.2)."""

from __future__ import annotations

import numpy as np
import pytest
from synthetic import binormal

from ccreport.analysis.bands import (
    bootstrap_p_value,
    percentile_interval,
    pointwise_band,
    significant_intervals,
    simultaneous_band,
)
from ccreport.analysis.bootstrap import (
    binomial_sd,
    bootstrap_crisp,
    bootstrap_scores,
    chunk_sizes,
    crisp_line_replicates,
    cumulative,
    multinomial_counts,
    path_layout,
)
from ccreport.analysis.calibration import INNER, OUTER
from ccreport.analysis.envelope import envelope_from_hull
from ccreport.analysis.folds import fold_average
from ccreport.analysis.hull_costs import (
    GRID,
    hulls_expected,
    hulls_on_grid,
    vertex_curve,
    vertex_intervals,
)
from ccreport.analysis.hulls import replicate_hulls
from ccreport.analysis.paired_bootstrap import bootstrap_dataset, bootstrap_pair
from ccreport.analysis.priors import (
    Beta,
    BetaPrior,
    Fixed,
    InducedPrior,
    LogUniform,
    PointPrior,
    Uniform,
    UniformPrior,
)
from ccreport.analysis.roc import convex_hull

PRIORS = {
    "uniform": UniformPrior(),
    "beta": BetaPrior(2.0, 5.0),
    "point": PointPrior(0.37),
    "induced": InducedPrior(Beta(3.0, 7.0), LogUniform(1.0, 10.0)),
}


# --- the hull engine is exact ---------------------------------------------------------------------


@pytest.mark.parametrize("case", range(24))
def test_replicate_envelopes_match_brute_force(case):
    """Each replicate's envelope on the grid and its expected costs equal a from-scratch hull."""
    rng = np.random.default_rng(case)
    n = int(rng.integers(2, 300))
    y = rng.random(n) < rng.uniform(0.05, 0.95)
    y[:2] = [True, False]
    s = rng.normal(size=n) + y * rng.uniform(-1, 3)
    if case % 3 == 1:
        s = np.round(s, 1)  # ties
    elif case % 3 == 2:
        s = rng.integers(0, 3, n).astype(float)  # few distinct scores
    layout = path_layout(y, s)
    cp = cumulative(multinomial_counts(rng, layout.n_pos, 6))
    cn = cumulative(multinomial_counts(rng, layout.n_neg, 6))
    hulls = replicate_hulls(layout, cp, cn, block=int(rng.integers(2, 20)))
    grid_values = hulls_on_grid(hulls)
    expected = {k: hulls_expected(hulls, p) for k, p in PRIORS.items()}
    for r in range(6):
        x, t = cn[r, layout.neg_at], cp[r, layout.pos_at]
        env = envelope_from_hull(*convex_hull(x / layout.n_neg, t / layout.n_pos))
        np.testing.assert_allclose(grid_values[r], env(GRID), atol=1e-12)
        for k, prior in PRIORS.items():
            tol = (
                1e-6 if k == "induced" else 1e-10
            )  # induced: fixed Gauss-Legendre rule (documented)
            assert expected[k][r] == pytest.approx(prior.expected(env.pc, env.nec), abs=tol)


def test_bootstrap_scores_shapes_and_estimate():
    rng = np.random.default_rng(1)
    y, s = binormal(rng, 400)
    rep = bootstrap_scores(np.random.default_rng(2), y, s, 250, PRIORS)
    assert rep.values.shape == rep.raw.shape == (250, GRID.size)
    assert set(rep.expected) == set(PRIORS)
    env = envelope_from_hull(*convex_hull(*_rates(y, s)))
    np.testing.assert_allclose(rep.estimate, env(GRID), atol=1e-12)
    assert rep.expected_estimate["uniform"] == pytest.approx(env.area, abs=1e-12)
    # the replicates' own envelopes are optimistic; the corrected ones are not, on average
    assert rep.raw.mean(axis=0)[50] < rep.estimate[50] <= rep.values.mean(axis=0)[50] + 1e-12


def _rates(y, s):
    from ccreport.analysis.roc import roc_points

    roc = roc_points(y, s)
    return roc.fpr, roc.tpr


# --- determinism ----------------------------------------------------------------------------------


def test_same_seed_same_bytes():
    rng = np.random.default_rng(3)
    y, s = binormal(rng, 300)
    a = bootstrap_scores(np.random.default_rng(9), y, s, 120, PRIORS)
    b = bootstrap_scores(np.random.default_rng(9), y, s, 120, PRIORS)
    c = bootstrap_scores(np.random.default_rng(10), y, s, 120, PRIORS)
    assert a.values.tobytes() == b.values.tobytes()
    assert all(a.expected[k].tobytes() == b.expected[k].tobytes() for k in PRIORS)
    assert a.values.tobytes() != c.values.tobytes()


def test_chunk_sizes_depend_on_data_only():
    assert chunk_sizes(1000, 100_000) == [40] * 25
    assert sum(chunk_sizes(1000, 10**6)) == 1000
    assert chunk_sizes(7, 10) == [7]


def _tiny_project(root):
    """The shared tiny project with folds, 'both' bands and an induced prior."""
    from site_fixtures import write_tiny_project

    induced = """
[[priors]]
name = "induced"
distribution = "induced"
p_positive = { distribution = "beta", a = 3, b = 7 }
cost_ratio = { distribution = "loguniform", low = 1, high = 10 }
"""
    settings = 'confidence = 0.9\nbootstrap = 500\nband = "both"'
    return write_tiny_project(
        root, "Determinism", n=160, folds=4, settings=settings, extra_priors=induced, seed=11
    )


def test_one_or_two_workers_give_identical_results_json(tmp_path):
    from ccreport.commands.build import compute_results
    from ccreport.project.loaders import load_project_data
    from ccreport.project.manifest import load_project
    from ccreport.project.project_files import read_project_files
    from ccreport.results import results_to_dict, results_to_json
    from ccreport.tasks.executors import ProcessPoolExecutor, SerialExecutor

    project = load_project(_tiny_project(tmp_path))
    data = load_project_data(project)
    files = read_project_files(project, data)
    serial = compute_results(project, data, files, SerialExecutor())
    one = results_to_json(serial)
    two = results_to_json(compute_results(project, data, files, ProcessPoolExecutor(2)))
    assert one == two
    d = results_to_dict(serial)["datasets"]["tiny"]
    good = d["classifiers"]["good"]
    band = good["band"]
    assert band["level"] == 0.9 and band["replicates"] == 500
    assert band["method"] == "stratified instance bootstrap"
    assert (
        len(band["pc"])
        == len(band["lower"])
        == len(band["upper"])
        == len(band["simultaneous"]["lower"])
    )
    assert all(lo <= hi + 1e-12 for lo, hi in zip(band["lower"], band["upper"]))
    assert d["classifiers"]["rule"]["band"]["method"] == "binomial (row marginals)"
    # n = 160: calibrated ("auto"); the crisp rule has nothing to calibrate
    cal = band["calibration"]
    assert (cal["outer"], cal["inner"]) == (OUTER, INNER) == (200, 50) and cal[
        "lower_level"
    ] == pytest.approx(0.05)
    assert len(cal["upper_level"]) == len(band["pc"]) and set(cal["expected_upper_level"]) == {
        "uniform",
        "induced",
    }
    assert "double bootstrap" in band["correction"]
    assert d["classifiers"]["rule"]["band"]["calibration"] is None
    assert set(good["expected_cost_interval"]) == {"uniform", "induced"}
    fa = good["fold_average"]
    assert fa["n_folds"] == 4 and fa["spread"] == "min-max across folds"
    assert fa["expected_cost"]["uniform"] == pytest.approx(
        np.mean(fa["fold_expected_cost"]["uniform"]), abs=1e-12
    )
    pair = d["comparisons"]["good vs weak"]
    assert set(pair["difference_band"]) >= {"level", "replicates", "pc", "lower", "upper", "method"}
    for iv in pair["significant"]:
        assert iv["lo"] <= iv["hi"] and iv["better"] in ("good", "weak")
    e = pair["expected_cost_difference_interval"]["uniform"]
    assert e["difference"] == pytest.approx(pair["expected_cost_difference"]["uniform"], abs=1e-15)
    assert 0 < e["p_value"] <= 1 and e["lower"] <= e["upper"]


# --- crisp classifiers: D&H 2006 section 4.6 ------------------------------------------------------


def test_binomial_band_matches_equation_8():
    """Replicate cost lines have the standard deviation of D&H 2006 Eq. 8 at every PC(+)."""
    rng = np.random.default_rng(4)
    n_pos, n_neg, tp, fp = 20, 10, 16, 4  # Fig. 16(a)
    lines = crisp_line_replicates(rng, n_pos, n_neg, tp, fp, 40_000)
    sd = lines.std(axis=0)
    np.testing.assert_allclose(sd, binomial_sd(n_pos, n_neg, tp, fp), rtol=0.03)
    # values on the y-axes are multiples of 1/10 at PC(+) = 0 and 1/20 at PC(+) = 1 (section 4.6)
    assert np.allclose(lines[:, 0] * 10, np.round(lines[:, 0] * 10))
    assert np.allclose(lines[:, -1] * 20, np.round(lines[:, -1] * 20))


def test_band_narrowest_near_test_class_distribution():
    """Equal binomial proportions: the band is narrowest at p(+) = m / (m + n) (section 4.6)."""
    rng = np.random.default_rng(5)
    n_pos, n_neg = 40, 20  # class distribution 2/3
    lines = crisp_line_replicates(rng, n_pos, n_neg, 32, 4, 40_000)  # FNR = FPR = 0.2
    lo, hi = percentile_interval(lines, 0.9)
    assert abs(GRID[np.argmin(lines.std(axis=0))] - 2 / 3) <= 0.03
    assert abs(GRID[np.argmin(hi - lo)] - 2 / 3) <= 0.08
    # Fig. 16's proportions differ: the minimum moves from 2/3 towards the smaller-variance side
    # (FN)
    sd = binomial_sd(20, 10, 16, 4)
    assert 2 / 3 < GRID[np.argmin(sd)] < 1.0


def test_crisp_band_is_the_envelope_with_trivial_classifiers():
    rng = np.random.default_rng(6)
    y = np.r_[np.ones(20, bool), np.zeros(10, bool)]
    pred = np.r_[
        np.ones(16, bool), np.zeros(4, bool), np.ones(4, bool), np.zeros(6, bool)
    ]  # Fig. 1 / 16
    rep = bootstrap_crisp(rng, y, pred, 2000, PRIORS)
    line = 0.2 * GRID + 0.4 * (1 - GRID)
    np.testing.assert_allclose(
        rep.estimate, np.minimum(line, np.minimum(GRID, 1 - GRID)), atol=1e-15
    )
    assert np.all(rep.raw <= np.minimum(GRID, 1 - GRID) + 1e-15)
    lo, hi = pointwise_band(rep.values, 0.9)
    assert np.all(lo <= rep.estimate + 1e-12) and np.all(rep.estimate <= hi + 1e-12)


# --- pairs: D&H 2006 section 4.7 ------------------------------------------------------------------


def test_paired_band_narrower_than_unpaired_for_correlated_classifiers():
    """Fig. 19: with positively correlated classifiers the paired band is much narrower than the one
    judged from the two separate bands (the unpaired, independent combination)."""
    rng = np.random.default_rng(7)
    y, a = binormal(rng, 600, d=1.2)
    b = a + rng.normal(scale=0.25, size=a.size) - 0.3 * y  # a noisier, weaker copy of a
    ra, rb = bootstrap_pair(np.random.default_rng(8), y, a_scores=a, b_scores=b, replicates=600)
    paired = np.subtract(*pointwise_band(ra.values - rb.values, 0.9)[::-1])
    wa = np.subtract(*pointwise_band(ra.values, 0.9)[::-1])
    wb = np.subtract(*pointwise_band(rb.values, 0.9)[::-1])
    unpaired = np.sqrt(wa**2 + wb**2)
    mid = (GRID > 0.2) & (GRID < 0.8)
    assert np.all(paired[mid] < 0.8 * unpaired[mid])
    # separately bootstrapped curves are the same as the pair's marginals in distribution
    single = bootstrap_scores(np.random.default_rng(9), y, a, 600)
    w_single = np.subtract(*pointwise_band(single.values, 0.9)[::-1])
    assert np.median(w_single[mid] / wa[mid]) == pytest.approx(1.0, abs=0.15)


def test_crisp_pair_three_d_matrix():
    rng = np.random.default_rng(10)
    n = 400
    y = rng.random(n) < 0.5
    pa = (rng.normal(size=n) + 1.5 * y) > 0.7
    pb = pa.copy()
    flip = rng.random(n) < 0.08
    pb[flip] = ~pb[flip]  # b agrees with a on 92% of the instances
    ra, rb = bootstrap_pair(
        np.random.default_rng(11), y, a_predictions=pa, b_predictions=pb, replicates=3000
    )
    assert ra.method.startswith("paired multinomial")
    # projections are each classifier's own binomial resampling: same spread as a crisp bootstrap
    solo = bootstrap_crisp(np.random.default_rng(12), y, pa, 3000)
    np.testing.assert_allclose(ra.raw.std(axis=0)[30:71], solo.raw.std(axis=0)[30:71], rtol=0.1)
    d = ra.values - rb.values
    sd_paired = d.std(axis=0)[50]
    sd_unpaired = np.hypot(ra.values.std(axis=0)[50], rb.values.std(axis=0)[50])
    assert sd_paired < 0.6 * sd_unpaired


def test_identical_classifiers_never_differ_significantly():
    rng = np.random.default_rng(13)
    y, s = binormal(rng, 200)
    ra, rb = bootstrap_pair(
        np.random.default_rng(1), y, a_scores=s, b_scores=s.copy(), replicates=200, priors=PRIORS
    )
    d = ra.values - rb.values
    assert np.all(d == 0)
    lo, hi = pointwise_band(d, 0.9)
    assert significant_intervals(GRID, lo, hi, "a", "b") == []
    assert bootstrap_p_value(ra.expected["uniform"] - rb.expected["uniform"]) == 1.0


def test_significant_intervals_and_p_values():
    grid = np.linspace(0, 1, 11)
    lower = np.array([-1, -1, 0.5, 1, 0.5, -1, -1, -1, -1, -1, -1.0])
    upper = np.array([1, 1, 2, 2, 2, 1, 1, -0.5, -1, 1, 1.0])
    out = significant_intervals(grid, lower, upper, "A", "B")
    assert [d["better"] for d in out] == ["B", "A"]
    assert out[0]["lo"] == pytest.approx(0.1 + 0.1 * 1 / 1.5) and out[0]["hi"] == pytest.approx(
        0.4 + 0.1 * 0.5 / 1.5
    )
    assert out[1]["lo"] == pytest.approx(0.6 + 0.1 * 1 / 1.5) and out[1]["hi"] == pytest.approx(
        0.8 + 0.1 * 1 / 2
    )
    assert bootstrap_p_value(np.full(999, 0.3)) == pytest.approx(2 / 1000)
    assert bootstrap_p_value(np.linspace(-1, 1, 1001)) == 1.0


# --- fold averaging: D&H 2006 section 4.5 ---------------------------------------------------------


@pytest.mark.parametrize("crisp", [False, True])
def test_expected_cost_of_average_is_average_of_expected_costs(crisp):
    rng = np.random.default_rng(14)
    y, s = binormal(rng, 500, d=1.0)
    folds = rng.permutation(y.size) % 5
    names = tuple(f"f{k}" for k in range(5))
    kw = {"predictions": s > 0.5} if crisp else {"scores": s}
    avg = fold_average(y, folds, names, priors=PRIORS, **kw)
    assert avg.folds == names and avg.skipped == ()
    for name in PRIORS:
        assert avg.expected[name] == pytest.approx(np.mean(avg.fold_expected[name]), abs=1e-9)
    assert np.all(avg.lower <= avg.nec + 1e-15) and np.all(avg.nec <= avg.upper + 1e-15)
    # the vertical average in cost space differs from the envelope of the vertically averaged ROC
    # curves in general, but both run from (0, 0) to (1, 0)
    assert avg.nec[0] == 0 and avg.nec[-1] == 0


def test_fold_without_a_class_is_skipped():
    y = np.array([1, 0, 1, 0, 1, 1, 0, 0], bool)
    s = np.arange(8.0)
    folds = np.array([0, 0, 0, 0, 1, 1, 2, 2])
    avg = fold_average(y, folds, ("a", "b", "c"), scores=s)
    assert avg.folds == ("a",) and avg.skipped == ("b", "c")


# --- degenerate inputs ----------------------------------------------------------------------------


def test_constant_scores_give_the_trivial_curve_exactly():
    y = np.r_[np.ones(30, bool), np.zeros(50, bool)]
    rep = bootstrap_scores(np.random.default_rng(0), y, np.zeros(80), 100, PRIORS)
    trivial = np.minimum(GRID, 1 - GRID)
    np.testing.assert_array_equal(rep.raw, np.broadcast_to(trivial, rep.raw.shape))
    lo, hi = pointwise_band(rep.values, 0.9)
    np.testing.assert_allclose(lo, trivial)
    np.testing.assert_allclose(hi, trivial)
    assert np.ptp(rep.expected["uniform"]) == 0 and rep.expected["uniform"][0] == pytest.approx(
        0.25
    )


def test_perfect_classifier_has_zero_cost_in_every_replicate():
    y = np.r_[np.ones(30, bool), np.zeros(50, bool)]
    s = y.astype(float) + np.linspace(0, 0.5, 80)
    rep = bootstrap_scores(np.random.default_rng(0), y, s, 100, PRIORS)
    assert np.all(rep.raw == 0) and np.all(rep.estimate == 0)
    assert all(np.all(np.abs(v) < 1e-15) for v in rep.raw_expected.values())
    # a threshold chosen on a resample can miss positives it never saw: the corrected band is not
    # degenerate at 0 but starts there and stays small
    lo, hi = pointwise_band(rep.values, 0.9)
    assert np.all(rep.values >= 0) and np.all(lo == 0) and np.all(hi < 0.05)


def test_tiny_classes():
    y = np.array([True, False, False, False, False])
    s = np.array([0.9, 0.1, 0.5, 0.95, 0.2])
    rep = bootstrap_scores(np.random.default_rng(0), y, s, 200, PRIORS)
    assert np.all(np.isfinite(rep.values)) and np.all(rep.raw >= 0)
    assert np.all(rep.raw <= np.minimum(GRID, 1 - GRID) + 1e-15)
    crisp = bootstrap_crisp(np.random.default_rng(0), y, s > 0.3, 200, PRIORS)
    assert np.all(np.isfinite(crisp.values))
    ra, rb = bootstrap_pair(
        np.random.default_rng(0), y, a_scores=s, b_predictions=s > 0.3, replicates=50
    )
    assert ra.values.shape == rb.values.shape == (50, GRID.size)
    with pytest.raises(ValueError):
        bootstrap_scores(np.random.default_rng(0), np.ones(4, bool), np.arange(4.0), 10)


def test_simultaneous_band_contains_pointwise_band():
    rng = np.random.default_rng(15)
    y, s = binormal(rng, 300)
    rep = bootstrap_scores(np.random.default_rng(16), y, s, 400)
    plo, phi = pointwise_band(rep.values, 0.9)
    slo, shi = simultaneous_band(rep.values, 0.9)
    inner = (GRID > 0.05) & (GRID < 0.95)
    assert np.mean(shi[inner] - slo[inner]) > np.mean(phi[inner] - plo[inner])
    inside = np.all((rep.values >= slo - 1e-12) & (rep.values <= shi + 1e-12), axis=1)
    assert (
        inside.mean() >= 0.88
    )  # the sup-norm band holds whole replicate curves at about the level


def test_induced_prior_rule_matches_adaptive_quadrature():
    rng = np.random.default_rng(17)
    y, s = binormal(rng, 300)
    layout = path_layout(y, s)
    cp = cumulative(multinomial_counts(rng, layout.n_pos, 5))
    cn = cumulative(multinomial_counts(rng, layout.n_neg, 5))
    h = replicate_hulls(layout, cp, cn)
    lo, hi = vertex_intervals(h)
    for prior in (
        InducedPrior(Beta(3, 7), LogUniform(1, 10)),
        InducedPrior(Uniform(0.1, 0.6), Uniform(0.5, 3.0)),
        InducedPrior(Fixed(0.3), LogUniform(0.2, 5.0)),
    ):
        got = hulls_expected(h, prior)
        for r in range(5):
            sl = slice(h.indptr[r], h.indptr[r + 1])
            alpha = h.x[sl] / h.n_neg
            pc, nec = vertex_curve(lo[sl], hi[sl], alpha, (1 - h.y[sl] / h.n_pos) - alpha)
            assert got[r] == pytest.approx(prior.expected(pc, nec), abs=1e-6)


@pytest.mark.parametrize("seed", [0, 1])
def test_large_replicates_match_brute_force_with_default_blocks(seed):
    rng = np.random.default_rng(100 + seed)
    y, s = binormal(rng, 6000, d=2.0 if seed else 0.7)
    if seed:
        s = np.round(s, 2)
    layout = path_layout(y, s)
    cp = cumulative(multinomial_counts(rng, layout.n_pos, 4))
    cn = cumulative(multinomial_counts(rng, layout.n_neg, 4))
    hulls = replicate_hulls(layout, cp, cn)
    values = hulls_on_grid(hulls, np.linspace(0, 1, 1001))
    for r in range(4):
        env = envelope_from_hull(
            *convex_hull(cn[r, layout.neg_at] / layout.n_neg, cp[r, layout.pos_at] / layout.n_pos)
        )
        np.testing.assert_allclose(values[r], env(np.linspace(0, 1, 1001)), atol=1e-12)
        np.testing.assert_allclose(np.sort(env.pc), env.pc)


def test_a_classifiers_replicates_of_the_datasets_resampling_are_its_own_bootstrap():
    """Issue 9 item 1: a scoring classifier's band is read from the dataset's one resampling. For
    one classifier whose instances are already in its rank order within each class, that resampling
    draws exactly what its own stratified bootstrap draws (the same generator, chunks and counts),
    so the replicates agree to the bit: the band is the same procedure, on the instances the pairs
    share."""
    rng = np.random.default_rng(3)
    pos, neg = np.sort(rng.normal(1.0, 1.0, 40))[::-1], np.sort(rng.normal(0.0, 1.0, 60))[::-1]
    labels, scores = np.r_[np.ones(40, bool), np.zeros(60, bool)], np.r_[pos, neg]
    layout = path_layout(labels, scores)
    assert np.array_equal(layout.pos_order, np.arange(40)) and np.array_equal(
        layout.neg_order, np.arange(60)
    )
    priors = {"uniform": UniformPrior(), "beta": BetaPrior(2.0, 5.0)}
    own = bootstrap_scores(np.random.default_rng(9), labels, scores, 300, priors)
    shared = bootstrap_dataset(
        np.random.default_rng(9), labels, {"x": scores}, None, 300, priors
    ).classifiers["x"]
    assert own.values.tobytes() == shared.values.tobytes()
    assert all(own.expected[p].tobytes() == shared.expected[p].tobytes() for p in priors)
    np.testing.assert_array_equal(own.estimate, shared.estimate)


def test_dataset_replicates_in_row_slices_are_the_whole(monkeypatch):
    """bootstrap_dataset computes each drawn chunk's hulls a few replicates at a time
    (``hulls.ROW_BLOCK``): slices of three replicates (the last one shorter) give the very bytes of
    one pass over the chunk, for scoring and crisp classifiers, priors, sds and readers."""
    from ccreport.analysis import hulls
    from ccreport.analysis.selection.hybrid_bands import neyman_pearson_reader

    rng = np.random.default_rng(4)
    labels = rng.random(120) < 0.35
    scores = {"a": rng.normal(size=120) + labels, "b": np.round(rng.normal(size=120) + 2 * labels)}
    crisp = {"c": rng.normal(size=120) + labels > 0.5}
    priors = {"uniform": UniformPrior(), "beta": BetaPrior(2.0, 5.0)}
    readers = {"a": {"np": neyman_pearson_reader(0.2)}}

    def run():
        return bootstrap_dataset(
            np.random.default_rng(9), labels, scores, crisp, 200, priors, readers=readers
        )

    monkeypatch.setattr(hulls, "ROW_BLOCK", 10**12)
    whole = run()
    monkeypatch.setattr(hulls, "ROW_BLOCK", 3 * 121)
    sliced = run()
    for name in ("a", "b", "c"):
        w, s = whole.classifiers[name], sliced.classifiers[name]
        for field in ("values", "raw", "in_sample", "sd", "trivial", "sample_cost"):
            a, b = getattr(w, field), getattr(s, field)
            assert (a is None and b is None) or a.tobytes() == b.tobytes(), (name, field)
        for p in priors:
            assert w.expected[p].tobytes() == s.expected[p].tobytes()
            if w.expected_sd is not None:
                assert w.expected_sd[p].tobytes() == s.expected_sd[p].tobytes()
    read_w, read_s = whole.classifiers["a"].readings["np"], sliced.classifiers["a"].readings["np"]
    assert read_w.keys() == read_s.keys()
    assert all(read_w[k].tobytes() == read_s[k].tobytes() for k in read_w)
