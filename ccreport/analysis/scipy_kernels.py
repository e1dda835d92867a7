"""SciPy's compiled kernels, loaded without importing their packages.

ccreport uses compiled routines of SciPy from packages whose imports cost far more than the
routines: the pool-adjacent-violators kernel of ``scipy.optimize`` (every ROC hull,
:mod:`ccreport.analysis.pav`), QUADPACK's adaptive Gauss-Kronrod integrator ``qagse`` of
``scipy.integrate`` (an induced prior's exact expected cost, :func:`quad`) and the beta-function
ufuncs of ``scipy.special`` (:func:`special_functions`). Importing
``scipy.optimize`` and ``scipy.integrate`` takes about 0.45 CPU s together (linear algebra, sparse
matrices, linear programming, ODE solvers, f2py), a tenth of the example's analyses. Both kernels
are self-contained extension modules that need numpy only, so :func:`extension` loads each from
its file and registers it under its own name: a later ``import scipy.optimize`` or
``scipy.integrate`` then uses the very same module. Where the file is not found (a SciPy that
moved it) the module is imported the ordinary way, and where that fails too the error names this
module. ``tests/test_pav.py`` and ``tests/test_scipy_kernels.py`` check both against SciPy's public
functions, so a release that changes what a kernel returns fails there, loudly.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import types
from pathlib import Path


def extension(subpackage: str, name: str):
    """The extension module ``scipy.<subpackage>.<name>``, without importing ``scipy.<subpackage>``."""
    qualified = f"scipy.{subpackage}.{name}"
    module = sys.modules.get(qualified)
    if module is not None:
        return module
    spec = importlib.util.find_spec("scipy")  # finds the package without importing it
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = Path(folder) / subpackage / f"{name}{suffix}"
            if path.is_file():
                kernel_spec = importlib.util.spec_from_file_location(qualified, path)
                module = importlib.util.module_from_spec(kernel_spec)
                kernel_spec.loader.exec_module(module)
                sys.modules[qualified] = module
                return module
    try:
        return importlib.import_module(qualified)
    except ImportError as exc:  # pragma: no cover - exercised only by a SciPy that moved its kernel
        raise ImportError(f"ccreport needs SciPy's {qualified}; this SciPy moved it: update ccreport.analysis.scipy_kernels") from exc


def quad(func, a: float, b: float, epsabs: float, epsrel: float, limit: int) -> float:
    """``scipy.integrate.quad(func, a, b, epsabs=epsabs, epsrel=epsrel, limit=limit)[0]`` for a
    finite interval ``a < b``: the same QUADPACK routine (``qagse``, 21-point Gauss-Kronrod with
    the epsilon algorithm) called as ``quad`` calls it, so the same number to the last bit. When
    the routine reports trouble (``ier`` > 0: the limit reached, roundoff, a divergent integral),
    the call is repeated through ``scipy.integrate.quad`` itself, which words it as a warning.
    """
    value, _, ier = extension("integrate", "_quadpack")._qagse(func, a, b, (), 0, epsabs, epsrel, limit)
    if ier != 0:
        from scipy import integrate

        value = integrate.quad(func, a, b, epsabs=epsabs, epsrel=epsrel, limit=limit)[0]
    return value


def special_functions():
    """``scipy.special._ufuncs``, the extension module whose ufuncs ``scipy.special`` exports
    (``betainc``, ``betaincinv``, ``betaln``, ``xlogy``, ``xlog1py``: the very same objects),
    without running ``scipy/special/__init__.py``. That package import (SciPy 1.17's array-API
    dispatch: array_api_compat's ``from numpy import *`` imports numpy.f2py, numpy.testing,
    numpy.ma and charset_normalizer) takes about 0.16 s; the extension, 5 ms.

    The extension imports its sibling extensions (``_ufuncs_cxx``, ``_special_ufuncs``, ...) by
    their full names, which would import the package first; while it loads, an empty module whose
    ``__path__`` is the package's folder stands in for ``scipy.special`` and is removed after, so a
    later ``import scipy.special`` runs the real package, which finds these modules loaded and uses
    them. When ``scipy.special`` is already imported, or the stand-in does not work (a SciPy laid
    out otherwise), this is the ordinary import.
    """
    qualified = "scipy.special._ufuncs"
    if qualified in sys.modules or "scipy.special" in sys.modules:
        return importlib.import_module(qualified)
    import scipy

    spec = importlib.util.find_spec("scipy")
    folders = [str(Path(f) / "special") for f in (spec.submodule_search_locations or [])]
    stand_in = types.ModuleType("scipy.special")
    stand_in.__path__ = folders
    stand_in.__package__ = "scipy.special"
    sys.modules["scipy.special"] = stand_in
    try:
        return importlib.import_module(qualified)
    except ImportError:  # pragma: no cover - a SciPy whose special functions are laid out otherwise
        for name in [n for n in sys.modules if n.startswith("scipy.special.")]:
            del sys.modules[name]
        sys.modules.pop("scipy.special", None)
        return importlib.import_module("scipy.special")
    finally:
        if sys.modules.get("scipy.special") is stand_in:
            del sys.modules["scipy.special"]
        if vars(scipy).get("special") is stand_in:  # vars: getattr would import the real package
            delattr(scipy, "special")
