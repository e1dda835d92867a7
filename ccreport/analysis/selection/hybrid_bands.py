"""Bands, intervals and paired tests for hybrids, from the dataset's one resampling
(D&H 2006 s. 5.2).

Drummond & Holte 2006 section 5.2, last paragraph: a hybrid's cost curve is built piecewise from
its members' cost lines, so the resampling that gives one classifier its band gives the hybrid
one, *provided every member is read on the same resampled instances*: the dataset is resampled
once (:func:`ccreport.analysis.paired_bootstrap.bootstrap_dataset`) and every classifier's replicate
is read on the same rows, so the hybrid's replicate is the pointwise choice among them.

What the band targets (as the single-classifier band, "target (a)" of the classifier bands): the
true cost, at each PC(+), of the classifier and threshold the *sample* hybrid selects there. The
in-sample envelope is optimistic (the minimum of noisy estimates), so replicates are
optimism-corrected the same way (Efron 1983; :class:`ccreport.analysis.bootstrap.Replicates`)::

    c*_j = T_j + C(v*_j) - H*_j,

with ``T`` the sample hybrid (the minimum over classifiers of their sample envelopes), ``H*`` the
replicate hybrid (the minimum of the replicate envelopes, i.e. the replicate re-selects classifier
and threshold), and ``C(v*)`` the sample cost of what the replicate selected. Where the replicate
hybrid selects a trivial classifier and the sample's does not, ``c* = 2 T - t*(v)`` instead, the
replicate's cost of the sample's own selection (the pile-up fix of ``trivial_swap``). The band is
studentized as a single classifier's (:func:`ccreport.analysis.calibration.studentized_band`: each
replicate's deviation over the sd of what it selected, D&H 2006 Eq. 8, scaled by the sample
selection's sd; the upper edge at least the selected line's Agresti-Coull binomial bound, at the
Bonferroni level 1 - (1 - level) / (2 k) over the k members, so that it holds whichever member the
sample hybrid picked). Its upper level is calibrated, under the build's ``calibration`` setting,
by a fast double bootstrap of the hybrid (one inner resample per outer resample, every classifier
on the same rows: :mod:`.hybrid_calibration`; the single-classifier band's 200 x 50 prepivoting
over every member would cost k times as much). The expected-cost interval: percentiles of the
integrated corrected replicates, the upper level calibrated, the upper end at least the band's
binomial bound averaged under the prior. Coverage measured in simulation is in
:mod:`ccreport.analysis.measured_coverage` (quoted by :data:`TARGET_CALIBRATED`) and
benchmarks/README.md.

Expected costs under a prior: the exact sample value plus each replicate's optimism
``E[C(v*) - H*]``, integrated exactly on the piecewise-linear interpolant of the grid (the
discretisation enters only the small correction term).

Criteria (D&H 2006 sections 5.1.1-5.1.4). Neyman-Pearson and workforce choices are re-selected on
every replicate hull (:func:`neyman_pearson_reader`, :func:`workforce_reader`: the mixture of two
hull vertices that meets the constraint, as :mod:`.criteria` does), and costed in the replicate and
in the sample; their interval is the percentile interval of ``t + C(v*) - t*`` at each prior (a
cost line's expected NEC under a prior is its value at the prior's mean PC(+)). The dataset's
criterion choice picks, in each replicate, the classifier whose choice has the most TPR (ties: the
smaller FPR, then manifest order), so its interval includes the choice of classifier.
Performance-independent hybrids (:func:`independent_reader`) select nothing on the labels, so they
are unbiased [DH06 5.1.1]: their interval is the percentile interval of the replicate's own
expected cost.

Paired tests (the same replicates on both sides): the dataset hybrid against the best single
classifier under each prior, and each performance-independent hybrid against its classifier's
lower envelope; the p-value is :func:`ccreport.analysis.bands.bootstrap_p_value` of the replicate
differences, the interval their percentile interval.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

from .. import measured_coverage as mc
from ..bands import bootstrap_p_value, percentile_interval
from ..calibration import calibrated_band, calibrated_interval, nominal, studentized_band
from ..hull_costs import curves_expected
from ..replicate_groups import group_means
from .independent import check_rule, switch_point

TARGET = (
    "the true expected cost, at each PC(+), of the classifier and threshold the dataset hybrid "
    "selected on these data (optimism-corrected bootstrap, pointwise, studentized"
)
TARGET_CALIBRATED = TARGET + (
    "; upper levels calibrated by a fast double bootstrap: in binormal simulations at n = 200 a "
    f"90% band covered {mc.span(mc.HYBRID_CALIBRATED)} at PC(+) = 0.1-0.9, the truth escaping "
    f"above at most {mc.pct(mc.HYBRID_CALIBRATED_ABOVE)}% of the time, and the expected-cost "
    f"interval {mc.pct(mc.HYBRID_EXPECTED[0])}%, {mc.pct(mc.HYBRID_EXPECTED[1])}% above; "
    f"{mc.SOURCE})"
)
TARGET_UNCALIBRATED = TARGET + (
    "; not calibrated: in binormal simulations at n = 200 a 90% band covered "
    f"{mc.span(mc.HYBRID_UNCALIBRATED)} at PC(+) = 0.1-0.9, the truth escaping above up to "
    f"{mc.pct(mc.HYBRID_UNCALIBRATED_ABOVE)}% of the time, and the expected-cost interval "
    f"{mc.pct(mc.HYBRID_UNCALIBRATED_EXPECTED[0])}%, "
    f"{mc.pct(mc.HYBRID_UNCALIBRATED_EXPECTED[1])}% above; {mc.SOURCE})"
)


def prior_mean(prior) -> float:
    """E[PC(+)] under a prior (the partial first moment over [0, 1])."""
    _, wb = prior.vertex_weights(np.array([0.0]), np.array([1.0]), np.array([0]))
    return float(wb[0])


def line_cost(fpr, tpr, mean):
    """Expected NEC of the cost line (fpr, tpr) under a prior with mean PC(+) ``mean``: the line is
    linear in PC(+), so its expectation is its value at the mean (D&H 2006 Eq. 6)."""
    return np.asarray(fpr) * (1.0 - mean) + (1.0 - np.asarray(tpr)) * mean


def _mixture_choice(h, used, bound, rate_ceiling):
    """The largest hull vertex i of each replicate with ``used_i <= bound`` and its successor j, and
    the weight on i that meets ``used = bound`` (1 when i already catches every positive, is the
    last vertex, or meets it exactly). ``used``: non-decreasing along each replicate's hull."""
    reps = h.replicates
    rep = h.replicate_ids()
    span = rate_ceiling + 1.0
    key = rep * span + used
    i = np.searchsorted(key, np.arange(reps) * span + bound, side="right") - 1
    # never past the first vertex that catches every positive (the choice is (FPR_1, 1),
    # D&H 2006 5.1.3)
    full = h.n_pos + 1.0
    first_full = np.searchsorted(rep * full + h.y, np.arange(reps) * full + h.n_pos, side="left")
    i = np.minimum(i, first_full)
    last = h.indptr[1:] - 1
    j = np.minimum(i + 1, last)
    done = (j == i) | (h.y[i] >= h.n_pos) | (used[i] >= bound)
    gap = np.where(done, 1.0, used[j] - used[i])
    w = np.where(done, 1.0, (used[j] - bound) / gap)
    return i, j, w


