"""ROC convex hulls of many bootstrap replicates at once, exact and without a loop over instances.

Drummond & Holte 2006, section 3.1: a scoring classifier's lower envelope in cost space is the dual
of the convex hull of its ROC path, so a replicate's envelope is fixed by its hull. A stratified
replicate's ROC path is the cumulative sum of its multinomial counts in the presorted order
(:mod:`ccreport.analysis.bootstrap`); its hull is computed here for a whole chunk of replicates at
once, in two stages:

1. the path is cut into blocks of ``BLOCK`` consecutive points; all points of a block lie in the box
   spanned by its end points, so a block can hold a hull vertex only if the box's upper-left corner
   lies strictly above the hull of the block end points (the "coarse hull", itself a hull of path
   points); blocks that pass are split in two halves and the halves tested the same way;
2. the exact hull is the hull of the coarse hull's vertices plus the points of the halves that pass
   (a few per cent of the path at n = 10^5). The test is done in integers, so it is exact.

Both hulls are pool-adjacent-violators fits (as
:func:`ccreport.analysis.roc.hull_of_monotone_path`), done for all replicates of a chunk in one call
by offsetting each replicate's slopes so that no block is pooled across replicates
(``scipy.optimize.isotonic_regression``, through :func:`ccreport.analysis.roc.block_starts`).

Reading costs off these hulls is :mod:`ccreport.analysis.hull_costs`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .path_layout import PathLayout
from .roc import block_starts

BLOCK = 32  # points per block in the hull pruning (see the module docstring)
ROW_BLOCK = 2**17  # path points of replicates per slice of row_blocks (1 MB per int64 array)


def row_blocks(rows: int, points: int, budget: int | None = None) -> list[slice]:
    """Slices of ``rows`` replicates of ``points`` path points each: at most ``budget`` points
    (``ROW_BLOCK`` when None) per slice, at least one row, in order.

    A replicate's hull and costs are its own (:func:`replicate_hulls`,
    :func:`ccreport.analysis.hull_costs.hull_curves`), so a chunk's replicates computed slice by
    slice and concatenated are the numbers of one pass over the chunk, bit for bit (tests: each
    slice passes its first row as ``row0``), while the working arrays stay within the processor's
    cache instead of spanning tens of MB."""
    per = max(1, (ROW_BLOCK if budget is None else budget) // max(points, 1))
    return [slice(b, min(b + per, rows)) for b in range(0, rows, per)]


@dataclass(frozen=True, eq=False)
class Hulls:
    """ROC convex hulls of many replicates, flat: vertices ``(x, y)`` in counts (FP, TP).

    Replicate r's vertices are ``x[indptr[r]:indptr[r+1]]`` from (0, 0) to (n_neg, n_pos); slopes
    strictly decrease (or are equal, for collinear vertices, which do no harm).
    """

    x: np.ndarray
    y: np.ndarray
    indptr: np.ndarray
    n_pos: int
    n_neg: int
    x0: np.ndarray | None = None  # the same ROC points (thresholds) counted in the original sample
    y0: np.ndarray | None = None
    # replicate 0's row in the chunk it was drawn with: computations that offset replicate r by
    # 2 r in floating point offset it by 2 (row0 + r), so a slice of a chunk (row_blocks) rounds,
    # pools and selects exactly as the whole chunk does
    row0: int = 0

    def original(self) -> Hulls:
        """The same vertices (thresholds) with their original-sample counts, for the optimism
        estimate."""
        return replace(self, x=self.x0, y=self.y0, x0=None, y0=None)

    @property
    def replicates(self) -> int:
        return self.indptr.size - 1

    def replicate_ids(self) -> np.ndarray:
        return np.repeat(np.arange(self.replicates), np.diff(self.indptr))


def flat_hull_mask(
    x: np.ndarray, y: np.ndarray, rep: np.ndarray, first: np.ndarray, row0: int = 0
) -> np.ndarray:
    """Which points of many monotone paths (flat, replicate ids non-decreasing) are hull vertices.

    ``first``: index of each replicate's first point. Every path runs from (0, 0) to its end, so the
    step from one replicate's end to the next one's start has negative length and drops out with the
    empty steps. The upper-left hull of each path is the least concave majorant in the sheared frame
    ``(x + y, y)``: a decreasing isotonic fit of the step slopes ``dy / (dx + dy)`` weighted by
    ``dx + dy`` (see :func:`ccreport.analysis.roc.hull_of_monotone_path`). We fit the increasing
    sequence ``2 r - slope`` so that replicate r's values all exceed replicate r-1's: PAV never
    pools across replicates, and one call fits the whole chunk. Every replicate's first and last
    points are vertices. ``row0``: the first replicate's row in its drawn chunk
    (:attr:`Hulls.row0`): the values are ``2 (row0 + r) - slope``, as the whole chunk's.
    """
    dx = np.diff(x)
    dy = np.diff(y)
    w = dx + dy
    step = np.flatnonzero(w > 0)
    keep = np.zeros(x.size, dtype=bool)
    keep[first] = True
    keep[first[1:] - 1] = True
    keep[-1] = True
    if step.size:
        ws = w[step].astype(np.float64)  # int / int divides in float64: the same slopes
        keep[step[block_starts(2.0 * (rep[step] + row0) - dy[step] / ws, ws)]] = True
    return keep


def grid_hull_mask(x: np.ndarray, y: np.ndarray, row0: int = 0) -> np.ndarray:
    """:func:`flat_hull_mask` for R paths of the same length, given as (R, m) arrays."""
    reps, m = x.shape
    rep = np.repeat(np.arange(reps), m)
    return flat_hull_mask(x.ravel(), y.ravel(), rep, np.arange(reps) * m, row0).reshape(reps, m)


def _above(hull, cx, cy, offset) -> np.ndarray:
    """Whether points (cx, cy) (counts; ``offset`` = their replicate's offset in the flat sheared
    hull) lie strictly above the coarse hull ``(hu, hy)`` of their replicate. Exact, in integers."""
    hu, hy = hull
    cu = cx + cy + offset
    v = np.searchsorted(hu, cu.ravel(), side="right").reshape(cu.shape) - 1
    v1 = np.minimum(v + 1, hu.size - 1)
    du = hu[v1] - hu[v]
    hyv = hy[v]
    # strictly above the chord from vertex v to v + 1:  (cy - hy_v) du > (cu - hu_v) (hy_v1 - hy_v)
    return (cy - hyv) * du > (cu - hu[v]) * (hy[v1] - hyv)


def replicate_hulls(
    layout: PathLayout, cp: np.ndarray, cn: np.ndarray, block: int = BLOCK, row0: int = 0
) -> Hulls:
    """:func:`slice_hulls` of the rows of ``cp, cn`` in :func:`row_blocks` (each slice with its
    own ``row0``), joined: the hulls of one pass over all rows, bit for bit (test)."""
    slices = row_blocks(cp.shape[0], layout.n_points)
    if len(slices) <= 1:
        return slice_hulls(layout, cp, cn, block, row0)
    parts = [slice_hulls(layout, cp[s], cn[s], block, row0 + s.start) for s in slices]
    counts = np.concatenate([np.diff(p.indptr) for p in parts])
    return Hulls(
        x=np.concatenate([p.x for p in parts]),
        y=np.concatenate([p.y for p in parts]),
        indptr=np.concatenate(([0], np.cumsum(counts))),
        n_pos=layout.n_pos,
        n_neg=layout.n_neg,
        x0=np.concatenate([p.x0 for p in parts]),
        y0=np.concatenate([p.y0 for p in parts]),
        row0=row0,
    )


def slice_hulls(
    layout: PathLayout, cp: np.ndarray, cn: np.ndarray, block: int = BLOCK, row0: int = 0
) -> Hulls:
    """Exact ROC convex hulls of a chunk of replicates from their cumulative class counts.

    ``layout``: the classifier's sorted path (:class:`ccreport.analysis.path_layout.PathLayout`);
    ``cp``/``cn``: (R, n_pos + 1) / (R, n_neg + 1) cumulative counts in the layout's class-rank
    order. Pruning, exact (module docstring): all points of a run of path points lie in the box
    spanned by its end points, so the run can hold a hull vertex only if the box's upper-left corner
    is strictly above the hull of the block end points (the coarse hull, itself a hull of path
    points). Blocks that fail the test are split in two halves, tested the same way; the hull is the
    hull of the coarse-hull vertices and of the points of the halves that pass (every other point
    lies inside the coarse hull). ``x0, y0`` of the result: the selected points counted in the
    original sample. ``row0``: the first row's index in its drawn chunk when ``cp, cn`` are a slice
    of it (:func:`row_blocks`, :attr:`Hulls.row0`).
    """
    reps = cp.shape[0]
    g = layout.n_points - 1  # last point index
    ends = np.append(np.arange(0, g, block), g)
    nb = ends.size - 1
    ex = np.take(cn, layout.neg_at[ends], axis=1)  # (R, nb + 1)
    ey = np.take(cp, layout.pos_at[ends], axis=1)
    coarse = grid_hull_mask(ex, ey, row0)
    span = layout.n_pos + layout.n_neg + 1
    offset = np.arange(reps, dtype=np.int64) * span
    hull = (
        (ex + ey + offset[:, None])[coarse],
        ey[coarse],
    )  # sheared frame u = x + y, flat, offset
    examined = _above(hull, ex[:, :-1], ey[:, 1:], offset[:, None])
    # halves of the examined blocks: [start, mid] and [mid, end]
    r_idx, b_idx = np.nonzero(examined)
    mid_pt = np.minimum(ends[b_idx] + block // 2, ends[b_idx + 1])
    mx = cn[r_idx, layout.neg_at[mid_pt]]
    my = cp[r_idx, layout.pos_at[mid_pt]]
    first_half = np.zeros((reps, nb), dtype=bool)
    second_half = np.zeros((reps, nb), dtype=bool)
    first_half[r_idx, b_idx] = _above(hull, ex[r_idx, b_idx], my, offset[r_idx])
    second_half[r_idx, b_idx] = _above(hull, mx, ey[r_idx, b_idx + 1], offset[r_idx])
    mid = np.broadcast_to(np.minimum(ends[:-1] + block // 2, ends[1:]), (reps, nb))
    # candidates in path order, four runs per block: its start if a coarse vertex, the inside of the
    # first half, the midpoint, the inside of the second half; then the last point
    starts = np.stack(
        (np.broadcast_to(ends[:-1], (reps, nb)), ends[:-1] + 1 + 0 * mid, mid, mid + 1), axis=2
    )
    lengths = np.stack(
        (
            coarse[:, :-1].astype(np.int64),
            np.where(first_half, mid - ends[:-1] - 1, 0),
            (first_half | second_half).astype(np.int64),
            np.where(second_half, np.maximum(ends[1:] - mid - 1, 0), 0),
        ),
        axis=2,
    ).reshape(reps, 4 * nb)
    starts = starts.reshape(reps, 4 * nb)
    lengths = np.concatenate((lengths, np.ones((reps, 1), dtype=np.int64)), axis=1).ravel()
    starts = np.concatenate((starts, np.full((reps, 1), g)), axis=1).ravel()
    # point indices: +1 inside a run, a jump to the run's start at its first point (one cumsum)
    live_runs = np.flatnonzero(lengths)
    run_start, run_len = starts[live_runs], lengths[live_runs]
    jumps = np.ones(int(run_len.sum()), dtype=np.int64)
    first_of_run = np.cumsum(run_len) - run_len
    jumps[first_of_run] = run_start - np.concatenate(([1], run_start[:-1] + run_len[:-1])) + 1
    jumps[0] = run_start[0]
    k = np.cumsum(jumps)
    per_rep = lengths.reshape(reps, 4 * nb + 1).sum(axis=1)
    rep = np.repeat(np.arange(reps), per_rep)
    first = np.concatenate(([0], np.cumsum(per_rep)[:-1]))
    px = cn.ravel()[rep * cn.shape[1] + layout.neg_at[k]]
    py = cp.ravel()[rep * cp.shape[1] + layout.pos_at[k]]
    kept = np.flatnonzero(flat_hull_mask(px, py, rep, first, row0))  # one pass over the candidates
    counts = np.bincount(rep[kept], minlength=reps)
    kv = k[kept]
    return Hulls(
        x=px[kept].astype(float),
        y=py[kept].astype(float),
        indptr=np.concatenate(([0], np.cumsum(counts))),
        n_pos=layout.n_pos,
        n_neg=layout.n_neg,
        x0=layout.neg_sample[kv].astype(
            float
        ),  # sample counts (a grouped layout's columns are groups)
        y0=layout.pos_sample[kv].astype(float),
        row0=row0,
    )


def crisp_hulls(tp, fp, n_pos: int, n_neg: int, tp0: float, fp0: float) -> Hulls:
    """Hulls (0, 0), (FP, TP), (N, P) of crisp replicates; a point on or under the diagonal is moved
    onto it at (N/2, P/2), where it never beats the trivial classifiers (its interval has width 0).
    ``tp0``/``fp0``: the sample's counts (the ``x0, y0`` of every replicate)."""
    tp = np.asarray(tp, dtype=float)
    fp = np.asarray(fp, dtype=float)
    useless = tp * n_neg <= fp * n_pos
    tp = np.where(useless, n_pos / 2.0, tp)
    fp = np.where(useless, n_neg / 2.0, fp)
    reps = tp.size
    zeros, negs, poss = np.zeros(reps), np.full(reps, float(n_neg)), np.full(reps, float(n_pos))
    x = np.column_stack((zeros, fp, negs)).ravel()
    y = np.column_stack((zeros, tp, poss)).ravel()
    x0 = np.column_stack((zeros, np.full(reps, float(fp0)), negs)).ravel()
    y0 = np.column_stack((zeros, np.full(reps, float(tp0)), poss)).ravel()
    return Hulls(x=x, y=y, indptr=np.arange(reps + 1) * 3, n_pos=n_pos, n_neg=n_neg, x0=x0, y0=y0)


