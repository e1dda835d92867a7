"""Cost lines, the lower envelope, operating ranges and pairwise comparisons in cost space.

Drummond & Holte 2006, *Cost curves*:

* section 3 / Eq. 2: each ROC point (fpr, tpr) is the cost line ``nec = (fnr - fpr) pc + fpr``;
* section 3.1: the lower envelope of a set of cost lines is the dual of the ROC convex hull: each
  hull vertex is one envelope segment, and each hull edge of slope S is the envelope vertex at
  ``pc = 1 / (1 + S) = dF / (dF + dT)`` (Eq. 3). We compute the envelope through the hull, so it
  costs O(n) after the ROC sort instead of intersecting all pairs of lines. The trivial
  classifiers (hull ends (0, 0) and (1, 1)) are always included, so every envelope runs from
  (0, 0) to (1, 0) and lies under min(pc, 1 - pc);
* section 4.2: the operating range is where the envelope is strictly below both trivial lines;
* sections 4.3-4.4: where one curve is below another, crossovers and the largest difference.

Curves are represented by their vertices (``pc`` strictly increasing, ``nec``); between vertices
they are linear, so evaluating, subtracting and integrating them is exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from .conditions import roc_point_to_cost_line
from .roc import RocCurve, convex_hull, hull_indices


@dataclass(frozen=True, eq=False)
class Envelope:
    """A piecewise-linear cost curve: vertices ``(pc, nec)`` and the ROC hull it is dual to.

    ``hull_thresholds`` (aligned with the hull vertices: +inf at (0, 0), the lowest score at
    (1, 1)) is set when the envelope was built from a :class:`RocCurve`, else None.
    """

    pc: np.ndarray
    nec: np.ndarray
    hull_fpr: np.ndarray
    hull_tpr: np.ndarray
    hull_thresholds: np.ndarray | None = None

    def __call__(self, pc):
        """Normalized expected cost at ``pc`` (linear between vertices)."""
        return np.interp(pc, self.pc, self.nec)

    @property
    def area(self) -> float:
        """Area under the curve: the expected cost under the uniform prior (D&H 2006,
        section 3.2)."""
        return curve_area(self.pc, self.nec)


def cost_lines(fpr, tpr) -> tuple[np.ndarray, np.ndarray]:
    """Cost lines of ROC points as ``(nec at pc=0, nec at pc=1) = (fpr, fnr)``
    (D&H 2006, Fig. 1)."""
    slope, intercept = roc_point_to_cost_line(fpr, tpr)
    return intercept, intercept + slope


def envelope_from_hull(hull_fpr, hull_tpr) -> Envelope:
    """Lower envelope from ROC convex hull vertices ordered from (0, 0) to (1, 1).

    Envelope vertex k+1 is where the cost lines of hull vertices k and k+1 meet, at
    ``pc = dF / (dF + dT)``; its height is the cost of either line there. Edges with dF = 0
    (a vertical hull start) meet at pc = 0 and are merged with the origin.
    """
    f = np.asarray(hull_fpr, dtype=float)
    t = np.asarray(hull_tpr, dtype=float)
    d_f, d_t = np.diff(f), np.diff(t)
    pc_inner = d_f / (d_f + d_t)
    nec_inner = (1.0 - t[:-1]) * pc_inner + f[:-1] * (1.0 - pc_inner)
    inner = (pc_inner > 0.0) & (pc_inner < 1.0)
    pc = np.concatenate(([0.0], pc_inner[inner], [1.0]))
    nec = np.concatenate(([0.0], nec_inner[inner], [0.0]))
    return Envelope(pc=pc, nec=nec, hull_fpr=f, hull_tpr=t)


def lower_envelope(fpr, tpr=None) -> Envelope:
    """Exact lower envelope of the cost lines of ROC points, trivial classifiers included.

    ``lower_envelope(roc)`` takes a :class:`RocCurve`; ``lower_envelope(fpr, tpr)`` takes any set
    of ROC points (for instance several crisp classifiers). O(n log n) through the convex hull.
    """
    if isinstance(fpr, RocCurve):
        keep = hull_indices(fpr)
        env = envelope_from_hull(fpr.fp[keep] / fpr.n_neg, fpr.tp[keep] / fpr.n_pos)
        return replace(env, hull_thresholds=fpr.thresholds[keep])
    if tpr is None:
        raise TypeError("lower_envelope takes a RocCurve or the arrays fpr and tpr")
    return envelope_from_hull(*convex_hull(fpr, tpr))


def operating_range(envelope: Envelope) -> tuple[float, float] | None:
    """The PC(+) interval where the classifier beats both trivial classifiers (D&H 2006,
    section 4.2).

    The envelope follows the always-negative line ``nec = pc`` up to the first non-trivial hull
    vertex and the always-positive line ``nec = 1 - pc`` after the last one, so the range is
    ``(f1 / (f1 + t1), (1 - fL) / ((1 - fL) + (1 - tL)))`` for the first and last non-trivial hull
    vertices. ``None`` when no point lies above the ROC diagonal (the classifier never helps).
    The bounds are open: at them the classifier only ties with a trivial one.
    """
    f, t = envelope.hull_fpr[1:-1], envelope.hull_tpr[1:-1]
    above = t > f
    if not np.any(above):
        return None
    f, t = f[above], t[above]
    lo = f[0] / (f[0] + t[0])
    hi = (1.0 - f[-1]) / ((1.0 - f[-1]) + (1.0 - t[-1]))
    return float(lo), float(hi)


def curve_area(pc, nec) -> float:
    """Exact area under a piecewise-linear curve given by its vertices (trapezoids)."""
    pc = np.asarray(pc, dtype=float)
    nec = np.asarray(nec, dtype=float)
    return float(np.sum(np.diff(pc) * (nec[1:] + nec[:-1])) / 2.0)


@dataclass(frozen=True)
class Comparison:
    """How curve A compares with curve B over PC(+) in [0, 1] (D&H 2006, sections 4.3-4.4).

    ``difference_pc``/``difference`` are the vertices of ``A - B`` (negative where A is cheaper).
    ``a_better``/``b_better``/``ties`` are closed intervals ``(lo, hi)``; ``crossovers`` are the
    PC(+) values where the better classifier changes (the midpoint of a tie stretch between them).
    ``max_difference`` is the largest |A - B|, with its signed value and where it occurs; the
    ``*_max_advantage`` fields give each side's largest lead (0 where it never leads).
    """

    difference_pc: np.ndarray = field(repr=False)
    difference: np.ndarray = field(repr=False)
    crossovers: tuple[float, ...]
    a_better: tuple[tuple[float, float], ...]
    b_better: tuple[tuple[float, float], ...]
    ties: tuple[tuple[float, float], ...]
    max_difference: tuple[float, float]  # (pc, a - b)
    a_max_advantage: tuple[float, float]  # (pc, b - a >= 0)
    b_max_advantage: tuple[float, float]  # (pc, a - b >= 0)


def difference_curve(a_pc, a_nec, b_pc, b_nec, atol: float = 1e-12):
    """Vertices of ``A - B`` with its zero crossings inserted, so its sign is constant per segment.

    Values within ``atol`` of zero count as ties (0).
    """
    grid = np.union1d(a_pc, b_pc)
    d = np.interp(grid, a_pc, a_nec) - np.interp(grid, b_pc, b_nec)
    d[np.abs(d) <= atol] = 0.0
    crossing = np.flatnonzero(d[:-1] * d[1:] < 0)
    if crossing.size:
        x0, x1, d0, d1 = grid[crossing], grid[crossing + 1], d[crossing], d[crossing + 1]
        roots = x0 + (x1 - x0) * d0 / (d0 - d1)
        grid = np.insert(grid, crossing + 1, roots)
        d = np.insert(d, crossing + 1, 0.0)
    return grid, d


def _runs(grid, sign, wanted):
    """Closed intervals of segments whose sign (of the segment's midpoint value) equals
    ``wanted``."""
    mask = sign == wanted
    if not np.any(mask):
        return ()
    edges = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
    starts, stops = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return tuple((float(grid[s]), float(grid[e])) for s, e in zip(starts, stops))


def compare(a: Envelope, b: Envelope, atol: float = 1e-12) -> Comparison:
    """Compare two cost curves over all operating conditions (D&H 2006, sections 4.3-4.4)."""
    grid, d = difference_curve(a.pc, a.nec, b.pc, b.nec, atol)
    seg_sign = np.sign(d[:-1] + d[1:])  # each segment has one sign after roots are inserted
    a_better = _runs(grid, seg_sign, -1.0)
    b_better = _runs(grid, seg_sign, 1.0)
    ties = _runs(grid, seg_sign, 0.0)
    crossovers = _crossovers(grid, seg_sign)
    k = int(np.argmax(np.abs(d)))
    ka, kb = int(np.argmin(d)), int(np.argmax(d))
    return Comparison(
        difference_pc=grid,
        difference=d,
        crossovers=crossovers,
        a_better=a_better,
        b_better=b_better,
        ties=ties,
        max_difference=(float(grid[k]), float(d[k])),
        a_max_advantage=(float(grid[ka]), float(max(-d[ka], 0.0))),
        b_max_advantage=(float(grid[kb]), float(max(d[kb], 0.0))),
    )


def _crossovers(grid, seg_sign) -> tuple[float, ...]:
    """PC(+) values where the sign of A - B changes between -1 and +1, skipping tie stretches."""
    signed = np.flatnonzero(seg_sign != 0)
    if signed.size < 2:
        return ()
    change = np.flatnonzero(seg_sign[signed[1:]] != seg_sign[signed[:-1]])
    left_end = grid[signed[change] + 1]  # end of the last segment before the change
    right_start = grid[signed[change + 1]]  # start of the first segment after it
    return tuple(float(x) for x in (left_end + right_start) / 2.0)
