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
    """A paired bootstrap band of the difference a - b of two cost curves (D&H 2006 section 4.7).

    ``significance_band``: which edges ("pointwise" or "simultaneous") decide the significant regions.
    """

    level: float
    replicates: int
    method: str
    pc: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    estimate: np.ndarray | None = None
    target: str | None = None
    simultaneous: SimultaneousBand | None = None
    significance_band: str = "pointwise"

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "replicates": self.replicates,
            "method": self.method,
            "target": self.target,
            "pc": self.pc,
            "estimate": self.estimate,
            "lower": self.lower,
            "upper": self.upper,
            "simultaneous": _dict_or_none(self.simultaneous),
            "significance_band": self.significance_band,
        }


@dataclass(frozen=True, eq=False)
class SignificantRegion:
    """A PC(+) interval where the band of a - b excludes 0; ``better`` names the cheaper classifier."""

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

    def to_dict(self) -> dict:
        return {
            "difference": self.difference,
            "lower": self.lower,
            "upper": self.upper,
            "p_value": self.p_value,
            "p_value_method": self.p_value_method,
        }


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
    difference_band: DifferenceBand | None = None  # paired bootstrap (with ``bootstrap`` > 0)
    significant: tuple[SignificantRegion, ...] | None = None  # from the difference band's chosen edges
    expected_cost_difference_interval: dict[str, ExpectedCostDifferenceInterval] | None = None
    significant_simultaneous: tuple[SignificantRegion, ...] | None = None  # band = "both": sup-norm edges

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
        if self.significant_simultaneous is not None:
            out["significant_simultaneous"] = _list_of_dicts(self.significant_simultaneous)
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
    # prior -> E[min(PC(+), 1 - PC(+))], the best trivial classifier's expected cost (D&H 2006
    # section 4.2): the baseline row of the expected-cost tables; not in results.json
    trivial_expected_cost: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
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


@dataclass(frozen=True, eq=False)
class InputFile:
    path: str
    sha256: str
    role: str  # manifest | data | narrative


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

    @property
    def seed(self) -> int:
        return self.settings.seed


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
        }
    )


def results_to_json(r: Results) -> str:
    return json.dumps(results_to_dict(r), indent=1, ensure_ascii=False, allow_nan=False) + "\n"
