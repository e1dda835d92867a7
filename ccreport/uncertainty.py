"""The uncertainty part of the battery: bootstrap bands, paired significance, fold averages.

Two task functions of the battery's plan (:mod:`ccreport.battery`): :func:`classifier_task` for
each (dataset, classifier), with its generator ``task_rng(seed, "bootstrap", dataset, classifier)``,
and :func:`pairs_task` once per dataset for all its pairs (one resampling, generator
``task_rng(seed, "bootstrap", dataset)``; family-wise significance and Holm, issue 10). They return the typed
results (:class:`~ccreport.results.Band`,
:class:`~ccreport.results.FoldAverageResult`, :class:`~ccreport.results.DifferenceBand`, ...) as
the fields of the classifier and comparison results they belong to. Which band each is, and what
it covers, is written into the result itself (``method``, ``target``); the maths is in
:mod:`ccreport.analysis.bootstrap`, :mod:`ccreport.analysis.bands` and :mod:`ccreport.analysis.folds` (D&H 2006 sections 4.5-4.7 and 5.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import hybrid_band_task
from .analysis import calibration as cb
from .analysis.bands import simultaneous_band
from .analysis.bootstrap import bootstrap_crisp, bootstrap_dataset, bootstrap_scores
from .analysis.folds import fold_average
from .analysis.significance import (
    ADJUST_METHOD,
    P_METHOD,
    POINTWISE_NOTE,
    dataset_inference,
)
from .results import (
    Band,
    CalibrationDescription,
    DifferenceBand,
    ExpectedCostDifferenceInterval,
    ExpectedCostInterval,
    FamilyWiseResult,
    FoldAverageResult,
    SignificantRegion,
    SimultaneousBand,
)
from .settings import AnalysisSettings, task_rng

if TYPE_CHECKING:  # the battery imports this module for its task kinds
    from .battery import TaskInputs

TARGET_SCORES = (
    "the true cost, at each PC(+), of the classifier as selected on this data (the score thresholds "
    "of its lower envelope; D&H 2006 section 5.2), not its cost at thresholds chosen on other data; "
    "the best achievable (true optimal) curve lies at or below it, and in binormal simulations a 90% "
    "band covered that curve 86-91% of the time when calibrated, 84-89% when not (benchmarks/README.md)"
)
FEW_SCORES = 10  # distinct scores at or below which the band's target text states the measured shortfall
TARGET_FEW_SCORES = (
    "; with few distinct scores the band covers less than its level: in binormal simulations with scores "
    "rounded to 5 values at n = 200 a 90% band covered this target 82.6-84.8% of the time at PC(+) = 0.3-0.5 and "
    "62% at PC(+) = 0.05 (86-96% at n = 1000; benchmarks/README.md, validity matrix): the envelope then "
    "jumps between thresholds a few hundredths apart in cost, and a replicate that switches is corrected "
    "by the whole jump"
)
TARGET_CRISP = (
    "the true cost of this classifier's cost line, where it is cheaper than the trivial classifiers "
    "(elsewhere the trivial classifiers' known cost; D&H 2006 section 4.6)"
)
TARGET_DIFFERENCE = "the difference a - b of the two classifiers' true costs, as in their own bands"
CORRECTION = (
    "optimism-corrected percentiles (Efron 1983): estimate + in-sample cost of the replicate's selection "
    "- replicate's own cost"
)
CALIBRATED = "; upper edge and sup-norm critical value calibrated by a double bootstrap (Beran 1987 prepivoting)"


def _simultaneous(values, settings: AnalysisSettings, scale: float = 1.0) -> SimultaneousBand | None:
    """The sup-norm band when the manifest's ``band`` asks for one, else None."""
    if settings.band not in ("simultaneous", "both"):
        return None
    lower, upper = simultaneous_band(values, settings.confidence, scale=scale)
    return SimultaneousBand(lower=lower, upper=upper, method="studentized sup-norm over 0 <= PC(+) <= 1")


def _calibration(cal) -> CalibrationDescription | None:
    described = cal.describe()
    return None if described is None else CalibrationDescription(**described)


def _regions(found) -> tuple[SignificantRegion, ...]:
    return tuple(SignificantRegion(lo=r["lo"], hi=r["hi"], better=r["better"]) for r in found)