def _rates(h, i, j, w):
    """``(fpr, tpr, fpr0, tpr0)``: the mixture's rates in the replicate and in the sample."""
    f = (w * h.x[i] + (1 - w) * h.x[j]) / h.n_neg
    t = (w * h.y[i] + (1 - w) * h.y[j]) / h.n_pos
    f0 = (w * h.x0[i] + (1 - w) * h.x0[j]) / h.n_neg
    t0 = (w * h.y0[i] + (1 - w) * h.y0[j]) / h.n_pos
    return {"fpr": f, "tpr": t, "fpr0": f0, "tpr0": t0}


def neyman_pearson_reader(max_fpr: float):
    """Replicate reader: the best TPR at FPR <= max_fpr on each replicate hull
    (D&H 2006 Fig. 23)."""

    def read(h, cp=None, cn=None, layout=None) -> dict:
        used = h.x / h.n_neg
        return _rates(h, *_mixture_choice(h, used, float(max_fpr), 1.0))

    return read


def workforce_reader(capacity: float):
    """Replicate reader: the best TPR with at most ``capacity`` cases flagged, TP + FP <= W
    (D&H 2006 Eq. 11), on each replicate hull (counts are cases: the replicate has P + N of
    them)."""

    def read(h, cp=None, cn=None, layout=None) -> dict:
        used = h.x + h.y
        return _rates(h, *_mixture_choice(h, used, float(capacity), float(h.n_pos + h.n_neg)))

    return read


