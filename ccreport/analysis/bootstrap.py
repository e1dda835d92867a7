"""Bootstrap replicates of cost curves: one scoring classifier, or a crisp one.

Drummond & Holte 2006, *Cost curves* (MLJ 65):

* section 4.6 (Fig. 16, Eq. 8): confidence intervals on a cost line by resampling the confusion
  matrix conditioned on its row marginals (two binomials: the class counts are fixed, because the
  deployment class frequency is an operating condition, not a sample statistic);
* section 5.2: for a hybrid (a lower envelope built piecewise from many cost lines) the same
  resampling applies piecewise; for a scoring classifier we resample instances, stratified by class
  (the instance-level form of conditioning on the row marginals), and recompute its lower envelope.

Several classifiers on the same resampled instances (a pair, section 4.7, or a whole dataset, issue
9) are :mod:`ccreport.analysis.paired_bootstrap`'s; it runs the engine below.

Engine
------
A stratified bootstrap replicate of a scoring classifier is a vector of multinomial counts, one per
instance, drawn separately within each class. With the scores sorted once (:class:`PathLayout`), the
replicate's ROC path is the cumulative sum of those counts in the presorted order (the "bare floor"
of the computation); its hull is :func:`ccreport.analysis.hulls.replicate_hulls`, and its costs are
read off the hull by :mod:`ccreport.analysis.hull_costs`. Replicates are drawn in chunks of at most
``CHUNK_ELEMENTS`` instances (:func:`chunk_sizes`, a function of the data only, never of workers),
in one loop that serves one classifier and a pair alike (:func:`stratified_curves`; as SciPy's
``bootstrap(paired=True)`` resamples shared indices rather than running a second engine). Each
chunk's curves become optimism-corrected :class:`Replicates` (:func:`collect_replicates`), which the
bands and tests read (:mod:`ccreport.analysis.bands`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .hull_costs import (
    GRID,
    HullCurves,
    costs_sd_at,
    expected_sd,
    hull_curves,
    hulls_expected,
    hulls_on_grid,
    line_sd,
    optimal_vertices,
    switches,
    unseen_sd_at,
    vertex_intervals,
)
from .hulls import Hulls, crisp_hulls, fixed_vertices, replicate_hulls, sample_hull
from .path_layout import (  # the layout and resampling primitives, also imported from here
    PathLayout,
    chunk_sizes,
    cumulative,
    multinomial_counts,
    path_layout,
)
from .replicate_groups import (
    MAX_REPLICATE_GROUPS,
    group_counts,
    group_layout,
    group_sizes,
    shared_group_counts,
    shift_to_exact,
)
from .roc import crisp_roc

SELECTIONS = ("resample", "fixed")


# --- replicate sets -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Replicates:
    """Bootstrap replicates of one classifier's cost curve on a PC(+) grid, and expected costs.

    ``raw`` (R, m): each replicate's own lower envelope (thresholds re-selected on the replicate).
    ``values`` (R, m): the optimism-corrected replicates the bands are read from (Efron 1983's
    optimism bootstrap, applied to D&H 2006 section 5.2's point that an envelope selected on the
    data is an optimistic estimate of its own cost):

        c*_j = t_j + (C(v*_j) - t*_j),

    where t_j is the sample envelope at pc_j, t*_j the replicate's envelope, and C(v*_j) the cost
    *in the original sample* of the hull vertex (score threshold) the replicate selected at pc_j. In
    the bootstrap world the original sample plays the population, so ``C(v*) - t*`` is a draw of
    "true cost of the selected classifier minus its apparent cost"; its spread is the sampling noise
    and its mean the optimism. Percentiles of ``c*`` are intervals for the true cost of the
    classifier selected on the data (the bands' target (a)). Where the replicate selects a trivial
    classifier and the sample did not, ``c*_j = 2 t_j - t*_j(v_j)`` instead, the replicate's error
    of the sample's own selection v_j (:func:`trivial_swap`); the expected costs keep the plain
    correction.

    For a crisp classifier ``values`` are instead the replicate's cost of the sample's selection
    (:func:`crisp_replicates`), and ``expected`` their expected costs.

    ``estimate``: the sample envelope on the grid; ``expected``/``raw_expected``: prior name -> (R,)
    expected costs of the corrected / raw replicates; ``expected_estimate``: prior -> the sample's;
    ``layout``: a scoring classifier's sorted path (reused by the calibration), None when crisp.
    """

    grid: np.ndarray
    values: np.ndarray
    raw: np.ndarray
    estimate: np.ndarray
    expected: dict
    raw_expected: dict
    expected_estimate: dict
    method: str
    layout: PathLayout | None = None
    # for hybrids over several classifiers (ccreport.analysis.selection.hybrid_bands), set by
    # paired_bootstrap.bootstrap_dataset: the replicate selection's cost in the sample (R, m),
    # whether it is a trivial classifier (R, m), the replicate's cost of the sample's own selection
    # (R, m), and each ``readers`` entry's arrays concatenated over chunks (name -> {key: (R,)})
    in_sample: np.ndarray | None = None
    trivial: np.ndarray | None = None
    sample_cost: np.ndarray | None = None
    readings: dict | None = None
    # a crisp classifier's bare cost lines fnr* pc + fpr* (1 - pc) (R, m) and the sample's (m,), not
    # clipped by the trivial classifiers: what a crisp pair's family-wise test is studentized by
    # (:func:`ccreport.analysis.significance.crisp_reference`); None for a scoring classifier
    line: np.ndarray | None = None
    line_estimate: np.ndarray | None = None
    # prior -> each replicate's plug-in sd of its expected cost, selection fixed (R,), and the
    # sample's (float): what the expected-cost interval is studentized by (hull_costs.expected_sd)
    expected_sd: dict | None = None
    expected_sd_estimate: dict | None = None
    # each replicate's binomial sd of its selection's cost on the grid (R, m; of the sample's
    # selection where trivial_swap swapped) and the sample's (m,): what the band is studentized by
    sd: np.ndarray | None = None
    sd_estimate: np.ndarray | None = None
    sample_sd: np.ndarray | None = None  # each replicate's sd of the sample's own selection (R, m)
    # the sample selection's sd with Agresti-Coull rates (m,), of only the rates whose count is 0 or
    # all of a class (hull_costs.unseen_sd_at; 0 elsewhere): where it is > 0 the band's upper edge
    # is at least the binomial bound it gives (calibration.studentized_band)
    sd_floor: np.ndarray | None = None
    # the same with every rate's term (hull_costs.costs_sd_at, plus=2): the hybrid band's floor
    sd_plus: np.ndarray | None = None


def _readings(parts: list) -> dict | None:
    """Chunks' reader outputs ``[{reader: {key: (r,)}}, ...]`` concatenated over chunks."""
    if not parts or parts[0] is None:
        return None
    return {
        name: {k: np.concatenate([p[name][k] for p in parts]) for k in parts[0][name]}
        for name in parts[0]
    }


def collect_replicates(
    parts: list, priors, grid, estimate_hull: Hulls, method, layout=None
) -> Replicates:
    """The chunks' curves and the sample's own, as optimism-corrected :class:`Replicates`.

    ``parts``: per chunk ``(HullCurves, swap, sample_cost)`` (:func:`_chunk_curves`); where ``swap``
    is true the corrected value is ``2 t - sample_cost`` instead (:func:`trivial_swap`).
    ``estimate_hull``: the sample's exact hull (the estimate). With a grouped ``layout``
    (:mod:`ccreport.analysis.replicate_groups`) every replicate quantity is moved by the sample's
    binning gap (``shift_to_exact``), so deviations are grouped replicate minus grouped sample.
    """
    raw = np.concatenate([p[0].raw for p in parts], axis=0)
    ins = np.concatenate([p[0].in_sample for p in parts], axis=0)
    est = hulls_on_grid(estimate_hull, grid)[0]
    est_e = {p: float(hulls_expected(estimate_hull, prior)[0]) for p, prior in priors.items()}
    raw_e = {p: np.concatenate([q[0].raw_expected[p] for q in parts]) for p in priors}
    ins_e = {p: np.concatenate([q[0].in_sample_expected[p] for q in parts]) for p in priors}
    sample_cost = np.concatenate([p[2] for p in parts], axis=0) if parts[0][2] is not None else None
    have_sd = parts[0][0].raw_expected_sd is not None
    sd = (
        {p: np.concatenate([q[0].raw_expected_sd[p] for q in parts]) for p in priors}
        if have_sd
        else None
    )
    sd_hull = sample_hull(layout) if layout is not None and layout.grouped else estimate_hull
    sd_est = {p: float(sample_expected_sd(sd_hull, prior)[0]) for p, prior in priors.items()}
    grid_sd = (
        np.concatenate([p[0].raw_sd for p in parts], axis=0)
        if parts[0][0].raw_sd is not None
        else None
    )
    sample_sd = (
        np.concatenate([p[0].sample_sd for p in parts], axis=0)
        if parts[0][0].sample_sd is not None
        else None
    )
    selected = optimal_vertices(sd_hull, grid)
    grid_sd_est = costs_sd_at(sd_hull, selected, grid)[0]
    grid_sd_plus = costs_sd_at(sd_hull, selected, grid, plus=2)[0]
    grid_sd_unseen = unseen_sd_at(sd_hull, selected, grid)[0]
    if layout is not None and layout.grouped:
        coarse = sample_hull(layout)
        est_b = hulls_on_grid(coarse, grid)[0]
        raw, ins = shift_to_exact(raw, est, est_b), shift_to_exact(ins, est, est_b)
        sample_cost = None if sample_cost is None else shift_to_exact(sample_cost, est, est_b)
        for p, prior in priors.items():
            est_eb = float(hulls_expected(coarse, prior)[0])
            raw_e[p], ins_e[p] = (
                shift_to_exact(raw_e[p], est_e[p], est_eb),
                shift_to_exact(ins_e[p], est_e[p], est_eb),
            )
    values = est[None, :] + ins - raw
    if parts and parts[0][1] is not None:
        swap = np.concatenate([p[1] for p in parts], axis=0)
        values = np.where(swap, 2.0 * est[None, :] - sample_cost, values)
    return Replicates(
        grid=grid,
        values=values,
        raw=raw,
        estimate=est,
        expected={p: est_e[p] + ins_e[p] - raw_e[p] for p in priors},
        raw_expected=raw_e,
        expected_estimate=est_e,
        method=method,
        layout=layout,
        in_sample=ins,
        trivial=np.concatenate([p[3] for p in parts], axis=0) if len(parts[0]) > 3 else None,
        sample_cost=sample_cost,
        readings=_readings([p[4] for p in parts]) if len(parts[0]) > 4 else None,
        expected_sd=sd,
        expected_sd_estimate=sd_est,
        sd=grid_sd,
        sd_estimate=grid_sd_est,
        sample_sd=sample_sd,
        sd_floor=grid_sd_unseen,
        sd_plus=grid_sd_plus,
    )


def sample_expected_sd(h: Hulls, prior) -> np.ndarray:
    """:func:`~ccreport.analysis.hull_costs.expected_sd` of hulls ``h`` under one prior, selection
    its own."""
    lo, hi = vertex_intervals(h)
    return expected_sd(h, prior.vertex_weights(lo, hi, h.replicate_ids()))


def sample_selection(layout: PathLayout, grid) -> tuple[np.ndarray, np.ndarray]:
    """Path index of the ROC point the sample's envelope selects at each grid PC(+), and whether it
    is a trivial classifier (all negative, path point 0, or all positive, the last)."""
    k = layout.hull[optimal_vertices(sample_hull(layout), grid)[0]]
    return k, (k == 0) | (k == layout.n_points - 1)


def trivial_swap(
    h: Hulls, layout: PathLayout, cp, cn, grid, selection
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where a replicate selects a trivial classifier but the sample did not, the replicate's cost
    of the sample's selection, and that cost's own binomial sd in the replicate (D&H 2006 Eq. 8):
    ``(swap (R, m), sample_cost (R, m), sample_sd (R, m))``.

    Why: a trivial classifier's cost is known exactly, so ``C(v*) - t*(v*)`` is exactly 0 for such a
    replicate and its optimism-corrected value is exactly the estimate: these replicates pile up at
    the estimate and cut off the band's lower tail (the crisp classifier's case,
    and a scoring classifier's with few distinct scores or at the ends of its operating range, where
    the truth fell below the band 13-18% of the time at n = 200 with 5 distinct scores). A replicate
    that chose a trivial classifier says nothing about the sampling error of the non-trivial
    classifier the sample selected, so it contributes that classifier's own error instead, the basic
    bootstrap value ``2 t - t*(v)`` of the sample's selection v (D&H 2006 section 5.2, thresholds
    fixed). ``selection``: :func:`sample_selection`.
    """
    k, sample_trivial = selection
    trivial = trivial_selection(h, grid)
    fnr = 1.0 - cp[:, layout.pos_at[k]] / layout.n_pos
    fpr = cn[:, layout.neg_at[k]] / layout.n_neg
    return (
        trivial & ~sample_trivial[None, :],
        fnr * grid + fpr * (1.0 - grid),
        line_sd(fnr, fpr, layout.n_pos, layout.n_neg, grid),
    )


def trivial_selection(h: Hulls, grid) -> np.ndarray:
    """Whether each replicate's envelope selects a trivial classifier (its first or last hull
    vertex) at each grid PC(+): (R, m)."""
    j = optimal_vertices(h, grid)
    return (j == h.indptr[:-1, None]) | (j == h.indptr[1:, None] - 1)


# --- scoring classifiers: one chunk loop for one classifier and for a pair ------------------------


def _chunk_curves(layout: PathLayout, cp, cn, grid, priors, selection: str):
    """A chunk's ``(HullCurves, swap, sample_cost)`` (:func:`trivial_swap`; None, None when
    fixed)."""
    if selection == "fixed":
        sample_switches = np.tile(switches(sample_hull(layout)), cp.shape[0])
        return (
            hull_curves(fixed_vertices(layout, cp, cn), grid, priors, sample_switches),
            None,
            None,
        )
    h = replicate_hulls(layout, cp, cn)
    swap, sample_cost, sample_sd = trivial_swap(
        h, layout, cp, cn, grid, sample_selection(layout, grid)
    )
    return (
        with_swapped_sd(hull_curves(h, grid, priors, sd=True), swap, sample_sd),
        swap,
        sample_cost,
    )


def with_swapped_sd(curves: HullCurves, swap, sample_sd) -> HullCurves:
    """``curves`` whose grid sds are, where ``swap``, those of the sample's selection (the swapped
    replicates' values are its cost, :func:`trivial_swap`)."""
    return curves._replace(raw_sd=np.where(swap, sample_sd, curves.raw_sd), sample_sd=sample_sd)


