"""Honest evaluation of empirical selection: select on the other folds, evaluate on the held-out one.

Drummond & Holte 2006 section 5.2: a hybrid built from its members' FP and TP is optimistic when
the same data chose the members ("the data used to estimate these FP and TP values is part of the
training set for the hybrid classifier"); an unbiased estimate needs fresh data. With a fold
column, for each fold k (spec, "honest cost-minimising hybrid by fold"):

1. the selection set S_k is every row of the other folds (both classes needed);
2. candidates: ``+inf``, ``-inf`` and the midpoints between consecutive distinct scores of S_k,
   predicting + iff ``s > theta`` (``placement="midpoint"``, the default); or ``+inf`` and every
   distinct score with ``s >= u`` (``placement="ge_score"``);
3. at each PC(+) x the candidate of least ``x FNR_S + (1 - x) FPR_S`` -- the vertices of S_k's
   convex hull, each on the PC(+) interval of its envelope segment; at an envelope vertex the tied
   candidates resolve to the one predicting the fewest positives on S_k, the hull edge's lower
   end, so a vertex owns the half-open interval ``(low, high]``;
4. that threshold is applied to fold k; the counts are pooled over folds (micro-average):
   ``H(x) = x sum_k FN_k(x) / P + (1 - x) sum_k FP_k(x) / N``.

H is piecewise linear with jumps; its area is exact piece by piece. The optimism is
``area(H) - area(in-sample envelope)``. With several classifiers the candidates of all of them
compete on S_k (the dataset hybrid; coinciding points go to the first classifier). Neyman-Pearson
and workforce choices are made the same way on S_k and applied to fold k with their expected
counts ``w counts(i) + (1 - w) counts(j)``.

Each classifier's scores are sorted once; a fold's selection and held-out rows are subsets of that
order. The loop is over folds and classifiers, never over instances or thresholds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..envelope import envelope_from_hull
from ..roc import hull_indices
from .criteria import check_max_fpr, mix_indices, workforce_capacity
from .curves import HybridCurve
from .hull import edge_pc, roc_from_sorted, union_hull

PLACEMENTS = ("midpoint", "ge_score")


@dataclass(frozen=True, eq=False)
class FoldSelection:
    """Fold k: the hull of S_k (counts ``fp``, ``tp``, rates ``fpr``, ``tpr``; ``owner`` classifier; candidate
    ``threshold``) and each vertex's counts on the held-out fold (``held_fp``, ``held_tp``)."""

    fold: object
    fp: np.ndarray
    tp: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    owner: np.ndarray
    threshold: np.ndarray
    held_fp: np.ndarray
    held_tp: np.ndarray
    n_pos_selection: int
    n_neg_selection: int
    n_pos_held: int
    n_neg_held: int


@dataclass(frozen=True, eq=False)
class OutOfFold:
    """Out-of-fold hybrid curve (``closed="right"``), its area and optimism, and the folds."""

    names: tuple[str, ...]
    curve: HybridCurve
    area: float
    in_sample_area: float
    placement: str
    folds: tuple[FoldSelection, ...]
    n_pos: int
    n_neg: int

    @property
    def optimism(self) -> float:
        """Out-of-fold area minus in-sample area (>= 0 when selection flattered the curve)."""
        return self.area - self.in_sample_area

    def to_dict(self) -> dict:
        return {"area": self.area, "optimism": self.optimism, "curve": self.curve.curve()}

    def neyman_pearson(self, max_fpr: float) -> tuple[float, float]:
        """Held-out ``(fpr, tpr)`` of Neyman-Pearson mixtures chosen on each S_k, pooled."""
        alpha = check_max_fpr(max_fpr)
        fp = tp = 0.0
        for f in self.folds:
            i, j, w = mix_indices(f.fpr, f.tpr, alpha, f.fpr)
            fp += w * f.held_fp[i] + (1.0 - w) * f.held_fp[j]
            tp += w * f.held_tp[i] + (1.0 - w) * f.held_tp[j]
        return float(fp / self.n_neg), float(tp / self.n_pos)

    def workforce(self, capacity=None, capacity_share=None) -> tuple[float, float, float]:
        """Held-out ``(fpr, tpr, flagged)`` of workforce choices made on each S_k, pooled.

        The capacity is a share of the cases (``capacity`` cases of the P + N evaluated), applied
        to S_k's size for the choice; ``flagged`` is the pooled expected held-out count.
        """
        share = workforce_capacity(capacity, capacity_share, self.n_pos + self.n_neg)
        share /= self.n_pos + self.n_neg
        fp = tp = 0.0
        for f in self.folds:
            along = f.n_pos_selection * f.tpr + f.n_neg_selection * f.fpr
            w_s = share * (f.n_pos_selection + f.n_neg_selection)
            i, j, w = mix_indices(f.fpr, f.tpr, w_s, along)
            fp += w * f.held_fp[i] + (1.0 - w) * f.held_fp[j]
            tp += w * f.held_tp[i] + (1.0 - w) * f.held_tp[j]
        return float(fp / self.n_neg), float(tp / self.n_pos), float(fp + tp)


