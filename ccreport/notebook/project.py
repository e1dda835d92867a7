"""A project held in memory: the manifest text and data file ``ccreport build`` would read, and the
Project, Dataset and ProjectFiles the loaders would make of them.

:func:`notebook_project` checks a notebook's arrays and arguments (with the manifest's own readers
for the settings and priors) and renders them as a manifest and one CSV file. ``evaluate`` runs the
battery on it; ``write_project`` writes it to a folder. The arrays go into the Dataset as they are
(floats are written with Python's shortest round-trip repr, so reading the CSV file back gives the
same float64 values): results.json of ``evaluate`` is byte for byte that of ``ccreport build`` on
the folder ``write_project`` writes.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from ..analysis import priors as pr
from ..errors import Problem, UserInputError
from ..project.loaders import Dataset
from ..project.manifest import (
    MANIFEST_NAME,
    NAME_PATTERN,
    ClassifierSpec,
    CostSpec,
    DatasetSpec,
    PriorSpec,
    Project,
    check_classifier_names,
    read_arguments,
)
from ..project.project_files import ProjectFiles
from ..project.settings import AnalysisSettings, Comparisons
from ..results import InputFile
from . import arrays

LABEL_COLUMN = "y_true"
FOLD_COLUMN = "fold"
COST_COLUMN = "cost"  # the short form's one cost column
COST_COLUMNS = {
    cell: f"cost_{cell}" for cell in arrays.COST_CELLS
}  # the cost-benefit form's array cells
DEFAULT_TITLE = "Cost curves"
DEFAULT_DATASET = "data"


@dataclass(frozen=True, eq=False)
class NotebookProject:
    """A project in memory: what ``ccreport build`` would read (texts) and what it would load."""

    manifest_text: str
    data_text: str
    data_path: str  # relative to the project folder
    project: Project
    dataset: Dataset
    files: ProjectFiles


# --- priors as manifest tables ----------------------------------------------------------------


def _component(part) -> dict:
    """One side of an induced prior (``ccreport.analysis.priors.Fixed`` ...) as its manifest
    table."""
    if isinstance(part, pr.Fixed):
        return {"distribution": "point", "value": part.value}
    if isinstance(part, pr.Beta):
        return {"distribution": "beta", "a": part.a, "b": part.b}
    if isinstance(part, pr.LogUniform):
        return {"distribution": "loguniform", "low": part.low, "high": part.high}
    return {"distribution": "uniform", "low": part.low, "high": part.high}


def prior_table(prior) -> dict:
    """A prior as the table of its ``[[priors]]`` entry: a dict as given, or a ready Prior object
    (UniformPrior, BetaPrior, PointPrior, InducedPrior) turned into one."""
    if isinstance(prior, Mapping):
        return dict(prior)
    if isinstance(prior, pr.UniformPrior):
        return {"distribution": "uniform", "low": prior.low, "high": prior.high}
    if isinstance(prior, pr.BetaPrior):
        return {"distribution": "beta", "a": prior.a, "b": prior.b}
    if isinstance(prior, pr.PointPrior):
        return {"distribution": "point", "pc": prior.pc}
    if isinstance(prior, pr.InducedPrior):
        return {
            "distribution": "induced",
            "p_positive": _component(prior.p_positive),
            "cost_ratio": _component(prior.cost_ratio),
        }
    return prior  # read_arguments reports what it is


def _python_values(mapping: dict) -> dict:
    """numpy scalars as Python numbers (the manifest's readers check Python types)."""
    return {
        k: (
            v.item()
            if isinstance(v, np.generic)
            else _python_values(v)
            if isinstance(v, dict)
            else v
        )
        for k, v in mapping.items()
    }


# --- the texts --------------------------------------------------------------------------------


def toml_value(value) -> str:
    """A TOML literal for a string, number, boolean, array or (nested) table of those (a tuple of
    (name, value) pairs is a table, any other tuple or list an array)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if (
        isinstance(value, tuple)
        and value
        and all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) for v in value)
    ):
        value = dict(value)  # (key, value) pairs: a table
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def prior_entry(spec: PriorSpec) -> list[tuple[str, object]]:
    """The keys of a prior's ``[[priors]]`` entry that read back to ``spec`` (not both point
    forms)."""
    params = dict(spec.params)
    if spec.distribution == "point" and "p_positive" in params:
        params.pop("pc")
    return [("name", spec.name), ("distribution", spec.distribution), *sorted(params.items())]


def _plain_setting(value):
    """A setting as the manifest writes it (``comparisons``: its manifest form)."""
    return value.to_dict() if isinstance(value, Comparisons) else value


def manifest_text(
    title: str,
    settings: AnalysisSettings,
    dataset: DatasetSpec,
    data_path: str,
    classifiers: list[ClassifierSpec],
    priors: tuple[PriorSpec, ...],
) -> str:
    lines = [
        "# Written by ccreport.write_project from a notebook; `ccreport build` makes the report.",
        "",
        "[project]",
        f"title = {toml_value(title)}",
    ]
    lines += [
        f"{f.name} = {toml_value(_plain_setting(getattr(settings, f.name)))}"
        for f in fields(settings)
    ]
    lines += [
        "",
        "[[datasets]]",
        f"name = {toml_value(dataset.name)}",
        f"path = {toml_value(data_path)}",
        f"label = {toml_value(dataset.label)}",
        f"positive = {toml_value(dataset.positive)}",
    ]
    if dataset.fold is not None:
        lines.append(f"fold = {toml_value(dataset.fold)}")
    if dataset.costs is not None:
        lines.append(f"costs = {toml_value(cost_entry(dataset.costs))}")
    for c in classifiers:
        key = "scores" if c.scores is not None else "predictions"
        lines += [
            "",
            "[[classifiers]]",
            f"name = {toml_value(c.name)}",
            f"{key} = {toml_value(c.column)}",
        ]
    for spec in priors:
        lines += ["", "[[priors]]"] + [f"{k} = {toml_value(v)}" for k, v in prior_entry(spec)]
    return "\n".join(lines) + "\n"


def cost_entry(costs: CostSpec) -> str | dict:
    """The dataset's ``costs`` key: the short form (one column) or the cost-benefit table of the
    cells that are columns or non-zero numbers, and the unit (a zero cell is the manifest's
    default)."""
    if (
        isinstance(costs.fn, str)
        and costs.fn == costs.fp
        and costs.tp == costs.tn == 0.0
        and costs.unit is None
    ):
        return costs.fn
    entry = {
        key: cell
        for key, cell in zip(arrays.COST_CELLS, costs.cells())
        if isinstance(cell, str) or cell != 0.0
    }
    return entry if costs.unit is None else {**entry, "unit": costs.unit}


def _float_texts(values: np.ndarray) -> list[str]:
    return [
        repr(v) for v in values.tolist()
    ]  # shortest round-trip repr: read back, the same float64


def data_text(columns: dict[str, list[str]]) -> str:
    """The CSV file: a header row, then one row per instance."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(list(columns))
    writer.writerows(zip(*columns.values()))
    return out.getvalue()


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- the project ------------------------------------------------------------------------------


