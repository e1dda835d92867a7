"""The analysis battery: which analyses run for which dataset, classifier and pair, as one plan.

A build is plan -> run -> assemble:

* :func:`plan` turns the loaded data into a list of :class:`Task`: for every dataset, one task per
  :class:`TaskKind` of each scope ("dataset": the whole dataset, "classifier": each classifier
  evaluated on it, "pair": each unordered pair of those, in manifest order), each with a stable key
  ``(kind, dataset, *classifier names)``, the function to run and its inputs
  (:class:`TaskInputs` and the :class:`~ccreport.project.settings.AnalysisSettings`, whole);
* an executor (:mod:`ccreport.tasks.executors`) runs every task with :func:`run_task`, in this
  process or in worker processes: the same bytes either way;
* :func:`assemble` merges the tasks' outputs, each a dict of result fields, into the
  ClassifierResult, ComparisonResult and DatasetResult fields of each scope.

Every task is a pure function of its inputs. Tasks that draw random numbers take a generator from
:func:`~ccreport.project.settings.task_rng` (the project seed and their names), so results depend
neither on task order nor on the number of worker processes. A new analysis is one more
:class:`TaskKind` in :data:`TASK_KINDS`, filling one more (optional) field of a result type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..analysis import priors as pr
from ..analysis import selection as sel
from ..analysis.conditions import probability_cost
from ..analysis.roc import crisp_roc, roc_points
from ..analysis.selection.out_of_fold import fold_index
from ..project.settings import AnalysisSettings
from ..results import (
    ClassifierResult,
    ComparisonResult,
    FamilyResult,
    HybridResult,
    NotApplicable,
    PriorResult,
    SelectionResult,
)
from . import bands_task, instance_cost_tasks, threshold_choice_task
from .inputs import (  # noqa: F401  (re-exported: the battery's public names)
    ClassifierData,
    TaskFunction,
    TaskInputs,
    analyse_classifier,
    analyse_pair,
    classifier_fields,
    comparison_fields,
    envelope_of,
    pairs,
)

PRIOR_GRID = np.linspace(0.0, 1.0, 401)
SCOPES = ("dataset", "classifier", "pair")


# --- priors -----------------------------------------------------------------------------------


def _ratio_or_p(spec):
    params = dict(spec)
    kind = params["distribution"]
    if kind == "point":
        return pr.Fixed(float(params["value"]))
    if kind == "beta":
        return pr.Beta(float(params["a"]), float(params["b"]))
    if kind == "loguniform":
        return pr.LogUniform(float(params["low"]), float(params["high"]))
    return pr.Uniform(float(params["low"]), float(params["high"]))


def make_prior(spec, class_mix: float | None = None) -> pr.Prior:
    """The analysis object for a validated manifest PriorSpec.

    A point prior given by ``cost_fn``/``cost_fp`` without ``p_positive`` takes its PC(+) from
    ``class_mix`` (P / (P + N) of its dataset): PC(+) = p r / (p r + 1 - p), r = cost_fn / cost_fp.
    """
    kind = spec.distribution
    if kind == "point" and spec.param("pc") is None:
        if class_mix is None:
            raise ValueError(f"prior {spec.name!r} needs its dataset's class mix")
        ratio = float(spec.param("cost_ratio"))
        return pr.PointPrior(float(probability_cost(class_mix, ratio)), cost_ratio=ratio)
    if kind == "uniform":
        return pr.UniformPrior(float(spec.param("low", 0.0)), float(spec.param("high", 1.0)))
    if kind == "beta":
        return pr.BetaPrior(float(spec.param("a")), float(spec.param("b")))
    if kind == "point":
        ratio = spec.param("cost_ratio")
        return pr.PointPrior(
            float(spec.param("pc")), cost_ratio=None if ratio is None else float(ratio)
        )
    if kind == "induced":
        return pr.InducedPrior(
            _ratio_or_p(spec.param("p_positive")), _ratio_or_p(spec.param("cost_ratio"))
        )
    raise ValueError(f"unknown prior distribution {kind!r}")


def _plain(value):
    if isinstance(value, tuple) and all(isinstance(v, tuple) and len(v) == 2 for v in value):
        return {k: _plain(v) for k, v in value}
    return value


def prior_result(name: str, prior: pr.Prior, params) -> PriorResult:
    density = prior.density(PRIOR_GRID)
    return PriorResult(
        name=name,
        kind=prior.kind,
        params=_plain(tuple(params)),
        description=prior.describe(),
        grid=PRIOR_GRID,
        density=None if density is None else np.asarray(density, dtype=float),
        point=prior.pc if isinstance(prior, pr.PointPrior) else None,
    )


TRIVIAL_PC = np.array([0.0, 0.5, 1.0])
TRIVIAL_NEC = np.array([0.0, 0.5, 0.0])


def trivial_expected_cost(prior: pr.Prior) -> float:
    """Expected cost of always choosing the cheaper trivial classifier, E[min(PC(+), 1 - PC(+))].

    The lower envelope of the trivial classifiers "always negative" (NEC = PC(+)) and "always
    positive" (NEC = 1 - PC(+)) is the tent with vertices (0, 0), (1/2, 1/2), (1, 0) (D&H 2006
    section 4.2); its expectation is exact for every prior (:meth:`Prior.expected`): 1/4 under the
    uniform prior, min(p, 1 - p) under a point mass at p.
    """
    return prior.expected(TRIVIAL_PC, TRIVIAL_NEC)


# --- the plan -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TaskKind:
    """One analysis of the battery: its name, its scope and the function computing it.

    ``function(inputs, settings)`` returns a dict of fields of the scope's result type
    (ClassifierResult, ComparisonResult or DatasetResult); an empty dict when it has nothing to
    add (for instance no bootstrap asked for).
    """

    name: str
    scope: str  # one of SCOPES
    function: TaskFunction


@dataclass(frozen=True, eq=False)
class Task:
    """One unit of work: a stable key ``(kind, dataset, *classifier names)``, the function, its
    inputs."""

    key: tuple[str, ...]
    function: TaskFunction
    inputs: TaskInputs
    settings: AnalysisSettings

    @property
    def scope_key(self) -> tuple[str, ...]:
        """Which result the output belongs to: ``(dataset, *classifier names)``."""
        return self.key[1:]


def run_task(task: Task) -> dict:
    """Run one task: the one place a task's function is called (executors and caches wrap this)."""
    return task.function(task.inputs, task.settings)


