"""The counting primitives of the resampling (path_layout.count_positions and gather_counts,
instance_cost_bins.bin_sums) against the plain numpy they stand in for, slices included."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ccreport.analysis.instance_cost_bins import bin_sums
from ccreport.analysis.path_layout import count_positions, gather_counts, multinomial_counts
from ccreport.analysis.replicate_groups import indexed_group_counts


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    length=st.integers(1, 300),
    drawn=st.integers(0, 500),
    dtype=st.sampled_from([np.int32, np.int64, np.intp]),
)
def test_count_positions_is_bincount(seed, length, drawn, dtype):
    rng = np.random.default_rng(seed)
    positions = rng.integers(0, length, size=drawn).astype(dtype)
    got = count_positions(positions.reshape(1, -1) if drawn % 2 else positions, length)
    expected = np.bincount(positions, minlength=length)
    assert got.dtype == np.int64 and got.shape == (length,)
    np.testing.assert_array_equal(got, expected)


def test_multinomial_counts_keep_the_draws_and_counts_of_one_bincount():
    """The same generator stream and the same integers as the formulation before count_positions."""
    for size, reps in ((1, 3), (7, 5), (208, 40), (1000, 4)):
        got = multinomial_counts(np.random.default_rng(11), size, reps)
        rng = np.random.default_rng(11)
        idx = rng.integers(0, size, size=(reps, size), dtype=np.int32)
        idx += (np.arange(reps, dtype=np.int32) * np.int32(size))[:, None]
        expected = np.bincount(idx.ravel(), minlength=reps * size).reshape(reps, size)
        np.testing.assert_array_equal(got, expected)
        assert got.dtype == expected.dtype
        assert (got.sum(axis=1) == size).all()


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rows=st.integers(0, 4),
    size=st.integers(1, 60),
    groups=st.integers(1, 9),
    slice_size=st.integers(1, 70),
    dtype=st.sampled_from([np.int16, np.int32, np.int64]),
)
def test_gather_counts_is_bincount_of_the_gathered_table_in_any_slices(
    seed, rows, size, groups, slice_size, dtype
):
    rng = np.random.default_rng(seed)
    table = rng.integers(0, groups, size=size).astype(dtype)
    drawn = rng.integers(0, size, size=(rows, size), dtype=np.int32)
    got = gather_counts(drawn, table, groups, slice_size=slice_size)
    expected = np.array([np.bincount(table[row], minlength=groups) for row in drawn]).reshape(
        rows, groups
    )
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, expected)


def test_indexed_group_counts_over_several_slices():
    """A row longer than the default slice (2^20) is counted in slices: the same integers."""
    rng = np.random.default_rng(5)
    size, groups = (1 << 20) + 12_345, 300
    table = np.sort(rng.integers(0, groups, size=size)).astype(np.int16)
    drawn = rng.integers(0, size, size=(2, size), dtype=np.int32)
    got = indexed_group_counts(drawn, table, groups)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, [np.bincount(table[row], minlength=groups) for row in drawn])


@pytest.mark.parametrize("slice_size", [1, 3, 16, 17, 1000])
def test_bin_sums_in_slices_are_the_sums(slice_size):
    rng = np.random.default_rng(slice_size)
    size, bins, reps = 17, 5, 4
    keys = rng.integers(0, bins, size=size).astype(np.intp)
    cost = rng.exponential(100.0, size=size)
    counts = rng.poisson(1.0, size=(reps, size))
    expected = np.array(
        [[np.sum(row[keys == b] * cost[keys == b]) for b in range(bins)] for row in counts]
    )
    got = bin_sums(keys, cost, counts, bins, slice_size=slice_size)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-9)
    if slice_size >= size:  # one slice: the very floats of one weighted bincount per row
        np.testing.assert_array_equal(
            got, np.stack([np.bincount(keys, weights=row * cost, minlength=bins) for row in counts])
        )
