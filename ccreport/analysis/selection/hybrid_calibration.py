"""Calibration of the dataset hybrid's band and expected-cost intervals: a fast double bootstrap.

Why
---
The hybrid's replicates are optimism-corrected as a single classifier's (``c* = T + C(v*) - H*``,
:mod:`.hybrid_bands`), and they share its defect (:mod:`ccreport.analysis.calibration`): the
bootstrap sees the optimism of choosing the cheapest threshold, here among the thresholds of k
classifiers, as smaller than it is (an argmin of an empirical process, Kim & Pollard 1990), so the
true cost of what the sample hybrid selected escapes *above* the band. Measured before this
calibration (``benchmarks/interval_matrix.py``, cell "hybrid", 300 data sets): 11-14% above at
PC(+) = 0.9 and 14-16% above the expected-cost interval, at nominal 5%.

How
---
A single classifier's band is calibrated by Beran (1987) prepivoting with 200 outer x 50 inner
replicates; the hybrid would need that for every member on shared rows (k times the cost). The
hybrid is calibrated instead by the *fast double bootstrap* (Davidson & MacKinnon 2007; for
interval levels, Chang & Hall 2015, "Double-bootstrap methods that use a single double-bootstrap
simulation", Biometrika 102): ``draws`` outer resamples of the dataset's instances, each with *one*
inner resample of its own rows, every classifier read on the same rows (D&H 2006 section 5.2).

* Outer replicate b is the bootstrap world's data set. Its hybrid ``H*_b`` is the pointwise minimum
  of the members' replicate envelopes; the truth in that world is ``C(v*_b)``, the sample cost of
  the classifier and threshold b selected, so b's optimism is ``D*_b = C(v*_b) - H*_b``.
* Its inner replicate estimates that optimism as the first level estimates the data's:
  ``D**_b = C_b(v**_b) - H**_b``, the inner hybrid's selection costed in b's counts.

If the law of ``D**`` hardly depends on b (the assumption of the fast double bootstrap), the share
of ``D**`` below the upper quantile of ``D*`` is the level at which the first level must be read to
reach the quantile the world needs: the calibrated upper level is

    q' = max(q, G(Q_{D*}(q))),   G(x) = #(D** < x) / #D**,   q = (1 + level) / 2,

pooled over grid points within ``WINDOW`` of each PC(+) (as the single-classifier calibration, so a
5% tail is read from many replicates), and the same with each prior's expected optimism for its
expected-cost interval. Like the single-classifier calibration it only widens (``max(q, ...)``):
where the world looks over-covered it is because most replicates select a trivial classifier and
tie.
Only the upper edge moves: the defect is one-sided. Cost: ``2 x draws`` resamples of every
classifier's hull (a tenth of a member's 200 x 50 inner hulls at the defaults).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..calibration import WINDOW, Calibration, resample_counts, studentized_ratios
from ..hull_costs import GRID, curves_expected, hull_curves
from ..hulls import Hulls, crisp_hulls, replicate_hulls, row_blocks
from ..path_layout import chunk_sizes, cumulative, multinomial_counts, path_layout

DRAWS = 1000  # outer resamples, one inner resample each
METHOD = (
    "upper levels calibrated by a fast double bootstrap (Davidson & MacKinnon 2007; Chang & Hall "
    "2015): one inner resample per outer resample, every classifier on the same rows"
)


def _recount(h: Hulls, cp_outer, cn_outer) -> Hulls:
    """Inner hulls (one per outer row, in order) whose ``x0, y0`` are the selected thresholds'
    counts in their outer replicate: ``x0, y0`` of ``h`` are sample class ranks, columns of the
    outer cumulative counts."""
    rep = h.replicate_ids()
    return replace(
        h,
        x0=cn_outer[rep, h.x0.astype(np.int64)].astype(float),
        y0=cp_outer[rep, h.y0.astype(np.int64)].astype(float),
    )


def _crisp_pair(labels_pos, labels_neg, outer, inner, n_pos, n_neg, row0: int = 0):
    """A crisp classifier's outer hulls (``x0, y0`` its sample counts) and inner hulls (``x0, y0``
    its outer replicate's counts): (FP, TP) = the resampled counts of the instances it labels
    positive. ``row0``: the first row's index in its drawn chunk (:attr:`Hulls.row0`)."""
    (op, on), (ip, inn) = outer, inner
    tp0, fp0 = int(labels_pos.sum()), int(labels_neg.sum())
    tp_o, fp_o = op @ labels_pos, on @ labels_neg
    h_outer = replace(crisp_hulls(tp_o, fp_o, n_pos, n_neg, tp0, fp0), row0=row0)
    h = crisp_hulls(ip @ labels_pos, inn @ labels_neg, n_pos, n_neg, tp0, fp0)
    zeros = np.zeros(tp_o.size)
    x0 = np.column_stack((zeros, fp_o.astype(float), np.full(tp_o.size, float(n_neg)))).ravel()
    y0 = np.column_stack((zeros, tp_o.astype(float), np.full(tp_o.size, float(n_pos)))).ravel()
    inner_h = replace(h, x0=x0, y0=y0, row0=row0)
    return h_outer, inner_h


