"""Reading costs off many ROC hulls at once: the vectorised twin of
:mod:`ccreport.analysis.envelope`.

Drummond & Holte 2006, sections 2-3.2. A hull vertex (FP, TP) is the cost line
``nec(pc) = fnr pc + fpr (1 - pc)`` (Eq. 2); a hull's lower envelope follows vertex v between the
switching points of its two edges, ``pc = dF / (dF + dT)`` in rates (Eq. 3). :mod:`envelope` builds
one envelope's vertices; here the same facts are read, exactly, for every replicate of a
:class:`~ccreport.analysis.hulls.Hulls` at once:

* on a PC(+) grid, each replicate's optimal vertex by one binary search over all switching points
  (:func:`optimal_vertices`), and its cost there (:func:`hulls_on_grid`);
* the expected cost under a prior as the closed form ``sum_v alpha_v [F]_v + beta_v [M]_v`` over the
  vertices' cost lines on the intervals where each is optimal (:func:`hulls_expected`, section 3.2),
  with the per-interval weights from the prior itself
  (:meth:`ccreport.analysis.priors.Prior.vertex_weights`);
* both costs of a replicate's selection at once, counted in the replicate and in the original sample
  (:func:`hull_curves`), which the optimism-corrected bootstrap needs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .hulls import Hulls
from .priors import EndPoints, Prior

GRID = np.linspace(0.0, 1.0, 101)  # PC(+) grid of the bands (0.3, 0.5, 0.7 are on it)


def switches(h: Hulls) -> np.ndarray:
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


def vertex_intervals(
    h: Hulls, switch_pc: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The PC(+) interval [lo, hi] on which each hull vertex is the optimal one (flat, per vertex).

    ``switch_pc``: :func:`switches` of ``h`` when already known. The intervals of one replicate tile
    [0, 1] in vertex order (some may have zero width).
    """
    sw = switches(h) if switch_pc is None else switch_pc
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
    # vertex j (not first) starts at the switch of the edge before it; (not last) ends at its own
    # edge
    vert_rep = np.repeat(np.arange(reps), per)
    local = np.arange(h.x.size) - h.indptr[vert_rep]
    edge_of = edge_start[vert_rep] + local  # edge leaving vertex j
    lo[~is_first] = sw[edge_of[~is_first] - 1]
    hi[~is_last] = sw[edge_of[~is_last]]
    lo = np.clip(lo, 0.0, 1.0)
    hi = np.clip(np.maximum(hi, lo), 0.0, 1.0)
    return lo, hi


def vertex_end_points(h: Hulls, lo: np.ndarray) -> EndPoints:
    """:func:`~ccreport.analysis.priors.end_points` of :func:`vertex_intervals` ``(lo, hi)``, from
    ``lo`` alone: a vertex's ``hi`` is the larger of its own ``lo`` and the next vertex's (the
    switch between them, kept from falling below ``lo``) and a replicate's last ``hi`` is 1, so the
    distinct end points are those of ``lo`` and 1, and ``hi``'s positions follow from ``lo``'s. The
    same arrays, with one sort of half the values."""
    x, at_lo = np.unique(np.append(lo, 1.0), return_inverse=True)
    at_lo = at_lo[:-1]
    at_hi = np.empty_like(at_lo)
    at_hi[:-1] = np.maximum(at_lo[1:], at_lo[:-1])
    at_hi[h.indptr[1:] - 1] = x.size - 1
    return EndPoints(x=x, lo=at_lo, hi=at_hi)


