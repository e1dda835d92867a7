"""Pool adjacent violators: the block starts of a weighted isotonic fit, by SciPy's C++ kernel.

Every ROC convex hull of ccreport is an isotonic regression (Fawcett 2006, section 6; the least
concave majorant of the sheared path's step slopes, :func:`ccreport.analysis.roc.hull_of_monotone_path`),
and only its blocks are used: a block starts at a hull vertex. The kernel is SciPy's
``scipy.optimize._pava_pybind.pava``, which ``scipy.optimize.isotonic_regression`` wraps with
per-call checks and copies.

The kernel is a self-contained pybind11 extension (it needs numpy only), so it is loaded from its
file without importing the ``scipy.optimize`` package, whose import (linear algebra, linear
programming, f2py: about 0.3 CPU s) a build otherwise pays for nothing else. It is registered under
its own name, so a later ``import scipy.optimize`` uses this very module. Where the file is not
found (a SciPy that moved it), the kernel is imported the ordinary way; where that fails too, the
import error names this module. ``tests/test_pav.py`` checks both functions against
``scipy.optimize.isotonic_regression`` on random inputs with ties, so a SciPy release that changes
what the kernel returns fails there, loudly.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

import numpy as np

KERNEL_MODULE = "scipy.optimize._pava_pybind"


def _kernel():
    """SciPy's ``pava(x, w, r) -> (x, w, r, b)``, without importing ``scipy.optimize``."""
    module = sys.modules.get(KERNEL_MODULE)
    if module is None:
        module = _load_from_file()
    if module is None:
        try:
            import importlib

            module = importlib.import_module(KERNEL_MODULE)
        except ImportError as exc:  # pragma: no cover - exercised only by a SciPy that moved its kernel
            raise ImportError(
                f"ccreport needs SciPy's PAV kernel {KERNEL_MODULE}.pava (the kernel of "
                "scipy.optimize.isotonic_regression); this SciPy moved it: update ccreport.analysis.pav"
            ) from exc
    return module.pava


def _load_from_file():
    spec = importlib.util.find_spec("scipy")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return None
    name = KERNEL_MODULE.rsplit(".", 1)[1]
    for folder in spec.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = Path(folder) / "optimize" / f"{name}{suffix}"
            if path.is_file():
                kernel_spec = importlib.util.spec_from_file_location(KERNEL_MODULE, path)
                module = importlib.util.module_from_spec(kernel_spec)
                kernel_spec.loader.exec_module(module)
                sys.modules[KERNEL_MODULE] = module
                return module
    return None


_pava = _kernel()


def block_starts(values, weights, overwrite: bool = False) -> np.ndarray:
    """Start index of each pooled block of the weighted increasing isotonic fit of ``values``.

    ``scipy.optimize.isotonic_regression(values, weights=weights).blocks[:-1]``. The inputs are
    copied (the kernel overwrites its arguments) unless ``overwrite`` and they are already
    contiguous float64 arrays the caller no longer needs. Weights must be positive.
    """
    x = np.asarray(values, dtype=np.float64) if overwrite else np.array(values, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64) if overwrite else np.array(weights, dtype=np.float64)
    x, w = np.ascontiguousarray(x), np.ascontiguousarray(w)
    r = np.full(x.size + 1, -1, dtype=np.intp)
    _, _, r, b = _pava(x, w, r)
    return r[:b]


def decreasing_block_starts(values, weights) -> np.ndarray:
    """Start index of each pooled block of the weighted *decreasing* isotonic fit of ``values``.

    ``scipy.optimize.isotonic_regression(values, weights=weights, increasing=False).blocks[:-1]``,
    computed as SciPy does: the increasing fit of the reversed sequence, whose blocks, read from
    the end, are the decreasing fit's (so equal neighbours are pooled exactly as SciPy pools them).
    """
    x = np.array(np.asarray(values)[::-1], dtype=np.float64, order="C")  # copies: the kernel overwrites
    w = np.array(np.asarray(weights)[::-1], dtype=np.float64, order="C")
    r = np.full(x.size + 1, -1, dtype=np.intp)
    _, _, r, b = _pava(x, w, r)
    r = r[: b + 1]
    return (r[-1] - r[::-1])[:-1]
