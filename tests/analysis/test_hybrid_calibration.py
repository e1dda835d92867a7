"""The dataset hybrid's fast double bootstrap (ccreport.analysis.selection.hybrid_calibration)."""

from __future__ import annotations

import numpy as np
import pytest

from ccreport.analysis.calibration import resample_counts
from ccreport.analysis.hull_costs import GRID
from ccreport.analysis.path_layout import multinomial_counts
from ccreport.analysis.priors import UniformPrior
from ccreport.analysis.selection import hybrid_calibration as hc


def _data(seed=3, n=40):
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=bool)
    y[: n // 3] = True
    rng.shuffle(y)
    shared = rng.normal(size=n)
    scores = {
        f"c{i}": d * y + 0.7 * shared + 0.7 * rng.normal(size=n) for i, d in enumerate((0.8, 1.2))
    }
    predictions = {"crisp": rng.normal(size=n) + 1.5 * y > 0.7}
    return y, scores, predictions


def _brute_costs(y, rule_sets, w_pos, w_neg, grid):
    """(rules, m) cost of every rule's flagged set with instance weights (one replicate)."""
    n_pos, n_neg = w_pos.sum(), w_neg.sum()
    out = []
    for flagged in rule_sets:
        tpr = (w_pos * flagged[y]).sum() / n_pos
        fpr = (w_neg * flagged[~y]).sum() / n_neg
        out.append(grid * (1 - tpr) + (1 - grid) * fpr)
    return np.array(out)


def _rules(y, scores, predictions):
    """Every rule a member's envelope can select, as flagged sets, with its member's index: the
    trivial ones and each score threshold, and the crisp classifier's labels."""
    rules, owner = [], []
    for k, s in enumerate(scores.values()):
        for t in np.concatenate(([np.inf], np.unique(s))):
            rules.append(s >= t)
            owner.append(k)
    base = len(scores)
    for k, p in enumerate(predictions.values()):
        for flagged in (np.zeros(y.size, bool), np.asarray(p, bool), np.ones(y.size, bool)):
            rules.append(flagged)
            owner.append(base + k)
    return rules, np.array(owner)


def test_world_matches_a_brute_force_over_every_rule():
    """D* and D** against sums over every threshold of every member: outer replicate b's hybrid
    selects the cheapest rule in b's counts, its truth is that rule's sample cost; its inner
    replicate's selection is costed in b's counts. Compared where the cheapest rule is unique."""
    y, scores, predictions = _data()
    names = list(scores) + list(predictions)
    draws = 30
    d1, s1, d2, s2 = hc.hybrid_world(
        np.random.default_rng(8), y, scores, predictions, names, GRID, draws
    )
    rng = np.random.default_rng(8)  # the same draws, in hybrid_world's order (one chunk)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    op, on = multinomial_counts(rng, n_pos, draws), multinomial_counts(rng, n_neg, draws)
    ip, inn = resample_counts(rng, op, 1), resample_counts(rng, on, 1)
    rules, _ = _rules(y, scores, predictions)
    ones_p, ones_n = np.ones(n_pos), np.ones(n_neg)
    sample = _brute_costs(y, rules, ones_p, ones_n, GRID)
    checked = 0
    for b in range(draws):
        outer = _brute_costs(y, rules, op[b], on[b], GRID)
        inner = _brute_costs(y, rules, ip[b], inn[b], GRID)
        for costs, up, got in ((outer, sample, d1[b]), (inner, outer, d2[b])):
            best = costs.min(axis=0)
            unique = np.count_nonzero(np.abs(costs - best) <= 1e-9, axis=0) == 1
            pick = np.argmin(costs, axis=0)
            want = up[pick, np.arange(GRID.size)] - best
            np.testing.assert_allclose(got[unique], want[unique], atol=1e-12)
            checked += np.count_nonzero(unique)
    assert checked > draws * GRID.size  # most points have one cheapest rule
    assert np.all(s1 >= 0) and np.all(s2 >= 0)


def test_fdb_levels_against_a_direct_count():
    """Without pooling, the level is the share of the second level below the first's q quantile,
    never below q; pooled, the columns within the window are read as one sample."""
    rng = np.random.default_rng(1)
    first = rng.normal(0.03, 0.01, size=(500, GRID.size))
    second = first - 0.005 + rng.normal(0, 0.001, size=first.shape)
    q = 0.95
    got = hc.fdb_levels(first, second, GRID, q, window=0.0)
    for j in (0, 37, 100):
        x = np.quantile(first[:, j], q)
        assert got[j] == pytest.approx(max(q, np.mean(second[:, j] < x)))
    assert np.all(got > q)  # the second level sees less optimism: the level rises
    pooled = hc.fdb_levels(first, second, GRID, q, window=0.02)
    near = np.abs(GRID - GRID[50]) <= 0.02 + 1e-12
    x = np.quantile(first[:, near], q)
    assert pooled[50] == pytest.approx(np.mean(second[:, near] < x))


def test_fdb_level_only_widens():
    """A second level that sees as much optimism as the first, or more, leaves the nominal level."""
    rng = np.random.default_rng(2)
    first = rng.normal(size=1000)
    assert hc.fdb_level(first, first, 0.95) == 0.95
    assert hc.fdb_level(first, first + 1.0, 0.95) == 0.95
    x = np.quantile(first, 0.95)  # shifted down by 1 sd: the level is Phi(1.645 + 1) = 0.996 in law
    assert hc.fdb_level(first, first - 1.0, 0.95) == np.mean(first - 1.0 < x) > 0.98
    ties = np.zeros(1000)  # every replicate selects a trivial classifier: nothing to calibrate
    assert hc.fdb_level(ties, ties, 0.95) == 0.95


def test_calibration_raises_the_upper_levels_of_a_selective_hybrid():
    """Binormal scorers at n = 200: the hybrid's selection is optimistic, and the second level sees
    less of it than the first (D** < D* on average), so the levels rise above nominal."""
    rng = np.random.default_rng(5)
    n = 200
    y = rng.random(n) < 0.3
    shared = rng.normal(size=n)
    scores = {
        f"c{i}": d * y + np.sqrt(0.5) * (shared + rng.normal(size=n))
        for i, d in enumerate((0.8, 1.0, 1.2))
    }
    d1, _, d2, _ = hc.hybrid_world(rng, y, scores, None, list(scores), GRID, 400)
    inner = (GRID > 0.2) & (GRID < 0.8)
    assert d1[:, inner].mean() > d2[:, inner].mean() > 0
    cal = hc.calibrate_hybrid(rng, y, scores, None, list(scores), 0.9, {"u": UniformPrior()})
    assert np.all(cal.upper >= 0.95) and cal.upper[inner].mean() > 0.95
    assert cal.expected_upper["u"] > 0.95
    assert cal.lower_level == pytest.approx(0.05)
    assert (cal.outer, cal.inner) == (hc.DRAWS, 1)


def test_calibration_is_reproducible():
    """The same generator gives the same levels, bit for bit."""
    y, scores, predictions = _data(n=60)
    names = list(scores) + list(predictions)
    a = hc.calibrate_hybrid(np.random.default_rng(4), y, scores, predictions, names, 0.9)
    b = hc.calibrate_hybrid(np.random.default_rng(4), y, scores, predictions, names, 0.9)
    np.testing.assert_array_equal(a.upper, b.upper)


@pytest.mark.parametrize("seed, n, draws, rows", [(3, 40, 50, 3), (0, 100, 1000, 1)])
def test_world_in_row_slices_is_the_whole(seed, n, draws, rows, monkeypatch):
    """hybrid_world computes each drawn chunk a few replicates at a time (``hulls.ROW_BLOCK``):
    slices of three replicates (the last one shorter), or of one among a thousand (where the
    one-search selection's offsets of 2 r per row round differently unless each slice passes its
    place as ``row0``), give the bytes of one pass."""
    from ccreport.analysis import hulls

    y, scores, predictions = _data(seed, n)
    names = list(scores) + list(predictions)

    def run():
        return hc.hybrid_world(np.random.default_rng(7), y, scores, predictions, names, GRID, draws)

    monkeypatch.setattr(hulls, "ROW_BLOCK", 10**12)
    whole = run()
    monkeypatch.setattr(hulls, "ROW_BLOCK", rows * (y.size + 1))
    sliced = run()
    assert all(a.tobytes() == b.tobytes() for a, b in zip(whole, sliced, strict=True))