def optimal_vertices(h: Hulls, grid, switch_pc: np.ndarray | None = None) -> np.ndarray:
    """Flat index of each replicate's optimal hull vertex at each grid PC(+): shape (R, m).

    At pc the envelope is the cost line of the hull vertex after all edges with switch < pc
    (D&H 2006, Eq. 2 and 3), found by one binary search for all replicates (replicate r's switches
    and grid offset by 2 (row0 + r), ``row0`` = :attr:`~ccreport.analysis.hulls.Hulls.row0`, so a
    slice of a chunk rounds as the whole chunk does). Counted from the edges' side when the offset
    switches are in order (as they are unless rounding reorders collinear edges): the same
    integers, E searches instead of R m.
    """
    sw = switches(h) if switch_pc is None else switch_pc
    reps = h.replicates
    grid = np.asarray(grid, dtype=float)
    edges_per = np.diff(h.indptr) - 1
    edge_rep = np.repeat(np.arange(reps), edges_per)
    # switches are non-decreasing within a replicate and lie in [0, 1]: offset replicate r by 2r
    keys = sw + 2.0 * (edge_rep + h.row0)  # row0: a slice offsets as its whole chunk (Hulls)
    queries = grid[None, :] + 2.0 * (np.arange(reps) + h.row0)[:, None]
    if (
        keys.size
        and grid.size
        and np.all(keys[1:] >= keys[:-1])
        and np.all(grid[1:] >= grid[:-1])
        and 0.0 <= grid[0]
        and grid[-1] <= 1.0
    ):
        # the same counts from the edges' side (E edges instead of R m queries): edge e of replicate
        # r is passed at grid point j iff keys_e < queries_rj, i.e. from j = J_e on, J_e the number
        # of r's queries <= keys_e (the queries, flat, are sorted: row r lies in [2r, 2r + 1])
        m = grid.size
        passed_from = np.searchsorted(queries.ravel(), keys, side="right") - edge_rep * m
        passed = np.bincount(edge_rep * (m + 1) + passed_from, minlength=reps * (m + 1)).reshape(
            reps, m + 1
        )
        v = np.cumsum(passed[:, :m], axis=1)  # vertex number in replicate
    else:  # switches out of order by rounding, or an unsorted grid: one binary search per query
        edge_start = np.concatenate(([0], np.cumsum(edges_per)))
        v = np.searchsorted(keys, queries, side="left") - edge_start[:reps, None]
    return h.indptr[:-1, None] + v


def costs_at(h: Hulls, j: np.ndarray, grid: np.ndarray, in_sample: bool = False) -> np.ndarray:
    """Normalized expected cost of vertices ``j`` (R, m) at the grid PC(+), counted in the replicate
    or (``in_sample``) in the original sample (``h.x0, h.y0``)."""
    x, y = (h.x0, h.y0) if in_sample else (h.x, h.y)
    fpr = (x / h.n_neg)[j]  # rates once per vertex, then read at the selections: the same values
    fnr = (1.0 - y / h.n_pos)[j]
    return fnr * grid + fpr * (1.0 - grid)


def hulls_on_grid(
    h: Hulls, grid=GRID, switch_pc: np.ndarray | None = None, in_sample: bool = False
) -> np.ndarray:
    """Normalized expected cost of each replicate's envelope at each grid PC(+): shape (R, m), exact
    (:func:`optimal_vertices`)."""
    grid = np.asarray(grid, dtype=float)
    return costs_at(h, optimal_vertices(h, grid, switch_pc), grid, in_sample)


def hulls_expected(
    h: Hulls, prior: Prior, switch_pc: np.ndarray | None = None, weights=None
) -> np.ndarray:
    """Exact expected normalized cost of each replicate's envelope under ``prior``: shape (R,).

    On the interval where hull vertex v is optimal the envelope is its cost line
    ``fpr_v + (fnr_v - fpr_v) pc``, so E = sum_v fpr_v [F]_v + (fnr_v - fpr_v) [M]_v with F the CDF
    and M the partial first moment of the prior (D&H 2006 section 3.2;
    :mod:`ccreport.analysis.priors`). The per-vertex weights ([F]_v, [M]_v) depend only on the
    intervals, so ``weights`` from :meth:`~ccreport.analysis.priors.Prior.vertex_weights` can be
    shared by curves with the same switching points.
    """
    alpha = h.x / h.n_neg
    beta = (1.0 - h.y / h.n_pos) - alpha
    rep = h.replicate_ids()
    if weights is None:
        lo, hi = vertex_intervals(h, switch_pc)
        weights = prior.vertex_weights(lo, hi, rep)
    return np.bincount(rep, weights=alpha * weights[0] + beta * weights[1], minlength=h.replicates)


def curves_expected(curves, prior: Prior) -> np.ndarray:
    """Expected cost of several piecewise-linear curves ``[(pc, nec), ...]`` under ``prior``,
    vectorised (the same closed forms and induced-prior rule as :func:`hulls_expected`): the curves'
    points are laid end to end and every segment read at once (a curve's last point starts no
    segment)."""
    pc = (
        np.concatenate([np.asarray(c, dtype=float).ravel() for c, _ in curves])
        if curves
        else np.zeros(0)
    )
    nec = (
        np.concatenate([np.asarray(v, dtype=float).ravel() for _, v in curves])
        if curves
        else np.zeros(0)
    )
    points = np.array([np.size(c) for c, _ in curves], dtype=np.int64)
    starts = np.ones(pc.size, dtype=bool)
    starts[(np.cumsum(points) - 1)[points > 0]] = False
    first = np.flatnonzero(starts)
    lo, hi = pc[first], pc[first + 1]
    slope = (nec[first + 1] - nec[first]) / (hi - lo)
    alpha = nec[first] - slope * lo
    rep = np.repeat(np.arange(len(curves)), np.maximum(points - 1, 0))
    w = prior.vertex_weights(lo, hi, rep)
    return np.bincount(rep, weights=alpha * w[0] + slope * w[1], minlength=len(curves))


