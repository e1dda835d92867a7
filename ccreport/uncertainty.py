"""The uncertainty part of the battery: bootstrap bands, paired significance, fold averages.

Two task functions of the battery's plan (:mod:`ccreport.battery`): :func:`classifier_task` for
each (dataset, classifier) and :func:`pair_task` for each (dataset, pair), each with its own
generator ``task_rng(seed, "bootstrap", dataset, classifier[, other])``. They return the typed
results (:class:`~ccreport.results.Band`,
:class:`~ccreport.results.FoldAverageResult`, :class:`~ccreport.results.DifferenceBand`, ...) as
the fields of the classifier and comparison results they belong to. Which band each is, and what
it covers, is written into the result itself (``method``, ``target``); the maths is in
:mod:`ccreport.analysis.bootstrap`, :mod:`ccreport.analysis.bands` and :mod:`ccreport.analysis.folds` (D&H 2006 sections 4.5-4.7 and 5.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from .results import (
    Band,
    CalibrationDescription,
    DifferenceBand,
    ExpectedCostDifferenceInterval,
    ExpectedCostInterval,
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


def pair_task(inputs: TaskInputs, expected_difference: dict, settings: AnalysisSettings) -> dict:
    """Paired difference band, significant PC(+) intervals and expected-cost differences of a pair
    (``inputs.classifiers`` = (a, b)): {ComparisonResult field: result}.

    ``expected_difference``: prior -> E[a] - E[b] of the point comparison, written beside each
    interval so the two agree exactly.
    """
    ca, cb_ = inputs.classifiers
    a, b, priors = ca.name, cb_.name, inputs.priors
    rng = task_rng(settings.seed, "bootstrap", inputs.dataset, a, b)
    ra, rb = bootstrap_pair(rng, inputs.labels, ca.scores, ca.predictions, cb_.scores, cb_.predictions,
                               settings.bootstrap, priors)
    diff = ra.values - rb.values
    level = settings.confidence
    lower, upper = pointwise_band(diff, level)
    sim = _simultaneous(diff, settings)
    use_sim = settings.band == "simultaneous"
    band_lo, band_hi = (sim.lower, sim.upper) if use_sim else (lower, upper)
    intervals = {}
    for p in priors:
        d = ra.expected[p] - rb.expected[p]
        lo, hi = percentile_interval(d, level)
        intervals[p] = ExpectedCostDifferenceInterval(
            difference=float(expected_difference[p]),
            lower=float(lo),
            upper=float(hi),
            p_value=bootstrap_p_value(d),
            p_value_method="two-sided bootstrap: 2 min(#(d* <= 0) + 1, #(d* >= 0) + 1) / (R + 1)",
        )
    return {
        "difference_band": DifferenceBand(
            level=level,
            replicates=settings.bootstrap,
            method=ra.method,
            target=TARGET_DIFFERENCE,
            pc=ra.grid,
            estimate=ra.estimate - rb.estimate,
            lower=lower,
            upper=upper,
            simultaneous=sim,
            significance_band="simultaneous" if use_sim else "pointwise",
        ),
        "significant": _regions(significant_intervals(ra.grid, band_lo, band_hi, a, b)),
        "expected_cost_difference_interval": intervals,
        "significant_simultaneous": (
            _regions(significant_intervals(ra.grid, sim.lower, sim.upper, a, b)) if settings.band == "both" else None
        ),
    }
