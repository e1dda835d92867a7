"""Double-bootstrap calibration of the scoring classifiers' bands
(ccreport.analysis.calibration)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from synthetic import binormal

from ccreport.analysis import calibration as cb
from ccreport.analysis.bands import pointwise_band, simultaneous_band, studentizing_sd
from ccreport.analysis.bootstrap import bootstrap_scores, multinomial_counts, path_layout
from ccreport.analysis.hull_costs import GRID
from ccreport.analysis.priors import BetaPrior, PointPrior, UniformPrior

PRIORS = {"uniform": UniformPrior(), "beta": BetaPrior(2.0, 5.0), "point": PointPrior(0.37)}


# --- inner resamples ------------------------------------------------------------------------------


def test_inner_resamples_draw_only_what_the_outer_replicate_holds():
    rng = np.random.default_rng(3)
    outer = multinomial_counts(rng, 30, 4)
    inner = cb.resample_counts(rng, outer, 500)
    assert inner.shape == (2000, 30)
    assert np.all(inner.sum(axis=1) == 30)
    by_outer = inner.reshape(4, 500, 30)
    assert np.all(by_outer[outer[:, None, :].repeat(500, axis=1) == 0] == 0)
    # Multinomial(30, outer / 30): mean = outer, so the average of 500 draws is close to it
    np.testing.assert_allclose(by_outer.mean(axis=1), outer, atol=0.6)


def test_inner_resamples_are_reproducible():
    outer = multinomial_counts(np.random.default_rng(0), 12, 3)
    a = cb.resample_counts(np.random.default_rng(9), outer, 7)
    b = cb.resample_counts(np.random.default_rng(9), outer, 7)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("size", [1, 2, 208, 1000, 65537, 2**31 - 1])
def test_inner_draws_in_32_bits_are_the_64_bit_draws(size):
    """resample_counts and resample_cumulative draw their positions as int32 (a third of the time of
    int64 draws): numpy's bounded generator draws a range that fits 32 bits from 32-bit words either
    way, so the positions, and every calibration, are the ones int64 draws gave (and the generator
    is left in the same state)."""
    a_rng, b_rng = np.random.default_rng(size), np.random.default_rng(size)
    np.testing.assert_array_equal(
        a_rng.integers(0, size, size=(3, 5, 64), dtype=np.int32),
        b_rng.integers(0, size, size=(3, 5, 64)),
    )
    assert a_rng.integers(1 << 62) == b_rng.integers(1 << 62)


def test_resample_counts_is_pinned_to_64_bit_draws():
    """resample_counts against the same computation with numpy's default (int64) draws."""
    outer = multinomial_counts(np.random.default_rng(0), 40, 6)
    got = cb.resample_counts(np.random.default_rng(4), outer, 25)
    rng = np.random.default_rng(4)
    lists = np.repeat(np.tile(np.arange(40), 6), outer.ravel()).reshape(6, 40)
    picks = rng.integers(0, 40, size=(6, 25, 40))
    want = np.stack(
        [
            np.bincount(
                np.take_along_axis(lists[:, None, :], picks, axis=2).reshape(150, 40)[r],
                minlength=40,
            )
            for r in range(150)
        ]
    )
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("distinct", [3, 40])
@pytest.mark.parametrize(
    "block", [2**17, 700]
)  # all outer rows at once / two at a time, the last alone
def test_resample_cumulative_is_the_cumulated_resample_from_the_same_draws(
    distinct, block, monkeypatch
):
    """The same integers as cumulating resample_counts' per-instance counts and reading them at the
    path points' class ranks, from the same generator state (and leaving it in the same state)."""
    monkeypatch.setattr(cb, "RESAMPLE_BLOCK", block)
    rng = np.random.default_rng(5)
    y = rng.random(90) < 0.4
    s = np.round(rng.random(90) * distinct) / distinct
    layout = path_layout(y, s)
    _, pos_ranks, neg_ranks = cb.path_columns(layout)
    outer = multinomial_counts(rng, layout.n_pos, 7)
    assert 9 * layout.n_pos * 2 <= 700 < 9 * layout.n_pos * 3
    a_rng, b_rng = np.random.default_rng(11), np.random.default_rng(11)
    want = cb.cumulative(cb.resample_counts(a_rng, outer, 9))[:, pos_ranks]
    got = cb.resample_cumulative(b_rng, outer, 9, pos_ranks)
    np.testing.assert_array_equal(got, want)
    assert a_rng.integers(1 << 62) == b_rng.integers(1 << 62)
    assert cb.resample_cumulative(
        np.random.default_rng(1), np.zeros((2, 0), dtype=np.int64), 3, np.array([0])
    ).shape == (6, 1)


