"""One resampling per dataset (issue 9 item 1) and significance that means what it says (issue
10)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic import binormal

from ccreport.analysis import significance as sg
from ccreport.analysis.bands import studentizing_sd
from ccreport.analysis.bootstrap import bootstrap_crisp, chunk_sizes, multinomial_counts
from ccreport.analysis.envelope import envelope_from_hull
from ccreport.analysis.hull_costs import GRID
from ccreport.analysis.pair_calibration import (
    PairCalibration,
    calibrate_pairs,
    null_p_values,
    pair_ratios,
)
from ccreport.analysis.paired_bootstrap import bootstrap_dataset
from ccreport.analysis.priors import BetaPrior, PointPrior, UniformPrior
from ccreport.analysis.roc import convex_hull

PRIORS = {"uniform": UniformPrior(), "beta": BetaPrior(2.0, 5.0), "point": PointPrior(0.37)}


def _weighted_envelope(y, s, w):
    """Brute force: the lower envelope of the instances repeated ``w`` times, on the grid."""
    yy, ss = np.repeat(y, w), np.repeat(s, w)
    thresholds = np.unique(ss)[::-1]
    tpr = np.array([0.0] + [np.mean(ss[yy] >= t) for t in thresholds])
    fpr = np.array([0.0] + [np.mean(ss[~yy] >= t) for t in thresholds])
    return envelope_from_hull(*convex_hull(fpr, tpr))(GRID)


def _replay_counts(seed, y, replicates):
    """The instance counts bootstrap_dataset draws, replayed from the same seed (chunk by chunk)."""
    rng = np.random.default_rng(seed)
    n_pos = int(y.sum())
    w = np.empty((replicates, y.size), dtype=np.int64)
    row = 0
    for reps in chunk_sizes(replicates, y.size):
        w[row : row + reps, y] = multinomial_counts(rng, n_pos, reps)
        w[row : row + reps, ~y] = multinomial_counts(rng, y.size - n_pos, reps)
        row += reps
    return w


@pytest.mark.parametrize("ties", [False, True])
def test_dataset_replicates_are_the_same_instances_for_every_classifier(ties):
    """Each replicate's curves, scoring and crisp, equal brute-force envelopes of the same
    resample."""
    rng = np.random.default_rng(1)
    y, a = binormal(rng, 90)
    b = a + rng.normal(size=a.size)
    if ties:
        a, b = np.round(a), np.round(b, 1)
    c = rng.random(a.size) < 0.3 + 0.4 * y
    reps = bootstrap_dataset(np.random.default_rng(5), y, {"a": a, "b": b}, {"c": c}, 12)
    w = _replay_counts(5, y, 12)
    for r in range(12):
        np.testing.assert_allclose(
            reps.classifiers["a"].raw[r], _weighted_envelope(y, a, w[r]), atol=1e-12
        )
        np.testing.assert_allclose(
            reps.classifiers["b"].raw[r], _weighted_envelope(y, b, w[r]), atol=1e-12
        )
        np.testing.assert_allclose(
            reps.classifiers["c"].raw[r], _weighted_envelope(y, c.astype(float), w[r]), atol=1e-12
        )
    np.testing.assert_array_equal(
        reps.difference("a", "b", raw=True), reps.classifiers["a"].raw - reps.classifiers["b"].raw
    )


def test_draws_do_not_depend_on_the_other_classifiers_or_their_order():
    rng = np.random.default_rng(2)
    y, a = binormal(rng, 150)
    b, c = a + rng.normal(size=a.size), a > 0.4
    alone = bootstrap_dataset(np.random.default_rng(3), y, {"a": a}, None, 200, PRIORS)
    many = bootstrap_dataset(np.random.default_rng(3), y, {"b": b, "a": a}, {"c": c}, 200, PRIORS)
    assert alone.classifiers["a"].values.tobytes() == many.classifiers["a"].values.tobytes()
    assert all(
        alone.classifiers["a"].expected[p].tobytes() == many.classifiers["a"].expected[p].tobytes()
        for p in PRIORS
    )
    again = bootstrap_dataset(np.random.default_rng(3), y, {"b": b, "a": a}, {"c": c}, 200, PRIORS)
    assert again.classifiers["c"].values.tobytes() == many.classifiers["c"].values.tobytes()


def test_identical_classifiers_have_zero_difference_and_are_never_significant():
    rng = np.random.default_rng(4)
    y, a = binormal(rng, 200)
    reps = bootstrap_dataset(
        np.random.default_rng(1), y, {"a": a, "b": a.copy()}, None, 300, PRIORS
    )
    assert not np.any(reps.difference("a", "b")) and not np.any(reps.difference("a", "b", raw=True))
    fw = sg.family_wise(reps.difference("a", "b", raw=True), np.zeros(GRID.size), 0.9, GRID)
    assert fw.significant == [] and fw.p_value == 1.0 and fw.critical == 0.0
    assert (
        sg.difference_p_value(reps.expected_difference("a", "b", "uniform", raw=True), 0.0) == 1.0
    )


def test_crisp_marginals_are_binomial_and_pairs_keep_the_3d_matrix():
    """TP* of a crisp classifier is Binomial(n_pos, tpr) (D&H 2006 section 4.6); two crisp
    classifiers that agree on most instances have a much narrower difference (section 4.7)."""
    rng = np.random.default_rng(6)
    n = 300
    y = rng.random(n) < 0.5
    pa = (rng.normal(size=n) + 1.5 * y) > 0.7
    pb = pa.copy()
    flip = rng.random(n) < 0.08
    pb[flip] = ~pb[flip]
    reps = bootstrap_dataset(np.random.default_rng(7), y, None, {"a": pa, "b": pb}, 4000)
    solo = bootstrap_crisp(np.random.default_rng(8), y, pa, 4000)
    np.testing.assert_allclose(
        reps.classifiers["a"].raw.std(axis=0)[30:71], solo.raw.std(axis=0)[30:71], rtol=0.1
    )
    d = reps.difference("a", "b")[:, 50]
    assert d.std() < 0.6 * np.hypot(
        reps.classifiers["a"].values[:, 50].std(), reps.classifiers["b"].values[:, 50].std()
    )


def test_crisp_band_values_are_the_replicates_cost_of_the_samples_selection():
    """Issue 10 item 4: no pile-up at the estimate. Where the sample's line beats the trivial
    classifiers a replicate's value is its own cost line there (even when the replicate's line does
    not), elsewhere the trivial cost; the band's lower edge can fall below 2 estimate - trivial."""
    y = np.r_[np.ones(100, bool), np.zeros(100, bool)]
    pred = np.r_[
        np.ones(84, bool), np.zeros(16, bool), np.ones(16, bool), np.zeros(84, bool)
    ]  # line 0.16
    rep = bootstrap_crisp(np.random.default_rng(9), y, pred, 3000, PRIORS)
    trivial = np.minimum(GRID, 1 - GRID)
    line_sel = 0.16 < trivial
    fnr_fpr = rep.values[:, GRID == 0.5][:, 0] * 2  # fnr + fpr of each replicate
    assert np.all(np.isclose(rep.values[:, ~line_sel], trivial[~line_sel]))
    j = int(np.argmin(np.abs(GRID - 0.2)))
    assert line_sel[j]
    # some replicates' own lines lose to the trivial classifier at 0.2, yet their value is their
    # line's cost
    lost = np.isclose(rep.raw[:, j], 0.2)
    assert np.any(lost) and np.any(rep.values[lost, j] > 0.2 + 1e-9)
    lo, _ = np.quantile(rep.values[:, j], [0.05, 0.95])
    assert lo < 2 * rep.estimate[j] - 0.2
    assert fnr_fpr.mean() == pytest.approx(0.32, abs=0.01)
    for p in PRIORS:
        assert rep.expected[p].mean() == pytest.approx(rep.expected_estimate[p], abs=0.003)


