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

import contextlib
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..project.naming import stem
from ..project.settings import AnalysisSettings
from . import curves, json_text
from .bands import (
    Band,
    DifferenceBand,
    ExpectedCostDifferenceInterval,
    ExpectedCostInterval,
    FamilyWiseResult,
    FoldAverageResult,
    SignificantRegion,
)
from .comparisons import ComparisonChoice
from .convert import (
    clean,
    dicts,
    envelope_comparison_dict,
    interval_list,
    list_of_dicts,
    pairs_list,
)
from .instance_costs import InstanceCostComparisonResult, InstanceCosts
from .json_text import write_json
from .selection import DecisionsResult, HybridBand, HybridResult, SelectionResult
from .tables import TABLE_KINDS, with_interval
from .threshold_choice import ThresholdChoiceComparison, ThresholdChoiceResult

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
    band: Band | None = None  # bootstrap band (with ``bootstrap`` > 0)
    expected_cost_interval: dict[str, ExpectedCostInterval] | None = None  # prior -> interval
    fold_average: FoldAverageResult | None = None  # with a fold column
    threshold_choice: ThresholdChoiceResult | None = None  # HFF 2013 threshold choice methods
    auc_hull: float | None = None  # area under the ROC convex hull
    instance_costs: InstanceCosts | None = None  # datasets with ``costs`` (Fawcett 2006)
    selection: SelectionResult | None = None  # thresholds, criteria, out-of-fold

    def to_dict(self, files: str = "") -> dict:
        """The JSON form; ``files``: the folder (relative to results.json) of this classifier's side
        files, for curves too long to store whole (:mod:`.curves`)."""
        thresholds = None if self.selection is None else np.asarray(self.selection.thresholds)
        aligned = thresholds is not None and thresholds.size == np.asarray(self.roc_fpr).size
        roc_points, roc_full, keep = curves.stored(
            self.roc_fpr,
            self.roc_tpr,
            f"{files}/roc.parquet".lstrip("/"),
            ("fpr", "tpr"),
            extra={"threshold": thresholds} if aligned else None,
            forced=(self.hull_fpr, self.hull_tpr),
        )
        out = {
            "kind": self.kind,
            "auc": self.auc,
            "roc_points": roc_points,
            **({} if roc_full is None else {"roc_points_full": roc_full}),
            "roc_hull": pairs_list(self.hull_fpr, self.hull_tpr),
            "lower_envelope": pairs_list(self.envelope_pc, self.envelope_nec),
            "operating_range": interval_list(self.operating_range),
            "expected_cost": dict(self.expected_cost),
        }
        if self.cost_line is not None:
            out["cost_line"] = list(self.cost_line)
        if self.band is not None:
            out["band"] = self.band.to_dict()
        if self.expected_cost_interval is not None:
            out["expected_cost_interval"] = dicts(self.expected_cost_interval)
        if self.fold_average is not None:
            out["fold_average"] = self.fold_average.to_dict()
        if self.threshold_choice is not None:
            out["threshold_choice"] = self.threshold_choice.to_dict()
        if self.auc_hull is not None:
            out["auc_hull"] = self.auc_hull
        if self.instance_costs is not None:
            out["instance_costs"] = self.instance_costs.to_dict()
        if self.selection is not None:
            selection = self.selection.to_dict()
            if keep is not None and aligned:  # thinned with the ROC points they align with
                selection["thresholds"] = thresholds[keep]
            out.update(selection)
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
    difference_band: DifferenceBand | None = (
        None  # pointwise paired bootstrap band (with ``bootstrap`` > 0)
    )
    significant: tuple[SignificantRegion, ...] | None = None  # from the family-wise test only
    expected_cost_difference_interval: dict[str, ExpectedCostDifferenceInterval] | None = (
        None  # with p_holm
    )
    family_wise: FamilyWiseResult | None = None  # the max-statistic test over PC(+)
    threshold_choice: ThresholdChoiceComparison | None = (
        None  # paired threshold-choice area differences
    )
    instance_costs: InstanceCostComparisonResult | None = None  # datasets with ``costs``

    @property
    def key(self) -> str:
        return f"{self.a} vs {self.b}"

    def to_dict(self) -> dict:
        out = {
            "a": self.a,
            "b": self.b,
            **envelope_comparison_dict(self),
            "expected_cost_difference": dict(self.expected_cost_difference),
        }
        if self.difference_band is not None:
            out["difference_band"] = self.difference_band.to_dict()
        if self.significant is not None:
            out["significant"] = list_of_dicts(self.significant)
        if self.expected_cost_difference_interval is not None:
            out["expected_cost_difference_interval"] = dicts(self.expected_cost_difference_interval)
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
    priors: tuple[
        str, ...
    ]  # the priors that apply to this dataset (manifest order); not in results.json
    narrative_markdown: str | None = None
    hybrid: HybridResult | None = None  # the dataset hybrid
    decisions: DecisionsResult | None = None  # the decision box
    hybrid_band: HybridBand | None = None  # the hybrid's band, criterion intervals, tests
    # prior -> E[min(PC(+), 1 - PC(+))], the best trivial classifier's expected cost (D&H 2006
    # section 4.2): the baseline row of the expected-cost tables; not in results.json
    trivial_expected_cost: dict[str, float] = field(default_factory=dict)
    comparison_choice: ComparisonChoice | None = None  # which pairs were compared and why

    def to_dict(self) -> dict:
        out = {
            "path": self.path,
            "sha256": self.sha256,
            "n_pos": self.n_pos,
            "n_neg": self.n_neg,
            "positive_label": self.positive_label,
            "negative_label": self.negative_label,
            "n_folds": self.n_folds,
            "classifiers": {
                c.name: c.to_dict(f"{curves.FOLDER}/{stem(self.name)}/{stem(c.name)}")
                for c in self.classifiers.values()
            },
            "comparisons": {m.key: m.to_dict() for m in self.comparisons.values()},
        }
        if self.hybrid is not None:
            out["hybrid"] = self.hybrid.to_dict()
        if self.hybrid_band is not None:
            add_hybrid_band(out, self.hybrid_band)
        if self.decisions is not None:
            out["decisions"] = self.decisions.to_dict()
        if self.comparison_choice is not None:
            out["comparison_choice"] = self.comparison_choice.to_dict()
        return out


