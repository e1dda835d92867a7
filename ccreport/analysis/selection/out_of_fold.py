"""Honest evaluation of empirical selection: select on the other folds, evaluate on the held-out
one.

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

Each classifier's scores are sorted once; a fold's selection set is never materialised: its
counts at any point of the global order are all rows' counts minus fold k's, and its hull is
found from few such points (:mod:`.pruning`). The loop is over folds and classifiers, never over
instances or thresholds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..envelope import envelope_from_hull
from ..memo import ArrayMemo, content_key
from ..roc import roc_from_sorted
from .criteria import check_max_fpr, mix_indices, workforce_capacity
from .curves import HybridCurve
from .hull import edge_pc, union_hull
from .pruning import pruned_hull, roc_hull_indices

PLACEMENTS = ("midpoint", "ge_score")


@dataclass(frozen=True, eq=False)
class FoldSelection:
    """Fold k: the hull of S_k (counts ``fp``, ``tp``, rates ``fpr``, ``tpr``; ``owner`` classifier;
    candidate ``threshold``) and each vertex's counts on the held-out fold (``held_fp``,
    ``held_tp``)."""

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
        sorted_columns.append(sorted_by_score(y, s, fold))
    return out_of_fold_presorted(names, sorted_columns, labels, placement, in_sample_area)


SORTED_MEMO_BYTES = 512 * 2**20  # sorted columns kept per process (:func:`sorted_by_score`)
_SORTED = ArrayMemo(SORTED_MEMO_BYTES, lambda columns: [a for a in columns if a is not None])


def sorted_by_score(y: np.ndarray, s: np.ndarray, fold: np.ndarray | None = None):
    """``(scores, labels, fold index)`` of the instances in decreasing score order (``None`` for
    the fold index without ``fold``); the order within ties is irrelevant to every caller.

    Memoised in this process by content (:mod:`ccreport.analysis.memo`): a classifier's selection
    task (:func:`ccreport.analysis.selection.classifier.select_scores`) and the dataset's
    out-of-fold hybrid sort the same columns, each sort and its gathers about 3.5 CPU s at n = 10^7.
    The returned arrays are read-only.
    """

    def compute():
        order = np.argsort(-s)
        return s[order], y[order], None if fold is None else fold[order]

    keyed = (y, s) if fold is None else (y, s, fold)
    return _SORTED.get(content_key(*keyed), compute)


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
    names, sorted_columns, labels, placement: str = "midpoint", in_sample_area=None, rocs=None
) -> OutOfFold:
    """:func:`out_of_fold` on columns already sorted by decreasing score.

    ``sorted_columns``: per classifier ``(scores, labels, fold index)`` in that order, fold
    indices ``0..len(labels)-1`` (as ``np.unique(..., return_inverse=True)`` gives). ``rocs``
    (optional): each column's ROC points on all rows
    (:func:`ccreport.analysis.roc.roc_from_sorted`), if known.
    """
    if placement not in PLACEMENTS:
        raise ValueError(f"unknown threshold placement {placement!r}; expected one of {PLACEMENTS}")
    if len(labels) < 2:
        raise ValueError("the out-of-fold procedure needs at least two folds")
    if rocs is None:
        rocs = [roc_from_sorted(yy, s) for s, yy, _ in sorted_columns]
    n_pos, n_neg = rocs[0].n_pos, rocs[0].n_neg
    columns = [(s, yy, ff, roc, -s) for (s, yy, ff), roc in zip(sorted_columns, rocs)]
    selections = []
    for k, label in enumerate(labels):
        parts = [_candidates(*column, k, placement, label) for column in columns]
        selections.append(_fold_hull(parts, label))
    curve = _pooled_curve(selections, n_pos, n_neg)
    if in_sample_area is None:
        in_sample_area = _in_sample_area(rocs, n_pos, n_neg)
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


def _candidates(s, y, fold, roc, neg_s, k, placement, label):
    """S_k's hull vertices of one classifier, their thresholds and held-out counts.

    From the one global order: the rows of fold k are ``held`` (positions in score order), and
    S_k's ROC point after the first ``c`` rows is ``(FP, TP)`` of all rows minus fold k's among
    them. Along the global ROC points (``c = fp + tp``) this is S_k's ROC path, each S_k point
    repeated for every global point in between (groups without S_k rows). Its hull is taken by
    :func:`.pruning.pruned_hull`, which evaluates the path at few points. A vertex's threshold
    is read off S_k's rows next to its cut: ``u``, S_k's lowest score predicted positive (the
    last S_k row before the cut), and the next lower S_k score (the first S_k row after it) --
    the same for every repeat of the point.
    """
    held = np.flatnonzero(fold == k)
    held_pos_before = np.concatenate(([0], np.cumsum(y[held])))
    n_pos_held = int(held_pos_before[-1])
    n_neg_held = held.size - n_pos_held
    n_pos, n_neg = roc.n_pos - n_pos_held, roc.n_neg - n_neg_held
    if n_pos == 0 or n_neg == 0:
        raise ValueError(f"the selection set without fold {label!r} has only one class")

    def held_before(rows):
        """Fold k's (FP, TP) among the first ``rows`` rows."""
        j = np.searchsorted(held, rows, side="left")
        tp = held_pos_before[j]
        return (j - tp).astype(float), tp.astype(float)

    cut = roc.fp + roc.tp  # rows predicted positive at each global ROC point

    def counts_at(a):
        held_fp, held_tp = held_before(cut[a].astype(np.intp))
        return roc.fp[a] - held_fp, roc.tp[a] - held_tp

    v = pruned_hull(counts_at, roc.fp.size)
    fp, tp = counts_at(v)
    c = cut[v].astype(np.intp)
    last, first = _selection_rows_around(held, c, s.size)
    u = np.where(last >= 0, s[np.maximum(last, 0)], np.inf)
    if placement == "midpoint":
        nxt = np.where(first < s.size, s[np.minimum(first, s.size - 1)], -np.inf)
        with np.errstate(invalid="ignore"):
            mid = (u + nxt) / 2.0
        mid = np.where(mid >= u, nxt, mid)  # adjacent floats: s > u_{a+1} is s >= u_a
        theta = np.where(last < 0, np.inf, np.where(first >= s.size, -np.inf, mid))
        rows = np.searchsorted(neg_s, -theta, side="left")  # s > theta
    else:
        theta = u
        rows = np.searchsorted(neg_s, -theta, side="right")  # s >= u
    held_fp, held_tp = held_before(rows)
    return fp, tp, theta, held_fp, held_tp, n_pos, n_neg, n_pos_held, n_neg_held


