"""Result records of the instance-varying cost analyses (Fawcett 2006)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .bands import ExpectedCostDifferenceInterval
from .convert import dicts, envelope_comparison_dict, interval_list, pairs_list


@dataclass(frozen=True, eq=False)
class InstanceCostIntervals:
    """Instance-bootstrap intervals of one classifier's instance-cost analysis (costs travel with
    their instances; :mod:`ccreport.analysis.instance_cost_bootstrap`).

    ``pc``/``estimate``/``lower``/``upper``: the pointwise band on the instance-cost envelope on a
    PC_iv(+) grid; ``auciv``, ``min_total_cost`` (data's units), ``expected_cost`` (prior -> ...):
    percentile intervals (lower, upper).
    """

    level: float
    replicates: int
    method: str
    pc: np.ndarray
    estimate: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    auciv: tuple[float, float]
    min_total_cost: tuple[float, float]
    expected_cost: dict[str, tuple[float, float]]

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "replicates": self.replicates,
            "method": self.method,
            "band": {
                "pc": self.pc,
                "estimate": self.estimate,
                "lower": self.lower,
                "upper": self.upper,
            },
            "auciv": list(self.auciv),
            "min_total_cost": list(self.min_total_cost),
            "expected_cost": {k: list(v) for k, v in self.expected_cost.items()},
        }


@dataclass(frozen=True, eq=False)
class InstanceCosts:
    """One classifier's ROCIV, AUCIV and instance-cost envelope (Fawcett 2006; spec section 3).

    ``rociv_fpr``/``rociv_tpr``: the ROCIV points as stored (thinned for drawing when very many);
    ``envelope_pc`` is PC_iv(+), the x-axis of the class-average costs; ``min_total_threshold``
    (None: predict nothing positive) and ``min_total`` in the data's units ``unit`` (not in the
    JSON: the manifest's label); ``expected_cost``: prior -> expected NEC_iv, for the priors read on
    the PC_iv(+) axis; ``left_out_priors``: those built from a class-level cost ratio
    (not in the JSON).
    """

    auciv: float
    rociv_fpr: np.ndarray
    rociv_tpr: np.ndarray
    hull_fpr: np.ndarray
    hull_tpr: np.ndarray
    envelope_pc: np.ndarray
    envelope_nec: np.ndarray
    own_pc: float
    min_total_threshold: float | None
    min_total: float
    expected_cost: dict[str, float]
    operating_range: tuple[float, float] | None
    unit: str | None = None
    left_out_priors: tuple[str, ...] = ()
    intervals: InstanceCostIntervals | None = None

    def to_dict(self) -> dict:
        out = {
            "auciv": self.auciv,
            "rociv_points": pairs_list(self.rociv_fpr, self.rociv_tpr),
            "rociv_hull": pairs_list(self.hull_fpr, self.hull_tpr),
            "lower_envelope": pairs_list(self.envelope_pc, self.envelope_nec),
            "own_pc": self.own_pc,
            "min_total_cost": {"threshold": self.min_total_threshold, "total": self.min_total},
            "expected_cost": dict(self.expected_cost),
            "operating_range": interval_list(self.operating_range),
        }
        if self.intervals is not None:
            out["intervals"] = self.intervals.to_dict()
        return out


@dataclass(frozen=True, eq=False)
class InstanceCostDifferenceIntervals:
    """Paired instance-bootstrap intervals of a - b (the same resampled instances, with their costs,
    for both): AUCIV, minimum total cost (data's units) and each prior's expected cost."""

    level: float
    replicates: int
    method: str
    auciv_difference: ExpectedCostDifferenceInterval
    min_total_cost_difference: ExpectedCostDifferenceInterval
    expected_cost_difference: dict[str, ExpectedCostDifferenceInterval]

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "replicates": self.replicates,
            "method": self.method,
            "auciv_difference": self.auciv_difference.to_dict(),
            "min_total_cost_difference": self.min_total_cost_difference.to_dict(),
            "expected_cost_difference": dicts(self.expected_cost_difference),
        }


@dataclass(frozen=True, eq=False)
class InstanceCostComparisonResult:
    """Classifier a against b on the instance-cost envelopes (differences a - b; negative: a
    cheaper)."""

    crossovers: tuple[float, ...]
    a_better: tuple[tuple[float, float], ...]
    b_better: tuple[tuple[float, float], ...]
    ties: tuple[tuple[float, float], ...]
    max_difference: tuple[float, float]
    a_max_advantage: tuple[float, float]
    b_max_advantage: tuple[float, float]
    difference_pc: np.ndarray
    difference: np.ndarray
    auciv_difference: float
    min_total_cost_difference: float
    expected_cost_difference: dict[str, float]
    intervals: InstanceCostDifferenceIntervals | None = None

    def to_dict(self) -> dict:
        out = {
            **envelope_comparison_dict(self),
            "auciv_difference": self.auciv_difference,
            "min_total_cost_difference": self.min_total_cost_difference,
            "expected_cost_difference": dict(self.expected_cost_difference),
        }
        if self.intervals is not None:
            out["intervals"] = self.intervals.to_dict()
        return out
