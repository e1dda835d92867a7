"""The Results of a build: frozen dataclasses, and their JSON form (``results.json``).

Everything downstream (figures, pages, the PDF) reads these objects and nothing else. Each analysis
has its own frozen result type with its own ``to_dict`` (its JSON form), held as an optional field
of :class:`ClassifierResult`, :class:`ComparisonResult` or :class:`DatasetResult` (``None``: the
analysis did not run, and its key is left out of ``results.json``). The JSON form is versioned by
``SCHEMA_VERSION``; ``docs/results-schema.md`` documents every key. Serialisation is deterministic:
keys in manifest order, floats as Python's shortest round-trip repr, so the same inputs and seed
give the same bytes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .settings import AnalysisSettings

SCHEMA_VERSION = "1.0"


@dataclass(frozen=True, eq=False)
class PriorResult:
    """One prior over PC(+): its parameters and, for figures, its density on a grid."""

    name: str
    kind: str  # uniform | beta | point | induced
    params: dict[str, Any]
    description: str
    grid: np.ndarray  # PC(+) values for drawing
    density: np.ndarray | None  # None for a point mass
    point: float | None = None  # PC(+) of a point mass


# --- uncertainty (D&H 2006 sections 4.5-4.7 and 5.2) -------------------------------------------


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

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "replicates": self.replicates,
            "method": self.method,
            "correction": self.correction,
            "calibration": _dict_or_none(self.calibration),
            "target": self.target,
            "type": self.type,
            "pc": self.pc,
            "estimate": self.estimate,
            "lower": self.lower,
            "upper": self.upper,
            "simultaneous": _dict_or_none(self.simultaneous),
        }


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
    section 4.7), for drawing: ``kind`` is "pointwise" and ``note`` says it is not adjusted for reading
    the whole curve; it never decides "significant" (that is :class:`FamilyWiseResult`, issue 10)."""

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
    """The family-wise test of a - b over the whole PC(+) grid (:func:`ccreport.analysis.significance.family_wise`):
    the simultaneous band ``estimate -+ critical_value s`` of a studentized max-statistic; the only
    source of the comparison's ``significant`` intervals."""

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
    """A PC(+) interval where the family-wise band of a - b excludes 0; ``better`` names the cheaper classifier."""

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
    p_holm: float | None = None  # Holm-adjusted over every pair and prior of the dataset (comparisons only)
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


# --- threshold choice methods (Hernández-Orallo, Flach & Ferri 2013) -------------------------------


@dataclass(frozen=True, eq=False)
class PartialAreaResult:
    """``int_low^high`` of one threshold-choice curve, its bootstrap interval and (Kendall curves) its partial AOC."""

    low: float
    high: float
    area: float | None
    interval: tuple[float, float] | None = None
    aoc: float | None = None

    def to_dict(self) -> dict:
        out = {"low": self.low, "high": self.high, "area": self.area, "interval": _interval(self.interval)}
        if self.aoc is not None:
            out["aoc"] = self.aoc
        return out


@dataclass(frozen=True, eq=False)
class ThresholdMethodResult:
    """One threshold choice method on one axis: exact area, interval, partial areas, drawable curve.

    ``curve`` (k, 2) points ``[x, y]`` (None, with ``not_applicable`` saying why, when the method
    does not apply: the Brier curve without probability scores).
    """

    area: float | None
    interval: tuple[float, float] | None
    partial: tuple[PartialAreaResult, ...]
    curve: np.ndarray | None
    not_applicable: str | None = None

    def to_dict(self) -> dict:
        out = {
            "area": self.area,
            "interval": _interval(self.interval),
            "partial": _list_of_dicts(self.partial),
            "curve": self.curve,
        }
        if self.not_applicable is not None:
            out["not_applicable"] = self.not_applicable
        return out


