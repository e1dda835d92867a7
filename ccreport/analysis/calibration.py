"""Double-bootstrap calibration of a scoring classifier's optimism-corrected band (prepivoting).

Why
---
The band of :func:`ccreport.analysis.bootstrap.bootstrap_scores` is read from optimism-corrected
replicates ``c* = t + C(v*) - t*`` (Efron 1983's optimism bootstrap applied to D&H 2006 section 5.2:
an envelope selected on the data is an optimistic estimate of its own cost). The bootstrap sees the
*spread* of "true cost of the selected thresholds minus apparent cost" about right but
under-estimates its *mean*: choosing the cheapest threshold is an argmin of an empirical process, a
cube-root problem (Kim & Pollard 1990) for which the plain bootstrap is not consistent. Its
"population", the sample, has a sharp minimum at the sample's own thresholds, so replicates stay
near them and look less optimistic than the sample really is. Measured on binormal data at n = 200
(benchmarks/README.md): the true optimism is 0.024-0.028 where the bootstrap sees 0.018, and the
true cost of the selected classifier lies *above* the 90% band in 9-13% of data sets and below it in
3-5% (nominal: 5 and 5).

How
---
Beran (1987) prepivoting, as a calibration of the band's upper quantile level (Hall & Martin 1988).
In the bootstrap world the sample is the population: for outer replicate b the "truth" is
``C(v*_b)``, the sample cost of the thresholds b selected, and inner replicates drawn *from
replicate b* give ``c**_bk = t*_b + C_b(v**_bk) - t**_bk``, made from b exactly as ``c*`` is made
from the sample (``C_b`` counts in replicate b). The rank of the truth among b's inner
replicates (:func:`upper_rank`), ``u_b``, would be uniform if the band were right; the band's upper
edge is read at the ``(1 + level)/2`` quantile of ``u`` instead of at ``(1 + level)/2`` itself.
``u`` is pooled over a window of PC(+) (``window``) so that a 5% tail is estimated from many outer
replicates (the miscalibration changes slowly with PC(+)). Each prior's expected-cost interval gets
its own upper level the same way. The simultaneous band's critical value is multiplied by the
``level`` quantile, over outer replicates, of "the truth's studentized sup statistic / the inner
bands' critical value" (a scale calibration: a level calibration would saturate at the largest
replicate); the critical value is read from the inner replicates of every outer replicate pooled
(:func:`sup_ratios`).

The calibration only ever widens the band (levels below nominal are raised to it). Where the
bootstrap world looks *over*-covered it is because of ties, not precision: at the ends of an
operating range, or for a classifier with few distinct scores, most replicates choose the same
(trivial) classifier and tie with the truth, and narrowing the band there would trust the inner
replicates' tie pattern to match the sample's, which it does not.

Only the upper edge is calibrated because the defect is one-sided: selection makes the apparent
cost too low, and the bootstrap under-states by how much, so the truth escapes above the band. The
lower edge is already at its nominal miss rate (3-5% measured), while the bootstrap world, whose
population has duplicated instances, misses below more often (6-7%); calibrating the lower edge too
made the band conservative (coverage 92-96% at n = 200, measured) for no gain.

The inner bootstrap under-estimates the optimism of the outer one as the outer under-estimates the
sample's, so the calibration moves the band the right way but, for the same cube-root reason, need
not move it exactly far enough; its coverage is measured in ``benchmarks/validity.py``.

Cost: ``outer x inner`` extra replicates of n instances each (10x the band's own 1000 at the
defaults, 200 x 50), so ``calibration="auto"`` runs it only while
``n x outer x inner <= AUTO_BUDGET`` (n <= 10,000 at the defaults). Above that the optimism is small
next to the band (it shrinks like n^(-2/3)) and the uncalibrated band's coverage was measured to be
87-89% at n = 10,000. A classifier with few distinct scores (at most ``n / GROUP_DRAWS``) is
resampled per distinct score instead, one binomial draw a score rather than an integer draw an
instance (a class's instances with one score are exchangeable, so the replicates have the same
distribution; :mod:`ccreport.analysis.replicate_groups`): O(G) per replicate. Measured (CPU s): the
example's German-credit classifiers with 9, 17 and 29 scores at n = 1000, 0.18 -> 0.10, 0.17 -> 0.12
and 0.19 -> 0.15; nine scores at n = 10,000, 0.84 -> 0.20.

Why 200 x 50 (benchmarks/README.md, "Calibration cost"):
the Monte-Carlo error of the calibrated levels comes from the outer replicates (a 95% quantile of
``u`` pooled over the window), while the inner replicates only set the resolution of each rank,
``1/(inner + 1)``: a rank among k exchangeable values is exactly uniform when the band is right, so
fewer inner replicates coarsen ``u`` without biasing its quantile (measured on the same data sets,
the mean calibrated level at PC(+) = 0.5 moved by less than 0.003 from 100 to 50 inner replicates,
and the pointwise coverage by less than its Monte-Carlo error). The sup-norm scale is different: a
90% quantile of one outer replicate's own 50 inner sup statistics is noisy enough to push the
ratios' tail up, so the critical value is pooled over outer replicates (:func:`sup_ratios`).

Studentized bands and intervals
-------------------------------
The calibration above corrects the *mean* of the optimism. A classifier with few distinct scores
has a second defect the percentiles of ``c*`` cannot see: the spread of its cost depends on the cost
itself. Its envelope is made of a few cost lines; one that lies high in a data set is used over a
narrower PC(+) range (the trivial classifiers take over sooner) and, at a given PC(+), with rates
nearer 0 or 1, so the data sets whose estimate lies furthest above the truth are exactly those
whose replicates spread least, and the truth falls *below* the interval (measured, the expected
cost under the uniform prior at n = 200: 83% coverage, 14% below, with five values; 87%, 11% below,
with two; benchmarks/README.md, "Interval matrix"). The bands and intervals are therefore read as
bootstrap-t intervals (:func:`studentized_band`, :func:`studentized_interval`; Efron & Tibshirani
1993 ch. 12, Hall 1988): each corrected replicate's deviation from the estimate is divided by the sd
of what that replicate selected (D&H 2006 Eq. 8 on the grid; the selection-fixed plug-in sd of an
expected cost, :func:`~ccreport.analysis.hull_costs.expected_sd`), and the quantiles of the ratios
(at the calibrated upper level) are scaled by the sample's own sd. Where all sds are equal this is
the percentile band (test). For a classifier with few distinct scores the caller also passes the
reflected replicates ``2 t - t*`` (``basic``): the envelope then chooses among a few thresholds
whose costs differ by whole steps, so the selected threshold's true cost (what ``c*`` targets) can
lie well above the best achievable one, and the lower edge is taken as the lower of the two (with
many scores the two targets differ little and the resampled sample's sharp minimum overstates the
difference: 98% coverage for continuous scores at n = 200, measured). A selected threshold with no
example of a class on one side has no resampling variance in that rate; there, and only there, the
band's upper edge is at least the selected line's binomial bound with that rate's Agresti-Coull
variance (``sd_floor``, :func:`~ccreport.analysis.hull_costs.unseen_sd_at`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from scipy.special import ndtri

from .bands import studentizing_sd
from .hull_costs import GRID, hull_curves
from .hulls import Hulls, replicate_hulls, row_blocks
from .path_layout import PathLayout, chunk_sizes, count_positions, cumulative, multinomial_counts
from .replicate_groups import group_counts, group_layout, group_sizes

OUTER = 200  # outer replicates whose inner bootstraps calibrate the band
INNER = 50  # inner replicates per outer replicate
WINDOW = 0.05  # u is pooled over grid points within this distance in PC(+)
RESAMPLE_BLOCK = 2**17  # picks counted at once by resample_cumulative (1 MB per working array)
HULL_BLOCK = (
    2**18
)  # inner replicates' path points per block of _inner_world (2 MB per int64 working array)
AUTO_BUDGET = 100_000_000  # n x OUTER x INNER at most, for calibration="auto" (n <= 10,000)
MODES = ("auto", "double", "off")
# Gauss-Legendre nodes for induced priors inside the calibration: it only ranks expected costs, and
# 32 nodes are within 2e-5 of the reported 128-node values (a few thousandths of their bootstrap sd)
INDUCED_NODES = 32
# A classifier with at most n / GROUP_DRAWS distinct scores is resampled per distinct score (O(G)
# per replicate: one binomial draw per score) rather than per instance (O(n): one integer draw per
# instance)
GROUP_DRAWS = 32
METHOD = (
    "double bootstrap (Beran 1987 prepivoting) of the upper edge and the sup-norm critical value"
)


@dataclass(frozen=True, eq=False)
class Calibration:
    """Calibrated levels of a band (see the module docstring); nominal when ``outer == 0``.

    ``upper`` (m,): the quantile level at which to read the replicates for the band's upper edge at
    each grid PC(+) (nominal: (1 + level)/2; the lower edge stays at (1 - level)/2);
    ``sup_scale``: factor on the simultaneous band's critical value (nominal 1); ``expected_upper``:
    prior -> the upper level of its expected-cost interval.
    """

    level: float
    upper: np.ndarray
    sup_scale: float = 1.0
    expected_upper: dict = field(default_factory=dict)
    outer: int = 0
    inner: int = 0
    window: float = 0.0

    @property
    def lower_level(self) -> float:
        return (1.0 - self.level) / 2.0

    def expected_levels(self, prior: str) -> tuple[float, float]:
        return self.lower_level, self.expected_upper.get(prior, 1.0 - self.lower_level)

    def describe(self) -> dict | None:
        """The ``calibration`` entry of a band in results.json (None when not calibrated)."""
        if not self.outer:
            return None
        return {
            "method": METHOD,
            "outer": self.outer,
            "inner": self.inner,
            "window": self.window,
            "upper_level": self.upper,
            "lower_level": self.lower_level,
            "sup_scale": self.sup_scale,
            "expected_upper_level": dict(self.expected_upper),
        }


def nominal(level: float, m: int) -> Calibration:
    """The levels of an uncalibrated band."""
    return Calibration(level=level, upper=np.full(m, (1.0 + level) / 2.0))


def wanted(mode: str, n: int, outer: int = OUTER, inner: int = INNER) -> bool:
    """Whether to calibrate: ``mode`` is "double" (always), "off" (never) or "auto"
    (within budget)."""
    if mode not in MODES:
        raise ValueError(f"calibration must be one of {MODES}, got {mode!r}")
    return mode == "double" or (mode == "auto" and n * outer * inner <= AUTO_BUDGET)


def resample_counts(rng: np.random.Generator, counts: np.ndarray, inner: int) -> np.ndarray:
    """Inner resamples of outer resamples: (g, size) counts -> (g * inner, size) counts.

    Row ``b * inner + k`` is a uniform resample, with replacement, of the ``size`` instances of
    outer row b (each instance i present ``counts[b, i]`` times): Multinomial(size, counts[b] /
    size), drawn as positions in b's instance list and counted at once
    (:func:`~ccreport.analysis.path_layout.count_positions`).
    """
    g, size = counts.shape
    if size == 0:
        return np.zeros((g * inner, 0), dtype=np.int64)
    lists = np.repeat(np.tile(np.arange(size), g), counts.ravel()).reshape(g, size)
    picks = rng.integers(
        0, size, size=(g, inner, size), dtype=np.int32
    )  # 32-bit draws: a third of 64-bit ones' time, the same law
    drawn = np.take_along_axis(lists[:, None, :], picks, axis=2).reshape(g * inner, size)
    drawn += (np.arange(g * inner) * size)[:, None]
    return count_positions(drawn, g * inner * size).reshape(g * inner, size)


def resample_cumulative(
    rng: np.random.Generator, counts: np.ndarray, inner: int, at: np.ndarray
) -> np.ndarray:
    """``cumulative(resample_counts(rng, counts, inner))[:, at]`` from the same draws, without the
    inner replicates' per-instance counts: (g * inner, at.size), int32.

    Instance i's position list in outer row b is sorted, so "drawn instance < i" is "drawn position
    < C_b(i)", C_b the outer row's cumulative counts: a row's cumulative count at class rank i is
    its number of picks at positions below C_b(i). One count of the picks by position and one cumsum
    give every row's counts below each position; they are read at ``C_b(at)`` (the path points'
    class ranks, :func:`path_columns`). The same integers as the per-instance route, with no gather
    through the position lists. The picks are drawn at once (the generator's stream is that of
    :func:`resample_counts`) and counted a few outer rows at a time (``RESAMPLE_BLOCK`` positions),
    so the working arrays stay in the processor's cache.
    """
    g, size = counts.shape
    columns = np.asarray(at).size
    if size == 0:
        return np.zeros((g * inner, columns), dtype=np.int32)
    picks = rng.integers(
        0, size, size=(g, inner, size), dtype=np.int32
    )  # the draws of resample_counts, in its order
    bounds = cumulative(counts)[
        :, at
    ]  # (g, columns): positions of outer row b before each class rank
    # counts up to n fit 32 bits: half the memory traffic here and in the hulls (the same integers)
    out = np.empty((g, inner, columns), dtype=np.int32)
    per = max(1, RESAMPLE_BLOCK // (inner * size))  # outer rows per block
    row_start = (np.arange(per * inner) * size).reshape(per, inner, 1)
    below_start = (np.arange(per * inner) * (size + 1)).reshape(per, inner, 1)
    for first in range(
        0, g, per
    ):  # blocks of outer rows bound the working set, not a loop over instances
        rows = slice(first, min(g, first + per))
        k = rows.stop - first
        block = picks[rows]
        block += row_start[:k]
        by_position = count_positions(block, k * inner * size).reshape(k * inner, size)
        below = cumulative(by_position)  # below[r, p]: row r's picks at positions < p
        np.take(below.ravel(), bounds[rows, None, :] + below_start[:k], out=out[rows])
    return out.reshape(g * inner, columns)


def resample_group_counts(rng: np.random.Generator, counts: np.ndarray, inner: int) -> np.ndarray:
    """:func:`resample_counts` for counts per merged score group (g, G) of a grouped layout
    (:mod:`ccreport.analysis.replicate_groups`): row ``b * inner + k`` is Multinomial(size,
    counts[b] / size), the inner resample of outer row b summed per group (its instances within a
    group are exchangeable), drawn per group, O(G) per inner replicate."""
    g, groups = counts.shape
    size = counts.sum(axis=1)
    if groups == 0 or not size.any():
        return np.zeros((g * inner, groups), dtype=np.int64)
    drawn = rng.multinomial(size, counts / size[:, None], size=(inner, g))  # (inner, g, G)
    return drawn.transpose(1, 0, 2).reshape(g * inner, groups)


def upper_rank(truth: np.ndarray, samples: np.ndarray) -> np.ndarray:
    """The quantile level of ``truth`` (g, ...) among ``samples`` (g, k, ...) as an upper bound:
    ``(#samples strictly below + 1/2) / (k + 1)``, in [1/(2k+2), 1 - 1/(2k+2)].

    An upper edge read at level a covers the truth when about a fraction a or more of the samples
    lie below it, so the level a band needs is the fraction strictly below: samples *equal* to the
    truth count as covering it. (A mid-rank would put a truth tied with most samples at 1/2 and
    calibrate such a band down to its median.) The 1/2 and k + 1 treat the truth as one of k + 1
    exchangeable values. NaN where the samples have no spread and equal the truth (nothing to
    calibrate there).
    """
    t = truth[:, None]
    k = samples.shape[1]
    below = np.count_nonzero(samples < t, axis=1)
    u = (below + 0.5) / (k + 1)
    all_equal_truth = np.all(np.abs(samples - t) <= 1e-12, axis=1)
    return np.where(all_equal_truth, np.nan, u)


def sup_statistics(inner_values: np.ndarray, truth: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per outer replicate, the truth's studentized sup statistic (g,) and each inner replicate's
    (g, k).

    As :func:`ccreport.analysis.bands.simultaneous_band` on each outer replicate's inner replicates
    (g, k, m): statistic ``max_j |v_j - mean_j| / s_j`` over grid points with sd > 0 (s:
    :func:`~ccreport.analysis.bands.studentizing_sd`). Points where the inner replicates all agree
    are left out: the band has width 0 there whatever its scale, so they say nothing about the
    scale. An outer replicate whose inner replicates all agree everywhere has nothing to scale
    (NaN).
    """
    mean = inner_values.mean(axis=1)
    sd = studentizing_sd(inner_values.std(axis=1, ddof=1))
    live = sd > 0
    safe = np.where(live, sd, 1.0)
    dev = np.where(live[:, None], np.abs(inner_values - mean[:, None]) / safe[:, None], 0.0).max(
        axis=2
    )
    stat = np.where(live, np.abs(truth - mean) / safe, 0.0).max(axis=1)
    some = live.any(axis=1)
    return np.where(some, stat, np.nan), np.where(some[:, None], dev, np.nan)


def sup_ratios(stat: np.ndarray, inner_sups: np.ndarray, level: float) -> np.ndarray:
    """Per outer replicate: the truth's sup statistic over the inner bands' critical value
    (:func:`sup_statistics`' two results, concatenated over every outer replicate).

    The critical value is the ``level`` quantile of the inner replicates' sup statistics pooled over
    every outer replicate, not each outer replicate's own: the statistic is studentized, so its
    distribution hardly changes from one outer replicate to the next, while a 90% quantile of one
    replicate's 50 inner values has a Monte-Carlo error of several per cent that pushes the
    ratios' tail, and with it the scale, up (measured, binormal n = 200: scale 1.39 from 50 inner
    replicates per outer one, 1.32 from 100, 1.23 from 200; pooled from 50: 1.32). NaN where the
    outer replicate has nothing to scale or the critical value is 0.
    """
    pooled = inner_sups[~np.isnan(inner_sups)]
    critical = float(np.quantile(pooled, level)) if pooled.size else 0.0
    if critical <= 0:
        return np.full(stat.shape, np.nan)
    return stat / critical


def _recounted(
    h: Hulls, cp_outer: np.ndarray, cn_outer: np.ndarray, inner: int, layout=None
) -> Hulls:
    """Inner hulls whose ``x0, y0`` are the selected thresholds' counts in their *outer* replicate.

    ``h``: hulls over :func:`path_columns`' layout (``x0``, ``y0``: the selected point's columns)
    and ``cp_outer``/``cn_outer`` the outer replicates' cumulative counts at those columns' ranks;
    or, for a grouped layout (``layout`` given, :mod:`ccreport.analysis.replicate_groups`), hulls
    whose ``x0, y0`` are sample counts and the outer counts cumulated over every group."""
    outer_of = h.replicate_ids() // inner
    col_x, col_y = h.x0.astype(np.int64), h.y0.astype(np.int64)
    if (
        layout is not None and layout.grouped
    ):  # x0, y0 are sample counts; the outer columns are groups
        # any group end with that sample count reads the same outer count (groups between add none)
        col_x = layout.neg_at[np.searchsorted(layout.neg_count, col_x)]
        col_y = layout.pos_at[np.searchsorted(layout.pos_count, col_y)]
    return replace(
        h, x0=cn_outer[outer_of, col_x].astype(float), y0=cp_outer[outer_of, col_y].astype(float)
    )


def path_columns(layout: PathLayout) -> tuple[PathLayout, np.ndarray, np.ndarray]:
    """The class ranks at which the path points read cumulative counts (``pos_at``'s and
    ``neg_at``'s distinct values: all of them for a classifier without ties, a few for one with few
    distinct scores), and the layout re-indexed to columns of counts cumulated at those ranks only
    (:func:`resample_cumulative`): ``(layout, pos ranks, neg ranks)``. A hull of the re-indexed
    layout has the selected point's column as ``x0`` and ``y0``."""
    pos_ranks, pos_at = np.unique(layout.pos_at, return_inverse=True)
    neg_ranks, neg_at = np.unique(layout.neg_at, return_inverse=True)
    columns = PathLayout(
        pos_at=pos_at,
        neg_at=neg_at,
        pos_order=layout.pos_order,
        neg_order=layout.neg_order,
        n_pos=layout.n_pos,
        n_neg=layout.n_neg,
        hull=layout.hull,
    )
    return columns, pos_ranks, neg_ranks


@dataclass(frozen=True, eq=False)
class World:
    """One chunk of the bootstrap world: g outer replicates, k inner replicates of each.

    ``truth`` (g, m): ``C(v*_b)``, the sample cost of the thresholds outer replicate b selected at
    each grid PC(+); ``inner`` (g, k, m): the inner optimism-corrected replicates
    ``c**_bk = t*_b + C_b(v**_bk) - t**_bk``; ``truth_expected``/``inner_expected``: the same for
    each prior's expected cost, prior -> (g,) / (g, k).
    """

    truth: np.ndarray
    inner: np.ndarray
    truth_expected: dict
    inner_expected: dict


@dataclass(frozen=True, eq=False)
class Outer:
    """Outer replicates: cumulative counts, own envelopes t*_b and truths C(v*_b), on the grid and
    under each prior."""

    cp: np.ndarray
    cn: np.ndarray
    t: np.ndarray
    truth: np.ndarray
    t_expected: dict
    truth_expected: dict


def outer_world(layout, counts_pos, counts_neg, grid, priors) -> Outer:
    """Outer replicates from their counts ((g, n_pos) and (g, n_neg), in the layout's class-rank
    order): each one's own envelope t*_b and the truth C(v*_b), on the grid and under each prior."""
    cp, cn = cumulative(counts_pos), cumulative(counts_neg)
    t, truth, t_e, truth_e = hull_curves(
        replicate_hulls(layout, cp, cn), grid, priors, nodes=INDUCED_NODES
    )[:4]
    return Outer(cp=cp, cn=cn, t=t, truth=truth, t_expected=t_e, truth_expected=truth_e)


def _inner_world(layout, outer: Outer, inner_cp, inner_cn, grid, priors) -> tuple[np.ndarray, dict]:
    """Inner optimism-corrected replicates (g, k, m) and expected costs prior -> (g, k), from the
    inner replicates' cumulative class counts at the ranks of :func:`path_columns`
    (:func:`resample_cumulative`).

    Computed a few outer replicates at a time (at most ``HULL_BLOCK`` path points of inner
    replicates per block, each block with its rows' place in the piece as ``row0``): each
    replicate's hull and costs are its own, so the blocks give the very numbers of one pass over
    the chunk (test), with working arrays of about a MB instead of a chunk's hundreds
    (``CHUNK_ELEMENTS``), which stay in the processor's cache."""
    g = outer.cp.shape[0]
    k = inner_cp.shape[0] // g
    blocks = [
        _inner_block(
            layout,
            _outer_rows(outer, rows),
            inner_cp[rows.start * k : rows.stop * k],
            inner_cn[rows.start * k : rows.stop * k],
            grid,
            priors,
            rows.start * k,
        )
        for rows in row_blocks(g, k * layout.n_points, HULL_BLOCK)  # outer replicates per block
    ]
    values = np.concatenate([v for v, _ in blocks])
    return values, {p: np.concatenate([e[p] for _, e in blocks]) for p in priors}


def _outer_rows(outer: Outer, rows: slice) -> Outer:
    """The outer replicates ``rows`` of ``outer``."""
    return Outer(
        cp=outer.cp[rows],
        cn=outer.cn[rows],
        t=outer.t[rows],
        truth=outer.truth[rows],
        t_expected={p: v[rows] for p, v in outer.t_expected.items()},
        truth_expected={p: v[rows] for p, v in outer.truth_expected.items()},
    )


def _inner_block(
    layout, outer: Outer, inner_cp, inner_cn, grid, priors, row0: int = 0
) -> tuple[np.ndarray, dict]:
    """:func:`_inner_world` of one block of outer replicates; ``row0``: its first inner row in the
    piece (:attr:`~ccreport.analysis.hulls.Hulls.row0`)."""
    g = outer.cp.shape[0]
    k = inner_cp.shape[0] // g
    if layout.grouped:  # counts cumulated over every merged score group
        recounted = _recounted(
            replicate_hulls(layout, inner_cp, inner_cn, row0=row0), outer.cp, outer.cn, k, layout
        )
    else:
        columns, pos_ranks, neg_ranks = path_columns(layout)
        hulls = replicate_hulls(columns, inner_cp, inner_cn, row0=row0)
        recounted = _recounted(hulls, outer.cp[:, pos_ranks], outer.cn[:, neg_ranks], k)
    raw, ins, raw_e, ins_e = hull_curves(recounted, grid, priors, nodes=INDUCED_NODES)[:4]
    values = outer.t[:, None, :] + (ins - raw).reshape(g, k, grid.size)
    expected = {
        p: outer.t_expected[p][:, None] + (ins_e[p] - raw_e[p]).reshape(g, k) for p in priors
    }
    return values, expected


def bootstrap_world(layout, counts_pos, counts_neg, inner_pos, inner_neg, grid, priors) -> World:
    """Outer replicates (counts, (g, n_pos) and (g, n_neg), in the layout's class-rank order) and
    their inner replicates ((g k, ...), row ``b k + j`` drawn from outer row b) ->
    :class:`World`."""
    return world_in_pieces(
        layout,
        outer_world(layout, counts_pos, counts_neg, grid, priors),
        [(inner_pos, inner_neg)],
        grid,
        priors,
    )


def world_in_pieces(layout, outer: Outer, inner_pieces, grid, priors) -> World:
    """The world of outer replicates and their inner replicates, drawn in pieces
    (each (g k_i, ...))."""
    if layout.grouped:  # per-group counts: cumulated over every group
        cumulated = ((cumulative(pos), cumulative(neg)) for pos, neg in inner_pieces)
        return world_of_cumulative_pieces(layout, outer, cumulated, grid, priors)
    _, pos_ranks, neg_ranks = path_columns(layout)
    cumulated = (
        (cumulative(pos)[:, pos_ranks], cumulative(neg)[:, neg_ranks]) for pos, neg in inner_pieces
    )
    return world_of_cumulative_pieces(layout, outer, cumulated, grid, priors)


def world_of_cumulative_pieces(layout, outer: Outer, inner_pieces, grid, priors) -> World:
    """:func:`world_in_pieces` of pieces given as cumulative class counts at the ranks of
    :func:`path_columns` (:func:`resample_cumulative`), or over every group of a grouped layout."""
    pieces = [_inner_world(layout, outer, cp, cn, grid, priors) for cp, cn in inner_pieces]
    return World(
        truth=outer.truth,
        inner=np.concatenate([values for values, _ in pieces], axis=1),
        truth_expected=outer.truth_expected,
        inner_expected={p: np.concatenate([e[p] for _, e in pieces], axis=1) for p in priors},
    )


def pooled_quantile(u: np.ndarray, grid: np.ndarray, q: float, window: float) -> np.ndarray:
    """The q quantile of u (M, m) pooled over grid points within ``window`` of each; q where empty.

    Per grid point j, ``np.nanquantile`` (linear interpolation, NaNs dropped) of the values
    ``u[:, near j]``, to the bit: the neighbours' columns are gathered into one row per grid point
    (padded with NaN to the widest neighbourhood), the rows sorted at once (NaN last), and the value
    read at position ``(count - 1) q`` and interpolated as numpy's ``_lerp`` does (from the upper
    neighbour when the fraction is 1/2 or more).
    """
    near = np.abs(grid[:, None] - grid[None, :]) <= window + 1e-12  # (m, m)
    width = int(near.sum(axis=1).max())
    cols = np.argsort(~near, axis=1, kind="stable")[:, :width]  # each point's neighbours first
    inside = np.take_along_axis(near, cols, axis=1)  # (m, width)
    vals = np.where(inside[None, :, :], u[:, cols], np.nan)  # (M, m, width)
    pooled = np.sort(vals.transpose(1, 0, 2).reshape(grid.size, -1), axis=1)  # NaN sorts last
    count = np.count_nonzero(~np.isnan(pooled), axis=1)
    virtual = (count - 1) * q  # numpy's "linear" virtual index
    prev = np.floor(virtual)
    nxt = prev + 1
    last = virtual >= count - 1
    prev = np.where(last, count - 1, prev).astype(np.intp)
    nxt = np.where(last, count - 1, nxt).astype(np.intp)
    gamma = np.where(last, 0.0, virtual - np.floor(virtual))
    rows = np.arange(grid.size)
    a = pooled[rows, np.maximum(prev, 0)]
    b = pooled[rows, np.maximum(nxt, 0)]
    diff = b - a
    out = np.where(gamma >= 0.5, b - diff * (1 - gamma), a + diff * gamma)
    return np.where(count > 0, out, q)


def _widening(x: np.ndarray, q: float, nominal_value: float) -> float:
    """The q quantile of x (NaNs dropped), never below the nominal value: calibration only
    widens."""
    x = x[~np.isnan(x)]
    return max(nominal_value, float(np.quantile(x, q))) if x.size else nominal_value


def calibrate(
    rng: np.random.Generator,
    layout: PathLayout,
    level: float,
    priors: dict | None = None,
    grid=GRID,
    outer: int = OUTER,
    inner: int = INNER,
    window: float = WINDOW,
) -> Calibration:
    """Prepivoting (Beran 1987) of a scoring classifier's optimism-corrected band: the module
    docstring.

    ``layout``: the classifier's sorted path, :func:`~ccreport.analysis.path_layout.path_layout`
    (the band's ``Replicates.layout``, so the scores are sorted once for both).
    """
    priors = priors or {}
    grid = np.asarray(grid, dtype=float)
    n = layout.n_pos + layout.n_neg
    if (
        not layout.grouped and (layout.n_points - 1) * GROUP_DRAWS <= n
    ):  # few distinct scores: drawn per score
        layout = group_layout(layout, force=True)
    q = (1.0 + level) / 2.0
    u_grid, stats, sups, u_exp = [], [], [], {p: [] for p in priors}
    size = layout.n_points if layout.grouped else n  # counts per replicate: groups or instances
    if not layout.grouped:
        _, pos_ranks, neg_ranks = path_columns(layout)
    for g in chunk_sizes(outer, size * inner):
        if layout.grouped:
            sizes_pos, sizes_neg = group_sizes(layout)
            counts_pos, counts_neg = (
                group_counts(rng, sizes_pos, g),
                group_counts(rng, sizes_neg, g),
            )
            pieces = (  # inner replicates per group, cumulated over every group
                (
                    cumulative(resample_group_counts(rng, counts_pos, k)),
                    cumulative(resample_group_counts(rng, counts_neg, k)),
                )
                for k in chunk_sizes(inner, size * g)
            )
        else:
            counts_pos = multinomial_counts(rng, layout.n_pos, g)
            counts_neg = multinomial_counts(rng, layout.n_neg, g)
            # inner replicates in pieces of at most CHUNK_ELEMENTS instances (only at large n)
            pieces = (
                (
                    resample_cumulative(rng, counts_pos, k, pos_ranks),
                    resample_cumulative(rng, counts_neg, k, neg_ranks),
                )
                for k in chunk_sizes(inner, n * g)
            )
        outer_w = outer_world(layout, counts_pos, counts_neg, grid, priors)
        world = world_of_cumulative_pieces(layout, outer_w, pieces, grid, priors)
        u_grid.append(upper_rank(world.truth, world.inner))
        stat, inner_sups = sup_statistics(world.inner, world.truth)
        stats.append(stat)
        sups.append(inner_sups)
        for p in priors:
            u_exp[p].append(upper_rank(world.truth_expected[p], world.inner_expected[p]))
    return Calibration(
        level=level,
        upper=np.maximum(q, pooled_quantile(np.concatenate(u_grid), grid, q, window)),
        sup_scale=_widening(
            sup_ratios(np.concatenate(stats), np.concatenate(sups), level), level, 1.0
        ),
        expected_upper={p: _widening(np.concatenate(u_exp[p]), q, q) for p in priors},
        outer=outer,
        inner=inner,
        window=window,
    )


def quantiles_by_column(values: np.ndarray, levels) -> np.ndarray:
    """The ``levels[j]`` quantile of column j of ``values`` (R, m), interpolated as numpy's default
    (position ``levels[j] (R - 1)`` in the sorted column)."""
    return _sorted_quantiles(np.sort(np.asarray(values, dtype=float), axis=0), levels)


def _sorted_quantiles(v: np.ndarray, levels) -> np.ndarray:
    """:func:`quantiles_by_column` of columns already sorted."""
    r, m = v.shape
    pos = np.clip(np.broadcast_to(np.asarray(levels, dtype=float), (m,)), 0.0, 1.0) * (r - 1)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, r - 1)
    cols = np.arange(m)
    frac = pos - lo
    return v[lo, cols] * (1.0 - frac) + v[hi, cols] * frac