def test_path_columns_read_the_same_counts_as_the_layout():
    """Counts cumulated at the distinct class ranks, read through the re-indexed layout, are the
    layout's own path points; their ranks are the layout's."""
    rng = np.random.default_rng(2)
    y = rng.random(60) < 0.5
    layout = path_layout(y, np.round(rng.random(60) * 7))
    columns, pos_ranks, neg_ranks = cb.path_columns(layout)
    cp = cb.cumulative(multinomial_counts(rng, layout.n_pos, 4))
    np.testing.assert_array_equal(cp[:, pos_ranks][:, columns.pos_at], cp[:, layout.pos_at])
    np.testing.assert_array_equal(pos_ranks[columns.pos_at], layout.pos_at)
    np.testing.assert_array_equal(neg_ranks[columns.neg_at], layout.neg_at)
    assert columns.n_points == layout.n_points


# --- the bootstrap world against brute force ------------------------------------------------------


def _brute_cost(counts_pos, counts_neg, layout, k, pc):
    """Cost at pc of path point k (first k score groups positive) in a sample with these counts."""
    tp = counts_pos[: layout.pos_at[k]].sum()
    fp = counts_neg[: layout.neg_at[k]].sum()
    return pc * (1.0 - tp / layout.n_pos) + (1.0 - pc) * fp / layout.n_neg


def _brute_selection(counts_pos, counts_neg, layout, pc):
    """The path point a sample with these counts selects at pc, and its cost; None if two different
    ROC points tie (then the choice is a convention). Among path points that are the same ROC point
    in this sample the engine keeps the last (lowest threshold), so does this."""
    costs = np.array(
        [_brute_cost(counts_pos, counts_neg, layout, k, pc) for k in range(layout.n_points)]
    )
    best = np.flatnonzero(costs <= costs.min() + 1e-12)
    points = {
        (counts_pos[: layout.pos_at[k]].sum(), counts_neg[: layout.neg_at[k]].sum()) for k in best
    }
    if len(points) > 1:
        return None
    return int(best.max()), float(costs.min())


@pytest.mark.parametrize("case", range(6))
def test_bootstrap_world_matches_brute_force(case):
    """truth = C(v*_b) and c**_bk = t*_b + C_b(v**_bk) - t**_bk, each by enumerating every
    threshold."""
    rng = np.random.default_rng(100 + case)
    n = int(rng.integers(8, 30))
    y, s = binormal(rng, n)
    if case % 2:
        s = np.round(s)  # ties
    layout = path_layout(y, s)
    g, k = 2, 3
    cpos = multinomial_counts(rng, layout.n_pos, g)
    cneg = multinomial_counts(rng, layout.n_neg, g)
    ipos, ineg = cb.resample_counts(rng, cpos, k), cb.resample_counts(rng, cneg, k)
    grid = np.array([0.13, 0.3, 0.5, 0.71, 0.9])
    world = cb.bootstrap_world(layout, cpos, cneg, ipos, ineg, grid, {})
    ones_p, ones_n = np.ones(layout.n_pos, int), np.ones(layout.n_neg, int)
    checked = 0
    for b in range(g):
        for j, pc in enumerate(grid):
            outer = _brute_selection(cpos[b], cneg[b], layout, pc)
            if outer is None:
                continue
            v_b, t_b = outer
            assert world.truth[b, j] == pytest.approx(
                _brute_cost(ones_p, ones_n, layout, v_b, pc), abs=1e-12
            )
            for i in range(k):
                row = b * k + i
                inner = _brute_selection(ipos[row], ineg[row], layout, pc)
                if inner is None:
                    continue
                v, t2 = inner
                want = t_b + _brute_cost(cpos[b], cneg[b], layout, v, pc) - t2
                assert world.inner[b, i, j] == pytest.approx(want, abs=1e-12)
                checked += 1
    assert checked >= 10


