"""Every threshold-choice area and partial area for many bootstrap replicates at once.

The areas of :mod:`ccreport.analysis.threshold_choice` for R replicates of one scoring classifier,
from their ROC counts, in O(R x m) numpy work (m distinct scores of the original sample) with no
Python loop over replicates, so bootstrap intervals and paired differences of areas (the same
resampled instances for two classifiers: subtract their arrays) are cheap.

Input: the cumulative counts of each replicate at the sample's split points, ``tp``/``fp`` of shape
(R, m + 1) with ``tp[:, 0] = fp[:, 0] = 0`` and the class totals in the last column; a resampled
instance with count k counts k times. From the stratified engine of
:mod:`ccreport.analysis.bootstrap` that is ``tp = cp[:, layout.pos_at]``,
``fp = cn[:, layout.neg_at]`` for its cumulative class counts ``cp``/``cn``. A score group that a
replicate did not draw is a zero-width step; nothing else changes. Rows must have both classes.

Closed forms used (Hernández-Orallo, Flach & Ferri 2013 (HFF) through
``../shared/specs/threshold_choice.md``), with axis weights (w0, w1) per row:

* whole areas: rate-driven ``w0 w1 (1 - 2 AUC) + 1/3`` (Thm 1, Cor. 1), Kendall
  ``2 w0 w1 (1 - AUC)`` (Thm 2), perfect ranker ``1/3 - w0 w1`` (Lemma 1), skull / Kendall skull the
  same with the hull's AUC (Def. 4), optimal: trapezoids of the lower envelope read off each
  replicate's ROC hull;
* partial areas over [a, b]: with ``G(x) = int_0^x F1(R^-1(u)) du`` (F1 is piecewise linear in the
  rate, so G is exact from trapezoids plus one quadratic piece) and the identities
  ``RD = 2x(w0 - x) + 2 w1 F1``, ``kendall = 2 w1 F1 - 2 (x - w0)+``,
  ``perfect = 2x(w0 - x) + 2 (x - w0)+``:

      RD      : [w0 x^2 - 2x^3/3]_a^b + 2 w1 (G(b) - G(a))
      kendall : 2 w1 (G(b) - G(a)) - [(x - w0)+^2]_a^b          partial AOC = kendall / (2 w0 w1)
      perfect : [w0 x^2 - 2x^3/3]_a^b + [(x - w0)+^2]_a^b

* the Brier curve, per score group g with score s_g, ``u = clip(1 - s_g, a, b)``: a positive adds
  ``(w0 / n0)(u^2 - a^2)`` and a negative ``(w1 / n1)((1 - u)^2 - (1 - b)^2)`` (whole area: the
  (class-balanced) Brier score), one matrix product per range.

Each replicate's ROC convex hull is one pool-adjacent-violators fit for all replicates together
(``scipy.optimize.isotonic_regression``, :func:`ccreport.analysis.roc.decreasing_block_starts`; each
replicate's sheared step slopes, as in :mod:`ccreport.analysis.roc`, offset so that no block pools
across replicates).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .roc import decreasing_block_starts
from .threshold_choice import AXES, KENDALL_METHODS, check_axes, check_ranges


@dataclass(frozen=True, eq=False)
class ReplicateHulls:
    """ROC convex hull vertices of many replicates, flat: row ``row[k]``, split point ``point[k]``.

    Replicate r's vertices are ``indptr[r]:indptr[r + 1]``, from split 0 to split m.
    """

    row: np.ndarray
    point: np.ndarray
    indptr: np.ndarray


def replicate_hulls(tp, fp) -> ReplicateHulls:
    """Hull vertices of every row's ROC path (counts), by one isotonic regression.

    Each row's path is sheared, ``(fp, tp) -> (fp + tp, tp)``, so every non-empty step has positive
    width ``w``; the hull is the least concave majorant of the steps' slopes ``dtp / w`` (decreasing
    isotonic regression with weights w), whose blocks start at hull vertices. Row r's slopes (in
    [0, 1]) are raised by ``2 (R - 1 - r)``, so consecutive rows are strictly decreasing across
    their boundary and never pooled. Zero-width steps (score groups a replicate did not draw) are
    skipped.
    """
    tp = np.asarray(tp)
    fp = np.asarray(fp)
    reps, points = tp.shape
    dy = np.diff(tp, axis=1)
    w = dy + np.diff(fp, axis=1)
    rows, steps = np.nonzero(w > 0)
    dy, w = dy[rows, steps].astype(float), w[rows, steps].astype(float)
    starts = decreasing_block_starts(dy / w + 2.0 * (reps - 1 - rows), w)
    row, point = rows[starts], steps[starts]
    ends = np.cumsum(np.bincount(row, minlength=reps))
    row = np.insert(row, ends, np.arange(reps))
    point = np.insert(point, ends, points - 1)
    indptr = np.concatenate(([0], np.cumsum(np.bincount(row, minlength=reps))))
    return ReplicateHulls(row=row, point=point, indptr=indptr)


def ragged_integral(x, y, indptr, at) -> np.ndarray:
    """``int_{x[indptr[r]]}^{at[r, j]} y`` of each row's piecewise-linear curve, exactly.

    ``x``/``y`` flat, row r's vertices ``indptr[r]:indptr[r + 1]`` (at least two, x non-decreasing
    in [0, 1]); ``at`` (R,) or (R, K) points in the row's domain. Zero-width pieces are allowed.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    indptr = np.asarray(indptr)
    reps = indptr.size - 1
    at = np.asarray(at, dtype=float)
    shape = at.shape
    at = at.reshape(reps, -1)
    row_of = np.repeat(np.arange(reps), np.diff(indptr))
    seg = np.diff(x) * (y[1:] + y[:-1]) / 2.0
    seg[indptr[1:-1] - 1] = 0.0  # the join between two rows is not a piece
    cum = np.concatenate(([0.0], np.cumsum(seg)))
    key = x + 2.0 * row_of  # rows in disjoint, increasing blocks of [0, 2R)
    r = np.arange(reps)[:, None]
    k = np.searchsorted(key, at + 2.0 * r, side="right") - 1
    k = np.clip(k, indptr[:-1, None], indptr[1:, None] - 2)
    t = at - x[k]
    h = x[k + 1] - x[k]
    slope = np.divide(y[k + 1] - y[k], h, out=np.zeros_like(t), where=h > 0)
    out = cum[k] - cum[indptr[:-1, None]] + y[k] * t + slope * t**2 / 2.0
    return out.reshape(shape)


