"""Empirical selection criteria on the ROC convex hull: Neyman-Pearson and workforce utilisation.

Drummond & Holte 2006 section 5.1.3-5.1.4 (Figs. 23-24), Drummond & Holte 2000 section 2.2.2.
Points between hull vertices are reached by *mixing* two adjacent thresholds (use the first with
probability ``weight_first``): a mixture's ROC point and cost line are the weighted averages of
its members' (Provost & Fawcett 2001). Every result carries its cost line ``[NEC at PC(+) = 0,
NEC at PC(+) = 1] = [FPR, 1 - TPR]`` (D&H 2006 Eq. 6).

* Neyman-Pearson: the largest TPR with FPR <= max_fpr over all thresholds and mixtures, which is
  the hull at FPR = max_fpr; where the hull already reached TPR = 1 at FPR_1 <= max_fpr the
  choice is that vertex (never a dominated point). Also the best single threshold
  (no randomisation): the most TPR at FPR <= max_fpr, ties to the smaller FPR.
* Workforce utilisation: at most W cases flagged, ``TPR P + FPR N <= W`` (Eq. 11), whose
  boundary is the ROC line ``TPR = -(N/P) FPR + W/P`` (Eq. 12). The flagged count increases
  strictly along the hull, so the choice is the hull's unique crossing with Eq. 12, or the first
  vertex with TPR = 1 when W is larger than needed for it. In cost space Eq. 12 is the point
  ``(P/(P-N), (P-W)/(P-N))`` (Eq. 3), at negative PC(+) when N > P, through which every cost line
  of a classifier on Eq. 12 passes; there is no such point when P = N. Also the best single
  threshold: the most TPR with at most W flagged, ties to the smaller FPR.

Both criteria maximise TPR subject to one linear constraint on the ROC point; choosing among
classifiers (:func:`rank_constrained`) compares every classifier on one basis: its randomised
optimum (``BASES[0]``, the hull at the constraint) or its best single threshold (``BASES[1]``),
never one classifier on one and another on the other.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..roc import RocCurve, hull_indices


def mix_indices(hull_fpr, hull_tpr, value, along) -> tuple[int, int, float]:
    """The hull vertices ``(i, j)`` and weight on i whose mixture has ``along == value``.

    ``along`` (increasing strictly along the hull from 0) is what is constrained: FPR for
    Neyman-Pearson, the flagged count for workforce utilisation. A value at or beyond the first
    vertex with TPR = 1 gives that vertex; a value at a vertex gives it alone (``i == j``).
    """
    full = int(np.argmax(hull_tpr >= 1.0))
    if value >= along[full]:
        return full, full, 1.0
    i = int(np.searchsorted(along, value, side="right")) - 1
    if along[i] == value:
        return i, i, 1.0
    j = i + 1
    return i, j, float((along[j] - value) / (along[j] - along[i]))


BASES = ("randomised", "single_threshold")


def operating_point(choice, basis: str) -> tuple[float, float]:
    """``(fpr, tpr)`` of a Neyman-Pearson or workforce choice on ``basis``: the randomised optimum
    (the mixture of two hull vertices that meets the constraint exactly, D&H 2006 s. 5.1.3) or the
    best single threshold that meets it on its own."""
    if basis == BASES[0]:
        return choice.fpr, choice.tpr
    if basis == BASES[1]:
        return choice.deterministic_fpr, choice.deterministic_tpr
    raise ValueError(f"unknown basis {basis!r}; expected one of {BASES}")


def rank_constrained(choices: dict, basis: str) -> list[str]:
    """The names of ``choices`` (name -> Neyman-Pearson or workforce choice, in manifest order),
    best first, by the criterion's objective on one ``basis`` for all: most TPR at the
    constraint, then fewest false positives (smaller FPR), then manifest order. Rates are
    compared to 12 decimals, so two classifiers at the same ROC point tie whatever the rounding
    of their mixture weights."""
    order = list(choices)

    def key(name):
        fpr, tpr = operating_point(choices[name], basis)
        return (-round(float(tpr), 12), round(float(fpr), 12), order.index(name))

    return sorted(order, key=key)


def best_single(tp: np.ndarray, along: np.ndarray, limit: float) -> int:
    """Index of the ROC point with the most ``tp`` among those with ``along <= limit``, the
    first (fewest false positives) among equals. ROC points are ordered with ``tp``, ``fp`` and
    so ``along`` (a non-negative combination of them) non-decreasing; point 0 (flag nobody,
    ``along`` 0) always qualifies."""
    k = max(int(np.searchsorted(along, limit, side="right")) - 1, 0)
    return int(np.searchsorted(tp, tp[k], side="left"))


@dataclass(frozen=True)
class Mixture:
    """Use ``thresholds[0]`` with probability ``weight_first``, else ``thresholds[1]``.

    ``points`` are the two hull vertices (fpr, tpr); one threshold alone is ``(t, t)``, weight 1.
    """

    thresholds: tuple[float, float]
    weight_first: float
    points: tuple[tuple[float, float], tuple[float, float]]

    def to_dict(self) -> dict:
        return {"thresholds": list(self.thresholds), "weight_first": self.weight_first}


def hull_mixture(roc: RocCurve, keep, i: int, j: int, weight: float) -> Mixture:
    """The :class:`Mixture` of hull vertices i and j (indices into ``keep``)."""
    a, b = keep[i], keep[j]
    return Mixture(
        thresholds=(float(roc.thresholds[a]), float(roc.thresholds[b])),
        weight_first=float(weight),
        points=(
            (float(roc.fp[a] / roc.n_neg), float(roc.tp[a] / roc.n_pos)),
            (float(roc.fp[b] / roc.n_neg), float(roc.tp[b] / roc.n_pos)),
        ),
    )


@dataclass(frozen=True)
class NeymanPearsonChoice:
    """Neyman-Pearson choice (D&H 2006 section 5.1.3, Fig. 23).

    ``touch`` is the envelope vertex ``(pc, nec)`` through which the criterion's cost line
    passes, the intersection of the two mixed thresholds' lines (None without a mixture).
    ``out_of_fold`` is ``(fpr, tpr)`` achieved on held-out folds, when computed.
    """

    max_fpr: float
    fpr: float
    tpr: float
    mix: Mixture
    deterministic_threshold: float
    deterministic_fpr: float
    deterministic_tpr: float
    touch: tuple[float, float] | None
    out_of_fold: tuple[float, float] | None = None

    @property
    def cost_line(self) -> tuple[float, float]:
        return (self.fpr, 1.0 - self.tpr)

    def to_dict(self) -> dict:
        d = {
            "fpr": self.fpr,
            "tpr": self.tpr,
            "cost_line": list(self.cost_line),
            "mix": self.mix.to_dict(),
            "deterministic": {
                "threshold": self.deterministic_threshold,
                "fpr": self.deterministic_fpr,
                "tpr": self.deterministic_tpr,
            },
        }
        if self.out_of_fold is not None:
            d["out_of_fold"] = {"fpr": self.out_of_fold[0], "tpr": self.out_of_fold[1]}
        return d


def check_max_fpr(max_fpr: float) -> float:
    alpha = float(max_fpr)
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"max_fpr must lie in [0, 1], got {max_fpr!r}")
    return alpha


def neyman_pearson(roc: RocCurve, max_fpr: float, keep=None) -> NeymanPearsonChoice:
    """Best TPR at FPR <= max_fpr over thresholds and mixtures, and the best single threshold.

    ``keep`` (optional) are the hull indices :func:`ccreport.analysis.roc.hull_indices` gives.
    """
    alpha = check_max_fpr(max_fpr)
    keep = hull_indices(roc) if keep is None else keep
    f, t = roc.fp[keep] / roc.n_neg, roc.tp[keep] / roc.n_pos
    i, j, w = mix_indices(f, t, alpha, f)
    mix = hull_mixture(roc, keep, i, j, w)
    fpr = w * f[i] + (1.0 - w) * f[j]
    tpr = w * t[i] + (1.0 - w) * t[j]
    touch = None
    if i != j:
        pc = (f[j] - f[i]) / ((f[j] - f[i]) + (t[j] - t[i]))
        touch = (float(pc), float((1.0 - t[i]) * pc + f[i] * (1.0 - pc)))
    k = best_single(roc.tp, roc.fp / roc.n_neg, alpha)
    return NeymanPearsonChoice(
        max_fpr=alpha,
        fpr=float(fpr),
        tpr=float(tpr),
        mix=mix,
        deterministic_threshold=float(roc.thresholds[k]),
        deterministic_fpr=float(roc.fp[k] / roc.n_neg),
        deterministic_tpr=float(roc.tp[k] / roc.n_pos),
        touch=touch,
    )


@dataclass(frozen=True)
class WorkforceChoice:
    """Workforce utilisation choice (D&H 2006 section 5.1.4 Eq. 11-12, Fig. 24).

    ``capacity`` is W in cases, for a batch of ``n_pos`` positives and ``n_neg`` negatives;
    ``flagged`` the expected number of cases flagged, ``P TPR + N FPR``. ``virtual_point`` is
    Eq. 12 in cost space, ``(P/(P-N), (P-W)/(P-N))`` (None when P = N).
    ``deterministic_*``: the best single threshold with at most W flagged.
    ``out_of_fold``: ``(fpr, tpr, flagged)`` achieved on held-out folds, when computed.
    """

    capacity: float
    n_pos: float
    n_neg: float
    fpr: float
    tpr: float
    flagged: float
    mix: Mixture
    deterministic_threshold: float
    deterministic_fpr: float
    deterministic_tpr: float
    out_of_fold: tuple[float, float, float] | None = None

    @property
    def cost_line(self) -> tuple[float, float]:
        return (self.fpr, 1.0 - self.tpr)

    @property
    def virtual_point(self) -> tuple[float, float] | None:
        p, n = self.n_pos, self.n_neg
        if p == n:
            return None
        return (p / (p - n), (p - self.capacity) / (p - n))

    def to_dict(self) -> dict:
        d = {
            "capacity": self.capacity,
            "fpr": self.fpr,
            "tpr": self.tpr,
            "flagged": self.flagged,
            "cost_line": list(self.cost_line),
            "mix": self.mix.to_dict(),
            "deterministic": {
                "threshold": self.deterministic_threshold,
                "fpr": self.deterministic_fpr,
                "tpr": self.deterministic_tpr,
            },
        }
        if self.out_of_fold is not None:
            f, t, c = self.out_of_fold
            d["out_of_fold"] = {"fpr": f, "tpr": t, "flagged": c}
        return d


def workforce_capacity(capacity=None, capacity_share=None, n_cases: float | None = None) -> float:
    """W in cases from exactly one of ``capacity`` (cases, >= 0) or ``capacity_share`` (>= 0)."""
    if (capacity is None) == (capacity_share is None):
        raise ValueError("give exactly one of capacity and capacity_share")
    if capacity is not None:
        w = float(capacity)
    else:
        w = float(capacity_share) * float(n_cases)
    if not np.isfinite(w) or w < 0:
        raise ValueError(f"workforce capacity must be a finite number >= 0, got {w!r}")
    return w


def workforce(
    roc: RocCurve,
    capacity=None,
    capacity_share=None,
    n_pos: float | None = None,
    n_neg: float | None = None,
    keep=None,
) -> WorkforceChoice:
    """Most TPR with at most W cases flagged (in expectation), fewest false positives among ties.

    ``n_pos``/``n_neg``: the batch the workforce faces (default: the evaluated data's counts,
    D&H 2000 reads them as expected counts); ``capacity_share`` is a share of that batch.
    """
    p = float(roc.n_pos if n_pos is None else n_pos)
    n = float(roc.n_neg if n_neg is None else n_neg)
    if not (p > 0 and n > 0):
        raise ValueError("workforce needs positive class counts")
    w = workforce_capacity(capacity, capacity_share, p + n)
    keep = hull_indices(roc) if keep is None else keep
    f, t = roc.fp[keep] / roc.n_neg, roc.tp[keep] / roc.n_pos
    flagged = p * t + n * f
    i, j, lam = mix_indices(f, t, w, flagged)
    fpr = lam * f[i] + (1.0 - lam) * f[j]
    tpr = lam * t[i] + (1.0 - lam) * t[j]
    k = best_single(
        roc.tp, (p / roc.n_pos) * roc.tp + (n / roc.n_neg) * roc.fp, w
    )  # exact counts when the batch is the data
    return WorkforceChoice(
        capacity=w,
        n_pos=p,
        n_neg=n,
        fpr=float(fpr),
        tpr=float(tpr),
        flagged=float(p * tpr + n * fpr),
        mix=hull_mixture(roc, keep, i, j, lam),
        deterministic_threshold=float(roc.thresholds[k]),
        deterministic_fpr=float(roc.fp[k] / roc.n_neg),
        deterministic_tpr=float(roc.tp[k] / roc.n_pos),
    )