def test_useless_crisp_sample_has_a_zero_width_band():
    y = np.r_[np.ones(50, bool), np.zeros(50, bool)]
    pred = np.r_[
        np.ones(20, bool), np.zeros(30, bool), np.ones(25, bool), np.zeros(25, bool)
    ]  # below the diagonal
    rep = bootstrap_crisp(np.random.default_rng(1), y, pred, 500, PRIORS)
    np.testing.assert_allclose(
        rep.values, np.broadcast_to(np.minimum(GRID, 1 - GRID), rep.values.shape), atol=1e-15
    )


# --- family-wise test, p-values, Holm -------------------------------------------------------------


def test_family_wise_critical_value_and_p_value_by_a_loop():
    rng = np.random.default_rng(10)
    m = 11
    grid = np.linspace(0, 1, m)
    est = np.r_[0.0, rng.normal(scale=0.5, size=m - 1)]
    est[5] = 6.0
    d_star = est + rng.normal(size=(400, m)) * np.linspace(
        0.5, 2, m
    )  # replicates about the estimate
    d_star[:, 0] = 0.0  # a point that never varies
    fw = sg.family_wise(d_star, est, 0.9, grid, "a", "b")
    sd = studentizing_sd(d_star.std(axis=0, ddof=1))
    t_star = [max(abs(d_star[r, j] - est[j]) / sd[j] for j in range(1, m)) for r in range(400)]
    assert fw.critical == pytest.approx(np.quantile(t_star, 0.9))
    stat = max(abs(est[j]) / sd[j] for j in range(1, m))
    assert fw.statistic == pytest.approx(stat)
    assert fw.p_value == pytest.approx((sum(t >= stat for t in t_star) + 1) / 401)
    assert fw.significant and all(
        s["better"] == "b" for s in fw.significant
    )  # a - b > 0: b cheaper
    assert any(s["lo"] <= 0.5 <= s["hi"] for s in fw.significant)
    np.testing.assert_allclose(fw.upper - fw.lower, 2 * fw.critical * sd)


