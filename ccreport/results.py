"""The Results of a build: frozen dataclasses, and their JSON form (``results.json``).

Everything downstream (figures, pages, the PDF) reads these objects and nothing else. The JSON form
is versioned by ``SCHEMA_VERSION``; ``docs/results-schema.md`` documents every key. Serialisation is
deterministic: keys in manifest order, floats as Python's shortest round-trip repr, so the same
inputs and seed give the same bytes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

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
    extra: dict[str, Any] = field(default_factory=dict)  # later analyses (bands, fold averages, ...)


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
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.a} vs {self.b}"


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
    narrative_markdown: str | None = None


@dataclass(frozen=True, eq=False)
class InputFile:
    path: str
    sha256: str
    role: str  # manifest | data | narrative


@dataclass(frozen=True, eq=False)
class Results:
    title: str
    seed: int
    generator: str  # "ccreport X.Y.Z"
    versions: dict[str, str]  # library versions used
    settings: dict[str, Any]  # confidence, bootstrap, band, ...
    inputs: tuple[InputFile, ...]
    priors: dict[str, PriorResult]
    datasets: dict[str, DatasetResult]
    manifest_text: str
    narrative_markdown: str | None = None
    schema_version: str = SCHEMA_VERSION


def classifier_names(results: Results) -> list[str]:
    """The union of classifier names in Results order (first dataset first, then new names)."""
    names: dict[str, None] = {}
    for d in results.datasets.values():
        for name in d.classifiers:
            names.setdefault(name, None)
    return list(names)


def dataset_priors(results: Results, dataset: DatasetResult) -> dict[str, PriorResult]:
    """The priors that apply to a dataset (those its expected costs were computed under), in order.

    A manifest can restrict a prior to some datasets; the battery then leaves it out of that
    dataset's expected costs.
    """
    used = {p for c in dataset.classifiers.values() for p in c.expected_cost}
    return {name: p for name, p in results.priors.items() if name in used}


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


def classifier_to_dict(c: ClassifierResult) -> dict:
    out = {
        "kind": c.kind,
        "auc": c.auc,
        "roc_points": _pairs(c.roc_fpr, c.roc_tpr),
        "roc_hull": _pairs(c.hull_fpr, c.hull_tpr),
        "lower_envelope": _pairs(c.envelope_pc, c.envelope_nec),
        "operating_range": _interval(c.operating_range),
        "expected_cost": dict(c.expected_cost),
    }
    if c.cost_line is not None:
        out["cost_line"] = list(c.cost_line)
    out.update(c.extra)
    return out


def comparison_to_dict(m: ComparisonResult) -> dict:
    out = {
        "a": m.a,
        "b": m.b,
        "crossovers": list(m.crossovers),
        "a_better": [list(iv) for iv in m.a_better],
        "b_better": [list(iv) for iv in m.b_better],
        "ties": [list(iv) for iv in m.ties],
        "max_difference": {"pc": m.max_difference[0], "a_minus_b": m.max_difference[1]},
        "a_max_advantage": {"pc": m.a_max_advantage[0], "b_minus_a": m.a_max_advantage[1]},
        "b_max_advantage": {"pc": m.b_max_advantage[0], "a_minus_b": m.b_max_advantage[1]},
        "difference_curve": _pairs(m.difference_pc, m.difference),
        "expected_cost_difference": dict(m.expected_cost_difference),
    }
    out.update(m.extra)
    return out


def results_to_dict(r: Results) -> dict:
    return _clean(
        {
            "schema_version": r.schema_version,
            "generator": r.generator,
            "title": r.title,
            "seed": r.seed,
            "settings": r.settings,
            "versions": r.versions,
            "inputs": [{"path": i.path, "sha256": i.sha256, "role": i.role} for i in r.inputs],
            "priors": {
                p.name: {"kind": p.kind, "params": p.params, "description": p.description} for p in r.priors.values()
            },
            "datasets": {
                d.name: {
                    "path": d.path,
                    "sha256": d.sha256,
                    "n_pos": d.n_pos,
                    "n_neg": d.n_neg,
                    "positive_label": d.positive_label,
                    "negative_label": d.negative_label,
                    "n_folds": d.n_folds,
                    "classifiers": {c.name: classifier_to_dict(c) for c in d.classifiers.values()},
                    "comparisons": {m.key: comparison_to_dict(m) for m in d.comparisons.values()},
                }
                for d in r.datasets.values()
            },
        }
    )


def results_to_json(r: Results) -> str:
    return json.dumps(results_to_dict(r), indent=1, ensure_ascii=False, allow_nan=False) + "\n"
