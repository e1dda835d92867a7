"""The uncertainty part of the battery: bootstrap bands, paired significance, fold averages.

Two task functions of the battery's plan (:mod:`ccreport.tasks.battery`): :func:`classifier_task`
for each (dataset, classifier), with its generator
``task_rng(seed, "bootstrap", dataset, classifier)``, and :func:`pairs_task` once per dataset (one
resampling, generator ``task_rng(seed, "bootstrap", dataset)``: every classifier's replicates and
its pairs' family-wise significance and Holm). A scoring classifier's band is read from the
dataset's one resampling and calibrated by its own task: the two halves meet in :func:`join_band`
when the battery assembles the results. They return the typed results
(:class:`~ccreport.results.Band`, :class:`~ccreport.results.FoldAverageResult`,
:class:`~ccreport.results.DifferenceBand`, ...) as the fields of the classifier and comparison
results they belong to. Which band each is, and what it covers, is written into the result itself
(``method``, ``target``); the maths is in :mod:`ccreport.analysis.bootstrap`,
:mod:`ccreport.analysis.bands` and :mod:`ccreport.analysis.folds` (D&H 2006 sections 4.5-4.7
and 5.2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..analysis import calibration as cb
from ..analysis import measured_coverage as mc
from ..analysis.bands import simultaneous_band
from ..analysis.bootstrap import bootstrap_crisp, bootstrap_scores, merged_groups, scores_method
from ..analysis.folds import fold_average
from ..analysis.hull_costs import GRID
from ..analysis.paired_bootstrap import bootstrap_dataset
from ..analysis.path_layout import path_layout
from ..analysis.replicate_groups import group_layout
from ..analysis.significance import (
    ADJUST_METHOD,
    P_METHOD,
    POINTWISE_NOTE,
    dataset_inference,
)
from ..project.settings import AnalysisSettings, task_rng
from ..results import (
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
from . import hybrid_band_task
from .inputs import TaskInputs

TARGET_SCORES = (
    "the true cost, at each PC(+), of the classifier as selected on this data (the score "
    "thresholds of its lower envelope; D&H 2006 section 5.2), not its cost at thresholds chosen "
    "on other data; the best achievable (true optimal) curve lies at or below it, and in "
    "binormal simulations at n = 200 a 90% band covered that curve "
    f"{mc.span(mc.CONTINUOUS_OPTIMAL)} of the time at PC(+) = 0.1-0.9 ({mc.SOURCE})"
)
FEW_SCORES = (
    10  # distinct scores at or below which the band's target text states the measured coverage
)
TARGET_FEW_SCORES = (
    "; with few distinct scores the band's lower edge also reaches the basic bootstrap's, so it "
    "covers the best achievable cost too; in binormal simulations with scores rounded to 5 "
    "values at n = 200 a 90% band covered this target "
    f"{mc.span(mc.FIVE_ROUNDED_SELECTED)} of the time at PC(+) = 0.1-0.9 and "
    f"{mc.pct(mc.FIVE_ROUNDED_AT_005)}% at 0.05: above 95% where the cost is nearly known (the "
    "sample selects a trivial classifier, or a line with no false positive whose true rate lies "
    f"below any 95% binomial bound of a count of 0; {mc.SOURCE})"
)
TARGET_CRISP = (
    "the true cost of this classifier's cost line, where it is cheaper than the trivial "
    "classifiers (elsewhere the trivial classifiers' known cost; D&H 2006 section 4.6)"
)
TARGET_DIFFERENCE = "the difference a - b of the two classifiers' true costs, as in their own bands"
CORRECTION = (
    "optimism-corrected percentiles (Efron 1983): estimate + in-sample cost of the replicate's "
    "selection - replicate's own cost"
)
CALIBRATED = (
    "; upper edge and sup-norm critical value calibrated by a double bootstrap (Beran 1987 "
    "prepivoting)"
)
STUDENTIZED = (
    "; studentized (bootstrap-t, Efron & Tibshirani 1993 ch. 12): the pointwise band and the "
    "expected-cost intervals are estimate + the sample's sd x quantiles of (corrected replicate "
    "- estimate) / the replicate's own sd, each sd that of the selected thresholds' cost (D&H "
    "2006 Eq. 8)"
)


def _simultaneous(
    values, settings: AnalysisSettings, scale: float = 1.0
) -> SimultaneousBand | None:
    """The sup-norm band when the manifest's ``band`` asks for one, else None."""
    if settings.band not in ("simultaneous", "both"):
        return None
    lower, upper = simultaneous_band(values, settings.confidence, scale=scale)
    return SimultaneousBand(
        lower=lower, upper=upper, method="studentized sup-norm over 0 <= PC(+) <= 1"
    )


