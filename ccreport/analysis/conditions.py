"""Operating conditions and the point/line duality between ROC space and cost space.

Drummond & Holte 2006, *Cost curves* (MLJ 65), section 3:

* Eq. 5-6: normalized expected cost ``nec = fnr * pc + fpr * (1 - pc)``, where ``pc`` is
  PC(+) = p(+) C(-|+) / (p(+) C(-|+) + p(-) C(+|-)), the probability-cost of the positive class.
* Eq. 2: the ROC point (fpr, tpr) is the cost line ``nec = (fnr - fpr) * pc + fpr``.
* Eq. 3: the ROC line of slope S and intercept tp0 is the cost point
  ``(pc, nec) = (1 / (1 + S), (1 - tp0) / (1 + S))``; both maps are invertible.

Every function is vectorised: scalars or numpy arrays in, the same shape out.
"""

from __future__ import annotations

import numpy as np


def probability_cost(p_positive, cost_ratio):
    """PC(+) from p(+) and the cost ratio r = C(-|+) / C(+|-) (D&H 2006, section 3.2).

    PC(+) = p r / (p r + (1 - p)). A cost ratio of 0 gives 0; an infinite one gives 1 unless p = 0.
    """
    p = np.asarray(p_positive, dtype=float)
    r = np.asarray(cost_ratio, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        weighted = p * r
        pc = np.where(np.isinf(r), np.where(p > 0, 1.0, 0.0), weighted / (weighted + (1.0 - p)))
    return pc[()] if pc.ndim == 0 else pc


def normalized_expected_cost(fpr, fnr, pc):
    """Norm(E[Cost]) = FN * PC(+) + FP * PC(-) (D&H 2006, Eq. 6), broadcasting over all inputs."""
    pc = np.asarray(pc, dtype=float)
    return np.asarray(fnr, dtype=float) * pc + np.asarray(fpr, dtype=float) * (1.0 - pc)


def roc_point_to_cost_line(fpr, tpr):
    """ROC point -> cost line ``nec = slope * pc + intercept`` (D&H 2006, Eq. 2).

    Returns ``(slope, intercept) = (fnr - fpr, fpr)`` with fnr = 1 - tpr.
    """
    fpr = np.asarray(fpr, dtype=float)
    return (1.0 - np.asarray(tpr, dtype=float)) - fpr, fpr


def cost_line_to_roc_point(slope, intercept):
    """Cost line ``a * pc + b`` -> ROC point: FP = b, TP = 1 - (b + a) (D&H 2006, inverse of
    Eq. 2)."""
    b = np.asarray(intercept, dtype=float)
    return b, 1.0 - (b + np.asarray(slope, dtype=float))


def roc_line_to_cost_point(slope, tp_intercept):
    """ROC line of slope S through (0, tp0) -> cost point (D&H 2006, Eq. 3).

    ``pc = 1 / (1 + S)``, ``nec = (1 - tp0) * pc``. An infinite slope maps to pc = 0.
    """
    s = np.asarray(slope, dtype=float)
    with np.errstate(divide="ignore"):
        pc = np.where(np.isinf(s), 0.0, 1.0 / (1.0 + s))
    return pc, (1.0 - np.asarray(tp_intercept, dtype=float)) * pc


def cost_point_to_roc_line(pc, nec):
    """Cost point (X, Y) -> ROC line ``TP = (1/X - 1) * FP + (1 - Y/X)`` (D&H 2006, inverse of
    Eq. 3).

    Returns ``(slope, tp_intercept)``; X must be > 0.
    """
    x = np.asarray(pc, dtype=float)
    return 1.0 / x - 1.0, 1.0 - np.asarray(nec, dtype=float) / x


def trivial_cost(pc):
    """Lower envelope of the two trivial classifiers, min(PC(+), 1 - PC(+)) (D&H 2006, section 4.2).

    Always-negative costs ``pc``; always-positive costs ``1 - pc``.
    """
    pc = np.asarray(pc, dtype=float)
    return np.minimum(pc, 1.0 - pc)