def misclassified_weights(rule: str, scores, priors: dict, pi: float) -> dict:
    """Per score u: (misclassification weight of a positive, of a negative) under each prior.

    With threshold rule T (:mod:`.independent`), a positive with score u is missed on the PC(+)
    where ``u < T(x)``, costing x; a negative is flagged where ``u >= T(x)``, costing 1 - x. For the
    decreasing rules (``bayes_prior``, ``score_driven``) these sets are ``[0, x*(u))`` and
    ``[x*(u), 1]`` with ``x* = T^-1(u)``; for ``literal`` (increasing) ``(u, 1]`` and ``[0, u]``.
    The weights are the prior's E[x 1{...}] and E[(1 - x) 1{...}] (``Prior.vertex_weights``), so the
    hybrid's expected cost is ``sum_pos w+/P + sum_neg w-/N`` (a point mass exactly at a switch
    point is counted on the flagged side).
    """
    u = np.asarray(scores, dtype=float)
    xs = switch_point(check_rule(rule), u, pi)
    rep = np.arange(u.size)
    zero, one = np.zeros(u.size), np.ones(u.size)
    if rule == "literal":
        pos_lo, pos_hi, neg_lo, neg_hi = xs, one, zero, xs
    else:
        pos_lo, pos_hi, neg_lo, neg_hi = zero, xs, xs, one
    out = {}
    for name, prior in priors.items():
        _, wb_pos = prior.vertex_weights(pos_lo, pos_hi, rep)
        wa_neg, wb_neg = prior.vertex_weights(neg_lo, neg_hi, rep)
        out[name] = (wb_pos, wa_neg - wb_neg)
    return out


def independent_reader(scores, rule: str, priors: dict, pi: float):
    """Replicate reader: the performance-independent hybrid's expected cost under each prior on each
    replicate (:func:`misclassified_weights` summed with the replicate's counts per distinct
    score)."""
    distinct = np.unique(np.asarray(scores, dtype=float))[::-1]  # path order: decreasing score
    weights = misclassified_weights(rule, distinct, priors, pi)

    def read(h, cp=None, cn=None, layout=None) -> dict:
        pos = np.diff(cp[:, layout.pos_at], axis=1)
        neg = np.diff(cn[:, layout.neg_at], axis=1)
        if pos.shape[1] != distinct.size:  # merged score groups: each group's mean weight
            return {
                p: pos @ group_means(layout, wp, True) / layout.n_pos
                + neg @ group_means(layout, wn, False) / layout.n_neg
                for p, (wp, wn) in weights.items()
            }
        return {
            p: pos @ wp / layout.n_pos + neg @ wn / layout.n_neg for p, (wp, wn) in weights.items()
        }

    return read


def independent_expected(labels, scores, rule: str, priors: dict, pi: float) -> dict:
    """The sample's performance-independent expected cost per prior (the same sums, sample
    counts)."""
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=float)
    w = misclassified_weights(rule, s, priors, pi)
    return {
        p: float(wp[y].sum() / y.sum() + wn[~y].sum() / (~y).sum()) for p, (wp, wn) in w.items()
    }


@dataclass(frozen=True, eq=False)
class Interval:
    """A point estimate with its percentile interval; ``p_value`` for a difference (else None)."""

    estimate: float
    lower: float
    upper: float
    p_value: float | None = None

    def to_dict(self) -> dict:
        out = {"estimate": self.estimate, "lower": self.lower, "upper": self.upper}
        if self.p_value is not None:
            out["p_value"] = self.p_value
        return out


def interval(samples, estimate: float, level: float, test: bool = False) -> Interval:
    lo, hi = percentile_interval(samples, level)
    return Interval(
        float(estimate), float(lo), float(hi), bootstrap_p_value(samples) if test else None
    )


@dataclass(frozen=True, eq=False)
class HybridInference:
    """The dataset hybrid's band (pointwise, on ``grid``), its expected-cost intervals, the criteria
    intervals and the paired tests (module docstring)."""

    grid: np.ndarray
    estimate: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    expected: dict  # prior -> Interval
    criteria: dict  # criterion -> {classifier or "dataset": {prior: Interval}}
    tests: list  # [{"a", "b", "prior", "interval": Interval}]


def hybrid_replicates(reps, names):
    """Optimism-corrected replicate curves (R, m) of the dataset hybrid over ``names`` and the
    replicates' optimism (R, m), from a
    :class:`~ccreport.analysis.paired_bootstrap.DatasetReplicates`."""
    t, values, optimism, _, _, _ = hybrid_replicates_sd(reps, names)
    return t, values, optimism