def stratified_curves(
    rng, layouts: list[PathLayout], replicates: int, grid, priors, selection: str
):
    """The one resampling loop, for one classifier or for several on the same instances.

    Each chunk draws the multinomial counts of each class once. One classifier reads them as the
    counts of its class ranks directly (instances of a class are exchangeable); several read them as
    counts of instances, each in its own rank order (``pos_order``/``neg_order``), so all curves of
    a replicate come from the same resampled instances. Returns, per layout, its chunks' curves.
    Grouped layouts (more than ``MAX_REPLICATE_GROUPS`` distinct scores): :func:`_grouped_curves`.
    """
    if any(lay.grouped for lay in layouts):
        return _grouped_curves(rng, layouts, replicates, grid, priors, selection)
    n_pos, n_neg = layouts[0].n_pos, layouts[0].n_neg
    paired = len(layouts) > 1
    parts = [[] for _ in layouts]
    for reps in chunk_sizes(replicates, len(layouts) * (n_pos + n_neg)):
        counts_pos = multinomial_counts(rng, n_pos, reps)
        counts_neg = multinomial_counts(rng, n_neg, reps)
        for out, lay in zip(parts, layouts):
            cp = cumulative(counts_pos[:, lay.pos_order] if paired else counts_pos)
            cn = cumulative(counts_neg[:, lay.neg_order] if paired else counts_neg)
            out.append(_chunk_curves(lay, cp, cn, grid, priors, selection))
    return parts