def parabola_antiderivative(x, w0) -> np.ndarray:
    """``int_0^x 2u (w0 - u) du = w0 x^2 - 2x^3/3`` per row (``x`` (R, J), ``w0`` (R,))."""
    return w0[:, None] * x**2 - 2.0 * x**3 / 3.0


def hinge_antiderivative(x, w0) -> np.ndarray:
    """``int_0^x 2 (u - w0)+ du = ((x - w0)+)^2`` per row."""
    return np.maximum(x - w0[:, None], 0.0) ** 2


@dataclass(frozen=True, eq=False)
class ReplicateAreas:
    """Areas of R replicates: ``area[axis][method]`` (R,), ``partial[axis][method]`` (R, K) for the
    K ``ranges``, ``partial_aoc[axis][method]`` (R, K) for the Kendall methods; None where the
    method does not apply (the Brier curve without probability scores). ``auc``/``auc_hull``
    (R,)."""

    area: dict
    partial: dict
    partial_aoc: dict
    auc: np.ndarray
    auc_hull: np.ndarray
    ranges: tuple


def replicate_areas(tp, fp, *, scores=None, axes=AXES, partial_ranges=()) -> ReplicateAreas:
    """Every method's area and partial areas for each row of ROC counts (see the module docstring).

    ``scores``: the sample's distinct scores in decreasing order (``roc.thresholds[1:]``), one per
    column step; needed for the Brier curve, which is None when they are missing or leave [0, 1].
    """
    axes = check_axes(axes)
    ranges = check_ranges(partial_ranges)
    tp = np.asarray(tp, dtype=float)
    fp = np.asarray(fp, dtype=float)
    if tp.ndim != 2 or tp.shape != fp.shape:
        raise ValueError("tp and fp must be (replicates, splits) arrays of the same shape")
    n0, n1 = tp[:, -1], fp[:, -1]
    if np.any(n0 <= 0) or np.any(n1 <= 0):
        raise ValueError("every replicate needs both classes")
    reps, points = tp.shape
    f0, f1 = tp / n0[:, None], fp / n1[:, None]
    auc = np.sum(np.diff(f1, axis=1) * (f0[:, 1:] + f0[:, :-1]), axis=1) / 2.0

    hulls = replicate_hulls(tp, fp)
    hf0, hf1 = f0[hulls.row, hulls.point], f1[hulls.row, hulls.point]
    inner = np.diff(hulls.row) == 0  # consecutive vertices of the same row: a hull edge
    edge_row = hulls.row[:-1][inner]
    auc_hull = (
        np.bincount(edge_row, np.diff(hf1)[inner] * (hf0[1:] + hf0[:-1])[inner], minlength=reps)
        / 2.0
    )

    roc_indptr = np.arange(reps + 1) * points
    lo = np.array([a for a, _ in ranges]) if ranges else np.zeros(0)
    hi = np.array([b for _, b in ranges]) if ranges else np.zeros(0)
    ends = np.concatenate((lo, hi))[None, :].repeat(
        reps, axis=0
    )  # (R, 2K): all lows then all highs

    def span(values):  # (R, 2K) antiderivative values -> (R, K) differences high - low
        return values[:, len(ranges) :] - values[:, : len(ranges)]

    group_scores = None if scores is None else np.asarray(scores, dtype=float)
    probabilities = group_scores is not None and bool(
        np.all((group_scores >= 0.0) & (group_scores <= 1.0))
    )
    if group_scores is not None and group_scores.size != points - 1:
        raise ValueError(
            f"scores has {group_scores.size} values; the counts have {points - 1} score groups"
        )

    area, partial, partial_aoc = {}, {}, {}
    for axis in axes:
        w0 = np.full(reps, 0.5) if axis == "pc" else n0 / (n0 + n1)
        w1 = 1.0 - w0
        ww = w0 * w1
        a_, p_ = {}, {}
        a_["rate_driven"] = ww * (1.0 - 2.0 * auc) + 1.0 / 3.0
        a_["perfect_ranker"] = 1.0 / 3.0 - ww
        a_["kendall"] = 2.0 * ww * (1.0 - auc)
        a_["skull"] = ww * (1.0 - 2.0 * auc_hull) + 1.0 / 3.0
        a_["kendall_skull"] = 2.0 * ww * (1.0 - auc_hull)

        # optimal: envelope vertices (0, 0), one per hull edge, (1, 0) for each row
        w0e, w1e = w0[edge_row], w1[edge_row]
        d1, d0 = np.diff(hf1)[inner], np.diff(hf0)[inner]
        ex = w1e * d1 / (w1e * d1 + w0e * d0)
        ey = 2.0 * (ex * w0e * (1.0 - hf0[:-1][inner]) + (1.0 - ex) * w1e * hf1[:-1][inner])
        env_x = np.empty(hulls.row.size + reps)
        env_y = np.empty_like(env_x)
        first = hulls.indptr[:-1] + np.arange(reps)
        last = hulls.indptr[1:] + np.arange(reps)
        edge_pos = np.flatnonzero(inner) + hulls.row[:-1][inner] + 1
        env_x[first], env_y[first] = 0.0, 0.0
        env_x[last], env_y[last] = 1.0, 0.0
        env_x[edge_pos], env_y[edge_pos] = ex, ey
        env_indptr = np.concatenate(([0], last + 1))
        a_["optimal"] = ragged_integral(env_x, env_y, env_indptr, np.ones(reps))

        if ranges:
            quad = parabola_antiderivative(ends, w0)
            hinge = hinge_antiderivative(ends, w0)
            g = ragged_integral(
                (w0[:, None] * f0 + w1[:, None] * f1).ravel(), f1.ravel(), roc_indptr, ends
            )
            hull_rate = w0[hulls.row] * hf0 + w1[hulls.row] * hf1
            gh = ragged_integral(hull_rate, hf1, hulls.indptr, ends)
            twice = 2.0 * w1[:, None]
            p_["rate_driven"] = span(quad + twice * g)
            p_["perfect_ranker"] = span(quad + hinge)
            p_["kendall"] = span(twice * g - hinge)
            p_["skull"] = span(quad + twice * gh)
            p_["kendall_skull"] = span(twice * gh - hinge)
            p_["optimal"] = span(ragged_integral(env_x, env_y, env_indptr, ends))
        else:
            for method in (
                "rate_driven",
                "perfect_ranker",
                "kendall",
                "skull",
                "kendall_skull",
                "optimal",
            ):
                p_[method] = np.zeros((reps, 0))

        if probabilities:
            d_tp, d_fp = np.diff(tp, axis=1), np.diff(fp, axis=1)
            pos_w, neg_w = w0 / n0, w1 / n1
            s = group_scores
            a_["score_driven"] = pos_w * (d_tp @ (1.0 - s) ** 2) + neg_w * (d_fp @ s**2)
            u = np.clip((1.0 - s)[:, None], lo[None, :], hi[None, :])  # (m, K)
            p_["score_driven"] = pos_w[:, None] * (d_tp @ (u**2 - lo**2)) + neg_w[:, None] * (
                d_fp @ ((1.0 - u) ** 2 - (1.0 - hi) ** 2)
            )
        else:
            a_["score_driven"] = p_["score_driven"] = None

        area[axis], partial[axis] = a_, p_
        partial_aoc[axis] = {m: p_[m] / (2.0 * ww[:, None]) for m in KENDALL_METHODS}
    return ReplicateAreas(
        area=area,
        partial=partial,
        partial_aoc=partial_aoc,
        auc=auc,
        auc_hull=auc_hull,
        ranges=ranges,
    )


