"""Double-bootstrap calibration of the family-wise critical value of every pair of a dataset.

:func:`ccreport.analysis.significance.family_wise` reads its critical value ``c`` off the bootstrap
law of ``max_j |d*_j - d_j| / s_j``. If the bootstrap spread of the envelope difference is a little
off (it is an argmin-value statistic, whose bootstrap is only first-order right;
benchmarks/README.md), the chance of a false claim is off with it. Beran (1987) prepivoting measures
the error in the bootstrap world and corrects it, as :mod:`ccreport.analysis.calibration` does for
one classifier:

* the sample is the population, so the truth is the sample's own envelope difference ``d``
  (the population's optimal curves are the sample envelopes);
* outer replicate b plays the data: its envelope difference ``d_b``; inner replicates drawn from b
  give ``d**_bk``, their sd ``s_b`` (:func:`~ccreport.analysis.bands.studentizing_sd`) and critical
  value ``c_b`` = the ``level`` quantile of ``max_j |d**_bk - d_b| / s_b``;
* b makes a false claim when ``T_b = max_j |d_b - d| / s_b`` exceeds ``scale c_b``; the calibrated
  ``scale`` is the ``level`` quantile of ``T_b / c_b`` over outer replicates, so that in the
  bootstrap world the chance of any false claim is 1 - level. It may be below 1 (the plain test was
  conservative there) or above it.

The paired expected-cost p-values (:func:`~ccreport.analysis.significance.difference_p_value`) are
prepivoted in the same world (Beran 1987; Davison & Hinkley 1997 section 4.5): outer replicate b
gets its own p-value ``p_b`` for the (true in its world) hypothesis "difference = d", from its inner
replicates, and the calibrated p-value of the data is ``(#(p_b <= p) + 1) / (outer + 1)``, the
share of the bootstrap world's null p-values at or below the observed one: uniform if the world is
right, whatever the bias of the plain p-value.

The expensive part, the hulls of ``outer x inner`` replicates, is per *classifier*: every pair of
the dataset reads the same outer and inner replicates (one resampling per dataset), and a
pair only adds array differences on the grid, O(outer x inner x grid). Memory: the inner envelopes
are computed for ``SUB`` outer replicates at a time (the random draws do not depend on it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .bands import studentizing_sd
from .calibration import INDUCED_NODES, resample_counts
from .hull_costs import GRID, hulls_expected, hulls_on_grid, switches, vertex_intervals
from .hulls import crisp_hulls, replicate_hulls
from .path_layout import chunk_sizes, cumulative, multinomial_counts, path_layout
from .significance import claim_family

SUB = 16  # outer replicates whose inner envelopes are held at once, for every classifier
# Outer x inner replicates: the numbers its simulated false-positive rates and p-values were
# measured with (benchmarks/README.md, "Significance of pair differences"); the single-classifier
# calibration now uses 200 x 50 (calibration.py), which was not re-measured for pairs.
OUTER = 200
INNER = 100


class _Curves:
    """Envelopes on the grid of every classifier for given per-instance class counts."""

    def __init__(self, labels, scores: dict, predictions: dict, grid):
        y = np.asarray(labels, dtype=bool)
        self.grid = grid
        self.n_pos = int(y.sum())
        self.n_neg = y.size - self.n_pos
        self.layouts = {k: path_layout(y, s) for k, s in scores.items()}
        self.crisp = {
            k: (np.asarray(p, bool)[y].astype(np.int64), np.asarray(p, bool)[~y].astype(np.int64))
            for k, p in predictions.items()
        }

    def __call__(self, name, counts_pos, counts_neg, priors=None):
        """Envelopes (R, m) of the replicates with these class counts, and with ``priors`` also
        their expected costs {prior: (R,)} (32-node rule for induced priors, as in the
        calibration)."""
        if name in self.layouts:
            lay = self.layouts[name]
            h = replicate_hulls(
                lay,
                cumulative(counts_pos[:, lay.pos_order]),
                cumulative(counts_neg[:, lay.neg_order]),
            )
        else:
            lab_pos, lab_neg = self.crisp[name]
            h = crisp_hulls(
                counts_pos @ lab_pos, counts_neg @ lab_neg, self.n_pos, self.n_neg, 0.0, 0.0
            )
        sw = switches(h)
        env = hulls_on_grid(h, self.grid, sw)
        if priors is None:
            return env
        lo, hi = vertex_intervals(h, sw)
        rep = h.replicate_ids()
        return env, {
            p: hulls_expected(h, prior, sw, prior.vertex_weights(lo, hi, rep, INDUCED_NODES))
            for p, prior in priors.items()
        }

    def sample(self, name, priors=None):
        ones_pos = np.ones((1, self.n_pos), dtype=np.int64)
        ones_neg = np.ones((1, self.n_neg), dtype=np.int64)
        if priors is None:
            return self(name, ones_pos, ones_neg)[0]
        env, expected = self(name, ones_pos, ones_neg, priors)
        return env[0], {p: float(v[0]) for p, v in expected.items()}


def pair_ratios(d_outer, d_inner, d_sample, level: float, family=None) -> np.ndarray:
    """``T_b / c_b`` per outer replicate (module docstring): ``d_outer`` (g, m), ``d_inner``
    (g, k, m), ``d_sample`` (m,); ``family`` (g, m): the points each outer replicate's test reads
    (:func:`~ccreport.analysis.significance.claim_family` of its envelopes; default all). NaN where
    the inner replicates never vary or the critical value is 0."""
    sd = studentizing_sd(d_inner.std(axis=1, ddof=1))  # (g, m)
    if family is not None:
        sd = np.where(family, sd, 0.0)
    live = sd > 0
    safe = np.where(live, sd, 1.0)
    dev = np.where(live[:, None, :], np.abs(d_inner - d_outer[:, None, :]) / safe[:, None, :], 0.0)
    critical = np.quantile(dev.max(axis=2), level, axis=1)
    stat = np.where(live, np.abs(d_outer - d_sample) / safe, 0.0).max(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(critical > 0, stat / np.where(critical > 0, critical, 1.0), np.nan)


def null_p_values(d_outer, d_inner, d_sample) -> np.ndarray:
    """Each outer replicate's p-value for "difference = d_sample" (true in the bootstrap world), as
    :func:`~ccreport.analysis.significance.difference_p_value` reads the data's:
    ``(#(|d**_bk - d_b| >= |d_b - d|) + 1) / (k + 1)``. ``d_outer`` (g,), ``d_inner`` (g, k)."""
    stat = np.abs(d_outer - d_sample)
    tol = 1e-12 * np.maximum(1.0, stat)
    exceed = np.count_nonzero(np.abs(d_inner - d_outer[:, None]) >= (stat - tol)[:, None], axis=1)
    return (exceed + 1.0) / (d_inner.shape[1] + 1.0)


@dataclass(frozen=True, eq=False)
class PairCalibration:
    """The calibration of one pair (module docstring): ``scale`` of the family-wise critical value
    and, per prior, the sorted null p-values of the bootstrap world."""

    scale: float = 1.0
    null_p: dict = field(default_factory=dict)
    outer: int = 0
    inner: int = 0

    def p_value(self, prior: str, p: float) -> float:
        """The calibrated p-value of an observed plain p-value ``p``:
        ``(#(p_b <= p) + 1) / (B + 1)`` (``p`` itself when the prior was not calibrated)."""
        null = self.null_p.get(prior)
        if null is None or null.size == 0:
            return float(p)
        return float(
            min(1.0, (np.searchsorted(null, p * (1 + 1e-12), side="right") + 1) / (null.size + 1))
        )

    def describe(self) -> dict:
        return {
            "method": "double bootstrap (Beran 1987 prepivoting) shared by every pair of the "
            "dataset",
            "outer": self.outer,
            "inner": self.inner,
            "critical_value_scale": self.scale,
        }


def calibrate_pairs(
    rng: np.random.Generator,
    labels,
    scores: dict | None,
    predictions: dict | None,
    pairs,
    level: float,
    grid=GRID,
    priors: dict | None = None,
    outer: int = OUTER,
    inner: int = INNER,
) -> dict:
    """:class:`PairCalibration` of every pair ``(a, b)`` in ``pairs``: {(a, b): PairCalibration}.

    One outer x inner resampling of the dataset's instances, shared by all classifiers and pairs;
    ``priors``: {name: prior} whose expected-cost p-values to calibrate (none by default).
    A pair of two crisp classifiers is measured here with its envelopes' own studentization, not the
    cost-line reference :func:`~ccreport.analysis.significance.dataset_inference` uses for it
    (:func:`~ccreport.analysis.significance.crisp_reference`); the build applies no pair
    calibration.
    """
    scores, predictions = dict(scores or {}), dict(predictions or {})
    priors = priors or {}
    grid = np.asarray(grid, dtype=float)
    pairs = [tuple(p) for p in pairs]
    names = sorted({x for p in pairs for x in p})
    curves = _Curves(
        labels,
        {k: scores[k] for k in names if k in scores},
        {k: predictions[k] for k in names if k in predictions},
        grid,
    )
    sample = {k: curves.sample(k, priors) for k in names}
    n = curves.n_pos + curves.n_neg
    ratios = {p: [] for p in pairs}
    null_p = {(pair, p): [] for pair in pairs for p in priors}
    for g in chunk_sizes(outer, n * inner):
        counts_pos = multinomial_counts(rng, curves.n_pos, g)
        counts_neg = multinomial_counts(rng, curves.n_neg, g)
        inner_pos = resample_counts(rng, counts_pos, inner)
        inner_neg = resample_counts(rng, counts_neg, inner)
        outer_w = {k: curves(k, counts_pos, counts_neg, priors) for k in names}
        for s in range(0, g, SUB):
            e = min(g, s + SUB)
            rows = slice(s * inner, e * inner)
            inner_w = {k: curves(k, inner_pos[rows], inner_neg[rows], priors) for k in names}
            for a, b in pairs:
                d_inner = (inner_w[a][0] - inner_w[b][0]).reshape(e - s, inner, grid.size)
                d_outer = outer_w[a][0][s:e] - outer_w[b][0][s:e]
                family = claim_family(outer_w[a][0][s:e], outer_w[b][0][s:e], grid)
                ratios[(a, b)].append(
                    pair_ratios(d_outer, d_inner, sample[a][0] - sample[b][0], level, family)
                )
                for p in priors:
                    null_p[((a, b), p)].append(
                        null_p_values(
                            outer_w[a][1][p][s:e] - outer_w[b][1][p][s:e],
                            (inner_w[a][1][p] - inner_w[b][1][p]).reshape(e - s, inner),
                            sample[a][1][p] - sample[b][1][p],
                        )
                    )
    out = {}
    for pair in pairs:
        r = np.concatenate(ratios[pair])
        r = r[~np.isnan(r)]
        out[pair] = PairCalibration(
            scale=float(np.quantile(r, level)) if r.size else 1.0,
            null_p={p: np.sort(np.concatenate(null_p[(pair, p)])) for p in priors},
            outer=outer,
            inner=inner,
        )
    return out


# --- fast double bootstrap of the expected-cost p-values (Davidson & MacKinnon 2007) --------------


def fast_double_draws(
    rng: np.random.Generator,
    labels,
    scores: dict | None,
    predictions: dict | None,
    priors: dict,
    draws: int,
    grid=GRID,
) -> dict:
    """One inner resample per outer resample, ``draws`` of each, for every classifier of a dataset.

    Returns {name: (outer, inner)}, each {prior: (draws,)} of the replicates' own expected costs;
    row j of inner is a resample of row j of outer's instances. Every pair reads the same draws.
    """
    scores, predictions = dict(scores or {}), dict(predictions or {})
    curves = _Curves(labels, scores, predictions, np.asarray(grid, dtype=float))
    names = list(scores) + list(predictions)
    n = curves.n_pos + curves.n_neg
    parts = {k: ([], []) for k in names}
    for g in chunk_sizes(draws, 2 * n):
        counts_pos = multinomial_counts(rng, curves.n_pos, g)
        counts_neg = multinomial_counts(rng, curves.n_neg, g)
        inner_pos = resample_counts(rng, counts_pos, 1)
        inner_neg = resample_counts(rng, counts_neg, 1)
        for k in names:
            parts[k][0].append(curves(k, counts_pos, counts_neg, priors)[1])
            parts[k][1].append(curves(k, inner_pos, inner_neg, priors)[1])
    return {
        k: tuple({p: np.concatenate([c[p] for c in level]) for p in priors} for level in parts[k])
        for k in names
    }


def fdb_p_value(outer_differences, inner_differences, raw_differences, estimate: float) -> float:
    """Fast double bootstrap p-value (Davidson & MacKinnon 2007) of "equal expected costs".

    tau = |d|; first level tau*_r = |d*_r - d| (the plain basic bootstrap, ``raw_differences``);
    second level tau**_j = |d**_j - d*_j| (``inner_differences`` - ``outer_differences``: one inner
    resample of each outer one). With the plain p = (#(tau* >= tau) + 1) / (R + 1) and Q** the
    1 - p quantile of tau**, the FDB p-value is (#(tau* >= Q**) + 1) / (R + 1): if the bootstrap
    spreads the difference k times wider than the data's law, it does so again one level down, and
    Q** maps tau to the first level's scale of the data's law.
    """
    d_star = np.asarray(raw_differences, dtype=float)
    d = float(estimate)
    tau_star = np.abs(d_star - d)
    tau2 = np.abs(
        np.asarray(inner_differences, dtype=float) - np.asarray(outer_differences, dtype=float)
    )
    tol = 1e-12 * max(1.0, abs(d))
    r = d_star.size
    p = (np.count_nonzero(tau_star >= abs(d) - tol) + 1) / (r + 1)
    if p >= 1.0:  # no replicate below the observed distance (d = 0): nothing to calibrate
        return 1.0
    q = float(np.quantile(tau2, 1.0 - p))
    return float((np.count_nonzero(tau_star >= q - tol) + 1) / (r + 1))