@dataclass(frozen=True, eq=False)
class ThresholdChoiceResult:
    """Every threshold choice method of one classifier: ``methods[axis][method]``.

    A crisp classifier has the one method ``score_fixed`` (its cost line) on each axis and a ``note``.
    ``shown_axes``: the axes the pages show (the manifest's ``threshold_axis``; results.json has both).
    """

    methods: dict[str, dict[str, ThresholdMethodResult]]
    note: str | None = None
    shown_axes: tuple[str, ...] = ("pc",)

    def to_dict(self) -> dict:
        out = {axis: _dicts(by_method) for axis, by_method in self.methods.items()}
        if self.note is not None:
            out["note"] = self.note
        return out


@dataclass(frozen=True, eq=False)
class AreaDifference:
    """A paired bootstrap comparison of one area between two classifiers: a - b, interval, p-value."""

    difference: float
    interval: tuple[float, float]
    p_value: float

    def to_dict(self) -> dict:
        return {"difference": self.difference, "interval": list(self.interval), "p_value": self.p_value}


@dataclass(frozen=True, eq=False)
class ThresholdChoiceComparison:
    """Paired differences of threshold-choice areas of two scoring classifiers on the same resampled
    instances: ``differences[axis][name]`` with name ``kendall`` (Kendall area a - b: ranking quality)
    and ``skull_minus_optimal`` ((skull - optimal) of a minus that of b: what calibrating the scores
    would gain)."""

    differences: dict[str, dict[str, AreaDifference]]
    replicates: int
    level: float
    p_value_method: str

    def to_dict(self) -> dict:
        out = {axis: _dicts(by_name) for axis, by_name in self.differences.items()}
        out["replicates"] = self.replicates
        out["level"] = self.level
        out["p_value_method"] = self.p_value_method
        return out


# --- instance-varying costs (Fawcett 2006; issue 13) ---------------------------------------------


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
            "band": {"pc": self.pc, "estimate": self.estimate, "lower": self.lower, "upper": self.upper},
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
    the PC_iv(+) axis; ``left_out_priors``: those built from a class-level cost ratio (not in the JSON).
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
            "rociv_points": _pairs(self.rociv_fpr, self.rociv_tpr),
            "rociv_hull": _pairs(self.hull_fpr, self.hull_tpr),
            "lower_envelope": _pairs(self.envelope_pc, self.envelope_nec),
            "own_pc": self.own_pc,
            "min_total_cost": {"threshold": self.min_total_threshold, "total": self.min_total},
            "expected_cost": dict(self.expected_cost),
            "operating_range": _interval(self.operating_range),
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
            "expected_cost_difference": _dicts(self.expected_cost_difference),
        }


@dataclass(frozen=True, eq=False)
class InstanceCostComparisonResult:
    """Classifier a against b on the instance-cost envelopes (differences a - b; negative: a cheaper)."""

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
            "crossovers": list(self.crossovers),
            "a_better": [list(iv) for iv in self.a_better],
            "b_better": [list(iv) for iv in self.b_better],
            "ties": [list(iv) for iv in self.ties],
            "max_difference": {"pc": self.max_difference[0], "a_minus_b": self.max_difference[1]},
            "a_max_advantage": {"pc": self.a_max_advantage[0], "b_minus_a": self.a_max_advantage[1]},
            "b_max_advantage": {"pc": self.b_max_advantage[0], "a_minus_b": self.b_max_advantage[1]},
            "difference_curve": _pairs(self.difference_pc, self.difference),
            "auciv_difference": self.auciv_difference,
            "min_total_cost_difference": self.min_total_cost_difference,
            "expected_cost_difference": dict(self.expected_cost_difference),
        }
        if self.intervals is not None:
            out["intervals"] = self.intervals.to_dict()
        return out


# --- selection (D&H 2006 section 5; issue 11) -------------------------------------------------

CURVE_POINTS = 1001  # a hybrid curve with more vertices is written on a grid of this many PC(+)


def bounded_curve(curve) -> list[list[float]]:
    """``[[pc, nec], ...]`` of a hybrid curve (an object with ``curve()`` and ``__call__``): every
    vertex when there are at most :data:`CURVE_POINTS`, else its values on an even PC(+) grid (for
    drawing; areas stay exact, computed from the pieces)."""
    vertices = curve.curve()
    if len(vertices) <= CURVE_POINTS:
        return vertices
    grid = np.linspace(0.0, 1.0, CURVE_POINTS)
    return np.column_stack([grid, curve(grid)]).tolist()


