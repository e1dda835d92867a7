"""The threshold-choice part of the battery: one task per dataset, all its classifiers on the same
resamples.

Hernández-Orallo, Flach & Ferri 2013 (*ROC curves in cost space*), read through
``../shared/specs/threshold_choice.md``: for each classifier its threshold choice methods' curves,
exact areas and partial areas on both axes (:mod:`ccreport.analysis.threshold_choice`), and for each
area a bootstrap interval; for each pair of scoring classifiers paired differences of areas.

One task per dataset, keyed ``("threshold_choice", dataset)``, draws with
``task_rng(seed, "threshold_choice", dataset)``: each replicate is one stratified resample of the
dataset's instances (multinomial counts within each class, :func:`multinomial_counts`), shared by
every classifier, so two classifiers' areas in the same replicate are measured on the same
instances and their difference is a paired bootstrap replicate (D&H 2006 section 4.7's argument:
the correlation of the two is kept without being estimated). Replicates are drawn in chunks of at
most ``CHUNK_ELEMENTS`` replicate-instances (:func:`chunk_sizes`: a function of the data only), so
memory is bounded whatever the number of replicates. A scoring classifier's replicate areas are
:func:`replicate_areas` of its replicate ROC counts (the shared counts permuted to its score order
by its :class:`PathLayout`); a crisp classifier's are those of its replicate cost line
(:func:`crisp_line_areas`).

Intervals are percentile intervals (:func:`percentile_interval`) at the report's confidence of the
replicates' own areas. The ``optimal`` and ``skull`` areas are selected on the data (each replicate
re-selects its thresholds), so their intervals describe the in-sample area's sampling spread, not
the optimism that D&H 2006 section 5.2 and the report's bands correct for.

Output: ``{"classifier_fields": {name: {"threshold_choice": ..., "auc_hull": ...}},
"comparison_fields": {(a, b): {"threshold_choice": ...}}}``; :func:`ccreport.tasks.battery.assemble`
puts each entry into its classifier's or pair's result.
"""

from __future__ import annotations

import numpy as np

from ..analysis.bands import bootstrap_p_value, percentile_interval
from ..analysis.path_layout import (
    CHUNK_ELEMENTS,
    chunk_sizes,
    cumulative,
    multinomial_counts,
    path_layout,
)
from ..analysis.piecewise import drawing_points
from ..analysis.replicate_groups import (
    MAX_REPLICATE_GROUPS,
    group_layout,
    group_scores,
    shared_group_counts,
    shift_to_exact,
)
from ..analysis.roc import roc_points
from ..analysis.threshold_choice import (
    AXES,
    CrispThresholdChoice,
    MethodCurve,
    crisp_threshold_choice,
    threshold_choice_from_roc,
)
from ..analysis.threshold_replicates import crisp_line_areas, replicate_areas
from ..project.settings import AnalysisSettings, task_rng
from ..results import (
    AreaDifference,
    PartialAreaResult,
    ThresholdChoiceComparison,
    ThresholdChoiceResult,
    ThresholdMethodResult,
)
from .inputs import TaskInputs

KIND = "threshold_choice"
P_VALUE_METHOD = "two-sided bootstrap: 2 min(#(d* <= 0) + 1, #(d* >= 0) + 1) / (R + 1)"
# replicate_areas holds about ten (replicates x score groups) float arrays at once: a quarter of the
# band engine's chunk keeps it near the same memory
CHUNK = CHUNK_ELEMENTS // 4


