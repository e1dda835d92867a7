"""Replicates on merged score groups (issue 9, ccreport.analysis.replicate_groups): the layout
merge, the binning-error bound, the centring on the exact estimate, and that nothing changes below
B."""

import numpy as np
import pytest

from ccreport.analysis import calibration as cb
from ccreport.analysis.bootstrap import (
    bootstrap_scores,
    cumulative,
    multinomial_counts,
    path_layout,
    replicate_group_counts,
    sample_hull,
)
from ccreport.analysis.hull_costs import GRID, hulls_on_grid
from ccreport.analysis.hulls import replicate_hulls
from ccreport.analysis.paired_bootstrap import bootstrap_dataset
from ccreport.analysis.priors import BetaPrior, UniformPrior
from ccreport.analysis.replicate_groups import (
    MAX_REPLICATE_GROUPS,
    group_layout,
    group_means,
    group_scores,
    group_sizes,
)
from ccreport.analysis.roc import roc_points
from ccreport.tasks.threshold_choice_task import replicate_area_arrays


def data(seed, n=2000, decimals=None, shift=1.0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + shift * y
    return y, (s if decimals is None else np.round(s, decimals))


def group_extent(layout, cp, cn):
    """max over groups of (dT + dF) in each replicate's own rates: (R,)."""
    t = cp[:, layout.pos_at] / layout.n_pos
    f = cn[:, layout.neg_at] / layout.n_neg
    return (np.diff(t, axis=1) + np.diff(f, axis=1)).max(axis=1)


@pytest.mark.parametrize(
    "seed,decimals,groups", [(0, None, 16), (1, 1, 16), (2, None, 256), (3, 2, 64)]
)
def test_layout_merge(seed, decimals, groups):
    y, s = data(seed, decimals=decimals)
    fine = path_layout(y, s)
    lay = group_layout(fine, groups)
    assert lay.grouped and lay.fine is fine and lay.n_points - 1 <= groups
    assert (
        lay.points[0] == 0
        and lay.points[-1] == fine.n_points - 1
        and np.all(np.diff(lay.points) > 0)
    )
    np.testing.assert_array_equal(lay.pos_count, fine.pos_at[lay.points])
    np.testing.assert_array_equal(lay.neg_count, fine.neg_at[lay.points])
    sizes_pos, sizes_neg = group_sizes(lay)
    assert sizes_pos.sum() == fine.n_pos and sizes_neg.sum() == fine.n_neg
    np.testing.assert_array_equal(np.bincount(lay.pos_group, minlength=lay.n_points - 1), sizes_pos)
    np.testing.assert_array_equal(np.bincount(lay.neg_group, minlength=lay.n_points - 1), sizes_neg)
    # the group of each instance is the group holding its score
    order = np.argsort(-s, kind="stable")
    rank_of = np.empty(y.size, dtype=np.int64)
    rank_of[order] = np.arange(y.size)
    ends = fine.pos_at + fine.neg_at
    point_of = np.searchsorted(ends, rank_of, side="right") - 1  # fine group of each instance
    group_of = np.searchsorted(lay.points, point_of, side="right") - 1
    np.testing.assert_array_equal(lay.pos_group, group_of[y])
    np.testing.assert_array_equal(lay.neg_group, group_of[~y])
    # hull: a concave chain of group ends from (0, 0) to (N, P)
    h = sample_hull(lay)
    assert (h.x[0], h.y[0], h.x[-1], h.y[-1]) == (0, 0, fine.n_neg, fine.n_pos)
    slopes = np.diff(h.y) / np.maximum(np.diff(h.x), 1e-300)
    assert np.all(np.diff(h.x) >= 0) and np.all(np.diff(slopes) <= 1e-9)
    # groups span at most 2 / B in tpr + fpr plus their last distinct-score step
    u_fine = fine.pos_at / fine.n_pos + fine.neg_at / fine.n_neg
    last_step = u_fine[lay.points[1:]] - u_fine[lay.points[1:] - 1]
    assert np.all(np.diff(u_fine[lay.points]) <= 2.0 / groups + last_step + 1e-12)


def test_few_scores_unchanged_and_forced():
    y, s = data(4, decimals=1)
    fine = path_layout(y, s)
    assert group_layout(fine, fine.n_points - 1) is fine
    forced = group_layout(fine, MAX_REPLICATE_GROUPS, force=True)
    assert forced.grouped and forced.n_points == fine.n_points and forced.hull is fine.hull


def test_constant_scores_and_one_group():
    y, _ = data(5, n=300)
    const = path_layout(y, np.zeros(y.size))
    assert group_layout(const, 1) is const  # one distinct score: one group already
    y, s = data(6, n=300)
    one = group_layout(path_layout(y, s), 1)
    assert one.n_points == 2 and list(one.pos_count) == [0, one.n_pos]
    rep = bootstrap_scores(np.random.default_rng(0), y, s, 50, max_groups=1)
    assert np.all(np.isfinite(rep.values))
    # one group = only the trivial classifiers: the deviations are 0 and the band collapses on the
    # estimate
    np.testing.assert_allclose(
        rep.values, np.broadcast_to(rep.estimate, rep.values.shape), atol=1e-12
    )


@pytest.mark.parametrize(
    "seed,decimals,groups", [(7, None, 16), (8, None, 64), (9, 2, 32), (10, None, 256)]
)
def test_binned_replicate_envelopes_within_bound(seed, decimals, groups):
    """0 <= t*_B - t* <= pc (1 - pc) max_g (dT_g + dF_g), per replicate, on the same resampled
    instances."""
    y, s = data(seed, decimals=decimals)
    fine = path_layout(y, s)
    lay = group_layout(fine, groups)
    rng = np.random.default_rng(seed)
    cp = cumulative(multinomial_counts(rng, fine.n_pos, 40))
    cn = cumulative(multinomial_counts(rng, fine.n_neg, 40))
    exact = hulls_on_grid(replicate_hulls(fine, cp, cn), GRID)
    # the same replicates' counts per group: their cumulative counts at the group ends
    cp_b, cn_b = cp[:, lay.pos_count], cn[:, lay.neg_count]
    binned = hulls_on_grid(replicate_hulls(lay, cp_b, cn_b), GRID)
    gap = binned - exact
    bound = GRID * (1.0 - GRID) * group_extent(lay, cp_b, cn_b)[:, None]
    assert np.all(gap >= -1e-12) and np.all(gap <= bound + 1e-12)
    # the sample: the bound with the sample's own extents is at most pc (1 - pc) 2 / B plus tie
    # blocks
    t = hulls_on_grid(sample_hull(fine), GRID)[0]
    t_b = hulls_on_grid(sample_hull(lay), GRID)[0]
    ext = group_extent(lay, lay.pos_count[None], lay.neg_count[None])[0]
    assert np.all(t_b - t >= -1e-12) and np.all(t_b - t <= GRID * (1.0 - GRID) * ext + 1e-12)


def test_binning_gap_small_on_smooth_data():
    """Binormal scores: the sample's gap is far below the worst-case pc (1 - pc) 2 / B (the chord's
    sagitta)."""
    y, s = data(11, n=200_000)
    fine = path_layout(y, s)
    lay = group_layout(fine, 1024)
    gap = hulls_on_grid(sample_hull(lay), GRID)[0] - hulls_on_grid(sample_hull(fine), GRID)[0]
    assert gap.max() <= 0.1 * 2.0 / 1024


def test_grouped_band_centred_on_exact_estimate():
    """values = t + (C_B(v*) - t*_B), raw - t = t*_B - t_B: grouped replicates against the grouped
    sample."""
    y, s = data(12)
    priors = {"u": UniformPrior(), "b": BetaPrior(2.0, 5.0)}
    rep = bootstrap_scores(np.random.default_rng(3), y, s, 60, priors, max_groups=32)
    lay = rep.layout
    assert lay.grouped and lay.n_points - 1 <= 32
    np.testing.assert_array_equal(
        rep.estimate, hulls_on_grid(sample_hull(path_layout(y, s)), GRID)[0]
    )
    ((pos, neg),) = replicate_group_counts(np.random.default_rng(3), [lay], 60)
    h = replicate_hulls(lay, cumulative(pos), cumulative(neg))
    raw_b = hulls_on_grid(h, GRID)
    ins_b = hulls_on_grid(h, GRID, in_sample=True)
    t_b = hulls_on_grid(sample_hull(lay), GRID)[0]
    np.testing.assert_allclose(rep.raw - rep.estimate, raw_b - t_b, atol=1e-12)
    swap = rep.values != rep.estimate + rep.in_sample - rep.raw  # trivial swaps aside
    np.testing.assert_allclose(
        np.where(swap, 0, rep.values - rep.estimate), np.where(swap, 0, ins_b - raw_b), atol=1e-12
    )
    assert "score groups" in rep.method


def test_dataset_below_b_unchanged_when_another_is_binned():
    """A classifier with at most B distinct scores gets bit-identical replicates whether or not
    another classifier of the dataset is binned (the grouped path draws the same instances); so do
    crisp ones."""
    y, s = data(13, n=1500)
    few = np.round(s + np.random.default_rng(1).normal(size=s.size), 1)
    crisp = s > 0.4
    priors = {"u": UniformPrior(), "b": BetaPrior(2.0, 5.0)}
    fine = bootstrap_dataset(
        np.random.default_rng(5),
        y,
        {"many": s, "few": few},
        {"c": crisp},
        30,
        priors,
        max_groups=4096,
    )
    grouped = bootstrap_dataset(
        np.random.default_rng(5),
        y,
        {"many": s, "few": few},
        {"c": crisp},
        30,
        priors,
        max_groups=100,
    )
    assert (
        grouped.classifiers["many"].layout.grouped and not fine.classifiers["many"].layout.grouped
    )
    for name in ("few", "c"):
        a, b = fine.classifiers[name], grouped.classifiers[name]
        for field in ("values", "raw", "in_sample", "sample_cost", "trivial"):
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
        np.testing.assert_array_equal(a.expected["u"], b.expected["u"])
    np.testing.assert_array_equal(
        fine.classifiers["many"].estimate, grouped.classifiers["many"].estimate
    )


class _C:
    def __init__(self, name, scores=None, predictions=None):
        self.name, self.scores, self.predictions = name, scores, predictions


def test_threshold_areas_below_b_unchanged_and_binned_close():
    y, s = data(14, n=1500)
    few = np.round(s + np.random.default_rng(2).normal(size=s.size), 1)
    cs = [_C("many", scores=s), _C("few", scores=few), _C("c", predictions=s > 0.4)]
    ranges = ((0.1, 0.5),)
    fine = replicate_area_arrays(np.random.default_rng(6), y, cs, 40, ranges, max_groups=4096)
    grouped = replicate_area_arrays(np.random.default_rng(6), y, cs, 40, ranges, max_groups=128)
    for name in ("few", "c"):
        for k in (0, 1):
            for axis, by_method in fine[name][k].items():
                for m, v in by_method.items():
                    if v is not None:
                        np.testing.assert_array_equal(v, grouped[name][k][axis][m])
    # binned: the same instances, so each replicate's area is close to its exact one
    for axis, by_method in fine["many"][0].items():
        for m, v in by_method.items():
            if v is not None:
                assert np.max(np.abs(v - grouped["many"][0][axis][m])) < 2e-3, (axis, m)


def test_group_means_and_scores():
    y, s = data(15, n=500, decimals=2)
    fine = path_layout(y, s)
    lay = group_layout(fine, 8)
    distinct = np.unique(s)[::-1]
    w = np.random.default_rng(0).random(distinct.size)
    per_pos = np.diff(fine.pos_at)
    g_of_step = np.searchsorted(lay.points, np.arange(distinct.size), side="right") - 1
    expect = np.bincount(g_of_step, per_pos * w, lay.n_points - 1) / np.maximum(
        np.bincount(g_of_step, per_pos, lay.n_points - 1), 1
    )
    np.testing.assert_allclose(group_means(lay, w, True), expect)
    gs = group_scores(lay, distinct)
    assert np.all(np.diff(gs) < 0)


def test_calibration_on_groups():
    y, s = data(16, n=1000)
    rep = bootstrap_scores(np.random.default_rng(1), y, s, 40, max_groups=64)
    cal = cb.calibrate(
        np.random.default_rng(2),
        rep.layout,
        0.9,
        {"u": UniformPrior()},
        rep.grid,
        outer=20,
        inner=20,
    )
    assert np.all(cal.upper >= 0.95) and np.all(cal.upper <= 1.0) and cal.sup_scale >= 1.0
    counts = np.array([[3, 0, 2], [0, 5, 0]])
    inner = cb.resample_group_counts(np.random.default_rng(0), counts, 7)
    assert inner.shape == (14, 3)
    np.testing.assert_array_equal(inner.sum(axis=1), np.repeat(counts.sum(axis=1), 7))
    assert np.all(inner[:7, 1] == 0) and np.all(inner[7:, [0, 2]] == 0)


def test_roc_unchanged_by_grouping():
    """The point estimate is computed from the fine path (roc_points), never from the groups."""
    y, s = data(17)
    rep = bootstrap_scores(np.random.default_rng(1), y, s, 10, max_groups=16)
    roc = roc_points(y, s)
    assert rep.layout.fine.n_points == roc.fp.size


def test_shared_draws_are_a_cache_only():
    """threshold choice above B draws from the pairs task's generator (shared_group_counts keeps the
    last dataset's counts): a cache hit and a fresh draw give the same numbers, for both kinds."""
    y, s = data(18, n=1500)
    few = np.round(s, 1)
    cs = [_C("many", scores=s), _C("few", scores=few), _C("c", predictions=s > 0.4)]
    kw = {"max_groups": 64, "shared_rng": None}

    def areas(seed):
        return replicate_area_arrays(
            np.random.default_rng(1),
            y,
            cs,
            30,
            ((0.1, 0.5),),
            **(kw | {"shared_rng": np.random.default_rng(seed)}),
        )

    def dataset(seed, yy=y, ss=s):
        return bootstrap_dataset(
            np.random.default_rng(seed),
            yy,
            {"many": ss, "few": np.round(ss, 1)},
            {"c": ss > 0.4},
            30,
            max_groups=64,
        )

    first = areas(5)  # fresh draw
    hit = dataset(5)  # same generator state and layouts: served from the cache
    y2, s2 = data(19, n=1500)
    dataset(5, y2, s2)  # another dataset evicts it
    fresh = dataset(5)
    for name in ("many", "few", "c"):
        np.testing.assert_array_equal(hit.classifiers[name].values, fresh.classifiers[name].values)
    again = areas(
        5
    )  # fresh once more after the eviction above? (the last entry is this dataset's: a hit)
    for name in ("many", "few", "c"):
        for axis, by_method in first[name][0].items():
            for m, v in by_method.items():
                if v is not None:
                    np.testing.assert_array_equal(v, again[name][0][axis][m])


def test_independent_reader_on_groups():
    """The performance-independent hybrid's reader on a grouped layout: each group's mean weight;
    its replicates average to the exact sample value (the resampling is unbiased per group)."""
    from ccreport.analysis.selection import hybrid_bands as hb

    rng = np.random.default_rng(20)
    y = rng.random(3000) < 0.4
    p = 1.0 / (1.0 + np.exp(-(rng.normal(size=y.size) + 1.2 * y)))
    priors = {"u": UniformPrior()}
    readers = {"m": {"ind": hb.independent_reader(p, "score_driven", priors, 0.4)}}
    exact = hb.independent_expected(y, p, "score_driven", priors, 0.4)["u"]
    reps = bootstrap_dataset(
        np.random.default_rng(1), y, {"m": p}, {}, 400, priors, readers=readers, max_groups=64
    )
    assert reps.classifiers["m"].layout.grouped
    read = reps.classifiers["m"].readings["ind"]["u"]
    assert read.shape == (400,) and np.all(np.isfinite(read))
    assert abs(read.mean() - exact) < 4 * read.std() / np.sqrt(read.size)
    fine = bootstrap_dataset(
        np.random.default_rng(1), y, {"m": p}, {}, 400, priors, readers=readers
    )
    assert abs(read.std() / fine.classifiers["m"].readings["ind"]["u"].std() - 1.0) < 0.2
