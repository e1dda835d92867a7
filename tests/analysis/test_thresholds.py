"""Threshold choice methods (Hernández-Orallo, Flach & Ferri 2013): worked numbers of
../shared/specs/threshold_choice.md section 9, its wrong implementations, brute force and
identities."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.isotonic import IsotonicRegression

from ccreport.analysis.bootstrap import cumulative, multinomial_counts, path_layout
from ccreport.analysis.envelope import lower_envelope
from ccreport.analysis.piecewise import DRAW_TOLERANCE, linear, parabolic
from ccreport.analysis.roc import roc_hull, roc_points
from ccreport.analysis.threshold_choice import (
    AXES,
    CRISP_NOTE,
    METHODS,
    NOT_PROBABILITIES,
    cost_proportion_from_pc,
    crisp_threshold_choice,
    pc_from_cost_proportion,
    split_loss,
    threshold_choice,
    threshold_choice_from_roc,
)
from ccreport.analysis.threshold_replicates import replicate_areas, replicate_hulls

# Spec section 9: paper orientation 0 = positive, ranked by increasing paper score; ours by
# decreasing score.
MODEL_A = np.array([1, 1, 0, 1, 1, 1, 0, 1, 0, 1], dtype=bool)
MODEL_B = np.array([1, 1, 1, 0, 1, 0, 0, 1, 1, 1], dtype=bool)
RANKED = np.arange(10, 0, -1) / 10.0  # decreasing, in (0, 1]
EXAMPLE_1 = np.array([3.20, 2.13, 1.15, 0.18, -0.21, -0.45, -1.47, -1.49, -1.93, -4.72])
RANGES = [(0.1, 0.5), (0.5, 0.9)]
COST = "cost_proportion"


@pytest.fixture(scope="module")
def model_a():
    return threshold_choice(MODEL_A, RANKED, partial_ranges=RANGES)


@pytest.fixture(scope="module")
def model_b():
    return threshold_choice(MODEL_B, RANKED, partial_ranges=RANGES)


# --- worked numbers (spec section 9) --------------------------------------------------------------


def test_model_a_auc_hull_auc_and_kendall_distance(model_a, model_b):
    assert model_a.auc == pytest.approx(13 / 21, abs=1e-12)  # row 1
    assert model_a.auc_hull == pytest.approx(31 / 42, abs=1e-12)  # row 22
    assert model_b.auc == pytest.approx(11 / 21, abs=1e-12)
    assert model_b.auc_hull == pytest.approx(5 / 7, abs=1e-12)
    # rows 2, 17: Kendall area = 2 K_tau / n^2 on the cost-proportion axis
    assert model_a[COST, "kendall"].area * 100 / 2 == pytest.approx(8, abs=1e-10)
    assert model_b[COST, "kendall"].area * 100 / 2 == pytest.approx(10, abs=1e-10)


def test_fig1_fig2_cost_lines_both_axes():
    pi0 = 0.7
    # row 4: cost lines of the ROC points of model A from c = 0 to c = 1 (cost) and F1 -> 1 - F0
    # (pc)
    for (f1, f0), (start, end) in {
        (0.0, 0.0): (0.0, 1.4),
        (0.0, 2 / 7): (0.0, 1.0),
        (1 / 3, 5 / 7): (0.2, 0.4),
        (2 / 3, 6 / 7): (0.4, 0.2),
        (1.0, 1.0): (0.6, 0.0),
    }.items():
        assert split_loss(np.array([0.0, 1.0]), f1, f0, pi0) == pytest.approx(
            [start, end], abs=1e-12
        )
        assert split_loss(np.array([0.0, 1.0]), f1, f0, 0.5) == pytest.approx(
            [f1, 1 - f0], abs=1e-12
        )
    # rows 7, 8 (Fig. 2): the point in both axes; NEC at PC(+) = z(c) times K(c) is the cost loss
    for (f1, f0, c), (loss, pc, nec) in {
        (1 / 3, 5 / 7, 0.4): (0.28, 0.608696, 0.304348),
        (1 / 3, 4 / 7, 0.6): (0.44, 0.777778, 0.407407),
    }.items():
        assert split_loss(c, f1, f0, pi0) == pytest.approx(loss, abs=1e-12)
        z = pc_from_cost_proportion(c, pi0)
        assert z == pytest.approx(pc, abs=1e-6)
        assert split_loss(z, f1, f0, 0.5) == pytest.approx(nec, abs=1e-6)
        assert cost_proportion_from_pc(z, pi0) == pytest.approx(c, abs=1e-12)
    # row 5: (2/3, 6/7) meets the envelope at c = 0.5, loss 0.3; at z = 0.7 on the pc axis
    a = threshold_choice(MODEL_A, RANKED)
    assert a[COST, "optimal"].curve(0.5) == pytest.approx(
        split_loss(0.5, 2 / 3, 6 / 7, pi0), abs=1e-12
    )
    assert a[COST, "optimal"].curve(0.5) == pytest.approx(0.3, abs=1e-12)
    assert a["pc", "optimal"].curve(0.7) == pytest.approx(0.3, abs=1e-12)


def test_optimal_curve_model_a_vertices_and_areas(model_a):
    cost, pc = model_a[COST, "optimal"], model_a["pc", "optimal"]  # row 6
    assert cost.curve.x == pytest.approx([0, 0.25, 0.5, 1], abs=1e-12)
    assert cost.curve.start == pytest.approx([0, 0.25, 0.3], abs=1e-12)
    assert cost.area == pytest.approx(0.175, abs=1e-12)
    assert pc.curve.x == pytest.approx([0, 0.4375, 0.7, 1], abs=1e-12)
    assert pc.curve.start == pytest.approx([0, 0.3125, 0.3], abs=1e-12)
    assert pc.area == pytest.approx(0.19375, abs=1e-12)
    # the pc-axis optimal curve is D&H's lower envelope
    env = lower_envelope(roc_points(MODEL_A, RANKED))
    grid = np.linspace(0, 1, 1001)
    assert pc.curve(grid) == pytest.approx(env(grid), abs=1e-12)


def test_example_1_biased_coin_not_nearest_rate():
    tc = threshold_choice(MODEL_A, EXAMPLE_1)  # row 9; Example 1 has model A's labels
    assert tc[COST, "rate_driven"].curve(0.725) == pytest.approx(0.36375, abs=1e-12)
    assert tc[COST, "rate_driven"].curve(0.725) != pytest.approx(0.4, abs=1e-3)  # nearest rate
    assert tc.w0[COST] == pytest.approx(0.7)


def test_rate_driven_and_kendall_curves_model_a(model_a):
    c = np.linspace(0, 1, 11)
    rd = [0, 0.12, 0.2, 0.44, 0.44, 0.4, 0.32, 0.4, 0.24, 0.24, 0]  # row 10
    assert model_a[COST, "rate_driven"].curve(c) == pytest.approx(rd, abs=1e-12)
    z = [0.1, 0.25, 0.5, 0.75, 0.9]
    assert model_a["pc", "rate_driven"].curve(z) == pytest.approx(
        [0.08, 0.339286, 0.333333, 0.291667, 0.222857], abs=1e-6
    )
    kendall = [0, 0, 0, 0.2, 0.2, 0.2, 0.2, 0.4, 0.2, 0.2, 0]  # row 13
    assert model_a[COST, "kendall"].curve(c) == pytest.approx(kendall, abs=1e-12)
    # row 15 (Prop. 2 / Thm 3): diagonal units D = Q_tau sqrt(pi0^2 + pi1^2) / (2 pi0 pi1), unit
    # length
    root = np.sqrt(0.7**2 + 0.3**2)
    d = model_a[COST, "kendall"].curve(c) * root / (2 * 0.21)
    unit = root / (0.21 * 10)
    assert root == pytest.approx(0.7616, abs=1e-4) and unit == pytest.approx(0.36266, abs=1e-5)
    assert d / unit == pytest.approx([0, 0, 0, 1, 1, 1, 1, 2, 1, 1, 0], abs=1e-12)
    # row 16 (Cor. 2): AOC = sum_i Q_tau(i/n) / (2 n pi0 pi1)
    assert np.sum(model_a[COST, "kendall"].curve(c)) / (2 * 10 * 0.21) == pytest.approx(
        8 / 21, abs=1e-12
    )


def test_whole_areas_models_a_and_b_both_axes(model_a, model_b):
    expected = {  # rows 11, 14, 17, 23 (cost, pc)
        ("A", "rate_driven"): (17 / 60, 0.273810),
        ("A", "kendall"): (0.16, 4 / 21),
        ("A", "skull"): (7 / 30, 0.214286),
        ("A", "kendall_skull"): (0.11, 0.130952),
        ("B", "rate_driven"): (0.323333, 0.321429),
        ("B", "kendall"): (0.2, 0.238095),
        ("B", "skull"): (0.243333, 0.226190),
        ("B", "kendall_skull"): (0.12, 0.142857),
        ("A", "perfect_ranker"): (0.123333, 1 / 12),  # row 12
    }
    models = {"A": model_a, "B": model_b}
    for (name, method), (cost, pc) in expected.items():
        assert models[name][COST, method].area == pytest.approx(cost, abs=1e-6), (name, method)
        assert models[name]["pc", method].area == pytest.approx(pc, abs=1e-6), (name, method)


def test_reference_rankers_row_12():
    labels = MODEL_A
    perfect = threshold_choice(labels, labels.astype(float))
    tied = threshold_choice(labels, np.full(10, 0.3))
    worst = threshold_choice(labels, (~labels).astype(float))
    for axis, (p, t, w) in {
        COST: (0.123333, 1 / 3, 0.543333),
        "pc": (1 / 12, 1 / 3, 7 / 12),
    }.items():
        assert perfect[axis, "rate_driven"].area == pytest.approx(p, abs=1e-6)
        assert perfect[axis, "perfect_ranker"].area == pytest.approx(p, abs=1e-6)
        assert tied[axis, "rate_driven"].area == pytest.approx(t, abs=1e-12)
        assert worst[axis, "rate_driven"].area == pytest.approx(w, abs=1e-6)


def test_partial_kendall_and_partial_aoc_rows_18_to_20(model_a, model_b):
    expected = {  # (model, range) -> (cost Kendall, cost pAOC, pc Kendall, pc pAOC)
        ("A", 0): (0.05, 5 / 42, 0.091270, 0.182540),
        ("B", 0): (0.03, 1 / 14, 0.069728, 0.139456),
        ("A", 1): (0.1, 0.238095, None, None),
        ("B", 1): (0.16, 0.380952, None, None),
    }
    models = {"A": model_a, "B": model_b}
    for (name, i), (kc, ac, kp, ap) in expected.items():
        cost = models[name][COST, "kendall"].partial[i]
        assert (cost.low, cost.high) == RANGES[i]
        assert cost.area == pytest.approx(kc, abs=1e-6)
        assert cost.aoc == pytest.approx(ac, abs=1e-6)
        if kp is not None:
            pc = models[name]["pc", "kendall"].partial[i]
            assert pc.area == pytest.approx(kp, abs=1e-6)
            assert pc.aoc == pytest.approx(ap, abs=1e-6)
    assert model_a[COST, "kendall"].partial[0].aoc == pytest.approx(
        0.119, abs=5e-4
    )  # the paper's rounding
    assert model_b[COST, "kendall"].partial[0].aoc == pytest.approx(0.071, abs=5e-4)
    # section 8: partial rate-driven minus partial Kendall is the same for both models (perfect
    # ranker)
    for i in range(2):
        da = model_a[COST, "rate_driven"].partial[i].area - model_a[COST, "kendall"].partial[i].area
        db = model_b[COST, "rate_driven"].partial[i].area - model_b[COST, "kendall"].partial[i].area
        assert da == pytest.approx(db, abs=1e-12)
        assert da == pytest.approx(model_a[COST, "perfect_ranker"].partial[i].area, abs=1e-12)


def test_skull_meets_envelope_only_at_row_24(model_a):
    def gap(c):
        return model_a[COST, "skull"].curve(c) - model_a[COST, "optimal"].curve(c)

    assert gap(np.array([0.0, 0.2, 0.25, 1.0])) == pytest.approx(np.zeros(4), abs=1e-12)
    assert model_a[COST, "skull"].curve(0.2) == pytest.approx(0.2, abs=1e-12)
    grid = np.linspace(0, 1, 2001)
    away = np.min(np.abs(grid[:, None] - np.array([0.0, 0.2, 0.25, 1.0])[None, :]), axis=1) > 1e-3
    assert np.all(gap(grid[away]) > 1e-9)


# --- the spec's wrong implementations -------------------------------------------------------------


def _trapezoid(y, x):
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1])) / 2)


def test_w1_pc_axis_rate_is_not_the_fraction_predicted_positive(model_a):
    """W1: on the PC(+) axis, threshold where the fraction predicted positive = PC(+): 0.27."""
    roc = roc_points(MODEL_A, RANKED)
    z = np.linspace(0, 1, 200001)
    frac = (roc.tp + roc.fp) / 10
    f1, f0 = np.interp(z, frac, roc.fpr), np.interp(z, frac, roc.tpr)
    w1 = _trapezoid(z * (1 - f0) + (1 - z) * f1, z)
    assert w1 == pytest.approx(0.27, abs=1e-6)
    assert model_a["pc", "rate_driven"].area == pytest.approx(0.273810, abs=1e-6)
    assert abs(model_a["pc", "rate_driven"].area - w1) > 3e-3


def test_w2_cost_curve_is_not_remapped_to_pc(model_a):
    """W2: the cost-proportion curve moved to PC(+) (x -> z(c), y -> y / K(c)): 0.282239."""
    c = np.linspace(0, 1, 400001)
    k = 2 * (0.7 * c + 0.3 * (1 - c))
    w2 = _trapezoid(model_a[COST, "rate_driven"].curve(c) / k, pc_from_cost_proportion(c, 0.7))
    assert w2 == pytest.approx(0.282239, abs=1e-5)
    assert abs(model_a["pc", "rate_driven"].area - w2) > 8e-3
    # the optimal curve, unlike the rate-driven one, does map pointwise: Q_cost(c) = K(c) NEC(z(c))
    assert model_a[COST, "optimal"].curve(c) == pytest.approx(
        k * model_a["pc", "optimal"].curve(pc_from_cost_proportion(c, 0.7)), abs=1e-12
    )


def test_w3_loss_keeps_the_factor_b_equal_2(model_a):
    """W3: dropping b = 2 halves every cost-proportion loss (0.141667)."""
    assert model_a[COST, "rate_driven"].area == pytest.approx(17 / 60, abs=1e-12)
    assert model_a[COST, "rate_driven"].area / 2 == pytest.approx(0.141667, abs=1e-6)
    assert split_loss(0.5, 1 / 3, 5 / 7, 0.7) == pytest.approx(
        0.5 * 0.7 * 2 / 7 * 2 + 0.5 * 0.3 / 3 * 2
    )


def test_e2_kendall_skull_is_not_two_independent_lower_hulls(model_a):
    """E2: the lower convex hull of each half of the Kendall curve gives 0.12 for model A, Def. 4
    0.11."""
    kendall = model_a[COST, "kendall"].curve
    total = 0.0
    for lo_, hi_ in ((0.0, 0.7), (0.7, 1.0)):
        keep = (kendall.x >= lo_ - 1e-12) & (kendall.x <= hi_ + 1e-12)
        x, y = kendall.x[keep], np.concatenate((kendall.start, kendall.end[-1:]))[keep]
        hx, hy = [x[0]], [y[0]]  # lower hull, monotone chain
        for px, py in zip(x[1:], y[1:]):
            while (
                len(hx) >= 2
                and (hx[-1] - hx[-2]) * (py - hy[-2]) - (hy[-1] - hy[-2]) * (px - hx[-2]) <= 0
            ):
                hx.pop(), hy.pop()
            hx.append(px), hy.append(py)
        total += _trapezoid(np.array(hy), np.array(hx))
    assert total == pytest.approx(0.12, abs=1e-12)
    assert model_a[COST, "kendall_skull"].area == pytest.approx(0.11, abs=1e-12)


# --- brute force: every curve from its definition ----------------------------------------------


def brute_splits(y, s):
    """Every deterministic threshold (+inf and each distinct score): predictions counted
    directly."""
    thresholds = np.concatenate(([np.inf], np.unique(s)[::-1]))
    pred = s[None, :] >= thresholds[:, None]
    tpr = (pred & y).sum(axis=1) / y.sum()
    fpr = (pred & ~y).sum(axis=1) / (~y).sum()
    return pred, fpr, tpr


def brute_loss(x, fpr, tpr, w0):
    """HFF Eq. 1 with b = 2: C(FN) share x at weight w0 of positives."""
    return 2 * x * w0 * (1 - tpr) + 2 * (1 - x) * (1 - w0) * fpr


def brute_rate_driven(y, s, w0, x, kendall=False):
    """Def. 1: bracket x by the rates of deterministic splits and toss the biased coin."""
    pred, fpr, tpr = brute_splits(y, s)
    rate = pred.mean(axis=1) if w0 == y.mean() else (tpr + fpr) / 2
    out = []
    for v in np.atleast_1d(x):
        j = max(i for i in range(rate.size) if rate[i] <= v + 1e-15)
        if j == rate.size - 1 or rate[j] == v:
            p, k = 1.0, j
        else:
            k = j + 1
            p = (rate[k] - v) / (rate[k] - rate[j])
        ef1, ef0 = p * fpr[j] + (1 - p) * fpr[k], p * tpr[j] + (1 - p) * tpr[k]
        if kendall:
            out.append(2 * (1 - w0) * ef1 if v <= w0 else 2 * w0 * (1 - ef0))
        else:
            out.append(
                p * brute_loss(v, fpr[j], tpr[j], w0) + (1 - p) * brute_loss(v, fpr[k], tpr[k], w0)
            )
    return np.array(out)


def pav_scores(y, s):
    """PAV-calibrated scores (Fawcett & Niculescu-Mizil 2007): their ranking is the ROC convex
    hull."""
    return IsotonicRegression(increasing=True).fit_transform(s, y.astype(float))


def brute_curves(y, s, w0, x):
    """Every method at the points x, each from its definition."""
    _, fpr, tpr = brute_splits(y, s)
    x = np.atleast_1d(x)
    calibrated = pav_scores(y, s)
    out = {
        "optimal": np.min(brute_loss(x[None, :], fpr[:, None], tpr[:, None], w0), axis=0),
        "rate_driven": brute_rate_driven(y, s, w0, x),
        "perfect_ranker": brute_rate_driven(y, y.astype(float), w0, x),
        "kendall": brute_rate_driven(y, s, w0, x, kendall=True),
        "skull": brute_rate_driven(y, calibrated, w0, x),
        "kendall_skull": brute_rate_driven(y, calibrated, w0, x, kendall=True),
    }
    if s.min() >= 0 and s.max() <= 1:
        pred = s[None, :] >= 1 - x[:, None]
        out["score_driven"] = brute_loss(
            x, (pred & ~y).sum(1) / (~y).sum(), (pred & y).sum(1) / y.sum(), w0
        )
    return out


def brute_knots(y, s, w0, method):
    """Where each brute-force curve may change its polynomial (rates, w0, jumps, line crossings)."""
    _, fpr, tpr = brute_splits(y, s)
    base = [0.0, 1.0, w0]
    if method in ("rate_driven", "kendall"):
        return base + list(w0 * tpr + (1 - w0) * fpr)
    if method in ("skull", "kendall_skull"):
        _, f, t = brute_splits(y, pav_scores(y, s))
        return base + list(w0 * t + (1 - w0) * f)
    if method == "score_driven":
        return base + list(1 - np.unique(s))
    if method == "optimal":
        a, b = 2 * (1 - w0) * fpr, 2 * w0 * (1 - tpr)  # line from a (x = 0) to b (x = 1)
        i, j = np.triu_indices(a.size, 1)
        d = (b[i] - a[i]) - (b[j] - a[j])
        with np.errstate(divide="ignore", invalid="ignore"):
            cross = (a[j] - a[i]) / d
        return base + list(cross[np.isfinite(cross)])
    return base


def gauss_integral(f, knots, low=0.0, high=1.0):
    """Two-point Gauss-Legendre on every interval between knots: exact for piecewise cubics."""
    k = np.unique(np.clip(np.concatenate((knots, [low, high])), low, high))
    k = k[(k >= low) & (k <= high)]
    mid, half = (k[1:] + k[:-1]) / 2, (k[1:] - k[:-1]) / 2
    nodes = np.concatenate((mid - half / np.sqrt(3), mid + half / np.sqrt(3)))
    values = f(nodes)
    return float(np.sum(values * np.concatenate((half, half))))


@st.composite
def ranked_data(draw, probabilities=True):
    n = draw(st.integers(2, 24))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    if y.all() or not y.any():
        y[draw(st.integers(0, n - 1))] = not y[0]
    levels = draw(st.integers(1, 7))
    s = (
        np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n)), dtype=float)
        / levels
    )
    if not probabilities:
        s = 3 * s - 1
    a = draw(st.sampled_from([0.0, 0.1, 0.25, 0.3, 0.5, 0.7]))
    b = draw(st.sampled_from([0.5, 0.6, 0.75, 0.9, 1.0]).filter(lambda v: v > a))
    return y, s, (a, b)


@settings(max_examples=60, deadline=None)
@given(ranked_data(), st.randoms(use_true_random=False))
def test_every_curve_equals_brute_force_and_every_area_its_integral(data, rnd):
    y, s, (a, b) = data
    tc = threshold_choice(y, s, partial_ranges=[(a, b)])
    for axis in AXES:
        w0 = tc.w0[axis]
        x = np.array([rnd.random() for _ in range(25)])
        brute = brute_curves(y, s, w0, x)
        assert set(brute) == set(METHODS)
        for method in METHODS:
            mc = tc[axis, method]
            assert mc.curve(x) == pytest.approx(brute[method], abs=1e-12), (axis, method)

            def f(v, m=method, w=w0):
                return brute_curves(y, s, w, v)[m]

            knots = brute_knots(y, s, w0, method)
            assert mc.area == pytest.approx(gauss_integral(f, knots), abs=1e-12), (axis, method)
            assert mc.partial[0].area == pytest.approx(gauss_integral(f, knots, a, b), abs=1e-12), (
                axis,
                method,
            )


@settings(max_examples=40, deadline=None)
@given(ranked_data(probabilities=False))
def test_brier_curve_not_applicable_outside_0_1(data):
    y, s, rng_ = data
    tc = threshold_choice(y, s, partial_ranges=[rng_])
    for axis in AXES:
        mc = tc[axis, "score_driven"]
        if s.min() < 0 or s.max() > 1:
            assert mc.curve is None and mc.area is None and mc.not_applicable == NOT_PROBABILITIES
            d = mc.to_dict()
            assert d == {
                "area": None,
                "partial": [{"low": rng_[0], "high": rng_[1], "area": None}],
                "curve": None,
                "not_applicable": NOT_PROBABILITIES,
            }


@settings(max_examples=80, deadline=None)
@given(ranked_data())
def test_identities_to_1e12(data):
    y, s, (a, b) = data
    tc = threshold_choice(y, s, partial_ranges=[(a, b)])
    pi0 = y.mean()
    auc, auch = tc.auc, tc.auc_hull
    for axis, w0 in ((COST, pi0), ("pc", 0.5)):
        ww = w0 * (1 - w0)
        assert tc[axis, "rate_driven"].area == pytest.approx(
            ww * (1 - 2 * auc) + 1 / 3, abs=1e-12
        )  # Thm 1, Cor. 1
        assert tc[axis, "kendall"].area == pytest.approx(2 * ww * (1 - auc), abs=1e-12)  # Thm 2
        assert tc[axis, "perfect_ranker"].area == pytest.approx(1 / 3 - ww, abs=1e-12)  # Lemma 1
        assert tc[axis, "skull"].area == pytest.approx(ww * (1 - 2 * auch) + 1 / 3, abs=1e-12)
        assert tc[axis, "kendall_skull"].area == pytest.approx(2 * ww * (1 - auch), abs=1e-12)
        brier = (
            np.mean((s - y) ** 2)
            if axis == COST
            else (np.mean((1 - s[y]) ** 2) + np.mean(s[~y] ** 2)) / 2
        )
        assert tc[axis, "score_driven"].area == pytest.approx(brier, abs=1e-12)
        x = np.linspace(0, 1, 257)
        rd, perfect, kendall = (
            tc[axis, m].curve(x) for m in ("rate_driven", "perfect_ranker", "kendall")
        )
        assert rd == pytest.approx(perfect + kendall, abs=1e-12)  # Thm 2 pointwise
        assert np.all(tc[axis, "skull"].curve(x) <= rd + 1e-12)
        assert np.all(tc[axis, "skull"].curve(x) >= tc[axis, "optimal"].curve(x) - 1e-12)
        assert tc[axis, "kendall"].partial[0].aoc == pytest.approx(
            tc[axis, "kendall"].partial[0].area / (2 * ww), abs=1e-12
        )
    assert tc["pc", "rate_driven"].area == pytest.approx((1 - 2 * auc) / 4 + 1 / 3, abs=1e-12)
    assert tc["pc", "kendall"].area == pytest.approx((1 - auc) / 2, abs=1e-12)
    assert tc["pc", "skull"].area == pytest.approx((1 - 2 * auch) / 4 + 1 / 3, abs=1e-12)
    assert tc["pc", "kendall_skull"].area == pytest.approx((1 - auch) / 2, abs=1e-12)
    assert tc["pc", "perfect_ranker"].area == pytest.approx(1 / 12, abs=1e-12)


# --- vectorised replicates ----------------------------------------------------------------------


def _materialised(y, s, layout, cp, cn, r):
    """Replicate r as a data set: each instance repeated as often as it was drawn."""
    ps, ns = s[y][layout.pos_order], s[~y][layout.neg_order]
    counts_p, counts_n = np.diff(cp[r]), np.diff(cn[r])
    scores = np.concatenate((np.repeat(ps, counts_p), np.repeat(ns, counts_n)))
    labels = np.concatenate((np.ones(counts_p.sum(), bool), np.zeros(counts_n.sum(), bool)))
    return labels, scores


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_replicate_areas_equal_each_resampled_data_set(seed):
    rng = np.random.default_rng(seed)
    n = 40
    y = rng.random(n) < 0.35
    y[:2] = [True, False]
    s = np.round(np.clip(rng.normal(np.where(y, 0.6, 0.4), 0.2), 0, 1), 1)  # ties
    layout = path_layout(y, s)
    reps = 30
    cp = cumulative(multinomial_counts(rng, layout.n_pos, reps))
    cn = cumulative(multinomial_counts(rng, layout.n_neg, reps))
    tp, fp = cp[:, layout.pos_at], cn[:, layout.neg_at]
    roc = roc_points(y, s)
    ranges = [(0.1, 0.5), (0.35, 0.95)]
    ra = replicate_areas(tp, fp, scores=roc.thresholds[1:], partial_ranges=ranges)
    assert np.any(np.diff(tp, axis=1) + np.diff(fp, axis=1) == 0)  # some score groups not drawn
    for r in range(reps):
        tc = threshold_choice(*_materialised(y, s, layout, cp, cn, r), partial_ranges=ranges)
        assert ra.auc[r] == pytest.approx(tc.auc, abs=1e-12)
        assert ra.auc_hull[r] == pytest.approx(tc.auc_hull, abs=1e-12)
        for axis in AXES:
            for method in METHODS:
                assert ra.area[axis][method][r] == pytest.approx(
                    tc[axis, method].area, abs=1e-11
                ), (axis, method)
                got = ra.partial[axis][method][r]
                assert got == pytest.approx(
                    [p.area for p in tc[axis, method].partial], abs=1e-11
                ), (axis, method)
            for method in ("kendall", "kendall_skull"):
                aoc = [p.aoc for p in tc[axis, method].partial]
                assert ra.partial_aoc[axis][method][r] == pytest.approx(aoc, abs=1e-10)


def test_replicate_hulls_match_the_single_hull():
    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.3
    s = np.round(rng.normal(y * 0.8, 1.0), 1)
    roc = roc_points(y, s)
    tp = np.stack([roc.tp] * 3)
    fp = np.stack([roc.fp] * 3)
    h = replicate_hulls(tp, fp)
    tc = threshold_choice_from_roc(roc)
    for r in range(3):
        pts = h.point[h.indptr[r] : h.indptr[r + 1]]
        f, t = roc.fpr[pts], roc.tpr[pts]
        assert np.sum(np.diff(f) * (t[1:] + t[:-1])) / 2 == pytest.approx(tc.auc_hull, abs=1e-12)
        assert np.all(h.row[h.indptr[r] : h.indptr[r + 1]] == r)


def test_replicate_areas_brier_not_applicable_and_checks():
    roc = roc_points(MODEL_A, EXAMPLE_1)
    ra = replicate_areas(roc.tp[None], roc.fp[None], scores=roc.thresholds[1:])
    assert ra.area["pc"]["score_driven"] is None and ra.partial["pc"]["score_driven"] is None
    ra = replicate_areas(roc.tp[None], roc.fp[None])  # no scores given: no Brier curve
    assert ra.area[COST]["score_driven"] is None
    assert ra.area[COST]["rate_driven"][0] == pytest.approx(17 / 60, abs=1e-12)
    with pytest.raises(ValueError, match="both classes"):
        replicate_areas(np.zeros((1, 3)), np.array([[0, 1, 2]]))


# --- degenerate inputs, crisp classifiers, the results.json shape -------------------------------


def test_one_class_raises():
    with pytest.raises(ValueError, match="both classes"):
        threshold_choice(np.ones(5, bool), np.arange(5.0))
    with pytest.raises(ValueError, match="both classes"):
        threshold_choice(np.zeros(5, bool), np.arange(5.0))


def test_constant_scores_are_one_tie_block():
    y = np.array([1, 0, 0, 1, 0, 0, 0], bool)
    pi0 = 2 / 7
    tc = threshold_choice(y, np.full(7, 0.4), partial_ranges=[(0.2, 0.6)])
    x = np.linspace(0, 1, 101)
    for axis, w0 in ((COST, pi0), ("pc", 0.5)):
        for method in ("rate_driven", "skull"):  # the ROC is the diagonal: RD(x) = 2 x (1 - x)
            assert tc[axis, method].curve(x) == pytest.approx(2 * x * (1 - x), abs=1e-12)
            assert tc[axis, method].area == pytest.approx(1 / 3, abs=1e-12)
        for method in ("kendall", "kendall_skull"):
            assert tc[axis, method].area == pytest.approx(w0 * (1 - w0), abs=1e-12)
        assert tc[axis, "optimal"].curve(x) == pytest.approx(
            np.minimum(2 * w0 * x, 2 * (1 - w0) * (1 - x)), abs=1e-12
        )
        # Brier curve: everything negative below x = 0.6, everything positive from it
        assert tc[axis, "score_driven"].curve(np.array([0.59, 0.6])) == pytest.approx(
            [2 * w0 * 0.59, 2 * (1 - w0) * 0.4]
        )
    assert tc.auc == 0.5 and tc.auc_hull == 0.5


def test_crisp_classifier_gets_its_cost_line_only():
    y = np.array([1, 1, 1, 0, 0, 0, 0, 0, 1, 0], bool)
    pred = np.array([1, 1, 0, 1, 0, 0, 0, 0, 1, 0], bool)  # TPR 3/4, FPR 1/6
    out = crisp_threshold_choice(y, pred, partial_ranges=[(0.0, 0.5)])
    d = out.to_dict()
    assert set(d) == {"threshold_choice", "auc_hull"}
    assert d["threshold_choice"]["note"] == CRISP_NOTE
    pc = d["threshold_choice"]["pc"]["score_fixed"]
    assert np.array(pc["curve"]).ravel() == pytest.approx([0, 1 / 6, 1, 1 / 4])
    assert pc["area"] == pytest.approx((1 / 4 + 1 / 6) / 2)
    cost = d["threshold_choice"][COST]["score_fixed"]
    assert cost["area"] == pytest.approx(np.mean(y != pred))  # error rate
    assert np.array(cost["curve"]).ravel() == pytest.approx([0, 2 * 0.6 / 6, 1, 2 * 0.4 / 4])
    assert cost["partial"][0]["area"] == pytest.approx(
        (2 * 0.6 / 6 + (2 * 0.6 / 6 + 2 * 0.4 / 4) / 2) / 4
    )
    assert set(d["threshold_choice"]["pc"]) == {"score_fixed"}


def test_to_dict_shape_json_and_drawing_points(model_a):
    d = model_a.to_dict()
    assert set(d) == {"threshold_choice", "auc_hull"}
    assert set(d["threshold_choice"]) == set(AXES)
    for axis in AXES:
        assert list(d["threshold_choice"][axis]) == list(METHODS)
        for method, entry in d["threshold_choice"][axis].items():
            assert set(entry) == {"area", "partial", "curve"}
            assert [(p["low"], p["high"]) for p in entry["partial"]] == RANGES
            assert ("aoc" in entry["partial"][0]) == (method in ("kendall", "kendall_skull"))
            xy = np.array(entry["curve"])
            curve = model_a[axis, method].curve
            if (
                method != "score_driven"
            ):  # continuous: every point on the curve, joins within tolerance
                assert xy[:, 1] == pytest.approx(curve(xy[:, 0]), abs=1e-12)
                mid = (xy[1:, 0] + xy[:-1, 0]) / 2
                assert np.max(np.abs((xy[1:, 1] + xy[:-1, 1]) / 2 - curve(mid))) <= DRAW_TOLERANCE
            assert np.all(np.diff(xy[:, 0]) >= 0) and xy[0, 0] == 0 and xy[-1, 0] == 1
    assert json.dumps(d) == json.dumps(
        threshold_choice(MODEL_A, RANKED, partial_ranges=RANGES).to_dict()
    )


def test_brier_curve_drawn_with_its_jumps(model_a):
    xy = np.array(model_a.to_dict()["threshold_choice"][COST]["score_driven"]["curve"])
    jumps = 1 - RANKED  # one jump per distinct score
    for j in jumps[jumps > 0]:
        at = np.flatnonzero(np.isclose(xy[:, 0], j, atol=1e-12))
        assert at.size == 2 and xy[at[0], 1] != xy[at[1], 1]


def test_piecewise_integrals_and_argument_checks():
    p = parabolic([0.0, 0.3, 1.0], [0.0, 0.2, 0.1], -4.0)
    grid = np.linspace(0, 1, 200001)
    assert p.area == pytest.approx(_trapezoid(p(grid), grid), abs=1e-9)
    assert p.integral(0.1, 0.8) == pytest.approx(
        _trapezoid(p(grid[20000:160001]), grid[20000:160001]), abs=1e-9
    )
    assert linear([0, 1], [1, 3]).integral(0.25, 0.75) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="0 <= low < high <= 1"):
        threshold_choice(MODEL_A, RANKED, partial_ranges=[(0.5, 0.2)])
    with pytest.raises(ValueError, match="unknown threshold axis"):
        threshold_choice(MODEL_A, RANKED, axes=("nec",))
    only_pc = threshold_choice(MODEL_A, RANKED, axes=("pc",))
    assert set(only_pc.methods) == {"pc"}


def test_replicate_areas_with_class_counts_varying_by_row():
    """An unstratified resample changes pi0 per replicate: the cost-proportion weights follow each
    row."""
    rng = np.random.default_rng(11)
    y = rng.random(30) < 0.4
    y[:2] = [True, False]
    s = np.round(rng.random(30), 1)
    order = np.argsort(-s, kind="stable")
    ends = np.append(np.flatnonzero(np.diff(s[order])), s.size - 1)
    counts = rng.multinomial(30, np.full(30, 1 / 30), size=20)  # (R, n) over all instances
    counts[:, :2] = np.maximum(counts[:, :2], 1)  # keep both classes in every row
    sorted_counts = counts[:, order]
    tp = np.concatenate(
        (np.zeros((20, 1)), np.cumsum(sorted_counts * y[order], axis=1)[:, ends]), axis=1
    )
    fp = np.concatenate(
        (np.zeros((20, 1)), np.cumsum(sorted_counts * ~y[order], axis=1)[:, ends]), axis=1
    )
    roc = roc_points(y, s)
    ra = replicate_areas(tp, fp, scores=roc.thresholds[1:], partial_ranges=[(0.2, 0.7)])
    for r in range(20):
        tc = threshold_choice(
            np.repeat(y, counts[r]), np.repeat(s, counts[r]), partial_ranges=[(0.2, 0.7)]
        )
        for axis in AXES:
            for method in METHODS:
                assert ra.area[axis][method][r] == pytest.approx(
                    tc[axis, method].area, abs=1e-11
                ), (axis, method)
                assert ra.partial[axis][method][r, 0] == pytest.approx(
                    tc[axis, method].partial[0].area, abs=1e-11
                )
    assert np.ptp(tp[:, -1]) > 0  # the class counts did vary


def roc_space_partial_aoc(fpr, tpr, w0, low, high, nodes=200_001):
    """HFF section 8 by geometry: the ROC-space area above the curve, below TPR = 1, between the
    rate isometrics w0 TPR + w1 FPR = low and = high (midpoint rule over FPR)."""
    f = (np.arange(nodes) + 0.5) / nodes
    roc = np.interp(f, fpr, tpr)
    bottom = np.maximum(roc, (low - (1 - w0) * f) / w0)
    top = np.minimum(1.0, (high - (1 - w0) * f) / w0)
    return float(np.mean(np.maximum(top - bottom, 0.0)))


@settings(max_examples=25, deadline=None)
@given(ranked_data())
def test_partial_aoc_is_the_roc_space_area_between_isometrics(data):
    y, s, (a, b) = data
    roc = roc_points(y, s)
    tc = threshold_choice_from_roc(roc, partial_ranges=[(a, b)])
    hf, ht = roc_hull(roc)
    # the reference's midpoint rule puts each vertical ROC step (a jump of the integrand in FPR) up
    # to half a node width from where it is, so its error is at most (sum of jump heights <= 1) / (2
    # nodes) = 2.5e-6, which Hypothesis reached once against the old 2e-6; the tolerance is twice
    # that bound
    tol = 1.0 / 200_001
    for axis in AXES:
        w0 = tc.w0[axis]
        assert tc[axis, "kendall"].partial[0].aoc == pytest.approx(
            roc_space_partial_aoc(roc.fpr, roc.tpr, w0, a, b), abs=tol
        )
        assert tc[axis, "kendall_skull"].partial[0].aoc == pytest.approx(
            roc_space_partial_aoc(hf, ht, w0, a, b), abs=tol
        )
