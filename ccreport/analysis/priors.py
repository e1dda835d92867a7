"""Distributions over the operating condition PC(+) and the exact expected cost under them.

Drummond & Holte 2006, section 3.2 (after Adams & Hand 1999), and Drummond & Holte 2000, Eq. 11:
the expected normalized cost of a cost curve ``nec(x)`` under a distribution ``prob(x)`` over
x = PC(+) is

    TEC = integral_0^1 nec(x) prob(x) dx,

which for the uniform distribution is the area under the curve. Cost curves here are piecewise
linear, ``nec(x) = alpha_k + beta_k x`` on [x_k, x_{k+1}], so

    TEC = sum_k alpha_k [F(x_{k+1}) - F(x_k)] + beta_k [M(x_{k+1}) - M(x_k)]

with F the CDF and M(x) = integral_0^x t prob(t) dt the partial first moment. Both are closed form
for the uniform (on [low, high]), beta (M(x) = a/(a+b) I_x(a+1, b)) and point priors.

An *induced* prior puts distributions on p(+) and on the cost ratio r = C(-|+)/C(+|-), which
induce one on PC(+) = p r / (p r + 1 - p). Given p, the inner expectation over r is closed form
(log-uniform r: PC = sigmoid(log r + logit p), whose integral is a softplus; uniform r: a
logarithm; fixed r: one point); the outer expectation over p is adaptive Gauss-Kronrod
quadrature (QUADPACK) in the probability scale u = F_p(p), split at every kink, to 1e-10.

Many curves at once (the bootstrap's replicates, the folds): every prior gives the weights of many
intervals of PC(+) in one call, :meth:`Prior.vertex_weights`, so that the expected cost of a curve
made of cost lines ``alpha_v + beta_v PC`` on intervals [lo_v, hi_v] is ``sum_v alpha_v wa_v +
beta_v wb_v`` (:mod:`ccreport.analysis.hull_costs`). A new kind of prior defines it here and nowhere
else.
"""

from __future__ import annotations

import functools
import logging
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np
from scipy import special

log = logging.getLogger("ccreport.analysis.priors")

QUAD_TOLERANCE = 1e-11
INDUCED_NODES = (
    128  # Gauss-Legendre nodes over p(+) of an induced prior's vertex weights (random p(+))
)
INDUCED_BLOCK = 2**18  # nodes x intervals evaluated at once by the rule: 2 MB per working array


def curve_segments(pc, nec):
    """Line coefficients (alpha, beta) of each segment of a piecewise-linear curve."""
    pc = np.asarray(pc, dtype=float)
    nec = np.asarray(nec, dtype=float)
    beta = np.diff(nec) / np.diff(pc)
    alpha = nec[:-1] - beta * pc[:-1]
    return pc, alpha, beta