def calibrated_band(values: np.ndarray, cal: Calibration) -> tuple[np.ndarray, np.ndarray]:
    """Pointwise band of replicate curves (R, m): lower edge at the nominal level, upper
    calibrated."""
    v = np.sort(np.asarray(values, dtype=float), axis=0)
    return _sorted_quantiles(v, cal.lower_level), _sorted_quantiles(v, cal.upper)


def calibrated_interval(samples, levels: tuple[float, float]) -> list[float]:
    """Interval of one statistic's replicates at (lower, upper) quantile levels."""
    lo, hi = np.quantile(np.asarray(samples, dtype=float), [levels[0], levels[1]])
    return [float(lo), float(hi)]


def studentized_ratios(values, estimate, sd) -> np.ndarray:
    """Bootstrap-t ratios ``(c* - t) / s*`` (Efron & Tibshirani 1993 ch. 12; Davison & Hinkley 1997
    section 5.2.1) of optimism-corrected replicates ``values`` (R, ...) about the estimate ``t``,
    each divided by its own selection's sd ``s*`` (same shape as ``values``); 0 where ``s*`` = 0 (a
    replicate that selected a trivial classifier: its corrected value is the estimate itself)."""
    values = np.asarray(values, dtype=float)
    sd = np.asarray(sd, dtype=float)
    live = sd > 0
    return np.where(
        live, (values - np.asarray(estimate, dtype=float)) / np.where(live, sd, 1.0), 0.0
    )