def test_bootstrap_world_expected_costs_are_those_of_the_grid_curves():
    """Under a point prior the expected cost is the curve's value there."""
    rng = np.random.default_rng(5)
    y, s = binormal(rng, 60)
    layout = path_layout(y, s)
    cpos, cneg = multinomial_counts(rng, layout.n_pos, 3), multinomial_counts(rng, layout.n_neg, 3)
    ipos, ineg = cb.resample_counts(rng, cpos, 4), cb.resample_counts(rng, cneg, 4)
    grid = np.array([0.2, 0.37, 0.8])
    world = cb.bootstrap_world(layout, cpos, cneg, ipos, ineg, grid, {"point": PointPrior(0.37)})
    np.testing.assert_allclose(world.truth_expected["point"], world.truth[:, 1], atol=1e-12)
    np.testing.assert_allclose(world.inner_expected["point"], world.inner[:, :, 1], atol=1e-12)


# --- ranks, quantiles, ratios ---------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.int8, (3, 9), elements=st.integers(-3, 3)),
    arrays(np.int8, 3, elements=st.integers(-4, 4)),
)
def test_upper_rank_is_the_level_an_upper_edge_needs(samples, truth):
    u = cb.upper_rank(truth.astype(float), samples.astype(float))
    for b in range(3):
        if np.all(samples[b] == truth[b]):
            assert np.isnan(u[b])
            continue
        below = np.sum(samples[b] < truth[b])
        assert u[b] == pytest.approx((below + 0.5) / 10)
        assert 0.05 <= u[b] <= 0.95


def test_ties_with_the_truth_do_not_narrow_the_band():
    """Most replicates equal to the truth (a trivial classifier chosen in most of them): the truth
    is covered by any upper edge, and its rank is low, not 1/2."""
    samples = np.r_[np.zeros(70), np.linspace(-1, 1, 30)][None, :]
    assert cb.upper_rank(np.zeros(1), samples)[0] < 0.2


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.float64, (13, 4), elements=st.floats(-5, 5, allow_nan=False)),
    arrays(np.float64, 4, elements=st.floats(0, 1)),
)
def test_quantiles_by_column_agree_with_numpy(values, levels):
    got = cb.quantiles_by_column(values, levels)
    want = [np.quantile(values[:, j], levels[j]) for j in range(4)]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_pooled_quantile_without_a_window_is_each_columns_quantile():
    rng = np.random.default_rng(2)
    u = rng.random((50, 5))
    u[:, 3] = np.nan
    grid = np.linspace(0, 1, 5)
    got = cb.pooled_quantile(u, grid, 0.95, window=0.0)
    np.testing.assert_allclose(got[[0, 1, 2, 4]], np.quantile(u[:, [0, 1, 2, 4]], 0.95, axis=0))
    assert got[3] == 0.95  # nothing to calibrate there: the nominal level
    wide = cb.pooled_quantile(u, grid, 0.95, window=1.0)
    np.testing.assert_allclose(wide, np.nanquantile(u, 0.95))