def hybrid_replicates_sd(reps, names):
    """:func:`hybrid_replicates` and the sds the band is studentized by: each replicate's binomial
    sd of what it selected (the sample's selection where it swapped, as its value) (R, m) and the
    sample hybrid's with its Agresti-Coull form ``(sd_estimate (m,), sd_floor (m,))``, read from the
    members' :class:`~ccreport.analysis.bootstrap.Replicates` ``sd`` / ``sd_estimate`` /
    ``sd_floor`` at the classifier chosen (None, None when a member has none), and the replicate
    hybrids' own curves (R, m): ``(t, values, optimism, sd, (sd_estimate, sd_floor), raw)``."""
    members = [reps.classifiers[n] for n in names]
    est = np.stack([r.estimate for r in members])  # (k, m)
    raw = np.stack([r.raw for r in members])  # (k, R, m)
    chosen = np.argmin(raw, axis=0)  # replicate selection (first classifier on ties)
    sample = np.argmin(est, axis=0)  # sample selection at each grid point
    take = chosen[None]
    h_raw = np.take_along_axis(raw, take, 0)[0]
    h_ins = np.take_along_axis(np.stack([r.in_sample for r in members]), take, 0)[0]
    trivial = np.take_along_axis(np.stack([r.trivial for r in members]), take, 0)[0]
    m = np.arange(est.shape[1])
    sample_trivial = np.stack([r.trivial is not None and _sample_trivial(r) for r in members])[
        sample, m
    ]
    sample_cost = np.stack([r.sample_cost for r in members])[sample, :, m].T  # (R, m)
    t = est.min(axis=0)
    optimism = h_ins - h_raw
    swap = trivial & ~sample_trivial[None, :]
    values = np.where(swap, 2.0 * t[None, :] - sample_cost, t[None, :] + optimism)
    if any(r.sd is None or r.sample_sd is None for r in members):
        return t, values, optimism, None, None, h_raw
    sds = np.stack([r.sd for r in members])  # (k, R, m)
    sample_sd = np.stack([r.sample_sd for r in members])[
        sample, :, m
    ].T  # (R, m): sd of the value 2 T - sample_cost
    sd = np.where(swap, sample_sd, np.take_along_axis(sds, take, 0)[0])
    sd_estimate = np.stack([r.sd_estimate for r in members])[sample, m]
    floor = np.stack([r.sd_plus for r in members])[sample, m]
    return t, values, optimism, sd, (sd_estimate, floor), h_raw


def _sample_trivial(r) -> np.ndarray:
    """Whether the sample's own envelope is a trivial classifier's at each grid PC(+): its value is
    min(PC(+), 1 - PC(+)) exactly (a trivial classifier's cost, known without error)."""
    g = r.grid
    return np.abs(r.estimate - np.minimum(g, 1.0 - g)) <= 1e-12


def criterion_intervals(reps, key: str, sample: dict, means: dict, level: float) -> dict:
    """{classifier: {prior: Interval}, "dataset": {...}} of a Neyman-Pearson or workforce reader
    ``key``; ``sample``: classifier -> the sample's choice (fpr, tpr) (:mod:`.criteria`), in
    manifest order. Per classifier the interval of ``t + C(v*) - t*``; "dataset": the same for the
    classifier chosen in each replicate (most replicate TPR, then smaller FPR, then order) against
    the sample's choice by the same rule (named in ``dataset_classifier``)."""
    order = [n for n in sample if (reps.classifiers[n].readings or {}).get(key)]
    if not order:
        return {}
    read = {n: reps.classifiers[n].readings[key] for n in order}
    out = {}
    for n in order:
        f0, t0 = sample[n]
        r = read[n]
        out[n] = {
            p: interval(
                line_cost(f0, t0, mu)
                + line_cost(r["fpr0"], r["tpr0"], mu)
                - line_cost(r["fpr"], r["tpr"], mu),
                line_cost(f0, t0, mu),
                level,
            )
            for p, mu in means.items()
        }
    best = min(order, key=lambda n: (-sample[n][1], sample[n][0], order.index(n)))
    tpr = np.stack([read[n]["tpr"] for n in order])
    fpr = np.stack([read[n]["fpr"] for n in order])
    idx = np.broadcast_to(np.arange(len(order))[:, None], tpr.shape)
    pick = np.lexsort((idx, fpr, -tpr), axis=0)[0]
    cols = np.arange(tpr.shape[1])
    take = {
        k: np.stack([read[n][k] for n in order])[pick, cols] for k in ("fpr", "tpr", "fpr0", "tpr0")
    }
    f0, t0 = sample[best]
    out["dataset"] = {
        p: interval(
            line_cost(f0, t0, mu)
            + line_cost(take["fpr0"], take["tpr0"], mu)
            - line_cost(take["fpr"], take["tpr"], mu),
            line_cost(f0, t0, mu),
            level,
        )
        for p, mu in means.items()
    }
    out["dataset_classifier"] = best
    return out


