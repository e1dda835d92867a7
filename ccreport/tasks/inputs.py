"""What a task of the battery reads, and the point analyses every task kind starts from.

:class:`TaskInputs` (one dataset's arrays, priors, criteria and the classifiers of a task's scope)
and :class:`ClassifierData`; :func:`classifier_fields` / :func:`analyse_classifier` (ROC points,
hull, AUC, lower envelope, operating range and expected costs, D&H 2006 sections 3-4.2) and
:func:`comparison_fields` / :func:`analyse_pair` (D&H 2006 sections 4.3-4.4). The plan
(:mod:`ccreport.tasks.battery`) and the task kinds (:mod:`ccreport.tasks.bands_task`,
:mod:`ccreport.tasks.threshold_choice_task`, :mod:`ccreport.tasks.instance_cost_tasks`) both import
this module, which imports neither."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..analysis import priors as pr
from ..analysis import selection as sel
from ..analysis.envelope import Envelope, compare, lower_envelope, operating_range
from ..analysis.roc import auc, crisp_roc, roc_points
from ..project.settings import AnalysisSettings
from ..results import ClassifierResult, ComparisonResult

# --- per classifier and per pair ----------------------------------------------------------------


def classifier_fields(
    name: str,
    labels: np.ndarray,
    scores: np.ndarray | None,
    predictions: np.ndarray | None,
    priors: dict,
) -> dict[str, Any]:
    """ROC points, hull, AUC, lower envelope, operating range and expected costs of one classifier,
    as the fields of its :class:`ClassifierResult` (D&H 2006 sections 3-4.2)."""
    roc = roc_points(labels, scores) if scores is not None else crisp_roc(labels, predictions)
    env = lower_envelope(roc)
    cost_line = None
    if scores is None:
        fpr, tpr = roc.fpr[1], roc.tpr[1]
        cost_line = (float(fpr), float(1.0 - tpr))
    return dict(
        name=name,
        kind="scores" if scores is not None else "crisp",
        auc=auc(roc),
        roc_fpr=roc.fpr,
        roc_tpr=roc.tpr,
        hull_fpr=env.hull_fpr,
        hull_tpr=env.hull_tpr,
        envelope_pc=env.pc,
        envelope_nec=env.nec,
        operating_range=operating_range(env),
        expected_cost={p: prior.expected(env.pc, env.nec) for p, prior in priors.items()},
        cost_line=cost_line,
    )


def analyse_classifier(
    name: str,
    labels: np.ndarray,
    scores: np.ndarray | None,
    predictions: np.ndarray | None,
    priors: dict,
) -> ClassifierResult:
    """The point analyses of one classifier (:func:`classifier_fields`) as a ClassifierResult."""
    return ClassifierResult(**classifier_fields(name, labels, scores, predictions, priors))


def envelope_of(c: ClassifierResult) -> Envelope:
    return Envelope(pc=c.envelope_pc, nec=c.envelope_nec, hull_fpr=c.hull_fpr, hull_tpr=c.hull_tpr)


def comparison_fields(a: ClassifierResult, b: ClassifierResult) -> dict[str, Any]:
    """Crossovers, where each is better, the largest difference and the expected-cost differences
    of a pair, as the fields of its :class:`ComparisonResult` (D&H 2006 sections 4.3-4.4)."""
    m = compare(envelope_of(a), envelope_of(b))
    return dict(
        a=a.name,
        b=b.name,
        expected_cost_difference={
            p: a.expected_cost[p] - b.expected_cost[p] for p in a.expected_cost
        },
        **{f.name: getattr(m, f.name) for f in dataclasses.fields(m)},
    )


def analyse_pair(a: ClassifierResult, b: ClassifierResult) -> ComparisonResult:
    """The point comparison of two classifiers (:func:`comparison_fields`) as a ComparisonResult."""
    return ComparisonResult(**comparison_fields(a, b))


def pairs(names):
    """Every unordered pair of classifier names, in manifest order."""
    return list(itertools.combinations(names, 2))


@dataclass(frozen=True, eq=False)
class ClassifierData:
    """One classifier's outputs on one dataset: scores, or crisp predictions (True = positive)."""

    name: str
    scores: np.ndarray | None
    predictions: np.ndarray | None


@dataclass(frozen=True, eq=False)
class TaskInputs:
    """What one task reads: its dataset's arrays, the priors that apply there, and the classifiers
    of its scope (one for a classifier task, two (a, b) for a pair, all of them for a dataset)."""

    dataset: str
    labels: np.ndarray  # bool, True = positive
    folds: np.ndarray | None  # fold codes, or None without a fold column
    fold_names: tuple[str, ...]
    priors: dict[str, pr.Prior]
    classifiers: tuple[ClassifierData, ...]
    costs: np.ndarray | None = (
        None  # per-instance FN (positives) / FP (negatives) costs (Fawcett 2006)
    )
    cost_unit: str | None = None  # their unit label, from the manifest
    criteria: dict[str, sel.Criterion] = dataclasses.field(default_factory=dict)  # that apply here
    # a dataset task's chosen pairs ([project] comparisons, ccreport.tasks.comparisons); None: every
    # pair
    pairs: tuple[tuple[str, str], ...] | None = None

    def chosen_pairs(self) -> list[tuple[str, str]]:
        """The pairs this dataset compares: the plan's choice, else every pair in manifest order."""
        return (
            list(self.pairs)
            if self.pairs is not None
            else pairs([c.name for c in self.classifiers])
        )

    def point(self, k: int = 0) -> ClassifierResult:
        """The point analyses of the scope's ``k``-th classifier."""
        c = self.classifiers[k]
        return analyse_classifier(c.name, self.labels, c.scores, c.predictions, self.priors)


TaskFunction = Callable[[TaskInputs, AnalysisSettings], dict]