def vertex_curve(lo, hi, alpha, beta):
    """Vertices (pc, nec) of the curve made of cost lines ``alpha + beta pc`` on intervals [lo, hi]
    (one replicate's :func:`vertex_intervals`; zero-width intervals dropped): the envelope as
    :mod:`ccreport.analysis.envelope` would give it, for checking against ``Prior.expected``."""
    wide = hi > lo
    lo, hi, alpha, beta = lo[wide], hi[wide], alpha[wide], beta[wide]
    pc = np.append(lo, hi[-1])
    nec = np.append(alpha + beta * lo, alpha[-1] + beta[-1] * hi[-1])
    return pc, nec


class HullCurves(NamedTuple):
    """A replicate's selection costed twice (:func:`hull_curves`): grid values (R, m) and, per prior
    name, expected costs (R,), counted in the replicate (``raw``) and in the original sample."""

    raw: np.ndarray
    in_sample: np.ndarray
    raw_expected: dict
    in_sample_expected: dict
    raw_expected_sd: dict | None = None
    raw_sd: np.ndarray | None = None
    sample_sd: np.ndarray | None = (
        None  # the replicate's sd of the sample's selection (bootstrap.trivial_swap)
    )


def costs_sd_at(h: Hulls, j: np.ndarray, grid: np.ndarray, plus: int = 0) -> np.ndarray:
    """Binomial standard deviation of the cost of vertices ``j`` (R, m) at the grid PC(+), from the
    replicate's own rates: ``sqrt(pc^2 fnr (1 - fnr) / n_pos + (1 - pc)^2 fpr (1 - fpr) / n_neg)``
    (D&H 2006 Eq. 8, with PC(+) in place of p(+)); 0 for the trivial classifiers."""
    fpr = (h.x / h.n_neg)[j]
    fnr = (1.0 - h.y / h.n_pos)[j]
    return line_sd(fnr, fpr, h.n_pos, h.n_neg, grid, plus)


def unseen_sd_at(h: Hulls, j: np.ndarray, grid: np.ndarray, plus: int = 2) -> np.ndarray:
    """The part of :func:`costs_sd_at` (Agresti-Coull rates, ``plus``) that resampling cannot see:
    at each grid PC(+), the Eq. 8 variance of only those rates of vertex ``j`` whose count is 0 or
    all of its class (no negative above the threshold, or no positive below it). A bootstrap
    resample of such a count is that count again, so the resampling gives that rate no variance
    however far its true value lies from 0 or 1; every other rate varies in the resampling, and its
    term is 0 here. Shape (R, m); 0 wherever no weighted rate is degenerate, and for the trivial
    classifiers (their cost is known exactly)."""
    grid = np.asarray(grid, dtype=float)
    fp, tp = h.x[j], h.y[j]
    trivial = ((fp == 0) & (tp == 0)) | ((fp == h.n_neg) & (tp == h.n_pos))
    fnr_deg = ((tp == 0) | (tp == h.n_pos)) & ~trivial
    fpr_deg = ((fp == 0) | (fp == h.n_neg)) & ~trivial
    n_pos, n_neg = h.n_pos + 2 * plus, h.n_neg + 2 * plus
    fnr = (h.n_pos - tp + plus) / n_pos
    fpr = (fp + plus) / n_neg
    var = np.where(fnr_deg, grid**2 * fnr * (1.0 - fnr) / n_pos, 0.0) + np.where(
        fpr_deg, (1.0 - grid) ** 2 * fpr * (1.0 - fpr) / n_neg, 0.0
    )
    return np.sqrt(var)


