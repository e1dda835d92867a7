"""ROC points with ties (Fawcett 2006, Alg. 1), the convex hull and AUC."""

import numpy as np
import pytest
from brute_force import mann_whitney_auc, roc_points_by_thresholds
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ccreport.analysis.roc import auc, convex_hull, crisp_roc, roc_hull, roc_points

RATES = st.integers(0, 40).map(lambda k: k / 40)  # rates are counts over a class size


def ranking_to_arrays(ranking: str):
    """HO/F/F 2013 write rankings best first with 0 = positive; ours: higher score = positive."""
    labels = np.array([c == "0" for c in ranking.split()])
    scores = np.arange(labels.size, 0, -1, dtype=float)
    return labels, scores


@st.composite
def labelled_scores(draw, max_size=40, tied=True):
    n = draw(st.integers(2, max_size))
    labels = draw(hnp.arrays(bool, n))
    if labels.all() or not labels.any():
        labels[0] = not labels[0]
    elements = st.integers(0, 5).map(float) if tied else st.floats(-1e6, 1e6, allow_nan=False)
    scores = draw(hnp.arrays(float, n, elements=elements))
    return labels, scores


def test_hoff2013_aucs():
    # HO/F/F 2013: model A "0 0 1 0 0 0 1 0 1 0" has AUC 13/21, model B "0 0 0 1 0 1 1 0 0 0" 11/21.
    for ranking, expected in [("0 0 1 0 0 0 1 0 1 0", 13 / 21), ("0 0 0 1 0 1 1 0 0 0", 11 / 21)]:
        assert auc(roc_points(*ranking_to_arrays(ranking))) == pytest.approx(expected)


def test_ties_make_one_diagonal_segment():
    # Fawcett Alg. 1: a tied run of 1 positive and 1 negative is one step up and right at once.
    y = np.array([1, 1, 0, 0], bool)
    s = np.array([0.9, 0.5, 0.5, 0.1])
    roc = roc_points(y, s)
    assert roc.fpr.tolist() == [0, 0, 0.5, 1]
    assert roc.tpr.tolist() == [0, 0.5, 1, 1]
    assert roc.thresholds.tolist() == [np.inf, 0.9, 0.5, 0.1]
    assert auc(roc) == pytest.approx(mann_whitney_auc(y, s)) == pytest.approx(0.875)


def test_constant_scores_give_the_diagonal():
    roc = roc_points(np.array([1, 0, 1, 0, 0], bool), np.full(5, 0.3))
    assert roc.fpr.tolist() == [0, 1] and roc.tpr.tolist() == [0, 1]
    assert auc(roc) == 0.5
    hull = roc_hull(roc)
    assert hull[0].tolist() == [0, 1] and hull[1].tolist() == [0, 1]


def test_one_class_is_an_error():
    with pytest.raises(ValueError, match="both classes"):
        roc_points(np.ones(4, bool), np.arange(4.0))


def test_non_finite_scores_are_an_error():
    with pytest.raises(ValueError, match="finite"):
        roc_points(np.array([1, 0], bool), np.array([0.1, np.nan]))


def test_crisp_classifier_is_one_point():
    # D&H 2006 Fig. 1 confusion matrix: TP=16, FN=4, FP=4, TN=6.
    y = np.array([True] * 20 + [False] * 10)
    pred = np.array([True] * 16 + [False] * 4 + [True] * 4 + [False] * 6)
    roc = crisp_roc(y, pred)
    assert roc.fpr.tolist() == [0, 0.4, 1] and roc.tpr.tolist() == [0, 0.8, 1]


@settings(max_examples=200, deadline=None)
@given(labelled_scores())
def test_roc_points_match_thresholding(data):
    y, s = data
    roc = roc_points(y, s)
    fpr, tpr = roc_points_by_thresholds(y, s)
    assert roc.fpr == pytest.approx(fpr) and roc.tpr == pytest.approx(tpr)


@settings(max_examples=200, deadline=None)
@given(labelled_scores(tied=False))
def test_roc_points_match_sklearn(data):
    sk = pytest.importorskip("sklearn.metrics")
    y, s = data
    roc = roc_points(y, s)
    fpr, tpr, _ = sk.roc_curve(y, s, drop_intermediate=False)
    assert roc.fpr == pytest.approx(fpr) and roc.tpr == pytest.approx(tpr)