def crisp_line_areas(tp, fp, n_pos: int, n_neg: int, *, axes=AXES, partial_ranges=()):
    """Areas and partial areas of the cost lines of a crisp classifier's replicates (HFF section 3,
    score-fixed).

    ``tp``/``fp`` (R,): each replicate's true and false positives (class totals fixed). The line
    ``L(x) = 2 [x w0 (1 - F0) + (1 - x) w1 F1]`` integrates over [a, b] to
    ``w0 (1 - F0)(b^2 - a^2) + w1 F1 ((1 - a)^2 - (1 - b)^2)``: over [0, 1] ``w0 (1 - F0) + w1 F1``.
    Returns ``(area, partial)``: dicts axis -> (R,) and axis -> (R, K).
    """
    axes = check_axes(axes)
    ranges = check_ranges(partial_ranges)
    fnr = 1.0 - np.asarray(tp, dtype=float) / n_pos
    fpr = np.asarray(fp, dtype=float) / n_neg
    lo = np.array([a for a, _ in ranges], dtype=float)
    hi = np.array([b for _, b in ranges], dtype=float)
    area, partial = {}, {}
    for axis in axes:
        w0 = 0.5 if axis == "pc" else n_pos / (n_pos + n_neg)
        area[axis] = w0 * fnr + (1.0 - w0) * fpr
        partial[axis] = w0 * np.outer(fnr, hi**2 - lo**2) + (1.0 - w0) * np.outer(
            fpr, (1.0 - lo) ** 2 - (1.0 - hi) ** 2
        )
    return area, partial
