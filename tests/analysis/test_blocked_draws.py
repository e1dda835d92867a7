"""path_layout.draw_positions: a class up to BLOCKED_DRAW_ABOVE instances keeps its draws; above, a
row is drawn block by block, which must be the same law, Multinomial(size, uniform), checked here
by simulation against its moments (a block-stratified draw, the tempting wrong one, fails)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ccreport.analysis import path_layout
from ccreport.analysis.path_layout import draw_positions, multinomial_counts
from ccreport.analysis.replicate_groups import shared_group_counts


def test_small_classes_keep_their_stream():
    """Up to the threshold: the very draws of one rng.integers call (every result up to 2^20
    instances a class is the same as before blocked draws)."""
    for size, reps in ((1, 2), (208, 5), (5000, 3)):
        got = draw_positions(np.random.default_rng(3), size, reps)
        expected = np.random.default_rng(3).integers(0, size, size=(reps, size), dtype=np.int32)
        np.testing.assert_array_equal(got, expected)
        assert got.dtype == np.int32


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(1, 90),
    block=st.integers(1, 40),
    reps=st.integers(0, 4),
)
def test_blocked_rows_are_resamples_in_block_order(seed, size, block, reps):
    drawn = draw_positions(np.random.default_rng(seed), size, reps, block=block, above=0)
    assert drawn.shape == (reps, size) and drawn.dtype == np.int32
    assert ((drawn >= 0) & (drawn < size)).all()
    assert (np.diff(drawn // block, axis=1) >= 0).all()  # block after block, as counted


def _moments(counts: np.ndarray, block: int):
    """Mean and variance of an item's count, and the covariance of two items in one block and in
    different blocks, each averaged over the pairs or items of that kind."""
    size = counts.shape[1]
    cov = np.cov(counts, rowvar=False)
    same = np.equal.outer(np.arange(size) // block, np.arange(size) // block)
    off = ~np.eye(size, dtype=bool)
    return counts.mean(), np.diag(cov).mean(), cov[same & off].mean(), cov[~same].mean()


def _block_stratified(rng, size, reps, block):
    """The tempting wrong draw: each block gets its share of the draws, size x length / size."""
    starts = np.arange(0, size, block)
    lengths = np.minimum(block, size - starts)
    out = np.concatenate(
        [s + rng.integers(0, n, size=(reps, n)) for s, n in zip(starts, lengths)], axis=1
    )
    return np.array([np.bincount(row, minlength=size) for row in out])


def test_blocked_draws_have_the_multinomial_moments():
    """Multinomial(n, uniform): E = 1, Var = 1 - 1/n, Cov = -1/n for any two items, in one block or
    not. 40,000 replicates of n = 30 in blocks of 8 (the last one 6). Monte-Carlo standard errors of
    the averaged moments, measured over 12 seeds: variance 0.0009, covariance within a block 0.0004,
    between blocks 0.00013; the bounds are about 5 of them. A block-stratified draw misses them by
    20-140 times."""
    size, block, reps = 30, 8, 40_000
    drawn = draw_positions(np.random.default_rng(2026), size, reps, block=block, above=0)
    counts = np.array([np.bincount(row, minlength=size) for row in drawn])
    assert (counts.sum(axis=1) == size).all()
    mean, var, cov_same, cov_other = _moments(counts, block)
    assert abs(mean - 1) < 1e-12  # every row has exactly n draws
    assert abs(var - (1 - 1 / size)) < 0.005
    assert abs(cov_same + 1 / size) < 0.002
    assert abs(cov_other + 1 / size) < 0.0007
    # the plain draw meets the same bounds, and a block-stratified draw does not (no spread of the
    # block totals: items of different blocks uncorrelated, those of one block over-anticorrelated)
    plain = multinomial_counts(np.random.default_rng(7), size, reps)
    _, var_p, same_p, other_p = _moments(plain, block)
    assert (
        abs(var_p - (1 - 1 / size)) < 0.005
        and abs(same_p + 1 / size) < 0.002
        and abs(other_p + 1 / size) < 0.0007
    )
    wrong = _block_stratified(np.random.default_rng(7), size, reps, block)
    _, var_w, same_w, other_w = _moments(wrong, block)
    assert (
        abs(var_w - (1 - 1 / size)) > 0.05
        and abs(same_w + 1 / size) > 0.05
        and abs(other_w + 1 / size) > 0.02
    )


def test_blocked_multinomial_counts_count_the_blocked_draws(monkeypatch):
    monkeypatch.setattr(path_layout, "BLOCKED_DRAW_ABOVE", 50)
    monkeypatch.setattr(path_layout, "DRAW_BLOCK", 16)
    for size, reps in ((40, 3), (51, 4), (200, 2)):
        got = multinomial_counts(np.random.default_rng(5), size, reps)
        drawn = draw_positions(np.random.default_rng(5), size, reps)
        assert (
            size <= 50 or (np.diff(drawn // 16, axis=1) >= 0).all()
        )  # drawn block by block above 50
        expected = np.array([np.bincount(row, minlength=size) for row in drawn])
        np.testing.assert_array_equal(got, expected)
        assert got.dtype == np.int64 and (got.sum(axis=1) == size).all()


@pytest.mark.parametrize("size", [57, 64])
def test_shared_group_counts_read_the_blocked_draws(monkeypatch, size):
    """The dataset's paired counts take the same positions: each classifier's group counts and a
    crisp classifier's TP* are those of the blocked draws."""
    monkeypatch.setattr(path_layout, "BLOCKED_DRAW_ABOVE", 10)
    monkeypatch.setattr(path_layout, "DRAW_BLOCK", 8)

    class Layout:
        n_pos, n_neg, n_points = size, size + 3, 5
        pos_group = np.arange(size) % 4
        neg_group = np.arange(size + 3) % 4

    lab_pos, lab_neg = (
        (np.arange(size) % 3 == 0).astype(np.int64),
        (np.arange(size + 3) % 2).astype(np.int64),
    )
    found, sums = shared_group_counts(
        np.random.default_rng(9), {"a": Layout}, {"c": (lab_pos, lab_neg)}, 3, [2, 1]
    )
    rng = np.random.default_rng(9)
    pos = [draw_positions(rng, size, 2), draw_positions(rng, size + 3, 2)]
    pos2 = [draw_positions(rng, size, 1), draw_positions(rng, size + 3, 1)]
    drawn_pos, drawn_neg = np.vstack([pos[0], pos2[0]]), np.vstack([pos[1], pos2[1]])
    assert (np.diff(drawn_pos // 8, axis=1) >= 0).all() and not (
        np.diff(drawn_pos, axis=1) >= 0
    ).all()
    np.testing.assert_array_equal(
        found["a"][0], [np.bincount(Layout.pos_group[r], minlength=4) for r in drawn_pos]
    )
    np.testing.assert_array_equal(
        found["a"][1], [np.bincount(Layout.neg_group[r], minlength=4) for r in drawn_neg]
    )
    np.testing.assert_array_equal(sums["c"][0], lab_pos[drawn_pos].sum(axis=1))