def test_family_wise_never_significant_where_nothing_varies():
    grid = np.linspace(0, 1, 5)
    d_star = np.zeros((100, 5))
    d_star[:, 2] = np.random.default_rng(0).normal(size=100)
    est = np.array([0.3, 0.0, 0.1, 0.0, -0.2])  # non-zero where sd = 0: no evidence there
    fw = sg.family_wise(d_star, est, 0.9, grid)
    assert fw.significant == []


def test_family_wise_finds_a_real_difference():
    rng = np.random.default_rng(11)
    n = 600
    y = rng.random(n) < 0.5
    a = rng.normal(size=n) + 0.5 * y
    b = rng.normal(size=n) + 2.0 * y
    reps = bootstrap_dataset(np.random.default_rng(12), y, {"a": a, "b": b}, None, 500)
    est = reps.classifiers["a"].estimate - reps.classifiers["b"].estimate
    fw = sg.family_wise(reps.difference("a", "b", raw=True), est, 0.9, GRID, "a", "b")
    assert fw.p_value < 0.01
    assert any(s["better"] == "b" and s["lo"] < 0.5 < s["hi"] for s in fw.significant)


@given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
@settings(max_examples=60, deadline=None)
def test_holm_against_its_definition(ps):
    """Adjusted p_(i) = max_{j <= i} min(1, (k - j + 1) p_(j)), by a plain loop over the sorted
    p."""
    got = sg.holm({i: p for i, p in enumerate(ps)})
    order = sorted(range(len(ps)), key=lambda i: (ps[i], i))
    k, running, want = len(ps), 0.0, {}
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (k - rank) * ps[i]))
        want[i] = running
    assert got == pytest.approx(want)
    assert all(got[i] >= ps[i] for i in got)


def test_holm_worked_example():
    """Holm (1979): p = 0.01, 0.04, 0.03, 0.005 -> 0.03, 0.06, 0.06, 0.02."""
    got = sg.holm({"a": 0.01, "b": 0.04, "c": 0.03, "d": 0.005})
    assert got == pytest.approx({"a": 0.03, "b": 0.06, "c": 0.06, "d": 0.02})
    assert sg.holm({}) == {}


def test_difference_p_value_and_its_interval_agree():
    rng = np.random.default_rng(13)
    d_star = 0.02 + rng.normal(scale=0.01, size=999)
    for est in (0.0, 0.005, 0.0165, 0.02, 0.04):
        p = sg.difference_p_value(d_star, est)
        lo, hi = sg.difference_interval(d_star, est, 0.9)
        assert p == (np.count_nonzero(np.abs(d_star - est) >= abs(est)) + 1) / 1000
        if p < 0.095:
            assert lo > 0 or hi < 0
        if p > 0.105:
            assert lo <= 0 <= hi
    assert sg.difference_p_value(d_star, 0.0) == 1.0