def test_sup_ratio_is_one_on_the_edge_of_the_inner_band():
    """A truth on the edge of the band simultaneous_band would draw from the inner replicates."""
    rng = np.random.default_rng(4)
    inner = rng.normal(size=(1, 400, 7)) * np.linspace(0.5, 2, 7)
    lo, hi = simultaneous_band(inner[0], 0.9)
    edge = hi.copy()
    edge[2] = 0.5 * (lo[2] + hi[2])  # inside elsewhere: the sup is attained at the edge points
    ratio = cb.sup_ratios(*cb.sup_statistics(inner, edge[None, :]), 0.9)
    assert ratio[0] == pytest.approx(1.0)
    centre = cb.sup_ratios(*cb.sup_statistics(inner, inner.mean(axis=1)), 0.9)
    assert centre[0] == pytest.approx(0.0)


def test_sup_ratio_pools_the_critical_value_over_outer_replicates():
    """The inner bands' critical value is the level quantile of every outer replicate's inner sup
    statistics together: two outer replicates of the same inner world, one with a truth on the
    pooled band's edge, one at its centre."""
    rng = np.random.default_rng(5)
    inner = rng.normal(size=(2, 200, 5))
    stat, sups = cb.sup_statistics(inner, inner.mean(axis=1))
    assert sups.shape == (2, 200) and np.all(stat == 0.0)
    critical = np.quantile(sups, 0.9)
    sd = studentizing_sd(inner[0].std(axis=0, ddof=1))
    edge = inner[0].mean(axis=0) + critical * sd
    truth = np.stack((edge, inner[1].mean(axis=0)))
    ratio = cb.sup_ratios(*cb.sup_statistics(inner, truth), 0.9)
    np.testing.assert_allclose(ratio, [1.0, 0.0], atol=1e-12)


def test_sup_ratio_leaves_out_points_without_spread():
    """The band has width 0 where the inner replicates all agree, whatever its scale."""
    inner = np.zeros((1, 5, 3))
    inner[0, :, 1] = np.arange(5.0)
    truth = np.array([[0.0, 2.0, 0.1]])  # grid point 2 has no spread and the truth is off it
    assert cb.sup_ratios(*cb.sup_statistics(inner, truth), 0.9)[0] == pytest.approx(0.0)
    assert np.isnan(cb.sup_ratios(*cb.sup_statistics(np.zeros((1, 5, 3)), truth), 0.9)[0])


# --- calibrate ------------------------------------------------------------------------------------


def test_calibration_widens_the_upper_edge_on_small_samples():
    """The bootstrap under-states the selection optimism (module docstring): the calibrated upper
    level moves above (1 + level)/2 and the simultaneous band widens."""
    rng = np.random.default_rng(11)
    y, s = binormal(rng, 200)
    cal = cb.calibrate(rng, path_layout(y, s), 0.9, PRIORS, outer=100, inner=50)
    interior = (GRID > 0.1) & (GRID < 0.9)
    assert cal.upper[interior].mean() > 0.955
    assert np.all((cal.upper > 0) & (cal.upper < 1))
    assert cal.sup_scale > 1.0
    assert set(cal.expected_upper) == set(PRIORS)
    assert cal.expected_levels("uniform")[0] == pytest.approx(0.05)
    rep = bootstrap_scores(rng, y, s, 400, PRIORS)
    lo, hi = cb.calibrated_band(rep.values, cal)
    plo, phi = pointwise_band(rep.values, 0.9)
    np.testing.assert_allclose(lo, plo)
    assert np.all(hi >= phi - 1e-12) and np.any(hi > phi)


def test_calibration_is_reproducible():
    y, s = binormal(np.random.default_rng(1), 120)
    a = cb.calibrate(np.random.default_rng(7), path_layout(y, s), 0.9, PRIORS, outer=40, inner=20)
    b = cb.calibrate(np.random.default_rng(7), path_layout(y, s), 0.9, PRIORS, outer=40, inner=20)
    np.testing.assert_array_equal(a.upper, b.upper)
    assert a.sup_scale == b.sup_scale and a.expected_upper == b.expected_upper