def _calibration(cal) -> CalibrationDescription | None:
    described = cal.describe()
    return None if described is None else CalibrationDescription(**described)


def _regions(found) -> tuple[SignificantRegion, ...]:
    return tuple(SignificantRegion(lo=r["lo"], hi=r["hi"], better=r["better"]) for r in found)


BAND_REPLICATES = (
    "band_replicates"  # pairs_task -> join_band: a scoring classifier's BandReplicates
)
BAND_CALIBRATION = "band_calibration"  # classifier_task -> join_band: its BandCalibration


@dataclass(frozen=True, eq=False)
class BandReplicates:
    """What a scoring classifier's band takes from the dataset's one resampling: the
    optimism-corrected replicate curves ``values`` (R, m) on ``grid``, the replicates' expected
    costs per prior (R,), the sample's curve ``estimate``, the resampling's ``method`` and the
    merged score groups the replicates were computed on (None when exact)."""

    grid: np.ndarray
    values: np.ndarray
    expected: dict
    estimate: np.ndarray
    method: str
    score_groups: int | None
    # what the intervals are studentized by (None: percentile intervals): each replicate's sd of its
    # selection's cost (R, m) and the sample's (m,), and per prior the same for the expected costs
    sd: np.ndarray | None = None
    sd_estimate: np.ndarray | None = None
    expected_sd: dict | None = None
    expected_sd_estimate: dict | None = None
    expected_estimate: dict | None = None
    raw_expected: dict | None = (
        None  # prior -> each replicate's own (uncorrected) expected cost (R,)
    )
    raw: np.ndarray | None = None  # each replicate's own envelope (R, m)
    sd_floor: np.ndarray | None = None  # Agresti-Coull sd of the unresampled rates (m,)
    few_scores: bool = (
        False  # at most FEW_SCORES distinct scores: the lower edges reach the basic bootstrap's
    )


@dataclass(frozen=True, eq=False)
class BandCalibration:
    """What a scoring classifier's own task adds to its band: the calibrated levels ``calibration``
    (:class:`~ccreport.analysis.calibration.Calibration`), what the band covers (``target``) and the
    analysis settings (level, replicates, band type)."""

    calibration: cb.Calibration
    target: str
    settings: AnalysisSettings


def band_replicates(rep) -> BandReplicates:
    """A scoring classifier's :class:`BandReplicates` from its ``Replicates`` (the dataset's
    resampling, or its own stratified bootstrap when it is the dataset's only classifier)."""
    return BandReplicates(
        grid=rep.grid,
        values=rep.values,
        expected=rep.expected,
        estimate=rep.estimate,
        method=scores_method(rep.layout),
        score_groups=merged_groups(rep.layout),
        sd=rep.sd,
        sd_estimate=rep.sd_estimate,
        expected_sd=rep.expected_sd,
        expected_sd_estimate=rep.expected_sd_estimate,
        expected_estimate=rep.expected_estimate,
        raw_expected=rep.raw_expected,
        raw=rep.raw,
        sd_floor=rep.sd_floor,
        few_scores=distinct_scores(rep.layout) <= FEW_SCORES,
    )


def distinct_scores(layout) -> int:
    """The number of distinct scores of the classifier whose (possibly grouped) path ``layout``
    is."""
    if layout is None:
        return 0
    return (layout.fine if layout.grouped else layout).n_points - 1