# --- the double bootstrap of the critical value ---------------------------------------------------


def test_pair_ratios_by_a_loop():
    rng = np.random.default_rng(14)
    g, k, m = 5, 40, 7
    inner = rng.normal(size=(g, k, m)) * rng.uniform(0.5, 2, size=m)
    outer = rng.normal(size=(g, m))
    sample = rng.normal(size=m)
    got = pair_ratios(outer, inner, sample, 0.9)
    for b in range(g):
        sd = studentizing_sd(inner[b].std(axis=0, ddof=1))
        c = np.quantile([np.max(np.abs(inner[b, j] - outer[b]) / sd) for j in range(k)], 0.9)
        assert got[b] == pytest.approx(np.max(np.abs(outer[b] - sample) / sd) / c)


def test_calibrate_pairs_is_reproducible_and_shares_the_world():
    rng = np.random.default_rng(15)
    y, a = binormal(rng, 120)
    b = rng.normal(size=a.size) + y
    c = a > 0.5
    pairs = [("a", "b"), ("a", "c"), ("b", "c")]
    kw = {"level": 0.9, "priors": PRIORS, "outer": 40, "inner": 30}
    one = calibrate_pairs(np.random.default_rng(3), y, {"a": a, "b": b}, {"c": c}, pairs, **kw)
    two = calibrate_pairs(np.random.default_rng(3), y, {"a": a, "b": b}, {"c": c}, pairs, **kw)
    assert set(one) == set(pairs)
    for p in pairs:
        assert one[p].scale == two[p].scale and 0.3 < one[p].scale < 3
        assert all(one[p].null_p[q].tobytes() == two[p].null_p[q].tobytes() for q in PRIORS)
        assert all(
            one[p].null_p[q].size == 40 and np.all(np.diff(one[p].null_p[q]) >= 0) for q in PRIORS
        )
    # the same pair alone reads the same world (the draws do not depend on the other classifiers)
    alone = calibrate_pairs(np.random.default_rng(3), y, {"a": a, "b": b}, None, [("a", "b")], **kw)
    assert alone[("a", "b")].scale == one[("a", "b")].scale
    assert alone[("a", "b")].null_p["beta"].tobytes() == one[("a", "b")].null_p["beta"].tobytes()
    same = calibrate_pairs(
        np.random.default_rng(3),
        y,
        {"a": a, "b": a.copy()},
        None,
        [("a", "b")],
        0.9,
        outer=20,
        inner=10,
    )
    assert same[("a", "b")].scale == 1.0


def test_null_p_values_and_calibrated_p_by_a_loop():
    rng = np.random.default_rng(18)
    outer, inner, sample = rng.normal(size=6), rng.normal(size=(6, 25)), 0.1
    got = null_p_values(outer, inner, sample)
    for b in range(6):
        want = (
            sum(abs(inner[b, k] - outer[b]) >= abs(outer[b] - sample) for k in range(25)) + 1
        ) / 26
        assert got[b] == pytest.approx(want)
    cal = PairCalibration(null_p={"u": np.sort(np.array([0.01, 0.04, 0.04, 0.2, 0.5, 0.9]))})
    assert cal.p_value("u", 0.04) == pytest.approx(4 / 7)  # three null p-values at or below, + 1
    assert cal.p_value("u", 0.001) == pytest.approx(1 / 7)
    assert cal.p_value("other", 0.3) == 0.3  # not calibrated: the plain p-value


