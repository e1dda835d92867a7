"""Binned thresholds for the instance-cost bootstrap: replicate ROCIV curves in O(bins), not O(n).

A replicate of :mod:`ccreport.analysis.instance_cost_bootstrap` draws every instance with its own
cost (Fawcett 2006 section 4; Drummond & Holte 2006 sections 4.6-4.7), so its ROCIV path at the
sample's m distinct scores is O(n) to build and its hull, curves and expected costs O(m) each. At
large n (m about n for real-valued scores) that is hundreds of CPU seconds for R = 500. When a
classifier has more than ``bins`` distinct scores the *replicates* (never the point estimates) are
evaluated at a subset of the sample's thresholds instead:

* :func:`coarsen` merges consecutive distinct-score groups into at most ``bins`` groups, cut at
  equal steps of the sample ROCIV path's length ``fpr + tpr`` (both rates in [0, 1], so a bin spans
  at most ``2 / bins`` of path length unless one tied group is longer; a tied group is one straight
  segment of the exact path, never cut). The kept thresholds are the sample's own, so each binned
  point is an exact point of the sample's (or the replicate's) ROCIV path;
* a replicate's binned path needs only, per bin and class, the sum of the drawn instances' costs:
  ``sum_i count_i c_i`` over the bin's instances, one O(n) weighted ``bincount`` per chunk of
  replicates (:func:`binned_rociv_replicates`); everything after it (hull, envelope on the PC_iv(+)
  grid, expected costs, cheapest threshold, AUCIV) is O(R x bins).

The binning error is bounded (``tests/analysis/test_instance_cost_bins.py`` checks it on random
data). At a condition x the envelope is the least cost line ``L_x(f, t) = x (1 - t) + (1 - x) f``
over the path's points. The exact optimum v lies in some bin whose end points a, c are kept, and the
binned hull contains the chord [a, c]; ``L_x`` is linear with ``|dL/df| + |dL/dt| = 1``, so for
every point p of the chord ``min(L_x(a), L_x(c)) <= L_x(p) <= L_x(v) + ||p - v||_inf``. Hence, per
replicate,

    0 <= binned envelope(x) - exact envelope(x) <= s,

``s`` the largest L-infinity distance of a path point from its bin's chord: for a path with bounded
curvature the sagitta of a chord of length ``h <= 2 / bins`` is ``O(h^2) = O(1 / bins^2)``; the
replicate's own sampling wiggle adds ``O(1 / sqrt(n bins))`` (a bin's instances drawn with their
counts). The expected costs (integrals of the envelope over a prior) carry the same bound; AUCIV's
binned area misses each bin's inner area, which the bootstrap corrects by the same amount measured
on the sample (:mod:`ccreport.analysis.instance_cost_bootstrap`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .instance_costs import RocivCurve, RocivReplicates
from .path_layout import COUNT_SLICE
from .replicate_groups import MAX_REPLICATE_GROUPS

# thresholds kept per classifier in the instance-cost replicates when it has more distinct scores:
# the same bound as every other replicate kind's merged score groups
# (replicate_groups.MAX_REPLICATE_GROUPS)
BINS = MAX_REPLICATE_GROUPS


def coarsen(length: np.ndarray, bins: int) -> np.ndarray:
    """Indices of the groups that end each merged group: at most ``bins`` of them, increasing, the
    last one ``m - 1``.

    ``length``: non-decreasing cumulative path length at the end of each of m consecutive groups
    (any non-decreasing measure: here the sample ROCIV's ``fpr + tpr``). With ``m <= bins`` every
    group is kept (``arange(m)``); else a merged group ends at the first group whose length reaches
    each of ``total * j / bins``, j = 1..bins (duplicates dropped), so each merged group spans at
    most ``total / bins`` plus the length of its last group.
    """
    length = np.asarray(length, dtype=float)
    m = length.size
    if bins < 1:
        raise ValueError(f"bins must be >= 1, got {bins}")
    if m <= bins:
        return np.arange(m)
    targets = length[-1] * (np.arange(1, bins + 1) / bins)
    ends = np.minimum(np.searchsorted(length, targets, side="left"), m - 1)
    ends[-1] = m - 1
    return np.unique(ends)


@dataclass(frozen=True, eq=False)
class BinnedLayout:
    """One classifier's instances sorted into bins of consecutive thresholds (module docstring).

    ``pos_bin``/``neg_bin``: each positive's / negative's bin (in the instances' given order within
    the class, the order of the bootstrap's counts); ``pos_cost``/``neg_cost``: their costs;
    ``sample``: the sample's exact ROCIV points at the kept thresholds (+inf first; ``bins + 1``
    points).
    """

    pos_bin: np.ndarray
    neg_bin: np.ndarray
    pos_cost: np.ndarray
    neg_cost: np.ndarray
    bins: int
    sample: RocivCurve


def binned_layout(labels, scores, costs, exact: RocivCurve, bins: int = BINS) -> BinnedLayout:
    """Bins of at most ``bins`` consecutive distinct-score groups of one classifier
    (:func:`coarsen`).

    ``exact``: :func:`ccreport.analysis.instance_costs.rociv_points` of the same inputs (its k + 1
    points, one per distinct score after the origin). One sort.
    """
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=float)
    c = np.broadcast_to(np.asarray(costs, dtype=float), y.shape)
    order = np.argsort(-s)
    s_sorted = s[order]
    group_sorted = np.concatenate(([0], np.cumsum(s_sorted[1:] != s_sorted[:-1])))
    ends = coarsen((exact.fpr + exact.tpr)[1:], bins)  # group g ends at point g + 1
    bin_of = np.empty(y.size, dtype=np.intp)  # bincount's index type
    bin_of[order] = np.searchsorted(ends, group_sorted, side="left")
    kept = np.concatenate(([0], ends + 1))
    sample = RocivCurve(
        tp_benefit=exact.tp_benefit[kept],
        fp_cost=exact.fp_cost[kept],
        thresholds=exact.thresholds[kept],
        p_total=exact.p_total,
        n_total=exact.n_total,
        n_pos=exact.n_pos,
        n_neg=exact.n_neg,
    )
    return BinnedLayout(
        pos_bin=bin_of[y],
        neg_bin=bin_of[~y],
        pos_cost=c[y].copy(),
        neg_cost=c[~y].copy(),
        bins=int(ends.size),
        sample=sample,
    )


def bin_sums(
    keys: np.ndarray, cost: np.ndarray, counts: np.ndarray, bins: int, slice_size: int = COUNT_SLICE
) -> np.ndarray:
    """(R, bins) sums of ``counts * cost`` over each bin's instances: one weighted bincount per
    replicate of the chunk (``keys`` already of bincount's index type, so nothing is converted).

    A row is summed in slices of at most ``slice_size`` instances, the weights of each made in one
    reused buffer and the slices' sums added (at 7 x 10^6 instances a row's ``row * cost`` was a new
    56 MB array each time; measured 7.2 -> 5.9 CPU ns per instance). The same sums up to the order
    of addition; a class within one slice (every n <= 2^20) gets the very floats of one weighted
    bincount per row."""
    size = counts.shape[1]
    out = np.zeros((counts.shape[0], bins))
    weights = np.empty(max(1, min(size, slice_size)))
    for i, row in enumerate(
        counts
    ):  # replicates of the chunk and slices of a row: not a loop over instances
        for start in range(0, size, weights.size):
            stop = min(size, start + weights.size)
            w = np.multiply(row[start:stop], cost[start:stop], out=weights[: stop - start])
            out[i] += np.bincount(keys[start:stop], weights=w, minlength=bins)
    return out


def binned_rociv_replicates(layout: BinnedLayout, pos_counts, neg_counts):
    """ROCIV curves of replicates at the layout's kept thresholds (``bins + 1`` points each).

    ``pos_counts`` (R, n_pos) / ``neg_counts`` (R, n_neg): how often each positive / negative is
    drawn, in the class's given order (:func:`ccreport.analysis.path_layout.multinomial_counts`). A
    replicate's point at a kept threshold is exactly its point there in
    :func:`ccreport.analysis.instance_costs.rociv_replicates` (up to the order of summation). Raises
    ValueError if a replicate's drawn positives or negatives cost 0 in total.
    """
    zero = np.zeros((np.shape(pos_counts)[0], 1))
    tp = np.concatenate(
        (
            zero,
            np.cumsum(bin_sums(layout.pos_bin, layout.pos_cost, pos_counts, layout.bins), axis=1),
        ),
        axis=1,
    )
    fp = np.concatenate(
        (
            zero,
            np.cumsum(bin_sums(layout.neg_bin, layout.neg_cost, neg_counts, layout.bins), axis=1),
        ),
        axis=1,
    )
    p_total, n_total = tp[:, -1].copy(), fp[:, -1].copy()
    if not (np.all(p_total > 0) and np.all(n_total > 0)):
        raise ValueError(
            "a replicate's drawn positives or negatives cost 0 in total; ROCIV needs a total > 0 "
            "in each class"
        )
    return RocivReplicates(
        tp_benefit=tp,
        fp_cost=fp,
        thresholds=layout.sample.thresholds,
        p_total=p_total,
        n_total=n_total,
    )
