"""Expected normalized cost under priors over PC(+) (D&H 2006 section 3.2; D&H 2000 Eq. 11)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats
from test_roc import labelled_scores

from ccreport.analysis import priors as pr
from ccreport.analysis.envelope import lower_envelope
from ccreport.analysis.roc import roc_points

FIG1 = lower_envelope(np.array([0.4]), np.array([0.8]))  # vertices (0,0) (1/3,1/3) (3/4,1/4) (1,0)


def curve(env):
    return lambda x: np.interp(x, env.pc, env.nec)


def test_uniform_is_area_fig1():
    # Area by hand: 1/18 + 35/288 + 1/32 = 5/24.
    assert pr.UniformPrior().expected(FIG1.pc, FIG1.nec) == pytest.approx(5 / 24, abs=1e-15)
    assert FIG1.area == pytest.approx(5 / 24, abs=1e-15)


def test_uniform_sub_range_by_hand():
    # On [0.25, 0.5]: nec = x up to 1/3 then 1/3 + (x - 1/3) * (-1/5) ...; integrate piecewise by
    # hand.
    first = (1 / 3**2 - 0.25**2) / 2  # integral of x on [0.25, 1/3]

    def line(x):
        return 1 / 3 + (x - 1 / 3) * ((0.25 - 1 / 3) / (0.75 - 1 / 3))

    second = (0.5 - 1 / 3) * (line(1 / 3) + line(0.5)) / 2
    assert pr.UniformPrior(0.25, 0.5).expected(FIG1.pc, FIG1.nec) == pytest.approx(
        (first + second) / 0.25, abs=1e-14
    )


def test_point_prior_is_the_curve_value():
    # Fig. 1's line at PC(+) = 0.5: FNR pc + FPR (1 - pc) = 0.2 * 0.5 + 0.4 * 0.5, under both
    # trivial lines
    assert pr.PointPrior(0.5).expected(FIG1.pc, FIG1.nec) == pytest.approx(0.3)
    assert pr.PointPrior(0.0).expected(FIG1.pc, FIG1.nec) == 0.0


@settings(max_examples=60, deadline=None)
@given(labelled_scores(max_size=30), st.floats(0.2, 20), st.floats(0.2, 20))
def test_beta_closed_form_matches_quadrature(data, a, b):
    env = lower_envelope(roc_points(*data))
    f = curve(env)
    reference, _ = integrate.quad(
        lambda x: f(x) * stats.beta.pdf(x, a, b), 0, 1, points=env.pc[1:-1], limit=500, epsabs=1e-13
    )
    assert pr.BetaPrior(a, b).expected(env.pc, env.nec) == pytest.approx(reference, abs=1e-8)


def test_beta_one_one_is_uniform():
    env = lower_envelope(
        roc_points(np.array([1, 0, 1, 1, 0], bool), np.array([0.9, 0.8, 0.6, 0.3, 0.1]))
    )
    assert pr.BetaPrior(1, 1).expected(env.pc, env.nec) == pytest.approx(env.area, abs=1e-15)


def _induced_reference(env, p_pdf, p_range, r_pdf, r_range):
    """Double integral over p and r of nec(PC(p, r)), independent of the closed forms."""
    f = curve(env)

    def inner(p):
        def g(r):
            return f(p * r / (p * r + 1 - p)) * r_pdf(r)

        breaks = [x * (1 - p) / ((1 - x) * p) for x in env.pc[1:-1]]
        breaks = [t for t in breaks if r_range[0] < t < r_range[1]]
        return integrate.quad(g, *r_range, points=breaks or None, limit=500, epsabs=1e-13)[0]

    return integrate.quad(lambda p: inner(p) * p_pdf(p), *p_range, limit=500, epsabs=1e-12)[0]


@pytest.mark.parametrize(
    "p_dist, p_pdf, p_range",
    [
        (pr.Beta(3, 7), lambda p: stats.beta.pdf(p, 3, 7), (0, 1)),
        (pr.Uniform(0.2, 0.5), lambda p: 1 / 0.3, (0.2, 0.5)),
    ],
)
@pytest.mark.parametrize(
    "r_dist, r_pdf, r_range",
    [
        (pr.LogUniform(1, 10), lambda r: 1 / (r * np.log(10)), (1, 10)),
        (pr.Uniform(0.5, 4), lambda r: 1 / 3.5, (0.5, 4)),
    ],
)
def test_induced_prior_matches_double_quadrature(p_dist, p_pdf, p_range, r_dist, r_pdf, r_range):
    y = np.array([1, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1], bool)
    env = lower_envelope(roc_points(y, np.array([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1.0])))
    value = pr.InducedPrior(p_dist, r_dist).expected(env.pc, env.nec)
    assert value == pytest.approx(_induced_reference(env, p_pdf, p_range, r_pdf, r_range), abs=1e-9)


def test_induced_with_fixed_parts():
    # Both fixed: a point mass at PC(+) = 0.3 * 5 / (0.3 * 5 + 0.7).
    point = pr.InducedPrior(pr.Fixed(0.3), pr.Fixed(5.0)).expected(FIG1.pc, FIG1.nec)
    assert point == pytest.approx(FIG1(1.5 / 2.2))
    # Fixed cost ratio, beta p: one quadrature over p.
    value = pr.InducedPrior(pr.Beta(2, 5), pr.Fixed(5.0)).expected(FIG1.pc, FIG1.nec)
    ref = integrate.quad(
        lambda p: FIG1(5 * p / (5 * p + 1 - p)) * stats.beta.pdf(p, 2, 5), 0, 1, limit=200
    )[0]
    assert value == pytest.approx(ref, abs=1e-9)


def test_induced_cdf_is_a_distribution():
    prior = pr.InducedPrior(pr.Beta(3, 7), pr.LogUniform(1, 10))
    x = np.linspace(0, 1, 201)
    F = prior.cdf(x)
    assert F[0] == pytest.approx(0, abs=1e-9) and F[-1] == pytest.approx(1, abs=1e-9)
    assert np.all(np.diff(F) >= -1e-12)
    # median check by simulation-free inversion: P(PC <= 0.5) = P(p r <= 1 - p)
    ref = integrate.quad(
        lambda p: stats.beta.pdf(p, 3, 7) * np.clip(np.log((1 - p) / p) / np.log(10), 0, 1), 0, 1
    )[0]
    assert prior.cdf(np.array([0.5]))[0] == pytest.approx(ref, abs=1e-6)


@pytest.mark.parametrize(
    "make",
    [
        lambda: pr.UniformPrior(0.5, 0.5),
        lambda: pr.UniformPrior(-0.1, 1),
        lambda: pr.BetaPrior(0, 1),
        lambda: pr.BetaPrior(1, float("inf")),
        lambda: pr.PointPrior(1.5),
        lambda: pr.InducedPrior(pr.Fixed(1.0), pr.Fixed(1.0)),
        lambda: pr.InducedPrior(pr.Beta(1, 1), pr.LogUniform(0, 1)),
    ],
)
def test_invalid_parameters_are_rejected(make):
    with pytest.raises(ValueError):
        make()


def test_expected_cost_accepts_envelope_or_arrays():
    assert pr.expected_cost(FIG1, pr.UniformPrior()) == pr.expected_cost(
        (FIG1.pc, FIG1.nec), pr.UniformPrior()
    )
    assert pr.expected_cost(FIG1, pr.UniformPrior()) == pytest.approx(
        5 / 24, abs=1e-15
    )  # area, worked above


def test_zero_cost_curve():
    # A perfect classifier costs nothing under every prior.
    pc, nec = np.array([0.0, 1.0]), np.array([0.0, 0.0])
    for prior in [
        pr.UniformPrior(),
        pr.BetaPrior(0.5, 0.5),
        pr.PointPrior(0.3),
        pr.InducedPrior(pr.Beta(2, 2), pr.LogUniform(1, 5)),
    ]:
        assert prior.expected(pc, nec) == pytest.approx(0.0, abs=1e-15)


# --- vertex weights: every prior integrates many curves at once -----------------------------------

VERTEX_PRIORS = [
    pr.UniformPrior(),
    pr.UniformPrior(0.2, 0.7),
    pr.BetaPrior(2.0, 5.0),
    pr.PointPrior(0.37),
    pr.PointPrior(1 / 3),  # on a vertex of Fig. 1's curve: counted once
    pr.InducedPrior(pr.Fixed(0.3), pr.LogUniform(0.2, 5.0)),
    pr.InducedPrior(pr.Fixed(0.3), pr.Fixed(2.0)),
    pr.InducedPrior(pr.Beta(3.0, 7.0), pr.LogUniform(1.0, 10.0)),
    pr.InducedPrior(pr.Uniform(0.1, 0.6), pr.Uniform(0.5, 3.0)),
]


def _random_curves(rng, count: int) -> list:
    """``count`` random piecewise-linear curves over [0, 1] with 2 to 7 vertices."""
    curves = []
    for _ in range(count):
        pc = np.concatenate(([0.0], np.sort(rng.uniform(size=int(rng.integers(1, 6)))), [1.0]))
        curves.append((pc, rng.uniform(0, 0.5, size=pc.size)))
    return curves


def _per_curve_weights(curves, prior) -> np.ndarray:
    """sum_v alpha_v wa_v + beta_v wb_v over each curve's segments, the segments built curve by
    curve and tagged ``rep = c`` (one ``vertex_weights`` call for all)."""
    lo = np.concatenate([pc[:-1] for pc, _ in curves])
    hi = np.concatenate([pc[1:] for pc, _ in curves])
    beta = np.concatenate([np.diff(nec) / np.diff(pc) for pc, nec in curves])
    alpha = np.concatenate([nec[:-1] for _, nec in curves]) - beta * lo
    rep = np.repeat(np.arange(len(curves)), [pc.size - 1 for pc, _ in curves])
    wa, wb = prior.vertex_weights(lo, hi, rep)
    return np.bincount(rep, weights=alpha * wa + beta * wb, minlength=len(curves))


@pytest.mark.parametrize("prior", VERTEX_PRIORS, ids=lambda p: p.describe())
def test_vertex_weights_give_each_curves_expected_cost(prior):
    """sum_v alpha_v wa_v + beta_v wb_v over one curve's segments is ``prior.expected`` of the
    curve, for several curves in one call (the segments of curve c tagged ``rep = c``)."""
    curves = [(FIG1.pc, FIG1.nec)] + _random_curves(np.random.default_rng(3), 3)
    got = _per_curve_weights(curves, prior)
    tol = (
        1e-6
        if isinstance(prior, pr.InducedPrior) and not isinstance(prior.p_positive, pr.Fixed)
        else 1e-12
    )
    for c, (pc, nec) in enumerate(curves):
        assert got[c] == pytest.approx(prior.expected(pc, nec), abs=tol)


@pytest.mark.parametrize("prior", VERTEX_PRIORS, ids=lambda p: p.describe())
def test_curves_expected_is_the_per_curve_formula_to_the_bit(prior):
    """hull_costs.curves_expected lays the curves end to end; the same numbers as building each
    curve's segments apart (the formula above), including one-point curves (no segment: 0) and
    curves that share a grid."""
    from ccreport.analysis.hull_costs import curves_expected

    rng = np.random.default_rng(11)
    grid = np.linspace(0.0, 1.0, 41)
    curves = [(FIG1.pc, FIG1.nec), (np.array([0.4]), np.array([0.2]))]
    curves += [(grid, rng.uniform(0, 0.5, grid.size)) for _ in range(3)] + _random_curves(rng, 4)
    got = curves_expected(curves, prior)
    assert got.tobytes() == _per_curve_weights(curves, prior).tobytes()
    assert got[1] == 0.0


def test_a_prior_kind_must_give_its_vertex_weights():
    """A new kind of prior is incomplete without ``vertex_weights`` (the bootstrap and the fold
    averages integrate through it), so it cannot be created."""

    class NoWeights(pr.Prior):
        kind = "incomplete"

        def expected(self, pc, nec):
            return 0.0

        def cdf(self, x):
            return np.zeros_like(x)

        def describe(self):
            return "incomplete"

    with pytest.raises(TypeError, match="vertex_weights"):
        NoWeights()


@pytest.mark.parametrize(
    "prior",
    [
        pr.InducedPrior(pr.Beta(3.0, 7.0), pr.LogUniform(1.0, 10.0)),
        pr.InducedPrior(pr.Uniform(0.1, 0.6), pr.Uniform(0.5, 3.0)),
        pr.InducedPrior(pr.Uniform(0.0, 1.0), pr.Fixed(2.0)),
    ],
    ids=lambda p: p.describe(),
)
@pytest.mark.parametrize("nodes", [None, 32])
@pytest.mark.parametrize(
    "block", [4096, 256]
)  # end points' terms evaluated all at once / block by block
def test_induced_vertex_weights_are_the_node_by_node_sum(prior, nodes, block, monkeypatch):
    """All nodes at once, once per distinct end point (or, for a fixed cost ratio, per distinct
    interval), in blocks: the numbers of summing one :func:`interval_weights` call per
    Gauss-Legendre node, node after node (to the last bit for a fixed cost ratio; within a few
    1e-16 otherwise, where the sum over the nodes is taken per end point and differenced), the
    same bits whatever the block size, and with the distinct end points given (:func:`end_points`,
    shared by several priors) the same again."""
    from scipy import special

    rng = np.random.default_rng(5)
    grid = np.round(rng.uniform(size=40), 2)  # few distinct end points, shared by many intervals
    cuts = np.sort(rng.choice(np.concatenate((grid, [0.0, 1.0])), size=(3000, 2)), axis=1)
    lo, hi = cuts[:, 0], cuts[:, 1]
    k = nodes or pr.INDUCED_NODES
    u, weights = np.polynomial.legendre.leggauss(k)
    p_dist = prior.p_positive
    if isinstance(p_dist, pr.Beta):
        ps = special.betaincinv(p_dist.a, p_dist.b, (u + 1.0) / 2.0)
    else:
        ps = p_dist.low + (u + 1.0) / 2.0 * (p_dist.high - p_dist.low)
    ps = np.clip(ps, 1e-300, 1.0 - 1e-16)
    want_a, want_b = np.zeros(lo.size), np.zeros(lo.size)
    for p, w in zip(ps, weights / 2.0):
        a, b = pr.interval_weights(float(p), prior.cost_ratio, lo, hi)
        want_a += w * a
        want_b += w * b
    got_a, got_b = prior.vertex_weights(lo, hi, np.zeros(lo.size, dtype=np.int64), nodes)
    if isinstance(prior.cost_ratio, pr.Fixed):
        assert got_a.tobytes() == want_a.tobytes() and got_b.tobytes() == want_b.tobytes()
    else:
        np.testing.assert_allclose(got_a, want_a, rtol=0, atol=4e-15)
        np.testing.assert_allclose(got_b, want_b, rtol=0, atol=4e-15)
        assert np.all(got_a[lo == hi] == 0) and np.all(
            got_b[lo == hi] == 0
        )  # empty intervals weigh exactly 0
    monkeypatch.setattr(pr, "INDUCED_BLOCK", block)  # several blocks
    blocked = prior.vertex_weights(lo, hi, np.zeros(lo.size, dtype=np.int64), nodes)
    assert blocked[0].tobytes() == got_a.tobytes() and blocked[1].tobytes() == got_b.tobytes()
    shared = prior.vertex_weights(
        lo, hi, np.zeros(lo.size, dtype=np.int64), nodes, pr.end_points(lo, hi)
    )
    assert shared[0].tobytes() == got_a.tobytes() and shared[1].tobytes() == got_b.tobytes()


@pytest.mark.parametrize(
    "prior", [pr.BetaPrior(2.0, 8.0), pr.UniformPrior(0.1, 0.7), pr.PointPrior(0.3)], ids=str
)
def test_shared_end_points_give_the_same_weights_bit_for_bit(prior):
    """Weights with the distinct end points given (sorted once for several priors, as
    ``hull_curves`` does) are the weights without them, to the last bit; the end points are
    exact."""
    rng = np.random.default_rng(8)
    cuts = np.sort(
        rng.choice(np.concatenate((np.round(rng.uniform(size=30), 2), [0.0, 1.0])), size=(500, 2)),
        axis=1,
    )
    lo, hi = cuts[:, 0], cuts[:, 1]
    rep = np.arange(lo.size)
    ends = pr.end_points(lo, hi)
    np.testing.assert_array_equal(ends.x[ends.lo], lo)
    np.testing.assert_array_equal(ends.x[ends.hi], hi)
    assert np.all(np.diff(ends.x) > 0)
    want = prior.vertex_weights(lo, hi, rep)
    got = prior.vertex_weights(lo, hi, rep, None, ends)
    assert all(g.tobytes() == w.tobytes() for g, w in zip(got, want))


def test_induced_expected_cost_is_remembered_per_curve_and_unchanged():
    """The quadrature runs once per (prior, curve) in a process; the remembered value is the
    computed one to the last bit, and a different curve (or prior) is not confused with it."""
    prior = pr.InducedPrior(pr.Beta(3.0, 7.0), pr.LogUniform(1.0, 10.0))
    pc, nec = np.array([0.0, 0.3, 0.6, 1.0]), np.array([0.0, 0.21, 0.25, 0.0])
    pr.remembered_expected.cache_clear()
    first = prior.expected(pc, nec)
    assert prior.expected(list(pc), list(nec)) == first
    assert pr.remembered_expected.cache_info().hits == 1
    pr.remembered_expected.cache_clear()
    assert prior.expected(pc.copy(), nec.copy()) == first  # computed again: the same value
    assert pr.remembered_expected.cache_info().misses == 1
    other = nec.copy()
    other[1] += 1e-12
    assert prior.expected(pc, other) != first
    assert pr.InducedPrior(pr.Beta(3.0, 6.0), pr.LogUniform(1.0, 10.0)).expected(pc, nec) != first


def test_induced_prior_of_a_large_envelope_gives_no_library_warning(caplog):
    """A beta p(+) and the envelope of 10^5 rows (88 vertices): many kinks in p(+) land
    within a few ulps of u = 1, where QUADPACK reported "Extremely bad integrand behavior" and SciPy
    printed an IntegrationWarning. Now no warning and no note, and the value agrees with the second
    method of this module (Gauss-Legendre vertex weights, 400 nodes) and with a plain integral of
    the envelope against the induced density, computed independently here."""
    import logging
    import warnings

    rng = np.random.default_rng(1)  # a sample whose envelope made QUADPACK report trouble
    n = 10**5
    labels = np.arange(n) < n // 2
    scores = np.where(labels, rng.normal(1.0, 1.0, n), rng.normal(0.0, 1.0, n))
    env = lower_envelope(roc_points(labels, scores))
    prior = pr.InducedPrior(pr.Beta(3.0, 7.0), pr.LogUniform(0.1, 10.0))
    with (
        warnings.catch_warnings(),
        caplog.at_level(logging.DEBUG, logger="ccreport.analysis.priors"),
    ):
        warnings.simplefilter("error")
        got = prior._expected(env.pc, env.nec)
    assert not caplog.records
    _, alpha, beta = pr.curve_segments(env.pc, env.nec)
    wa, wb = prior.vertex_weights(
        env.pc[:-1], env.pc[1:], np.zeros(env.pc.size - 1, dtype=np.int64), 400
    )
    assert got == pytest.approx(
        float(np.sum(alpha * wa + beta * wb)), abs=1e-7
    )  # a fixed rule across kinks: ~5e-8
    # independently: E_p E_r nec(PC(p, r)) by the midpoint rule in p (beta density) and log r, no
    # ccreport code
    p = ((np.arange(3000) + 0.5) / 3000)[:, None]
    weight = stats.beta.pdf(p, 3.0, 7.0) / 3000
    r = np.exp(np.log(0.1) + (np.arange(3000) + 0.5) / 3000 * np.log(100.0))[None, :]
    pc = p * r / (p * r + 1.0 - p)
    assert got == pytest.approx(
        float((np.interp(pc, env.pc, env.nec) * weight).sum() / 3000), abs=1e-7
    )  # seen: 3e-9


def test_a_piece_narrower_than_the_tolerance_is_one_midpoint():
    """quadrature on [lo, hi] with hi - lo <= QUAD_TOLERANCE: (hi - lo) f(mid), within the tolerance
    of the exact integral; a wider piece is QUADPACK's (the exact integral of a smooth function)."""
    lo = 1.0 - 4e-16
    assert pr.quadrature(lambda u: 7.0 * u, lo, 1.0) == pytest.approx(
        3.5 * (1.0 - lo * lo), abs=pr.QUAD_TOLERANCE
    )
    assert pr.quadrature(lambda u: np.exp(u), 0.25, 0.75) == pytest.approx(
        np.exp(0.75) - np.exp(0.25), rel=1e-13
    )