def sample_hull(layout: PathLayout) -> Hulls:
    """The sample's own ROC convex hull as a one-replicate
    :class:`~ccreport.analysis.hulls.Hulls`."""
    x = layout.neg_sample[layout.hull].astype(float)
    y = layout.pos_sample[layout.hull].astype(float)
    return Hulls(
        x=x, y=y, indptr=np.array([0, x.size]), n_pos=layout.n_pos, n_neg=layout.n_neg, x0=x, y0=y
    )


def fixed_vertices(layout: PathLayout, cp: np.ndarray, cn: np.ndarray) -> Hulls:
    """The replicates' costs of the sample's own hull vertices (thresholds fixed, D&H 2006
    section 5.2).

    Not a hull of the replicate: the same ROC points (score thresholds) the sample's envelope
    selected, re-counted in each replicate; evaluated with the sample's own switching points.
    """
    reps = cp.shape[0]
    rows = np.arange(reps)[:, None]
    x = cn[rows, layout.neg_at[layout.hull]].astype(float)
    y = cp[rows, layout.pos_at[layout.hull]].astype(float)
    return Hulls(
        x=x.ravel(),
        y=y.ravel(),
        indptr=np.arange(reps + 1) * layout.hull.size,
        n_pos=layout.n_pos,
        n_neg=layout.n_neg,
        x0=np.tile(layout.neg_sample[layout.hull].astype(float), reps),
        y0=np.tile(layout.pos_sample[layout.hull].astype(float), reps),
    )
