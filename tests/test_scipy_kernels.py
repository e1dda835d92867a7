"""SciPy's kernels as ccreport loads them (ccreport.analysis.scipy_kernels): the public functions'
numbers, to the bit, and neither scipy.optimize nor scipy.integrate imported."""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest
from scipy import integrate

from ccreport.analysis.scipy_kernels import quad


@pytest.mark.parametrize("seed", range(10))
def test_quad_gives_scipys_number_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    a, b = sorted(rng.uniform(0, 1, 2))
    k, c = rng.uniform(0.5, 5), rng.uniform(-2, 2)

    def f(u):
        return math.exp(-k * u) * math.sin(c * u) + math.sqrt(u)

    want = integrate.quad(f, a, b, epsabs=1e-13, epsrel=1e-10, limit=200)[0]
    assert quad(f, a, b, epsabs=1e-13, epsrel=1e-10, limit=200) == want


def test_quad_in_trouble_goes_through_scipy_and_its_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = quad(lambda u: 1.0 / math.sqrt(abs(u - 0.3)) if u != 0.3 else 0.0, 0.0, 1.0, 1e-14, 1e-14, 3)
    want = integrate.quad(lambda u: 1.0 / math.sqrt(abs(u - 0.3)) if u != 0.3 else 0.0, 0.0, 1.0,
                          epsabs=1e-14, epsrel=1e-14, limit=3)[0]
    assert value == want
    assert any("integration" in str(w.message).lower() or "subdivisions" in str(w.message).lower() for w in caught)


def _printed(*lines: str) -> str:
    """What a fresh Python prints running ``lines`` (the imports a process makes are the point)."""
    out = subprocess.run([sys.executable, "-c", "\n".join(lines)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


UNWANTED = "('scipy.optimize', 'scipy.integrate', 'scipy.linalg', 'pyarrow', 'pandas')"


def test_an_induced_prior_needs_neither_scipy_optimize_nor_integrate():
    assert _printed(
        "import sys",
        "from ccreport import InducedPrior, expected_cost, lower_envelope, roc_points",
        "from ccreport.analysis.priors import Beta, LogUniform",
        "prior = InducedPrior(Beta(2.0, 5.0), LogUniform(0.2, 5.0))",
        "env = lower_envelope(roc_points([1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.3, 0.2, 0.1]))",
        f"print(expected_cost(env, prior) > 0, sorted(m for m in {UNWANTED} if m in sys.modules))",
    ) == "True []"


def test_the_pav_kernel_is_loaded_without_scipy_optimize_and_shared_with_it():
    """A later import of scipy.optimize uses the very module ccreport loaded."""
    assert _printed(
        "import sys",
        "from ccreport.analysis.roc import convex_hull, roc_points",
        "roc = roc_points([1, 0, 1, 0, 1], [0.9, 0.8, 0.7, 0.3, 0.2])",
        "hull = convex_hull(roc.fpr, roc.tpr)",
        "assert 'scipy.optimize' not in sys.modules, 'scipy.optimize imported'",
        "loaded = sys.modules['scipy.optimize._pava_pybind']",
        "from scipy.optimize import _pava_pybind",
        "print(_pava_pybind is loaded)",
    ) == "True"


def test_importing_the_command_line_imports_none_of_the_costly_packages():
    assert _printed("import sys", "import ccreport.cli, ccreport.build",
                    f"print(sorted(m for m in {UNWANTED} if m in sys.modules))") == "[]"


def test_beta_functions_are_scipy_special_own_ufuncs_without_its_package_import():
    """priors' betainc & co. load without scipy.special's package (nor numpy.f2py, which its array-API
    layer imports); a later ``import scipy.special`` is the real package, exporting the same ufuncs."""
    assert _printed(
        "import sys",
        "from ccreport.analysis import priors",
        "print(sorted(m for m in ('scipy.special', 'numpy.f2py', 'charset_normalizer') if m in sys.modules))",
        "import scipy.special",
        "names = ('betainc', 'betaincinv', 'betaln', 'xlogy', 'xlog1py')",
        "print(all(getattr(priors.special, n) is getattr(scipy.special, n) for n in names))",
        "print(scipy.special.gammaln(5.0) == scipy.special._ufuncs.gammaln(5.0), hasattr(scipy.special, 'logsumexp'))",
        "print(priors.BetaPrior(2.0, 5.0).cdf(0.3) == scipy.special.betainc(2.0, 5.0, 0.3))",
    ).splitlines() == ["[]", "True", "True True", "True"]


def test_beta_functions_when_scipy_special_is_already_imported():
    assert _printed(
        "import scipy.special",
        "from ccreport.analysis import scipy_kernels",
        "print(scipy_kernels.special_functions() is scipy.special._ufuncs)",
    ) == "True"