@dataclass(frozen=True, eq=False)
class NotApplicable:
    """A criterion that cannot be evaluated for a classifier, and why."""

    reason: str

    def to_dict(self) -> dict:
        return {"not_applicable": self.reason}


@dataclass(frozen=True, eq=False)
class SelectionResult:
    """Thresholds, threshold table, selection criteria and out-of-fold curve of one classifier.

    ``thresholds`` align with the ROC points (+inf first); ``table`` is the classifier's
    :class:`ccreport.analysis.selection.Hybrid` (per hull vertex: threshold and the PC(+) interval
    where it is optimal, ties); ``criteria``: criterion name -> a choice of
    :mod:`ccreport.analysis.selection` (each with ``to_dict``) or :class:`NotApplicable`;
    ``out_of_fold``: an :class:`ccreport.analysis.selection.OutOfFold` (with folds) or None.
    """

    thresholds: np.ndarray
    table: Any
    criteria: dict[str, Any]
    out_of_fold: Any | None = None

    def to_dict(self) -> dict:
        """``thresholds``, ``criteria`` and (with folds) ``out_of_fold`` of the classifier."""
        out = {"thresholds": self.thresholds, "criteria": {k: _choice_dict(v) for k, v in self.criteria.items()}}
        if self.out_of_fold is not None:
            out["out_of_fold"] = _out_of_fold_dict(self.out_of_fold)
        return out


def _choice_dict(choice) -> dict:
    d = choice.to_dict()
    if "curve" in d:
        d["curve"] = bounded_curve(choice.curve)
    return d


def _out_of_fold_dict(oof) -> dict:
    return {"area": oof.area, "optimism": oof.optimism, "curve": bounded_curve(oof.curve)}


@dataclass(frozen=True, eq=False)
class HybridResult:
    """The dataset hybrid: the cost-minimizing selection among all classifiers and thresholds.

    ``hybrid`` is a :class:`ccreport.analysis.selection.Hybrid` (segments labelled by classifier
    and threshold, ties, the lower envelope); ``out_of_fold`` (with folds) its honest version.
    """

    hybrid: Any
    out_of_fold: Any | None = None

    def to_dict(self) -> dict:
        out = self.hybrid.to_dict()
        if self.out_of_fold is not None:
            out["out_of_fold"] = _out_of_fold_dict(self.out_of_fold)
        return out


@dataclass(frozen=True, eq=False)
class Decision:
    """One line of the decision box: what to deploy under one point prior or one criterion.

    ``threshold`` (None: +inf, flag nobody) with ``threshold_interval`` ``[lo, hi]``: every cut-off
    in (lo, hi] flags the same evaluated cases; ``pc_interval``: the PC(+) range over which the
    choice stays the cheapest; ``mix``: for a randomised criterion choice ``{thresholds,
    weight_first}``; ``runner_up``: the next-best other classifier, with the paired bootstrap test
    against it where one was computed; ``at_priors``: for a criterion, prior -> its cost there;
    ``cost_per_case``: ``{value, interval, unit, cost_fn, cost_fp, p_positive}`` for a prior
    with costs in units. ``ties``: other classifiers exactly as good.
    """

    basis: str  # "prior" or "criterion"
    kind: str  # point | neyman_pearson | workforce | performance_independent
    classifier: str | None
    threshold: float | None
    threshold_interval: tuple[float, float] | None
    fpr: float | None
    tpr: float | None
    pc: float | None = None
    pc_interval: tuple[float, float] | None = None
    expected_cost: float | None = None
    expected_cost_interval: tuple[float, float] | None = None
    mix: dict | None = None
    flagged: float | None = None
    runner_up: dict | None = None
    cost_per_case: dict | None = None
    at_priors: dict | None = None
    ties: tuple[str, ...] = ()
    note: str = ""

    def to_dict(self) -> dict:
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None or (f.name in ("ties", "note") and not value):
                continue
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, eq=False)
class DecisionsResult:
    """The decision box of a dataset: point prior name -> Decision, criterion name -> Decision."""

    priors: dict[str, Decision]
    criteria: dict[str, Decision]

    def to_dict(self) -> dict:
        return {"priors": _dicts(self.priors), "criteria": _dicts(self.criteria)}