def line_sd(fnr, fpr, n_pos: int, n_neg: int, grid, plus: int = 0) -> np.ndarray:
    """D&H 2006 Eq. 8: the sd of a cost line ``fnr pc + fpr (1 - pc)`` whose rates are binomial
    proportions of n_pos positives and n_neg negatives, at each PC(+) of ``grid`` (broadcast).

    ``plus`` = 2: each rate as Agresti & Coull's (1998) "add two successes and two failures",
    ``(count + 2) / (n + 4)`` over n + 4 draws, so a rate counted 0 or n times (no negative above
    the threshold) still has the variance a binomial that small has, instead of none."""
    grid = np.asarray(grid, dtype=float)
    if plus:
        fnr = (np.asarray(fnr, dtype=float) * n_pos + plus) / (n_pos + 2 * plus)
        fpr = (np.asarray(fpr, dtype=float) * n_neg + plus) / (n_neg + 2 * plus)
        n_pos, n_neg = n_pos + 2 * plus, n_neg + 2 * plus
    var = grid**2 * (fnr * (1.0 - fnr) / n_pos) + (1.0 - grid) ** 2 * (fpr * (1.0 - fpr) / n_neg)
    return np.sqrt(np.maximum(var, 0.0))


def hull_curves(
    h: Hulls, grid, priors: dict, switch_pc=None, nodes: int | None = None, sd: bool = False
) -> HullCurves:
    """Raw and in-sample (original counts ``x0, y0``, replicate's selection) grid values and
    expected costs of every replicate of ``h``. ``switch_pc``: the switching points to select with
    (default the hulls' own; the sample's for fixed thresholds); ``nodes``: the quadrature rule of
    priors that need one (:meth:`~ccreport.analysis.priors.Prior.vertex_weights`). ``sd``: also each
    selection's own standard deviations, on the grid (:func:`costs_sd_at`) and of the expected costs
    (:func:`expected_sd`), for studentized intervals."""
    sw = switches(h) if switch_pc is None else switch_pc
    orig = h.original()
    j = optimal_vertices(h, grid, sw)  # the replicate's selection, costed twice
    raw = costs_at(h, j, grid)
    ins = costs_at(h, j, grid, in_sample=True)
    raw_e, ins_e, raw_sd = {}, {}, ({} if sd else None)
    if priors:
        lo, hi = vertex_intervals(h, sw)
        rep = h.replicate_ids()
        ends = vertex_end_points(h, lo)  # sorted once for every prior
        for p, prior in priors.items():
            w = prior.vertex_weights(lo, hi, rep, nodes, ends)  # shared: same switching points
            raw_e[p] = hulls_expected(h, prior, sw, w)
            ins_e[p] = hulls_expected(orig, prior, sw, w)
            if sd:
                raw_sd[p] = expected_sd(h, w)
    return HullCurves(raw, ins, raw_e, ins_e, raw_sd, costs_sd_at(h, j, grid) if sd else None)


def expected_sd(h: Hulls, weights) -> np.ndarray:
    """Plug-in standard deviation of each replicate's expected cost with its selection held fixed:
    (R,).

    With the vertices' weights ``(W0, W1)`` (:meth:`~ccreport.analysis.priors.Prior.vertex_weights`)
    the expected cost is ``E = sum_v fpr_v (W0_v - W1_v) + fnr_v W1_v`` (:func:`hulls_expected`), a
    sum over instances: a negative between hull vertices k - 1 and k (in FP order) is counted in the
    FP of every vertex v >= k, so it adds ``S_k / n_neg`` with ``S_k = sum_{v >= k} (W0_v - W1_v)``;
    a positive between vertices k - 1 and k subtracts ``T_k / n_pos`` with
    ``T_k = sum_{v >= k} W1_v``. Within each class the instances are drawn independently (the
    stratified bootstrap, D&H 2006 section 4.6), so
    ``Var E = Var_neg(S) / n_neg + Var_pos(T) / n_pos``, the variances taken over the class's
    instances as counted in the replicate (its fractions ``dx_k / n_neg``, ``dy_k / n_pos``): the
    delta-method (infinitesimal jackknife) variance of a selection-fixed expected cost, the
    expected-cost form of D&H 2006 Eq. 8.
    """
    wa, wb = (np.asarray(w, dtype=float) for w in weights)
    rep = h.replicate_ids()
    reps = h.replicates
    first = h.indptr[:-1]
    out = np.zeros(reps)
    for vals, counts, size in ((wa - wb, h.x, h.n_neg), (wb, h.y, h.n_pos)):
        csum = np.cumsum(vals)
        total = csum[h.indptr[1:] - 1]  # per replicate
        suffix = total[rep] - csum + vals  # sum over v >= this vertex, within the replicate
        d = np.diff(counts, prepend=0.0)
        d[first] = counts[first]  # a replicate's first vertex counts from 0
        frac = d / size
        mean = np.bincount(rep, weights=frac * suffix, minlength=reps)
        second = np.bincount(rep, weights=frac * suffix * suffix, minlength=reps)
        out += np.maximum(second - mean * mean, 0.0) / size
    return np.sqrt(out)