def test_dataset_inference_step_down_over_pairs_and_priors():
    rng = np.random.default_rng(16)
    y, a = binormal(rng, 300)
    b = rng.normal(size=a.size) + 1.6 * y
    c = a > 0.5
    reps = bootstrap_dataset(np.random.default_rng(17), y, {"a": a, "b": b}, {"c": c}, 300, PRIORS)
    pairs = [("a", "b"), ("a", "c"), ("b", "c")]
    got = sg.dataset_inference(reps, pairs, 0.9)
    tests = [(x, z, p) for x, z in pairs for p in PRIORS]
    stats = [
        sg.studentized(
            reps.expected_difference(x, z, p, raw=True), got[(x, z)].expected[p]["difference"]
        )
        for x, z, p in tests
    ]
    adjusted = dict(
        zip(
            tests, sg.step_down_max_t([t for t, _ in stats], np.column_stack([n for _, n in stats]))
        )
    )
    for (x, z, p), v in adjusted.items():
        e = got[(x, z)].expected[p]
        assert e["p_holm"] == v >= e["p_value"]
        ra, rb = reps.classifiers[x], reps.classifiers[z]
        assert e["difference"] == ra.expected_estimate[p] - rb.expected_estimate[p]
        assert e["p_value"] == sg.difference_p_value(
            ra.raw_expected[p] - rb.raw_expected[p], e["difference"]
        )
    ab = got[("a", "b")]
    fw = sg.family_wise(
        reps.difference("a", "b", raw=True),
        reps.classifiers["a"].estimate - reps.classifiers["b"].estimate,
        0.9,
        GRID,
        "a",
        "b",
    )
    assert ab.family_wise.critical == fw.critical and ab.family_wise.significant == fw.significant
    d = ab.to_dict()
    assert (
        d["difference_band"]["kind"] == "pointwise"
        and "not adjusted" in d["difference_band"]["note"]
    )
    assert d["significant"] == fw.significant
    cal = {("a", "b"): PairCalibration(scale=2.0, null_p={"uniform": np.linspace(0.01, 1, 99)})}
    scaled = sg.dataset_inference(reps, [("a", "b")], 0.9, calibration=cal)
    assert scaled[("a", "b")].family_wise.critical == pytest.approx(2 * fw.critical)
    e = scaled[("a", "b")].expected["uniform"]
    assert e["p_value"] == cal[("a", "b")].p_value("uniform", e["p_plain"])
    assert (
        scaled[("a", "b")].expected["beta"]["p_value"]
        == scaled[("a", "b")].expected["beta"]["p_plain"]
    )


def test_replicates_that_select_a_trivial_classifier_carry_the_samples_selection_error():
    """Issue 10 item 4 for scoring classifiers: with few distinct scores, a replicate whose envelope
    is a trivial classifier where the sample's is not gets ``2 t - t*(v)`` (v the sample's selected
    threshold, costed by brute force in the replicate), not exactly the estimate."""
    from ccreport.analysis.bootstrap import bootstrap_scores
    from ccreport.analysis.roc import roc_points

    rng = np.random.default_rng(19)
    n = 200
    y = rng.random(n) < 0.5
    s = np.clip(np.round(rng.normal(size=n) + y), -1, 3)
    rep = bootstrap_scores(np.random.default_rng(20), y, s, 300)
    roc = roc_points(y, s)
    w = np.empty(
        (300, n), dtype=np.int64
    )  # bootstrap_scores reads counts in class-rank (score) order
    rng2 = np.random.default_rng(20)
    order_pos = np.flatnonzero(y)[np.argsort(-s[y], kind="stable")]
    order_neg = np.flatnonzero(~y)[np.argsort(-s[~y], kind="stable")]
    for start, reps in zip(np.cumsum([0] + chunk_sizes(300, n)[:-1]), chunk_sizes(300, n)):
        w[start : start + reps, order_pos] = multinomial_counts(rng2, int(y.sum()), reps)
        w[start : start + reps, order_neg] = multinomial_counts(rng2, int((~y).sum()), reps)
    trivial = np.minimum(GRID, 1 - GRID)
    checked = 0
    for j in range(1, GRID.size - 1):
        pc = GRID[j]
        costs = (1 - roc.tp / roc.n_pos) * pc + roc.fp / roc.n_neg * (1 - pc)
        v = int(np.argmin(costs))
        if costs[v] >= trivial[j] - 1e-12 or v in (0, costs.size - 1):
            continue  # the sample selects a trivial classifier here
        thr = roc.thresholds[v]
        for r in range(300):
            if abs(rep.raw[r, j] - trivial[j]) > 1e-12:
                continue
            yy, ss = np.repeat(y, w[r]), np.repeat(s, w[r])
            own = pc * np.mean(ss[yy] < thr) + (1 - pc) * np.mean(ss[~yy] >= thr)
            if own <= trivial[j] + 1e-12 and own < rep.raw[r, j] - 1e-12:
                continue  # a non-trivial vertex ties the trivial one
            assert rep.values[r, j] == pytest.approx(2 * rep.estimate[j] - own, abs=1e-12)
            checked += 1
    assert checked > 20