def add_hybrid_band(out: dict, band: HybridBand) -> None:
    """``hybrid.band`` and, beside each criterion result, its ``expected_cost_interval`` (prior ->
    {estimate, lower, upper}); ``hybrid.criteria.<name>``: the dataset choice's."""
    out.setdefault("hybrid", {})["band"] = band.to_dict()
    for name, found in band.inference.criteria.items():
        for who in found:
            if who == "dataset_classifier":
                continue
            interval = band.criterion_intervals(name, who)
            if who == "dataset":
                out["hybrid"].setdefault("criteria", {})[name] = {
                    "classifier": found["dataset_classifier"],
                    "expected_cost_interval": interval,
                }
                continue
            entry = out["classifiers"].get(who, {}).get("criteria", {}).get(name)
            if isinstance(entry, dict):
                entry["expected_cost_interval"] = interval


@dataclass(frozen=True, eq=False)
class InputFile:
    path: str
    sha256: str
    role: str  # manifest | data | narrative


@dataclass(frozen=True)
class ProvenanceFile:
    """A file that shaped the output: its path relative to the manifest's folder (posix, ``../``
    when outside it), SHA-256, size in bytes and role (manifest, data, narrative, template,
    theme)."""

    path: str
    sha256: str
    size: int
    role: str

    def to_dict(self) -> dict:
        return {"path": self.path, "sha256": self.sha256, "size": self.size, "role": self.role}