def _dict_or_none(value):
    return None if value is None else value.to_dict()


def _dicts(mapping):
    return {k: v.to_dict() for k, v in mapping.items()}


def _list_of_dicts(items):
    return [v.to_dict() for v in items]


@dataclass(frozen=True, eq=False)
class ClassifierResult:
    """One classifier on one dataset (D&H 2006 sections 3-4.2)."""

    name: str
    kind: str  # "scores" or "crisp"
    auc: float
    roc_fpr: np.ndarray  # ROC points (Fawcett Alg. 1), from (0,0) to (1,1)
    roc_tpr: np.ndarray
    hull_fpr: np.ndarray  # ROC convex hull vertices
    hull_tpr: np.ndarray
    envelope_pc: np.ndarray  # lower envelope vertices, (0,0) ... (1,0)
    envelope_nec: np.ndarray
    operating_range: tuple[float, float] | None
    expected_cost: dict[str, float]  # prior name -> expected normalized cost of the envelope
    cost_line: tuple[float, float] | None = None  # crisp: (nec at pc=0, nec at pc=1) = (fpr, fnr)
    band: Band | None = None  # bootstrap band (with ``bootstrap`` > 0)
    expected_cost_interval: dict[str, ExpectedCostInterval] | None = None  # prior -> interval
    fold_average: FoldAverageResult | None = None  # with a fold column
    threshold_choice: ThresholdChoiceResult | None = None  # HFF 2013 threshold choice methods
    auc_hull: float | None = None  # area under the ROC convex hull
    instance_costs: InstanceCosts | None = None  # datasets with ``costs`` (Fawcett 2006)
    selection: SelectionResult | None = None  # thresholds, criteria, out-of-fold (issue 11)

    def to_dict(self) -> dict:
        out = {
            "kind": self.kind,
            "auc": self.auc,
            "roc_points": _pairs(self.roc_fpr, self.roc_tpr),
            "roc_hull": _pairs(self.hull_fpr, self.hull_tpr),
            "lower_envelope": _pairs(self.envelope_pc, self.envelope_nec),
            "operating_range": _interval(self.operating_range),
            "expected_cost": dict(self.expected_cost),
        }
        if self.cost_line is not None:
            out["cost_line"] = list(self.cost_line)
        if self.band is not None:
            out["band"] = self.band.to_dict()
        if self.expected_cost_interval is not None:
            out["expected_cost_interval"] = _dicts(self.expected_cost_interval)
        if self.fold_average is not None:
            out["fold_average"] = self.fold_average.to_dict()
        if self.threshold_choice is not None:
            out["threshold_choice"] = self.threshold_choice.to_dict()
        if self.auc_hull is not None:
            out["auc_hull"] = self.auc_hull
        if self.instance_costs is not None:
            out["instance_costs"] = self.instance_costs.to_dict()
        if self.selection is not None:
            out.update(self.selection.to_dict())
        return out


