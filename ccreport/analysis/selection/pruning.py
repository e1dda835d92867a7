"""ROC convex hulls of long paths without visiting every point: blocks whose box lies under a hull.

An ROC path ``(x_a, y_a)``, ``a = 0..A`` (FP and TP counts, both non-decreasing) is cut into
blocks of ``BLOCK`` consecutive points. Every point of the block from ``a_b`` to ``a_{b+1}``
lies in the box ``x_b <= x <= x_{b+1}``, ``y_b <= y <= y_{b+1}``, whose upper-left corner is
``(x_b, y_{b+1})``.

**Lemma.** Let h be the upper-left hull of ROC points, written in the sheared frame
``u = x + y`` (as in :func:`ccreport.analysis.roc.hull_indices`): a concave, non-decreasing
function of u with slopes ``dy / (dx + dy)`` in [0, 1]. If the corner ``(u_c, v_c) =
(x_b + y_{b+1}, y_{b+1})`` is on or under h, so is every point of the box; if it is strictly
under h, so is every point of the box.

*Proof.* A box point has ``v = y <= v_c`` and ``u = x + y >= x_b + v``. If ``u >= u_c``,
``h(u) >= h(u_c) >= v_c >= v`` (h non-decreasing). If ``u < u_c``, slopes <= 1 give
``h(u) >= h(u_c) - (u_c - u) >= v_c - u_c + u = u - x_b >= v``. With ``h(u_c) > v_c`` both chains
are strict. []

Hence (1) :func:`pruned_hull`: let H be the hull of some path points (the block ends at first);
it lies under the full hull. A block whose corner is on or under H holds no vertex of the full
hull (its points are on or under H, so each is a convex combination of H's vertices or coincides
with one) and is dropped; every other block is split at its middle point, which is evaluated and
joins H's points, level by level until no block is left. Every vertex of the full hull is then
among the evaluated points, whose hull is the full hull. Evaluated points strictly under H can
go. (2) :func:`near_hull`: given the final hull, the points of a block whose corner is strictly
under it are strictly under it, so only the other blocks (split the same way) can hold points
*on* the hull (ties).

The author's shortcut "only points on the global path's hull can be hull vertices of a subset"
is false: drop rows from under a hull edge and a point below that edge can become a vertex of
the subset's hull. Rows +, +, -, +, -, -, +, +, +, +: the point (FP, TP) = (1, 3) after the
fourth row is under the global hull edge from (0, 2) to (3, 7), and a vertex of the hull of the
first six rows (the last four held out). Each subset's path (a
fold's selection set) is pruned by its own blocks and hulls.

Counts below 2^26 keep the cross products exact in float64; above, the tests keep a block when
rounding could matter (they only ever keep too much), and the hull itself is taken exactly as
:func:`ccreport.analysis.roc.hull_indices` takes it. The loop-free work is O(A / BLOCK) plus
the points of the blocks split; the Python loop is over levels (log2 BLOCK of them).
"""

from __future__ import annotations

import numpy as np

from ..roc import RocCurve, hull_indices

BLOCK = 128  # path points per block (10^6 continuous scores: 64-256 all fast)


def path_hull(fp, tp) -> np.ndarray:
    """:func:`ccreport.analysis.roc.hull_indices` of a monotone path given by its counts."""
    fp = np.asarray(fp, dtype=float)
    path = RocCurve(tp=np.asarray(tp, dtype=float), fp=fp, thresholds=fp, n_pos=0, n_neg=0)
    return hull_indices(path)


def roc_hull_indices(roc: RocCurve) -> np.ndarray:
    """:func:`ccreport.analysis.roc.hull_indices` of ROC points without repeated points (as
    :func:`ccreport.analysis.roc.roc_from_sorted` gives), by :func:`pruned_hull`. With repeated
    points the vertex may be another repeat than ``hull_indices`` returns."""
    return pruned_hull(lambda a: (roc.fp[a], roc.tp[a]), roc.fp.size)


def block_ends(n_points: int, block: int = BLOCK) -> np.ndarray:
    """Indices ``0, block, 2 block, ..., n_points - 1`` cutting a path into blocks."""
    return np.unique(np.append(np.arange(0, n_points, block), n_points - 1))