def hybrid_inference(
    reps,
    names,
    priors: dict,
    hybrid_expected: dict,
    level: float,
    criteria: dict | None = None,
    independent: dict | None = None,
    calibration=None,
) -> HybridInference:
    """The dataset hybrid's band, expected-cost intervals, criteria intervals and paired tests.

    ``reps``: the dataset's :class:`~ccreport.analysis.paired_bootstrap.DatasetReplicates` (with
    ``in_sample``, ``trivial``, ``sample_cost`` and the criteria's readings); ``names``: its
    classifiers in manifest order; ``hybrid_expected``: prior -> the sample hybrid's exact expected
    cost; ``criteria``: criterion -> {"reader": key, "sample": {classifier: (fpr, tpr)}} for
    Neyman-Pearson and workforce; ``independent``: criterion -> {classifier: (reader key,
    {prior: sample expected cost})} for performance-independent hybrids; ``calibration``: the
    upper levels of the band and of the expected-cost intervals
    (:func:`~ccreport.analysis.selection.hybrid_calibration.calibrate_hybrid`; nominal when None).
    """
    names = list(names)
    t, values, optimism, sd, sd_estimate, _ = hybrid_replicates_sd(reps, names)
    floor_step = None
    cal = calibration if calibration is not None else nominal(level, t.size)
    if sd is None:  # percentiles (np.quantile's, to the bit, when not calibrated)
        if calibration is None:
            lower, upper = percentile_interval(values, level)
        else:
            lower, upper = calibrated_band(values, cal)
    else:
        sd_estimate, floor = sd_estimate
        # the selected member's binomial bound at the Bonferroni level over the k members: it then
        # holds for whichever member the sample hybrid picked (the choice of classifier is
        # optimistic too)
        floor_level = 1.0 - (1.0 - level) / (2.0 * len(names))
        lower, upper = studentized_band(
            values,
            t,
            sd,
            sd_estimate,
            cal,
            sd_floor=floor,
            floor_level=floor_level,
        )
        # the same bound's step above the estimate, where the sample hybrid is not a trivial
        # classifier
        floor_step = np.where(sd_estimate > 0, ndtri(floor_level) * floor, 0.0)
    grid = reps.grid
    r = values.shape[0]
    curves = [(grid, optimism[b]) for b in range(r)]
    expected, draws = {}, {}
    for p, prior in priors.items():
        draws[p] = hybrid_expected[p] + curves_expected(curves, prior)
        lo, hi = calibrated_interval(draws[p], cal.expected_levels(p))
        expected[p] = Interval(float(hybrid_expected[p]), lo, hi)
        if (
            floor_step is not None
        ):  # the upper end at least the band's binomial bound, averaged under the prior
            bound = hybrid_expected[p] + float(curves_expected([(grid, floor_step)], prior)[0])
            expected[p] = dataclasses.replace(expected[p], upper=max(expected[p].upper, bound))
    tests = []
    for p in priors:
        best = min(names, key=lambda n: (reps.classifiers[n].expected_estimate[p], names.index(n)))
        c = reps.classifiers[best]
        tests.append(
            {
                "a": "dataset hybrid",
                "b": best,
                "prior": p,
                "interval": interval(
                    draws[p] - c.expected[p],
                    hybrid_expected[p] - c.expected_estimate[p],
                    level,
                    test=True,
                ),
            }
        )
    means = {p: prior_mean(prior) for p, prior in priors.items()}
    crit = {}
    for key, spec in (criteria or {}).items():
        found = criterion_intervals(reps, key, spec["sample"], means, level)
        if found:
            crit[key] = found
    for key, members in (independent or {}).items():
        found = {}
        for n, (reader, sample_expected) in members.items():
            rd = (reps.classifiers[n].readings or {}).get(reader)
            if rd is None:
                continue
            c = reps.classifiers[n]
            found[n] = {p: interval(rd[p], sample_expected[p], level) for p in priors}
            for p in priors:
                tests.append(
                    {
                        "a": f"{key} ({n})",
                        "b": f"{n} lower envelope",
                        "prior": p,
                        "criterion": key,
                        "classifier": n,
                        "interval": interval(
                            rd[p] - c.expected[p],
                            sample_expected[p] - c.expected_estimate[p],
                            level,
                            test=True,
                        ),
                    }
                )
        if found:
            crit[key] = found
    return HybridInference(
        grid=grid,
        estimate=t,
        lower=lower,
        upper=upper,
        expected=expected,
        criteria=crit,
        tests=tests,
    )
