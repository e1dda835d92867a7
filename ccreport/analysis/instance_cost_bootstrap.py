"""The instance bootstrap of the instance-cost analysis: costs travel with their instances.

Fawcett 2006 (ROCIV, section 4) with the resampling of Drummond & Holte 2006 sections 4.6-4.7 and
5.2, as :mod:`ccreport.analysis.bootstrap` does for the unweighted envelope:

* a replicate draws n_pos positives and n_neg negatives with replacement (class counts fixed, the
  stratified instance bootstrap); every drawn instance brings its own cost, so a replicate's ROCIV
  weights are ``counts * costs`` (:func:`ccreport.analysis.instance_costs.rociv_replicates`);
* the counts come from a generator, not from a classifier: all classifiers of a dataset given the
  same generator state see the same resampled instances, so the differences of two classifiers'
  replicate statistics are paired (D&H 2006 section 4.7);
* each replicate's instance-cost envelope is the dual of its ROCIV convex hull, computed exactly
  for all replicates at once (:func:`ccreport.analysis.hulls.grid_hull_mask` on the rates, both
  axes in [0, 1]) and read with :mod:`ccreport.analysis.hull_costs`: the envelope on the band's
  PC_iv(+) grid, and each prior's expected cost in closed form over the hull's own switching
  points (exact, not a grid quadrature of the envelope);
* as for the plain band, the replicate curves and expected costs are optimism-corrected (Efron
  1983): ``c* = t + C(v*) - t*`` with ``C(v*)`` the cost *in the sample* of the thresholds the
  replicate selected. The minimum total cost (in the data's units) is corrected the same way: the
  sample's total at the replicate's cheapest threshold, plus the sample's least total, minus the
  replicate's. AUCIV selects nothing and is not corrected.

With more than ``bins`` (:data:`ccreport.analysis.instance_cost_bins.BINS`) distinct scores a
classifier's replicates are read at at most ``bins`` of the sample's thresholds
(:mod:`ccreport.analysis.instance_cost_bins`: one O(n) weighted bincount per chunk, then
O(R x bins)), the estimates at all of them. The correction then compares like with like: ``C(v*)``
and ``t*`` are both read at the kept thresholds (the sample's exact points there), and their
difference is added to the exact estimate ``t``; AUCIV's replicates get the sample's binning loss
(exact minus binned sample AUCIV) added back. With at most ``bins`` distinct scores nothing changes
(bit-identical).

Replicates are drawn in chunks (:func:`ccreport.analysis.path_layout.chunk_sizes`, a function of the
data only), so results do not depend on memory or on the number of workers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .hull_costs import GRID, hull_curves
from .hulls import Hulls, grid_hull_mask
from .instance_cost_bins import (
    BINS,
    BinnedLayout,
    binned_layout,
    binned_rociv_replicates,
)
from .instance_costs import (
    TIE_RTOL,
    RocivCurve,
    RocivReplicates,
    auciv,
    min_total_cost,
    rociv_points,
    rociv_replicates,
)
from .path_layout import chunk_sizes, multinomial_counts
from .priors import InducedPrior, Prior


def class_level_prior(prior: Prior) -> bool:
    """Whether a prior is built from a class-level cost ratio (an induced prior, or a point prior
    given by ``p_positive`` and ``cost_ratio``). On the instance-cost axis PC_iv(+) the instance
    costs set the ratio of the two errors' costs, so such a prior does not carry over (spec 3.6:
    only a class-level multiplier *on top of* the instance costs moves x); the analysis leaves it
    out."""
    return isinstance(prior, InducedPrior) or getattr(prior, "cost_ratio", None) is not None


def instance_cost_priors(priors: dict) -> dict:
    """The priors read as distributions over PC_iv(+): those not built from a class-level cost
    ratio."""
    return {name: p for name, p in priors.items() if not class_level_prior(p)}


def stratified_counts(rng: np.random.Generator, labels, replicates: int) -> np.ndarray:
    """(replicates, n) counts of each instance: a multinomial within each class
    (class counts fixed). Positives' counts are drawn first, then negatives', as
    :mod:`ccreport.analysis.bootstrap` does."""
    y = np.asarray(labels, dtype=bool)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    counts = np.zeros((replicates, y.size), dtype=np.int64)
    counts[:, pos] = multinomial_counts(rng, pos.size, replicates)
    counts[:, neg] = multinomial_counts(rng, neg.size, replicates)
    return counts


@dataclass(frozen=True, eq=False)
class InstanceCostReplicates:
    """One classifier's bootstrap replicates of the instance-cost analysis.

    ``grid``: PC_iv(+) values of the band; ``estimate``: the sample's envelope there; ``values``
    (R, m): optimism-corrected replicate envelopes; ``auciv`` (R,); ``min_total_cost`` (R,),
    corrected, in the data's units; ``expected``: prior -> (R,) corrected expected costs;
    ``raw_expected``: prior -> (R,) the replicates' own; ``binned``: how many of the sample's
    thresholds the replicates were read at when binned
    (:mod:`ccreport.analysis.instance_cost_bins`), None when at all of them.
    """

    grid: np.ndarray
    estimate: np.ndarray
    values: np.ndarray
    auciv: np.ndarray
    min_total_cost: np.ndarray
    expected: dict
    raw_expected: dict
    binned: int | None = None


def _least_total(totals: np.ndarray, scale) -> np.ndarray:
    """Index of the cheapest threshold in each row (the highest threshold among near-equal totals,
    as :func:`ccreport.analysis.instance_costs.min_total_cost`)."""
    least = totals.min(axis=1)
    return np.argmax(totals <= (least + TIE_RTOL * np.asarray(scale))[:, None], axis=1)


def replicate_iv_hulls(fpr: np.ndarray, tpr: np.ndarray, sample: RocivCurve) -> Hulls:
    """Exact ROCIV convex hulls of replicates given as (R, k + 1) rates at the sample's thresholds,
    with ``x0, y0`` the sample's rates at the same thresholds (the replicate's selection counted in
    the sample). In rates: ``n_pos = n_neg = 1``. Among thresholds with equal replicate points
    the last (lowest) one is the vertex."""
    mask = grid_hull_mask(fpr, tpr)
    cols = np.nonzero(mask)[1]
    return Hulls(
        x=fpr[mask],
        y=tpr[mask],
        indptr=np.concatenate(([0], np.cumsum(mask.sum(axis=1)))),
        n_pos=1,
        n_neg=1,
        x0=sample.fpr[cols],
        y0=sample.tpr[cols],
    )


def _chunk(rep: RocivReplicates, sample: RocivCurve, grid, priors):
    """One chunk's replicate statistics from its ROCIV curves at the sample's thresholds ``sample``
    (all of them, or the kept ones when binned)."""
    fpr, tpr = rep.fpr, rep.tpr
    hulls = replicate_iv_hulls(fpr, tpr, sample)
    curves = hull_curves(hulls, grid, priors)
    totals = (rep.p_total[:, None] - rep.tp_benefit) + rep.fp_cost
    k = _least_total(totals, rep.p_total + rep.n_total)
    raw_total = totals[np.arange(k.size), k]
    in_sample_total = sample.totals()[k]
    auc = np.sum(np.diff(fpr, axis=1) * (tpr[:, 1:] + tpr[:, :-1]), axis=1) / 2.0
    return curves, auc, raw_total, in_sample_total


@dataclass(frozen=True, eq=False)
class _Plan:
    """What one classifier's replicates need besides the counts: its exact estimates (computed up
    front, so the O(n) sample curve is not kept while the chunks run), the thresholds the replicates
    are read at (``at``: all the sample's, or the kept ones when binned) and how to build them."""

    scores: np.ndarray | None  # unbinned: the scores for rociv_replicates; binned: None
    layout: BinnedLayout | None  # binned: the bins; unbinned: None
    at: RocivCurve
    estimate: np.ndarray
    estimate_expected: dict
    least: float
    auc_shift: float


def _plan(y, scores, costs, grid, priors, bins: int) -> _Plan:
    s = np.asarray(scores, dtype=float)
    sample = rociv_points(y, s, costs)
    est_hull = replicate_iv_hulls(sample.fpr[None, :], sample.tpr[None, :], sample)
    est_curves = hull_curves(est_hull, grid, priors)
    estimate = est_curves.raw[0]
    expected = {p: est_curves.raw_expected[p][0] for p in priors}
    least = min_total_cost(sample).total
    if sample.thresholds.size - 1 <= bins:
        return _Plan(s, None, sample, estimate, expected, least, 0.0)
    layout = binned_layout(y, s, costs, sample, bins)
    # AUCIV's binned area misses each bin's inner area; add the sample's (instance_cost_bins)
    return _Plan(
        None, layout, layout.sample, estimate, expected, least, auciv(sample) - auciv(layout.sample)
    )


def _assemble(parts, plan: _Plan, grid, priors) -> InstanceCostReplicates:
    """Optimism-corrected replicate statistics (module docstring) from the chunks' ``_chunk``
    parts."""
    curves = [p[0] for p in parts]
    raw = np.concatenate([c.raw for c in curves])
    ins = np.concatenate([c.in_sample for c in curves])
    raw_e = {p: np.concatenate([c.raw_expected[p] for c in curves]) for p in priors}
    ins_e = {p: np.concatenate([c.in_sample_expected[p] for c in curves]) for p in priors}
    raw_total = np.concatenate([p[2] for p in parts])
    ins_total = np.concatenate([p[3] for p in parts])
    auc = np.concatenate([p[1] for p in parts])
    return InstanceCostReplicates(
        grid=grid,
        estimate=plan.estimate,
        values=plan.estimate[None, :] + ins - raw,
        auciv=auc + plan.auc_shift if plan.layout is not None else auc,
        min_total_cost=plan.least + ins_total - raw_total,
        expected={p: plan.estimate_expected[p] + ins_e[p] - raw_e[p] for p in priors},
        raw_expected=raw_e,
        binned=None if plan.layout is None else plan.layout.bins,
    )


def bootstrap_instance_costs_many(
    rng: np.random.Generator,
    labels,
    scores_list,
    costs,
    replicates: int,
    priors: dict | None = None,
    grid=GRID,
    bins: int = BINS,
) -> list[InstanceCostReplicates]:
    """:func:`bootstrap_instance_costs` of several classifiers of one dataset on the same
    replicates, drawn once: equal to
    ``[bootstrap_instance_costs(rng_i, labels, s, ...) for s in scores_list]`` with every ``rng_i``
    in ``rng``'s state, but the counts (the O(R n) draw every classifier shares) are drawn once per
    chunk. ``rng`` ends in the state one such call would leave it in.
    """
    priors = priors or {}
    grid = np.asarray(grid, dtype=float)
    y = np.asarray(labels, dtype=bool)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    plans = [_plan(y, s, costs, grid, priors, bins) for s in scores_list]
    parts: list[list] = [[] for _ in plans]
    for reps in chunk_sizes(replicates, y.size):
        pos_counts = multinomial_counts(
            rng, pos.size, reps
        )  # stratified_counts' draws, in its order
        neg_counts = multinomial_counts(rng, neg.size, reps)
        counts = None
        for plan, out in zip(plans, parts):
            if plan.layout is None:
                if counts is None:
                    counts = np.zeros((reps, y.size), dtype=np.int64)
                    counts[:, pos] = pos_counts
                    counts[:, neg] = neg_counts
                rep = rociv_replicates(y, plan.scores, costs, counts)
            else:
                rep = binned_rociv_replicates(plan.layout, pos_counts, neg_counts)
            out.append(_chunk(rep, plan.at, grid, priors))
    return [_assemble(out, plan, grid, priors) for plan, out in zip(plans, parts)]


def bootstrap_instance_costs(
    rng: np.random.Generator,
    labels,
    scores,
    costs,
    replicates: int,
    priors: dict | None = None,
    grid=GRID,
    bins: int = BINS,
) -> InstanceCostReplicates:
    """Stratified instance bootstrap of one classifier's instance-cost analysis (module docstring).

    ``scores``: a scoring classifier's scores, or a crisp one's predictions as 0/1; ``costs``: each
    positive's FN cost, each negative's FP cost. Two calls with generators in the same state
    resample the same instances. With more than ``bins`` distinct scores the replicates are
    evaluated at at most ``bins`` of the sample's thresholds
    (:mod:`ccreport.analysis.instance_cost_bins`; the estimates stay exact); with at most ``bins``
    at all of them, exactly as without binning. Raises ValueError if a replicate's drawn positives
    or negatives cost 0 in total (possible only when most of a class costs 0).
    """
    return bootstrap_instance_costs_many(
        rng, labels, [scores], costs, replicates, priors, grid, bins
    )[0]