@settings(max_examples=300, deadline=None)
@given(labelled_scores())
def test_auc_is_mann_whitney_with_half_ties(data):
    y, s = data
    assert auc(roc_points(y, s)) == pytest.approx(mann_whitney_auc(y, s), abs=1e-12)


def _upper_hull_reference(points):
    """Andrew's monotone chain with exact integer cross products: an independent upper hull.

    ``points`` are integer (fp, tp) counts including (0, 0) and (n_neg, n_pos); collinear points
    are dropped, as in the hull under test.
    """
    hull = []
    for p in sorted(set(points)):
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            if (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1) >= 0:
                hull.pop()  # hull[-1] is under or on the chord from hull[-2] to p
            else:
                break
        hull.append(p)
    return hull


@settings(max_examples=300, deadline=None)
@given(labelled_scores())
def test_roc_hull_matches_monotone_chain(data):
    y, s = data
    roc = roc_points(y, s)
    f, t = roc_hull(roc)
    ref = np.array(_upper_hull_reference(list(zip(roc.fp.astype(int), roc.tp.astype(int)))), float)
    assert np.column_stack([f * roc.n_neg, t * roc.n_pos]) == pytest.approx(ref, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(hnp.arrays(float, st.integers(1, 15), elements=RATES), st.data())
def test_convex_hull_of_any_point_set(fpr, data):
    tpr = data.draw(hnp.arrays(float, fpr.size, elements=RATES))
    f, t = convex_hull(fpr, tpr)
    assert f[0] == 0 and t[0] == 0 and f[-1] == 1 and t[-1] == 1
    assert np.all(np.diff(f) >= 0) and np.all(np.diff(t) >= 0)
    # every point is on or under the hull, and the hull is concave
    assert np.all(tpr <= np.interp(fpr, f, t) + 1e-12)
    # concave: every vertex is strictly above the chord of its neighbours (exact on the 1/40 grid)
    cross = (f[1:-1] - f[:-2]) * (t[2:] - t[:-2]) - (t[1:-1] - t[:-2]) * (f[2:] - f[:-2])
    assert np.all(cross < 0)


def argsort_sweep(labels, scores):
    """Fawcett 2006 Alg. 1 as a sweep over an argsort (the implementation before the value
    sorts)."""
    order = np.argsort(-scores, kind="stable")
    y, s = labels[order], scores[order]
    ends = np.append(np.flatnonzero(np.diff(s)), s.size - 1)
    tp = np.cumsum(y)[ends]
    return (
        np.concatenate(([0], tp)),
        np.concatenate(([0], ends + 1 - tp)),
        np.concatenate(([np.inf], s[ends])),
    )


@settings(max_examples=200, deadline=None)
@given(labelled_scores(tied=True) | labelled_scores(tied=False))
def test_value_sorts_give_the_argsort_sweep(data):
    labels, scores = data
    roc = roc_points(labels, scores)
    tp, fp, thresholds = argsort_sweep(labels, scores)
    np.testing.assert_array_equal(roc.tp, tp)
    np.testing.assert_array_equal(roc.fp, fp)
    np.testing.assert_array_equal(roc.thresholds, thresholds)
    assert (roc.n_pos, roc.n_neg) == (labels.sum(), (~labels).sum())


def test_memoised_curves_are_shared_read_only_and_keyed_by_content():
    rng = np.random.default_rng(3)
    labels, scores = rng.random(500) < 0.4, np.round(rng.normal(size=500), 1)
    first = roc_points(labels, scores)
    assert roc_points(labels.copy(), scores.copy()) is first  # equal contents: the same curve
    with pytest.raises(ValueError):
        first.tp[0] = 1.0  # shared, so read-only
    changed = scores.copy()
    changed[0] += 10.0
    assert roc_points(labels, changed) is not first
    np.testing.assert_array_equal(roc_points(labels, changed).tp, argsort_sweep(labels, changed)[0])
    flipped = labels.copy()
    flipped[0] = not flipped[0]
    assert roc_points(flipped, scores).n_pos != first.n_pos
