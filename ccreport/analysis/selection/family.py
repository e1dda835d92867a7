"""A declared family of crisp classifiers trained under different conditions (D&H 2000 s. 2.3).

The manifest's ``kind = "parameter_based"`` criterion names its members and each member's training
condition tau in PC(+) units (spec section 1.1(a) and 1.5). :func:`select_family` reads each
member's one ROC point (FPR, TPR) on the evaluated data and builds the nearest-training-condition
hybrid of :func:`ccreport.analysis.selection.parameter_based`: sorted by tau, member i is used on
``[m_{i-1}, m_i)`` with ``m_i = (tau_i + tau_{i+1}) / 2``, the last piece closed at 1. Its area is
exact; ``excess = area(H) - area(E)`` with E the lower envelope of the members and the trivial
classifiers, "the additional cost of using this selection procedure over the optimal one"
(D&H 2000).

Members are crisp (a ``predictions`` column): a family member trained at one condition gives one
ROC point, as D&H 2000's C4.5 trees on Sonar do. The manifest rejects a scoring member, since
which of its thresholds the training condition stands for is not defined by the paper.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..roc import RocCurve
from .independent import IndependentSelection, parameter_based


@dataclass(frozen=True)
class ParameterBased:
    """``kind = "parameter_based"``: ``members`` are (classifier name, training PC(+)) pairs in
    manifest order; at least two, distinct conditions in [0, 1] (checked by the manifest)."""

    members: tuple[tuple[str, float], ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.members)


def crisp_point(roc: RocCurve) -> tuple[float, float]:
    """The (FPR, TPR) of a crisp classifier's ROC curve ``(0,0), (f,t), (1,1)``."""
    if roc.fp.size != 3:
        raise ValueError("needs a crisp classifier (one ROC point besides (0,0) and (1,1))")
    return float(roc.fp[1] / roc.n_neg), float(roc.tp[1] / roc.n_pos)


def select_family(rocs: Mapping[str, RocCurve], criterion: ParameterBased) -> IndependentSelection:
    """The parameter-based hybrid of ``criterion``'s members from their ROC curves ``rocs``.

    Raises ValueError naming the member when one is missing from ``rocs`` (no column on this
    dataset) or is not crisp.
    """
    missing = [n for n in criterion.names if n not in rocs]
    if missing:
        raise ValueError(f"member {missing[0]!r} has no column in this dataset")
    points = []
    for name in criterion.names:
        try:
            points.append(crisp_point(rocs[name]))
        except ValueError as e:
            raise ValueError(f"member {name!r}: {e}") from None
    fpr, tpr = zip(*points)
    tau = [t for _, t in criterion.members]
    return parameter_based(fpr, tpr, tau, names=criterion.names)