@dataclass(frozen=True, eq=False)
class ComparisonResult:
    """Classifier ``a`` against ``b`` on one dataset (D&H 2006 sections 4.3-4.4)."""

    a: str
    b: str
    difference_pc: np.ndarray  # vertices of a - b (negative where a is cheaper)
    difference: np.ndarray
    crossovers: tuple[float, ...]
    a_better: tuple[tuple[float, float], ...]
    b_better: tuple[tuple[float, float], ...]
    ties: tuple[tuple[float, float], ...]
    max_difference: tuple[float, float]  # (pc, a - b) at the largest |a - b|
    a_max_advantage: tuple[float, float]
    b_max_advantage: tuple[float, float]
    expected_cost_difference: dict[str, float]  # prior -> E[a] - E[b]
    difference_band: DifferenceBand | None = None  # pointwise paired bootstrap band (with ``bootstrap`` > 0)
    significant: tuple[SignificantRegion, ...] | None = None  # from the family-wise test only
    expected_cost_difference_interval: dict[str, ExpectedCostDifferenceInterval] | None = None  # with p_holm
    family_wise: FamilyWiseResult | None = None  # the max-statistic test over PC(+) (issue 10)
    threshold_choice: ThresholdChoiceComparison | None = None  # paired threshold-choice area differences
    instance_costs: InstanceCostComparisonResult | None = None  # datasets with ``costs``

    @property
    def key(self) -> str:
        return f"{self.a} vs {self.b}"

    def to_dict(self) -> dict:
        out = {
            "a": self.a,
            "b": self.b,
            "crossovers": list(self.crossovers),
            "a_better": [list(iv) for iv in self.a_better],
            "b_better": [list(iv) for iv in self.b_better],
            "ties": [list(iv) for iv in self.ties],
            "max_difference": {"pc": self.max_difference[0], "a_minus_b": self.max_difference[1]},
            "a_max_advantage": {"pc": self.a_max_advantage[0], "b_minus_a": self.a_max_advantage[1]},
            "b_max_advantage": {"pc": self.b_max_advantage[0], "a_minus_b": self.b_max_advantage[1]},
            "difference_curve": _pairs(self.difference_pc, self.difference),
            "expected_cost_difference": dict(self.expected_cost_difference),
        }
        if self.difference_band is not None:
            out["difference_band"] = self.difference_band.to_dict()
        if self.significant is not None:
            out["significant"] = _list_of_dicts(self.significant)
        if self.expected_cost_difference_interval is not None:
            out["expected_cost_difference_interval"] = _dicts(self.expected_cost_difference_interval)
        if self.family_wise is not None:
            out["family_wise"] = self.family_wise.to_dict()
        if self.threshold_choice is not None:
            out["threshold_choice"] = self.threshold_choice.to_dict()
        if self.instance_costs is not None:
            out["instance_costs"] = self.instance_costs.to_dict()
        return out


@dataclass(frozen=True, eq=False)
class DatasetResult:
    name: str
    path: str  # as given in the manifest, relative to the project
    sha256: str
    n_pos: int
    n_neg: int
    positive_label: str
    negative_label: str
    n_folds: int | None
    classifiers: dict[str, ClassifierResult]
    comparisons: dict[str, ComparisonResult]
    priors: tuple[str, ...]  # the priors that apply to this dataset (manifest order); not in results.json
    narrative_markdown: str | None = None
    hybrid: HybridResult | None = None  # the dataset hybrid (issue 11)
    decisions: DecisionsResult | None = None  # the decision box (issue 11)
    # prior -> E[min(PC(+), 1 - PC(+))], the best trivial classifier's expected cost (D&H 2006
    # section 4.2): the baseline row of the expected-cost tables; not in results.json
    trivial_expected_cost: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict:
        out = {
            "path": self.path,
            "sha256": self.sha256,
            "n_pos": self.n_pos,
            "n_neg": self.n_neg,
            "positive_label": self.positive_label,
            "negative_label": self.negative_label,
            "n_folds": self.n_folds,
            "classifiers": {c.name: c.to_dict() for c in self.classifiers.values()},
            "comparisons": {m.key: m.to_dict() for m in self.comparisons.values()},
        }
        if self.hybrid is not None:
            out["hybrid"] = self.hybrid.to_dict()
        if self.decisions is not None:
            out["decisions"] = self.decisions.to_dict()
        return out


@dataclass(frozen=True, eq=False)
class InputFile:
    path: str
    sha256: str
    role: str  # manifest | data | narrative


@dataclass(frozen=True)
class ProvenanceFile:
    """A file that shaped the output: its path relative to the manifest's folder (posix, ``../``
    when outside it), SHA-256, size in bytes and role (manifest, data, narrative, template, theme)."""

    path: str
    sha256: str
    size: int
    role: str

    def to_dict(self) -> dict:
        return {"path": self.path, "sha256": self.sha256, "size": self.size, "role": self.role}


