"""Bootstrap engines, confidence bands, paired significance and fold averaging in cost space.

Drummond & Holte 2006, *Cost curves* (MLJ 65):

* section 4.6 (Fig. 16, Eq. 8): confidence intervals on a cost line by resampling the confusion
  matrix conditioned on its row marginals (two binomials: the class counts are fixed, because the
  deployment class frequency is an operating condition, not a sample statistic);
* section 4.7 (Figs. 17-20, Eqs. 9-10): significance of a difference from the 3-D confusion matrix,
  two 4-valued multinomials (one per class) that keep how both classifiers label the same instances,
  so the correlation of the two is taken into account without estimating it;
* section 5.2: for a hybrid (a lower envelope built piecewise from many cost lines) the same
  resampling applies piecewise; for a scoring classifier we resample instances, stratified by class
  (the instance-level form of conditioning on the row marginals), and recompute its lower envelope;
* section 4.5 (Figs. 14-15): averaging curves over folds vertically *in cost space*.

Engine
------
A stratified bootstrap replicate of a scoring classifier is a vector of multinomial counts, one per
instance, drawn separately within each class. With the scores sorted once, the replicate's ROC path
is the cumulative sum of those counts in the presorted order (the "bare floor" of the computation).
Its lower envelope is the dual of the convex hull of that path (section 3.1). The hull is computed
exactly, for a whole chunk of replicates at once and without a loop over instances, in two stages:

1. the path is cut into blocks of ``BLOCK`` consecutive points; all points of a block lie in the box
   spanned by its end points, so a block can hold a hull vertex only if the box's upper-left corner
   lies strictly above the hull of the block end points (the "coarse hull", itself a hull of path
   points); blocks that pass are split in two halves and the halves tested the same way;
2. the exact hull is the hull of the coarse hull's vertices plus the points of the halves that pass
   (a few per cent of the path at n = 10^5). The test is done in integers, so it is exact.

Both hulls are pool-adjacent-violators fits (as in :mod:`ccreport.analysis.roc`), done for all
replicates of a chunk in one call by offsetting each replicate's slopes so that no block is pooled
across replicates. The envelope is then read off the hull exactly: on a PC(+) grid the optimal hull
vertex is found by binary search of the envelope's vertices, and the expected cost under a prior is
the closed form ``sum_v alpha_v [F] + beta_v [M]`` over the hull vertices' cost lines (as
:mod:`ccreport.analysis.priors`), vectorised over replicates.

Averaging over folds: why cost space and not ROC space
------------------------------------------------------
ROC curves are usually averaged "vertically" (Provost et al. 1998): the mean true positive rate at
each false positive rate. That puts points of different curves into correspondence by their false
positive rate, which is not an operating condition, so the average ROC curve does not describe the
average performance at any operating condition: the expected cost of the averaged ROC curve is not
the average of the folds' expected costs, and it lies below the iso-performance line joining the
curves' optimal points (D&H 2006, Fig. 14). Averaging cost curves vertically puts points into
correspondence by their operating condition PC(+): the mean normalized expected cost at each PC(+)
is exactly the average performance at that condition, and, because expectation over a prior is
linear, the expected cost of the average curve under any prior equals the average of the folds'
expected costs (D&H 2006, section 4.5, Fig. 15). Translated back to ROC space, the average of two
one-point classifiers' cost curves has its central vertex midway between their ROC points, on the
iso-performance line that joins them (Fig. 15b), where both ROC averages fall below it (Fig. 14).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from scipy.optimize._pava_pybind import pava

from .envelope import lower_envelope
from .priors import Fixed, InducedPrior, PointPrior, Prior, _logit, interval_weights
from .roc import _hull_of_monotone_path, crisp_roc, roc_points

GRID = np.linspace(0.0, 1.0, 101)  # PC(+) grid of the bands (0.3, 0.5, 0.7 are on it)
BLOCK = 32  # points per block in the hull pruning (see the module docstring)
CHUNK_ELEMENTS = 4_000_000  # replicates x instances per chunk: about 150 MB of working arrays


# --- the layout of one scoring classifier: sorted once -------------------------------------------


@dataclass(frozen=True, eq=False)
class PathLayout:
    """A scoring classifier's instances sorted by decreasing score, grouped by distinct score.

    Path point k (k = 0..G, G distinct scores) is reached after the first k score groups; ``pos_at[k]``
    and ``neg_at[k]`` are the numbers of positives/negatives (in class-rank order) before it, so a
    replicate's path point is ``(CN[neg_at[k]], CP[pos_at[k]])`` for its cumulative class counts.
    ``pos_order``/``neg_order`` give, for each class rank, the index of the instance within its class
    (positions in ``labels[labels]`` / ``labels[~labels]``), for paired resampling.
    """

    pos_at: np.ndarray
    neg_at: np.ndarray
    pos_order: np.ndarray
    neg_order: np.ndarray
    n_pos: int
    n_neg: int
    hull: np.ndarray  # point indices of the sample's own ROC convex hull vertices

    @property
    def n_points(self) -> int:
        return self.pos_at.size


def path_layout(labels, scores) -> PathLayout:
    """Sort once and record the class ranks at every distinct-score boundary (Fawcett 2006, Alg. 1)."""
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=float)
    if s.shape != y.shape or y.ndim != 1:
        raise ValueError("labels and scores must be one-dimensional arrays of the same length")
    n_pos = int(np.count_nonzero(y))
    if n_pos == 0 or n_pos == y.size:
        raise ValueError("resampling needs both classes")
    if not np.all(np.isfinite(s)):
        raise ValueError("scores must be finite")
    order = np.argsort(-s, kind="stable")
    ys = y[order]
    ends = np.append(np.flatnonzero(np.diff(s[order])), y.size - 1)
    tp = np.cumsum(ys, dtype=np.int64)
    pos_at = np.concatenate(([0], tp[ends]))
    neg_at = np.concatenate(([0], ends + 1 - tp[ends]))
    within_class = np.empty(y.size, dtype=np.int64)
    within_class[y] = np.arange(n_pos)
    within_class[~y] = np.arange(y.size - n_pos)
    return PathLayout(
        pos_at=pos_at,
        neg_at=neg_at,
        pos_order=within_class[order[ys]],
        neg_order=within_class[order[~ys]],
        n_pos=n_pos,
        n_neg=y.size - n_pos,
        hull=_hull_of_monotone_path(neg_at.astype(float), pos_at.astype(float)),
    )


# --- drawing stratified resamples -----------------------------------------------------------------


def chunk_sizes(replicates: int, n: int, elements: int = CHUNK_ELEMENTS) -> list[int]:
    """Replicates per chunk: a deterministic function of (replicates, n) only, never of workers."""
    per = max(1, min(replicates, elements // max(n, 1)))
    sizes = [per] * (replicates // per)
    if replicates % per:
        sizes.append(replicates % per)
    return sizes


def multinomial_counts(rng: np.random.Generator, size: int, replicates: int) -> np.ndarray:
    """Counts of each of ``size`` items in ``replicates`` uniform resamples of ``size`` with replacement.

    Returns int64 of shape (replicates, size): each row is Multinomial(size, uniform). Drawn as
    indices and counted with one bincount for the whole chunk.
    """
    if size <= 0:
        return np.zeros((replicates, 0), dtype=np.int64)
    dtype = np.int32 if replicates * size < 2**31 else np.int64
    idx = rng.integers(0, size, size=(replicates, size), dtype=dtype)
    idx += (np.arange(replicates, dtype=dtype) * dtype(size))[:, None]
    return np.bincount(idx.ravel(), minlength=replicates * size).reshape(replicates, size)


def cumulative(counts: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Cumulative counts with a leading zero column: ``out[:, k]`` = sum of the first k counts."""
    r, m = counts.shape
    if out is None or out.shape != (r, m + 1):
        out = np.empty((r, m + 1), dtype=np.int64)
    out[:, 0] = 0
    np.cumsum(counts, axis=1, out=out[:, 1:])
    return out


