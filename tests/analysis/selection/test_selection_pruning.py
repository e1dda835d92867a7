"""Block pruning of ROC hulls (selection/pruning.py) and the out-of-fold selection sets built on it.

The pruned hulls are checked against the hull of every point, and the out-of-fold selection sets
(counts "all rows minus fold k" from one global order) against each fold's rows taken apart.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ccreport.analysis.roc import hull_indices, roc_points
from ccreport.analysis.selection import out_of_fold
from ccreport.analysis.selection.pruning import near_hull, path_hull, pruned_hull


@st.composite
def monotone_paths(draw):
    """An ROC path in counts from a label sequence, some points repeated (empty groups)."""
    labels = draw(st.lists(st.booleans(), min_size=2, max_size=400))
    assume_both = labels + [True, False] if all(labels) or not any(labels) else labels
    y = np.array(assume_both, bool)
    tp = np.concatenate(([0], np.cumsum(y))).astype(float)
    fp = np.arange(y.size + 1) - tp
    repeats = np.array(draw(st.lists(st.integers(1, 3), min_size=fp.size, max_size=fp.size)))
    return np.repeat(fp, repeats), np.repeat(tp, repeats), draw(st.sampled_from([2, 3, 4, 16]))


def on_or_above(fp, tp, hull_fp, hull_tp):
    """Exact cross products of every point against the hull edge over it (>= 0: on the hull)."""
    hu, u = hull_fp + hull_tp, fp + tp
    j = np.clip(np.searchsorted(hu, u, side="right") - 1, 0, hu.size - 2)
    return (tp - hull_tp[j]) * (hu[j + 1] - hu[j]) - (hull_tp[j + 1] - hull_tp[j]) * (u - hu[j])


@settings(max_examples=200, deadline=None)
@given(monotone_paths())
def test_pruned_hull_is_the_hull_of_every_point(path):
    fp, tp, block = path
    full = path_hull(fp, tp)
    v = pruned_hull(lambda a: (fp[a], tp[a]), fp.size, block)
    assert np.array_equal(fp[v], fp[full]) and np.array_equal(tp[v], tp[full])
    cross = on_or_above(fp, tp, fp[full], tp[full])
    assert cross.max() == 0  # nothing above the hull
    near = near_hull(fp, tp, fp[full], tp[full], block)
    assert np.all(np.diff(near) > 0)
    assert set(np.flatnonzero(cross == 0)) <= set(near)


def test_pruning_evaluates_few_points_of_a_long_path():
    rng = np.random.default_rng(3)
    y = rng.random(200_000) < 0.3
    s = rng.normal(y * 1.0, 1.0)
    roc = roc_points(y, s)
    seen = []

    def counts_at(a):
        seen.append(a.size)
        return roc.fp[a], roc.tp[a]

    v = pruned_hull(counts_at, roc.fp.size)
    assert np.array_equal(v, hull_indices(roc))
    assert sum(seen) < roc.fp.size / 10
    near = near_hull(roc.fp, roc.tp, roc.fp[v], roc.tp[v])
    assert near.size < roc.fp.size / 10 and set(v) <= set(near)


def test_a_vertex_of_a_selection_set_can_lie_under_the_global_hull():
    """Rows +,+,-,+,-,-,+,+,+,+: (FP, TP) = (1, 3) is under the global hull, a vertex without
    the last four rows; pruning by the global path's hull would lose it."""
    y = np.array([1, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0], bool)
    s = np.arange(y.size, 0, -1).astype(float)
    folds = np.array([0] * 6 + [1] * 5)
    roc = roc_points(y, s)
    k = hull_indices(roc)
    assert (1.0, 3.0) not in set(zip(roc.fp[k], roc.tp[k]))
    without_fold_1 = out_of_fold(y, s, folds).folds[1]
    assert (1.0, 3.0) in set(zip(without_fold_1.fp, without_fold_1.tp))


def folds_taken_apart(y, s, folds, placement):
    """Per fold: S_k's own ROC points and hull, thresholds by the spec, held-out counts by
    comparing every held-out score (no shared order, no pruning)."""
    out = []
    for k in np.unique(folds):
        sel, held = folds != k, folds == k
        roc = roc_points(y[sel], s[sel])
        keep = hull_indices(roc)
        u = roc.thresholds
        if placement == "midpoint":
            nxt = np.append(u[2:], -np.inf)
            mid = (u[1:] + nxt) / 2.0
            mid = np.where(mid >= u[1:], nxt, mid)  # adjacent floats
            theta = np.concatenate(([np.inf], mid))
            theta[-1] = -np.inf
            pred = s[held][None, :] > theta[keep][:, None]
        else:
            theta = u
            pred = s[held][None, :] >= theta[keep][:, None]
        out.append(
            (
                roc.fp[keep],
                roc.tp[keep],
                theta[keep],
                np.sum(pred & ~y[held], axis=1),
                np.sum(pred & y[held], axis=1),
            )
        )
    return out


@pytest.mark.parametrize("placement", ["midpoint", "ge_score"])
@pytest.mark.parametrize("rounding", [None, 2, 1])
def test_out_of_fold_selection_sets_against_folds_taken_apart(placement, rounding):
    rng = np.random.default_rng(11)
    y = rng.random(4000) < 0.35
    s = rng.normal(y * 1.2, 1.0)
    s = s if rounding is None else s.round(rounding)
    folds = rng.integers(0, 4, y.size)
    oof = out_of_fold(y, s, folds, placement=placement)
    apart = folds_taken_apart(y, s, folds, placement)
    for f, (fp, tp, theta, held_fp, held_tp) in zip(oof.folds, apart):
        assert np.array_equal(f.fp, fp) and np.array_equal(f.tp, tp)
        assert np.array_equal(f.threshold, theta)
        assert np.array_equal(f.held_fp, held_fp) and np.array_equal(f.held_tp, held_tp)