@dataclass(frozen=True)
class Provenance:
    """Where a build came from (``results.json``'s ``provenance``): its date and the date's source
    (``SOURCE_DATE_EPOCH``, ``manifest`` or ``build time``, see :mod:`ccreport.build_date`), the
    ccreport that built it (version; commit and tree state when run from a git checkout), Python
    and the operating system, and every file that shaped the output. How the build was invoked
    (command line, workers) is not here: it differs between runs that give the same bytes, so it
    goes to ``invocation.json`` beside results.json."""

    date: str  # ISO 8601, UTC: 2024-05-01T00:00:00Z
    date_source: str
    ccreport: dict[str, str | None]  # version, commit (None: not a checkout), tree
    platform: dict[str, str]  # python, implementation, os
    files: tuple[ProvenanceFile, ...]

    def to_dict(self) -> dict:
        return {
            "date": self.date,
            "date_source": self.date_source,
            "ccreport": dict(self.ccreport),
            "platform": dict(self.platform),
            "files": [f.to_dict() for f in self.files],
        }


@dataclass(frozen=True, eq=False)
class Results:
    title: str
    generator: str  # "ccreport X.Y.Z"
    versions: dict[str, str]  # library versions used
    settings: AnalysisSettings  # seed, confidence, bootstrap, band, calibration
    inputs: tuple[InputFile, ...]
    priors: dict[str, PriorResult]
    datasets: dict[str, DatasetResult]
    manifest_text: str
    narrative_markdown: str | None = None
    schema_version: str = SCHEMA_VERSION
    provenance: Provenance | None = None  # set by the build (None: results computed outside a build)

    @property
    def seed(self) -> int:
        return self.settings.seed

    # --- for notebooks (docs/notebook.md) ---

    def to_json(self) -> str:
        """``results.json``: the same text ``ccreport build`` writes."""
        return results_to_json(self)

    def table(self, kind: str = "expected_cost"):
        """One table of the results as a pandas DataFrame (pandas must be installed).

        ``kind``: one of :data:`TABLE_KINDS` - ``"expected_cost"`` (a row per dataset and
        classifier, a column per prior, with the bootstrap interval's ``lower``/``upper`` when
        computed), ``"classifiers"`` (kind, AUC, operating range) or ``"comparisons"``
        (crossovers, largest difference, expected-cost difference per prior).
        """
        try:
            import pandas
        except ImportError:
            raise ImportError("Results.table needs pandas: pip install pandas (or use Results.to_json())") from None
        if kind not in TABLE_KINDS:
            raise ValueError(f"Results.table: kind {kind!r}; expected one of {', '.join(TABLE_KINDS)}")
        records = [row for d in self.datasets.values() for row in TABLE_KINDS[kind](d)]
        index = ["dataset", "classifier"] if kind != "comparisons" else ["dataset", "a", "b"]
        return pandas.DataFrame.from_records(records, columns=None).set_index(index) if records else pandas.DataFrame()

    def _repr_html_(self) -> str:
        """A compact summary for Jupyter: per dataset, each classifier's AUC, operating range and
        expected costs (with their bootstrap intervals when computed)."""
        import html

        e = html.escape
        parts = [f"<div><strong>{e(self.title)}</strong> <small>({e(self.generator)}; seed {self.seed}, "
                 + ", ".join(f"{k} {e(str(v))}" for k, v in self.settings.to_dict().items()) + ")</small>"]
        for d in self.datasets.values():
            priors = list(d.priors)
            head = "".join(f"<th>E[nec] {e(p)}</th>" for p in priors)
            parts.append(f"<p>{e(d.name)}: {d.n_pos} positive ({e(d.positive_label)}), {d.n_neg} negative</p>"
                         f"<table><tr><th>classifier</th><th>AUC</th><th>operating range</th>{head}</tr>")
            for c in d.classifiers.values():
                rng = "none" if c.operating_range is None else f"{c.operating_range[0]:.3f} to {c.operating_range[1]:.3f}"
                cells = "".join(f"<td>{_with_interval(c, p)}</td>" for p in priors)
                parts.append(f"<tr><td>{e(c.name)}{' (crisp)' if c.kind == 'crisp' else ''}</td><td>{c.auc:.3f}</td><td>{rng}</td>{cells}</tr>")
            parts.append("</table>")
        return "".join(parts) + "</div>"


