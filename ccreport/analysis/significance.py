"""Significance of the difference of two classifiers that means what it says.

Drummond & Holte 2006 section 4.7 judge a difference at one operating condition by whether its
confidence interval excludes 0. A report reads the whole curve, PC(+) in [0, 1], and calls every
region where a pointwise 90% band excludes 0 "significant": with two classifiers whose true curves
are identical that happened in 44-82% of simulated data sets, not 10%. Here:

* :func:`family_wise` -- a max-statistic (studentized sup-norm) test over the whole grid, the
  bootstrap analogue of Westfall & Young (1993)'s single-step max-T: for the estimate
  ``d(pc) = t_a(pc) - t_b(pc)`` (the difference of the two sample envelopes) and paired replicate
  differences ``d*_r`` of the replicates' own envelopes (one resampling per dataset,
  :func:`ccreport.analysis.paired_bootstrap.bootstrap_dataset`),

      T*_r = max_j |d*_rj - d_j| / s_j,     c = the ``level`` quantile of T*,

  with ``s`` = :func:`ccreport.analysis.bands.studentizing_sd` of the d*; the difference is
  significant at pc_j where ``|d_j| > c s_j`` (the band ``d +- c s`` excludes 0). Two crisp
  classifiers take ``s`` and ``c`` from their cost lines' difference instead
  (:func:`crisp_reference`). The basic bootstrap (Davison & Hinkley 1997 section 5.2) takes the law
  of ``d* - d`` for that of ``d - D``, D the difference of the true optimal curves, so the chance of
  *any* false claim over the whole curve is about 1 - level when D = 0 everywhere (and, by the
  step-down argument's single-step bound, at most that for the points where D = 0 when it is not 0
  elsewhere). Its family-wise p-value, ``(#(T* >= max_j |d_j| / s_j) + 1) / (R + 1)``, is the
  smallest 1 - level at which anything is significant.
* :func:`difference_p_value` -- the paired expected-cost difference under one prior, tested the
  same (basic, symmetric) way: ``p = (#(|E*_a - E*_b - dE| >= |dE|) + 1) / (R + 1)``.
* :func:`step_down_max_t` -- the multiplicity adjustment over every pair and prior of a dataset
  (results.json ``p_holm``, the name kept from when it was Holm's): Westfall & Young (1993)'s
  step-down max-T on the studentized statistics ``|d| / s`` (:func:`studentized`), read from the
  same shared replicates. It is Holm's step-down with the Bonferroni factor replaced by the
  resampled law of the maximum over the tests still in play, so it keeps the family-wise error
  at alpha (any dependence the resampling reproduces) and, unlike Holm on bootstrap p-values, has no
  floor K/(R + 1): with R = 1000 and K > 100 pair x prior tests Holm could mark nothing.
  :func:`holm` stays for reference and tests.

Why the replicates' own envelopes and not the optimism-corrected values of the bands
(:mod:`ccreport.analysis.bootstrap`): the corrected values target the true cost of the
thresholds each classifier selected on the data, which differs between two classifiers with
identical true curves (each has its own selection noise), and the selection noise is negatively
correlated with the apparent cost, so a test of 0 read from them was conservative (2.5% of
p-values below 0.05 under the null). What a reader means by "a is significantly better
than b at PC(+)" is a statement about the classifiers, i.e. about D; the optimism of the two
envelopes enters d and d* alike and largely cancels in the difference. Its residual effect, and
every rate, is measured in ``benchmarks/significance.py`` (benchmarks/README.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .bands import percentile_interval, significant_intervals, studentizing_sd

FAMILY_METHOD = (
    "family-wise over 0 <= PC(+) <= 1: studentized max-statistic (bootstrap single-step max-T, "
    "Westfall & Young 1993) of the paired replicate envelope differences about the estimate"
)
CRISP_FAMILY_METHOD = (
    FAMILY_METHOD
    + "; two crisp classifiers: studentized and calibrated by the paired replicates of their "
    "cost lines' difference (linear in the 3-D confusion matrix; the clipped envelopes' "
    "difference is never larger)"
)
POINTWISE_NOTE = (
    "pointwise: each PC(+) on its own, not adjusted for reading the whole curve; never used for "
    "'significant'"
)
P_METHOD = "two-sided basic bootstrap (paired): (#(|d* - d| >= |d|) + 1) / (R + 1)"
ADJUST_METHOD = (
    "Westfall & Young (1993) step-down max-T over every pair and prior of the dataset, on the "
    "studentized statistics |d| / sd(d*) and the same paired replicates (a Holm-type step-down "
    "without Holm's floor)"
)


@dataclass(frozen=True, eq=False)
class FamilyWise:
    """The family-wise inference on ``a - b`` over the grid (:func:`family_wise`).

    ``estimate`` (m,): the sample envelopes' difference d; ``lower``/``upper``: the simultaneous
    band ``d -+ critical s`` (width 0 where no replicate varies); ``critical``: c; ``statistic``:
    the observed ``max_j |d_j| / s_j``; ``p_value``: family-wise p of "no difference anywhere";
    ``significant``: the PC(+) intervals where the band excludes 0, with the cheaper classifier.
    """

    grid: np.ndarray
    level: float
    estimate: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    critical: float
    statistic: float
    p_value: float
    significant: list
    method: str = FAMILY_METHOD

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "method": self.method,
            "pc": self.grid,
            "estimate": self.estimate,
            "lower": self.lower,
            "upper": self.upper,
            "critical_value": self.critical,
            "statistic": self.statistic,
            "p_value": self.p_value,
        }


def sup_statistics(deviations: np.ndarray, sd: np.ndarray) -> np.ndarray:
    """``max_j |dev_rj| / sd_j`` over the points with sd > 0, per row of ``deviations`` (R, m) or
    (m,)."""
    live = sd > 0
    dev = np.atleast_2d(deviations)
    if not np.any(live):
        return np.zeros(dev.shape[0])
    return (np.abs(dev[:, live]) / sd[live]).max(axis=1)


def claim_family(estimate_a, estimate_b, grid) -> np.ndarray:
    """The PC(+) where a claim about ``a - b`` is possible on this data: where at least one of the
    two sample envelopes is below the trivial classifiers' ``min(pc, 1 - pc)``. Elsewhere both
    classifiers, as selected on the data, are the trivial ones: their difference there is exactly 0
    and no test could reject, so those points are left out of the max-statistic's family (as
    Tarone 1990 leaves out hypotheses that cannot reach significance). Without this, replicates
    whose cost lines dip below the trivial classifiers where the sample's do not (the ends of a
    crisp classifier's operating range, where the studentizing sd is tiny) inflated the critical
    value: two identical crisp classifiers were called different somewhere in 3-6% of data sets at
    confidence 0.9 instead of 10% (benchmarks/README.md)."""
    grid = np.asarray(grid, dtype=float)
    trivial = np.minimum(grid, 1.0 - grid) - 1e-12
    return (np.asarray(estimate_a) < trivial) | (np.asarray(estimate_b) < trivial)


def crisp_reference(ra, rb):
    """What the family-wise test of two crisp classifiers is studentized and calibrated by: the
    difference of their bare cost lines, ``(L*_a - L*_b, L_a - L_b)`` ((R, m), (m,)), or None unless
    both are crisp (:attr:`~ccreport.analysis.bootstrap.Replicates.line`).

    A crisp classifier's curve is ``T(pc) = min(L(pc), pc, 1 - pc)``, its cost line L clipped by the
    trivial classifiers (D&H 2006 section 3), and the difference of two is judged on
    ``d = T_a - T_b``. ``d`` has kinks where either line crosses a trivial one, and when the two
    true lines cross it at the same PC(+) (identical classifiers) the bootstrap of ``d`` is not
    consistent there (a function that is only directionally differentiable at the truth; Fang &
    Santos 2019): in the bootstrap world the sample's two lines cross apart, the replicates'
    studentized deviations at the ends of the operating range are heavy-tailed (kurtosis about 5
    against 3 inside it, and 78% of the replicate maxima fell there, correlated crisp pairs at
    n = 1000) and the critical value came out too large: identical crisp classifiers at n = 1000
    were called different somewhere in 5-8% of data sets at confidence 0.9 and 12-18% at 0.8
    (benchmarks/README.md; a quarter-lattice-step continuity allowance had hidden part of it at
    n = 200, but the lattice was not the cause: it is fine at n = 1000, and with this reference no
    allowance is needed). The line difference is linear in the 3-D confusion matrix's counts
    (D&H 2006 section 4.7):
    ``L_a - L_b = pc (c_pos - b_pos) / n_pos + (1 - pc) (b_neg - c_neg) / n_neg``, b and c the two
    discordant cells of each class (b: a labels positive and b negative, c the reverse), as in
    McNemar's test, so its bootstrap max-T over PC(+) is a smooth one. And ``min(., t)`` is
    1-Lipschitz, so ``|d(pc)| <= |L_a(pc) - L_b(pc)|`` everywhere: judging d against the line
    difference's band ``c_L s_L`` claims a difference only where the line test would, so under
    identical classifiers the chance of any claim is at most the line test's, about 1 - level,
    and where one classifier is clipped (d = its line's distance below the trivial classifier) the
    claim is harder than on the lines.
    """
    if ra.line is None or rb.line is None:
        return None
    return ra.line - rb.line, ra.line_estimate - rb.line_estimate


def family_wise(
    raw_difference,
    estimate,
    level: float,
    grid,
    a: str = "a",
    b: str = "b",
    scale: float = 1.0,
    family=None,
    reference=None,
) -> FamilyWise:
    """Family-wise significance of ``a - b`` over the whole PC(+) grid (module docstring).

    ``raw_difference`` (R, m): the paired replicates' own envelope differences ``t*_a - t*_b``
    (:meth:`~ccreport.analysis.paired_bootstrap.DatasetReplicates.difference` with ``raw=True``);
    ``estimate`` (m,): the sample's ``t_a - t_b``; ``scale``: a calibration factor on the critical
    value (1: none); ``family``: a mask (m,) of the grid points tested (default all;
    :func:`claim_family`). Grid points outside it, or where every replicate agrees (sd = 0: both
    classifiers trivial in every replicate, or identical classifiers), are never significant.
    ``reference``: ``(raw (R, m), estimate (m,))`` of the process whose replicates give ``s`` and
    ``c`` when it is not ``raw_difference`` itself (two crisp classifiers: their cost lines'
    difference, :func:`crisp_reference`; default none); the claims and the band ``d -+ c s`` are
    still those of ``estimate``.
    """
    d = np.asarray(estimate, dtype=float)
    ref_star, ref = (raw_difference, d) if reference is None else reference
    ref_star = np.asarray(ref_star, dtype=float)
    ref = np.asarray(ref, dtype=float)
    grid = np.asarray(grid, dtype=float)
    r = ref_star.shape[0]
    sd = studentizing_sd(ref_star.std(axis=0, ddof=1) if r > 1 else np.zeros(d.size))
    if family is not None:
        sd = np.where(np.asarray(family, dtype=bool), sd, 0.0)
    live = sd > 0
    t_star = sup_statistics(ref_star - ref, sd)
    critical = scale * float(np.quantile(t_star, level)) if live.any() else 0.0
    stat = float(sup_statistics(d, sd)[0])
    p = float((np.count_nonzero(t_star >= stat) + 1) / (r + 1)) if live.any() else 1.0
    lower, upper = d - critical * sd, d + critical * sd
    # points with no variation carry no evidence: never significant there
    sig_lo = np.where(live, lower, np.minimum(lower, 0.0))
    sig_hi = np.where(live, upper, np.maximum(upper, 0.0))
    return FamilyWise(
        grid=grid,
        level=level,
        estimate=d,
        lower=lower,
        upper=upper,
        critical=critical,
        statistic=stat,
        p_value=p,
        significant=significant_intervals(grid, sig_lo, sig_hi, a, b),
    )


def pointwise_difference(values, level: float) -> tuple[np.ndarray, np.ndarray]:
    """The pointwise percentile band of paired band values (R, m): for drawing, labelled
    :data:`POINTWISE_NOTE`; never a source of "significant"."""
    return percentile_interval(values, level, axis=0)


def difference_p_value(raw_differences, estimate: float) -> float:
    """Two-sided paired basic-bootstrap p-value of "equal expected costs" (module docstring).

    ``raw_differences`` (R,): the replicates' own expected-cost differences; ``estimate``: the
    sample's. ``(#(|d* - d| >= |d|) + 1) / (R + 1)``: the +1 counts the observed value (Davison &
    Hinkley 1997 eq. 4.11), so p is never 0; p = 1 when d = 0.
    """
    d_star = np.asarray(raw_differences, dtype=float)
    d = float(estimate)
    tol = 1e-12 * max(1.0, abs(d))
    return float((np.count_nonzero(np.abs(d_star - d) >= abs(d) - tol) + 1) / (d_star.size + 1))


def difference_interval(raw_differences, estimate: float, level: float) -> tuple[float, float]:
    """The interval the p-value inverts: ``d -+ q``, q the ``level`` quantile of ``|d* - d|``
    (symmetric basic bootstrap); it excludes 0 exactly when p <= 1 - level (up to the +1)."""
    d_star = np.asarray(raw_differences, dtype=float)
    q = float(np.quantile(np.abs(d_star - estimate), level))
    return float(estimate - q), float(estimate + q)


def studentized(raw_differences, estimate: float) -> tuple[float, np.ndarray]:
    """A paired test's studentized statistic ``|d| / s`` and its replicates ``|d*_r - d| / s``, s
    the replicates' sd; (0, zeros) when every replicate agrees (no evidence: the test cannot
    reject). For one test, ``(#(T* >= t) + 1) / (R + 1)`` is :func:`difference_p_value`
    (s cancels)."""
    d_star = np.asarray(raw_differences, dtype=float)
    d = float(estimate)
    s = float(d_star.std(ddof=1)) if d_star.size > 1 else 0.0
    if not s > 1e-15 * max(1.0, abs(d)):
        return 0.0, np.zeros(d_star.size)
    return abs(d) / s, np.abs(d_star - d) / s


def step_down_max_t(observed, null) -> np.ndarray:
    """Westfall & Young (1993, algorithm 4.1) step-down max-T adjusted p-values from shared
    replicates.

    ``observed`` (K,): the tests' studentized statistics ``t_k`` (0 for a test that cannot reject);
    ``null`` (R, K): their replicate null statistics ``T*_rk`` from the SAME resamples (column k
    centred on its own estimate, so each column imitates test k's law under its null). With the
    tests ordered ``t_(1) >= ... >= t_(K)``,

        p~_(i) = (#(max_{j >= i} T*_r(j) >= t_(i)) + 1) / (R + 1),   p_(i) = max_{l <= i} p~_(l).

    The maximum over the tests still in play uses their joint (resampled) dependence, so the chance
    of any false rejection is at most alpha (subset pivotality, WY 1993 section 2.6) without Holm's
    factor K: the smallest adjusted p is bounded by 1/(R + 1), not K/(R + 1), so a dataset with
    hundreds of pair x prior tests can still mark the clear ones at R = 1000. For K = 1 it is the
    plain bootstrap p-value ``(#(T* >= t) + 1) / (R + 1)``.
    """
    t = np.asarray(observed, dtype=float)
    t_star = np.asarray(null, dtype=float).reshape(-1, t.size)
    k = t.size
    if k == 0:
        return np.zeros(0)
    r = t_star.shape[0]
    order = np.argsort(-t, kind="stable")
    tail_max = np.maximum.accumulate(t_star[:, order][:, ::-1], axis=1)[
        :, ::-1
    ]  # (R, K): max over j >= i
    tol = 1e-12 * np.maximum(1.0, t[order])
    raw = (np.count_nonzero(tail_max >= t[order] - tol, axis=0) + 1) / (r + 1)
    out = np.empty(k)
    out[order] = np.minimum(1.0, np.maximum.accumulate(raw))
    return out


def holm(p_values: dict) -> dict:
    """Holm (1979) step-down adjusted p-values of a family {key: p}: sorted ascending,
    ``p_(i) -> max_{j <= i} min(1, (k - j + 1) p_(j))``; the family-wise error is at most alpha when
    every adjusted p <= alpha is called significant, whatever the dependence."""
    keys = list(p_values)
    p = np.array([p_values[k] for k in keys], dtype=float)
    k = p.size
    if k == 0:
        return {}
    order = np.argsort(p, kind="stable")
    adjusted = np.minimum(1.0, np.maximum.accumulate((k - np.arange(k)) * p[order]))
    out = np.empty(k)
    out[order] = adjusted
    return {key: float(v) for key, v in zip(keys, out)}


# --- everything a dataset's pairs need, from its one resampling -----------------------------------


@dataclass(frozen=True, eq=False)
class PairInference:
    """The inferences on one pair ``a - b`` of a dataset (:func:`dataset_inference`).

    ``family_wise``: :class:`FamilyWise`, the only source of "significant"; ``pointwise``: the
    (lower, upper) pointwise percentile band of the band values' difference, for drawing only
    (:data:`POINTWISE_NOTE`); ``expected``: prior -> {difference, lower, upper, p_value, p_holm},
    the paired expected-cost difference with the interval its p-value inverts and the step-down
    adjusted (:func:`step_down_max_t`; key name kept from Holm)
    p-value over every pair and prior of the dataset.
    """

    a: str
    b: str
    family_wise: FamilyWise
    pointwise: tuple
    expected: dict

    def to_dict(self) -> dict:
        """The entries for results.json (see docs/results-schema.md, "pair inference")."""
        lower, upper = self.pointwise
        return {
            "difference_band": {
                "kind": "pointwise",
                "note": POINTWISE_NOTE,
                "level": self.family_wise.level,
                "pc": self.family_wise.grid,
                "lower": lower,
                "upper": upper,
            },
            "family_wise": self.family_wise.to_dict(),
            "significant": self.family_wise.significant,
            "expected_cost_difference_test": {
                p: {**v, "p_value_method": P_METHOD, "adjustment": ADJUST_METHOD}
                for p, v in self.expected.items()
            },
        }


def dataset_inference(
    reps, pairs, level: float, priors=None, calibration: dict | None = None
) -> dict:
    """Family-wise significance, pointwise band, p-values and their step-down adjustment
    (:func:`step_down_max_t`) over every pair and prior of a dataset.

    ``reps``: :class:`~ccreport.analysis.paired_bootstrap.DatasetReplicates` (one resampling per
    dataset); ``pairs``: [(a, b), ...]; ``priors``: names of the priors (default: all the replicates
    carry); ``calibration``: {(a, b): :class:`~ccreport.analysis.pair_calibration.PairCalibration`}
    from :func:`~ccreport.analysis.pair_calibration.calibrate_pairs` (default: none; the critical
    value's scale is then 1 and the p-values are the plain ones). With it, ``p_value`` is the
    calibrated p-value and ``p_plain`` the plain one. A pair of two crisp classifiers is studentized
    and calibrated by its cost lines' difference (:func:`crisp_reference`).
    Returns {(a, b): :class:`PairInference`}. The adjustment's family is every (pair, prior) given,
    so adding priors or pairs makes each adjusted p larger or equal, never smaller.
    """
    pairs = [tuple(p) for p in pairs]
    calibration = calibration or {}
    if priors is None:
        first = next(iter(reps.classifiers.values()))
        priors = list(first.expected_estimate)
    raw_p, expected = {}, {}
    fw = {}
    observed, null = [], []  # every (pair, prior) test's studentized statistic and its replicates
    for a, b in pairs:
        ra, rb = reps.classifiers[a], reps.classifiers[b]
        reference = crisp_reference(ra, rb)
        fw[(a, b)] = family_wise(
            reps.difference(a, b, raw=True),
            ra.estimate - rb.estimate,
            level,
            reps.grid,
            a,
            b,
            calibration[(a, b)].scale if (a, b) in calibration else 1.0,
            claim_family(ra.estimate, rb.estimate, reps.grid),
            reference,
        )
        if reference is not None:
            fw[(a, b)] = replace(fw[(a, b)], method=CRISP_FAMILY_METHOD)
        for p in priors:
            d = ra.expected_estimate[p] - rb.expected_estimate[p]
            d_star = reps.expected_difference(a, b, p, raw=True)
            lo, hi = difference_interval(d_star, d, level)
            plain = difference_p_value(d_star, d)
            raw_p[(a, b, p)] = (
                calibration[(a, b)].p_value(p, plain) if (a, b) in calibration else plain
            )
            t, t_star = studentized(d_star, d)
            observed.append(t)
            null.append(t_star)
            expected[(a, b, p)] = {
                "difference": float(d),
                "lower": lo,
                "upper": hi,
                "p_value": raw_p[(a, b, p)],
            }
            if (a, b) in calibration:
                expected[(a, b, p)]["p_plain"] = plain
    adjusted = (
        dict(zip(raw_p, step_down_max_t(np.array(observed), np.column_stack(null))))
        if raw_p
        else {}
    )
    out = {}
    for a, b in pairs:
        out[(a, b)] = PairInference(
            a=a,
            b=b,
            family_wise=fw[(a, b)],
            pointwise=pointwise_difference(reps.difference(a, b), level),
            expected={p: {**expected[(a, b, p)], "p_holm": adjusted[(a, b, p)]} for p in priors},
        )
    return out