def classifier_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """Band, expected-cost intervals and fold average of one classifier: {ClassifierResult field: result}.

    The band and intervals with ``bootstrap`` > 0; the fold average when the dataset has folds.
    """
    (c,) = inputs.classifiers
    labels, scores, predictions, priors = inputs.labels, c.scores, c.predictions, inputs.priors
    found = {}
    if settings.bootstrap > 0:
        rng = task_rng(settings.seed, "bootstrap", inputs.dataset, c.name)
        level = settings.confidence
        if scores is not None:
            rep = bootstrap_scores(rng, labels, scores, settings.bootstrap, priors)
            target = TARGET_SCORES + (TARGET_FEW_SCORES if np.unique(scores).size <= FEW_SCORES else "")
            if cb.wanted(settings.calibration, len(labels)):
                cal = cb.calibrate(rng, rep.layout, level, priors, rep.grid)
            else:
                cal = cb.nominal(level, rep.grid.size)
        else:
            rep = bootstrap_crisp(rng, labels, predictions, settings.bootstrap, priors)
            target = TARGET_CRISP
            cal = cb.nominal(level, rep.grid.size)
        lower, upper = cb.calibrated_band(rep.values, cal)
        found["band"] = Band(
            level=level,
            replicates=settings.bootstrap,
            method=rep.method,
            correction=CORRECTION + (CALIBRATED if cal.outer else ""),
            calibration=_calibration(cal),
            target=target,
            type=settings.band,
            pc=rep.grid,
            estimate=rep.estimate,
            lower=lower,
            upper=upper,
            simultaneous=_simultaneous(rep.values, settings, cal.sup_scale),
            score_groups=rep.layout.n_points - 1 if rep.layout is not None and rep.layout.grouped else None,
        )
        found["expected_cost_interval"] = {
            p: ExpectedCostInterval(*cb.calibrated_interval(rep.expected[p], cal.expected_levels(p))) for p in priors
        }
    if inputs.folds is not None:
        avg = fold_average(labels, inputs.folds, inputs.fold_names, scores=scores, predictions=predictions, priors=priors)
        found["fold_average"] = FoldAverageResult(
            n_folds=len(avg.folds),
            folds=tuple(avg.folds),
            skipped_folds=tuple(avg.skipped),
            pc=avg.pc,
            nec=avg.nec,
            lower=avg.lower,
            upper=avg.upper,
            spread="min-max across folds",
            expected_cost=avg.expected,
            fold_expected_cost=avg.fold_expected,
        )
    return found


def pairs_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """The chosen pairs of a dataset from ONE resampling (issue 10): {"comparison_fields": {(a, b): fields}}.

    Task key ``("pairs", dataset)``, generator ``task_rng(seed, "bootstrap", dataset)``:
    :func:`~ccreport.analysis.bootstrap.bootstrap_dataset` resamples the instances once for every
    classifier, and :func:`~ccreport.analysis.significance.dataset_inference` gives each unordered
    pair (manifest order) its family-wise test over PC(+) (the only source of ``significant``), its
    pointwise difference band (for drawing, labelled as not adjusted for reading the whole curve) and
    per prior the paired expected-cost difference interval, p-value and step-down adjusted p-value (p_adj) over
    every pair and prior of the dataset. ``difference`` of each interval is E[a] - E[b] of the point
    comparison, so the two agree exactly. Nothing with ``bootstrap`` = 0 or fewer than two classifiers.
    The same replicates give the dataset hybrid its band, the criteria their intervals and the
    hybrids their paired tests (``hybrid_band``, :mod:`ccreport.hybrid_band_task`; issue 11 item 6).
    """
    members = inputs.classifiers
    if settings.bootstrap <= 0 or len(members) < 2:
        return {}
    rng = task_rng(settings.seed, "bootstrap", inputs.dataset)
    scores = {c.name: c.scores for c in members if c.scores is not None}
    predictions = {c.name: c.predictions for c in members if c.scores is None}
    reps = bootstrap_dataset(rng, inputs.labels, scores, predictions, settings.bootstrap, inputs.priors,
                             readers=hybrid_band_task.readers(inputs))  # issue 11 item 6: read on the same replicates
    names = [c.name for c in members]
    pairs = inputs.chosen_pairs()  # [project] comparisons (ccreport.comparisons); the adjusted p-values' family is these x priors
    level = settings.confidence
    found = dataset_inference(reps, pairs, level, list(inputs.priors))  # crisp pairs: studentized by their cost lines
    point = {n: inputs.point(k).expected_cost for k, n in enumerate(names)}
    out = {}
    for (a, b), inf in found.items():
        fw = inf.family_wise
        lower, upper = inf.pointwise
        out[(a, b)] = {
            "difference_band": DifferenceBand(
                level=level,
                replicates=settings.bootstrap,
                method=reps.method,
                target=TARGET_DIFFERENCE,
                pc=reps.grid,
                estimate=fw.estimate,
                lower=lower,
                upper=upper,
                kind="pointwise",
                note=POINTWISE_NOTE,
            ),
            "family_wise": FamilyWiseResult(
                level=fw.level, method=fw.method, pc=fw.grid, estimate=fw.estimate, lower=fw.lower, upper=fw.upper,
                critical_value=fw.critical, statistic=fw.statistic, p_value=fw.p_value,
            ),
            "significant": _regions(fw.significant),
            "expected_cost_difference_interval": {
                p: ExpectedCostDifferenceInterval(
                    difference=float(point[a][p] - point[b][p]),
                    lower=v["lower"],
                    upper=v["upper"],
                    p_value=v["p_value"],
                    p_value_method=P_METHOD,
                    p_holm=v["p_holm"],
                    adjustment=ADJUST_METHOD,
                )
                for p, v in inf.expected.items()
            },
        }
    return {"comparison_fields": out, "hybrid_band": hybrid_band_task.hybrid_band(inputs, settings, reps)}