def classifier_point_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """The point analyses of one classifier (:func:`classifier_fields`)."""
    (c,) = inputs.classifiers
    return classifier_fields(c.name, inputs.labels, c.scores, c.predictions, inputs.priors)


def pair_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """The point comparison of a pair (its resampling is the dataset's ``pairs`` task,
    :func:`ccreport.tasks.bands_task.pairs_task`).

    Both classifiers' envelopes are recomputed here from the same arrays (the same function, so the
    same floats as their classifier tasks give): a task depends on no other task's output.
    """
    a, b = inputs.point(0), inputs.point(1)
    return comparison_fields(a, b)


# --- selection criteria and hybrids (D&H 2006 section 5) ----------------------------


def make_criterion(spec) -> sel.Criterion:
    """The analysis record of a validated manifest CriterionSpec."""
    if spec.kind == "neyman_pearson":
        return sel.NeymanPearson(float(spec.param("max_fpr")))
    if spec.kind == "workforce":
        return sel.Workforce(
            capacity=spec.param("capacity"), capacity_share=spec.param("capacity_share")
        )
    if spec.kind == "performance_independent":
        return sel.PerformanceIndependent(rule=spec.param("rule", "bayes_prior"))
    if (
        spec.kind == "parameter_based"
    ):  # a declared family: evaluated once per dataset (hybrid task)
        return sel.ParameterBased(members=tuple(spec.param("members")))
    raise ValueError(f"unknown criterion kind {spec.kind!r}")


def scores_of(c: ClassifierData) -> np.ndarray:
    """A classifier's scores; crisp predictions as 1.0 (positive) and 0.0 (thresholds +inf, 1,
    0)."""
    return c.scores if c.scores is not None else c.predictions.astype(float)


