"""The build's fast paths give the same floats, to the last bit, as the straightforward code they
replace.

Speed work (issue 9, benchmarks/README.md "Example build time") must not move results.json: each
fast path is checked here against its reference on random inputs with ``==``, not ``isclose``.
"""

from __future__ import annotations

import numpy as np
import pytest

from ccreport.analysis import priors as pr


def _curve(rng, k):
    x = np.unique(np.concatenate(([0.0, 1.0], rng.random(k))))
    nec = rng.random(x.size) * 0.5
    return pr.curve_segments(x, nec)


@pytest.mark.parametrize(
    "ratio", [pr.LogUniform(1.0, 10.0), pr.Uniform(0.5, 4.0), pr.Uniform(0.0, 3.0), pr.Fixed(2.0)]
)
def test_inner_expectation_of_is_bit_identical(ratio):
    rng = np.random.default_rng(7)
    for k in (0, 1, 5, 40):
        x, alpha, beta = _curve(rng, k)
        inner = pr.inner_expectation_of(ratio, x, alpha, beta)
        for p in np.concatenate((rng.random(50), [1e-300, 1e-9, 0.5, 1.0 - 1e-16])):
            assert inner(float(p)) == pr.inner_expectation(float(p), ratio, x, alpha, beta)


def test_distinct_moment_weights_is_bit_identical():
    rng = np.random.default_rng(3)
    prior = pr.BetaPrior(2.0, 8.0)
    # tiled intervals of many curves, with shared switching points and zero-width intervals
    lo, hi = [], []
    for _ in range(30):
        cuts = np.sort(rng.choice(np.round(rng.random(12), 2), size=6))
        edges = np.concatenate(([0.0], cuts, [1.0]))
        lo.append(edges[:-1])
        hi.append(edges[1:])
    lo, hi = np.concatenate(lo), np.concatenate(hi)
    fast = pr.distinct_moment_weights(lo, hi, prior.cdf, prior.partial_moment)
    slow = pr.moment_weights(lo, hi, prior.cdf, prior.partial_moment)
    assert np.array_equal(fast[0], slow[0]) and np.array_equal(fast[1], slow[1])
    rep = np.repeat(np.arange(30), 7)
    wa, wb = prior.vertex_weights(lo, hi, rep)
    assert np.array_equal(wa, slow[0]) and np.array_equal(wb, slow[1])


def test_induced_expected_matches_reference_integrand():
    """InducedPrior.expected with the fast integrand equals the adaptive quadrature of the reference
    one."""
    from scipy import integrate

    prior = pr.InducedPrior(pr.Beta(3.0, 7.0), pr.LogUniform(1.0, 10.0))
    rng = np.random.default_rng(11)
    pc = np.concatenate(([0.0], np.sort(rng.random(8)), [1.0]))
    nec = np.minimum(pc, 1 - pc) * rng.random(pc.size)
    got = prior.expected(pc, nec)
    x, alpha, beta = pr.curve_segments(pc, nec)
    inner_x = x[(x > 0) & (x < 1)]
    kinks = np.unique(
        prior._u_of_p(
            np.concatenate([inner_x / (inner_x + r * (1 - inner_x)) for r in (1.0, 10.0)])
        )
    )
    edges = np.concatenate(([0.0], kinks[(kinks > 0) & (kinks < 1)], [1.0]))

    def reference(u):
        p = float(np.clip(prior._p_of_u(u), 1e-300, 1.0 - 1e-16))
        return pr.inner_expectation(p, prior.cost_ratio, x, alpha, beta)

    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        if hi > lo:
            total += integrate.quad(
                reference, lo, hi, epsabs=pr.QUAD_TOLERANCE, epsrel=1e-10, limit=200
            )[0]
    assert got == float(total)