def studentized_band(
    values,
    estimate,
    sd,
    sd_estimate,
    cal: Calibration,
    basic=None,
    sd_floor=None,
    floor_level: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Pointwise studentized (bootstrap-t) band of optimism-corrected replicate curves (R, m).

    ``t_j + s_j q_a(z_j)`` with ``z*_j = (c*_j - t_j) / s*_j`` (:func:`studentized_ratios`), ``s*``
    each replicate's binomial sd of the cost of what it selected and ``s`` the sample's (D&H 2006
    Eq. 8), read at the lower level and at the calibrated upper level of ``cal``. Where the sample
    selects a trivial classifier (``s_j`` = 0, its cost known exactly) the percentile band of the
    replicates (:func:`calibrated_band`) is kept.

    ``basic`` (R, m): the reflected replicates ``2 t - t*`` (the basic bootstrap, Davison & Hinkley
    1997 eq. 5.6, whose target is the best cost achievable, not the cost of what was selected); the
    lower edge is the lower of the two studentized lower edges, so the band reaches down to the
    optimum as well. ``sd_floor`` (m,): an sd with Agresti-Coull rates (Agresti & Coull 1998;
    :func:`~ccreport.analysis.hull_costs.unseen_sd_at` for a single classifier: only the rates
    whose count is 0 or all of a class); where it is > 0 the upper edge is at least
    ``t + z s_floor``, the normal-approximation binomial bound of the selected cost line at the
    nominal upper level (D&H 2006 section 4.6), and elsewhere the bootstrap-t edge stands alone: a
    selected threshold with no negative (or no positive) on one side has no binomial variance in the
    resampling, so no bootstrap interval can see how far its true rate may lie from 0, while a rate
    counted at least once varies in the resampling and the bootstrap-t already reads it.
    ``floor_level``: the one-sided level of that bound (default the nominal upper level).

    Why: with few distinct scores the sd of the selected cost depends strongly on the estimate (a
    data set whose cost line lies high uses it over a narrower PC(+) range and, where it is used, at
    a smaller binomial variance), so percentiles of ``c*`` give bands too narrow exactly in the data
    sets whose estimate lies far from the truth; the ratio to its own sd is nearly pivotal
    (second-order accurate, Hall 1992 section 3.5).
    """
    z = studentized_ratios(values, estimate, sd)
    est = np.asarray(estimate, dtype=float)
    s = np.asarray(sd_estimate, dtype=float)
    zs = np.sort(z, axis=0)
    lower = est + s * _sorted_quantiles(zs, np.full(est.shape, cal.lower_level))
    upper = est + s * _sorted_quantiles(zs, cal.upper)
    if (
        basic is not None
    ):  # the reflected replicates 2 t - t*: their lower edge reaches the optimum too
        zb = np.sort(studentized_ratios(basic, est, sd), axis=0)
        lower = np.minimum(
            lower, est + s * _sorted_quantiles(zb, np.full(est.shape, cal.lower_level))
        )
    if sd_floor is not None:  # at least the binomial bound, where a floor is given (sd > 0)
        z = ndtri(1.0 - cal.lower_level if floor_level is None else floor_level)
        floor = np.asarray(sd_floor, dtype=float)
        upper = np.where(floor > 0, np.maximum(upper, est + z * floor), upper)
    plo, phi = calibrated_band(values, cal)
    exact = s <= 0
    return np.where(exact, plo, np.maximum(lower, 0.0)), np.where(
        exact, phi, upper
    )  # a cost is never below 0


def studentized_interval(
    samples, estimate: float, sd, sd_estimate: float, levels: tuple[float, float], basic=None
) -> list[float]:
    """Bootstrap-t interval of one statistic: ``[t + s q_lo(z*), t + s q_hi(z*)]``, ``z*`` the
    :func:`studentized_ratios` of its optimism-corrected replicates (R,) by their own sds ``sd``
    (R,), ``s`` = ``sd_estimate`` the sample's; the percentile interval
    (:func:`calibrated_interval`) when ``s`` = 0 (nothing to studentize by). ``basic`` (R,): the
    reflected replicates ``2 t - t*``; the lower end is the lower of the two studentized ones
    (:func:`studentized_band`)."""
    if not sd_estimate > 0:
        return calibrated_interval(samples, levels)
    z = studentized_ratios(samples, estimate, sd)
    lo, hi = np.quantile(z, [levels[0], levels[1]])
    if basic is not None:
        lo = min(lo, float(np.quantile(studentized_ratios(basic, estimate, sd), levels[0])))
    return [
        max(0.0, float(estimate + sd_estimate * lo)),
        float(estimate + sd_estimate * hi),
    ]  # a cost is never below 0
