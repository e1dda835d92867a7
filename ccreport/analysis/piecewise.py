"""Piecewise-quadratic curves held exactly: evaluation, areas, partial areas and drawing points.

Every threshold-choice curve of Hernández-Orallo, Flach & Ferri 2013 (*ROC curves in cost space*) is
piecewise linear (cost lines, the lower envelope, Kendall curves, the Brier curve) or piecewise
parabolic (rate-driven curves, the perfect ranker, the convex skull: Eq. 9-10 and Lemma 1, every
piece with second derivative -4). A :class:`Piecewise` stores the knots, each piece's value at both
ends and its constant second derivative ``kappa``; on piece k, with ``t = x - x_k``,
``h = x_{k+1} - x_k``:

    y(x) = start_k + (end_k - start_k) t / h + (kappa_k / 2) t (t - h),

the unique parabola through both end values with that curvature. So the curve is exact everywhere,
and its integral over a piece is the trapezoid corrected by Simpson's term,

    int_piece y = h (start_k + end_k) / 2 - kappa_k h^3 / 12.

Pieces may be discontinuous at a knot (``end_k != start_{k+1}``: the Brier curve is a step function
of cost lines) and may have zero width; the curve is right-continuous (at a knot it takes the next
piece's start value).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

DRAW_TOLERANCE = 1e-5  # largest vertical gap between a drawn polyline and the exact curve
MAX_DRAW_POINTS = 2001  # a stored curve has at most this many points (results.json stays bounded)


def dot(a, b) -> float:
    """Inner product without BLAS: OpenBLAS's threaded dot stalls on a busy 2-core machine
    (benchmarks/README.md)."""
    return float(np.einsum("i,i->", a, b))


@dataclass(frozen=True, eq=False)
class Piecewise:
    """A piecewise-quadratic curve y(x) on [x[0], x[-1]].

    ``x`` (P+1,) non-decreasing knots; ``start``/``end`` (P,) the value at the left/right end of
    each piece; ``kappa`` each piece's second derivative (0 for a straight piece): a (P,) array, or
    a 0-d array when every piece has the same one.
    """

    x: np.ndarray
    start: np.ndarray
    end: np.ndarray
    kappa: np.ndarray

    def _kappa(self, k=None):
        if self.kappa.ndim == 0:
            return self.kappa
        return self.kappa if k is None else self.kappa[k]

    @property
    def pieces(self) -> int:
        return self.start.size

    def _piece_of(self, v: np.ndarray) -> np.ndarray:
        k = np.searchsorted(self.x, v, side="right") - 1
        return np.clip(k, 0, self.pieces - 1)

    def _at(self, k: np.ndarray, t: np.ndarray) -> np.ndarray:
        """Value on piece k at offset t from its left knot (t may exceed h only by rounding)."""
        h = self.x[k + 1] - self.x[k]
        frac = np.divide(t, h, out=np.zeros_like(t, dtype=float), where=h > 0)
        s, e = self.start[k], self.end[k]
        return s + (e - s) * frac + 0.5 * self._kappa(k) * t * (t - h)

    def __call__(self, v):
        """The curve at ``v`` (right-continuous at discontinuities)."""
        v = np.asarray(v, dtype=float)
        k = self._piece_of(v)
        return self._at(k, v - self.x[k])

    @cached_property
    def piece_areas(self) -> np.ndarray:
        """Exact area of each piece (computed once; the curve is immutable)."""
        h = np.diff(self.x)
        areas = np.add(self.start, self.end)
        areas *= h
        areas *= 0.5
        if np.any(self.kappa):
            h3 = h * h
            h3 *= h
            h3 *= self._kappa() / 12.0
            areas -= h3
        return areas

    @cached_property
    def cumulative(self) -> np.ndarray:
        """Area from x[0] to each knot (computed once; the curve is immutable)."""
        out = np.empty(self.pieces + 1)
        out[0] = 0.0
        np.cumsum(self.piece_areas, out=out[1:])
        return out

    @cached_property
    def widths(self) -> np.ndarray:
        return np.diff(self.x)

    def range_area(self, first: int, stop: int) -> float:
        """Exact area of pieces ``first .. stop - 1``: dot products, no per-piece array."""
        h = self.widths[first:stop]
        area = 0.5 * (dot(h, self.start[first:stop]) + dot(h, self.end[first:stop]))
        if np.any(self.kappa):
            kap = self._kappa() if self.kappa.ndim == 0 else self.kappa[first:stop]
            area -= dot(kap * (h * h), h) / 12.0
        return float(area)

    @cached_property
    def area(self) -> float:
        """Exact area under the curve over its whole domain."""
        return self.range_area(0, self.pieces)

    def _within(self, k: int, v: float) -> float:
        """``int_{x_k}^{v}`` on piece k."""
        t = v - self.x[k]
        h = self.x[k + 1] - self.x[k]
        s, e = self.start[k], self.end[k]
        slope = (e - s) / h if h > 0 else 0.0
        return float(
            s * t + slope * t**2 / 2.0 + 0.5 * self._kappa(k) * (t**3 / 3.0 - h * t**2 / 2.0)
        )

    def integral_to(self, v) -> np.ndarray:
        """Exact ``int_{x[0]}^{v} y``, for scalar or array ``v`` inside the domain."""
        v = np.asarray(v, dtype=float)
        k = self._piece_of(v)
        t = v - self.x[k]
        h = self.x[k + 1] - self.x[k]
        s, e, kap = self.start[k], self.end[k], self._kappa(k)
        slope = np.divide(e - s, h, out=np.zeros_like(t, dtype=float), where=h > 0)
        within = s * t + slope * t**2 / 2.0 + 0.5 * kap * (t**3 / 3.0 - h * t**2 / 2.0)
        return self.cumulative[k] + within

    def integral(self, low: float, high: float) -> float:
        """Exact ``int_low^high y`` (not divided by ``high - low``; HFF 2013 section 8)."""
        a, b = (int(k) for k in self._piece_of(np.array([low, high], dtype=float)))
        return self.range_area(a, b) - self._within(a, low) + self._within(b, high)

    def polyline(self, tolerance: float = DRAW_TOLERANCE) -> tuple[np.ndarray, np.ndarray]:
        """Points ``(x, y)`` whose straight joins stay within ``tolerance`` of the curve.

        Every knot is a point; a curved piece of width h gets ``ceil(h sqrt(|kappa| / (8 tol)))``
        equal sub-intervals (a parabola's chord is at most ``|kappa| h^2 / 8`` away from it). At a
        discontinuity both the left and the right value are points (same x), so a drawing shows the
        jump. Exact values, not interpolated ones, at every point.
        """
        h = self.widths
        sub = np.maximum(1, np.ceil(h * np.sqrt(np.abs(self._kappa()) / (8.0 * tolerance)))).astype(
            np.int64
        )
        jump = np.ones(
            self.pieces, dtype=bool
        )  # the piece's own end is a point: last piece or a jump
        jump[:-1] = self.end[:-1] != self.start[1:]
        count = sub + jump
        k = np.repeat(np.arange(self.pieces), count)
        first = np.cumsum(count) - count
        i = np.arange(k.size) - np.repeat(first, count)
        t = h[k] * (i / sub[k])
        x = self.x[k] + t
        y = self._at(k, t)
        at_end = i == sub[k]
        x[at_end] = self.x[k[at_end] + 1]
        y[at_end] = self.end[k[at_end]]
        return x, y


def linear(x, y) -> Piecewise:
    """The continuous piecewise-linear curve through the vertices ``(x, y)``."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    return Piecewise(x=x, start=y[:-1], end=y[1:], kappa=np.array(0.0))


def parabolic(x, y, kappa: float) -> Piecewise:
    """The continuous curve through ``(x, y)`` whose every piece has second derivative ``kappa``."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    return Piecewise(x=x, start=y[:-1], end=y[1:], kappa=np.array(float(kappa)))


def drawing_points(
    curve: Piecewise, tolerance: float = DRAW_TOLERANCE, max_points: int = MAX_DRAW_POINTS
):
    """Points to store and draw a curve: :meth:`Piecewise.polyline` when it has at most
    ``max_points`` (every knot, exact, joins within ``tolerance``), else the exact curve at
    ``max_points`` evenly spaced x over its domain (1/2000 of the axis apart: under a pixel of
    a 1400 px wide figure; steps of a Brier curve then show as steep segments, and a vertex between
    two grid points is cut)."""
    x, y = curve.polyline(tolerance)
    if x.size <= max_points:
        return x, y
    x = np.linspace(curve.x[0], curve.x[-1], max_points)
    return x, curve(x)