def hybrid_world(
    rng: np.random.Generator,
    labels,
    scores: dict | None,
    predictions: dict | None,
    names,
    grid=GRID,
    draws: int = DRAWS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The hybrid's optimism in the bootstrap world: ``(D*, s*, D**, s**)``, each (draws, m) on
    ``grid``, with the binomial sd of what the hybrid selected (D&H 2006 Eq. 8, own rates).

    ``D*_b = C(v*_b) - H*_b`` of outer resample b of the dataset and ``D**_b = C_b(v**_b) -
    H**_b`` of its one inner resample (module docstring); the hybrid is the pointwise minimum over
    ``names`` (the first on ties, as :func:`.hybrid_bands.hybrid_replicates_sd`).
    ``scores``/``predictions``: name -> array over the instances, as
    :func:`~ccreport.analysis.paired_bootstrap.bootstrap_dataset`.
    """
    scores, predictions = dict(scores or {}), dict(predictions or {})
    y = np.asarray(labels, dtype=bool)
    n_pos = int(y.sum())
    n_neg = y.size - n_pos
    layouts = {k: path_layout(y, s) for k, s in scores.items()}
    crisp = {
        k: (np.asarray(p, bool)[y].astype(np.int64), np.asarray(p, bool)[~y].astype(np.int64))
        for k, p in predictions.items()
    }
    outer_parts, inner_parts = [], []
    for g in chunk_sizes(draws, 2 * y.size):
        op_g, on_g = multinomial_counts(rng, n_pos, g), multinomial_counts(rng, n_neg, g)
        ip_g, inn_g = resample_counts(rng, op_g, 1), resample_counts(rng, on_g, 1)
        # the drawn chunk in cache-sized slices of rows: each replicate's numbers are its own
        for rows in row_blocks(g, y.size + 1):
            op, on, ip, inn = op_g[rows], on_g[rows], ip_g[rows], inn_g[rows]
            raw_o, raw_i = [], []
            for name in names:
                if name in layouts:
                    lay = layouts[name]
                    cp_o = cumulative(op[:, lay.pos_order])
                    cn_o = cumulative(on[:, lay.neg_order])
                    h_outer = replicate_hulls(lay, cp_o, cn_o, row0=rows.start)
                    h_inner = _recount(
                        replicate_hulls(
                            lay,
                            cumulative(ip[:, lay.pos_order]),
                            cumulative(inn[:, lay.neg_order]),
                            row0=rows.start,
                        ),
                        cp_o,
                        cn_o,
                    )
                else:
                    h_outer, h_inner = _crisp_pair(
                        *crisp[name], (op, on), (ip, inn), n_pos, n_neg, rows.start
                    )
                o = hull_curves(h_outer, grid, {}, sd=True)
                i = hull_curves(h_inner, grid, {}, sd=True)
                raw_o.append((o.raw, o.in_sample, o.raw_sd))
                raw_i.append((i.raw, i.in_sample, i.raw_sd))
            outer_parts.append(_hybrid_optimism(raw_o))
            inner_parts.append(_hybrid_optimism(raw_i))
    return tuple(np.concatenate([p[j] for p in outer_parts]) for j in (0, 1)) + tuple(
        np.concatenate([p[j] for p in inner_parts]) for j in (0, 1)
    )


def _hybrid_optimism(members) -> tuple[np.ndarray, np.ndarray]:
    """The hybrid's optimism (R, m) and the sd of what it selected (R, m), from its members' (own
    envelope, cost of the selection one level up, sd of the selection): the member with the least
    own cost is selected."""
    raw, ins, sd = (np.stack(a) for a in zip(*members))
    take = np.argmin(raw, axis=0)[None]
    ins, raw, sd = (np.take_along_axis(a, take, 0)[0] for a in (ins, raw, sd))
    return ins - raw, sd


def fdb_levels(first, second, grid, q: float, window: float = WINDOW) -> np.ndarray:
    """``max(q, G(Q_first(q)))`` at each grid point (module docstring): ``first`` (B, m) and
    ``second`` (B', m) the two levels' optimism, both pooled over grid points within ``window``; the
    quantile interpolated as numpy's default, G the share of ``second`` strictly below it."""
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    near = np.abs(grid[:, None] - grid[None, :]) <= window + 1e-12  # (m, m)
    out = np.empty(grid.size)
    for j in range(grid.size):  # a loop over the grid's 101 points, each vectorised over replicates
        x = float(np.quantile(first[:, near[j]], q))
        pool = second[:, near[j]]
        tol = 1e-12 * max(1.0, abs(x))
        out[j] = np.count_nonzero(pool < x - tol) / pool.size
    return np.maximum(q, out)


def fdb_level(first, second, q: float) -> float:
    """:func:`fdb_levels` of one statistic (first (B,), second (B',))."""
    x = float(np.quantile(np.asarray(first, dtype=float), q))
    tol = 1e-12 * max(1.0, abs(x))
    return max(q, float(np.count_nonzero(np.asarray(second) < x - tol)) / np.asarray(second).size)


def calibrate_hybrid(
    rng: np.random.Generator,
    labels,
    scores: dict | None,
    predictions: dict | None,
    names,
    level: float,
    priors: dict | None = None,
    grid=GRID,
    draws: int = DRAWS,
    window: float = WINDOW,
) -> Calibration:
    """The dataset hybrid's :class:`~ccreport.analysis.calibration.Calibration` (module docstring):
    ``upper`` (m,) the band's upper level, ``expected_upper`` per prior its expected-cost
    interval's; ``outer`` = ``draws``, ``inner`` = 1."""
    grid = np.asarray(grid, dtype=float)
    first, s1, second, s2 = hybrid_world(rng, labels, scores, predictions, list(names), grid, draws)
    q = (1.0 + level) / 2.0
    expected_upper = {}
    for p, prior in (priors or {}).items():
        e1 = curves_expected([(grid, v) for v in first], prior)
        e2 = curves_expected([(grid, v) for v in second], prior)
        expected_upper[p] = fdb_level(e1, e2, q)
    return Calibration(
        level=level,
        upper=fdb_levels(
            studentized_ratios(first, 0.0, s1), studentized_ratios(second, 0.0, s2), grid, q, window
        ),
        expected_upper=expected_upper,
        outer=draws,
        inner=1,
        window=window,
    )
