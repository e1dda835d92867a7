"""Reduced bootstrap validity simulation (issue 4 acceptance; the full one is
benchmarks/validity.py).

Binormal data (d' = 1, p(+) = 0.5), n = 200 and 1000, 120 simulated data sets each, 400 replicates,
90% bands, the report's band double-bootstrap calibrated as with ``calibration = "auto"``. The full
simulation (benchmarks/README.md, 600 data sets per n) is the measurement; the thresholds below
leave room for the Monte Carlo error of this smaller run (about 2.7 points per coverage, 1.6
pooled).
"""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow

_spec = importlib.util.spec_from_file_location(
    "validity", Path(__file__).resolve().parents[2] / "benchmarks" / "validity.py"
)
validity = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(validity)


@pytest.fixture(scope="module")
def tables():
    return {n: validity.simulate(n, datasets=120, replicates=400, seed=11) for n in (200, 1000)}


@pytest.mark.parametrize("n", [200, 1000])
def test_report_band_covers_the_selected_classifiers_true_cost(tables, n):
    """Target (a): pooled over PC(+) = 0.3, 0.5, 0.7, in the 85-95% the issue asks for."""
    cov = tables[n][("a", "report")]
    assert 0.85 <= cov.mean() <= 0.96, cov
    assert cov.min() >= 0.80, cov


@pytest.mark.parametrize("n", [200, 1000])
def test_calibration_moves_the_upper_misses_towards_nominal(tables, n):
    """Without calibration the truth escapes above the band more often than the 5% it should; the
    calibrated band brings that down without changing the lower edge.

    Paired on the same data sets: fewer misses above than the uncalibrated band. The absolute bound
    leaves room for this run's Monte-Carlo error (about 2 points): the full matrix measured 8.0%
    above at PC(+) = 0.3 / 0.5 / 0.7, n = 200 (297 data sets; 8.1% with the earlier 200 x 100
    calibration on the same data sets; benchmarks/README.md, "Calibration cost"), and this run gives
    5-9% depending on the seed."""
    above = tables[n][("a_above", "report")].mean()
    assert above < tables[n][("a_above", "optimism")].mean()
    assert above <= 0.11, above
    assert tables[n][("a", "report")].mean() >= tables[n][("a", "optimism")].mean()


@pytest.mark.parametrize("n", [200, 1000])
def test_report_band_and_the_true_optimal_curve(tables, n):
    """Target (b): measured in the full matrix; the band's target text quotes that range
    (ccreport.analysis.measured_coverage.CONTINUOUS_OPTIMAL)."""
    cov = tables[n][("b", "report")]
    assert cov.mean() >= 0.77, cov


@pytest.mark.parametrize("n", [200, 1000])
def test_correction_is_needed(tables, n):
    """Plain percentiles of the replicate envelopes under-cover badly: the optimism is real."""
    plain = tables[n][("a", "percentile")].mean()
    corrected = tables[n][("a", "report")].mean()
    assert corrected >= plain + 0.08
    assert np.all(tables[n]["mean_bias"] < 0)  # the empirical envelope is optimistic on average


@pytest.mark.parametrize("n", [200, 1000])
def test_simultaneous_band_covers_the_whole_true_curve(tables, n):
    """The full run measured 87-91% for (a) and 98-100% for (b); this one has 120 data sets and 400
    replicates per band, about 3 points of Monte Carlo error."""
    assert tables[n][("sim_b", "report")] >= 0.85
    assert tables[n][("sim_a", "report")] >= 0.78


# --- issue 33: intervals with few distinct scores (benchmarks/interval_matrix.py, reduced) --------

_mspec = importlib.util.spec_from_file_location(
    "interval_matrix", Path(__file__).resolve().parents[2] / "benchmarks" / "interval_matrix.py"
)
interval_matrix = importlib.util.module_from_spec(_mspec)
_mspec.loader.exec_module(interval_matrix)


