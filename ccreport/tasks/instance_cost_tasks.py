"""The instance-cost part of the battery (Fawcett 2006): one dataset task of the plan.

:func:`dataset_task` for each dataset (nothing for a dataset without ``costs``) gives every
classifier its instance-cost result and every chosen pair its comparison. It calls
:func:`ccreport.analysis.instance_costs.analyse_instance_costs` (ROCIV, its hull, AUCIV, the
instance-cost envelope over PC_iv(+), the data's own condition, the cheapest threshold and its total
in the data's units, expected costs, operating range) and, with ``bootstrap`` > 0, the instance
bootstrap of :mod:`ccreport.analysis.instance_cost_bootstrap` for all classifiers at once.
:func:`classifier_task` and :func:`pair_task` are the same for one classifier or one pair.

Pairing: the resampled instances come from the generator ``task_rng(seed, "instance_costs",
dataset)``, keyed by the dataset only, and are drawn once for all classifiers (the draw is
O(R n), the rest O(R x bins) per classifier), so every classifier and every pair of that dataset
sees the same replicates (the same instances, with their costs): a pair's replicate differences are
the differences of its two classifiers' replicates.

Priors: an expected cost here reads the prior as a distribution over PC_iv(+), the x-axis that
the class-average costs give (spec section 3.6). Priors built from a class-level cost ratio (point
priors given by ``p_positive`` and ``cost_ratio``, induced priors) are left out: on this axis the
instance costs already fix the ratio of the two errors' costs.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..analysis.bands import bootstrap_p_value, percentile_interval, pointwise_band
from ..analysis.instance_cost_bins import BINS
from ..analysis.instance_cost_bootstrap import (
    InstanceCostReplicates,
    bootstrap_instance_costs_many,
    instance_cost_priors,
)
from ..analysis.instance_costs import analyse_instance_costs, compare_instance_costs
from ..project.settings import AnalysisSettings, task_rng
from ..results import (
    ExpectedCostDifferenceInterval,
    InstanceCostComparisonResult,
    InstanceCostDifferenceIntervals,
    InstanceCostIntervals,
    InstanceCosts,
)
from .inputs import ClassifierData, TaskInputs

MAX_STORED_POINTS = 2000  # ROCIV paths longer than this are thinned for results.json and figures
THIN_STEP = 1e-3  # ... to one point per this much path length (fpr + tpr), plus every hull vertex
METHOD = (
    "stratified instance bootstrap, each instance with its own cost; optimism-corrected "
    "envelope, expected and minimum total costs"
)
P_VALUE_METHOD = "two-sided bootstrap: 2 min(#(d* <= 0) + 1, #(d* >= 0) + 1) / (R + 1)"


def scores_of(c: ClassifierData) -> np.ndarray:
    """A scoring classifier's scores, or a crisp one's predictions as 0/1 scores."""
    return c.scores if c.scores is not None else np.asarray(c.predictions, dtype=float)


def thinned(
    fpr: np.ndarray,
    tpr: np.ndarray,
    hull_fpr: np.ndarray,
    hull_tpr: np.ndarray,
    limit: int = MAX_STORED_POINTS,
):
    """The ROCIV points as stored: all of them up to ``limit``; beyond, the first point of each step
    of ``THIN_STEP`` in path length ``fpr + tpr`` (the path is monotone, so this is at most some
    2 / THIN_STEP points, none further than THIN_STEP from a kept one), the last point and every
    hull vertex. A figure at print size cannot show the difference."""
    if fpr.size <= limit:
        return fpr, tpr
    cell = np.floor((fpr + tpr) / THIN_STEP)
    keep = np.concatenate(([True], cell[1:] != cell[:-1]))
    keep[-1] = True
    on_hull = np.isin(fpr, hull_fpr) & np.isin(tpr, hull_tpr)
    keep |= on_hull
    return fpr[keep], tpr[keep]


def _interval(samples, level) -> tuple[float, float]:
    lo, hi = percentile_interval(samples, level)
    return float(lo), float(hi)


def _binned_note(rep: InstanceCostReplicates) -> str:
    """What the intervals' method adds when a classifier's replicates were read at binned
    thresholds."""
    if rep.binned is None:
        return ""
    return (
        f"; replicates read at {rep.binned} of the sample's thresholds (more than {BINS} "
        "distinct scores: binned at equal steps of ROCIV path length; estimates at all "
        "thresholds)"
    )


def _pair_binned_note(qa: InstanceCostReplicates, qb: InstanceCostReplicates) -> str:
    if qa.binned is None and qb.binned is None:
        return ""
    return (
        f"; a classifier with more than {BINS} distinct scores has its replicates read at binned "
        "thresholds (equal steps of ROCIV path length; estimates at all thresholds)"
    )


def _classifier_result(
    inputs: TaskInputs,
    point,
    rep: InstanceCostReplicates | None,
    priors: dict,
    settings: AnalysisSettings,
) -> InstanceCosts:
    """One classifier's InstanceCosts from its point analysis and (with ``bootstrap`` > 0)
    replicates."""
    env = point.envelope
    fpr, tpr = thinned(point.rociv.fpr, point.rociv.tpr, env.hull_fpr, env.hull_tpr)
    intervals = None
    if rep is not None:
        level = settings.confidence
        lower, upper = pointwise_band(rep.values, level)
        intervals = InstanceCostIntervals(
            level=level,
            replicates=settings.bootstrap,
            method=METHOD + _binned_note(rep),
            pc=rep.grid,
            estimate=rep.estimate,
            lower=lower,
            upper=upper,
            auciv=_interval(rep.auciv, level),
            min_total_cost=_interval(rep.min_total_cost, level),
            expected_cost={p: _interval(rep.expected[p], level) for p in priors},
        )
    threshold = point.min_total_cost.threshold
    return InstanceCosts(
        auciv=float(point.auciv),
        rociv_fpr=fpr,
        rociv_tpr=tpr,
        hull_fpr=env.hull_fpr,
        hull_tpr=env.hull_tpr,
        envelope_pc=env.pc,
        envelope_nec=env.nec,
        own_pc=float(point.own_pc),
        min_total_threshold=float(threshold) if np.isfinite(threshold) else None,
        min_total=float(point.min_total_cost.total),
        expected_cost={p: float(v) for p, v in point.expected_cost.items()},
        operating_range=point.operating_range,
        unit=inputs.cost_unit,
        left_out_priors=tuple(p for p in inputs.priors if p not in priors),
        intervals=intervals,
    )


def _difference(estimate: float, d: np.ndarray, level: float) -> ExpectedCostDifferenceInterval:
    lo, hi = _interval(d, level)
    return ExpectedCostDifferenceInterval(
        difference=float(estimate),
        lower=lo,
        upper=hi,
        p_value=bootstrap_p_value(d),
        p_value_method=P_VALUE_METHOD,
    )


def _pair_result(
    ra,
    rb,
    qa: InstanceCostReplicates | None,
    qb: InstanceCostReplicates | None,
    priors: dict,
    settings: AnalysisSettings,
) -> InstanceCostComparisonResult:
    """A pair's comparison: point differences of the two results, paired replicate differences."""
    m = compare_instance_costs(ra, rb)
    intervals = None
    if qa is not None:
        level = settings.confidence
        intervals = InstanceCostDifferenceIntervals(
            level=level,
            replicates=settings.bootstrap,
            method=METHOD
            + "; paired: the same resampled instances for both"
            + _pair_binned_note(qa, qb),
            auciv_difference=_difference(m.auciv_difference, qa.auciv - qb.auciv, level),
            min_total_cost_difference=_difference(
                m.min_total_cost_difference, qa.min_total_cost - qb.min_total_cost, level
            ),
            expected_cost_difference={
                p: _difference(
                    m.expected_cost_difference[p], qa.expected[p] - qb.expected[p], level
                )
                for p in priors
            },
        )
    k = m.comparison
    return InstanceCostComparisonResult(
        **{f.name: getattr(k, f.name) for f in dataclasses.fields(k)},
        auciv_difference=float(m.auciv_difference),
        min_total_cost_difference=float(m.min_total_cost_difference),
        expected_cost_difference={p: float(v) for p, v in m.expected_cost_difference.items()},
        intervals=intervals,
    )