def usable_folds(labels: np.ndarray, folds: np.ndarray | None) -> np.ndarray | None:
    """The fold column when the out-of-fold procedure can run: two folds or more, and every
    selection set (all folds but one) holding both classes; else None."""
    if folds is None:
        return None
    codes, index = fold_index(folds)  # O(n) for small integer codes, as the loader makes
    if codes.size < 2:
        return None
    positives = np.bincount(index, weights=labels, minlength=codes.size)
    sizes = np.bincount(index, minlength=codes.size)
    rest_pos, rest = positives.sum() - positives, sizes.sum() - sizes  # each selection set's counts
    if np.any(rest_pos == 0) or np.any(rest_pos == rest):
        return None
    return folds


def selection_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """Thresholds, threshold table, criteria and (with folds) the out-of-fold curve of a classifier.

    Neyman-Pearson and workforce criteria get their held-out rates with folds; a
    performance-independent rule needs scores in [0, 1] and is recorded as not applicable else.
    """
    (c,) = inputs.classifiers
    mine = {k: v for k, v in inputs.criteria.items() if not isinstance(v, sel.ParameterBased)}
    empirical = {k: v for k, v in mine.items() if not isinstance(v, sel.PerformanceIndependent)}
    folds = usable_folds(inputs.labels, inputs.folds)
    found = sel.select_scores(inputs.labels, scores_of(c), empirical, folds=folds, name=c.name)
    criteria = {}
    for key, criterion in mine.items():
        if key in found.criteria:
            criteria[key] = found.criteria[key]
            continue
        try:
            criteria[key] = sel.performance_independent(
                found.roc, criterion.rule, criterion.prior, envelope=found.envelope
            )
        except ValueError as e:
            criteria[key] = NotApplicable(str(e))
    result = SelectionResult(
        thresholds=found.roc.thresholds,
        table=found.table,
        criteria=criteria,
        out_of_fold=found.out_of_fold,
    )
    return {"selection": result}


def hybrid_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """The dataset hybrid over all classifiers' thresholds and (with folds) its out-of-fold
    version."""
    rocs = {}
    for c in inputs.classifiers:
        rocs[c.name] = (
            roc_points(inputs.labels, c.scores)
            if c.scores is not None
            else crisp_roc(inputs.labels, c.predictions)
        )
    if not rocs:
        return {}
    folds = usable_folds(inputs.labels, inputs.folds)
    scores = {c.name: scores_of(c) for c in inputs.classifiers}
    found = sel.select_dataset(rocs, inputs.labels, scores, folds)
    families = {}
    for (
        key,
        criterion,
    ) in inputs.criteria.items():  # declared parameter-based families (D&H 2000 s. 2.3)
        if isinstance(criterion, sel.ParameterBased):
            try:
                families[key] = FamilyResult(sel.select_family(rocs, criterion), criterion.members)
            except ValueError as e:
                families[key] = NotApplicable(str(e))
    return {
        "hybrid": HybridResult(
            hybrid=found.hybrid, out_of_fold=found.out_of_fold, families=families
        )
    }


TASK_KINDS: tuple[TaskKind, ...] = (
    TaskKind("classifier", "classifier", classifier_point_task),
    TaskKind("uncertainty", "classifier", bands_task.classifier_task),
    TaskKind("pair", "pair", pair_task),
    TaskKind("pairs", "dataset", bands_task.pairs_task),
    TaskKind("threshold_choice", "dataset", threshold_choice_task.dataset_task),
    TaskKind(
        "instance_costs", "dataset", instance_cost_tasks.dataset_task
    ),  # every classifier and pair, one resampling
    TaskKind("selection", "classifier", selection_task),
    TaskKind("hybrid", "dataset", hybrid_task),
)


def scope_members(
    scope: str, names: Sequence[str], chosen: Sequence[tuple[str, str]] | None = None
) -> list[tuple[str, ...]]:
    """The classifier-name tuples of a scope on one dataset: (), each name, or each pair (the
    ``chosen`` pairs when given, else every pair)."""
    if scope == "dataset":
        return [()]
    if scope == "classifier":
        return [(n,) for n in names]
    if scope == "pair":
        return pairs(names) if chosen is None else [tuple(p) for p in chosen]
    raise ValueError(f"unknown scope {scope!r}; expected one of {SCOPES}")