def interval_fields(rep, cal, priors) -> dict:
    """The band ``(lower, upper)`` and, per prior name in ``priors``, the expected-cost interval
    ``[lower, upper]`` of replicates ``rep`` (``values``, ``estimate``, ``expected``; with ``sd``
    and ``expected_sd`` studentized) read at the calibrated levels ``cal``.

    A scoring classifier's replicates carry their selections' own sds, and its band and intervals
    are studentized (bootstrap-t, :func:`~ccreport.analysis.calibration.studentized_band` and
    :func:`~ccreport.analysis.calibration.studentized_interval`); a crisp classifier's (its
    selection fixed, binomial) are percentile intervals
    (:func:`~ccreport.analysis.calibration.calibrated_band`)."""
    sd = getattr(rep, "sd", None)
    if sd is None:
        band = cb.calibrated_band(rep.values, cal)
    else:
        raw = getattr(rep, "raw", None)
        few = getattr(rep, "few_scores", False)
        basic = 2.0 * rep.estimate - raw if few and raw is not None else None
        band = cb.studentized_band(
            rep.values,
            rep.estimate,
            sd,
            rep.sd_estimate,
            cal,
            basic,
            getattr(rep, "sd_floor", None),
        )
    e_sd = getattr(rep, "expected_sd", None)
    few = getattr(rep, "few_scores", False)
    intervals = {}
    for p in priors:
        if e_sd is None or p not in e_sd:
            intervals[p] = cb.calibrated_interval(rep.expected[p], cal.expected_levels(p))
        else:
            intervals[p] = cb.studentized_interval(
                rep.expected[p],
                rep.expected_estimate[p],
                e_sd[p],
                rep.expected_sd_estimate[p],
                cal.expected_levels(p),
                basic=2.0 * rep.expected_estimate[p] - rep.raw_expected[p] if few else None,
            )
    return {"band": band, "expected_cost_interval": intervals}


def _band_fields(
    rep, cal, settings: AnalysisSettings, target: str, priors, score_groups=None
) -> dict:
    """The ``band`` and ``expected_cost_interval`` fields of replicates ``rep`` (``grid``,
    ``values``, ``expected``, ``estimate``, ``method``) read at the calibrated levels ``cal``."""
    level = settings.confidence
    found = interval_fields(rep, cal, priors)
    lower, upper = found["band"]
    band = Band(
        level=level,
        replicates=settings.bootstrap,
        method=rep.method,
        correction=CORRECTION
        + (STUDENTIZED if getattr(rep, "sd", None) is not None else "")
        + (CALIBRATED if cal.outer else ""),
        calibration=_calibration(cal),
        target=target,
        type=settings.band,
        pc=rep.grid,
        estimate=rep.estimate,
        lower=lower,
        upper=upper,
        simultaneous=_simultaneous(rep.values, settings, cal.sup_scale),
        score_groups=score_groups,
    )
    intervals = {p: ExpectedCostInterval(*v) for p, v in found["expected_cost_interval"].items()}
    return {"band": band, "expected_cost_interval": intervals}


def classifier_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """Band calibration or crisp band, and fold average, of one classifier: {ClassifierResult field:
    result}.

    With ``bootstrap`` > 0: a crisp classifier's binomial band and intervals; a scoring classifier's
    calibration (:mod:`ccreport.analysis.calibration`, on the layout its replicates would have on
    their own: at most ``MAX_REPLICATE_GROUPS`` score groups) under ``BAND_CALIBRATION``, which
    :func:`join_band` reads with the dataset's replicates (:func:`pairs_task`). The fold average
    when the dataset has folds.
    """
    (c,) = inputs.classifiers
    labels, scores, predictions, priors = inputs.labels, c.scores, c.predictions, inputs.priors
    found = {}
    if settings.bootstrap > 0:
        rng = task_rng(settings.seed, "bootstrap", inputs.dataset, c.name)
        level = settings.confidence
        if scores is not None:
            if cb.wanted(
                settings.calibration, len(labels)
            ):  # on the layout its own replicates would have
                cal = cb.calibrate(
                    rng, group_layout(path_layout(labels, scores)), level, priors, GRID
                )
            else:
                cal = cb.nominal(level, GRID.size)
            target = TARGET_SCORES + (
                TARGET_FEW_SCORES if np.unique(scores).size <= FEW_SCORES else ""
            )
            found[BAND_CALIBRATION] = BandCalibration(cal, target, settings)
        else:
            rep = bootstrap_crisp(rng, labels, predictions, settings.bootstrap, priors)
            found.update(
                _band_fields(rep, cb.nominal(level, rep.grid.size), settings, TARGET_CRISP, priors)
            )
    if inputs.folds is not None:
        avg = fold_average(
            labels,
            inputs.folds,
            inputs.fold_names,
            scores=scores,
            predictions=predictions,
            priors=priors,
        )
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