def replicate_group_counts(
    rng, layouts: list[PathLayout], replicates: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every replicate's counts per group ((R, G) positives, (R, G) negatives, int32) of grouped
    layouts (:mod:`ccreport.analysis.replicate_groups`). One layout: drawn per group directly,
    O(R x G); several: each class's instances drawn once per chunk as positions (int32) and counted
    per each layout's groups, so every layout's replicate r comes from the same resampled
    instances."""
    if len(layouts) == 1:
        (lay,) = layouts
        sizes_pos, sizes_neg = group_sizes(lay)
        pos, neg = [], []
        for reps in chunk_sizes(replicates, lay.n_points):
            pos.append(group_counts(rng, sizes_pos, reps).astype(np.int32))
            neg.append(group_counts(rng, sizes_neg, reps).astype(np.int32))
        return [(np.concatenate(pos), np.concatenate(neg))]
    draws = chunk_sizes(replicates, layouts[0].n_pos + layouts[0].n_neg)
    found, _ = shared_group_counts(rng, dict(enumerate(layouts)), {}, replicates, draws)
    return [found[i] for i in range(len(layouts))]


def _grouped_curves(rng, layouts, replicates, grid, priors, selection):
    """:func:`stratified_curves` on grouped layouts (all layouts grouped, forced where they have
    few distinct scores): counts per group (:func:`replicate_group_counts`), then the curves in
    chunks of at most ``CHUNK_ELEMENTS`` group counts, O(R x G)."""
    layouts = [group_layout(lay, force=True) for lay in layouts]
    parts = [[] for _ in layouts]
    for out, lay, (pos, neg) in zip(
        parts, layouts, replicate_group_counts(rng, layouts, replicates)
    ):
        start = 0
        for reps in chunk_sizes(replicates, lay.n_points):
            cp, cn = cumulative(pos[start : start + reps]), cumulative(neg[start : start + reps])
            out.append(_chunk_curves(lay, cp, cn, grid, priors, selection))
            start += reps
    return parts


def bootstrap_scores(
    rng: np.random.Generator,
    labels,
    scores,
    replicates: int,
    priors: dict | None = None,
    grid=GRID,
    selection: str = "resample",
    max_groups: int = MAX_REPLICATE_GROUPS,
) -> Replicates:
    """Stratified instance bootstrap of a scoring classifier's lower envelope (D&H 2006
    sections 4.6, 5.2).

    Each replicate draws n_pos positives and n_neg negatives with replacement (class counts fixed,
    as conditioning on the row marginals). ``selection="resample"`` recomputes the envelope (the
    hybrid's thresholds re-selected in each replicate); ``"fixed"`` keeps the sample's own selected
    thresholds (its hull vertices and switching points) and re-counts their costs.

    With more than ``max_groups`` distinct scores the replicates are computed on at most
    ``max_groups`` merged score groups (:mod:`ccreport.analysis.replicate_groups`; the estimate
    stays exact, the deviations are grouped replicate minus grouped sample), and the returned
    ``layout`` is the grouped one (the calibration then works on the same groups).
    """
    if selection not in SELECTIONS:
        raise ValueError(f"selection must be 'resample' or 'fixed', got {selection!r}")
    priors = priors or {}
    grid = np.asarray(grid, dtype=float)
    layout = path_layout(labels, scores)
    replicate_layout = group_layout(layout, max_groups)
    (parts,) = stratified_curves(rng, [replicate_layout], replicates, grid, priors, selection)
    return collect_replicates(
        parts,
        priors,
        grid,
        sample_hull(layout),
        scores_method(replicate_layout, selection),
        replicate_layout,
    )


def merged_groups(layout: PathLayout | None) -> int | None:
    """The number of merged score groups replicates on ``layout`` were computed on, or None when
    they are exact: a fine layout, or a grouped one with one group per distinct score (forced by
    another classifier of the dataset, :func:`~ccreport.analysis.replicate_groups.group_layout`)."""
    if layout is None or not layout.grouped or layout.n_points == layout.fine.n_points:
        return None
    return layout.n_points - 1


def scores_method(layout: PathLayout | None, selection: str = "resample") -> str:
    """The ``method`` text of a scoring classifier's stratified bootstrap replicates on
    ``layout``."""
    groups = merged_groups(layout)
    return (
        "stratified instance bootstrap"
        + ("" if selection == "resample" else ", thresholds fixed")
        + ("" if groups is None else f", replicates on {groups} score groups")
    )


# --- crisp classifiers: binomials on the row marginals (section 4.6) ------------------------------


def bootstrap_crisp(
    rng: np.random.Generator,
    labels,
    predictions,
    replicates: int,
    priors: dict | None = None,
    grid=GRID,
) -> Replicates:
    """Binomial resampling of a crisp classifier conditioned on the row marginals (D&H 2006
    section 4.6).

    TP ~ Binomial(n_pos, tpr), FP ~ Binomial(n_neg, fpr). The curve of each replicate is its lower
    envelope with the trivial classifiers, min(cost line, PC(+), 1 - PC(+)), the same curve the
    report analyses; :func:`crisp_line_replicates` gives the bare cost lines of Fig. 16.
    """
    priors = priors or {}
    grid = np.asarray(grid, dtype=float)
    roc = crisp_roc(labels, predictions)
    n_pos, n_neg = roc.n_pos, roc.n_neg
    tp = rng.binomial(n_pos, roc.tp[1] / n_pos, size=replicates)
    fp = rng.binomial(n_neg, roc.fp[1] / n_neg, size=replicates)
    return crisp_replicates(
        tp, fp, n_pos, n_neg, roc.tp[1], roc.fp[1], grid, priors, "binomial (row marginals)"
    )


def crisp_replicates(tp, fp, n_pos, n_neg, tp0, fp0, grid, priors, method) -> Replicates:
    """Replicates of a crisp classifier from its replicate counts (tp, fp) and its sample's
    (tp0, fp0).

    ``raw``: each replicate's own curve, min(its cost line, PC(+), 1 - PC(+)). ``values`` (what the
    bands are read from): the replicate's cost of the *sample's* selection, i.e. at each PC(+) the
    replicate's cost line where the sample's line beats the trivial classifiers and the trivial
    classifiers' known cost elsewhere (D&H 2006 section 4.6's binomial band on the cost line,
    restricted to the operating range the data selected). This is the bootstrap of target (a), the
    true cost of what the sample selected. The optimism correction used for scoring classifiers is
    not used here: a replicate that selects a trivial classifier where the sample selected the line
    would be corrected to exactly the estimate, so such replicates pile up there, and the band's
    lower edge could never fall below ``2 estimate - trivial`` (which gave 74-76% coverage at
    PC(+) = 0.2 and 0.8 just inside the operating range, n = 200). With the selection fixed, the
    truth escapes below the band only when the line was selected, and above it only as the binomial
    band's own tail, so the band is nominal inside the operating range and exact outside it.
    """
    h = crisp_hulls(tp, fp, n_pos, n_neg, tp0, fp0)
    est = crisp_hulls([tp0], [fp0], n_pos, n_neg, tp0, fp0)
    own = hull_curves(h, grid, priors)
    reps = np.asarray(tp).size
    if tp0 * n_neg <= fp0 * n_pos:  # the sample's line never beats the trivial classifiers
        fixed = hull_curves(
            Hulls(est.x, est.y, est.indptr, n_pos, n_neg, est.x, est.y), grid, priors
        )
        fixed = HullCurves(
            np.repeat(fixed.raw, reps, axis=0),
            None,
            {p: np.repeat(v, reps) for p, v in fixed.raw_expected.items()},
            None,
        )
    else:
        zeros, negs, poss = np.zeros(reps), np.full(reps, float(n_neg)), np.full(reps, float(n_pos))
        x = np.column_stack((zeros, np.asarray(fp, float), negs)).ravel()
        y = np.column_stack((zeros, np.asarray(tp, float), poss)).ravel()
        h_fixed = Hulls(
            x=x, y=y, indptr=np.arange(reps + 1) * 3, n_pos=n_pos, n_neg=n_neg, x0=h.x0, y0=h.y0
        )
        fixed = hull_curves(h_fixed, grid, priors, np.tile(switches(est), reps))
    est_grid = hulls_on_grid(est, grid)[0]
    return Replicates(
        grid=grid,
        values=fixed.raw,
        raw=own.raw,
        estimate=est_grid,
        expected=fixed.raw_expected,
        raw_expected=own.raw_expected,
        expected_estimate={p: float(hulls_expected(est, prior)[0]) for p, prior in priors.items()},
        method=method,
        line=cost_lines(tp, fp, n_pos, n_neg, grid),
        line_estimate=cost_lines([tp0], [fp0], n_pos, n_neg, grid)[0],
    )


def cost_lines(tp, fp, n_pos: int, n_neg: int, grid) -> np.ndarray:
    """Cost lines ``fnr pc + fpr (1 - pc)`` (D&H 2006 section 3) of crisp confusion counts (R,) on
    the grid: (R, m), not clipped by the trivial classifiers."""
    fnr = 1.0 - np.asarray(tp, dtype=float) / n_pos
    fpr = np.asarray(fp, dtype=float) / n_neg
    return np.multiply.outer(fnr, grid) + np.multiply.outer(
        fpr, 1.0 - np.asarray(grid, dtype=float)
    )


def crisp_line_replicates(
    rng: np.random.Generator, n_pos: int, n_neg: int, tp: int, fp: int, replicates: int, grid=GRID
):
    """Replicate cost lines ``fnr pc + fpr (1 - pc)`` of a crisp classifier (D&H 2006 Fig. 16):
    (R, m)."""
    grid = np.asarray(grid, dtype=float)
    tpr = rng.binomial(n_pos, tp / n_pos, size=replicates) / n_pos
    fpr = rng.binomial(n_neg, fp / n_neg, size=replicates) / n_neg
    return (1.0 - tpr)[:, None] * grid + fpr[:, None] * (1.0 - grid)


def binomial_sd(n_pos: int, n_neg: int, tp: int, fp: int, grid=GRID) -> np.ndarray:
    """Analytic standard deviation of a cost line (D&H 2006, Eq. 8, with PC(+) in place of p(+)).

    sigma_NEC^2 = pc^2 sigma_FN^2 + (1 - pc)^2 sigma_FP^2, sigma_FN^2 = P1 (1 - P1) / m,
    sigma_FP^2 = P2 (1 - P2) / n, with m, n the class counts and P1, P2 the row proportions.
    """
    grid = np.asarray(grid, dtype=float)
    p1 = tp / n_pos
    p2 = fp / n_neg
    var_fn = p1 * (1.0 - p1) / n_pos
    var_fp = p2 * (1.0 - p2) / n_neg
    return np.sqrt(grid**2 * var_fn + (1.0 - grid) ** 2 * var_fp)