@pytest.fixture(scope="module")
def few_scores():
    """Two- and five-valued scores at n = 200, 150 data sets each (the full matrix: 300 per
    cell)."""
    return {
        cell: interval_matrix.run_cell(cell, 150, seed=34) for cell in ("K=2,n=200", "K=5,n=200")
    }


@pytest.mark.parametrize("cell", ["K=2,n=200", "K=5,n=200"])
def test_expected_cost_interval_with_few_distinct_scores(few_scores, cell):
    """The expected cost's 90% interval against the population optimum: coverage 85-95% and at most
    10% below, where the percentile interval missed below 13-16% with two values (MC s.e. of a miss
    rate near 5% over 150 data sets: 1.8 points)."""
    s = interval_matrix.summarise(few_scores[cell][("e_b", "new")])
    assert 0.85 <= s["coverage"][0] <= 0.97, s
    assert s["below"][0] <= 0.10 and s["above"][0] <= 0.10, s


def test_studentizing_moves_the_misses_below_towards_nominal(few_scores):
    """Paired on the same data sets and replicates: two-valued scores' interval misses below less
    often studentized than as percentiles."""
    new = interval_matrix.summarise(few_scores["K=2,n=200"][("e_b", "new")])
    old = interval_matrix.summarise(few_scores["K=2,n=200"][("e_b", "old")])
    assert new["below"][0] < old["below"][0], (new, old)


@pytest.mark.parametrize("cell", ["K=2,n=200", "K=5,n=200"])
def test_band_with_few_distinct_scores(few_scores, cell):
    """The pointwise band at PC(+) = 0.1-0.9 against the selected threshold's true cost: pooled
    coverage at least 85%, each point at least 80% (room for this run's MC error, about 2.5
    points)."""
    s = interval_matrix.summarise(few_scores[cell][("band_a", "new")])
    inside = [interval_matrix.POINTS.index(p) for p in (0.1, 0.3, 0.5, 0.7, 0.9)]
    cov = s["coverage"][inside]
    assert 0.85 <= cov.mean() <= 0.99, (
        s
    )  # two values: the sample selects a trivial classifier at 0.1 and 0.9, known exactly
    assert cov.min() >= 0.80, s


@pytest.fixture(scope="module")
def hybrid_cell():
    """The hybrid of three correlated scorers at n = 200, 150 data sets (the full matrix: 300)."""
    return interval_matrix.run_cell("hybrid", 150, seed=34)


def test_hybrid_band_with_its_calibration(hybrid_cell):
    """The hybrid band at PC(+) = 0.1-0.9 against the true cost of what the sample hybrid selected:
    calibrated, the truth escapes above less often than uncalibrated on the same data sets and
    replicates (paired, pooled over the five points), and coverage is 85-95% pooled, each point's
    miss above at most 14% (the full run: at most 10.0%; MC s.e. of a 10% rate over 150 data sets
    is 2.4 points)."""
    inside = [interval_matrix.POINTS.index(p) for p in (0.1, 0.3, 0.5, 0.7, 0.9)]
    new = interval_matrix.summarise(hybrid_cell[("band_a", "new")])
    old = interval_matrix.summarise(hybrid_cell[("band_a", "uncalibrated")])
    assert new["above"][inside].mean() < old["above"][inside].mean(), (new, old)
    assert 0.85 <= new["coverage"][inside].mean() <= 0.95, new
    assert new["above"][inside].max() <= 0.14, new


def test_hybrid_expected_cost_interval_with_its_calibration(hybrid_cell):
    """The hybrid's expected-cost interval (uniform prior): fewer misses above than uncalibrated,
    at most 13% above in this run (the full run: 9.3%, uncalibrated 12.0%)."""
    new = interval_matrix.summarise(hybrid_cell[("e_a", "new")])
    old = interval_matrix.summarise(hybrid_cell[("e_a", "uncalibrated")])
    assert new["above"][0] < old["above"][0], (new, old)
    assert new["above"][0] <= 0.13 and new["coverage"][0] >= 0.83, new