def out_of_fold(
    y_true, scores, folds, placement: str = "midpoint", in_sample_area: float | None = None
) -> OutOfFold:
    """The out-of-fold cost-minimising hybrid of one classifier (an array) or several (a mapping).

    ``folds``: one fold label per row, at least two distinct. ``in_sample_area`` is the area of
    the pooled in-sample lower envelope (computed here when not given).
    """
    if placement not in PLACEMENTS:
        raise ValueError(f"unknown threshold placement {placement!r}; expected one of {PLACEMENTS}")
    columns = scores if isinstance(scores, Mapping) else {"": scores}
    names = tuple(columns)
    y = np.asarray(y_true).astype(bool)
    labels, fold = fold_index(folds)
    if labels.size < 2:
        raise ValueError("the out-of-fold procedure needs at least two folds")
    n_pos = int(np.count_nonzero(y))
    n_neg = y.size - n_pos
    if n_pos == 0 or n_neg == 0:
        raise ValueError("the out-of-fold procedure needs both classes")
    sorted_columns = []
    for name in names:
        s = np.asarray(columns[name], dtype=float)
        if s.shape != y.shape or not np.all(np.isfinite(s)):
            raise ValueError(f"scores of {name!r} must be finite and one per row")
        order = np.argsort(-s)  # order within ties is irrelevant
        sorted_columns.append((s[order], y[order], fold[order]))
    return out_of_fold_presorted(names, sorted_columns, labels, placement, in_sample_area)


def fold_index(folds) -> tuple[np.ndarray, np.ndarray]:
    """Distinct fold labels (sorted) and each row's index into them.

    Small non-negative integer labels are indexed by a lookup table (no sort), others by
    ``np.unique``.
    """
    f = np.asarray(folds)
    if f.dtype.kind in "iu" and f.size and f.min() >= 0 and f.max() < 4 * f.size + 1024:
        present = np.bincount(f) > 0
        labels = np.flatnonzero(present)
        lookup = np.cumsum(present) - 1
        return labels, lookup[f]
    return np.unique(f, return_inverse=True)


def out_of_fold_presorted(
    names, sorted_columns, labels, placement: str = "midpoint", in_sample_area=None
) -> OutOfFold:
    """:func:`out_of_fold` on columns already sorted by decreasing score.

    ``sorted_columns``: per classifier ``(scores, labels, fold index)`` in that order, fold
    indices ``0..len(labels)-1`` (as ``np.unique(..., return_inverse=True)`` gives).
    """
    if placement not in PLACEMENTS:
        raise ValueError(f"unknown threshold placement {placement!r}; expected one of {PLACEMENTS}")
    if len(labels) < 2:
        raise ValueError("the out-of-fold procedure needs at least two folds")
    y0 = sorted_columns[0][1]
    n_pos = int(np.count_nonzero(y0))
    n_neg = y0.size - n_pos
    selections = []
    for k, label in enumerate(labels):
        parts = [_candidates(s, yy, ff, k, placement, label) for s, yy, ff in sorted_columns]
        selections.append(_fold_hull(parts, label))
    curve = _pooled_curve(selections, n_pos, n_neg)
    if in_sample_area is None:
        in_sample_area = _in_sample_area(sorted_columns, n_pos, n_neg)
    return OutOfFold(
        names=tuple(names),
        curve=curve,
        area=curve.area,
        in_sample_area=float(in_sample_area),
        placement=placement,
        folds=tuple(selections),
        n_pos=n_pos,
        n_neg=n_neg,
    )


