"""PC(+), normalized expected cost and the ROC/cost duality (D&H 2006 section 3, Eq. 2-6)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ccreport.analysis import conditions as cd

unit = st.floats(0.0, 1.0, allow_nan=False)


def test_fig1_confusion_matrix_cost_line():
    # D&H 2006 Fig. 1: TP=16, FN=4, FP=4, TN=6 -> FPR 0.4, FNR 0.2: the line (0, 0.4) to (1, 0.2).
    fpr, tpr = 4 / 10, 16 / 20
    assert cd.normalized_expected_cost(fpr, 1 - tpr, 0.0) == pytest.approx(0.4)
    assert cd.normalized_expected_cost(fpr, 1 - tpr, 1.0) == pytest.approx(0.2)
    slope, intercept = cd.roc_point_to_cost_line(fpr, tpr)
    assert (slope, intercept) == pytest.approx((-0.2, 0.4))


def test_dh2000_fig8_cost_line():
    # D&H 2000 Fig. 8: FP = 0.09, TP = 0.36 -> the line from (0, 0.09) to (1, 0.64).
    slope, intercept = cd.roc_point_to_cost_line(0.09, 0.36)
    assert intercept == pytest.approx(0.09)
    assert intercept + slope == pytest.approx(0.64)


def test_eq3_slope_maps_to_pc():
    # D&H 2006 Eq. 3: an ROC line of slope S maps to PC(+) = 1 / (1 + S).
    pc, nec = cd.roc_line_to_cost_point(np.array([1.0, 3.0, 0.25, np.inf]), 0.2)
    assert pc == pytest.approx([0.5, 0.25, 0.8, 0.0])
    assert nec == pytest.approx(0.8 * pc)


def test_probability_cost_german_credit():
    # p(+) = 0.3 (bad credit), C(-|+) / C(+|-) = 5: PC(+) = 1.5 / 2.2.
    assert cd.probability_cost(0.3, 5.0) == pytest.approx(1.5 / 2.2)
    assert cd.probability_cost(0.3, 1.0) == pytest.approx(0.3)  # equal costs: PC(+) = p(+)
    assert cd.probability_cost(0.3, 0.0) == 0.0
    assert cd.probability_cost(0.3, np.inf) == 1.0


@given(unit, unit, unit)
def test_eq5_equals_eq6(p, fpr, fnr):
    # Norm(E[Cost]) (Eq. 5) from p, costs and rates equals FN * PC(+) + FP * PC(-) (Eq. 6).
    c_fn, c_fp = 3.0, 2.0
    expected = fnr * p * c_fn + fpr * (1 - p) * c_fp
    maximum = p * c_fn + (1 - p) * c_fp
    pc = cd.probability_cost(p, c_fn / c_fp)
    assert cd.normalized_expected_cost(fpr, fnr, pc) == pytest.approx(expected / maximum, abs=1e-12)


@given(unit, unit)
def test_point_line_round_trip(fpr, tpr):
    back = cd.cost_line_to_roc_point(*cd.roc_point_to_cost_line(fpr, tpr))
    assert back == pytest.approx((fpr, tpr), abs=1e-12)


@given(st.floats(0.01, 1.0), st.floats(0.0, 1.0))
def test_cost_point_round_trip(x, y):
    slope, tp0 = cd.cost_point_to_roc_line(x, y)
    assert cd.roc_line_to_cost_point(slope, tp0) == pytest.approx((x, y), abs=1e-9)


@given(unit, unit, st.floats(0.01, 1.0), st.floats(0.0, 1.0))
def test_duality_incidence(fpr, tpr, x, y):
    # A cost point lies on a cost line iff the dual ROC point lies on the dual ROC line.
    slope, intercept = cd.roc_point_to_cost_line(fpr, tpr)
    on_cost_line = slope * x + intercept
    s, tp0 = cd.cost_point_to_roc_line(x, on_cost_line)
    assert s * fpr + tp0 == pytest.approx(tpr, abs=1e-9)


def test_trivial_cost():
    assert cd.trivial_cost([0, 0.25, 0.5, 0.9, 1]) == pytest.approx([0, 0.25, 0.5, 0.1, 0])