def test_claim_family_leaves_out_points_where_both_are_trivial():
    grid = np.linspace(0, 1, 11)
    trivial = np.minimum(grid, 1 - grid)
    a = np.minimum(trivial, 0.3)  # a's line 0.3 beats the trivial classifiers on (0.3, 0.7)
    b = np.minimum(trivial, 0.45)
    fam = sg.claim_family(a, b, grid)
    np.testing.assert_array_equal(fam, (grid > 0.3 + 1e-9) & (grid < 0.7 - 1e-9))
    rng = np.random.default_rng(21)
    noise = rng.normal(size=(300, 11))
    noise[:, :3] *= 30  # wild replicates where the sample has both trivial
    est = np.zeros(11)
    est[5] = 2.5
    d_star = est + noise
    restricted = sg.family_wise(d_star, est, 0.9, grid, family=fam)
    everywhere = sg.family_wise(d_star, est, 0.9, grid)
    assert restricted.significant and not everywhere.significant
    assert np.all(restricted.upper[~fam] == restricted.estimate[~fam])


# --- Westfall & Young step-down max-T over every pair x prior test --------------------------------


def _step_down_by_loop(t, t_star):
    """WY 1993 algorithm 4.1 as written: successive maxima over the tests not yet stepped past."""
    k, r = len(t), t_star.shape[0]
    order = sorted(range(k), key=lambda i: (-t[i], i))
    running, out = 0.0, {}
    for step, i in enumerate(order):
        rest = order[step:]
        count = sum(
            max(t_star[row, j] for j in rest) >= t[i] - 1e-12 * max(1.0, t[i]) for row in range(r)
        )
        running = max(running, min(1.0, (count + 1) / (r + 1)))
        out[i] = running
    return np.array([out[i] for i in range(k)])


