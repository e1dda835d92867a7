"""Lower envelope, operating range and comparisons against brute force (D&H 2006 sections
3.1-4.4)."""

import numpy as np
import pytest
from brute_force import envelope_vertices, min_cost
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from test_roc import labelled_scores

from ccreport.analysis.conditions import trivial_cost
from ccreport.analysis.envelope import compare, curve_area, lower_envelope, operating_range
from ccreport.analysis.roc import crisp_roc, roc_points

GRID = np.linspace(0.0, 1.0, 2001)


def test_fig1_crisp_envelope_and_operating_range():
    # D&H 2006 Fig. 1 (FPR 0.4, FNR 0.2): the cost line meets y = pc at 0.4/(0.4+0.8) = 1/3 and
    # y = 1 - pc at 0.6/(0.6+0.2) = 0.75; between them it beats both trivial classifiers.
    env = lower_envelope(np.array([0.4]), np.array([0.8]))
    assert env.pc == pytest.approx([0, 1 / 3, 0.75, 1])
    assert env.nec == pytest.approx([0, 1 / 3, 0.25, 0])
    assert operating_range(env) == pytest.approx((1 / 3, 0.75))


def test_fig14_points_envelope_vertices():
    # D&H 2006 Fig. 14: ROC points (0.04, 0.4) and (0.3, 0.8). Hull edge slopes 10, 0.4/0.26,
    # 0.2/0.7 map (Eq. 3) to envelope vertices at PC(+) = 1/(1+S).
    for point, slopes in [
        ((0.04, 0.4), [0.4 / 0.04, 0.6 / 0.96]),
        ((0.3, 0.8), [0.8 / 0.3, 0.2 / 0.7]),
    ]:
        env = lower_envelope(np.array([point[0]]), np.array([point[1]]))
        assert env.pc[1:-1] == pytest.approx([1 / (1 + s) for s in slopes])
    # both points together: hull (0,0), (0.04,0.4), (0.3,0.8), (1,1), slopes 10, 0.4/0.26, 0.2/0.7
    env = lower_envelope(np.array([0.04, 0.3]), np.array([0.4, 0.8]))
    assert env.pc[1:-1] == pytest.approx([1 / 11, 1 / (1 + 0.4 / 0.26), 1 / (1 + 0.2 / 0.7)])


def test_envelope_of_ranking_is_brute_force_minimum():
    y = np.array([c == "0" for c in "0 0 1 0 0 0 1 0 1 0".split()])
    roc = roc_points(y, np.arange(10, 0, -1.0))
    env = lower_envelope(roc)
    assert env(GRID) == pytest.approx(min_cost(roc.fpr, roc.tpr, GRID), abs=1e-12)


def test_worse_than_trivial_everywhere():
    # Scores that rank every negative above every positive: the hull is the diagonal.
    y = np.array([1, 1, 1, 0, 0], bool)
    roc = roc_points(y, np.array([0.1, 0.2, 0.3, 0.8, 0.9]))
    env = lower_envelope(roc)
    assert operating_range(env) is None
    assert env(GRID) == pytest.approx(trivial_cost(GRID))
    assert env.area == pytest.approx(0.25)


def test_constant_scores_have_no_operating_range():
    roc = roc_points(np.array([1, 0, 1, 0], bool), np.zeros(4))
    env = lower_envelope(roc)
    assert env.pc.tolist() == [0, 0.5, 1] and operating_range(env) is None


def test_perfect_classifier():
    roc = roc_points(np.array([1, 1, 0, 0], bool), np.array([0.9, 0.8, 0.2, 0.1]))
    env = lower_envelope(roc)
    assert env.pc.tolist() == [0, 1] and env.nec.tolist() == [0, 0]
    assert operating_range(env) == (0.0, 1.0) and env.area == 0.0


def test_crisp_worse_than_trivial():
    y = np.array([True] * 10 + [False] * 10)
    pred = np.array([False] * 8 + [True] * 2 + [True] * 7 + [False] * 3)  # tpr 0.2 < fpr 0.7
    env = lower_envelope(crisp_roc(y, pred))
    assert operating_range(env) is None