def replicate_area_arrays(
    rng: np.random.Generator,
    labels,
    classifiers,
    replicates: int,
    ranges,
    max_groups: int = MAX_REPLICATE_GROUPS,
    shared_rng: np.random.Generator | None = None,
) -> dict:
    """Every classifier's replicate areas on the same stratified resamples: name -> (area, partial).

    ``area[axis][method]`` (R,) and ``partial[axis][method]`` (R, K) (None where the method does not
    apply); a crisp classifier has the one method ``score_fixed``. When a scoring classifier has
    more than ``max_groups`` distinct scores the replicates are computed on merged score groups
    (:func:`_grouped_area_arrays`), drawn from ``shared_rng`` when given (the pairs task's
    generator: the two kinds then share one draw per dataset) and from ``rng`` otherwise.
    """
    y = np.asarray(labels, dtype=bool)
    n_pos = int(np.count_nonzero(y))
    n_neg = y.size - n_pos
    prepared = {}
    for c in classifiers:
        if c.scores is not None:
            scores = np.asarray(c.scores, dtype=float)
            layout = path_layout(y, scores)
            distinct = np.unique(scores)[
                ::-1
            ]  # the score of each group, decreasing (roc.thresholds[1:])
            prepared[c.name] = ("scores", layout, distinct)
        else:
            pred = np.asarray(c.predictions, dtype=bool)
            prepared[c.name] = ("crisp", pred[y].astype(np.int64), pred[~y].astype(np.int64))
    if any(group_layout(p[1], max_groups).grouped for p in prepared.values() if p[0] == "scores"):
        return _grouped_area_arrays(
            rng, n_pos, n_neg, prepared, replicates, ranges, max_groups, shared_rng
        )
    parts: dict[str, list] = {name: [] for name in prepared}
    for size in chunk_sizes(replicates, y.size, CHUNK):
        counts_pos = multinomial_counts(
            rng, n_pos, size
        )  # (size, n_pos), by position within the class
        counts_neg = multinomial_counts(rng, n_neg, size)
        for name, (kind, first, second) in prepared.items():
            if kind == "scores":
                layout = first
                tp = cumulative(counts_pos[:, layout.pos_order])[:, layout.pos_at]
                fp = cumulative(counts_neg[:, layout.neg_order])[:, layout.neg_at]
                ra = replicate_areas(tp, fp, scores=second, partial_ranges=ranges)
                parts[name].append((ra.area, ra.partial))
            else:
                area, partial = crisp_line_areas(
                    counts_pos @ first, counts_neg @ second, n_pos, n_neg, partial_ranges=ranges
                )
                parts[name].append(
                    (
                        {a: {"score_fixed": v} for a, v in area.items()},
                        {a: {"score_fixed": v} for a, v in partial.items()},
                    )
                )
    return {name: _joined(chunks) for name, chunks in parts.items()}


