"""Threshold choice methods: the curves and exact areas of Hernández-Orallo, Flach & Ferri 2013.

J. Hernández-Orallo, P. Flach, C. Ferri (2013), *ROC curves in cost space*, Machine Learning
93:71-91 (HFF), read through ``../shared/specs/threshold_choice.md`` (the scraped paper lost its
display equations; the spec rebuilds them and fixes the conventions used here).

Conventions
-----------
The paper's class 0 is our positive; its scores run the other way (we predict positive iff
``score >= threshold``, ties at the threshold positive in both). ``F0 = TPR``, ``F1 = FPR``. Every
curve lives on one of two **axes**, each with class weights ``(w0, w1)``:

* ``"pc"``: D&H's cost space, x = PC(+) (= HFF's skew z), y = NEC. ``w0 = w1 = 1/2``.
* ``"cost_proportion"``: HFF's own space, x = the cost proportion ``c = C(FN) / (C(FN) + C(FP))`` at
  the data's class mix, y = the loss ``Q`` of HFF Eq. 1 with ``b = C(FN) + C(FP) = 2``.
  ``w0 = pi0 = n_pos / n``, ``w1 = pi1``. ``c`` equals PC(+) only when the classes are balanced.

On either axis the loss of a split (a deterministic threshold) with rates (F1, F0) at x is the cost
line (HFF Eq. 1, spec section 1.2)

    L(x) = 2 [x w0 (1 - F0) + (1 - x) w1 F1],

which is NEC itself when w0 = 1/2 (b = 2 makes it exact). Its "rate" is ``r = w0 F0 + w1 F1``: the
fraction predicted positive on the cost-proportion axis, ``(TPR + FPR) / 2`` on the PC(+) axis.

The seven methods (HFF section 3, Defs. 1-4, Lemma 1, Thms 1-2; spec sections 3-7)
-----------------------------------------------------------------------------------
* ``optimal`` (HFF Eq. 6): the threshold minimising the loss at each x: the lower envelope of the
  cost lines, read off the ROC convex hull (D&H 2006 section 3.1). Envelope vertex between hull
  vertices k, k+1: ``x = w1 dF1 / (w1 dF1 + w0 dF0)``. Piecewise linear.
* ``score_driven`` (the Brier curve, HFF section 3): threshold ``T(x) = x`` on scores read as
  P(negative); with our P(positive) scores, predict positive iff ``score >= 1 - x``. A step function
  of cost lines; area = the Brier score (cost-proportion axis) or the class-balanced Brier score
  ``(mean_pos (1 - s)^2 + mean_neg s^2) / 2`` (PC(+) axis, the project's convention, spec E13).
  Only when every score lies in [0, 1]; otherwise the method is reported as not applicable.
* ``rate_driven`` (Def. 1-2, Eq. 9-10): the threshold whose rate is x; between the rates of two
  consecutive splits, a biased coin mixes them (Example 1), i.e. linear interpolation along the ROC
  segment (a tie block's diagonal). ``RD(x) = 2 x (w0 - x) + 2 w1 F1(R^-1(x))``: parabolic pieces of
  second derivative -4 with knots at the split rates. Area ``w0 w1 (1 - 2 AUC) + 1/3``
  (Thm 1, Cor. 1).
* ``perfect_ranker`` (Lemma 1): ``2 x (w0 - x)`` for x <= w0, ``2 (1 - x)(x - w0)`` after; area
  ``1/3 - w0 w1``. The same for every model on the same data.
* ``kendall`` (Def. 3, Thm 2): ``2 w1 F1(R^-1(x))`` for x <= w0, ``2 w0 (1 - F0(R^-1(x)))`` after;
  ``RD = perfect + kendall`` pointwise; area ``2 w0 w1 (1 - AUC)``. Piecewise linear, knots at the
  split rates and at w0.
* ``skull`` and ``kendall_skull`` (Def. 4): the rate-driven and Kendall curves of the ROC convex
  hull (hull vertices are the only splits; a hull edge is walked by the coin). Areas as above with
  the hull's AUC. Not the lower hull of each half of the Kendall curve (spec E2).

Partial areas (HFF section 8) are ``int_low^high curve(x) dx``, not divided by the width, on the
axis's own x. The partial AOC (ROC-space area above the ROC curve and below TPR = 1 between the rate
isometrics low and high, Thm 3) is ``int_low^high kendall / (2 w0 w1)``; reported with the Kendall
and Kendall-skull partial areas.

Degenerate inputs: one class has no ROC curve and raises ``ValueError`` (the loaders already reject
such data). Constant scores (all ties) are one tie block: the ROC is the diagonal, so the
rate-driven and skull curves are ``2 x (1 - x)`` (area 1/3, spec E12), Kendall areas are ``w0 w1``,
and the optimal curve is the trivial classifiers' ``min(2 w0 x, 2 w1 (1 - x))``. Crisp classifiers
have one threshold: :func:`crisp_threshold_choice` gives their single cost line and no curves.

Bootstrap replicates of every area are computed, vectorised, by
:mod:`ccreport.analysis.threshold_replicates`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .piecewise import DRAW_TOLERANCE, Piecewise, dot, linear, parabolic
from .roc import RocCurve, crisp_roc, roc_hull, roc_points

AXES = ("pc", "cost_proportion")
METHODS = (
    "optimal",
    "score_driven",
    "rate_driven",
    "perfect_ranker",
    "kendall",
    "skull",
    "kendall_skull",
)
KENDALL_METHODS = ("kendall", "kendall_skull")  # their partial areas also give a partial AOC
NOT_PROBABILITIES = "not applicable: the Brier curve needs scores that are probabilities in [0, 1]"
CRISP_NOTE = (
    "crisp classifier: one threshold, so every threshold choice method deploys the same classifier "
    "and its cost line is the only curve; rate-driven, Kendall and skull curves need a ranking"
)


# --- axes and cost lines --------------------------------------------------------------------------


def class_weights(axis: str, n_pos: int, n_neg: int) -> tuple[float, float]:
    """``(w0, w1)`` of an axis: ``(1/2, 1/2)`` for PC(+), ``(pi0, pi1)`` for the cost proportion."""
    if axis == "pc":
        return 0.5, 0.5
    if axis == "cost_proportion":
        return n_pos / (n_pos + n_neg), n_neg / (n_pos + n_neg)
    raise ValueError(f"unknown threshold axis {axis!r}: expected one of {', '.join(AXES)}")


def split_loss(x, fpr, tpr, w0: float):
    """The cost line of a split at x (HFF Eq. 1 with b = 2; NEC when w0 = 1/2)."""
    x = np.asarray(x, dtype=float)
    return 2.0 * (x * w0 * (1.0 - tpr) + (1.0 - x) * (1.0 - w0) * fpr)


def pc_from_cost_proportion(c, pi0: float):
    """PC(+) (HFF's skew z, Eq. 2) of cost proportion c at positive share pi0."""
    c = np.asarray(c, dtype=float)
    return c * pi0 / (c * pi0 + (1.0 - c) * (1.0 - pi0))


def cost_proportion_from_pc(pc, pi0: float):
    """The inverse of :func:`pc_from_cost_proportion` (spec section 1.2)."""
    pc = np.asarray(pc, dtype=float)
    return pc * (1.0 - pi0) / (pc * (1.0 - pi0) + (1.0 - pc) * pi0)


# --- the curves -----------------------------------------------------------------------------------


def rates(fpr, tpr, w0: float) -> np.ndarray:
    """Rate ``w0 F0 + w1 F1`` of each split (HFF's R; R_z on the PC(+) axis)."""
    return w0 * np.asarray(tpr, dtype=float) + (1.0 - w0) * np.asarray(fpr, dtype=float)


def rate_driven_curve(fpr, tpr, w0: float) -> Piecewise:
    """Rate-driven curve of splits from (0, 0) to (1, 1) with strictly increasing rates
    (Def. 2, Eq. 9).

    Knots at the split rates, where the curve is the split's own cost line; between them the coin
    mixes the two splits (Def. 1), so ``RD = 2 x (w0 - x) + 2 w1 F1`` with F1 linear: second
    derivative -4 on every piece.
    """
    r = rates(fpr, tpr, w0)
    y = w0 - r  # Eq. 9: RD(r) = 2 [r (w0 - r) + w1 F1], in place
    y *= r
    y += (1.0 - w0) * np.asarray(fpr, dtype=float)
    y *= 2.0
    return parabolic(r, y, -4.0)


def kendall_curve(fpr, tpr, w0: float) -> Piecewise:
    """Kendall curve (Def. 3): ``2 w1 F1`` left of ``x = w0``, ``2 w0 (1 - F0)`` right of it.

    Piecewise linear between the split rates, with the switch point w0 added as a knot (both
    expressions agree there because ``x = w0 F0 + w1 F1``).
    """
    fpr = np.asarray(fpr, dtype=float)
    tpr = np.asarray(tpr, dtype=float)
    r = rates(fpr, tpr, w0)
    at = int(np.searchsorted(r, w0, side="right"))  # r[:at] <= w0 < r[at:]
    left = 2.0 * (1.0 - w0) * fpr[:at]
    right = 1.0 - tpr[at:]
    right *= 2.0 * w0
    if r[at - 1] == w0:
        return linear(r, np.concatenate((left, right)))
    switch = 2.0 * (1.0 - w0) * np.interp(w0, r[at - 1 : at + 1], fpr[at - 1 : at + 1])
    return linear(np.concatenate((r[:at], [w0], r[at:])), np.concatenate((left, [switch], right)))


def perfect_ranker_curve(w0: float) -> Piecewise:
    """Lemma 1: ``2 x (w0 - x)`` then ``2 (1 - x)(x - w0)``: zero at 0, w0 and 1, curvature -4."""
    knots = np.array([0.0, w0, 1.0]) if 0.0 < w0 < 1.0 else np.array([0.0, 1.0])
    return parabolic(knots, np.zeros(knots.size), -4.0)


def optimal_curve(hull_fpr, hull_tpr, w0: float) -> Piecewise:
    """Lower envelope of the cost lines (HFF Eq. 6) from the ROC convex hull vertices.

    Vertex between hull vertices k and k+1 where their lines cross,
    ``x = w1 dF1 / (w1 dF1 + w0 dF0)`` (D&H 2006 Eq. 3 when w0 = 1/2), at the height of either line;
    ends (0, 0) and (1, 0).
    """
    f = np.asarray(hull_fpr, dtype=float)
    t = np.asarray(hull_tpr, dtype=float)
    w1 = 1.0 - w0
    d_f, d_t = np.diff(f), np.diff(t)
    x = w1 * d_f / (w1 * d_f + w0 * d_t)
    y = split_loss(x, f[:-1], t[:-1], w0)
    inner = (x > 0.0) & (x < 1.0)
    return linear(
        np.concatenate(([0.0], x[inner], [1.0])), np.concatenate(([0.0], y[inner], [0.0]))
    )


def scores_are_probabilities(roc: RocCurve) -> bool:
    """Whether every (distinct) score lies in [0, 1], so that the Brier curve applies."""
    s = roc.thresholds[1:]
    return bool(s.size == 0 or (s[-1] >= 0.0 and s[0] <= 1.0))


def score_driven_curve(scores, fpr, tpr, w0: float) -> Piecewise:
    """Brier curve (HFF section 3, spec E13): predict positive iff ``score >= 1 - x``.

    ``scores``: the distinct scores s_0 > ... > s_{m-1} (``roc.thresholds[1:]``), all in [0, 1];
    ``fpr``/``tpr``: the m + 1 splits (``roc.fpr``, ``roc.tpr``). Score s_g switches the deployed
    split at ``x = 1 - s_g``: split g+1 (the first g+1 score groups positive) holds on
    ``[1 - s_g, 1 - s_{g+1})``. Each piece is that split's cost line; the curve jumps between pieces
    (right-continuous).
    """
    scores = np.asarray(scores, dtype=float)
    if scores.size and (scores.min() < 0.0 or scores.max() > 1.0):
        raise ValueError(NOT_PROBABILITIES)
    knots = np.concatenate(([0.0], 1.0 - scores, [1.0]))
    at_0 = 2.0 * (1.0 - w0) * np.asarray(fpr, dtype=float)  # each split's line: at_0 + rise * x
    rise = 1.0 - np.asarray(tpr, dtype=float)
    rise *= 2.0 * w0
    rise -= at_0
    start = rise * knots[:-1]
    start += at_0
    end = rise * knots[1:]
    end += at_0
    return Piecewise(x=knots, start=start, end=end, kappa=np.array(0.0))


def roc_area(fpr, tpr) -> float:
    """Area under ROC points by trapezoids: AUCH for hull vertices (spec section 7), AUC for the
    ROC points (a tied positive/negative pair counts one half, as ``roc.auc``)."""
    f = np.asarray(fpr, dtype=float)
    t = np.asarray(tpr, dtype=float)
    d = np.diff(f)
    return float((dot(d, t[1:]) + dot(d, t[:-1])) / 2.0)


# --- results --------------------------------------------------------------------------------------


def check_ranges(partial_ranges) -> tuple[tuple[float, float], ...]:
    """Partial-area ranges as ``((low, high), ...)`` with ``0 <= low < high <= 1``."""
    checked = []
    for item in partial_ranges:
        low, high = (float(v) for v in item)
        if not 0.0 <= low < high <= 1.0:
            raise ValueError(f"partial range [{low}, {high}] must satisfy 0 <= low < high <= 1")
        checked.append((low, high))
    return tuple(checked)


def check_axes(axes) -> tuple[str, ...]:
    axes = tuple(axes)
    for axis in axes:
        if axis not in AXES:
            raise ValueError(f"unknown threshold axis {axis!r}: expected one of {', '.join(AXES)}")
    return axes


@dataclass(frozen=True)
class PartialArea:
    """``area = int_low^high curve``; ``aoc`` the partial AOC (Kendall curves only, else None)."""

    low: float
    high: float
    area: float | None
    aoc: float | None = None

    def to_dict(self) -> dict:
        out = {"low": self.low, "high": self.high, "area": self.area}
        if self.aoc is not None:
            out["aoc"] = self.aoc
        return out


@dataclass(frozen=True, eq=False)
class MethodCurve:
    """One method's curve on one axis, its exact area and partial areas.

    ``curve`` is None (and ``area`` None) when the method does not apply; ``not_applicable`` says
    why.
    """

    method: str
    axis: str
    curve: Piecewise | None
    area: float | None
    partial: tuple[PartialArea, ...]
    not_applicable: str | None = None

    def to_dict(self, tolerance: float = DRAW_TOLERANCE) -> dict:
        """``{area, partial: [{low, high, area[, aoc]}], curve: [[x, y], ...]}`` (+
        ``not_applicable``)."""
        out = {"area": self.area, "partial": [p.to_dict() for p in self.partial]}
        if self.curve is None:
            out["curve"] = None
            out["not_applicable"] = self.not_applicable
        else:
            x, y = self.curve.polyline(tolerance)
            out["curve"] = np.column_stack((x, y)).tolist()
        return out


def method_curve(method: str, axis: str, curve: Piecewise, ranges, w0: float) -> MethodCurve:
    partial = []
    for low, high in ranges:
        area = curve.integral(low, high)
        aoc = area / (2.0 * w0 * (1.0 - w0)) if method in KENDALL_METHODS else None
        partial.append(PartialArea(low, high, area, aoc))
    return MethodCurve(method, axis, curve, curve.area, tuple(partial))


@dataclass(frozen=True, eq=False)
class ThresholdChoice:
    """All threshold-choice curves of one scoring classifier: ``methods[axis][method]``.

    ``w0[axis]`` is the axis's positive class weight (1/2, or pi0 on the cost-proportion axis).
    """

    methods: dict
    w0: dict
    auc: float
    auc_hull: float
    n_pos: int
    n_neg: int
    ranges: tuple

    def __getitem__(self, key: tuple[str, str]) -> MethodCurve:
        axis, method = key
        return self.methods[axis][method]

    def to_dict(self, tolerance: float = DRAW_TOLERANCE) -> dict:
        """The keys this adds to ``results.json``'s ``datasets.<d>.classifiers.<c>``:
        ``{"threshold_choice": {axis: {method: {...}}}, "auc_hull": AUCH}`` (``interval`` entries
        are the uncertainty wiring's)."""
        return {
            "threshold_choice": {
                axis: {m: c.to_dict(tolerance) for m, c in by_method.items()}
                for axis, by_method in self.methods.items()
            },
            "auc_hull": self.auc_hull,
        }


def threshold_choice(labels, scores, *, axes=AXES, partial_ranges=()) -> ThresholdChoice:
    """Every threshold choice method's curve, area and partial areas for one scoring classifier.

    ``labels``: bool (True = positive); ``scores``: finite floats, higher = more positive. Sorts
    once (:func:`~ccreport.analysis.roc.roc_points`); pass an existing ROC to
    :func:`threshold_choice_from_roc` to share that sort.
    """
    return threshold_choice_from_roc(
        roc_points(labels, scores), axes=axes, partial_ranges=partial_ranges
    )


def threshold_choice_from_roc(
    roc: RocCurve, *, axes=AXES, partial_ranges=(), hull=None
) -> ThresholdChoice:
    """:func:`threshold_choice` from a :class:`RocCurve` (and optionally its ``roc_hull``), no
    sort."""
    axes = check_axes(axes)
    ranges = check_ranges(partial_ranges)
    hull_fpr, hull_tpr = roc_hull(roc) if hull is None else hull
    fpr, tpr = roc.fpr, roc.tpr
    probabilities = scores_are_probabilities(roc)
    methods, weights = {}, {}
    for axis in axes:
        w0, _ = class_weights(axis, roc.n_pos, roc.n_neg)
        curves = {
            "optimal": optimal_curve(hull_fpr, hull_tpr, w0),
            "score_driven": score_driven_curve(roc.thresholds[1:], fpr, tpr, w0)
            if probabilities
            else None,
            "rate_driven": rate_driven_curve(fpr, tpr, w0),
            "perfect_ranker": perfect_ranker_curve(w0),
            "kendall": kendall_curve(fpr, tpr, w0),
            "skull": rate_driven_curve(hull_fpr, hull_tpr, w0),
            "kendall_skull": kendall_curve(hull_fpr, hull_tpr, w0),
        }
        by_method = {}
        for method in METHODS:
            curve = curves[method]
            if curve is None:
                partial = tuple(PartialArea(low, high, None) for low, high in ranges)
                by_method[method] = MethodCurve(
                    method, axis, None, None, partial, NOT_PROBABILITIES
                )
            else:
                by_method[method] = method_curve(method, axis, curve, ranges, w0)
        methods[axis], weights[axis] = by_method, w0
    return ThresholdChoice(
        methods=methods,
        w0=weights,
        auc=roc_area(fpr, tpr),
        auc_hull=roc_area(hull_fpr, hull_tpr),
        n_pos=roc.n_pos,
        n_neg=roc.n_neg,
        ranges=ranges,
    )


# --- crisp classifiers ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CrispThresholdChoice:
    """A crisp classifier's single cost line on each axis (HFF's score-fixed method, section 3).

    ``lines[axis]`` is a :class:`MethodCurve` named ``score_fixed``; its area is the error rate of
    the split on the cost-proportion axis and ``(FNR + FPR) / 2`` on the PC(+) axis.
    """

    lines: dict
    auc_hull: float
    note: str = CRISP_NOTE

    def to_dict(self, tolerance: float = DRAW_TOLERANCE) -> dict:
        body = {axis: {"score_fixed": line.to_dict(tolerance)} for axis, line in self.lines.items()}
        body["note"] = self.note
        return {"threshold_choice": body, "auc_hull": self.auc_hull}


def crisp_threshold_choice(
    labels, predictions, *, axes=AXES, partial_ranges=()
) -> CrispThresholdChoice:
    """The cost line of a crisp classifier on each axis, with its area and partial areas."""
    axes = check_axes(axes)
    ranges = check_ranges(partial_ranges)
    roc = crisp_roc(labels, predictions)
    f, t = roc.fpr[1], roc.tpr[1]
    lines = {}
    for axis in axes:
        w0, _ = class_weights(axis, roc.n_pos, roc.n_neg)
        line = linear([0.0, 1.0], split_loss(np.array([0.0, 1.0]), f, t, w0))
        lines[axis] = method_curve("score_fixed", axis, line, ranges, w0)
    return CrispThresholdChoice(lines=lines, auc_hull=roc_area(*roc_hull(roc)))