class Prior(ABC):
    """A distribution over PC(+) in [0, 1]."""

    kind: str

    @abstractmethod
    def expected(self, pc, nec) -> float:
        """Exact expected value of the piecewise-linear curve with vertices (pc, nec)."""

    @abstractmethod
    def cdf(self, x):
        """P(PC(+) <= x), vectorised."""

    @abstractmethod
    def vertex_weights(
        self, lo, hi, rep, nodes: int | None = None, ends: EndPoints | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Weights (wa, wb) with E[(alpha_v + beta_v PC) 1{PC in [lo_v, hi_v]}] = alpha_v wa_v +
        beta_v wb_v.

        For many intervals at once: ``lo``/``hi`` flat arrays; ``rep`` the curve each interval
        belongs to (non-decreasing; one curve's intervals tile [0, 1] in order), so that mass on a
        shared end point is counted once per curve. ``nodes``: the size of the quadrature rule for
        priors that need one (``INDUCED_NODES`` when None); priors in closed form ignore it.
        ``ends``: :func:`end_points` of ``lo, hi`` when already known (several priors on the same
        intervals share them); priors that do not evaluate per distinct end point ignore it.
        """

    def density(self, x):
        """Density over PC(+) for drawing (None for a point mass)."""
        x = np.asarray(x, dtype=float)
        return np.gradient(self.cdf(x), x)

    @abstractmethod
    def describe(self) -> str:
        """A short human description, e.g. 'Beta(2, 8) on PC(+)'."""


def _moment_expectation(pc, nec, cdf, partial_moment) -> float:
    x, alpha, beta = curve_segments(pc, nec)
    f, m = cdf(x), partial_moment(x)
    return float(np.sum(alpha * np.diff(f) + beta * np.diff(m)))


def moment_weights(lo, hi, cdf, partial_moment):
    """Vertex weights ([F], [M]) of a prior with a CDF F and partial first moment M."""
    return cdf(hi) - cdf(lo), partial_moment(hi) - partial_moment(lo)


@dataclass(frozen=True, eq=False)
class EndPoints:
    """The distinct end points of many intervals [lo, hi]: ``x`` sorted distinct values,
    ``lo``/``hi`` the position of each interval's end points in ``x`` (``x[lo]`` is the intervals'
    lo)."""

    x: np.ndarray
    lo: np.ndarray
    hi: np.ndarray


def end_points(lo, hi) -> EndPoints:
    """:class:`EndPoints` of flat arrays ``lo``, ``hi``: one sort of both, once for every prior
    evaluated on the same intervals (:func:`ccreport.analysis.hull_costs.hull_curves`)."""
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    x = np.unique(np.concatenate((lo, hi)))
    return EndPoints(x=x, lo=np.searchsorted(x, lo), hi=np.searchsorted(x, hi))


def distinct_moment_weights(lo, hi, cdf, partial_moment, ends: EndPoints | None = None):
    """:func:`moment_weights` with F and M evaluated once per distinct end point, for priors whose
    F and M are costly (the regularized incomplete beta function): a hull vertex's ``hi`` is the
    next vertex's ``lo``, and bootstrap replicates share most switching points. The same values as
    :func:`moment_weights`, to the last bit. ``ends``: :func:`end_points` of ``lo, hi`` if known."""
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    if lo.ndim != 1 or lo.shape != hi.shape:
        return moment_weights(lo, hi, cdf, partial_moment)
    ends = end_points(lo, hi) if ends is None else ends
    f, m = cdf(ends.x), partial_moment(ends.x)
    return f[ends.hi] - f[ends.lo], m[ends.hi] - m[ends.lo]


@dataclass(frozen=True)
class UniformPrior(Prior):
    """Uniform on [low, high] within [0, 1]; on [0, 1] the expectation is the area under the
    curve."""

    low: float = 0.0
    high: float = 1.0
    kind = "uniform"

    def __post_init__(self):
        if not (0.0 <= self.low < self.high <= 1.0):
            raise ValueError(
                f"uniform prior needs 0 <= low < high <= 1, got low={self.low}, high={self.high}"
            )

    def cdf(self, x):
        return np.clip((np.asarray(x, dtype=float) - self.low) / (self.high - self.low), 0.0, 1.0)

    def partial_moment(self, x):
        x = np.clip(np.asarray(x, dtype=float), self.low, self.high)
        return (x**2 - self.low**2) / (2.0 * (self.high - self.low))

    def expected(self, pc, nec) -> float:
        return _moment_expectation(pc, nec, self.cdf, self.partial_moment)

    def vertex_weights(self, lo, hi, rep, nodes: int | None = None, ends: EndPoints | None = None):
        return moment_weights(lo, hi, self.cdf, self.partial_moment)

    def density(self, x):
        x = np.asarray(x, dtype=float)
        return np.where((x >= self.low) & (x <= self.high), 1.0 / (self.high - self.low), 0.0)

    def describe(self) -> str:
        if (self.low, self.high) == (0.0, 1.0):
            return "Uniform on PC(+) in [0, 1] (area under the cost curve)"
        return f"Uniform on PC(+) in [{self.low:g}, {self.high:g}]"


@dataclass(frozen=True)
class BetaPrior(Prior):
    """Beta(a, b) on PC(+); F(x) = I_x(a, b) and M(x) = a / (a + b) I_x(a + 1, b)."""

    a: float
    b: float
    kind = "beta"

    def __post_init__(self):
        if not (self.a > 0 and self.b > 0 and math.isfinite(self.a) and math.isfinite(self.b)):
            raise ValueError(f"beta prior needs finite a > 0 and b > 0, got a={self.a}, b={self.b}")

    def cdf(self, x):
        return special.betainc(self.a, self.b, np.clip(np.asarray(x, dtype=float), 0.0, 1.0))

    def partial_moment(self, x):
        x = np.clip(np.asarray(x, dtype=float), 0.0, 1.0)
        return self.a / (self.a + self.b) * special.betainc(self.a + 1.0, self.b, x)

    def expected(self, pc, nec) -> float:
        return _moment_expectation(pc, nec, self.cdf, self.partial_moment)

    def vertex_weights(self, lo, hi, rep, nodes: int | None = None, ends: EndPoints | None = None):
        return distinct_moment_weights(lo, hi, self.cdf, self.partial_moment, ends)

    def density(self, x):
        x = np.asarray(x, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_pdf = (
                special.xlogy(self.a - 1.0, x)
                + special.xlog1py(self.b - 1.0, -x)
                - special.betaln(self.a, self.b)
            )
        return np.where((x >= 0) & (x <= 1), np.exp(log_pdf), 0.0)

    def describe(self) -> str:
        return f"Beta({self.a:g}, {self.b:g}) on PC(+), mean {self.a / (self.a + self.b):.3g}"


@dataclass(frozen=True)
class PointPrior(Prior):
    """All mass at one operating condition PC(+) = pc: the expectation is the curve's value there.

    ``cost_ratio``: the class-level ratio C(-|+)/C(+|-) it was built from, when given that way
    (recorded only; instance-cost analyses leave such priors out).
    """

    pc: float
    cost_ratio: float | None = None
    kind = "point"

    def __post_init__(self):
        if not (0.0 <= self.pc <= 1.0):
            raise ValueError(f"point prior needs 0 <= pc <= 1, got {self.pc}")

    def expected(self, pc, nec) -> float:
        return float(np.interp(self.pc, pc, nec))

    def cdf(self, x):
        return (np.asarray(x, dtype=float) >= self.pc).astype(float)

    def vertex_weights(self, lo, hi, rep, nodes: int | None = None, ends: EndPoints | None = None):
        """The first interval of each curve that holds the point gets (1, pc), the others (0, 0)."""
        inside = np.flatnonzero((lo <= self.pc) & (self.pc <= hi))
        first = inside[np.flatnonzero(np.diff(rep[inside], prepend=-1))]
        wa = np.zeros(lo.size)
        wa[first] = 1.0
        return wa, wa * self.pc

    def density(self, x):
        return None

    def describe(self) -> str:
        return f"Point mass at PC(+) = {self.pc:.4g}"


# --- induced priors: a distribution over p(+) and one over the cost ratio -----------------------


@dataclass(frozen=True)
class Fixed:
    """A known value (of p(+) or of the cost ratio)."""

    value: float


@dataclass(frozen=True)
class Uniform:
    low: float
    high: float


@dataclass(frozen=True)
class LogUniform:
    """log r uniform on [log low, log high]: equal weight to each order of magnitude of the cost
    ratio."""

    low: float
    high: float


@dataclass(frozen=True)
class Beta:
    a: float
    b: float


def _ratio_bounds(ratio) -> tuple[float, ...]:
    return (ratio.value,) if isinstance(ratio, Fixed) else (ratio.low, ratio.high)


CDF_NODES = 400  # Gauss-Legendre nodes of InducedPrior.cdf (drawing)


@functools.lru_cache(maxsize=4)
def _gauss_legendre(n: int):
    """The n-point Gauss-Legendre rule on [-1, 1], computed once per process (an eigenvalue problem:
    ~0.05 s at n = 400, seconds when a multi-threaded BLAS competes for busy cores)."""
    return np.polynomial.legendre.leggauss(n)


def _logit(x):
    with np.errstate(divide="ignore"):
        return np.log(x) - np.log1p(-x)


def interval_weights(p, ratio, lo, hi, logit_lo=None, logit_hi=None):
    """Weights (wa, wb) with E_r[(alpha + beta PC(p, r)) 1{PC in [lo, hi]}] = alpha wa + beta wb,
    for one p(+) and each interval [lo, hi] of PC(+), in closed form (``p`` a float, or a column
    (k, 1) of k values of p(+), giving (k, n) weights, one row per value): the interval is the cost
    ratios r in [rho(lo), rho(hi)], rho(x) = x / (1 - x) (1 - p) / p. A fixed r is a point mass at
    PC(p, r); for a log-uniform r, PC is a logistic function of log r and the integral a softplus;
    for a uniform r, p r / (p r + 1 - p) integrates to a logarithm. ``logit_lo``/``logit_hi``:
    logit(lo), logit(hi) when already known."""
    if isinstance(ratio, Fixed):
        q = 1.0 - p
        pc = p * ratio.value / (p * ratio.value + q)
        inside = ((lo <= pc) & (pc < hi) | ((hi == 1.0) & (pc == 1.0))).astype(float)
        return inside, inside * pc
    f_lo, m_lo = _ratio_terms(p, ratio, lo, logit_lo)
    f_hi, m_hi = _ratio_terms(p, ratio, hi, logit_hi)
    return _weights_of_terms(ratio, f_lo, m_lo, f_hi, m_hi)


def _ratio_terms(p, ratio, x, logit_x=None):
    """The two antiderivatives at the end points ``x`` of which :func:`interval_weights` takes
    differences, for a log-uniform or uniform cost ratio (before the division by the ratio's range).

    Log-uniform: s = clip(logit(x) - logit(p), log low, log high) and softplus(s + logit(p));
    uniform: r = clip(rho(x), low, high) and r - (q / p) log(p r + q). A function of each end point
    alone, so end points shared by many intervals are evaluated once
    (:meth:`InducedPrior.vertex_weights`).
    """
    q = 1.0 - p
    if isinstance(ratio, LogUniform):
        a, b = np.log(ratio.low), np.log(ratio.high)
        c = np.log(p / q)  # log r = logit(PC) - c
        s = np.clip((_logit(x) if logit_x is None else logit_x) - c, a, b)
        return s, np.logaddexp(0.0, s + c)
    with np.errstate(divide="ignore"):
        r = x / (1.0 - x) * q / p
    r = np.clip(np.nan_to_num(r, posinf=ratio.high), ratio.low, ratio.high)
    return r, r - (q / p) * np.log(p * r + q)  # the antiderivative of p r / (p r + q)


def _weights_of_terms(ratio, f_lo, m_lo, f_hi, m_hi):
    """(wa, wb) of intervals from :func:`_ratio_terms` at their two end points."""
    span = (
        np.log(ratio.high) - np.log(ratio.low)
        if isinstance(ratio, LogUniform)
        else ratio.high - ratio.low
    )
    return (f_hi - f_lo) / span, (m_hi - m_lo) / span


def inner_expectation(p: float, ratio, x, alpha, beta) -> float:
    """E_r[nec(PC(p, r))] for one p: the curve's segments [x_k, x_k+1] with
    :func:`interval_weights`."""
    wa, wb = interval_weights(p, ratio, x[:-1], x[1:])
    return float(np.sum(alpha * wa + beta * wb))


def inner_expectation_of(ratio, x, alpha, beta):
    """:func:`inner_expectation` as a function of p alone, for the thousands of p an adaptive
    quadrature asks for: what depends only on the curve's end points ``x`` (their logit, or
    x / (1 - x)) is computed once, and each end point's antiderivatives once per p, not once per
    adjacent segment. The same floating-point operations on the same values, so the same result
    to the last bit (tested)."""
    if isinstance(ratio, Fixed):
        return lambda p: inner_expectation(p, ratio, x, alpha, beta)
    span = (
        np.log(ratio.high) - np.log(ratio.low)
        if isinstance(ratio, LogUniform)
        else ratio.high - ratio.low
    )
    if isinstance(ratio, LogUniform):
        a, b = np.log(ratio.low), np.log(ratio.high)
        logit_x = _logit(x)

        def inner(
            p: float,
        ) -> float:  # np.clip and np.sum as the ufuncs they call (their wrappers cost more)
            c = np.log(p / (1.0 - p))
            f = np.minimum(np.maximum(logit_x - c, a), b)  # no NaN here: np.clip's values
            m = np.logaddexp(0.0, f + c)
            return float(
                (alpha * ((f[1:] - f[:-1]) / span) + beta * ((m[1:] - m[:-1]) / span)).sum()
            )

        return inner
    with np.errstate(divide="ignore"):
        odds = x / (1.0 - x)

    def inner(p: float) -> float:
        q = 1.0 - p
        f = np.clip(np.nan_to_num(odds * q / p, posinf=ratio.high), ratio.low, ratio.high)
        m = f - (q / p) * np.log(p * f + q)
        return float((alpha * ((f[1:] - f[:-1]) / span) + beta * ((m[1:] - m[:-1]) / span)).sum())

    return inner


@dataclass(frozen=True)
class InducedPrior(Prior):
    """The distribution of PC(+) = p r / (p r + 1 - p) for random p(+) and cost ratio r."""

    p_positive: Fixed | Uniform | Beta
    cost_ratio: Fixed | Uniform | LogUniform
    kind = "induced"

    def __post_init__(self):
        p, r = self.p_positive, self.cost_ratio
        if isinstance(p, Fixed) and not 0.0 < p.value < 1.0:
            raise ValueError("p_positive must be in (0, 1)")
        if isinstance(p, Uniform) and not 0.0 <= p.low < p.high <= 1.0:
            raise ValueError("p_positive uniform needs 0 <= low < high <= 1")
        if isinstance(p, Beta) and not (p.a > 0 and p.b > 0):
            raise ValueError("p_positive beta needs a > 0 and b > 0")
        if isinstance(r, Fixed) and not (0.0 < r.value < math.inf):
            raise ValueError("cost_ratio must be finite and > 0")
        if isinstance(r, LogUniform) and not 0.0 < r.low < r.high < math.inf:
            raise ValueError("cost_ratio loguniform needs 0 < low < high")
        if isinstance(r, Uniform) and not 0.0 <= r.low < r.high < math.inf:
            raise ValueError("cost_ratio uniform needs 0 <= low < high")

    # p as a function of the probability scale u in (0, 1), and back
    def _p_of_u(self, u):
        p = self.p_positive
        if isinstance(p, Beta):
            return special.betaincinv(p.a, p.b, u)
        return p.low + u * (p.high - p.low)

    def _u_of_p(self, p_value):
        p = self.p_positive
        if isinstance(p, Beta):
            return special.betainc(p.a, p.b, p_value)
        return np.clip((p_value - p.low) / (p.high - p.low), 0.0, 1.0)

    def expected(self, pc, nec) -> float:
        """Adaptive quadrature over p(+) (module docstring). Remembered per process for the last
        ``EXPECTED_CACHE`` curves (the same classifier's curve is asked for by its own task and by
        every pair it is in): a pure function of the prior and the curve's exact values."""
        pc, nec = np.asarray(pc, dtype=float), np.asarray(nec, dtype=float)
        if pc.ndim != 1 or pc.shape != nec.shape:
            return self._expected(pc, nec)
        return remembered_expected(self, pc.tobytes(), nec.tobytes())

    def _expected(self, pc, nec) -> float:
        x, alpha, beta = curve_segments(pc, nec)
        if isinstance(self.p_positive, Fixed):
            return inner_expectation(self.p_positive.value, self.cost_ratio, x, alpha, beta)
        inner_x = x[(x > 0) & (x < 1)]
        kinks_p = np.concatenate(
            [inner_x / (inner_x + rho * (1.0 - inner_x)) for rho in _ratio_bounds(self.cost_ratio)]
        )
        kinks_u = np.unique(self._u_of_p(kinks_p))
        kinks_u = kinks_u[(kinks_u > 0) & (kinks_u < 1)]
        edges = np.concatenate(([0.0], kinks_u, [1.0]))
        tiny = 1e-300
        inner = inner_expectation_of(self.cost_ratio, x, alpha, beta)

        def integrand(
            u: float,
        ) -> float:  # np.clip of one positive float, without its array machinery
            return inner(min(max(float(self._p_of_u(u)), tiny), 1.0 - 1e-16))

        return float(
            sum(quadrature(integrand, lo, hi) for lo, hi in zip(edges[:-1], edges[1:]) if hi > lo)
        )

    def vertex_weights(self, lo, hi, rep, nodes: int | None = None, ends: EndPoints | None = None):
        """Vertex weights: the inner expectation over the cost ratio in closed form per interval
        (:func:`interval_weights`), the outer one over a random p(+) by a fixed ``nodes``-point
        Gauss-Legendre rule in the probability scale u = F_p(p) (``INDUCED_NODES`` by default)
        instead of the adaptive quadrature of :meth:`expected`.

        The integrand is C^1 in u (C^0 for a fixed cost ratio); the rule agrees with
        :meth:`expected` to about 1e-6 or better (tested), far below the bootstrap's Monte Carlo
        error. Being one fixed linear functional of the curve, it keeps "expected cost of the
        average = average of the expected costs" exact.

        A log-uniform or uniform cost ratio's weights are differences of two antiderivatives at the
        interval's end points (:func:`_ratio_terms`), so the rule's weighted sum over the nodes is
        taken once per distinct end point (``ends``: bootstrap replicates share most of them), and
        an interval's weights are the difference of its end points' sums:
        ``wa = (sum_k w_k f_k(hi) - sum_k w_k f_k(lo)) / span``, (nodes, end points) arrays in
        blocks of ``INDUCED_BLOCK`` elements. Mathematically the node-by-node sum of
        :func:`interval_weights`; in floating point within a few 1e-16 of it (tested). A fixed cost
        ratio (an indicator of PC(p, r) in the interval) is summed node by node once per distinct
        interval.
        """
        if isinstance(self.p_positive, Fixed):
            return interval_weights(self.p_positive.value, self.cost_ratio, lo, hi)
        u, weights = _gauss_legendre(nodes or INDUCED_NODES)
        ps = np.clip(self._p_of_u((u + 1.0) / 2.0), 1e-300, 1.0 - 1e-16)[
            :, None
        ]  # a column: (nodes, 1)
        w = (weights / 2.0)[:, None]
        lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
        ratio = self.cost_ratio
        ends = end_points(lo, hi) if ends is None else ends
        step = max(1, INDUCED_BLOCK // ps.size)
        if isinstance(
            ratio, Fixed
        ):  # node by node (rows of a C-order array), bit for bit, per distinct interval
            pairs, back = np.unique(ends.lo * ends.x.size + ends.hi, return_inverse=True)
            wa, wb = np.empty(pairs.size), np.empty(pairs.size)
            for start in range(0, pairs.size, step):
                part = pairs[start : start + step]
                a, b = interval_weights(
                    ps, ratio, ends.x[part // ends.x.size], ends.x[part % ends.x.size]
                )
                wa[start : start + step], wb[start : start + step] = (
                    (w * a).sum(axis=0),
                    (w * b).sum(axis=0),
                )
            return wa[back], wb[back]
        f_sum, m_sum = np.empty(ends.x.size), np.empty(ends.x.size)
        for start in range(
            0, ends.x.size, step
        ):  # blocks of end points bound the memory, not a loop over nodes
            part = slice(start, start + step)
            f, m = _ratio_terms(ps, ratio, ends.x[part])  # (nodes, end points)
            f_sum[part] = (w * f).sum(axis=0)
            m_sum[part] = (w * m).sum(axis=0)
        return _weights_of_terms(
            ratio, f_sum[ends.lo], m_sum[ends.lo], f_sum[ends.hi], m_sum[ends.hi]
        )

    def cdf(self, x):
        """P(PC <= x) = E_p[F_r(x (1 - p) / ((1 - x) p))], by Gauss-Legendre in the u scale
        (for drawing)."""
        x = np.atleast_1d(np.asarray(x, dtype=float))
        if isinstance(self.p_positive, Fixed):
            p = np.array([self.p_positive.value])
            weights = np.array([1.0])
        else:
            nodes, weights = _gauss_legendre(CDF_NODES)
            u = (nodes + 1.0) / 2.0
            weights = weights / 2.0
            p = np.clip(self._p_of_u(u), 1e-300, 1.0 - 1e-16)
        with np.errstate(divide="ignore", invalid="ignore"):
            r_needed = (x[:, None] / (1.0 - x[:, None])) * ((1.0 - p) / p)[None, :]
        return np.clip(_ratio_cdf(self.cost_ratio, r_needed) @ weights, 0.0, 1.0)

    def describe(self) -> str:
        return (
            f"Induced by p(+) ~ {_describe(self.p_positive)} and cost ratio C(-|+)/C(+|-) ~ "
            f"{_describe(self.cost_ratio)}"
        )


EXPECTED_CACHE = 256  # induced-prior expected costs remembered per process (InducedPrior.expected)


def quadrature(integrand, lo: float, hi: float) -> float:
    """integral_lo^hi integrand(u) du on one smooth piece [lo, hi] of an induced prior's integrand
    (between two kinks; the integrand is an expected normalized cost, in [0, max nec]).

    A piece no wider than ``QUAD_TOLERANCE`` is one midpoint, (hi - lo) integrand((lo + hi) / 2):
    its error is at most (hi - lo) times the integrand's range on it, within the tolerance asked of
    the quadrature. Such pieces occur where many kinks in p(+) map to a few ulps of u near 0 or 1
    (a beta p(+) and an envelope of hundreds of vertices, as from 10^5 rows and more); there
    QUADPACK can only report roundoff.

    Wider pieces: QUADPACK's adaptive Gauss-Kronrod rule (``scipy.integrate.quad``, absolute
    tolerance ``QUAD_TOLERANCE``, relative 1e-10, at most 200 subintervals). Where it reports that
    it did not reach the tolerance (``ier`` > 0: the subdivision limit, roundoff) its estimate is
    kept and a debug note on this module's logger says the error bound it reached; SciPy's
    ``IntegrationWarning`` is not raised, so no library wording reaches the terminal."""
    if hi - lo <= QUAD_TOLERANCE:
        return (hi - lo) * integrand(0.5 * (lo + hi))
    from scipy import integrate  # imported when first needed: only induced priors integrate

    value, error, info, *message = integrate.quad(
        integrand, lo, hi, epsabs=QUAD_TOLERANCE, epsrel=1e-10, limit=200, full_output=1
    )
    if message:
        log.debug(
            "induced prior: the expected cost's integral over [%.17g, %.17g] reached an "
            "estimated error of %.1e (asked %.0e) in %d subintervals: %s",
            lo,
            hi,
            error,
            QUAD_TOLERANCE,
            info["last"],
            message[0].splitlines()[0],
        )
    return value


@functools.lru_cache(maxsize=EXPECTED_CACHE)
def remembered_expected(prior: InducedPrior, pc: bytes, nec: bytes) -> float:
    """:meth:`InducedPrior.expected` of the curve whose vertices' float64 bytes are ``pc``, ``nec``,
    computed once per process (``cache_info``/``cache_clear`` as :func:`functools.lru_cache`)."""
    return prior._expected(np.frombuffer(pc), np.frombuffer(nec))


def _ratio_cdf(ratio, r):
    r = np.nan_to_num(r, nan=np.inf, posinf=np.inf)
    if isinstance(ratio, Fixed):
        return (r >= ratio.value).astype(float)
    if isinstance(ratio, LogUniform):
        with np.errstate(divide="ignore"):
            return np.clip(
                (np.log(r) - math.log(ratio.low)) / (math.log(ratio.high) - math.log(ratio.low)),
                0,
                1,
            )
    return np.clip((r - ratio.low) / (ratio.high - ratio.low), 0, 1)


def _describe(dist) -> str:
    if isinstance(dist, Fixed):
        return f"{dist.value:g}"
    if isinstance(dist, Beta):
        return f"Beta({dist.a:g}, {dist.b:g})"
    name = "LogUniform" if isinstance(dist, LogUniform) else "Uniform"
    return f"{name}[{dist.low:g}, {dist.high:g}]"


def expected_cost(curve, prior: Prior) -> float:
    """Expected normalized cost of a cost curve (an Envelope or ``(pc, nec)``) under ``prior``."""
    pc, nec = (curve.pc, curve.nec) if hasattr(curve, "pc") else curve
    return prior.expected(pc, nec)