@given(st.integers(1, 6), st.integers(5, 40), st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_step_down_max_t_against_its_definition(k, r, seed):
    rng = np.random.default_rng(seed)
    t_star = np.abs(rng.normal(size=(r, k)))
    t = np.abs(rng.normal(scale=2.0, size=k))
    t[rng.random(k) < 0.2] = 0.0  # tests that cannot reject
    got = sg.step_down_max_t(t, t_star)
    assert got == pytest.approx(_step_down_by_loop(t, t_star))
    # each adjusted p is at least the test's own bootstrap p, and the ordering follows the
    # statistics
    own = (np.count_nonzero(t_star >= t - 1e-12 * np.maximum(1, t), axis=0) + 1) / (r + 1)
    assert np.all(got >= own - 1e-15)
    assert np.all(np.diff(got[np.argsort(-t, kind="stable")]) >= 0)


def test_step_down_max_t_one_test_is_the_plain_p_value():
    rng = np.random.default_rng(31)
    d_star = 0.01 + rng.normal(scale=0.02, size=999)
    for d in (0.0, 0.013, 0.05):
        sd = d_star.std(ddof=1)
        got = sg.step_down_max_t([abs(d) / sd], (np.abs(d_star - d) / sd)[:, None])
        assert got[0] == pytest.approx(sg.difference_p_value(d_star, d))


def test_step_down_max_t_has_no_holm_floor():
    """300 clear differences at R = 999: Holm of the plain p-values cannot go below 300/1000 for the
    largest, the step-down max-T marks every one at 1/1000 (issue 10 item 3)."""
    rng = np.random.default_rng(32)
    k, r = 300, 999
    t_star = np.abs(rng.normal(size=(r, k)))
    t = np.full(k, 20.0)
    got = sg.step_down_max_t(t, t_star)
    assert np.all(got == 1 / (r + 1))
    plain = {i: 1 / (r + 1) for i in range(k)}
    assert min(sg.holm(plain).values()) == pytest.approx(k / (r + 1))


def test_step_down_max_t_independent_tests_near_sidak():
    """Independent standard-normal tests: the largest statistic's adjusted p is about Sidak's
    1 - (1 - p)^K of its own p (the max of K independent |N(0, 1)|)."""
    from scipy.special import ndtr

    rng = np.random.default_rng(33)
    k, r = 5, 20000
    t_star = np.abs(rng.normal(size=(r, k)))
    t = np.array([2.8, 0.5, 0.3, 0.2, 0.1])
    p1 = 2 * ndtr(-2.8)
    got = sg.step_down_max_t(t, t_star)
    assert got[0] == pytest.approx(1 - (1 - p1) ** k, abs=0.004)


def test_crisp_lines_are_the_replicates_unclipped_cost_lines():
    """A crisp classifier's ``line`` replicates are fnr* pc + fpr* (1 - pc) of its replicate counts
    (an independent computation from the replicates' ROC points), and its envelope is their minimum
    with the trivial classifiers."""
    rng = np.random.default_rng(45)
    y = rng.random(150) < 0.4
    pred = rng.normal(size=150) + 1.5 * y > 0.7
    reps = bootstrap_dataset(np.random.default_rng(46), y, None, {"c": pred}, 200).classifiers["c"]
    trivial = np.minimum(GRID, 1 - GRID)
    np.testing.assert_allclose(reps.raw, np.minimum(reps.line, trivial), atol=1e-12)
    fnr, fpr = np.mean(~pred[y]), np.mean(pred[~y])
    np.testing.assert_allclose(reps.line_estimate, fnr * GRID + fpr * (1 - GRID), atol=1e-12)
    slope = (
        reps.line[:, -1] - reps.line[:, 0]
    )  # fnr* - fpr*, a lattice of steps 1/n_pos and 1/n_neg
    np.testing.assert_allclose(reps.line[:, 50], reps.line[:, 0] + 0.5 * slope, atol=1e-12)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    np.testing.assert_allclose(
        reps.line[:, 0] * n_neg, np.round(reps.line[:, 0] * n_neg), atol=1e-9
    )
    np.testing.assert_allclose(
        (1 - reps.line[:, -1]) * n_pos, np.round((1 - reps.line[:, -1]) * n_pos), atol=1e-9
    )
    scoring = bootstrap_dataset(
        np.random.default_rng(46), y, {"s": pred + 0.0 * y}, None, 50
    ).classifiers["s"]
    assert scoring.line is None and sg.crisp_reference(scoring, reps) is None


def test_envelope_difference_never_exceeds_the_line_difference():
    """min(., t) is 1-Lipschitz: |T_a - T_b| <= |L_a - L_b| at every PC(+), replicate by replicate,
    so judging the envelopes against the lines' band claims only where the line test would."""
    rng = np.random.default_rng(47)
    y = rng.random(300) < 0.5
    noise = rng.normal(size=300)
    a = noise + 2 * y + 0.5 * rng.normal(size=300) >= 1
    b = noise + 1.4 * y + 0.5 * rng.normal(size=300) >= 0.6
    reps = bootstrap_dataset(np.random.default_rng(48), y, None, {"a": a, "b": b}, 300)
    ra, rb = reps.classifiers["a"], reps.classifiers["b"]
    line_star, line = sg.crisp_reference(ra, rb)
    assert np.all(np.abs(reps.difference("a", "b", raw=True)) <= np.abs(line_star) + 1e-12)
    assert np.all(np.abs(ra.estimate - rb.estimate) <= np.abs(line) + 1e-12)


def test_family_wise_studentized_by_a_reference():
    """With a reference process, s and c are the reference's, the statistic and the band are the
    estimate's, and the band excludes 0 exactly where |d| > c s; the reference equal to the
    difference itself is the plain test."""
    rng = np.random.default_rng(41)
    y = rng.random(200) < 0.5
    noise = rng.normal(size=200)
    a = noise + 2 * y + 0.3 * rng.normal(size=200) >= 1
    b = noise + 2 * y + 0.3 * rng.normal(size=200) >= 1
    reps = bootstrap_dataset(np.random.default_rng(42), y, None, {"a": a, "b": b}, 400)
    ra, rb = reps.classifiers["a"], reps.classifiers["b"]
    raw, d = reps.difference("a", "b", raw=True), ra.estimate - rb.estimate
    fam = sg.claim_family(ra.estimate, rb.estimate, GRID)
    plain = sg.family_wise(raw, d, 0.9, GRID, family=fam)
    same = sg.family_wise(raw, d, 0.9, GRID, family=fam, reference=(raw, d))
    assert (same.critical, same.statistic, same.p_value) == (
        plain.critical,
        plain.statistic,
        plain.p_value,
    )
    line_star, line = sg.crisp_reference(ra, rb)
    got = sg.family_wise(raw, d, 0.9, GRID, family=fam, reference=(line_star, line))
    sd = np.where(fam, studentizing_sd(line_star.std(axis=0, ddof=1)), 0.0)
    live = sd > 0
    t_star = (np.abs(line_star - line)[:, live] / sd[live]).max(axis=1)
    assert got.critical == pytest.approx(np.quantile(t_star, 0.9))
    assert got.statistic == pytest.approx(np.max(np.abs(d)[live] / sd[live]))
    assert got.p_value == pytest.approx(
        (np.count_nonzero(t_star >= got.statistic) + 1) / (t_star.size + 1)
    )
    np.testing.assert_allclose(got.upper - got.lower, 2 * got.critical * sd)
    excludes = (got.lower > 0) | (got.upper < 0)
    np.testing.assert_array_equal(excludes & live, live & (np.abs(d) > got.critical * sd))


def test_dataset_inference_studentizes_crisp_pairs_by_their_lines_only():
    rng = np.random.default_rng(43)
    y, a = binormal(rng, 200)
    c, e = a > 0.4, rng.normal(size=a.size) + y > 0.6
    reps = bootstrap_dataset(np.random.default_rng(44), y, {"a": a}, {"c": c, "e": e}, 300)
    got = sg.dataset_inference(reps, [("a", "c"), ("c", "e")], 0.9)
    for (x, z), crisp in ((("a", "c"), False), (("c", "e"), True)):
        rx, rz = reps.classifiers[x], reps.classifiers[z]
        ref = (rx.line - rz.line, rx.line_estimate - rz.line_estimate) if crisp else None
        want = sg.family_wise(
            reps.difference(x, z, raw=True),
            rx.estimate - rz.estimate,
            0.9,
            GRID,
            x,
            z,
            family=sg.claim_family(rx.estimate, rz.estimate, GRID),
            reference=ref,
        )
        assert got[(x, z)].family_wise.statistic == want.statistic
        np.testing.assert_array_equal(got[(x, z)].family_wise.lower, want.lower)
        assert got[(x, z)].family_wise.method == (
            sg.CRISP_FAMILY_METHOD if crisp else sg.FAMILY_METHOD
        )
    plain = sg.family_wise(
        reps.difference("c", "e", raw=True),
        reps.classifiers["c"].estimate - reps.classifiers["e"].estimate,
        0.9,
        GRID,
        family=sg.claim_family(
            reps.classifiers["c"].estimate, reps.classifiers["e"].estimate, GRID
        ),
    )
    assert got[("c", "e")].family_wise.critical != plain.critical


def test_fdb_p_value_by_its_definition():
    """Davidson & MacKinnon (2007): p** = (#(tau* >= Q**(1 - p*)) + 1) / (R + 1); with a second
    level as wide as the first the FDB p-value is about the plain one; a wider second level says the
    bootstrap spreads the difference wider than the data's law, so the FDB p-value is smaller."""
    from ccreport.analysis.pair_calibration import fdb_p_value

    rng = np.random.default_rng(51)
    noise = rng.normal(scale=0.02, size=999)
    outer = rng.normal(scale=0.02, size=999)
    for d, widen in ((0.03, 1.0), (0.03, 2.0), (0.0, 1.0)):
        d_star = d + noise
        inner = outer + widen * rng.normal(scale=0.02, size=999)
        got = fdb_p_value(outer, inner, d_star, d)
        plain = sg.difference_p_value(d_star, d)
        q = np.quantile(np.abs(inner - outer), 1 - plain)
        assert (
            got == 1.0
            if plain == 1.0
            else got
            == pytest.approx((np.count_nonzero(np.abs(d_star - d) >= q - 1e-12) + 1) / 1000)
        )
        if widen == 2.0:
            assert got < plain
        else:
            assert got == pytest.approx(plain, abs=0.06)
    assert fdb_p_value(outer, outer + 0.01, noise, 0.0) == 1.0
