"""Intervals, bands, p-values and significant regions, read from bootstrap replicate arrays only.

Nothing here knows how the replicates were drawn (:mod:`ccreport.analysis.bootstrap`): every
function takes replicate values (R,) or curves (R, m) on a PC(+) grid, as SciPy's resampling code
keeps the interval apart from the resampling and the statistic.

* percentile and basic intervals (Efron & Tibshirani 1993 ch. 13; Davison & Hinkley 1997 eq. 5.6),
  pointwise on each grid PC(+) (D&H 2006 section 4.6: "the fifth lowest and fifth highest");
* the studentized sup-norm (simultaneous) band over the whole grid;
* the two-sided bootstrap p-value for "no difference", the inverse of the interval;
* the PC(+) regions where a difference band excludes 0 (D&H 2006 section 4.7, Figs. 19-20).

The double-bootstrap calibration of these bands is :mod:`ccreport.analysis.calibration`.
"""

from __future__ import annotations

import numpy as np


def percentile_interval(samples, level: float, axis: int = 0):
    """Percentile bootstrap interval (Efron & Tibshirani 1993, ch. 13): the (1-level)/2 and
    (1+level)/2 quantiles of the replicates (D&H 2006 section 4.6: "the fifth lowest and fifth
    highest")."""
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
    """Pointwise percentile band of replicate curves (R, m) at each grid PC(+) (D&H 2006
    section 4.6)."""
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
    for edge, sign, name in (
        (np.asarray(upper, float), -1.0, a_name),
        (np.asarray(lower, float), 1.0, b_name),
    ):
        val = sign * edge  # > 0 where significant
        mask = val > 0
        if not np.any(mask):
            continue
        flips = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
        for s, e in zip(np.flatnonzero(flips == 1), np.flatnonzero(flips == -1) - 1):
            lo = (
                grid[s]
                if s == 0
                else grid[s - 1] + (grid[s] - grid[s - 1]) * (-val[s - 1]) / (val[s] - val[s - 1])
            )
            last = grid.size - 1
            hi = (
                grid[e]
                if e == last
                else grid[e] + (grid[e + 1] - grid[e]) * val[e] / (val[e] - val[e + 1])
            )
            out.append({"lo": float(lo), "hi": float(hi), "better": name})
    out.sort(key=lambda d: d["lo"])
    return out