def _grouped_area_arrays(
    rng,
    n_pos: int,
    n_neg: int,
    prepared: dict,
    replicates: int,
    ranges,
    max_groups: int,
    shared_rng=None,
) -> dict:
    """:func:`replicate_area_arrays` on merged score groups
    (:mod:`ccreport.analysis.replicate_groups`).

    Each chunk draws each class's resampled instances once, as positions (the same draws as the
    fine path's :func:`multinomial_counts` from ``rng``; from ``shared_rng`` in the pairs task's
    chunks when given, so that :func:`shared_group_counts` serves both kinds from one draw), and
    every scoring classifier counts them per its groups
    (at most ``max_groups``; one per distinct score for a classifier with fewer, whose areas are
    then those of the fine path); the areas are :func:`replicate_areas` of the group counts, with
    each group's mean score for the Brier curve, in chunks of at most ``CHUNK`` group counts. A
    binned classifier's replicate areas are moved by the sample's binning gap (exact area minus the
    grouped sample's), so their spread about the exact area is the grouped replicates' about the
    grouped sample's area.
    """
    layouts = {
        name: group_layout(p[1], max_groups, force=True)
        for name, p in prepared.items()
        if p[0] == "scores"
    }
    crisp = {name: (p[1], p[2]) for name, p in prepared.items() if p[0] == "crisp"}
    if (
        shared_rng is not None
    ):  # the pairs task's draws (the same generator and chunks): counted once per process
        rng, draws = shared_rng, chunk_sizes(replicates, n_pos + n_neg)
    else:
        draws = chunk_sizes(replicates, n_pos + n_neg, CHUNK)
    found, sums = shared_group_counts(rng, layouts, crisp, replicates, draws)
    parts: dict[str, list] = {name: [] for name in prepared}
    for name, (tp, fp) in sums.items():
        area, partial = crisp_line_areas(tp, fp, n_pos, n_neg, partial_ranges=ranges)
        parts[name].append(
            (
                {a: {"score_fixed": v} for a, v in area.items()},
                {a: {"score_fixed": v} for a, v in partial.items()},
            )
        )
    out = {}
    for name, lay in layouts.items():
        distinct = prepared[name][2]
        binned = lay.n_points < lay.fine.n_points
        scores = group_scores(lay, distinct) if binned else distinct
        pos, neg = found[name]
        start = 0
        # binned: chunks of group counts; else the draws' chunks (the fine path's sums, to the bit)
        for size in chunk_sizes(replicates, lay.n_points, CHUNK) if binned else draws:
            # column-major, as the fine path's cumulative(...)[:, pos_at] is (its row sums, to the
            # bit)
            tp = np.asfortranarray(cumulative(pos[start : start + size]))
            fp = np.asfortranarray(cumulative(neg[start : start + size]))
            ra = replicate_areas(tp, fp, scores=scores, partial_ranges=ranges)
            parts[name].append((ra.area, ra.partial))
            start += size
        out[name] = _joined(parts[name])
        if binned:
            fine = lay.fine
            exact = replicate_areas(
                fine.pos_at[None], fine.neg_at[None], scores=distinct, partial_ranges=ranges
            )
            coarse = replicate_areas(
                lay.pos_count[None], lay.neg_count[None], scores=scores, partial_ranges=ranges
            )
            out[name] = _shifted(out[name], exact, coarse)
    return {name: out[name] if name in out else _joined(parts[name]) for name in prepared}


def _shifted(arrays, exact, coarse) -> tuple[dict, dict]:
    """Replicate ``(area, partial)`` dicts moved by ``exact - coarse`` (one-row
    :class:`ReplicateAreas`)."""
    area, partial = arrays
    moved = ({}, {})
    for out, found, ex, co in (
        (moved[0], area, exact.area, coarse.area),
        (moved[1], partial, exact.partial, coarse.partial),
    ):
        for axis, by_method in found.items():
            out[axis] = {
                m: None if v is None else shift_to_exact(v, ex[axis][m][0], co[axis][m][0])
                for m, v in by_method.items()
            }
    return moved


def _joined(chunks) -> tuple[dict, dict]:
    """Chunks of ``(area, partial)`` dicts joined along the replicate axis."""
    area, partial = {}, {}
    for axis, by_method in chunks[0][0].items():
        area[axis] = {
            m: None if v is None else np.concatenate([c[0][axis][m] for c in chunks])
            for m, v in by_method.items()
        }
        partial[axis] = {
            m: None if v is None else np.concatenate([c[1][axis][m] for c in chunks])
            for m, v in chunks[0][1][axis].items()
        }
    return area, partial


def _interval(values, level: float):
    lo, hi = percentile_interval(values, level)
    return float(lo), float(hi)


def method_result(
    mc: MethodCurve, area=None, partial=None, level: float = 0.9
) -> ThresholdMethodResult:
    """One method's result: its exact area and partial areas, their intervals from the replicate
    arrays (``area`` (R,), ``partial`` (R, K); None: no interval) and its drawable curve
    (:func:`drawing_points`: at most 2001 points)."""
    parts = tuple(
        PartialAreaResult(
            low=p.low,
            high=p.high,
            area=p.area,
            interval=None if partial is None or p.area is None else _interval(partial[:, k], level),
            aoc=p.aoc,
        )
        for k, p in enumerate(mc.partial)
    )
    if mc.curve is None:
        return ThresholdMethodResult(None, None, parts, None, mc.not_applicable)
    x, y = drawing_points(mc.curve)
    return ThresholdMethodResult(
        area=float(mc.area),
        interval=None if area is None else _interval(area, level),
        partial=parts,
        curve=np.column_stack((x, y)),
    )