def join_band(fields: dict) -> dict:
    """A classifier's fields with its band joined: the dataset's replicates (``BAND_REPLICATES``,
    from :func:`pairs_task`) read at the levels its own task calibrated (``BAND_CALIBRATION``) give
    ``band`` and ``expected_cost_interval``. Fields without both are returned without either key."""
    fields = dict(fields)
    rep, own = fields.pop(BAND_REPLICATES, None), fields.pop(BAND_CALIBRATION, None)
    if rep is not None and own is not None:
        fields.update(
            _band_fields(
                rep, own.calibration, own.settings, own.target, list(rep.expected), rep.score_groups
            )
        )
    return fields


def pairs_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """Every classifier's replicates and the chosen pairs of a dataset from ONE resampling (issues 9
    and 10): {"classifier_fields": {name: {BAND_REPLICATES: ...}}, "comparison_fields":
    {(a, b): fields}}.

    Task key ``("pairs", dataset)``, generator ``task_rng(seed, "bootstrap", dataset)``:
    :func:`~ccreport.analysis.paired_bootstrap.bootstrap_dataset` resamples the instances once for
    every classifier, and :func:`~ccreport.analysis.significance.dataset_inference` gives each
    unordered pair (manifest order) its family-wise test over PC(+) (the only source of
    ``significant``), its pointwise difference band (for drawing, labelled as not adjusted for
    reading the whole curve) and per prior the paired expected-cost difference interval, p-value and
    step-down adjusted p-value (p_adj) over every pair and prior of the dataset. ``difference`` of
    each interval is E[a] - E[b] of the point comparison, so the two agree exactly. The same
    replicates give each scoring classifier its band (``BAND_REPLICATES``, joined with its own
    task's calibration by :func:`join_band`), the dataset hybrid its band, the criteria their
    intervals and the hybrids their paired tests (``hybrid_band``,
    :mod:`ccreport.tasks.hybrid_band_task`). Nothing with ``bootstrap`` = 0. With one classifier
    only its replicates, from its own stratified bootstrap
    (:func:`~ccreport.analysis.bootstrap.bootstrap_scores`: the same procedure, and on merged score
    groups drawn per group, O(R x groups), where the shared draw is O(R x n)).
    """
    members = inputs.classifiers
    if settings.bootstrap <= 0 or not members:
        return {}
    rng = task_rng(settings.seed, "bootstrap", inputs.dataset)
    # nothing to pair: a scoring classifier's own stratified bootstrap; a crisp one's band is
    # binomial
    if len(members) == 1:
        (c,) = members
        if c.scores is None:
            return {}
        rep = bootstrap_scores(rng, inputs.labels, c.scores, settings.bootstrap, inputs.priors)
        return {"classifier_fields": {c.name: {BAND_REPLICATES: band_replicates(rep)}}}
    scores = {c.name: c.scores for c in members if c.scores is not None}
    predictions = {c.name: c.predictions for c in members if c.scores is None}
    reps = bootstrap_dataset(
        rng,
        inputs.labels,
        scores,
        predictions,
        settings.bootstrap,
        inputs.priors,
        readers=hybrid_band_task.readers(inputs),
    )  # read on the same replicates
    bands = {name: {BAND_REPLICATES: band_replicates(reps.classifiers[name])} for name in scores}
    names = [c.name for c in members]
    # [project] comparisons (ccreport.tasks.comparisons); the adjusted p-values' family is these
    # x priors
    pairs = inputs.chosen_pairs()
    level = settings.confidence
    found = dataset_inference(
        reps, pairs, level, list(inputs.priors)
    )  # crisp pairs: studentized by their cost lines
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
                level=fw.level,
                method=fw.method,
                pc=fw.grid,
                estimate=fw.estimate,
                lower=fw.lower,
                upper=fw.upper,
                critical_value=fw.critical,
                statistic=fw.statistic,
                p_value=fw.p_value,
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
    return {
        "classifier_fields": bands,
        "comparison_fields": out,
        "hybrid_band": hybrid_band_task.hybrid_band(inputs, settings, reps),
    }
