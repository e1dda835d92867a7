"""SciPy's PAV kernel as ccreport loads it (ccreport.analysis.pav): the public function's blocks
(that it is loaded without scipy.optimize: test_scipy_kernels.py)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import isotonic_regression

from ccreport.analysis.pav import block_starts, decreasing_block_starts


def _inputs(seed: int):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    values = rng.normal(size=n)
    if seed % 2:
        values = np.round(values, 1)  # ties, so equal neighbours must be pooled or not as SciPy does
    if seed % 5 == 0:
        values = np.repeat(values, 4)[:n]  # runs of equal values
    weights = rng.uniform(0.1, 5.0, size=n)
    return values, weights


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("increasing", [True, False])
def test_blocks_are_those_of_scipys_public_isotonic_regression(seed, increasing):
    """If a SciPy release moves the kernel, ccreport falls back to importing it (and names
    ccreport.analysis.pav if that fails too); if it changes what the kernel returns, this fails."""
    values, weights = _inputs(seed)
    before = (values.copy(), weights.copy())
    got = block_starts(values, weights) if increasing else decreasing_block_starts(values, weights)
    want = isotonic_regression(values, weights=weights, increasing=increasing).blocks[:-1]
    np.testing.assert_array_equal(got, want)
    # the kernel overwrites its arguments; the wrappers must not
    np.testing.assert_array_equal(values, before[0])
    np.testing.assert_array_equal(weights, before[1])


def test_one_value_and_a_constant_run():
    assert decreasing_block_starts([0.5], [2.0]).tolist() == [0]
    assert block_starts([0.5], [2.0]).tolist() == [0]
    # equal values violate neither order; SciPy pools them, and so must the wrappers
    for fit in (block_starts, decreasing_block_starts):
        want = isotonic_regression([1.0, 1.0, 1.0], weights=[1.0, 2.0, 3.0], increasing=fit is block_starts).blocks[:-1]
        assert fit([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]).tolist() == want.tolist()