def dataset_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """Every classifier's and every chosen pair's instance-cost results of one dataset, from ONE
    resampling: {"classifier_fields": {name: {"instance_costs": InstanceCosts}},
    "comparison_fields": {(a, b): {"instance_costs": InstanceCostComparisonResult}}}, or {} for a
    dataset without costs.

    The replicates' counts are drawn once per chunk from ``task_rng(seed, "instance_costs",
    dataset)`` and read by every classifier
    (:func:`~ccreport.analysis.instance_cost_bootstrap.bootstrap_instance_costs_many`), so a pair's
    replicate differences are paired and the O(R n) draw is paid once, not once per classifier. The
    pairs are the dataset's chosen ones (``inputs.chosen_pairs()``, manifest order).
    """
    if inputs.costs is None:
        return {}
    priors = instance_cost_priors(inputs.priors)
    names = [c.name for c in inputs.classifiers]
    points = {
        c.name: analyse_instance_costs(inputs.labels, scores_of(c), inputs.costs, priors)
        for c in inputs.classifiers
    }
    reps = dict.fromkeys(names)
    if settings.bootstrap > 0:
        rng = task_rng(
            settings.seed, "instance_costs", inputs.dataset
        )  # the dataset's: paired across classifiers
        found = bootstrap_instance_costs_many(
            rng,
            inputs.labels,
            [scores_of(c) for c in inputs.classifiers],
            inputs.costs,
            settings.bootstrap,
            priors,
        )
        reps = dict(zip(names, found))
    out = {
        "classifier_fields": {
            n: {"instance_costs": _classifier_result(inputs, points[n], reps[n], priors, settings)}
            for n in names
        }
    }
    if len(names) > 1:
        out["comparison_fields"] = {
            (a, b): {
                "instance_costs": _pair_result(
                    points[a], points[b], reps[a], reps[b], priors, settings
                )
            }
            for a, b in inputs.chosen_pairs()
        }
    return out


def classifier_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """{"instance_costs": InstanceCosts} of the one classifier of ``inputs`` (:func:`dataset_task`
    of a one-classifier scope: the same numbers as its entry in the dataset's task), or {} without
    costs."""
    found = dataset_task(inputs, settings)
    return found["classifier_fields"][inputs.classifiers[0].name] if found else {}


def pair_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """{"instance_costs": InstanceCostComparisonResult} of the pair (a, b) of ``inputs``
    (:func:`dataset_task` of a two-classifier scope), or {} without costs."""
    found = dataset_task(dataclasses.replace(inputs, pairs=None), settings)
    a, b = (c.name for c in inputs.classifiers)
    return found["comparison_fields"][(a, b)] if found else {}
