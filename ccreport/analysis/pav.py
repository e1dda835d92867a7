"""Pool adjacent violators: the block starts of a weighted isotonic fit, by SciPy's C++ kernel.

Every ROC convex hull of ccreport is an isotonic regression (Fawcett 2006, section 6; the least
concave majorant of the sheared path's step slopes, :func:`ccreport.analysis.roc.hull_of_monotone_path`),
and only its blocks are used: a block starts at a hull vertex. The kernel is SciPy's
``scipy.optimize._pava_pybind.pava``, which ``scipy.optimize.isotonic_regression`` wraps with
per-call checks and copies.

The kernel is a self-contained pybind11 extension (it needs numpy only), so it is loaded from its
file without importing the ``scipy.optimize`` package, whose import (linear algebra, linear
programming, f2py: about 0.3 CPU s) a build otherwise pays for nothing else
(:func:`ccreport.analysis.scipy_kernels.extension`). ``tests/test_pav.py`` checks both functions against
``scipy.optimize.isotonic_regression`` on random inputs with ties, so a SciPy release that changes
what the kernel returns fails there, loudly.
"""

from __future__ import annotations

import numpy as np

from . import scipy_kernels

_pava = scipy_kernels.extension("optimize", "_pava_pybind").pava


def _boundaries(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The kernel's block boundaries (starts, then the end) of the increasing fit of ``x``, ``w``
    (contiguous float64 arrays the kernel may overwrite)."""
    r = np.full(x.size + 1, -1, dtype=np.intp)
    _, _, r, b = _pava(x, w, r)
    return r[: b + 1]


def block_starts(values, weights, overwrite: bool = False) -> np.ndarray:
    """Start index of each pooled block of the weighted increasing isotonic fit of ``values``.

    ``scipy.optimize.isotonic_regression(values, weights=weights).blocks[:-1]``. The inputs are
    copied (the kernel overwrites its arguments) unless ``overwrite`` and they are already
    contiguous float64 arrays the caller no longer needs. Weights must be positive.
    """
    x = np.asarray(values, dtype=np.float64) if overwrite else np.array(values, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64) if overwrite else np.array(weights, dtype=np.float64)
    return _boundaries(np.ascontiguousarray(x), np.ascontiguousarray(w))[:-1]


def decreasing_block_starts(values, weights) -> np.ndarray:
    """Start index of each pooled block of the weighted *decreasing* isotonic fit of ``values``.

    ``scipy.optimize.isotonic_regression(values, weights=weights, increasing=False).blocks[:-1]``,
    computed as SciPy does: the increasing fit of the reversed sequence, whose blocks, read from
    the end, are the decreasing fit's (so equal neighbours are pooled exactly as SciPy pools them).
    """
    x = np.array(np.asarray(values)[::-1], dtype=np.float64, order="C")  # copies: the kernel overwrites
    w = np.array(np.asarray(weights)[::-1], dtype=np.float64, order="C")
    r = _boundaries(x, w)
    return (r[-1] - r[::-1])[:-1]