@pytest.mark.parametrize("kind", ["separable", "constant"])
def test_nothing_to_calibrate_gives_the_nominal_band(kind):
    """Perfect separation (every replicate's curve is 0) or constant scores (every replicate is the
    trivial classifiers' min(pc, 1 - pc)): no spread anywhere, so the levels stay nominal."""
    y = np.array([True] * 20 + [False] * 25)
    s = y.astype(float) if kind == "separable" else np.ones(y.size)
    cal = cb.calibrate(np.random.default_rng(0), path_layout(y, s), 0.9, PRIORS, outer=30, inner=10)
    np.testing.assert_allclose(cal.upper, 0.95)
    assert cal.sup_scale == 1.0
    assert all(v == pytest.approx(0.95) for v in cal.expected_upper.values())


def test_nominal_calibration_is_the_plain_percentile_band():
    rng = np.random.default_rng(8)
    values = rng.normal(size=(300, 11))
    lo, hi = cb.calibrated_band(values, cb.nominal(0.8, 11))
    plo, phi = pointwise_band(values, 0.8)
    np.testing.assert_allclose(lo, plo)
    np.testing.assert_allclose(hi, phi)
    assert cb.nominal(0.8, 11).describe() is None


def test_when_to_calibrate():
    assert cb.wanted("auto", 1000)
    assert cb.wanted("auto", cb.AUTO_BUDGET // (cb.OUTER * cb.INNER))
    assert not cb.wanted("auto", cb.AUTO_BUDGET // (cb.OUTER * cb.INNER) + 1)
    assert cb.wanted("double", 10**7)
    assert not cb.wanted("off", 100)
    with pytest.raises(ValueError):
        cb.wanted("sometimes", 100)


def test_calibration_never_narrows_a_band_with_few_distinct_scores():
    """A three-level score: most replicates tie (module docstring); levels stay at or above
    nominal."""
    rng = np.random.default_rng(12)
    y, s = binormal(rng, 150)
    s = np.digitize(s, [0.0, 1.0]).astype(float)
    cal = cb.calibrate(rng, path_layout(y, s), 0.9, PRIORS, outer=60, inner=30)
    assert np.all(cal.upper >= 0.95) and cal.sup_scale >= 1.0
    assert all(v >= 0.95 for v in cal.expected_upper.values())


def _small_world(seed: int, g: int, k: int):
    """A binormal sample of 90, its layout, g outer replicates' counts and k inner ones of each."""
    rng = np.random.default_rng(seed)
    y, s = binormal(rng, 90)
    layout = path_layout(y, s)
    cpos, cneg = multinomial_counts(rng, layout.n_pos, g), multinomial_counts(rng, layout.n_neg, g)
    return layout, cpos, cneg, cb.resample_counts(rng, cpos, k), cb.resample_counts(rng, cneg, k)


def test_inner_replicates_in_pieces_make_the_same_world():
    """At large n the inner replicates are drawn in pieces (memory): the same draws split into
    pieces give exactly the world of the whole."""
    g, k = 3, 12
    layout, cpos, cneg, ipos, ineg = _small_world(2, g, k)
    whole = cb.bootstrap_world(layout, cpos, cneg, ipos, ineg, GRID, PRIORS)

    def piece(counts, j0, j1):
        return counts.reshape(g, k, -1)[:, j0:j1].reshape(g * (j1 - j0), -1)

    outer = cb.outer_world(layout, cpos, cneg, GRID, PRIORS)
    cuts = [(0, 5), (5, 10), (10, 12)]
    split = cb.world_in_pieces(
        layout, outer, [(piece(ipos, a, b), piece(ineg, a, b)) for a, b in cuts], GRID, PRIORS
    )
    np.testing.assert_array_equal(split.inner, whole.inner)
    np.testing.assert_array_equal(split.truth, whole.truth)
    for p in PRIORS:
        np.testing.assert_array_equal(split.inner_expected[p], whole.inner_expected[p])


@pytest.mark.parametrize(
    "seed, g, k, block",
    [(4, 5, 8, 1), (4, 5, 8, 2), (4, 5, 8, 10**9), (0, 20, 30, 1), (0, 20, 30, 3)],
)
def test_inner_world_in_blocks_of_outer_replicates_is_the_whole(seed, g, k, block, monkeypatch):
    """The inner replicates' hulls and costs are computed a few outer replicates at a time (cache):
    blocks of one outer replicate, of two or three (the last one shorter), or all at once give the
    same world, bit for bit. With hundreds of inner rows (g, k = 20, 30) the offsets of the
    one-search selection (2 r per row) round at a switch that falls on a grid point; each block
    passes its rows' place (``row0``), so the blocks still give the whole world."""
    layout, cpos, cneg, ipos, ineg = _small_world(seed, g, k)
    monkeypatch.setattr(cb, "HULL_BLOCK", 10**12)
    whole = cb.bootstrap_world(layout, cpos, cneg, ipos, ineg, GRID, PRIORS)
    monkeypatch.setattr(cb, "HULL_BLOCK", block * k * layout.n_points)
    blocked = cb.bootstrap_world(layout, cpos, cneg, ipos, ineg, GRID, PRIORS)
    assert blocked.inner.tobytes() == whole.inner.tobytes()
    for p in PRIORS:
        assert blocked.inner_expected[p].tobytes() == whole.inner_expected[p].tobytes()


def test_modes_are_the_manifests():
    from ccreport.project.settings import CALIBRATIONS

    assert cb.MODES == CALIBRATIONS


def _few_scores(seed: int, n: int = 400, levels: int = 5):
    y, s = binormal(np.random.default_rng(seed), n)
    return y, np.digitize(s, np.linspace(-1.0, 2.0, levels - 1)).astype(float)


def test_few_distinct_scores_are_drawn_per_score():
    """At most n / GROUP_DRAWS distinct scores: outer and inner replicates are drawn per score (one
    binomial a score, O(G)) on the layout with one group per distinct score: the same path, so the
    same calibration as asking for that layout, bit for bit."""
    from ccreport.analysis.replicate_groups import group_layout

    y, s = _few_scores(3)
    layout = path_layout(y, s)
    assert (layout.n_points - 1) * cb.GROUP_DRAWS <= y.size and not layout.grouped
    a = cb.calibrate(np.random.default_rng(5), layout, 0.9, PRIORS, outer=30, inner=10)
    b = cb.calibrate(
        np.random.default_rng(5), group_layout(layout, force=True), 0.9, PRIORS, outer=30, inner=10
    )
    np.testing.assert_array_equal(a.upper, b.upper)
    assert a.sup_scale == b.sup_scale and a.expected_upper == b.expected_upper


def test_per_score_draws_calibrate_as_per_instance_draws(monkeypatch):
    """Per score or per instance, the replicates have the same distribution (a class's instances
    with one score are exchangeable), so the calibrated levels agree within Monte-Carlo error: mean
    upper level at PC(+) 0.2-0.8 and mean sup-norm scale over 40 data sets each (measured:
    differences of 1.4 and 0.5 standard errors; the bound is 4)."""

    def levels(group_draws):
        monkeypatch.setattr(cb, "GROUP_DRAWS", group_draws)
        uppers, scales = [], []
        for seed in range(40):
            y, s = _few_scores(100 + seed)
            cal = cb.calibrate(
                np.random.default_rng(seed), path_layout(y, s), 0.9, PRIORS, outer=40, inner=20
            )
            uppers.append(cal.upper[(GRID >= 0.2) & (GRID <= 0.8)].mean())
            scales.append(cal.sup_scale)
        return np.array(uppers), np.array(scales)

    per_score, per_instance = levels(32), levels(10**9)
    for a, b in zip(per_score, per_instance):
        se = np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
        assert abs(a.mean() - b.mean()) < 4 * se + 1e-12
