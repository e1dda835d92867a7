"""Result records of the uncertainty analyses: bands, intervals, fold averages, difference bands and
significant regions (D&H 2006 sections 4.5-4.7 and 5.2)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .convert import dict_or_none


@dataclass(frozen=True, eq=False)
class CalibrationDescription:
    """How a band was calibrated by the double bootstrap (:mod:`ccreport.analysis.calibration`).

    ``upper_level``: the quantile level of the band's upper edge at each grid point;
    ``sup_scale``: the factor on the simultaneous band's critical value; ``expected_upper_level``:
    prior name -> the upper quantile level of its expected-cost interval.
    """

    method: str
    outer: int
    inner: int
    window: Any
    upper_level: np.ndarray
    lower_level: float
    sup_scale: float
    expected_upper_level: dict[str, float]

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, eq=False)
class SimultaneousBand:
    """A sup-norm band over the whole PC(+) grid (asked for by the manifest's ``band``)."""

    lower: np.ndarray
    upper: np.ndarray
    method: str

    def to_dict(self) -> dict:
        return {"lower": self.lower, "upper": self.upper, "method": self.method}


# the band target's clause stating a measured shortfall of coverage
# (ccreport.tasks.bands_task.TARGET_FEW_SCORES) and the measured figures in it ("a 90% band covered
# this target 82.6-84.8% of the time at PC(+) = 0.3-0.5 and 62% at PC(+) = 0.05")
FEW_SCORES_MARK = "with few distinct scores the band covers less than its level"
MEASURED_COVERAGE = re.compile(r"(a \d+(?:\.\d+)?% band covered this target [^;:]*?)(?: \(|;|:|$)")


@dataclass(frozen=True, eq=False)
class Band:
    """A bootstrap confidence band around one classifier's cost curve (D&H 2006 section 4.6).

    ``type`` is the manifest's ``band`` ("pointwise", "simultaneous", "both"); ``lower``/``upper``
    are always the pointwise edges, ``simultaneous`` the sup-norm band when one was asked for.
    ``correction`` and ``target`` say how the edges were formed and what they cover.
    """

    level: float
    replicates: int
    method: str
    pc: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    estimate: np.ndarray | None = None
    correction: str | None = None
    calibration: CalibrationDescription | None = None
    target: str | None = None
    type: str | None = None
    simultaneous: SimultaneousBand | None = None
    # the merged score groups the replicates were computed on (None: every distinct score)
    score_groups: int | None = None

    @property
    def coverage_warning(self) -> str | None:
        """What the band's target says it under-covers, in one clause for quoting beside a number
        whose interval comes from this resampling (its expected-cost intervals), or None when it
        states no shortfall. Read from ``target``: the few-distinct-scores clause
        (:data:`ccreport.tasks.bands_task.TARGET_FEW_SCORES`), with its measured coverage when
        stated."""
        if not self.target or FEW_SCORES_MARK not in self.target:
            return None
        clause = self.target[self.target.index(FEW_SCORES_MARK) :]
        measured = MEASURED_COVERAGE.search(clause)
        level = f"{100 * float(self.level):g}%"
        text = f"with few distinct scores its intervals cover less than {level}"
        if measured:
            text += (
                ": in simulations "
                f"{measured.group(1).replace('covered this target', 'covered the true cost')}"
            )
        return text

    def to_dict(self) -> dict:
        groups = {} if self.score_groups is None else {"score_groups": self.score_groups}
        return {
            "level": self.level,
            "replicates": self.replicates,
            "method": self.method,
            "correction": self.correction,
            "calibration": dict_or_none(self.calibration),
            "target": self.target,
            "type": self.type,
            "pc": self.pc,
            "estimate": self.estimate,
            "lower": self.lower,
            "upper": self.upper,
            "simultaneous": dict_or_none(self.simultaneous),
        } | groups


@dataclass(frozen=True, eq=False)
class ExpectedCostInterval:
    """A bootstrap confidence interval of one classifier's expected cost under one prior."""

    lower: float
    upper: float

    def to_dict(self) -> list:
        return [self.lower, self.upper]


@dataclass(frozen=True, eq=False)
class FoldAverageResult:
    """The vertical average of the folds' cost curves (D&H 2006 section 4.5), with its spread.

    ``folds``: the folds averaged; ``skipped_folds``: folds lacking a class (no cost curve);
    ``lower``/``upper``: the smallest and largest fold's cost at each ``pc``; ``expected_cost``:
    prior -> expected cost of the averaged curve; ``fold_expected_cost``: prior -> each fold's.
    """

    n_folds: int
    pc: np.ndarray
    nec: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    expected_cost: dict[str, float]
    folds: tuple[str, ...] = ()
    skipped_folds: tuple[str, ...] = ()
    spread: str = "min-max across folds"
    fold_expected_cost: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "n_folds": self.n_folds,
            "folds": list(self.folds),
            "skipped_folds": list(self.skipped_folds),
            "pc": self.pc,
            "nec": self.nec,
            "lower": self.lower,
            "upper": self.upper,
            "spread": self.spread,
            "expected_cost": self.expected_cost,
            "fold_expected_cost": self.fold_expected_cost,
        }