def _candidates(s, y, fold, k, placement, label):
    """S_k's hull vertices of one classifier, their thresholds and held-out counts."""
    sel = fold != k
    ys, ss = y[sel], s[sel]
    if ys.all() or not ys.any():
        raise ValueError(f"the selection set without fold {label!r} has only one class")
    roc = roc_from_sorted(ys, ss)
    keep = hull_indices(roc)
    u = roc.thresholds  # +inf, then the distinct scores decreasing
    if placement == "midpoint":
        nxt = np.append(u[2:], -np.inf)  # the next lower distinct score of point a >= 1
        mid = (u[1:] + nxt) / 2.0
        mid = np.where(mid >= u[1:], nxt, mid)  # adjacent floats: s > u_{a+1} is s >= u_a
        mid[-1] = -np.inf
        theta = np.concatenate(([np.inf], mid))[keep]
    else:
        theta = u[keep]
    held = ~sel
    yh, sh = y[held], s[held]
    pos_up, neg_up = sh[yh][::-1], sh[~yh][::-1]  # ascending
    side = "right" if placement == "midpoint" else "left"  # s > theta, or s >= u
    held_tp = pos_up.size - np.searchsorted(pos_up, theta, side=side)
    held_fp = neg_up.size - np.searchsorted(neg_up, theta, side=side)
    return roc, keep, theta, held_fp.astype(float), held_tp.astype(float), pos_up.size, neg_up.size


def _fold_hull(parts, label) -> FoldSelection:
    """Union hull of the classifiers' candidates on S_k (same rows for all)."""
    roc0 = parts[0][0]
    fp = np.concatenate([p[0].fp[p[1]] for p in parts])
    tp = np.concatenate([p[0].tp[p[1]] for p in parts])
    owner = np.concatenate([np.full(p[1].size, c) for c, p in enumerate(parts)])
    v = union_hull(fp, tp, owner, roc0.n_pos, roc0.n_neg)
    return FoldSelection(
        fold=label,
        fp=fp[v],
        tp=tp[v],
        fpr=fp[v] / roc0.n_neg,
        tpr=tp[v] / roc0.n_pos,
        owner=owner[v],
        threshold=np.concatenate([p[2] for p in parts])[v],
        held_fp=np.concatenate([p[3] for p in parts])[v],
        held_tp=np.concatenate([p[4] for p in parts])[v],
        n_pos_selection=roc0.n_pos,
        n_neg_selection=roc0.n_neg,
        n_pos_held=parts[0][5],
        n_neg_held=parts[0][6],
    )


def _pooled_curve(selections, n_pos, n_neg) -> HybridCurve:
    """Pool the folds' piecewise-constant held-out counts on the union of their switch points."""
    highs = [
        np.append(edge_pc(f.fp, f.tp, f.n_pos_selection, f.n_neg_selection), 1.0)
        for f in selections
    ]
    high = np.unique(np.concatenate(highs + [np.zeros(1)]))
    low = np.concatenate(([0.0], high[:-1]))
    fp = np.zeros(high.size)
    fn = np.zeros(high.size)
    for f, h in zip(selections, highs):
        v = np.searchsorted(h, high, side="left")  # the vertex owning (low, high]
        fp += f.held_fp[v]
        fn += f.n_pos_held - f.held_tp[v]
    return HybridCurve(low=low, high=high, start=fp / n_neg, end=fn / n_pos, closed="right")


def _in_sample_area(sorted_columns, n_pos, n_neg) -> float:
    """Area of the pooled in-sample lower envelope over all the classifiers."""
    rocs = [roc_from_sorted(yy, s) for s, yy, _ in sorted_columns]
    keeps = [hull_indices(roc) for roc in rocs]
    fp = np.concatenate([roc.fp[k] for roc, k in zip(rocs, keeps)])
    tp = np.concatenate([roc.tp[k] for roc, k in zip(rocs, keeps)])
    owner = np.concatenate([np.full(k.size, c) for c, k in enumerate(keeps)])
    v = union_hull(fp, tp, owner, n_pos, n_neg)
    return envelope_from_hull(fp[v] / n_neg, tp[v] / n_pos).area
