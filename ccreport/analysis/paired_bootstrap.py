"""Several classifiers bootstrapped on the same resampled instances: a pair, or a whole dataset.

Drummond & Holte 2006, *Cost curves* (MLJ 65), section 4.7 (Figs. 17-20, Eqs. 9-10): the
significance of a difference comes from the 3-D confusion matrix, two 4-valued multinomials (one
per class) that keep how both classifiers label the same instances, so the correlation of the two
is taken into account without estimating it. For scoring classifiers the same holds of the
stratified instance bootstrap when both read the same resampled instances.

A dataset is resampled once: :func:`bootstrap_dataset` draws each replicate's instance
counts once and evaluates every classifier, scoring and crisp, on them, so any pair's paired
replicates are two of its arrays (:class:`DatasetReplicates`): O(grid x replicates) a pair, no
resampling or hull per pair. :func:`bootstrap_pair` remains for one pair. Each classifier's
replicates are made by :mod:`ccreport.analysis.bootstrap`'s engine
(:func:`~ccreport.analysis.bootstrap.stratified_curves`,
:func:`~ccreport.analysis.bootstrap.collect_replicates`,
:func:`~ccreport.analysis.bootstrap.crisp_replicates`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .bootstrap import (
    Replicates,
    collect_replicates,
    crisp_replicates,
    sample_selection,
    stratified_curves,
    trivial_selection,
    trivial_swap,
    with_swapped_sd,
)
from .hull_costs import GRID, hull_curves
from .hulls import crisp_hulls, replicate_hulls, sample_hull
from .path_layout import PathLayout, chunk_sizes, cumulative, multinomial_counts, path_layout
from .replicate_groups import MAX_REPLICATE_GROUPS, group_layout, shared_group_counts


def _dataset_chunk(layout: PathLayout, cp, cn, grid, priors, readers: dict):
    """:func:`_chunk_curves` (resampled selection) plus the trivial flags and the readers'
    outputs."""
    h = replicate_hulls(layout, cp, cn)
    swap, sample_cost, sample_sd = trivial_swap(
        h, layout, cp, cn, grid, sample_selection(layout, grid)
    )
    read = {k: f(h, cp, cn, layout) for k, f in readers.items()} or None
    curves = with_swapped_sd(hull_curves(h, grid, priors, sd=True), swap, sample_sd)
    return curves, swap, sample_cost, trivial_selection(h, grid), read


# --- pairs: the same resampled instances for both (section 4.7) -----------------------------------


def bootstrap_pair(
    rng: np.random.Generator,
    labels,
    a_scores=None,
    a_predictions=None,
    b_scores=None,
    b_predictions=None,
    replicates: int = 1000,
    priors: dict | None = None,
    grid=GRID,
) -> tuple[Replicates, Replicates]:
    """Paired replicates of two classifiers on the same data (D&H 2006 section 4.7).

    Two crisp classifiers: the 3-D confusion matrix, one 4-valued multinomial per class (the counts
    of each (a's label, b's label) cell are resampled with the class counts fixed), projected to
    each classifier's confusion matrix. Otherwise: the stratified instance bootstrap's one loop with
    both classifiers (a crisp one is a scoring one with two score values), so both curves of a
    replicate come from the same resampled instances.
    """
    priors = priors or {}
    grid = np.asarray(grid, dtype=float)
    y = np.asarray(labels, dtype=bool)
    if a_scores is None and b_scores is None:
        return _pair_crisp(
            rng,
            y,
            np.asarray(a_predictions, bool),
            np.asarray(b_predictions, bool),
            replicates,
            priors,
            grid,
        )
    a = np.asarray(
        a_scores if a_scores is not None else np.asarray(a_predictions, dtype=float), dtype=float
    )
    b = np.asarray(
        b_scores if b_scores is not None else np.asarray(b_predictions, dtype=float), dtype=float
    )
    layouts = [path_layout(y, a), path_layout(y, b)]
    parts = stratified_curves(rng, layouts, replicates, grid, priors, "resample")
    method = "paired stratified instance bootstrap (same resampled instances for both)"
    return tuple(
        collect_replicates(p, priors, grid, sample_hull(lay), method)
        for p, lay in zip(parts, layouts)
    )


def _pair_crisp(rng, y, pa, pb, replicates, priors, grid):
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    results = []
    draws = {}
    for cls, n in ((True, n_pos), (False, n_neg)):
        mask = y == cls
        cells = np.array(
            [
                np.count_nonzero(mask & (pa == i) & (pb == j))
                for i in (True, False)
                for j in (True, False)
            ],
            dtype=float,
        )
        draws[cls] = rng.multinomial(
            n, cells / n, size=replicates
        )  # columns: (1,1) (1,0) (0,1) (0,0)
    tp_a = draws[True][:, 0] + draws[True][:, 1]
    fp_a = draws[False][:, 0] + draws[False][:, 1]
    tp_b = draws[True][:, 0] + draws[True][:, 2]
    fp_b = draws[False][:, 0] + draws[False][:, 2]
    method = "paired multinomial (3-D confusion matrix)"
    for tp, fp, pred in ((tp_a, fp_a, pa), (tp_b, fp_b, pb)):
        tp0, fp0 = np.count_nonzero(pred & y), np.count_nonzero(pred & ~y)
        results.append(crisp_replicates(tp, fp, n_pos, n_neg, tp0, fp0, grid, priors, method))
    return tuple(results)


# --- one resampling per dataset: every classifier on the same replicates --------------------


@dataclass(frozen=True, eq=False)
class DatasetReplicates:
    """Every classifier of one dataset, bootstrapped on the same stratified resamples of its
    instances.

    ``classifiers``: name -> :class:`Replicates` (rows are the same resampled instances for every
    classifier, so any two form a paired bootstrap, D&H 2006 section 4.7). A pair's replicate
    difference is the difference of two arrays (:meth:`difference`): O(grid x replicates), no
    resampling or hull per pair.
    """

    grid: np.ndarray
    classifiers: dict
    replicates: int
    method: str

    def difference(self, a: str, b: str, raw: bool = False) -> np.ndarray:
        """Replicate curves (R, m) of ``a - b``: band values (default) or each replicate's own
        envelopes."""
        ra, rb = self.classifiers[a], self.classifiers[b]
        return ra.raw - rb.raw if raw else ra.values - rb.values

    def expected_difference(self, a: str, b: str, prior: str, raw: bool = False) -> np.ndarray:
        """Replicate expected-cost differences (R,) of ``a - b`` under ``prior``."""
        ra, rb = self.classifiers[a], self.classifiers[b]
        return (
            ra.raw_expected[prior] - rb.raw_expected[prior]
            if raw
            else ra.expected[prior] - rb.expected[prior]
        )


DATASET_METHOD = (
    "stratified instance bootstrap, one resampling per dataset (the same resampled instances for "
    "every classifier)"
)


def bootstrap_dataset(
    rng: np.random.Generator,
    labels,
    scores: dict | None = None,
    predictions: dict | None = None,
    replicates: int = 1000,
    priors: dict | None = None,
    grid=GRID,
    readers: dict | None = None,
    max_groups: int = MAX_REPLICATE_GROUPS,
) -> DatasetReplicates:
    """One stratified resampling of a dataset's instances, read by every classifier.

    Each chunk draws, per class, the multinomial count of every instance once; a scoring classifier
    reads the counts in its own score order (:attr:`PathLayout.pos_order`) and gets its replicate
    hulls and optimism-corrected curves as :func:`bootstrap_scores` does; a crisp classifier's
    replicate counts are ``TP* = sum of the counts of the positives it labels positive`` (and FP*
    the same for negatives), which is exactly D&H 2006 section 4.6's Binomial(n_pos, tpr) marginally
    and section 4.7's 3-D confusion-matrix multinomial jointly with any other classifier; its curves
    are :func:`bootstrap_crisp`'s. ``scores``/``predictions``: name -> array over the same instances
    (names disjoint).

    Chunks hold at most ``CHUNK_ELEMENTS`` instance counts (:func:`chunk_sizes` of (replicates, n)
    only), and classifiers are evaluated one after another inside a chunk, so memory does not grow
    with the number of classifiers beyond their (R, m) outputs; the draws do not depend on the
    classifiers, their order, or workers.

    ``readers`` (optional): classifier name -> {reader name: f(hulls, cp, cn, layout) ->
    {key: (r,)}}, called on every chunk's replicate :class:`~ccreport.analysis.hulls.Hulls` (with
    the chunk's cumulative class counts in path order and the classifier's :class:`PathLayout`; for
    a crisp classifier once, on all replicates' hulls, with ``cp = cn = layout = None``); the
    outputs are each classifier's ``Replicates.readings`` (the selection criteria's replicate
    choices, :mod:`ccreport.analysis.selection.hybrid_bands`). Every classifier's ``in_sample``,
    ``trivial`` and ``sample_cost`` are kept for the dataset hybrid's band.

    When a scoring classifier has more than ``max_groups`` distinct scores, every scoring
    classifier's replicates are computed on grouped layouts
    (:mod:`ccreport.analysis.replicate_groups`: at most ``max_groups`` merged score groups, one
    group per distinct score for the others): each class's instances are drawn once per chunk as
    positions and counted per group, and the curves, ``in_sample``/``sample_cost`` and the readers'
    hulls are the grouped ones moved to the exact estimate (``layout`` passed to readers and kept in
    ``Replicates.layout`` is then the grouped one).
    """
    readers = readers or {}
    scores = dict(scores or {})
    predictions = dict(predictions or {})
    if set(scores) & set(predictions):
        raise ValueError(
            "classifiers given both scores and predictions: "
            f"{sorted(set(scores) & set(predictions))}"
        )
    priors = priors or {}
    grid = np.asarray(grid, dtype=float)
    y = np.asarray(labels, dtype=bool)
    n_pos = int(np.count_nonzero(y))
    n_neg = y.size - n_pos
    if n_pos == 0 or n_neg == 0:
        raise ValueError("resampling needs both classes")
    layouts = {name: path_layout(y, s) for name, s in scores.items()}
    if any(group_layout(lay, max_groups).grouped for lay in layouts.values()):
        layouts = {name: group_layout(lay, max_groups, force=True) for name, lay in layouts.items()}
    crisp = {}
    for name, pred in predictions.items():
        p = np.asarray(pred, dtype=bool)
        if p.shape != y.shape:
            raise ValueError(f"predictions of {name!r} must have one value per instance")
        crisp[name] = (p[y].astype(np.int64), p[~y].astype(np.int64))
    parts = {name: [] for name in layouts}
    counts = {name: ([], []) for name in crisp}
    if any(lay.grouped for lay in layouts.values()):
        _grouped_dataset(rng, layouts, crisp, parts, counts, replicates, grid, priors, readers)
    else:
        _fine_dataset(
            rng, n_pos, n_neg, layouts, crisp, parts, counts, replicates, grid, priors, readers
        )
    out = {}
    for name in list(scores) + list(predictions):
        if name in layouts:
            lay = layouts[name]
            out[name] = collect_replicates(
                parts[name],
                priors,
                grid,
                sample_hull(lay.fine if lay.grouped else lay),
                DATASET_METHOD,
                lay,
            )
        else:
            lab_pos, lab_neg = crisp[name]
            tp, fp = np.concatenate(counts[name][0]), np.concatenate(counts[name][1])
            tp0, fp0 = int(lab_pos.sum()), int(lab_neg.sum())
            reps = crisp_replicates(tp, fp, n_pos, n_neg, tp0, fp0, grid, priors, DATASET_METHOD)
            h = crisp_hulls(tp, fp, n_pos, n_neg, tp0, fp0)
            own = hull_curves(h, grid, {})
            read = {k: f(h, None, None, None) for k, f in readers.get(name, {}).items()}
            out[name] = replace(
                reps,
                in_sample=own.in_sample,
                trivial=trivial_selection(h, grid),
                sample_cost=reps.values,
                readings=read or None,
            )
    return DatasetReplicates(
        grid=grid, classifiers=out, replicates=replicates, method=DATASET_METHOD
    )


def _fine_dataset(
    rng, n_pos, n_neg, layouts, crisp, parts, counts, replicates, grid, priors, readers
) -> None:
    """:func:`bootstrap_dataset`'s loop on fine layouts, filling ``parts`` and ``counts`` in
    place."""
    for reps in chunk_sizes(replicates, n_pos + n_neg):
        counts_pos = multinomial_counts(rng, n_pos, reps)
        counts_neg = multinomial_counts(rng, n_neg, reps)
        for name, lay in layouts.items():
            cp = cumulative(counts_pos[:, lay.pos_order])
            cn = cumulative(counts_neg[:, lay.neg_order])
            parts[name].append(_dataset_chunk(lay, cp, cn, grid, priors, readers.get(name, {})))
        for name, (lab_pos, lab_neg) in crisp.items():
            counts[name][0].append(counts_pos @ lab_pos)
            counts[name][1].append(counts_neg @ lab_neg)


def _grouped_dataset(rng, layouts, crisp, parts, counts, replicates, grid, priors, readers) -> None:
    """:func:`bootstrap_dataset`'s loop on grouped layouts, filling ``parts`` and ``counts`` in
    place: one index draw per chunk shared by every classifier (:func:`shared_group_counts`, with
    the crisp classifiers' TP*/FP* read from the same positions), then each scoring classifier's
    curves in chunks of at most ``CHUNK_ELEMENTS`` group counts."""
    names = list(layouts)
    lays = [layouts[k] for k in names]
    draws = chunk_sizes(replicates, lays[0].n_pos + lays[0].n_neg)
    found, sums = shared_group_counts(rng, layouts, crisp, replicates, draws)
    for k, (tp, fp) in sums.items():
        counts[k][0].append(tp)
        counts[k][1].append(fp)
    for k, lay in zip(names, lays):
        pos, neg = found[k]
        start = 0
        # binned: chunks of group counts; else the draws' chunks (the fine path's numbers, to the
        # bit)
        for reps in (
            chunk_sizes(replicates, lay.n_points) if lay.n_points < lay.fine.n_points else draws
        ):
            cp, cn = cumulative(pos[start : start + reps]), cumulative(neg[start : start + reps])
            parts[k].append(_dataset_chunk(lay, cp, cn, grid, priors, readers.get(k, {})))
            start += reps
