"""Hybrid cost curves: piecewise-linear, possibly discontinuous, held as pieces of cost lines.

Drummond & Holte 2006, section 5: a selection criterion maps each operating condition
x = PC(+) to one classifier; the hybrid's cost curve ``H(x) = NEC_sigma(x)(x)`` follows the cost
line ``nec = fpr (1 - x) + fnr x`` (Eq. 6) of the selected classifier on each piece of [0, 1]
and jumps where the selection switches between lines that do not cross there (Figs. 21-22).

A piece's line is stored by its two intercepts, ``start`` = nec at x = 0 (its FPR, or a pooled
false-positive share) and ``end`` = nec at x = 1 (its FNR). The area is exact, piece by piece:
``integral_l^r [a + (b - a) x] dx = a (r - l) + (b - a)(r^2 - l^2) / 2``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class HybridCurve:
    """Pieces ``[low[i], high[i]]`` (tiling [0, 1] in order) each following one cost line.

    ``closed`` says which end of a piece owns a switch point: ``"left"`` (pieces are
    ``[low, high)``, the last closed) or ``"right"`` (``(low, high]``, the first closed): the
    value *at* a jump is that piece's. ``threshold`` (per piece, may be None) is the score
    threshold in use; ``member`` (per piece, may be None) names the selected classifier.
    Zero-width pieces are kept: they carry the value at a switch point.
    """

    low: np.ndarray
    high: np.ndarray
    start: np.ndarray
    end: np.ndarray
    closed: str = "left"
    threshold: np.ndarray | None = None
    member: tuple | None = None

    def __call__(self, pc):
        """H at ``pc`` (scalar or array), the owning piece decided by ``closed``."""
        x = np.asarray(pc, dtype=float)
        k = self.piece_at(x)
        return self.start[k] + (self.end[k] - self.start[k]) * x

    def piece_at(self, pc):
        """Index of the piece that owns each ``pc``."""
        x = np.asarray(pc, dtype=float)
        if self.closed == "left":
            k = np.searchsorted(self.low, x, side="right") - 1
        else:
            k = np.searchsorted(self.high, x, side="left")
        return np.clip(k, 0, self.low.size - 1)

    @property
    def area(self) -> float:
        """Exact area: expected NEC under the uniform prior on PC(+) (D&H 2006, section 3.3)."""
        return float(np.sum(piece_integral(self.start, self.end, self.low, self.high)))

    def vertices(self) -> tuple[np.ndarray, np.ndarray]:
        """``(pc, nec)`` vertices: each non-empty piece's two ends; a jump is two vertices at one
        pc.

        Vertices repeated exactly (a continuous join) appear once.
        """
        width = self.high > self.low
        lo, hi = self.low[width], self.high[width]
        a, b = self.start[width], self.end[width]
        pc = np.column_stack([lo, hi]).ravel()
        nec = np.column_stack([a + (b - a) * lo, a + (b - a) * hi]).ravel()
        keep = np.ones(pc.size, bool)
        keep[1:] = (pc[1:] != pc[:-1]) | (nec[1:] != nec[:-1])
        return pc[keep], nec[keep]

    def curve(self) -> list[list[float]]:
        """The vertices as ``[[pc, nec], ...]`` (the results.json form)."""
        pc, nec = self.vertices()
        return np.column_stack([pc, nec]).tolist()


def piece_integral(start, end, low, high):
    """Exact integral of the line ``start + (end - start) x`` over ``[low, high]`` (vectorised)."""
    return start * (high - low) + (end - start) * (high * high - low * low) / 2.0
