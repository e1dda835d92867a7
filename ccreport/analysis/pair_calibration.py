"""Double-bootstrap calibration of the family-wise critical value of every pair of a dataset.

:func:`ccreport.analysis.significance.family_wise` reads its critical value ``c`` off the bootstrap
law of ``max_j |d*_j - d_j| / s_j``. If the bootstrap spread of the envelope difference is a little
off (it is an argmin-value statistic, whose bootstrap is only first-order right; benchmarks/README.md),
the chance of a false claim is off with it. Beran (1987) prepivoting measures the error in the
bootstrap world and corrects it, as :mod:`ccreport.analysis.calibration` does for one classifier:

* the sample is the population, so the truth is the sample's own envelope difference ``d``
  (the population's optimal curves are the sample envelopes);
* outer replicate b plays the data: its envelope difference ``d_b``; inner replicates drawn from b
  give ``d**_bk``, their sd ``s_b`` (:func:`~ccreport.analysis.bands.studentizing_sd`) and critical
  value ``c_b`` = the ``level`` quantile of ``max_j |d**_bk - d_b| / s_b``;
* b makes a false claim when ``T_b = max_j |d_b - d| / s_b`` exceeds ``scale c_b``; the calibrated
  ``scale`` is the ``level`` quantile of ``T_b / c_b`` over outer replicates, so that in the
  bootstrap world the chance of any false claim is 1 - level. It may be below 1 (the plain test was
  conservative there) or above it.

The expensive part, the hulls of ``outer x inner`` replicates, is per *classifier*: every pair of
the dataset reads the same outer and inner replicates (one resampling per dataset, issue 9), and a
pair only adds array differences on the grid, O(outer x inner x grid). Memory: the inner envelopes
are computed for ``SUB`` outer replicates at a time (the random draws do not depend on it).
"""

from __future__ import annotations

import numpy as np

from .bands import studentizing_sd
from .bootstrap import chunk_sizes, cumulative, multinomial_counts, path_layout
from .calibration import INNER, OUTER, resample_counts
from .hull_costs import GRID, hulls_on_grid
from .hulls import replicate_hulls
from .significance import sup_statistics

SUB = 16  # outer replicates whose inner envelopes are held at once, for every classifier


def crisp_curves(tp, fp, n_pos: int, n_neg: int, grid) -> np.ndarray:
    """min(cost line, PC(+), 1 - PC(+)) of crisp replicates with counts (tp, fp): (R, m)."""
    fnr = 1.0 - np.asarray(tp, dtype=float)[:, None] / n_pos
    fpr = np.asarray(fp, dtype=float)[:, None] / n_neg
    return np.minimum(fnr * grid + fpr * (1.0 - grid), np.minimum(grid, 1.0 - grid))


class _Curves:
    """Envelopes on the grid of every classifier for given per-instance class counts."""

    def __init__(self, labels, scores: dict, predictions: dict, grid):
        y = np.asarray(labels, dtype=bool)
        self.grid = grid
        self.n_pos = int(y.sum())
        self.n_neg = y.size - self.n_pos
        self.layouts = {k: path_layout(y, s) for k, s in scores.items()}
        self.crisp = {k: (np.asarray(p, bool)[y].astype(np.int64), np.asarray(p, bool)[~y].astype(np.int64)) for k, p in predictions.items()}

    def __call__(self, name, counts_pos, counts_neg) -> np.ndarray:
        if name in self.layouts:
            lay = self.layouts[name]
            h = replicate_hulls(lay, cumulative(counts_pos[:, lay.pos_order]), cumulative(counts_neg[:, lay.neg_order]))
            return hulls_on_grid(h, self.grid)
        lab_pos, lab_neg = self.crisp[name]
        return crisp_curves(counts_pos @ lab_pos, counts_neg @ lab_neg, self.n_pos, self.n_neg, self.grid)

    def sample(self, name) -> np.ndarray:
        ones_pos = np.ones((1, self.n_pos), dtype=np.int64)
        ones_neg = np.ones((1, self.n_neg), dtype=np.int64)
        return self(name, ones_pos, ones_neg)[0]


def pair_ratios(d_outer, d_inner, d_sample, level: float) -> np.ndarray:
    """``T_b / c_b`` per outer replicate (module docstring): ``d_outer`` (g, m), ``d_inner`` (g, k, m),
    ``d_sample`` (m,). NaN where the inner replicates never vary or the critical value is 0."""
    sd = studentizing_sd(d_inner.std(axis=1, ddof=1))  # (g, m)
    live = sd > 0
    safe = np.where(live, sd, 1.0)
    dev = np.where(live[:, None, :], np.abs(d_inner - d_outer[:, None, :]) / safe[:, None, :], 0.0)
    critical = np.quantile(dev.max(axis=2), level, axis=1)
    stat = np.where(live, np.abs(d_outer - d_sample) / safe, 0.0).max(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(critical > 0, stat / np.where(critical > 0, critical, 1.0), np.nan)


def calibrate_pairs(
    rng: np.random.Generator,
    labels,
    scores: dict | None,
    predictions: dict | None,
    pairs,
    level: float,
    grid=GRID,
    outer: int = OUTER,
    inner: int = INNER,
) -> dict:
    """Calibrated critical-value scale of :func:`~ccreport.analysis.significance.family_wise` for
    every pair ``(a, b)`` in ``pairs``: {(a, b): scale} (1.0 where nothing varies).

    One outer x inner resampling of the dataset's instances, shared by all classifiers and pairs.
    """
    scores, predictions = dict(scores or {}), dict(predictions or {})
    grid = np.asarray(grid, dtype=float)
    pairs = [tuple(p) for p in pairs]
    names = sorted({x for p in pairs for x in p})
    curves = _Curves(labels, {k: scores[k] for k in names if k in scores}, {k: predictions[k] for k in names if k in predictions}, grid)
    sample = {k: curves.sample(k) for k in names}
    n = curves.n_pos + curves.n_neg
    ratios = {p: [] for p in pairs}
    for g in chunk_sizes(outer, n * inner):
        counts_pos = multinomial_counts(rng, curves.n_pos, g)
        counts_neg = multinomial_counts(rng, curves.n_neg, g)
        inner_pos = resample_counts(rng, counts_pos, inner)
        inner_neg = resample_counts(rng, counts_neg, inner)
        outer_env = {k: curves(k, counts_pos, counts_neg) for k in names}
        for s in range(0, g, SUB):
            e = min(g, s + SUB)
            rows = slice(s * inner, e * inner)
            inner_env = {k: curves(k, inner_pos[rows], inner_neg[rows]).reshape(e - s, inner, grid.size) for k in names}
            for a, b in pairs:
                ratios[(a, b)].append(
                    pair_ratios(outer_env[a][s:e] - outer_env[b][s:e], inner_env[a] - inner_env[b], sample[a] - sample[b], level)
                )
    out = {}
    for p in pairs:
        r = np.concatenate(ratios[p])
        r = r[~np.isnan(r)]
        out[p] = float(np.quantile(r, level)) if r.size else 1.0
    return out