def _selection_rows_around(held, cut, n_rows):
    """Per cut c: the last row before c and the first row from c on that are not ``held``.

    ``held``: sorted row positions. -1 / ``n_rows`` where there is none. Held rows form runs of
    consecutive positions, on which ``held - arange`` is constant: a run is found by a search.
    """
    key = held - np.arange(held.size)
    r = cut - 1
    j = np.searchsorted(held, r, side="right") - 1
    inside = (j >= 0) & (held[np.maximum(j, 0)] == r)
    run_start = np.searchsorted(key, key[np.maximum(j, 0)], side="left")
    last = np.where(inside, held[run_start] - 1, r)
    j = np.searchsorted(held, cut, side="left")
    jc = np.minimum(j, held.size - 1)
    inside = (j < held.size) & (held[jc] == cut)
    run_end = np.searchsorted(key, key[jc], side="right") - 1
    first = np.where(inside, held[run_end] + 1, cut)
    return last, first


def _fold_hull(parts, label) -> FoldSelection:
    """Union hull of the classifiers' candidates on S_k (same rows for all)."""
    n_pos, n_neg, n_pos_held, n_neg_held = parts[0][5:]
    fp, tp, theta, held_fp, held_tp = (np.concatenate(p) for p in list(zip(*parts))[:5])
    owner = np.concatenate([np.full(p[0].size, c) for c, p in enumerate(parts)])
    v = union_hull(fp, tp, owner, n_pos, n_neg)
    return FoldSelection(
        fold=label,
        fp=fp[v],
        tp=tp[v],
        fpr=fp[v] / n_neg,
        tpr=tp[v] / n_pos,
        owner=owner[v],
        threshold=theta[v],
        held_fp=held_fp[v],
        held_tp=held_tp[v],
        n_pos_selection=n_pos,
        n_neg_selection=n_neg,
        n_pos_held=n_pos_held,
        n_neg_held=n_neg_held,
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


def _in_sample_area(rocs, n_pos, n_neg) -> float:
    """Area of the pooled in-sample lower envelope over all the classifiers."""
    keeps = [roc_hull_indices(roc) for roc in rocs]
    fp = np.concatenate([roc.fp[k] for roc, k in zip(rocs, keeps)])
    tp = np.concatenate([roc.tp[k] for roc, k in zip(rocs, keeps)])
    owner = np.concatenate([np.full(k.size, c) for c, k in enumerate(keeps)])
    v = union_hull(fp, tp, owner, n_pos, n_neg)
    return envelope_from_hull(fp[v] / n_neg, tp[v] / n_pos).area