def plan(
    datasets,
    classifier_names: Sequence[str],
    priors_by_dataset: dict,
    settings: AnalysisSettings,
    kinds: Sequence[TaskKind] = TASK_KINDS,
    criteria_by_dataset: dict | None = None,
    pairs_by_dataset: dict | None = None,
) -> list[Task]:
    """Every task of a build, in a stable order (dataset, then scope, kind and names).

    ``datasets``: loaded :class:`~ccreport.project.loaders.Dataset` objects; ``classifier_names``:
    the manifest's, in order (a classifier is evaluated on a dataset whose file has its column);
    ``priors_by_dataset``: dataset name -> {prior name: Prior} of the priors that apply there;
    ``criteria_by_dataset``: dataset name -> {criterion name: Criterion} (none when not given);
    ``pairs_by_dataset``: dataset name -> the (a, b) pairs it compares
    (:func:`ccreport.tasks.comparisons.choose`; every pair when not given): the pair tasks, and the
    dataset tasks' ``inputs.pairs``.
    """
    unknown = [k.scope for k in kinds if k.scope not in SCOPES]
    if unknown:
        raise ValueError(f"unknown scope {unknown[0]!r}; expected one of {SCOPES}")
    tasks = []
    for data in datasets:
        present = [n for n in classifier_names if n in data.scores or n in data.predictions]
        by_name = {
            n: ClassifierData(n, data.scores.get(n), data.predictions.get(n)) for n in present
        }
        chosen = (pairs_by_dataset or {}).get(data.name)
        for scope in SCOPES:
            for names in scope_members(scope, present, chosen):
                members = tuple(by_name[n] for n in (present if scope == "dataset" else names))
                inputs = TaskInputs(
                    data.name,
                    data.labels,
                    data.folds,
                    tuple(data.fold_names),
                    priors_by_dataset[data.name],
                    members,
                    getattr(data, "costs", None),
                    getattr(data, "cost_unit", None),
                    (criteria_by_dataset or {}).get(data.name, {}),
                    tuple(chosen) if chosen is not None and scope == "dataset" else None,
                )
                for kind in kinds:
                    if kind.scope == scope:
                        tasks.append(
                            Task((kind.name, data.name, *names), kind.function, inputs, settings)
                        )
    return tasks


@dataclass(frozen=True, eq=False)
class Assembled:
    """The outputs of a plan, per dataset: its classifiers, its pairs and its own fields."""

    classifiers: dict[str, ClassifierResult]
    comparisons: dict[str, ComparisonResult]
    fields: dict[str, Any]


def assemble(tasks: Sequence[Task], outputs: Sequence[dict]) -> dict[str, Assembled]:
    """Merge the tasks' outputs into result objects: dataset name -> :class:`Assembled`.

    Classifiers and pairs keep the plan's order (manifest order); a later task's fields are added
    to an earlier one's of the same scope. A dataset task may also fill fields of the dataset's
    classifiers and pairs: its output's ``"classifier_fields"`` ({name: fields}) and
    ``"comparison_fields"`` ({(a, b): fields}) entries go to those results (one task that
    resamples the dataset once for all its classifiers). A scoring classifier's band is joined
    from that resampling and its own task's calibration
    (:func:`ccreport.tasks.bands_task.join_band`).
    """
    merged: dict[tuple[str, ...], dict] = {}
    for task, output in zip(tasks, outputs, strict=True):
        if len(task.scope_key) == 1 and (
            "classifier_fields" in output or "comparison_fields" in output
        ):
            output = dict(output)
            merged.setdefault(task.scope_key, {})
            for name, found in output.pop("classifier_fields", {}).items():
                merged.setdefault((*task.scope_key, name), {}).update(found)
            for pair, found in output.pop("comparison_fields", {}).items():
                merged.setdefault((*task.scope_key, *pair), {}).update(found)
        merged.setdefault(task.scope_key, {}).update(output)
    out: dict[str, Assembled] = {}
    for key, fields in merged.items():
        dataset, names = key[0], key[1:]
        entry = out.setdefault(dataset, Assembled({}, {}, {}))
        if len(names) == 1:
            entry.classifiers[names[0]] = ClassifierResult(**bands_task.join_band(fields))
        elif len(names) == 2:
            m = ComparisonResult(**fields)
            entry.comparisons[m.key] = m
        else:
            entry.fields.update(fields)
    return out