@settings(max_examples=250, deadline=None)
@given(labelled_scores(max_size=30))
def test_envelope_equals_brute_force(data):
    y, s = data
    roc = roc_points(y, s)
    env = lower_envelope(roc)
    xs, ys = envelope_vertices(roc.fpr, roc.tpr)
    # same function: compare at the union of both vertex sets (both piecewise linear)
    grid = np.union1d(xs, env.pc)
    assert env(grid) == pytest.approx(np.interp(grid, xs, ys), abs=1e-12)
    # every envelope vertex is a true vertex of the brute-force minimum
    assert env(env.pc) == pytest.approx(min_cost(roc.fpr, roc.tpr, env.pc), abs=1e-12)
    # area = exact brute-force area
    assert env.area == pytest.approx(curve_area(xs, ys), abs=1e-12)


@settings(max_examples=250, deadline=None)
@given(labelled_scores(max_size=30))
def test_operating_range_equals_brute_force(data):
    y, s = data
    roc = roc_points(y, s)
    env = lower_envelope(roc)
    xs, ys = envelope_vertices(roc.fpr, roc.tpr)
    below = ys < trivial_cost(xs) - 1e-12
    rng = operating_range(env)
    if not below.any():
        # no vertex strictly below: the minimum is the trivial tent (maybe touching it at 0.5)
        assert rng is None or rng[0] == rng[1]
        return
    lo, hi = rng
    # strictly better inside, equal to trivial outside
    inside = GRID[(GRID > lo + 1e-9) & (GRID < hi - 1e-9)]
    outside = GRID[(GRID < lo) | (GRID > hi)]
    brute_in = min_cost(roc.fpr, roc.tpr, inside)
    assert np.all(brute_in < trivial_cost(inside))
    assert min_cost(roc.fpr, roc.tpr, outside) == pytest.approx(trivial_cost(outside), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(labelled_scores(max_size=25), st.data())
def test_comparison_against_grid(data, more):
    y, s = data
    s2 = more.draw(hnp.arrays(float, y.size, elements=st.integers(0, 5).map(float)))
    a, b = lower_envelope(roc_points(y, s)), lower_envelope(roc_points(y, s2))
    m = compare(a, b)
    d = a(GRID) - b(GRID)
    # the largest difference is the grid's (exact, since it sits on a vertex of the union)
    assert abs(m.max_difference[1]) >= np.max(np.abs(d)) - 1e-12
    assert m.max_difference[1] == pytest.approx(
        a(m.max_difference[0]) - b(m.max_difference[0]), abs=1e-12
    )
    for lo, hi in m.a_better:
        mid = GRID[(GRID > lo) & (GRID < hi)]
        assert np.all(a(mid) <= b(mid) + 1e-12)
    for lo, hi in m.b_better:
        mid = GRID[(GRID > lo) & (GRID < hi)]
        assert np.all(b(mid) <= a(mid) + 1e-12)
    for x in m.crossovers:
        assert a(x) == pytest.approx(b(x), abs=1e-9)
    # intervals cover [0, 1] without overlap
    covered = sorted(m.a_better + m.b_better + m.ties)
    assert covered[0][0] == 0.0 and covered[-1][1] == 1.0
    assert all(covered[i][1] == pytest.approx(covered[i + 1][0]) for i in range(len(covered) - 1))


def test_crossing_lines_fig3_style():
    # Two crisp classifiers whose cost lines cross once: A (0.1, 0.5) and B (0.4, 0.1) (fpr, fnr).
    a = lower_envelope(np.array([0.1]), np.array([0.5]))
    b = lower_envelope(np.array([0.4]), np.array([0.9]))
    m = compare(a, b)
    # lines 0.1 + 0.4x and 0.4 - 0.3x cross at x = 3/7 (both below the trivial tent there)
    assert m.crossovers == pytest.approx((3 / 7,))
    assert m.a_better[0][1] == pytest.approx(3 / 7) and m.b_better[0][0] == pytest.approx(3 / 7)
