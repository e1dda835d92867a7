"""Binned thresholds of the instance-cost bootstrap (issue 9): merges, the stated error bound,
bit-identity below the bin count, one draw for many classifiers."""

from __future__ import annotations

import numpy as np
import pytest

from ccreport.analysis import priors as pr
from ccreport.analysis.hull_costs import GRID
from ccreport.analysis.instance_cost_bins import (
    BINS,
    binned_layout,
    binned_rociv_replicates,
    coarsen,
)
from ccreport.analysis.instance_cost_bootstrap import (
    bootstrap_instance_costs,
    bootstrap_instance_costs_many,
    stratified_counts,
)
from ccreport.analysis.instance_costs import rociv_points, rociv_replicates

PRIORS = {"uniform": pr.UniformPrior(0.0, 1.0), "sceptic": pr.BetaPrior(2.0, 8.0)}


def _data(n, seed, decimals=3, zero_share=0.0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    y[:2] = True, False
    s = np.round(rng.normal(size=n) + 1.1 * y, decimals)
    c = rng.gamma(2.0, 50.0, n)
    c[rng.random(n) < zero_share] = 0.0
    c[:2] = 1.0
    return y, s, c


def _kept_index(exact, layout):
    """Positions of the layout's kept thresholds among the exact curve's points."""
    order = -exact.thresholds  # increasing, -inf first
    return np.searchsorted(order, -layout.sample.thresholds)


def _chord_distance(f, t, kept):
    """Each replicate's largest L-infinity distance of a path point from its bin's chord (exact: the
    distance to a segment is a convex piecewise-linear function of the segment parameter, least at
    one of its breakpoints)."""
    m = f.shape[1]
    b = np.maximum(np.searchsorted(kept, np.arange(m), side="left"), 1)
    a, c = kept[b - 1], kept[b]
    fa, ta = f[:, a], t[:, a]
    df, dt = f[:, c] - fa, t[:, c] - ta
    u, v = f - fa, t - ta
    with np.errstate(divide="ignore", invalid="ignore"):
        cands = [
            np.zeros_like(u),
            np.ones_like(u),
            u / df,
            v / dt,
            (u - v) / (df - dt),
            (u + v) / (df + dt),
        ]
    best = np.full(u.shape, np.inf)
    for lam in cands:
        lam = np.clip(np.nan_to_num(lam, nan=0.0, posinf=0.0, neginf=0.0), 0.0, 1.0)
        best = np.minimum(best, np.maximum(np.abs(lam * df - u), np.abs(lam * dt - v)))
    return best.max(axis=1)


@pytest.mark.parametrize("seed", range(6))
def test_coarsen_keeps_at_most_bins_increasing_ends_with_bounded_spans(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 400))
    steps = rng.exponential(size=m) * (rng.random(m) < 0.8)  # some zero-length groups
    length = np.cumsum(steps)
    for bins in (1, 2, 7, 50, m, m + 3):
        ends = coarsen(length, bins)
        assert ends.size <= bins and ends[-1] == m - 1
        assert np.all(np.diff(ends) > 0)
        if m <= bins:
            assert np.array_equal(ends, np.arange(m))
        else:
            starts = np.concatenate(([0.0], length[ends[:-1]]))
            last_group = length[ends] - np.concatenate(([0.0], length))[ends]
            assert np.all(
                length[ends] - starts <= length[-1] / bins + last_group + 1e-9 * length[-1]
            )


def test_coarsen_refuses_no_bins():
    with pytest.raises(ValueError, match="bins"):
        coarsen(np.arange(3.0), 0)