@dataclass(frozen=True)
class Provenance:
    """Where a build came from (``results.json``'s ``provenance``): its date and the date's source
    (``SOURCE_DATE_EPOCH``, ``manifest`` or ``build time``, see :mod:`ccreport.runtime.build_date`),
    the ccreport that built it (version; commit and tree state when run from a git checkout), Python
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
    provenance: Provenance | None = (
        None  # set by the build (None: results computed outside a build)
    )

    @property
    def seed(self) -> int:
        return self.settings.seed

    # --- for notebooks (docs/notebook.md) ---

    def to_json(self) -> str:
        """``results.json``: the same text ``ccreport build`` writes."""
        return results_to_json(self)

    def write_json(self, path) -> str:
        """Write ``results.json`` at ``path`` with the Parquet side files of its thinned curves
        beside it (:mod:`ccreport.results.curves`), as ``ccreport build`` does; returns its
        SHA-256."""
        return write_results_json(self, Path(path))

    def table(self, kind: str = "expected_cost"):
        """One table of the results as a pandas DataFrame (pandas must be installed).

        ``kind``: one of :data:`ccreport.results.tables.TABLE_KINDS` - ``"expected_cost"`` (a row
        per dataset and classifier, a column per prior, with the bootstrap interval's
        ``lower``/``upper`` when computed), ``"classifiers"`` (kind, AUC, operating range) or
        ``"comparisons"`` (crossovers, largest difference, expected-cost difference per prior).
        """
        try:
            import pandas
        except ImportError:
            raise ImportError(
                "Results.table needs pandas: pip install pandas (or use Results.to_json())"
            ) from None
        if kind not in TABLE_KINDS:
            raise ValueError(
                f"Results.table: kind {kind!r}; expected one of {', '.join(TABLE_KINDS)}"
            )
        records = [row for d in self.datasets.values() for row in TABLE_KINDS[kind](d)]
        index = ["dataset", "classifier"] if kind != "comparisons" else ["dataset", "a", "b"]
        return (
            pandas.DataFrame.from_records(records, columns=None).set_index(index)
            if records
            else pandas.DataFrame()
        )

    def _repr_html_(self) -> str:
        """A compact summary for Jupyter: per dataset, each classifier's AUC, operating range and
        expected costs (with their bootstrap intervals when computed)."""
        import html

        e = html.escape
        parts = [
            f"<div><strong>{e(self.title)}</strong> <small>({e(self.generator)}; seed {self.seed}, "
            + ", ".join(f"{k} {e(str(v))}" for k, v in self.settings.to_dict().items())
            + ")</small>"
        ]
        for d in self.datasets.values():
            priors = list(d.priors)
            head = "".join(f"<th>E[nec] {e(p)}</th>" for p in priors)
            parts.append(
                f"<p>{e(d.name)}: {d.n_pos} positive ({e(d.positive_label)}), {d.n_neg} "
                "negative</p><table><tr><th>classifier</th><th>AUC</th><th>operating "
                f"range</th>{head}</tr>"
            )
            for c in d.classifiers.values():
                rng = (
                    "none"
                    if c.operating_range is None
                    else f"{c.operating_range[0]:.3f} to {c.operating_range[1]:.3f}"
                )
                cells = "".join(f"<td>{with_interval(c, p)}</td>" for p in priors)
                parts.append(
                    f"<tr><td>{e(c.name)}{' (crisp)' if c.kind == 'crisp' else ''}</td>"
                    f"<td>{c.auc:.3f}</td><td>{rng}</td>{cells}</tr>"
                )
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
    """The priors that apply to a dataset (``DatasetResult.priors``, recorded by the build), in
    order.

    A manifest can restrict a prior to some datasets; the battery then leaves it out of that
    dataset's expected costs.
    """
    return {name: results.priors[name] for name in dataset.priors}


# --- JSON -------------------------------------------------------------------------------------


def results_to_dict(r: Results) -> dict:
    return clean(
        {
            "schema_version": r.schema_version,
            "generator": r.generator,
            "title": r.title,
            "seed": r.seed,
            "settings": r.settings.to_dict(),
            "versions": r.versions,
            "inputs": [{"path": i.path, "sha256": i.sha256, "role": i.role} for i in r.inputs],
            "priors": {
                p.name: {"kind": p.kind, "params": p.params, "description": p.description}
                for p in r.priors.values()
            },
            "datasets": {d.name: d.to_dict() for d in r.datasets.values()},
            **({} if r.provenance is None else {"provenance": r.provenance.to_dict()}),
        }
    )


def results_to_json(r: Results) -> str:
    """``results.json`` as one string (side files hashed, not written; :func:`write_results_json`
    writes the same bytes to a file without holding them): ``json.dumps(indent=1,
    ensure_ascii=False)`` of :func:`results_to_dict`, by :mod:`.json_text`."""
    return json_text.dumps(results_to_dict(r)) + "\n"


class _Fanout:
    """A text sink for :func:`.json_text.write_json`: its chunks UTF-8 encoded in blocks of about 1
    MB into the SHA-256s it is routed to (:meth:`route`) and, while routed there, a binary file."""

    BLOCK = 1 << 20

    def __init__(self, target=None):
        self.target = target
        self.hashes: tuple = ()
        self.to_file = False
        self.parts: list[str] = []
        self.size = 0

    def route(self, *hashes, to_file: bool = True) -> None:
        self.flush()
        self.hashes, self.to_file = hashes, to_file

    def write(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size >= self.BLOCK:
            self.flush()

    def flush(self) -> None:
        data = "".join(self.parts).encode("utf-8")
        self.parts, self.size = [], 0
        for h in self.hashes:
            h.update(data)
        if self.to_file and self.target is not None:
            self.target.write(data)


@dataclass(frozen=True)
class ResultsDigests:
    """SHA-256s of three texts, from one serialisation (:func:`results_json_digests`).

    ``text``: results.json as written (:func:`results_to_json`'s bytes). ``undated``: the
    results.json of the same results with provenance ``date`` and ``date_source`` blank
    (``ccreport.commands.build.undated``; equal to ``text`` without provenance): what an output
    dated by the clock is a function of. ``drawn``: the results.json of the same results without
    provenance and with no inputs: what the figures are drawn from
    (``ccreport.commands.build.figures_key``).
    """

    text: str
    undated: str
    drawn: str


def results_json_digests(r: Results, path: Path | None = None) -> ResultsDigests:
    """Stream ``results.json`` (the bytes of :func:`results_to_json`) to ``path``, with the Parquet
    side files of its thinned curves beside it (:mod:`.curves`), and return its digests
    (:class:`ResultsDigests`). ``path`` None: write nothing, only hash.

    The top-level members are encoded one by one (:func:`.json_text.write_json`, the text of
    ``json.dumps(indent=1, ensure_ascii=False)``), so the members the three texts share are encoded
    once and hashed into each of them."""
    with contextlib.ExitStack() as stack:
        target = None
        if path is not None:
            stack.enter_context(curves.writing_into(Path(path).parent))
            target = stack.enter_context(open(path, "wb"))
        data = results_to_dict(r)
        text, undated, drawn = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
        sink = _Fanout(target)

        def member(i: int, key: str, value, *hashes, to_file: bool = True) -> None:
            sink.route(*hashes, to_file=to_file)
            sink.write(("," if i else "") + "\n " + json.dumps(key, ensure_ascii=False) + ": ")
            write_json(value, sink.write, level=1)

        sink.route(text, undated, drawn)
        sink.write("{")
        for i, (key, value) in enumerate(data.items()):
            if key == "provenance":  # the last member (results_to_dict); the figures' text has none
                member(i, key, value, text)
                member(i, key, {**value, "date": "", "date_source": ""}, undated, to_file=False)
            elif key == "inputs":
                member(i, key, value, text, undated)
                member(i, key, [], drawn, to_file=False)
            else:
                member(i, key, value, text, undated, drawn)
        sink.route(text, undated, drawn)
        sink.write("\n}\n")
        sink.flush()
    return ResultsDigests(text.hexdigest(), undated.hexdigest(), drawn.hexdigest())


def write_results_json(r: Results, path: Path | None = None) -> str:
    """Stream ``results.json`` to ``path`` (None: only hash) and return its SHA-256
    (:func:`results_json_digests`)."""
    return results_json_digests(r, path).text