def classifier_names(results: Results) -> list[str]:
    """The union of classifier names in Results order (first dataset first, then new names)."""
    names: dict[str, None] = {}
    for d in results.datasets.values():
        for name in d.classifiers:
            names.setdefault(name, None)
    return list(names)


def dataset_priors(results: Results, dataset: DatasetResult) -> dict[str, PriorResult]:
    """The priors that apply to a dataset (``DatasetResult.priors``, recorded by the build), in order.

    A manifest can restrict a prior to some datasets; the battery then leaves it out of that
    dataset's expected costs.
    """
    return {name: results.priors[name] for name in dataset.priors}


# --- JSON -------------------------------------------------------------------------------------


def _clean(value):
    """Recursively turn numpy values into JSON-ready Python values; NaN/inf become None."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, np.ndarray):
        return _clean(value.tolist())
    if isinstance(value, (np.floating, float)):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def _pairs(x, y) -> list[list[float]]:
    return np.column_stack([x, y]).tolist()


def _interval(iv):
    return None if iv is None else list(iv)


def results_to_dict(r: Results) -> dict:
    return _clean(
        {
            "schema_version": r.schema_version,
            "generator": r.generator,
            "title": r.title,
            "seed": r.seed,
            "settings": r.settings.to_dict(),
            "versions": r.versions,
            "inputs": [{"path": i.path, "sha256": i.sha256, "role": i.role} for i in r.inputs],
            "priors": {
                p.name: {"kind": p.kind, "params": p.params, "description": p.description} for p in r.priors.values()
            },
            "datasets": {d.name: d.to_dict() for d in r.datasets.values()},
            **({} if r.provenance is None else {"provenance": r.provenance.to_dict()}),
        }
    )


def results_to_json(r: Results) -> str:
    return json.dumps(results_to_dict(r), indent=1, ensure_ascii=False, allow_nan=False) + "\n"


# --- tables for notebooks (Results.table) -----------------------------------------------------------


def _with_interval(c: ClassifierResult, prior: str) -> str:
    value = c.expected_cost.get(prior)
    if value is None:
        return ""
    iv = (c.expected_cost_interval or {}).get(prior)
    return f"{value:.4f}" + ("" if iv is None else f" [{iv.lower:.4f}, {iv.upper:.4f}]")


def _expected_cost_rows(d: DatasetResult) -> list[dict]:
    rows = []
    for c in d.classifiers.values():
        row = {"dataset": d.name, "classifier": c.name}
        for prior, value in c.expected_cost.items():
            row[prior] = value
            iv = (c.expected_cost_interval or {}).get(prior)
            if iv is not None:
                row[f"{prior} lower"], row[f"{prior} upper"] = iv.lower, iv.upper
        rows.append(row)
    return rows


def _classifier_rows(d: DatasetResult) -> list[dict]:
    return [
        {"dataset": d.name, "classifier": c.name, "kind": c.kind, "auc": c.auc,
         "range_lo": None if c.operating_range is None else c.operating_range[0],
         "range_hi": None if c.operating_range is None else c.operating_range[1]}
        for c in d.classifiers.values()
    ]


def _comparison_rows(d: DatasetResult) -> list[dict]:
    rows = []
    for m in d.comparisons.values():
        row = {"dataset": d.name, "a": m.a, "b": m.b, "crossovers": tuple(m.crossovers),
               "max_difference_pc": m.max_difference[0], "max_difference": m.max_difference[1]}
        row.update({f"E[a - b] {p}": v for p, v in m.expected_cost_difference.items()})
        rows.append(row)
    return rows


TABLE_KINDS = {"expected_cost": _expected_cost_rows, "classifiers": _classifier_rows, "comparisons": _comparison_rows}
