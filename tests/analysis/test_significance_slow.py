"""Reduced validity simulation of the pair inferences and the crisp band (issue 10; the full one is
benchmarks/significance.py and benchmarks/validity.py --matrix, tables in benchmarks/README.md).

Few data sets and 400 replicates, so the bounds leave room for Monte-Carlo error (about 2.5 points
on a 10% rate over 150 data sets), yet every one of them fails for the previous rules: the pointwise
band scanned over the whole curve called 57-64% of identical pairs significant somewhere, and the
crisp band covered 74-76% at PC(+) = 0.2 and 0.8.
"""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


significance = _load("significance")
validity = _load("validity")


@pytest.mark.parametrize("setting", ["independent", "crisp"])
def test_identical_curves_rarely_look_different(setting):
    rows = significance.run(setting, 200, datasets=150, replicates=400, seed=5, out=None)
    any_fw = np.mean([r["any_fw_0.9"] for r in rows])
    assert 0.03 <= any_fw <= 0.18, any_fw
    assert np.mean([r["any_pw"] for r in rows]) > any_fw  # what the report used to call significant
    for prior in significance.PRIORS:
        p = np.array([r[f"p_{prior}"] for r in rows])
        assert 0.03 <= np.mean(p < 0.10) <= 0.18, (prior, np.mean(p < 0.10))


def test_a_real_difference_is_found():
    rows = significance.run("alternative", 200, datasets=80, replicates=400, seed=6, out=None)
    assert np.mean([r["b_better_0.9"] for r in rows]) > 0.43
    assert np.mean([r["a_better_0.9"] for r in rows]) <= 0.05


def test_crisp_band_covers_just_inside_its_operating_range():
    rows = validity.matrix(["crisp"], [200], datasets=200, replicates=400, seed=7)
    cov = np.array([r["covered"] for r in rows]).mean(axis=0)  # PC(+) = 0.2, 0.3, 0.5, 0.7, 0.8
    assert np.all(cov >= 0.84), cov
    assert np.all(cov <= 0.99), cov
