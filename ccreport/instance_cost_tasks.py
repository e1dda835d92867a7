"""The instance-cost part of the battery (Fawcett 2006; issue 13): two task functions of the plan.

:func:`classifier_task` for each (dataset, classifier) and :func:`pair_task` for each (dataset,
pair), both doing nothing for a dataset without ``costs``. They call
:func:`ccreport.analysis.instance_costs.analyse_instance_costs` (ROCIV, its hull, AUCIV, the
instance-cost envelope over PC_iv(+), the data's own condition, the cheapest threshold and its total
in the data's units, expected costs, operating range) and, with ``bootstrap`` > 0, the instance
bootstrap of :mod:`ccreport.analysis.instance_cost_bootstrap`.

Pairing: every task of one dataset draws its resampled instances from the generator
``task_rng(seed, "instance_costs", dataset)``, keyed by the dataset only, so every classifier and
every pair of that dataset sees the same replicates (the same instances, with their costs): a
pair's replicate differences are the differences of its two classifiers' replicates.

Priors: an expected cost here reads the prior as a distribution over PC_iv(+), the x-axis that
the class-average costs give (spec section 3.6). Priors built from a class-level cost ratio (point
priors given by ``p_positive`` and ``cost_ratio``, induced priors) are left out: on this axis the
instance costs already fix the ratio of the two errors' costs.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from typing import TYPE_CHECKING

import numpy as np

from .analysis.bands import bootstrap_p_value, percentile_interval, pointwise_band
from .analysis.instance_cost_bootstrap import InstanceCostReplicates, bootstrap_instance_costs, instance_cost_priors
from .analysis.instance_costs import analyse_instance_costs, compare_instance_costs
from .results import (
    ExpectedCostDifferenceInterval,
    InstanceCostComparisonResult,
    InstanceCostDifferenceIntervals,
    InstanceCostIntervals,
    InstanceCosts,
)
from .cache import task_key
from .settings import AnalysisSettings, task_rng

if TYPE_CHECKING:  # the battery imports this module for its task kinds
    from .battery import ClassifierData, TaskInputs

MAX_STORED_POINTS = 2000  # ROCIV paths longer than this are thinned for results.json and figures
THIN_STEP = 1e-3  # ... to one point per this much path length (fpr + tpr), plus every hull vertex
METHOD = "stratified instance bootstrap, each instance with its own cost; optimism-corrected envelope, expected and minimum total costs"
P_VALUE_METHOD = "two-sided bootstrap: 2 min(#(d* <= 0) + 1, #(d* >= 0) + 1) / (R + 1)"


def scores_of(c: ClassifierData) -> np.ndarray:
    """A scoring classifier's scores, or a crisp one's predictions as 0/1 scores."""
    return c.scores if c.scores is not None else np.asarray(c.predictions, dtype=float)


def thinned(fpr: np.ndarray, tpr: np.ndarray, hull_fpr: np.ndarray, hull_tpr: np.ndarray, limit: int = MAX_STORED_POINTS):
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


MEMO_SIZE = 8  # replicate sets kept per process (each some R x len(GRID) floats, not O(n))
_memo: OrderedDict[str, InstanceCostReplicates] = OrderedDict()


def _replicates(inputs: TaskInputs, c: ClassifierData, settings: AnalysisSettings, priors: dict):
    """One classifier's instance-cost replicates, memoised in this process by content.

    The replicates are a deterministic function of (seed, dataset, labels, scores, costs, R, priors):
    the generator is made afresh from the seed and the dataset's name. A classifier's task and the
    tasks of its pairs need the same replicates (O(R n) work each); run in one process they compute
    them once. Results do not depend on which task computed them first, nor on the worker count.
    """
    args = (settings.seed, inputs.dataset, inputs.labels, scores_of(c), inputs.costs, settings.bootstrap, priors)
    key = task_key(bootstrap_instance_costs, args)
    found = _memo.get(key)
    if found is None:
        rng = task_rng(settings.seed, "instance_costs", inputs.dataset)  # the dataset's: paired across tasks
        found = bootstrap_instance_costs(rng, inputs.labels, scores_of(c), inputs.costs, settings.bootstrap, priors)
        _memo[key] = found
        while len(_memo) > MEMO_SIZE:
            _memo.popitem(last=False)
    _memo.move_to_end(key)
    return found


def classifier_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """{"instance_costs": InstanceCosts} of one classifier, or {} for a dataset without costs."""
    if inputs.costs is None:
        return {}
    (c,) = inputs.classifiers
    priors = instance_cost_priors(inputs.priors)
    r = analyse_instance_costs(inputs.labels, scores_of(c), inputs.costs, priors)
    env = r.envelope
    fpr, tpr = thinned(r.rociv.fpr, r.rociv.tpr, env.hull_fpr, env.hull_tpr)
    intervals = None
    if settings.bootstrap > 0:
        rep = _replicates(inputs, c, settings, priors)
        level = settings.confidence
        lower, upper = pointwise_band(rep.values, level)
        intervals = InstanceCostIntervals(
            level=level,
            replicates=settings.bootstrap,
            method=METHOD,
            pc=rep.grid,
            estimate=rep.estimate,
            lower=lower,
            upper=upper,
            auciv=_interval(rep.auciv, level),
            min_total_cost=_interval(rep.min_total_cost, level),
            expected_cost={p: _interval(rep.expected[p], level) for p in priors},
        )
    threshold = r.min_total_cost.threshold
    return {
        "instance_costs": InstanceCosts(
            auciv=float(r.auciv),
            rociv_fpr=fpr,
            rociv_tpr=tpr,
            hull_fpr=env.hull_fpr,
            hull_tpr=env.hull_tpr,
            envelope_pc=env.pc,
            envelope_nec=env.nec,
            own_pc=float(r.own_pc),
            min_total_threshold=float(threshold) if np.isfinite(threshold) else None,
            min_total=float(r.min_total_cost.total),
            expected_cost={p: float(v) for p, v in r.expected_cost.items()},
            operating_range=r.operating_range,
            unit=inputs.cost_unit,
            left_out_priors=tuple(p for p in inputs.priors if p not in priors),
            intervals=intervals,
        )
    }


def _difference(estimate: float, d: np.ndarray, level: float) -> ExpectedCostDifferenceInterval:
    lo, hi = _interval(d, level)
    return ExpectedCostDifferenceInterval(
        difference=float(estimate), lower=lo, upper=hi, p_value=bootstrap_p_value(d), p_value_method=P_VALUE_METHOD
    )


def pair_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """{"instance_costs": InstanceCostComparisonResult} of a pair (a, b), or {} without costs.

    Both classifiers' analyses and replicates are recomputed here from the same arrays and the same
    generator state as their classifier tasks, so the point differences are exactly the differences
    of the two classifiers' results and the replicate differences are paired.
    """
    if inputs.costs is None:
        return {}
    ca, cb = inputs.classifiers
    priors = instance_cost_priors(inputs.priors)
    ra = analyse_instance_costs(inputs.labels, scores_of(ca), inputs.costs, priors)
    rb = analyse_instance_costs(inputs.labels, scores_of(cb), inputs.costs, priors)
    m = compare_instance_costs(ra, rb)
    intervals = None
    if settings.bootstrap > 0:
        qa, qb = _replicates(inputs, ca, settings, priors), _replicates(inputs, cb, settings, priors)
        level = settings.confidence
        intervals = InstanceCostDifferenceIntervals(
            level=level,
            replicates=settings.bootstrap,
            method=METHOD + "; paired: the same resampled instances for both",
            auciv_difference=_difference(m.auciv_difference, qa.auciv - qb.auciv, level),
            min_total_cost_difference=_difference(m.min_total_cost_difference, qa.min_total_cost - qb.min_total_cost, level),
            expected_cost_difference={
                p: _difference(m.expected_cost_difference[p], qa.expected[p] - qb.expected[p], level) for p in priors
            },
        )
    k = m.comparison
    return {
        "instance_costs": InstanceCostComparisonResult(
            **{f.name: getattr(k, f.name) for f in dataclasses.fields(k)},
            auciv_difference=float(m.auciv_difference),
            min_total_cost_difference=float(m.min_total_cost_difference),
            expected_cost_difference={p: float(v) for p, v in m.expected_cost_difference.items()},
            intervals=intervals,
        )
    }