def above(hull_fp, hull_tp, fp, tp, strict: bool) -> np.ndarray:
    """Whether points lie above the hull (strictly, or on or above), possibly true when unsure.

    ``hull_fp``/``hull_tp``: the hull vertices in counts, in order (u = fp + tp increasing
    strictly). Decided by the sign of a cross product in the sheared frame; a point whose cross
    product is within float64 rounding of 0 counts as above.
    """
    hu = hull_fp + hull_tp
    u = fp + tp
    j = np.clip(np.searchsorted(hu, u, side="right") - 1, 0, hu.size - 2)
    du, dv = hu[j + 1] - hu[j], hull_tp[j + 1] - hull_tp[j]
    a = (tp - hull_tp[j]) * du
    b = dv * (u - hu[j])
    slack = 4.0 * np.finfo(float).eps * (np.abs(a) + np.abs(b))
    return a - b > -slack if strict else a - b >= -slack


def pruned_hull(counts_at, n_points: int, block: int = BLOCK) -> np.ndarray:
    """Hull vertex indices (as :func:`path_hull` of the whole path) of a path of ``n_points``.

    ``counts_at(idx)`` returns ``(fp, tp)`` (float counts) of the path points ``idx`` (sorted).
    The path is evaluated at the block ends; then, level by level, every block whose corner is
    strictly above the hull of the points evaluated so far is split at its middle point, which
    is evaluated (the others are dropped by the lemma). Where points coincide, the vertex may be
    any of them.
    """
    idx = block_ends(n_points, block)
    fp, tp = counts_at(idx)
    lo, hi, x_lo, y_hi = _blocks(idx, fp, tp)
    while True:
        h = path_hull(fp, tp)
        if h.size < 2:  # all evaluated points coincide: so do those between them
            return idx[h]
        hull_fp, hull_tp = fp[h], tp[h]
        split = above(hull_fp, hull_tp, x_lo, y_hi, strict=True)
        if not split.any():
            return idx[h]
        near = above(hull_fp, hull_tp, fp, tp, strict=False)  # the vertices, and rounding's
        lo, hi, x_lo, y_hi = lo[split], hi[split], x_lo[split], y_hi[split]
        mid = (lo + hi) // 2
        x_mid, y_mid = counts_at(mid)
        idx = np.concatenate((idx[near], mid))
        order = np.argsort(idx, kind="stable")
        idx = idx[order]
        fp = np.concatenate((fp[near], x_mid))[order]
        tp = np.concatenate((tp[near], y_mid))[order]
        lo, hi = np.concatenate((lo, mid)), np.concatenate((mid, hi))
        x_lo, y_hi = np.concatenate((x_lo, x_mid)), np.concatenate((y_mid, y_hi))
        wide = hi - lo > 1
        lo, hi, x_lo, y_hi = lo[wide], hi[wide], x_lo[wide], y_hi[wide]


def near_hull(fp, tp, hull_fp, hull_tp, block: int = BLOCK) -> np.ndarray:
    """Indices of the path points ``(fp, tp)`` that may lie on the hull (a superset, sorted).

    Every point on or above the hull (the hull vertices, points on its edges) is returned. Blocks
    whose corner is on or above the hull are split level by level as in :func:`pruned_hull`.
    """
    idx = block_ends(fp.size, block)
    lo, hi, x_lo, y_hi = _blocks(idx, fp[idx], tp[idx])
    found = [idx[above(hull_fp, hull_tp, fp[idx], tp[idx], strict=False)]]
    while lo.size:
        split = above(hull_fp, hull_tp, x_lo, y_hi, strict=False)
        lo, hi = lo[split], hi[split]
        mid = (lo + hi) // 2
        found.append(mid[above(hull_fp, hull_tp, fp[mid], tp[mid], strict=False)])
        lo, hi = np.concatenate((lo, mid)), np.concatenate((mid, hi))
        lo, hi = lo[hi - lo > 1], hi[hi - lo > 1]
        x_lo, y_hi = fp[lo], tp[hi]
    return np.sort(np.concatenate(found))


def _blocks(idx, fp, tp):
    """Blocks between consecutive evaluated points with interior points: ends and corner."""
    wide = np.diff(idx) > 1
    return idx[:-1][wide], idx[1:][wide], fp[:-1][wide], tp[1:][wide]
