"""The uncertainty part of the battery: bootstrap bands, paired significance, fold averages.

Plans one task per (dataset, classifier) and one per (dataset, pair), each with its own generator
``task_rng(seed, "bootstrap", dataset, classifier[, other])``, runs them (in worker processes when
asked) and returns the ``extra`` entries the Results carry into ``results.json``. Which band each
entry is, and what it covers, is written into the entry itself (``method``, ``target``); the maths
is in :mod:`ccreport.analysis.resampling` (D&H 2006 sections 4.5-4.7 and 5.2).
"""

from __future__ import annotations

import dataclasses

from .analysis import calibration as cb
from .analysis.bands import (
    bootstrap_p_value,
    percentile_interval,
    pointwise_band,
    significant_intervals,
    simultaneous_band,
)
from .analysis.bootstrap import bootstrap_crisp, bootstrap_pair, bootstrap_scores
from .analysis.folds import fold_average
from .battery import Settings, pairs, run_tasks, task_rng

TARGET_SCORES = (
    "the true cost, at each PC(+), of the classifier as selected on this data (the score thresholds "
    "of its lower envelope; D&H 2006 section 5.2), not its cost at thresholds chosen on other data; "
    "the best achievable (true optimal) curve lies at or below it, and in binormal simulations a 90% "
    "band covered that curve 86-91% of the time when calibrated, 84-89% when not (benchmarks/README.md)"
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


def _simultaneous(values, settings: Settings, scale: float = 1.0) -> dict | None:
    """The sup-norm band entry when the manifest's ``band`` asks for one, else None."""
    if settings.band not in ("simultaneous", "both"):
        return None
    lower, upper = simultaneous_band(values, settings.confidence, scale=scale)
    return {"lower": lower, "upper": upper, "method": "studentized sup-norm over 0 <= PC(+) <= 1"}


def classifier_task(dataset: str, name: str, labels, scores, predictions, folds, fold_names, priors, settings: Settings):
    """Band, expected-cost intervals and fold average of one classifier: its ``extra`` entries."""
    extra = {}
    if settings.bootstrap > 0:
        rng = task_rng(settings.seed, "bootstrap", dataset, name)
        level = settings.confidence
        if scores is not None:
            rep = bootstrap_scores(rng, labels, scores, settings.bootstrap, priors)
            target = TARGET_SCORES
            if cb.wanted(settings.calibration, len(labels)):
                cal = cb.calibrate(rng, rep.layout, level, priors, rep.grid)
            else:
                cal = cb.nominal(level, rep.grid.size)
        else:
            rep = bootstrap_crisp(rng, labels, predictions, settings.bootstrap, priors)
            target = TARGET_CRISP
            cal = cb.nominal(level, rep.grid.size)
        lower, upper = cb.calibrated_band(rep.values, cal)
        extra["band"] = {
            "level": level,
            "replicates": settings.bootstrap,
            "method": rep.method,
            "correction": CORRECTION + (CALIBRATED if cal.outer else ""),
            "calibration": cal.describe(),
            "target": target,
            "type": settings.band,
            "pc": rep.grid,
            "estimate": rep.estimate,
            "lower": lower,
            "upper": upper,
            "simultaneous": _simultaneous(rep.values, settings, cal.sup_scale),
        }
        extra["expected_cost_interval"] = {
            p: cb.calibrated_interval(rep.expected[p], cal.expected_levels(p)) for p in priors
        }
    if folds is not None:
        avg = fold_average(labels, folds, fold_names, scores=scores, predictions=predictions, priors=priors)
        extra["fold_average"] = {
            "n_folds": len(avg.folds),
            "folds": list(avg.folds),
            "skipped_folds": list(avg.skipped),
            "pc": avg.pc,
            "nec": avg.nec,
            "lower": avg.lower,
            "upper": avg.upper,
            "spread": "min-max across folds",
            "expected_cost": avg.expected,
            "fold_expected_cost": avg.fold_expected,
        }
    return extra


def pair_task(dataset: str, a: str, b: str, labels, a_scores, a_pred, b_scores, b_pred, priors, expected_difference, settings: Settings):
    """Paired difference band, significant PC(+) intervals and expected-cost differences of a pair."""
    rng = task_rng(settings.seed, "bootstrap", dataset, a, b)
    ra, rb = bootstrap_pair(rng, labels, a_scores, a_pred, b_scores, b_pred, settings.bootstrap, priors)
    diff = ra.values - rb.values
    level = settings.confidence
    lower, upper = pointwise_band(diff, level)
    sim = _simultaneous(diff, settings)
    use_sim = settings.band == "simultaneous"
    band_lo, band_hi = (sim["lower"], sim["upper"]) if use_sim else (lower, upper)
    extra = {
        "difference_band": {
            "level": level,
            "replicates": settings.bootstrap,
            "method": ra.method,
            "target": TARGET_DIFFERENCE,
            "pc": ra.grid,
            "estimate": ra.estimate - rb.estimate,
            "lower": lower,
            "upper": upper,
            "simultaneous": sim,
            "significance_band": "simultaneous" if use_sim else "pointwise",
        },
        "significant": significant_intervals(ra.grid, band_lo, band_hi, a, b),
        "expected_cost_difference_interval": {},
    }
    if settings.band == "both":
        extra["significant_simultaneous"] = significant_intervals(ra.grid, sim["lower"], sim["upper"], a, b)
    for p in priors:
        d = ra.expected[p] - rb.expected[p]
        lo, hi = percentile_interval(d, level)
        extra["expected_cost_difference_interval"][p] = {
            "difference": float(expected_difference[p]),
            "lower": float(lo),
            "upper": float(hi),
            "p_value": bootstrap_p_value(d),
            "p_value_method": "two-sided bootstrap: 2 min(#(d* <= 0) + 1, #(d* >= 0) + 1) / (R + 1)",
        }
    return extra


def _run(kind, args):
    return classifier_task(*args) if kind == "classifier" else pair_task(*args)


def uncertainty_extras(datasets, classifier_results, priors_by_dataset, settings: Settings) -> dict:
    """``extra`` entries for every classifier and pair: {(dataset, name) or (dataset, a, b): dict}.

    ``classifier_results``: {dataset name: {classifier name: ClassifierResult}} (for the pairs' point
    differences of expected cost, so they match the comparisons exactly).
    """
    tasks, keys = [], []
    for data in datasets:
        priors = priors_by_dataset[data.name]
        present = classifier_results.get(data.name, {})
        for name in present:
            args = (data.name, name, data.labels, data.scores.get(name), data.predictions.get(name), data.folds,
                    tuple(data.fold_names), priors, settings)
            tasks.append(("classifier", args))
            keys.append((data.name, name))
        if settings.bootstrap <= 0:
            continue
        for a, b in pairs(list(present)):
            ea, eb = present[a].expected_cost, present[b].expected_cost
            args = (data.name, a, b, data.labels, data.scores.get(a), data.predictions.get(a), data.scores.get(b),
                    data.predictions.get(b), priors, {p: ea[p] - eb[p] for p in priors}, settings)
            tasks.append(("pair", args))
            keys.append((data.name, a, b))
    results = run_tasks(_run, tasks, settings.workers)
    return dict(zip(keys, results))


def with_extra(result, extra: dict):
    """A copy of a frozen ClassifierResult/ComparisonResult with ``extra`` entries added."""
    if not extra:
        return result
    return dataclasses.replace(result, extra={**result.extra, **extra})