# --- many hulls at once ----------------------------------------------------------------------------


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

    def original(self) -> "Hulls":
        """The same vertices (thresholds) with their original-sample counts, for the optimism estimate."""
        return Hulls(x=self.x0, y=self.y0, indptr=self.indptr, n_pos=self.n_pos, n_neg=self.n_neg)

    @property
    def replicates(self) -> int:
        return self.indptr.size - 1

    def replicate_ids(self) -> np.ndarray:
        return np.repeat(np.arange(self.replicates), np.diff(self.indptr))


def _flat_hull_mask(x: np.ndarray, y: np.ndarray, rep: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Which points of many monotone paths (flat, replicate ids non-decreasing) are hull vertices.

    ``first``: index of each replicate's first point. Every path runs from (0, 0) to its end, so the
    step from one replicate's end to the next one's start has negative length and drops out with the
    empty steps. The upper-left hull of each path is the least concave majorant in the sheared frame
    ``(x + y, y)``: a decreasing isotonic fit of the step slopes ``dy / (dx + dy)`` weighted by
    ``dx + dy`` (see :func:`ccreport.analysis.roc._hull_of_monotone_path`). We fit the increasing
    sequence ``2 r - slope`` so that replicate r's values all exceed replicate r-1's: PAV never pools
    across replicates, and one call fits the whole chunk. Every replicate's first and last points
    are vertices.
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
        ws = w[step]
        values = 2.0 * rep[step] - dy[step] / ws
        r = np.full(step.size + 1, -1, dtype=np.intp)
        _, _, r, b = pava(values, ws.astype(float), r)
        keep[step[r[:b]]] = True
    return keep


def _replicate_hulls(layout: PathLayout, cp: np.ndarray, cn: np.ndarray, block: int = BLOCK) -> Hulls:
    """Exact ROC convex hulls of a chunk of replicates from their cumulative class counts.

    ``cp``/``cn``: (R, n_pos + 1) / (R, n_neg + 1) cumulative counts in the layout's class-rank order.
    Pruning, exact (module docstring): all points of a run of path points lie in the box spanned by
    its end points, so the run can hold a hull vertex only if the box's upper-left corner is strictly
    above the hull of the block end points (the coarse hull, itself a hull of path points). Blocks
    that fail the test are split in two halves, tested the same way; the hull is the hull of the
    coarse-hull vertices and of the points of the halves that pass (every other point lies inside
    the coarse hull).
    """
    reps = cp.shape[0]
    g = layout.n_points - 1  # last point index
    ends = np.append(np.arange(0, g, block), g)
    nb = ends.size - 1
    ex = np.take(cn, layout.neg_at[ends], axis=1)  # (R, nb + 1)
    ey = np.take(cp, layout.pos_at[ends], axis=1)
    coarse = _grid_hull_mask(ex, ey)
    span = layout.n_pos + layout.n_neg + 1
    offset = np.arange(reps, dtype=np.int64) * span
    hull = ((ex + ey + offset[:, None])[coarse], ey[coarse])  # sheared frame u = x + y, flat, offset
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
    starts = np.stack((np.broadcast_to(ends[:-1], (reps, nb)), ends[:-1] + 1 + 0 * mid, mid, mid + 1), axis=2)
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
    mask = _flat_hull_mask(px, py, rep, first)
    counts = np.bincount(rep[mask], minlength=reps)
    kv = k[mask]
    return Hulls(
        x=px[mask].astype(float),
        y=py[mask].astype(float),
        indptr=np.concatenate(([0], np.cumsum(counts))),
        n_pos=layout.n_pos,
        n_neg=layout.n_neg,
        x0=layout.neg_at[kv].astype(float),
        y0=layout.pos_at[kv].astype(float),
    )


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


def _grid_hull_mask(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """:func:`_flat_hull_mask` for R paths of the same length, given as (R, m) arrays."""
    reps, m = x.shape
    rep = np.repeat(np.arange(reps), m)
    return _flat_hull_mask(x.ravel(), y.ravel(), rep, np.arange(reps) * m).reshape(reps, m)


def _fixed_vertices(layout: PathLayout, cp: np.ndarray, cn: np.ndarray) -> Hulls:
    """The replicates' costs of the sample's own hull vertices (thresholds fixed, D&H 2006 section 5.2).

    Not a hull of the replicate: the same ROC points (score thresholds) the sample's envelope selected,
    re-counted in each replicate. Evaluated with the sample's own switching points (:func:`_tiled_switches`).
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
        x0=np.tile(layout.neg_at[layout.hull].astype(float), reps),
        y0=np.tile(layout.pos_at[layout.hull].astype(float), reps),
    )


# --- reading costs off hulls: grid values and expected costs ----------------------------------------


def _switches(h: Hulls) -> np.ndarray:
    """PC(+) at which the envelope moves from vertex v to v + 1 of each replicate (D&H 2006, Eq. 3).

    ``pc = dF / (dF + dT)`` in rates; one value per hull edge, flat (edges of replicate r are
    ``indptr[r] - r .. indptr[r+1] - r - 1``).
    """
    same = np.ones(h.x.size - 1, dtype=bool)
    same[h.indptr[1:-1] - 1] = False
    df = np.diff(h.x)[same] / h.n_neg
    dt = np.diff(h.y)[same] / h.n_pos
    with np.errstate(invalid="ignore", divide="ignore"):
        pc = df / (df + dt)
    return np.nan_to_num(pc, nan=0.0)


def _vertex_intervals(h: Hulls, switches: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The PC(+) interval [lo, hi] on which each hull vertex is the optimal one (flat, per vertex)."""
    sw = _switches(h) if switches is None else switches
    reps = h.replicates
    per = np.diff(h.indptr)
    edges_per = per - 1
    edge_start = np.concatenate(([0], np.cumsum(edges_per)))
    lo = np.empty(h.x.size)
    hi = np.empty(h.x.size)
    first = h.indptr[:-1]
    last = h.indptr[1:] - 1
    is_first = np.zeros(h.x.size, dtype=bool)
    is_first[first] = True
    is_last = np.zeros(h.x.size, dtype=bool)
    is_last[last] = True
    lo[is_first] = 0.0
    hi[is_last] = 1.0
    # vertex j (not first) starts at the switch of the edge before it; (not last) ends at its own edge
    vert_rep = np.repeat(np.arange(reps), per)
    local = np.arange(h.x.size) - h.indptr[vert_rep]
    edge_of = edge_start[vert_rep] + local  # edge leaving vertex j
    lo[~is_first] = sw[edge_of[~is_first] - 1]
    hi[~is_last] = sw[edge_of[~is_last]]
    lo = np.clip(lo, 0.0, 1.0)
    hi = np.clip(np.maximum(hi, lo), 0.0, 1.0)
    return lo, hi


def optimal_vertices(h: Hulls, grid, switches: np.ndarray | None = None) -> np.ndarray:
    """Flat index of each replicate's optimal hull vertex at each grid PC(+): shape (R, m).

    At pc the envelope is the cost line of the hull vertex after all edges with switch < pc
    (D&H 2006, Eq. 2 and 3), found by one binary search for all replicates.
    """
    sw = _switches(h) if switches is None else switches
    reps = h.replicates
    edges_per = np.diff(h.indptr) - 1
    edge_start = np.concatenate(([0], np.cumsum(edges_per)))
    edge_rep = np.repeat(np.arange(reps), edges_per)
    # switches are non-decreasing within a replicate and lie in [0, 1]: offset replicate r by 2r
    keys = sw + 2.0 * edge_rep
    queries = grid[None, :] + 2.0 * np.arange(reps)[:, None]
    v = np.searchsorted(keys, queries, side="left") - edge_start[:reps, None]  # vertex number in replicate
    return h.indptr[:-1, None] + v


def _costs_at(h: Hulls, j: np.ndarray, grid: np.ndarray, in_sample: bool = False) -> np.ndarray:
    """Normalized expected cost of vertices ``j`` (R, m) at the grid PC(+), counted in the replicate
    or (``in_sample``) in the original sample."""
    x, y = (h.x0, h.y0) if in_sample else (h.x, h.y)
    fpr = x[j] / h.n_neg
    fnr = 1.0 - y[j] / h.n_pos
    return fnr * grid + fpr * (1.0 - grid)


def hulls_on_grid(h: Hulls, grid=GRID, switches: np.ndarray | None = None, in_sample: bool = False) -> np.ndarray:
    """Normalized expected cost of each replicate's envelope at each grid PC(+): shape (R, m), exact
    (:func:`optimal_vertices`)."""
    grid = np.asarray(grid, dtype=float)
    return _costs_at(h, optimal_vertices(h, grid, switches), grid, in_sample)


def hulls_expected(h: Hulls, prior: Prior, switches: np.ndarray | None = None, weights=None) -> np.ndarray:
    """Exact expected normalized cost of each replicate's envelope under ``prior``: shape (R,).

    On the interval where hull vertex v is optimal the envelope is its cost line
    ``fpr_v + (fnr_v - fpr_v) pc``, so E = sum_v fpr_v [F]_v + (fnr_v - fpr_v) [M]_v with F the CDF and
    M the partial first moment of the prior (D&H 2006 section 3.2; :mod:`ccreport.analysis.priors`).
    The per-vertex weights ([F]_v, [M]_v) depend only on the intervals, so ``weights`` from
    :func:`vertex_weights` can be shared by curves with the same switching points. Priors without a
    vectorised form are integrated by their own ``expected`` per replicate.
    """
    alpha = h.x / h.n_neg
    beta = (1.0 - h.y / h.n_pos) - alpha
    rep = h.replicate_ids()
    if weights is None:
        lo, hi = _vertex_intervals(h, switches)
        weights = vertex_weights(prior, lo, hi, rep)
    if weights is not None:
        return np.bincount(rep, weights=alpha * weights[0] + beta * weights[1], minlength=h.replicates)
    out = np.empty(h.replicates)
    for r in range(h.replicates):
        sl = slice(h.indptr[r], h.indptr[r + 1])
        pc, nec = _vertex_curve(lo[sl], hi[sl], alpha[sl], beta[sl])
        out[r] = prior.expected(pc, nec)
    return out


def vertex_weights(prior: Prior, lo, hi, rep, nodes: int | None = None):
    """Weights (wa, wb) with E[alpha_v + beta_v PC ; PC in [lo_v, hi_v]] = alpha_v wa_v + beta_v wb_v.

    Point prior: the first interval holding the point gets (1, pc). Priors with a CDF F and partial
    moment M: ([F], [M]). Induced priors: the closed-form inner expectation over the cost ratio and a
    Gauss-Legendre rule over p(+) (:func:`_induced_weights`). ``None`` for other priors.
    """
    if isinstance(prior, PointPrior):
        inside = np.flatnonzero((lo <= prior.pc) & (prior.pc <= hi))
        first = inside[np.flatnonzero(np.diff(rep[inside], prepend=-1))]
        wa = np.zeros(lo.size)
        wa[first] = 1.0
        return wa, wa * prior.pc
    if hasattr(prior, "partial_moment"):
        return prior.cdf(hi) - prior.cdf(lo), prior.partial_moment(hi) - prior.partial_moment(lo)
    if isinstance(prior, InducedPrior):
        return _induced_weights(prior, lo, hi, nodes or INDUCED_NODES)
    return None


INDUCED_NODES = 128  # Gauss-Legendre nodes over p(+) for induced priors with a random p(+)


@functools.lru_cache(maxsize=4)
def _gauss_legendre(n: int):
    return np.polynomial.legendre.leggauss(n)


def _induced_weights(prior, lo, hi, nodes: int):
    """Vertex weights under an induced prior (see :func:`vertex_weights`).

    The inner expectation over the cost ratio is closed form per vertex interval (as in
    :class:`ccreport.analysis.priors.InducedPrior`); the outer one over a random p(+) is a fixed
    ``nodes``-point (``INDUCED_NODES`` for the reported intervals) Gauss-Legendre rule in the
    probability scale u = F_p(p) instead of the
    adaptive quadrature the single-curve method uses. The integrand is C^1 in u (C^0 for a fixed
    cost ratio); the rule agrees with ``prior.expected`` to about 1e-6 or better (tested), far below
    the bootstrap's Monte Carlo error. Being one fixed linear functional of the curve, it keeps
    "expected cost of the average = average of the expected costs" exact.
    """
    if isinstance(prior.p_positive, Fixed):
        return interval_weights(prior.p_positive.value, prior.cost_ratio, lo, hi)
    nodes, weights = _gauss_legendre(nodes)
    ps = np.clip(prior._p_of_u((nodes + 1.0) / 2.0), 1e-300, 1.0 - 1e-16)
    logit_lo, logit_hi = _logit(lo), _logit(hi)
    wa, wb = np.zeros(lo.size), np.zeros(lo.size)
    for p, w in zip(ps, weights / 2.0):  # a loop over quadrature nodes, each vectorised over all curves
        a, b = interval_weights(float(p), prior.cost_ratio, lo, hi, logit_lo, logit_hi)
        wa += w * a
        wb += w * b
    return wa, wb


def curves_expected(curves, prior: Prior) -> np.ndarray:
    """Expected cost of several piecewise-linear curves ``[(pc, nec), ...]`` under ``prior``, vectorised
    (the same closed forms and induced-prior rule as :func:`hulls_expected`)."""
    lo = np.concatenate([np.asarray(pc, float)[:-1] for pc, _ in curves])
    hi = np.concatenate([np.asarray(pc, float)[1:] for pc, _ in curves])
    slope = np.concatenate([np.diff(np.asarray(nec, float)) / np.diff(np.asarray(pc, float)) for pc, nec in curves])
    alpha = np.concatenate([np.asarray(nec, float)[:-1] for _, nec in curves]) - slope * lo
    rep = np.repeat(np.arange(len(curves)), [len(pc) - 1 for pc, _ in curves])
    w = vertex_weights(prior, lo, hi, rep)
    if w is None:
        return np.array([prior.expected(pc, nec) for pc, nec in curves])
    return np.bincount(rep, weights=alpha * w[0] + slope * w[1], minlength=len(curves))


def _vertex_curve(lo, hi, alpha, beta):
    """Vertices (pc, nec) of the curve made of cost lines on intervals [lo, hi] (zero-width dropped)."""
    wide = hi > lo
    lo, hi, alpha, beta = lo[wide], hi[wide], alpha[wide], beta[wide]
    pc = np.append(lo, hi[-1])
    nec = np.append(alpha + beta * lo, alpha[-1] + beta[-1] * hi[-1])
    return pc, nec


# --- replicate sets --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Replicates:
    """Bootstrap replicates of one classifier's cost curve on a PC(+) grid, and expected costs.

    ``raw`` (R, m): each replicate's own lower envelope (thresholds re-selected on the replicate).
    ``values`` (R, m): the optimism-corrected replicates the bands are read from (Efron 1983's
    optimism bootstrap, applied to D&H 2006 section 5.2's point that an envelope selected on the data
    is an optimistic estimate of its own cost):

        c*_j = t_j + (C(v*_j) - t*_j),

    where t_j is the sample envelope at pc_j, t*_j the replicate's envelope, and C(v*_j) the cost *in
    the original sample* of the hull vertex (score threshold) the replicate selected at pc_j. In the
    bootstrap world the original sample plays the population, so ``C(v*) - t*`` is a draw of
    "true cost of the selected classifier minus its apparent cost"; its spread is the sampling noise
    and its mean the optimism. Percentiles of ``c*`` are intervals for the true cost of the
    classifier selected on the data (issue 4 target (a)).

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


def _sample_hull(layout: PathLayout) -> Hulls:
    x = layout.neg_at[layout.hull].astype(float)
    y = layout.pos_at[layout.hull].astype(float)
    return Hulls(x=x, y=y, indptr=np.array([0, x.size]), n_pos=layout.n_pos, n_neg=layout.n_neg, x0=x, y0=y)


def _curves(h: Hulls, grid, priors, switches=None, nodes: int | None = None):
    """Raw and in-sample (original counts, replicate's selection) grid values and expected costs
    (``nodes``: the Gauss-Legendre rule for induced priors, default ``INDUCED_NODES``)."""
    sw = _switches(h) if switches is None else switches
    orig = h.original()
    j = optimal_vertices(h, grid, sw)  # the replicate's selection, costed twice
    raw = _costs_at(h, j, grid)
    ins = _costs_at(h, j, grid, in_sample=True)
    raw_e, ins_e = {}, {}
    if priors:
        lo, hi = _vertex_intervals(h, sw)
        rep = h.replicate_ids()
        for p, prior in priors.items():
            w = vertex_weights(prior, lo, hi, rep, nodes)  # shared: same switching points
            raw_e[p] = hulls_expected(h, prior, sw, w)
            ins_e[p] = hulls_expected(orig, prior, sw, w)
    return raw, ins, raw_e, ins_e


def _collect(parts, priors, grid, estimate_hull, method, layout=None):
    raw = np.concatenate([p[0] for p in parts], axis=0)
    ins = np.concatenate([p[1] for p in parts], axis=0)
    est = hulls_on_grid(estimate_hull, grid)[0]
    est_e = {p: float(hulls_expected(estimate_hull, prior)[0]) for p, prior in priors.items()}
    raw_e = {p: np.concatenate([q[2][p] for q in parts]) for p in priors}
    ins_e = {p: np.concatenate([q[3][p] for q in parts]) for p in priors}
    return Replicates(
        grid=grid,
        values=est[None, :] + ins - raw,
        raw=raw,
        estimate=est,
        expected={p: est_e[p] + ins_e[p] - raw_e[p] for p in priors},
        raw_expected=raw_e,
        expected_estimate=est_e,
        method=method,
        layout=layout,
    )


def _tiled_switches(layout: PathLayout, reps: int) -> np.ndarray:
    return np.tile(_switches(_sample_hull(layout)), reps)


def bootstrap_scores(
    rng: np.random.Generator,
    labels,
    scores,
    replicates: int,
    priors: dict | None = None,
    grid=GRID,
    selection: str = "resample",
) -> Replicates:
    """Stratified instance bootstrap of a scoring classifier's lower envelope (D&H 2006 sections 4.6, 5.2).

    Each replicate draws n_pos positives and n_neg negatives with replacement (class counts fixed,
    as conditioning on the row marginals). ``selection="resample"`` recomputes the envelope (the
    hybrid's thresholds re-selected in each replicate); ``"fixed"`` keeps the sample's own selected
    thresholds (its hull vertices and switching points) and re-counts their costs.
    """
    priors = priors or {}
    grid = np.asarray(grid, dtype=float)
    layout = path_layout(labels, scores)
    parts = []
    for reps in chunk_sizes(replicates, layout.n_pos + layout.n_neg):
        cp = cumulative(multinomial_counts(rng, layout.n_pos, reps))
        cn = cumulative(multinomial_counts(rng, layout.n_neg, reps))
        parts.append(_chunk_curves(layout, cp, cn, grid, priors, selection))
    method = _method("stratified instance bootstrap", selection)
    return _collect(parts, priors, grid, _sample_hull(layout), method, layout)


def _method(base: str, selection: str) -> str:
    return base if selection == "resample" else f"{base}, thresholds fixed"


def _chunk_curves(layout, cp, cn, grid, priors, selection):
    if selection == "fixed":
        h = _fixed_vertices(layout, cp, cn)
        return _curves(h, grid, priors, _tiled_switches(layout, cp.shape[0]))
    if selection != "resample":
        raise ValueError(f"selection must be 'resample' or 'fixed', got {selection!r}")
    return _curves(_replicate_hulls(layout, cp, cn), grid, priors)


# --- crisp classifiers: binomials on the row marginals (section 4.6) ----------------------------------


def _crisp_hulls(tp, fp, n_pos: int, n_neg: int, tp0: float, fp0: float) -> Hulls:
    """Hulls (0, 0), (FP, TP), (N, P) of crisp replicates; a point on or under the diagonal is moved
    onto it at (N/2, P/2), where it never beats the trivial classifiers (its interval has width 0)."""
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


def bootstrap_crisp(
    rng: np.random.Generator, labels, predictions, replicates: int, priors: dict | None = None, grid=GRID
) -> Replicates:
    """Binomial resampling of a crisp classifier conditioned on the row marginals (D&H 2006 section 4.6).

    TP ~ Binomial(n_pos, tpr), FP ~ Binomial(n_neg, fpr). The curve of each replicate is its lower
    envelope with the trivial classifiers, min(cost line, PC(+), 1 - PC(+)), the same curve the report
    analyses; :func:`crisp_line_replicates` gives the bare cost lines of Fig. 16.
    """
    priors = priors or {}
    grid = np.asarray(grid, dtype=float)
    roc = crisp_roc(labels, predictions)
    n_pos, n_neg = roc.n_pos, roc.n_neg
    tp = rng.binomial(n_pos, roc.tp[1] / n_pos, size=replicates)
    fp = rng.binomial(n_neg, roc.fp[1] / n_neg, size=replicates)
    return _crisp_replicates(tp, fp, n_pos, n_neg, roc.tp[1], roc.fp[1], grid, priors, "binomial (row marginals)")


def _crisp_replicates(tp, fp, n_pos, n_neg, tp0, fp0, grid, priors, method) -> Replicates:
    """Replicates of a crisp classifier from its replicate counts (tp, fp) and its sample's (tp0, fp0)."""
    h = _crisp_hulls(tp, fp, n_pos, n_neg, tp0, fp0)
    est = _crisp_hulls([tp0], [fp0], n_pos, n_neg, tp0, fp0)
    return _collect([_curves(h, grid, priors)], priors, grid, est, method)


def crisp_line_replicates(rng: np.random.Generator, n_pos: int, n_neg: int, tp: int, fp: int, replicates: int, grid=GRID):
    """Replicate cost lines ``fnr pc + fpr (1 - pc)`` of a crisp classifier (D&H 2006 Fig. 16): (R, m)."""
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


# --- pairs: the same resampled instances for both (section 4.7) ---------------------------------------


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
    of each (a's label, b's label) cell are resampled with the class counts fixed), projected to each
    classifier's confusion matrix. Otherwise: one stratified instance bootstrap whose counts are used
    for both classifiers (a crisp one is a scoring one with two score values), so both curves of a
    replicate come from the same resampled instances.
    """
    priors = priors or {}
    grid = np.asarray(grid, dtype=float)
    y = np.asarray(labels, dtype=bool)
    if a_scores is None and b_scores is None:
        return _pair_crisp(rng, y, np.asarray(a_predictions, bool), np.asarray(b_predictions, bool), replicates, priors, grid)
    a = np.asarray(a_scores if a_scores is not None else np.asarray(a_predictions, dtype=float), dtype=float)
    b = np.asarray(b_scores if b_scores is not None else np.asarray(b_predictions, dtype=float), dtype=float)
    la, lb = path_layout(y, a), path_layout(y, b)
    out = {"a": [], "b": []}
    for reps in chunk_sizes(replicates, 2 * y.size):
        counts_pos = multinomial_counts(rng, la.n_pos, reps)
        counts_neg = multinomial_counts(rng, la.n_neg, reps)
        for key, lay in (("a", la), ("b", lb)):
            cp = cumulative(counts_pos[:, lay.pos_order])
            cn = cumulative(counts_neg[:, lay.neg_order])
            out[key].append(_chunk_curves(lay, cp, cn, grid, priors, "resample"))
    method = "paired stratified instance bootstrap (same resampled instances for both)"
    return tuple(_collect(out[k], priors, grid, _sample_hull(lay), method) for k, lay in (("a", la), ("b", lb)))


def _pair_crisp(rng, y, pa, pb, replicates, priors, grid):
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    results = []
    draws = {}
    for cls, n in ((True, n_pos), (False, n_neg)):
        mask = y == cls
        cells = np.array(
            [np.count_nonzero(mask & (pa == i) & (pb == j)) for i in (True, False) for j in (True, False)], dtype=float
        )
        draws[cls] = rng.multinomial(n, cells / n, size=replicates)  # columns: (1,1) (1,0) (0,1) (0,0)
    tp_a = draws[True][:, 0] + draws[True][:, 1]
    fp_a = draws[False][:, 0] + draws[False][:, 1]
    tp_b = draws[True][:, 0] + draws[True][:, 2]
    fp_b = draws[False][:, 0] + draws[False][:, 2]
    method = "paired multinomial (3-D confusion matrix)"
    for tp, fp, pred in ((tp_a, fp_a, pa), (tp_b, fp_b, pb)):
        tp0, fp0 = np.count_nonzero(pred & y), np.count_nonzero(pred & ~y)
        results.append(_crisp_replicates(tp, fp, n_pos, n_neg, tp0, fp0, grid, priors, method))
    return tuple(results)


# --- intervals and bands ------------------------------------------------------------------------------


def percentile_interval(samples, level: float, axis: int = 0):
    """Percentile bootstrap interval (Efron & Tibshirani 1993, ch. 13): the (1-level)/2 and
    (1+level)/2 quantiles of the replicates (D&H 2006 section 4.6: "the fifth lowest and fifth highest")."""
    a = (1.0 - level) / 2.0
    q = np.quantile(np.asarray(samples, dtype=float), [a, 1.0 - a], axis=axis)
    return q[0], q[1]


def basic_interval(samples, estimate, level: float, axis: int = 0):
    """Basic (reverse-percentile) bootstrap interval ``[2 t - q_hi, 2 t - q_lo]`` (Davison & Hinkley
    1997, eq. 5.6): it removes the bias the bootstrap sees, ``mean(t*) - t``, once."""
    lo, hi = percentile_interval(samples, level, axis)
    est = np.asarray(estimate, dtype=float)
    return 2.0 * est - hi, 2.0 * est - lo


def pointwise_band(values, level: float):
    """Pointwise percentile band of replicate curves (R, m) at each grid PC(+) (D&H 2006 section 4.6)."""
    return percentile_interval(values, level, axis=0)


SD_FLOOR = 0.1  # a simultaneous band studentizes by at least this fraction of its largest sd


def studentizing_sd(sd: np.ndarray) -> np.ndarray:
    """The scale a sup-norm band studentizes by: ``max(sd_j, SD_FLOOR max_j sd_j)``, and 0 where
    sd_j = 0 (every replicate agrees; such points are left out of the max and get width 0).

    Without the floor, grid points where nearly all replicates agree (a classifier with few distinct
    scores, or the ends of an operating range, where most replicates pick a trivial classifier) have
    a tiny but non-zero sd, and one replicate that disagrees there makes the studentized sup
    statistic, and so the band everywhere, arbitrarily wide.
    """
    sd = np.asarray(sd, dtype=float)
    live = sd > 1e-12
    if not np.any(live):
        return np.zeros_like(sd)
    return np.where(live, np.maximum(sd, SD_FLOOR * sd.max(axis=-1, keepdims=True)), 0.0)


def simultaneous_band(values, level: float, center=None, scale: float = 1.0):
    """Sup-norm (simultaneous) bootstrap band over the whole grid.

    Studentized: ``c`` is the ``level`` quantile over replicates of ``max_j |v*_j - mean*_j| / s_j``
    with ``s`` = :func:`studentizing_sd` of the replicates' sd (points with sd = 0 are left out of
    the max and get width 0), and the band is ``center_j +- scale c s_j``; ``center`` defaults to
    the replicates' mean ``mean*``; ``scale`` is a calibration factor
    (:mod:`ccreport.analysis.calibration`), 1 for the plain band.
    """
    v = np.asarray(values, dtype=float)
    mean = v.mean(axis=0)
    center_curve = mean if center is None else np.asarray(center, dtype=float)
    sd = studentizing_sd(v.std(axis=0, ddof=1) if v.shape[0] > 1 else np.zeros(v.shape[1]))
    live = sd > 0
    if not np.any(live):
        return center_curve.copy(), center_curve.copy()
    dev = np.abs(v[:, live] - mean[live]) / sd[live]
    c = scale * float(np.quantile(dev.max(axis=1), level))
    width = np.where(live, c * sd, 0.0)
    return center_curve - width, center_curve + width


def bootstrap_p_value(differences, estimate: float = 0.0, kind: str = "percentile") -> float:
    """Two-sided bootstrap p-value for "no difference", the inverse of the reported interval.

    ``percentile``: p = min(1, 2 min(#(d* <= 0) + 1, #(d* >= 0) + 1) / (R + 1)), the smallest
    1 - level at which the percentile interval excludes 0 (the +1 counts the observed value, as in
    Davison & Hinkley 1997 eq. 4.11, so p is never 0). ``basic``: the same with 0 replaced by
    ``2 estimate`` (the reflection of the basic interval).
    """
    d = np.asarray(differences, dtype=float)
    ref = 2.0 * estimate if kind == "basic" else 0.0
    below = np.count_nonzero(d <= ref) + 1
    above = np.count_nonzero(d >= ref) + 1
    return float(min(1.0, 2.0 * min(below, above) / (d.size + 1)))


def significant_intervals(grid, lower, upper, a_name: str, b_name: str) -> list[dict]:
    """PC(+) intervals where the band of ``a - b`` excludes 0, with the cheaper classifier named.

    Runs of grid points with ``lower > 0`` (b cheaper) or ``upper < 0`` (a cheaper); each run's ends
    are extended to where the band edge crosses 0, by linear interpolation between grid points.
    """
    grid = np.asarray(grid, dtype=float)
    out = []
    for edge, sign, name in ((np.asarray(upper, float), -1.0, a_name), (np.asarray(lower, float), 1.0, b_name)):
        val = sign * edge  # > 0 where significant
        mask = val > 0
        if not np.any(mask):
            continue
        flips = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
        for s, e in zip(np.flatnonzero(flips == 1), np.flatnonzero(flips == -1) - 1):
            lo = grid[s] if s == 0 else grid[s - 1] + (grid[s] - grid[s - 1]) * (-val[s - 1]) / (val[s] - val[s - 1])
            last = grid.size - 1
            hi = grid[e] if e == last else grid[e] + (grid[e + 1] - grid[e]) * val[e] / (val[e] - val[e + 1])
            out.append({"lo": float(lo), "hi": float(hi), "better": name})
    out.sort(key=lambda d: d["lo"])
    return out


# --- fold averaging (section 4.5) ----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class FoldAverage:
    """The vertical average in cost space of the folds' lower envelopes (D&H 2006 section 4.5).

    ``pc``: the union of the folds' envelope vertices and the band grid, so ``nec`` (the mean) is
    exact and linear between points; ``lower``/``upper``: pointwise min/max across folds at ``pc``;
    ``expected``: prior -> expected cost of the mean curve (= the mean of the folds' expected costs);
    ``fold_expected``: prior -> each fold's expected cost; ``folds``: names of the folds used.
    """

    pc: np.ndarray
    nec: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    expected: dict
    fold_expected: dict
    folds: tuple
    skipped: tuple


def fold_average(labels, folds, fold_names, scores=None, predictions=None, priors: dict | None = None, grid=GRID) -> FoldAverage:
    """Average a classifier's cost curves over folds, vertically in cost space (D&H 2006 section 4.5).

    Each fold's curve is the lower envelope of its ROC points on that fold's instances (for a crisp
    classifier: its cost line and the trivial classifiers). Folds lacking a class are skipped.
    """
    priors = priors or {}
    y = np.asarray(labels, dtype=bool)
    f = np.asarray(folds)
    curves, used, skipped = [], [], []
    for code, name in enumerate(fold_names):
        m = f == code
        yy = y[m]
        if yy.size == 0 or yy.all() or not yy.any():
            skipped.append(name)
            continue
        roc = roc_points(yy, np.asarray(scores)[m]) if scores is not None else crisp_roc(yy, np.asarray(predictions)[m])
        env = lower_envelope(roc)
        curves.append((env.pc, env.nec))
        used.append(name)
    if not curves:
        raise ValueError("no fold has both classes")
    pc = np.union1d(np.asarray(grid, dtype=float), np.concatenate([c[0] for c in curves]))
    stack = np.vstack([np.interp(pc, c[0], c[1]) for c in curves])
    nec = stack.mean(axis=0)
    fold_expected = {p: curves_expected(curves, prior).tolist() for p, prior in priors.items()}
    return FoldAverage(
        pc=pc,
        nec=nec,
        lower=stack.min(axis=0),
        upper=stack.max(axis=0),
        expected={p: float(curves_expected([(pc, nec)], prior)[0]) for p, prior in priors.items()},
        fold_expected=fold_expected,
        folds=tuple(used),
        skipped=tuple(skipped),
    )