def classifier_result(point, replicates, level: float, shown_axes=("pc",)) -> ThresholdChoiceResult:
    """A classifier's :class:`ThresholdChoiceResult` from its point analysis (a ThresholdChoice or
    CrispThresholdChoice) and its replicate arrays (``(area, partial)`` or None)."""
    area, partial = replicates if replicates is not None else ({}, {})
    if isinstance(point, CrispThresholdChoice):
        by_axis = {axis: {"score_fixed": line} for axis, line in point.lines.items()}
        note = point.note
    else:
        by_axis, note = point.methods, None
    methods = {
        axis: {
            m: method_result(mc, area.get(axis, {}).get(m), partial.get(axis, {}).get(m), level)
            for m, mc in by_method.items()
        }
        for axis, by_method in by_axis.items()
    }
    return ThresholdChoiceResult(methods=methods, note=note, shown_axes=tuple(shown_axes))


def paired_differences(
    point_a, point_b, reps_a, reps_b, replicates: int, level: float
) -> ThresholdChoiceComparison:
    """Kendall-area and skull-minus-optimal differences a - b with paired intervals and p-values."""
    differences = {}
    for axis in AXES:
        (aa, _), (ab, _) = reps_a, reps_b
        ma, mb = point_a.methods[axis], point_b.methods[axis]
        found = {}
        d = aa[axis]["kendall"] - ab[axis]["kendall"]
        found["kendall"] = AreaDifference(
            float(ma["kendall"].area - mb["kendall"].area),
            _interval(d, level),
            bootstrap_p_value(d),
        )
        gap_a = aa[axis]["skull"] - aa[axis]["optimal"]
        gap_b = ab[axis]["skull"] - ab[axis]["optimal"]
        est = (ma["skull"].area - ma["optimal"].area) - (mb["skull"].area - mb["optimal"].area)
        d = gap_a - gap_b
        found["skull_minus_optimal"] = AreaDifference(
            float(est), _interval(d, level), bootstrap_p_value(d)
        )
        differences[axis] = found
    return ThresholdChoiceComparison(
        differences=differences, replicates=replicates, level=level, p_value_method=P_VALUE_METHOD
    )


def dataset_task(inputs: TaskInputs, settings: AnalysisSettings) -> dict:
    """Threshold choice of every classifier on one dataset, with intervals and paired differences
    when ``bootstrap`` > 0 (see the module docstring for the output)."""
    labels, ranges = inputs.labels, settings.partial_ranges
    point = {}
    for c in inputs.classifiers:
        if c.scores is not None:
            point[c.name] = threshold_choice_from_roc(
                roc_points(labels, c.scores), partial_ranges=ranges
            )
        else:
            point[c.name] = crisp_threshold_choice(labels, c.predictions, partial_ranges=ranges)
    reps = {}
    if settings.bootstrap > 0 and inputs.classifiers:
        rng = task_rng(settings.seed, KIND, inputs.dataset)
        shared = task_rng(settings.seed, "bootstrap", inputs.dataset)  # above B distinct scores
        reps = replicate_area_arrays(
            rng, labels, inputs.classifiers, settings.bootstrap, ranges, shared_rng=shared
        )
    level = settings.confidence
    shown = AXES if settings.threshold_axis == "both" else (settings.threshold_axis,)
    classifiers = {
        name: {
            "threshold_choice": classifier_result(p, reps.get(name), level, shown),
            "auc_hull": float(p.auc_hull),
        }
        for name, p in point.items()
    }
    comparisons = {}
    for a, b in inputs.chosen_pairs():  # [project] comparisons
        if (
            reps
            and not isinstance(point[a], CrispThresholdChoice)
            and not isinstance(point[b], CrispThresholdChoice)
        ):
            found = paired_differences(
                point[a], point[b], reps[a], reps[b], settings.bootstrap, level
            )
            comparisons[(a, b)] = {"threshold_choice": found}
    return {"classifier_fields": classifiers, "comparison_fields": comparisons}