@pytest.mark.parametrize(
    "seed,bins,zero_share", [(0, 5, 0.0), (1, 40, 0.3), (2, 200, 0.0), (3, 13, 0.9)]
)
def test_binned_replicates_are_the_exact_ones_at_the_kept_thresholds(seed, bins, zero_share):
    """Forced small bin counts: each replicate's binned point is its exact point there, the class
    totals (sums of drawn costs) are preserved, the path is monotone from (0, 0) to (1, 1)."""
    y, s, c = _data(1500, seed, decimals=2, zero_share=zero_share)
    exact = rociv_points(y, s, c)
    layout = binned_layout(y, s, c, exact, bins)
    assert (
        1 <= layout.bins <= min(bins, exact.thresholds.size - 1)
    )  # long tied groups can take several cuts
    counts = stratified_counts(np.random.default_rng(seed), y, 12)
    e = rociv_replicates(y, s, c, counts)
    b = binned_rociv_replicates(layout, counts[:, y], counts[:, ~y])
    kept = _kept_index(exact, layout)
    assert np.array_equal(exact.thresholds[kept], layout.sample.thresholds)
    np.testing.assert_allclose(b.tp_benefit, e.tp_benefit[:, kept], rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(b.fp_cost, e.fp_cost[:, kept], rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(b.p_total, counts[:, y] @ c[y], rtol=1e-12)
    np.testing.assert_allclose(b.n_total, counts[:, ~y] @ c[~y], rtol=1e-12)
    assert np.all(np.diff(b.tp_benefit, axis=1) >= 0) and np.all(np.diff(b.fp_cost, axis=1) >= 0)
    assert (
        np.all(b.tpr[:, 0] == 0)
        and np.allclose(b.tpr[:, -1], 1.0)
        and np.allclose(b.fpr[:, -1], 1.0)
    )
    # the binned sample curve is the exact one at the kept thresholds
    assert np.array_equal(layout.sample.tp_benefit, exact.tp_benefit[kept])


@pytest.mark.parametrize(
    "seed,n,bins", [(0, 3000, 60), (1, 3000, 300), (2, 20000, 400), (3, 8000, 25)]
)
def test_binned_envelope_and_expected_costs_within_the_chord_bound(seed, n, bins):
    """The stated bound (instance_cost_bins): per replicate, 0 <= binned - exact envelope <= s on
    every PC_iv(+), s = the largest L-inf distance of a path point from its bin's chord; expected
    costs (integrals over a prior) likewise."""
    y, s, c = _data(n, seed)
    exact = rociv_points(y, s, c)
    layout = binned_layout(y, s, c, exact, bins)
    counts = stratified_counts(np.random.default_rng(seed + 10), y, 16)
    e = rociv_replicates(y, s, c, counts)
    b = binned_rociv_replicates(layout, counts[:, y], counts[:, ~y])
    bound = _chord_distance(e.fpr, e.tpr, _kept_index(exact, layout))
    d = b.envelope_on(GRID) - e.envelope_on(GRID)
    assert d.min() >= -1e-12
    assert np.all(d.max(axis=1) <= bound + 1e-12)
    assert bound.max() < 0.05  # not vacuous at these sizes
    # the bootstrap's raw expected costs: the same draws (one chunk), binned vs all thresholds
    reps = 16
    full = bootstrap_instance_costs(np.random.default_rng(seed + 10), y, s, c, reps, PRIORS, bins=n)
    binned = bootstrap_instance_costs(
        np.random.default_rng(seed + 10), y, s, c, reps, PRIORS, bins=bins
    )
    for p in PRIORS:
        de = binned.raw_expected[p] - full.raw_expected[p]
        assert de.min() >= -1e-12 and np.all(de <= bound + 1e-12)
    # AUCIV: the binned area misses each bin's inner area (in [0, df dt]); the shift by the sample's
    # miss leaves at most half of both replicate's and sample's sum of df dt
    kept = _kept_index(exact, layout)

    def box(f, t):
        return np.sum(np.diff(f[..., kept], axis=-1) * np.diff(t[..., kept], axis=-1), axis=-1)

    limit = (box(e.fpr, e.tpr) + box(exact.fpr, exact.tpr)) / 2.0
    assert np.all(np.abs(binned.auciv - full.auciv) <= limit + 1e-12)
    # the estimates are the exact ones, whatever the bins
    assert np.array_equal(binned.estimate, full.estimate)


def test_at_most_bins_distinct_scores_is_bit_identical_to_unbinned():
    y, s, c = _data(2500, 4, decimals=2)
    m = np.unique(s).size
    base = bootstrap_instance_costs(np.random.default_rng(9), y, s, c, 40, PRIORS, bins=10**9)
    same = bootstrap_instance_costs(np.random.default_rng(9), y, s, c, 40, PRIORS, bins=m)
    fewer = bootstrap_instance_costs(np.random.default_rng(9), y, s, c, 40, PRIORS, bins=m - 1)
    for name in ("estimate", "values", "auciv", "min_total_cost"):
        assert np.array_equal(getattr(base, name), getattr(same, name))
    assert all(np.array_equal(base.expected[p], same.expected[p]) for p in PRIORS)
    assert not np.array_equal(base.values, fewer.values)
    assert np.array_equal(base.estimate, fewer.estimate)
    assert m <= BINS  # so the default takes the unbinned path here


@pytest.mark.parametrize("bins", [1, 3])
def test_constant_scores_ties_and_one_group(bins):
    """Constant scores: one group, the diagonal, no binning needed at any bin count; three distinct
    scores forced into one bin: the chord (0, 0)-(1, 1), AUCIV shifted back to the sample's."""
    y, _, c = _data(600, 5)
    const = np.full(y.size, 0.25)
    r = bootstrap_instance_costs(np.random.default_rng(1), y, const, c, 20, PRIORS, bins=bins)
    assert np.allclose(r.auciv, 0.5) and np.allclose(r.values, np.minimum(GRID, 1 - GRID))
    three = np.where(y, 1.0, 0.0) + (np.arange(y.size) % 2)
    exact = rociv_points(y, three, c)
    layout = binned_layout(y, three, c, exact, 1)
    assert layout.bins == 1 and layout.sample.thresholds.size == 2
    one = bootstrap_instance_costs(np.random.default_rng(1), y, three, c, 20, PRIORS, bins=1)
    assert np.allclose(
        one.auciv, one.auciv[0]
    )  # every replicate is the chord; the shift is the sample's


def test_zero_cost_instances_and_a_replicate_with_no_cost_raise_as_unbinned():
    y, s, c = _data(400, 6, zero_share=0.95)
    with pytest.raises(ValueError, match="cost 0 in total"):
        bootstrap_instance_costs(
            np.random.default_rng(2), y, s, c * (np.arange(y.size) == 0) + (~y) * 1.0, 50, bins=5
        )


def test_many_classifiers_on_one_draw_equal_each_alone():
    """Binned and unbinned classifiers together: each result equals its own single call."""
    y, s, c = _data(3000, 7)
    crisp = (s > 0.5).astype(float)
    coarse = np.round(s, 1)
    together = bootstrap_instance_costs_many(
        np.random.default_rng(3), y, [s, crisp, coarse], c, 30, PRIORS, bins=50
    )
    for scores, found in zip((s, crisp, coarse), together):
        alone = bootstrap_instance_costs(
            np.random.default_rng(3), y, scores, c, 30, PRIORS, bins=50
        )
        for name in ("values", "auciv", "min_total_cost"):
            assert np.array_equal(getattr(found, name), getattr(alone, name))