def notebook_project(
    source: str,
    y_true,
    scores=None,
    *,
    predictions=None,
    pos_label=None,
    priors=None,
    folds=None,
    costs=None,
    title: str = DEFAULT_TITLE,
    dataset: str = DEFAULT_DATASET,
    root: Path | None = None,
    **settings,
) -> NotebookProject:
    """Check a notebook's arrays and arguments and make the project ``ccreport build`` would read.

    ``source`` names the calling function in messages (``evaluate: bootstrap: ...``). Raises
    UserInputError.
    """
    analysis, prior_specs = read_arguments(
        source,
        _python_values(settings),
        None
        if priors is None
        else {
            name: _python_values(prior_table(p))
            if isinstance(prior_table(p), dict)
            else prior_table(p)
            for name, p in _prior_mapping(priors, source).items()
        },
    )
    if not isinstance(title, str) or not title.strip():
        raise UserInputError(
            Problem(
                source, "title", f"expected the report's title, a non-empty string, got {title!r}"
            )
        )
    if not isinstance(dataset, str) or not NAME_PATTERN.fullmatch(dataset):
        raise UserInputError(
            Problem(
                source,
                "dataset",
                f"expected a name of letters, digits, '_', '.' or '-', got {dataset!r}",
            )
        )
    labels, positive, negative = arrays.classes(y_true, pos_label, source)
    n = labels.size
    scored = arrays.named(scores, source, "scores")
    crisp = arrays.named(predictions, source, "predictions")
    if not scored and not crisp:
        raise UserInputError(
            Problem(
                source,
                "scores",
                'expected at least one classifier: scores={"name": scores} or '
                'predictions={"name": labels}',
            )
        )
    both = [name for name in scored if name in crisp]
    if both:
        raise UserInputError(
            Problem(
                source,
                "predictions",
                f"duplicate name; scores also has a classifier named {both[0]!r}",
            )
        )
    reserved = [
        name
        for name in (*scored, *crisp)
        if name in (LABEL_COLUMN, FOLD_COLUMN, COST_COLUMN, *COST_COLUMNS.values())
    ]
    if reserved:
        raise UserInputError(
            Problem(
                source,
                "scores" if reserved[0] in scored else "predictions",
                f"{reserved[0]!r} names a column of the data "
                "file; expected another classifier name",
            )
        )
    score_arrays = {
        name: arrays.scores(v, n, source, f"scores[{name!r}]") for name, v in scored.items()
    }
    crisp_arrays = {
        name: arrays.predictions(v, n, positive, negative, source, f"predictions[{name!r}]")
        for name, v in crisp.items()
    }
    fold_codes, fold_names = (None, ()) if folds is None else arrays.folds(folds, labels, source)
    cost_cells, cost_unit, instance_costs = None, None, None
    if isinstance(costs, Mapping):  # the manifest's cost-benefit form
        cost_cells, cost_unit, instance_costs = arrays.cost_matrix(costs, labels, source)
    elif costs is not None:  # one cost per instance: the short form
        instance_costs = arrays.costs(costs, labels, source)

    pos_text, neg_text = str(positive), str(negative)
    if (
        pos_text == neg_text
        or not pos_text.strip()
        or not neg_text.strip()
        or pos_text != pos_text.strip()
        or neg_text != neg_text.strip()
    ):
        raise UserInputError(
            Problem(
                source,
                "y_true",
                f"classes {positive!r} and {negative!r} "
                "cannot be told apart as text in a data file",
            )
        )
    columns = {LABEL_COLUMN: np.where(labels, pos_text, neg_text).tolist()}
    if fold_codes is not None:
        columns[FOLD_COLUMN] = np.array(fold_names, dtype=object)[fold_codes].tolist()
    if cost_cells is not None:
        columns.update(
            {
                COST_COLUMNS[key]: _float_texts(cell)
                for key, cell in cost_cells.items()
                if isinstance(cell, np.ndarray)
            }
        )
    elif instance_costs is not None:
        columns[COST_COLUMN] = _float_texts(instance_costs)
    for name, values in score_arrays.items():
        columns[name] = _float_texts(values)
    for name, values in crisp_arrays.items():
        columns[name] = np.where(values, pos_text, neg_text).tolist()
    text = data_text(columns)

    root = Path.cwd() if root is None else Path(root)
    data_path = f"data/{dataset}.csv"
    spec = DatasetSpec(
        dataset,
        root / data_path,
        LABEL_COLUMN,
        pos_text,
        fold=FOLD_COLUMN if folds is not None else None,
        costs=_cost_spec(cost_cells, cost_unit) if costs is not None else None,
    )
    classifiers = [ClassifierSpec(name, scores=name) for name in score_arrays] + [
        ClassifierSpec(name, predictions=name) for name in crisp_arrays
    ]
    check_classifier_names(source, analysis.comparisons, [c.name for c in classifiers])
    manifest = manifest_text(title, analysis, spec, data_path, classifiers, prior_specs)
    project = Project(
        root=root,
        manifest_path=root / MANIFEST_NAME,
        manifest_text=manifest,
        title=title,
        datasets=(spec,),
        classifiers=tuple(classifiers),
        priors=prior_specs,
        settings=analysis,
    )
    data = Dataset(
        name=dataset,
        path=spec.path,
        sha256=sha256_text(text),
        labels=labels,
        positive_label=pos_text,
        negative_label=neg_text,
        scores=score_arrays,
        predictions=crisp_arrays,
        folds=fold_codes,
        fold_names=fold_names,
        costs=instance_costs,
        cost_unit=cost_unit,
    )
    files = ProjectFiles(
        inputs=(
            InputFile(MANIFEST_NAME, sha256_text(manifest), "manifest"),
            InputFile(data_path, data.sha256, "data"),
        ),
        narrative=None,
        dataset_paths={dataset: data_path},
        dataset_narratives={dataset: None},
    )
    return NotebookProject(manifest, text, data_path, project, data, files)


def _cost_spec(cells: dict | None, unit: str | None) -> CostSpec:
    """The dataset's CostSpec: the short form's one column, or each cell its column or number."""
    if cells is None:
        return CostSpec.of(COST_COLUMN)
    return CostSpec(
        **{
            key: COST_COLUMNS[key] if isinstance(cell, np.ndarray) else cell
            for key, cell in cells.items()
        },
        unit=unit,
    )


def _prior_mapping(priors, source: str) -> dict:
    if isinstance(priors, Mapping):
        return dict(priors)
    raise UserInputError(
        Problem(
            source,
            "priors",
            'expected a dict of prior name -> prior, such as {"sceptic": '
            'BetaPrior(2, 8)} or {"sceptic": {"distribution": "beta", '
            f'"a": 2, "b": 8}}}}, got {type(priors).__name__}',
        )
    )