@dataclass(frozen=True, eq=False)
class DifferenceBand:
    """The pointwise paired bootstrap band of the difference a - b of two cost curves (D&H 2006
    section 4.7), for drawing: ``kind`` is "pointwise" and ``note`` says it is not adjusted for
    reading the whole curve; it never decides "significant" (that is :class:`FamilyWiseResult`)."""

    level: float
    replicates: int
    method: str
    pc: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    estimate: np.ndarray | None = None
    target: str | None = None
    kind: str = "pointwise"
    note: str = ""

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "note": self.note,
            "level": self.level,
            "replicates": self.replicates,
            "method": self.method,
            "target": self.target,
            "pc": self.pc,
            "estimate": self.estimate,
            "lower": self.lower,
            "upper": self.upper,
        }


@dataclass(frozen=True, eq=False)
class FamilyWiseResult:
    """The family-wise test of a - b over the whole PC(+) grid
    (:func:`ccreport.analysis.significance.family_wise`): the simultaneous band
    ``estimate -+ critical_value s`` of a studentized max-statistic; the only source of the
    comparison's ``significant`` intervals."""

    level: float
    method: str
    pc: np.ndarray
    estimate: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    critical_value: float
    statistic: float
    p_value: float

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "method": self.method,
            "pc": self.pc,
            "estimate": self.estimate,
            "lower": self.lower,
            "upper": self.upper,
            "critical_value": self.critical_value,
            "statistic": self.statistic,
            "p_value": self.p_value,
        }


@dataclass(frozen=True, eq=False)
class SignificantRegion:
    """A PC(+) interval where the family-wise band of a - b excludes 0; ``better`` names the cheaper
    classifier."""

    lo: float
    hi: float
    better: str

    def to_dict(self) -> dict:
        return {"lo": self.lo, "hi": self.hi, "better": self.better}


@dataclass(frozen=True, eq=False)
class ExpectedCostDifferenceInterval:
    """The paired bootstrap interval and p-value of E[a] - E[b] under one prior."""

    difference: float
    lower: float
    upper: float
    p_value: float | None
    p_value_method: str = ""
    # step-down max-T adjusted (Westfall & Young) over every pair and prior of the dataset
    # (comparisons only; name kept from Holm)
    p_holm: float | None = None
    adjustment: str | None = None

    def to_dict(self) -> dict:
        out = {
            "difference": self.difference,
            "lower": self.lower,
            "upper": self.upper,
            "p_value": self.p_value,
            "p_value_method": self.p_value_method,
        }
        if self.p_holm is not None:
            out["p_holm"] = self.p_holm
            out["adjustment"] = self.adjustment
        return out
