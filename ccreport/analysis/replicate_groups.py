"""Bootstrap replicates on at most B merged score groups: O(R x B) after O(n) preparation.

Why
---
A replicate's ROC path has one point per distinct score, m of them; with continuous scores m is
about n, and every replicate pass (cumulative counts, hull, costs, areas) is O(R x m). The
replicates are only read on a 101-point PC(+) grid, as expected costs and as areas, so the
replicates (never the point estimates) are computed on a coarser path: consecutive distinct-score
groups of the sorted layout are merged into at most ``B = MAX_REPLICATE_GROUPS`` groups, whose ends
are the score thresholds a replicate may select (:func:`group_layout`). Below B distinct scores
nothing changes (the layout is returned as it is, and every caller takes its old, exact path).

How the groups are cut
----------------------
At quantiles of ``u = tpr + fpr`` of the sample's path (``u`` runs from 0 to 2): group ends are the
first path points at or past ``2 j / B``, j = 0..B. A group then spans at most ``2 / B`` in
``tpr + fpr`` plus its last distinct-score step (large only at a big tie block).

The binning error (a bound, exact; tested in tests/analysis/test_replicate_groups.py)
-----------------------------------------------------------------------------
Every end of a group is a point of the fine path, so a grouped hull lies inside the fine hull and
its envelope lies above: ``t_B(pc) >= t(pc)``. If the fine envelope's optimal point v at pc lies
inside group g (between ends a and b), the grouped envelope costs at most
``min(cost(a), cost(b)) - cost(v) <= min(pc dT_g, (1 - pc) dF_g) <= pc (1 - pc) h_g`` with dT_g,
dF_g the group's TPR and FPR extents in that path's own rates and ``h_g = dT_g + dF_g``. So, for the
sample and for every replicate alike (in the replicate's own rates),

    0 <= t_B(pc) - t(pc) <= pc (1 - pc) max_g h_g        (about pc (1 - pc) 2 / B for the sample).

This is the worst case (a corner inside a group). For a smooth true ROC curve the chord's sagitta is
O(1 / B^2), but an empirical path has corners of its own: on binormal data with n = 10^6 the
sample's largest gap was 2.3e-5 at B = 4096 (bound 1.2e-4), 4.7e-5 at B = 1024 and 9.7e-5 at B = 256
(benchmarks/README.md), against a 90% band 1.1e-3 to 1.7e-3 wide there (PC(+) = 0.3-0.7). The gap
itself never enters a band (see Centring); what grouping changes is the replicates' spread, by
dropping the thresholds inside groups, which the validity check in benchmarks/README.md measures.

Centring
--------
The band's deviations must compare like with like: a grouped replicate with the grouped sample.
:func:`shift_to_exact` moves every replicate quantity (own envelope ``t*``, in-sample cost
``C(v*)``, the replicate's cost of the sample's selection, and their expected costs) by the
sample's binning gap ``t - t_B``, so ``quantity - t`` in every consumer equals the grouped
``quantity_B - t_B``; the optimism-corrected value ``t + C(v*) - t*`` is then ``t + (C_B(v*) -
t*_B)``: the exact estimate plus the grouped world's deviation.

Draws
-----
A single classifier's instances within a class are exchangeable, so its replicate group counts are
drawn directly, ``Multinomial(n_class, group sizes / n_class)`` (:func:`group_counts`), O(R x B). A
dataset's replicates must be shared by its classifiers (paired), so there each class's resampled
instances are drawn once as indices and each classifier counts them per its own groups
(:func:`indexed_group_counts`): O(R x n) for the draw and O(R x n) per classifier for the count,
with int32 indices in chunks (no (R, n) array held for all R).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import numpy as np

from .path_layout import draw_positions, gather_counts
from .roc import hull_of_monotone_path

MAX_REPLICATE_GROUPS = 4096  # B: replicates use at most this many score groups (module docstring)
_SHARED: dict = {}  # the last dataset's shared group counts (shared_group_counts), one entry


def group_layout(layout, max_groups: int = MAX_REPLICATE_GROUPS, force: bool = False):
    """The layout of a classifier's replicates: ``layout`` itself when it has at most ``max_groups``
    distinct scores, else a grouped :class:`~ccreport.analysis.path_layout.PathLayout` of at most
    ``max_groups`` merged groups cut at quantiles of tpr + fpr (module docstring).

    ``force``: return a grouped layout even at or below ``max_groups`` distinct scores, one group
    per distinct score (the same path, so the same hulls and no binning gap), for a dataset whose
    other classifiers are grouped and whose replicates are therefore drawn as indices."""
    if max_groups < 1:
        raise ValueError(f"max_groups must be at least 1, got {max_groups}")
    if layout.grouped:
        return layout
    m = layout.n_points - 1
    if m <= max_groups:
        if not force:
            return layout
        points = np.arange(m + 1)
    else:
        u = (
            layout.pos_at / layout.n_pos + layout.neg_at / layout.n_neg
        )  # strictly increasing, 0 .. 2
        cut = np.searchsorted(u, np.linspace(0.0, 2.0, max_groups + 1), side="left")
        points = np.unique(np.clip(np.concatenate(([0], cut, [m])), 0, m))
    pos_count = layout.pos_at[points]
    neg_count = layout.neg_at[points]
    g = points.size - 1
    dtype = np.int16 if g <= np.iinfo(np.int16).max else np.int32
    pos_group = np.empty(layout.n_pos, dtype=dtype)
    pos_group[layout.pos_order] = np.repeat(np.arange(g, dtype=dtype), np.diff(pos_count))
    neg_group = np.empty(layout.n_neg, dtype=dtype)
    neg_group[layout.neg_order] = np.repeat(np.arange(g, dtype=dtype), np.diff(neg_count))
    columns = np.arange(g + 1)
    same = points.size == layout.n_points  # one group per distinct score: the fine path and hull
    return replace(
        layout,
        pos_at=columns,
        neg_at=columns,
        pos_order=None,
        neg_order=None,
        hull=layout.hull
        if same
        else hull_of_monotone_path(neg_count.astype(float), pos_count.astype(float)),
        pos_count=pos_count,
        neg_count=neg_count,
        pos_group=pos_group,
        neg_group=neg_group,
        points=points,
        fine=layout,
    )


def group_sizes(layout) -> tuple[np.ndarray, np.ndarray]:
    """Positives and negatives of the sample in each group of a grouped layout: ((G,), (G,))."""
    return np.diff(layout.pos_count), np.diff(layout.neg_count)


def group_counts(rng: np.random.Generator, sizes: np.ndarray, replicates: int) -> np.ndarray:
    """Replicate counts per group (replicates, G) of one class resampled with replacement:
    Multinomial(sum(sizes), sizes / sum(sizes)), the instance draw summed per group in
    distribution."""
    total = int(sizes.sum())
    return rng.multinomial(total, sizes / total, size=replicates)


def indexed_group_counts(drawn: np.ndarray, group: np.ndarray, groups: int) -> np.ndarray:
    """Counts (r, G) int32 per group of drawn instance positions (r, size): per replicate a gather
    from the group table and a bincount, in slices of a long row
    (:func:`~ccreport.analysis.path_layout.gather_counts`; a loop over the chunk's replicates, not
    instances; measured 3.5 ns per drawn instance against 5.1 for one offset bincount over the whole
    chunk at small n)."""
    return gather_counts(drawn, group, groups).astype(np.int32)


def group_means(layout, values: np.ndarray, positive: bool) -> np.ndarray:
    """Per group of a grouped layout, the mean over the group's sample instances of one class of
    ``values`` given per fine path step (one value per distinct score, path order): (G,).

    Given a replicate's count of a group, its instances are exchangeable, so ``count x mean`` is the
    expected value of the fine sum ``sum_i values(s_i) count_i`` over the group (used for a reader
    linear in the per-score counts). Groups with no instance of the class get 0."""
    fine = layout.fine
    per_step = np.diff(fine.pos_at if positive else fine.neg_at).astype(float)
    starts = layout.points[:-1]
    sums = np.add.reduceat(per_step * np.asarray(values, dtype=float), starts)
    sizes = np.add.reduceat(per_step, starts)
    return np.divide(sums, sizes, out=np.zeros_like(sums), where=sizes > 0)


def group_scores(layout, distinct: np.ndarray) -> np.ndarray:
    """The mean sample score of each group of a grouped layout (``distinct``: the fine layout's
    distinct scores in path order, decreasing): (G,), decreasing."""
    fine = layout.fine
    per_step = np.diff(fine.pos_at + fine.neg_at).astype(float)
    starts = layout.points[:-1]
    return np.add.reduceat(per_step * distinct, starts) / np.add.reduceat(per_step, starts)


def shift_to_exact(values: np.ndarray, exact, grouped) -> np.ndarray:
    """``values + (exact - grouped)``: a grouped-world replicate quantity moved by the sample's
    binning gap, so that its deviation from the exact estimate is the grouped deviation (module
    docstring, Centring)."""
    return values + (np.asarray(exact) - np.asarray(grouped))


def _digest(*arrays) -> str:
    h = hashlib.sha1()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(str((a.dtype.str, a.shape)).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def shared_group_counts(
    rng: np.random.Generator, layouts: dict, crisp: dict, replicates: int, chunks: list[int]
):
    """A dataset's paired replicate counts:
    ``({name: (pos (R, G), neg (R, G))}, {name: (tp (R,), fp (R,))})``.

    ``layouts``: name -> grouped layout; ``crisp``: name -> (labels of the positives, of the
    negatives) as int64 0/1; ``chunks``: replicates per chunk (their sum is ``replicates``). Each
    chunk draws each class's instances once as positions
    (:func:`~ccreport.analysis.path_layout.draw_positions`), every scoring
    classifier counts them per its groups (:func:`indexed_group_counts`) and every crisp one sums
    its labels over them. The result is a function of the generator's state and these inputs only;
    it is kept for the last dataset (in this process), so the task kinds that resample a dataset
    with the same generator (the pairs and, above B distinct scores, threshold choice) draw and
    count once. ``rng`` is consumed (its state afterwards is unspecified: callers draw nothing more
    from it).
    """
    n_pos = (
        next(iter(layouts.values())).n_pos if layouts else int(next(iter(crisp.values()))[0].size)
    )
    n_neg = (
        next(iter(layouts.values())).n_neg if layouts else int(next(iter(crisp.values()))[1].size)
    )
    key = (
        repr(rng.bit_generator.state),
        replicates,
        tuple(chunks),
        n_pos,
        n_neg,
        tuple((k, _digest(lay.pos_group, lay.neg_group)) for k, lay in layouts.items()),
        tuple((k, _digest(*c)) for k, c in crisp.items()),
    )
    if key in _SHARED:
        return _SHARED[key]
    found = {k: ([], []) for k in layouts}
    sums = {k: ([], []) for k in crisp}
    for reps in chunks:
        drawn_pos, drawn_neg = draw_positions(rng, n_pos, reps), draw_positions(rng, n_neg, reps)
        for k, lay in layouts.items():
            g = lay.n_points - 1
            found[k][0].append(indexed_group_counts(drawn_pos, lay.pos_group, g))
            found[k][1].append(indexed_group_counts(drawn_neg, lay.neg_group, g))
        for k, (lab_pos, lab_neg) in crisp.items():
            sums[k][0].append(lab_pos[drawn_pos].sum(axis=1))
            sums[k][1].append(lab_neg[drawn_neg].sum(axis=1))
    out = (
        {k: (np.concatenate(pos), np.concatenate(neg)) for k, (pos, neg) in found.items()},
        {k: (np.concatenate(tp), np.concatenate(fp)) for k, (tp, fp) in sums.items()},
    )
    _SHARED.clear()
    _SHARED[key] = out
    return out
