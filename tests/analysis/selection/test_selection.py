"""Selection criteria and hybrid classifiers (D&H 2006 section 5, D&H 2000 sections 2.2-2.3).

Worked numbers are those of ../shared/specs/selection_and_instance_costs.md section 4 (the
selection rows); every criterion is also checked against brute force over all thresholds.
"""

import itertools

import numpy as np
import pytest
from brute_force import roc_points_by_thresholds
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ccreport.analysis.conditions import (
    cost_point_to_roc_line,
    probability_cost,
    roc_line_to_cost_point,
)
from ccreport.analysis.envelope import cost_lines, lower_envelope
from ccreport.analysis.roc import crisp_roc, roc_points
from ccreport.analysis.selection import (
    NeymanPearson,
    PerformanceIndependent,
    Workforce,
    dataset_hybrid,
    neyman_pearson,
    out_of_fold,
    parameter_based,
    performance_independent,
    select_dataset,
    select_scores,
    tau_from_ratio,
    threshold_for,
    threshold_table,
    value_at,
    workforce,
)

# --- helpers -----------------------------------------------------------------------------------


def make_data(groups):
    """groups: [(score, n_pos, n_neg), ...] -> labels, scores."""
    y = np.concatenate([[True] * p + [False] * n for _, p, n in groups])
    s = np.concatenate([[v] * (p + n) for v, p, n in groups]).astype(float)
    return y, s


# Spec rows 12-13: hull (0,0), (0.1,0.5), (0.3,0.8), (1,1) with P = 100, N = 300.
TOY_Y, TOY_S = make_data([(0.9, 50, 30), (0.6, 30, 60), (0.2, 20, 210)])


def crisp(n_pos, n_neg, tp, fp):
    """A crisp classifier with the given counts."""
    y = np.array([True] * n_pos + [False] * n_neg)
    pred = np.array([True] * tp + [False] * (n_pos - tp) + [True] * fp + [False] * (n_neg - fp))
    return crisp_roc(y, pred)


def thresholds_of(s):
    return np.concatenate(([np.inf], np.unique(s)[::-1]))


def rates_at(y, s, t):
    """(fpr, tpr) of predicting s >= t, by counting."""
    return float(np.mean(s[~y] >= t)), float(np.mean(s[y] >= t))


@st.composite
def labelled_scores(draw, max_size=30, levels=6, probability=False):
    n = draw(st.integers(2, max_size))
    y = draw(hnp.arrays(bool, n))
    if y.all() or not y.any():
        y[0] = not y[0]
    s = draw(hnp.arrays(float, n, elements=st.integers(0, levels - 1).map(float)))
    if probability:
        s = s / (levels - 1)
    return y, s


# --- worked numbers (spec section 4) -----------------------------------------------------------


def test_row1_fig1_confusion_matrix():
    roc = crisp(20, 10, 16, 4)  # TP 16, FN 4, FP 4, TN 6
    assert (roc.fpr[1], roc.tpr[1]) == (0.4, 0.8)
    assert cost_lines(0.4, 0.8) == pytest.approx((0.4, 0.2))


def test_row2_fig2_point_b():
    assert cost_lines(0.35, 0.7) == pytest.approx((0.35, 0.30))


def test_row3_fig2_operating_range_from_incident_slopes():
    # A = (0.25, 0.6) after (0, 0): slope 2.4; B = (0.45, 0.9) after A: slope 1.5.
    hybrid = dataset_hybrid({"A": crisp(10, 20, 6, 5), "B": crisp(10, 20, 9, 9)})
    seg = {s["classifier"]: s for s in hybrid.segments() if s["threshold"] == 1.0}
    assert seg["A"]["low"] == pytest.approx(1 / 3.4) and seg["A"]["low"] == pytest.approx(
        0.294118, abs=1e-6
    )
    assert seg["A"]["high"] == pytest.approx(1 / 2.5)


def test_row4_eq3_duality():
    x, y = roc_line_to_cost_point(2.0, 0.3)
    assert (x, y) == pytest.approx((1 / 3, 0.7 / 3))
    assert cost_point_to_roc_line(x, y) == pytest.approx((2.0, 0.3))


def test_row5_sonar_operating_conditions():
    pc = probability_cost(0.5337, [1, 2, 5, 10])
    assert pc == pytest.approx([0.5337, 0.695964, 0.851250, 0.919649], abs=1e-6)
    for lo, hi in [(0.28, 0.75), (0.25, 0.82)]:
        inside = (pc > lo) & (pc < hi)
        assert inside.tolist() == [True, True, False, False]


def test_row6_fig14_operating_ranges():
    for (tp, fp), (lo, hi) in [((4, 4), (1 / 11, 0.615385)), ((8, 30), (0.272727, 0.777778))]:
        table = threshold_table(crisp(10, 100, tp, fp), "c")
        seg = [s for s in table.segments() if s["threshold"] == 1.0][0]
        assert (seg["low"], seg["high"]) == pytest.approx((lo, hi), abs=1e-6)


def test_row7_literal_threshold():
    assert threshold_for("literal", 0.2) == 0.2


def test_row8_dh00_fig8():
    roc = crisp(25, 100, 9, 9)  # FP 0.09, TP 0.36
    assert cost_lines(0.09, 0.36) == pytest.approx((0.09, 0.64))
    seg = [s for s in threshold_table(roc).segments() if s["threshold"] == 1.0][0]
    assert (seg["low"], seg["high"]) == pytest.approx((0.2, 0.587097), abs=1e-6)


def test_row9_dh00_fig4_horizontal_line():
    roc = crisp(10, 10, 7, 3)
    assert cost_lines(0.3, 0.7) == pytest.approx((0.3, 0.3))
    seg = [s for s in threshold_table(roc).segments() if s["threshold"] == 1.0][0]
    assert (seg["low"], seg["high"]) == pytest.approx((0.3, 0.7))


def test_row10_dh00_parameter_based_switch():
    tau = tau_from_ratio([11, 5])
    assert tau == pytest.approx([1 / 12, 1 / 6])
    sel = parameter_based([0.05, 0.1], [0.4, 0.6], tau, names=["A", "B"])
    assert sel.curve.low[1] == pytest.approx(1 / 8)


def test_row11_parameter_based_area():
    sel = parameter_based(
        [0.1, 0.3, 0.05], [0.6, 0.85, 0.4], [1 / 6, 1 / 2, 1 / 12], names=["B", "C", "A"]
    )
    assert sel.curve.member == ("A", "B", "C")
    assert sel.curve.low[1:] == pytest.approx([0.125, 1 / 3])
    assert sel.area == pytest.approx(0.179036, abs=1e-6)
    assert sel.excess == pytest.approx(
        sel.area - lower_envelope([0.1, 0.3, 0.05], [0.6, 0.85, 0.4]).area
    )
    assert sel.excess > 0
    # a midpoint belongs to the larger tau
    assert sel.curve(0.125) == pytest.approx(0.1 + 0.3 * 0.125)
    d = sel.to_dict()
    assert d["rule"] == "parameter_based" and [s["classifier"] for s in d["segments"]] == [
        "A",
        "B",
        "C",
    ]


def test_row12_neyman_pearson():
    roc = roc_points(TOY_Y, TOY_S)
    for alpha, tpr in [(0.05, 0.25), (0.2, 0.65), (0.5, 0.857143)]:
        choice = neyman_pearson(roc, alpha)
        assert choice.tpr == pytest.approx(tpr, abs=1e-6)
        assert choice.fpr == pytest.approx(alpha)
    c = neyman_pearson(roc, 0.2)
    assert c.touch == pytest.approx((0.4, 0.26))
    assert c.cost_line == pytest.approx((0.2, 0.35))
    assert c.mix.thresholds == (0.9, 0.6) and c.mix.weight_first == pytest.approx(0.5)
    assert (c.deterministic_threshold, c.deterministic_fpr, c.deterministic_tpr) == (0.9, 0.1, 0.5)
    d = c.to_dict()
    assert set(d) == {"fpr", "tpr", "cost_line", "mix", "deterministic"}
    assert set(d["mix"]) == {"thresholds", "weight_first"}
    assert set(d["deterministic"]) == {"threshold", "fpr", "tpr"}


def test_row13_workforce():
    roc = roc_points(TOY_Y, TOY_S)
    assert (roc.n_pos, roc.n_neg) == (100, 300)
    for w, point in [(60, (0.075, 0.375)), (150, (0.255556, 0.733333)), (500, (1.0, 1.0))]:
        c = workforce(roc, capacity=w)
        assert (c.fpr, c.tpr) == pytest.approx(point, abs=1e-6)
    c = workforce(roc, capacity=60)
    assert c.flagged == pytest.approx(60)
    assert c.virtual_point == pytest.approx((-0.5, -0.2))
    slope = c.cost_line[1] - c.cost_line[0]  # D&H 2000 Eq. 14: 1 - W/P + (N/P - 1) FP
    assert slope == pytest.approx(0.55)
    # every cost line of a classifier on Eq. 12 passes through the virtual point
    x, y = c.virtual_point
    assert c.cost_line[0] + slope * x == pytest.approx(y)
    assert workforce(roc, capacity_share=0.15).capacity == pytest.approx(60)
    assert set(c.to_dict()) == {
        "capacity",
        "fpr",
        "tpr",
        "flagged",
        "cost_line",
        "mix",
        "deterministic",
    }
    # the best single threshold: most TP with at most W flagged, fewest FP among equals (brute
    # force)
    for w in (0, 37, 60, 150, 500):
        c = workforce(roc, capacity=w)
        ok = [
            (int(tp), -int(fp), float(t))
            for tp, fp, t in zip(roc.tp, roc.fp, roc.thresholds)
            if tp + fp <= w
        ]
        tp, mfp, t = max(ok)
        assert (c.deterministic_threshold, c.deterministic_tpr, c.deterministic_fpr) == (
            t,
            tp / 100,
            -mfp / 300,
        )
        assert c.deterministic_tpr <= c.tpr + 1e-12  # mixing never does worse


def test_row21_out_of_fold():
    y = np.array([1, 0, 1, 0, 1, 1, 0, 0], bool)
    s = np.array([0.9, 0.7, 0.6, 0.2, 0.8, 0.5, 0.4, 0.1])
    folds = np.array([1, 1, 1, 1, 2, 2, 2, 2])
    mid = out_of_fold(y, s, folds)
    assert mid.curve(0.5) == pytest.approx(0.375)  # tie -> fewest positives
    assert mid.curve(0.75) == pytest.approx(0.0625)
    assert mid.area == pytest.approx(0.1875)
    ge = out_of_fold(y, s, folds, placement="ge_score")
    assert ge.curve(0.75) == pytest.approx(0.25)
    assert ge.area == pytest.approx(0.28125)
    assert mid.optimism == pytest.approx(mid.area - lower_envelope(roc_points(y, s)).area)


# --- thresholds on the hull and the threshold table --------------------------------------------


@given(labelled_scores())
def test_hull_thresholds_reproduce_the_hull_rates(data):
    y, s = data
    roc = roc_points(y, s)
    env = lower_envelope(roc)
    assert env.hull_thresholds[0] == np.inf and env.hull_thresholds[-1] == s.min()
    for t, f, tp in zip(env.hull_thresholds, env.hull_fpr, env.hull_tpr):
        assert rates_at(y, s, t) == pytest.approx((f, tp))


def brute_optimal(y, columns, pc):
    """{(classifier, threshold)} of least cost at pc and that cost, by counting (trivial ends
    once)."""
    best, members = np.inf, set()
    for c, (name, s) in enumerate(columns.items()):
        ts = thresholds_of(s)
        if c > 0:
            ts = ts[1:-1]
        for t in ts:
            f, tp = rates_at(y, s, t)
            cost = (1 - tp) * pc + f * (1 - pc)
            if cost < best - 1e-9:
                best, members = cost, {(name, t)}
            elif abs(cost - best) <= 1e-9:
                members.add((name, t))
    return best, members


@settings(max_examples=60, deadline=None)
@given(
    labelled_scores(max_size=20, levels=5),
    st.lists(st.integers(0, 4), min_size=40, max_size=40),
    st.data(),
)
def test_hybrid_against_brute_force(data, second, draw):
    y, s1 = data
    s2 = np.array(second[: y.size], float)
    s3 = draw.draw(
        st.sampled_from([s1.copy(), -s1, np.zeros(y.size)])
    )  # a duplicate, a reverse, a constant
    columns = {"a": s1, "b": s2, "c": s3}
    hybrid = dataset_hybrid({k: roc_points(y, v) for k, v in columns.items()})
    pcs = np.linspace(0, 1, 41)
    brute = np.array([brute_optimal(y, columns, x)[0] for x in pcs])
    assert hybrid.envelope(pcs) == pytest.approx(brute, abs=1e-12)
    for seg in hybrid.segments():  # the labelled threshold is optimal inside its segment
        x = (seg["low"] + seg["high"]) / 2
        f, tp = rates_at(y, columns[seg["classifier"]], seg["threshold"])
        assert (1 - tp) * x + f * (1 - x) == pytest.approx(
            brute_optimal(y, columns, x)[0], abs=1e-12
        )
    assert hybrid.segments()[0]["low"] == 0.0 and hybrid.segments()[-1]["high"] == 1.0
    for tie in hybrid.ties:  # ties list exactly the optimal thresholds
        _, members = brute_optimal(y, columns, tie.pc)
        assert {(m[0], m[1]) for m in tie.members} == members


def test_ties_of_collinear_points_and_coinciding_classifiers():
    # points (0,0), (0.25,0.5), (0.5,1.0): collinear, so the middle one ties along the whole edge
    y, s = make_data([(3, 2, 1), (2, 2, 1), (1, 0, 2)])
    table = threshold_table(roc_points(y, s), "x")
    assert [seg["threshold"] for seg in table.segments()] == [np.inf, 2.0]  # (1, 1) only at pc = 1
    assert (table.low[-1], table.high[-1]) == (1.0, 1.0)
    assert [(t.pc, [m[1] for m in t.members]) for t in table.ties[1:]] == [(1.0, [2.0, 1.0])]
    tie = table.ties[0]
    assert tie.pc == pytest.approx(1 / 3)
    assert [m[1] for m in tie.members] == [np.inf, 3.0, 2.0]  # fewest positives first
    both = dataset_hybrid({"x": roc_points(y, s), "y": roc_points(y, s)})
    assert {seg["classifier"] for seg in both.segments()} == {"x"}  # the first one is named


def test_hybrid_needs_the_same_instances():
    with pytest.raises(ValueError, match="same instances"):
        dataset_hybrid({"a": crisp(10, 10, 5, 2), "b": crisp(10, 11, 5, 2)})


# --- Neyman-Pearson and workforce against brute force ------------------------------------------


def brute_points(y, s):
    f, t = roc_points_by_thresholds(y, s)
    return f, t, thresholds_of(s)


def brute_mixtures(f, t):
    """All single points and all pairwise mixtures as (i, j, lambda_i) generators' rates."""
    yield from ((f[i], t[i]) for i in range(f.size))
    for i, j in itertools.permutations(range(f.size), 2):
        yield (f[i], t[i], f[j], t[j])


@settings(max_examples=80, deadline=None)
@given(
    labelled_scores(),
    st.one_of(
        st.sampled_from([0.0, 1.0]), st.integers(0, 20).map(lambda k: k / 20), st.floats(0, 1)
    ),
)
def test_neyman_pearson_against_brute_force(data, alpha):
    y, s = data
    f, t, thr = brute_points(y, s)
    # best TPR at FPR <= alpha: single points, and pairs straddling alpha interpolated at alpha
    best = max(t[f <= alpha])
    for i, j in itertools.product(range(f.size), repeat=2):
        if f[i] <= alpha < f[j]:
            lam = (f[j] - alpha) / (f[j] - f[i])
            best = max(best, lam * t[i] + (1 - lam) * t[j])
    choice = neyman_pearson(roc_points(y, s), alpha)
    assert choice.tpr == pytest.approx(best, abs=1e-12)
    assert choice.fpr <= alpha + 1e-12
    if best < 1:
        assert choice.fpr == pytest.approx(alpha)
    else:  # the first point with TPR = 1, never a dominated one
        assert choice.fpr == pytest.approx(f[t == 1].min())
    # the mixture realises it
    (t1, t2), w = choice.mix.thresholds, choice.mix.weight_first
    r1, r2 = rates_at(y, s, t1), rates_at(y, s, t2)
    assert w * r1[0] + (1 - w) * r2[0] == pytest.approx(choice.fpr)
    assert w * r1[1] + (1 - w) * r2[1] == pytest.approx(choice.tpr)
    # deterministic: the most TPR at FPR <= alpha, ties to the smaller FPR
    ok = f <= alpha
    t_best = t[ok].max()
    f_best = f[ok & (t == t_best)].min()
    assert (choice.deterministic_fpr, choice.deterministic_tpr) == pytest.approx((f_best, t_best))
    assert rates_at(y, s, choice.deterministic_threshold) == pytest.approx((f_best, t_best))


@settings(max_examples=80, deadline=None)
@given(labelled_scores(), st.floats(0, 1.3))
def test_workforce_against_brute_force(data, share):
    y, s = data
    p, n = int(y.sum()), int((~y).sum())
    w = share * (p + n)  # up to 30% above P + N
    f, t, _ = brute_points(y, s)
    c = p * t + n * f
    cands = [(f[i], t[i]) for i in range(f.size) if c[i] <= w + 1e-9]
    for i, j in itertools.permutations(range(f.size), 2):
        if c[i] <= w < c[j]:
            lam = (w - c[i]) / (c[j] - c[i])
            cands.append((f[i] + lam * (f[j] - f[i]), t[i] + lam * (t[j] - t[i])))
    cands = np.array(cands)
    best_t = cands[:, 1].max()
    best_f = cands[np.abs(cands[:, 1] - best_t) <= 1e-12, 0].min()
    choice = workforce(roc_points(y, s), capacity=w)
    assert (choice.fpr, choice.tpr) == pytest.approx((best_f, best_t), abs=1e-12)
    assert choice.flagged <= w + 1e-9
    (t1, t2), lam = choice.mix.thresholds, choice.mix.weight_first
    r1, r2 = rates_at(y, s, t1), rates_at(y, s, t2)
    assert lam * r1[1] + (1 - lam) * r2[1] == pytest.approx(choice.tpr)


def test_degenerate_criteria():
    roc = roc_points(TOY_Y, TOY_S)
    # max_fpr beyond the hull's reach: the hull reaches TPR 1 only at (1, 1) here
    assert (neyman_pearson(roc, 1.0).fpr, neyman_pearson(roc, 1.0).tpr) == (1.0, 1.0)
    y, s = make_data([(0.9, 8, 1), (0.5, 2, 3), (0.1, 0, 6)])  # TPR 1 at FPR 0.4
    c = neyman_pearson(roc_points(y, s), 0.7)
    assert (c.fpr, c.tpr) == (0.4, 1.0) and c.mix.thresholds == (0.5, 0.5)
    c0 = neyman_pearson(roc, 0.0)
    assert (c0.fpr, c0.tpr, c0.mix.thresholds) == (0.0, 0.0, (np.inf, np.inf))
    # W = 0 flags nothing; W > P + N stops at the first vertex with TPR 1
    assert (workforce(roc, capacity=0).fpr, workforce(roc, capacity=0).tpr) == (0.0, 0.0)
    big = workforce(roc_points(y, s), capacity=1000)
    assert (big.fpr, big.tpr, big.flagged) == (0.4, 1.0, 14.0)
    # constant scores: the diagonal, reached by mixing "nothing" and "everything"
    y = np.array([1, 0, 1, 0, 0], bool)
    const = roc_points(y, np.full(5, 0.3))
    c = neyman_pearson(const, 0.3)
    assert (c.fpr, c.tpr) == pytest.approx((0.3, 0.3))
    assert c.mix.thresholds == (np.inf, 0.3) and c.mix.weight_first == pytest.approx(0.7)
    assert c.deterministic_threshold == np.inf
    # one class of scores tied: all negatives at one score
    y, s = make_data([(0.9, 3, 0), (0.7, 2, 0), (0.5, 1, 4), (0.2, 2, 0)])
    c = neyman_pearson(roc_points(y, s), 0.5)
    assert (c.fpr, c.tpr) == pytest.approx((0.5, 5 / 8 + 0.5 * 3 / 8))
    # crisp
    cr = crisp(10, 10, 7, 3)
    assert neyman_pearson(cr, 0.3).tpr == 0.7 and neyman_pearson(cr, 0.3).mix.thresholds == (
        1.0,
        1.0,
    )


def test_criteria_errors():
    roc = roc_points(TOY_Y, TOY_S)
    with pytest.raises(ValueError, match="max_fpr"):
        neyman_pearson(roc, 1.5)
    with pytest.raises(ValueError, match="capacity"):
        workforce(roc, capacity=-1)
    with pytest.raises(ValueError, match="exactly one"):
        workforce(roc, capacity=3, capacity_share=0.1)
    with pytest.raises(ValueError, match="same training condition"):
        parameter_based([0.1, 0.2], [0.5, 0.6], [0.3, 0.3], names=["a", "b"])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        performance_independent(roc_points(TOY_Y, TOY_S * 2))
    with pytest.raises(ValueError, match="rule"):
        PerformanceIndependent("bayes")


# --- performance-independent selection ---------------------------------------------------------


def closed_form_area(rule, y, s, prior):
    """Spec section 1.1(b): each instance's error integrated over the x where it is
    misclassified."""
    sp, sn = s[y], s[~y]
    if rule == "literal":
        return np.mean((1 - sp**2) / 2) + np.mean(sn - sn**2 / 2)
    if rule == "score_driven":
        return np.mean((1 - sp) ** 2) / 2 + np.mean(sn**2) / 2
    xp = prior * (1 - sp) / (prior * (1 - sp) + (1 - prior) * sp)
    xn = prior * (1 - sn) / (prior * (1 - sn) + (1 - prior) * sn)
    return np.mean(xp**2) / 2 + np.mean((1 - xn) ** 2) / 2


@settings(max_examples=60, deadline=None)
@given(
    labelled_scores(levels=11, probability=True),
    st.sampled_from(["bayes_prior", "score_driven", "literal"]),
    st.sampled_from([None, 0.3]),
)
def test_performance_independent_against_brute_force(data, rule, prior):
    y, s = data
    roc = roc_points(y, s)
    sel = performance_independent(roc, rule, prior)
    pi = y.mean() if prior is None else prior
    assert sel.area == pytest.approx(closed_form_area(rule, y, s, pi), abs=1e-12)
    assert sel.excess >= -1e-12
    switches = threshold_for(rule, np.unique(s), 0.5) if rule != "bayes_prior" else None
    for x in np.linspace(0.0, 1.0, 101)[1:-1] + 0.0013:
        t = threshold_for(rule, x, pi)
        f, tp = rates_at(y, s, t)
        assert sel.curve(x) == pytest.approx((1 - tp) * x + f * (1 - x), abs=1e-12)
        assert value_at(roc, rule, x, prior)[0] == pytest.approx((1 - tp) * x + f * (1 - x))
    del switches


def test_performance_independent_switch_points_and_ties():
    y, s = make_data([(0.9, 2, 0), (0.5, 1, 1), (0.1, 0, 2)])
    roc = roc_points(y, s)
    # score_driven switches at 1 - u: 0.1, 0.5, 0.9; at x = 0.5 the score 0.5 is positive
    sel = performance_independent(roc, "score_driven")
    assert sel.curve.low[1:] == pytest.approx([0.1, 0.5, 0.9])
    nec, t, tied = value_at(roc, "score_driven", 0.5)
    assert (t, tied) == (0.5, 2) and nec == pytest.approx(0.5 * 0 + 0.5 * (1 / 3))
    # 1 - 0.9 != 0.1 in binary: the tolerance still counts the 0.9s as tied at x = 0.1
    assert value_at(roc, "score_driven", 0.1)[2] == 2
    # literal: at x = 0 everything is positive, H(0) = 1
    lit = performance_independent(roc, "literal")
    assert lit.curve(0.0) == 1.0 and lit.curve.closed == "right"
    assert lit.excess > performance_independent(roc, "bayes_prior").excess
    d = lit.to_dict()
    assert set(d) == {"rule", "area", "excess", "curve"} and d["rule"] == "literal"


@given(
    st.lists(
        st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=6, unique_by=lambda p: p
    ),
    st.data(),
)
def test_parameter_based_against_brute_force(points, draw):
    f = np.array([p[0] for p in points])
    t = np.array([p[1] for p in points])
    tau = (
        np.array(
            draw.draw(st.lists(st.integers(0, 100), min_size=f.size, max_size=f.size, unique=True))
        )
        / 100
    )
    sel = parameter_based(f, t, tau)
    for x in np.linspace(0, 1, 57):
        d = np.abs(tau - x)
        near = np.flatnonzero(d <= d.min() + 1e-12)
        i = near[np.argmax(tau[near])]  # a midpoint goes to the larger tau
        assert sel.curve(x) == pytest.approx((1 - t[i]) * x + f[i] * (1 - x), abs=1e-9)
    grid = np.linspace(0, 1, 20001)
    assert sel.area == pytest.approx(np.mean(sel.curve(grid)), abs=1e-3)


# --- out-of-fold ------------------------------------------------------------------------------


def loop_out_of_fold(y, s, folds, x):
    """The spec's procedure written as plain loops: returns H(x)."""
    fn_total = fp_total = 0
    for k in np.unique(folds):
        sel, held = folds != k, folds == k
        u = np.unique(s[sel])[::-1]
        thetas = [np.inf] + [(a + b) / 2 for a, b in zip(u[:-1], u[1:])] + [-np.inf]
        best = None
        for theta in thetas:
            pred = s[sel] > theta
            fnr = np.sum(~pred & y[sel]) / np.sum(y[sel])
            fpr = np.sum(pred & ~y[sel]) / np.sum(~y[sel])
            cost, positives = x * fnr + (1 - x) * fpr, int(pred.sum())
            if (
                best is None
                or cost < best[0] - 1e-12
                or (abs(cost - best[0]) <= 1e-12 and positives < best[1])
            ):
                best = (cost, positives, theta)
        pred = s[held] > best[2]
        fn_total += np.sum(~pred & y[held])
        fp_total += np.sum(pred & ~y[held])
    return x * fn_total / y.sum() + (1 - x) * fp_total / (~y).sum()


@st.composite
def folded(draw):
    y, s = draw(labelled_scores(max_size=30, levels=8))
    k = draw(st.integers(2, 4))
    folds = np.array(draw(st.lists(st.integers(0, k - 1), min_size=y.size, max_size=y.size)))
    for f in np.unique(folds):  # every selection set needs both classes
        assume(y[folds != f].any() and (~y[folds != f]).any())
    assume(np.unique(folds).size >= 2)
    return y, s, folds


@settings(max_examples=40, deadline=None)
@given(folded())
def test_out_of_fold_against_plain_loop(data):
    y, s, folds = data
    oof = out_of_fold(y, s, folds)
    c = oof.curve
    xs = np.concatenate((np.linspace(0, 1, 23) + 0.0007, c.high, (c.low + c.high) / 2))
    xs = xs[(xs >= 0) & (xs <= 1)]
    for x in xs:
        assert c(x) == pytest.approx(loop_out_of_fold(y, s, folds, x), abs=1e-9)
    grid = (np.arange(4000) + 0.5) / 4000
    assert oof.area == pytest.approx(np.mean(c(grid)), abs=2e-3)
    assert oof.optimism == pytest.approx(oof.area - lower_envelope(roc_points(y, s)).area)


def test_out_of_fold_hybrid_and_criteria():
    rng = np.random.default_rng(7)
    y = rng.random(300) < 0.4
    a = rng.normal(y * 1.0, 1.0).round(1)
    b = rng.normal(y * 0.5, 1.0).round(1)
    folds = rng.integers(0, 5, y.size)
    ds = select_dataset({"a": roc_points(y, a), "b": roc_points(y, b)}, y, {"a": a, "b": b}, folds)
    single = out_of_fold(y, a, folds)
    d = ds.to_dict()
    assert set(d) == {"segments", "lower_envelope", "out_of_fold"}
    assert d["out_of_fold"]["optimism"] == pytest.approx(
        ds.out_of_fold.area - ds.hybrid.envelope.area
    )
    assert ds.out_of_fold.area <= single.area + 0.05  # b rarely helps, never by much here
    sel = select_scores(
        y, a, {"np": NeymanPearson(0.1), "wf": Workforce(capacity_share=0.2)}, folds, name="a"
    )
    fpr, tpr = sel.criteria["np"].out_of_fold
    assert 0 <= fpr <= 1 and (fpr, tpr) == single.neyman_pearson(0.1)
    # held-out NP by a plain loop: mixtures chosen on the other folds, expected held-out counts
    fp_total = tp_total = 0.0
    for k in range(5):
        s_sel, y_sel = a[folds != k], y[folds != k]
        c = neyman_pearson(roc_points(y_sel, s_sel), 0.1)
        u = np.unique(s_sel)[::-1]
        mid = {t: (t + u[i + 1]) / 2 if i + 1 < u.size else -np.inf for i, t in enumerate(u)}
        mid[np.inf] = np.inf
        for t, w in zip(c.mix.thresholds, (c.mix.weight_first, 1 - c.mix.weight_first)):
            pred = a[folds == k] > mid[t]
            fp_total += w * np.sum(pred & ~y[folds == k])
            tp_total += w * np.sum(pred & y[folds == k])
    assert (fpr, tpr) == pytest.approx((fp_total / (~y).sum(), tp_total / y.sum()))
    assert sel.to_dict()["out_of_fold"]["area"] == pytest.approx(single.area)


def test_out_of_fold_errors():
    y = np.array([1, 0, 1, 0, 1, 1], bool)
    s = np.arange(6.0)
    with pytest.raises(ValueError, match="two folds"):
        out_of_fold(y, s, np.zeros(6))
    with pytest.raises(ValueError, match="one class"):
        out_of_fold(y, s, np.array([0, 0, 0, 0, 1, 1]))  # without fold 0 only positives remain
    with pytest.raises(ValueError, match="placement"):
        out_of_fold(y, s, np.array([0, 1, 0, 1, 0, 1]), placement="nearest")


def test_classifier_selection_to_dict_keys():
    criteria = {
        "fpr-10%": NeymanPearson(0.1),
        "desk": Workforce(capacity=120),
        "costs": PerformanceIndependent(),
    }
    y, s = make_data([(0.9, 50, 30), (0.6, 30, 60), (0.2, 20, 210)])
    sel = select_scores(y, s, criteria, name="c")
    d = sel.to_dict()
    assert set(d) == {"thresholds", "criteria"}
    assert d["thresholds"] == roc_points(y, s).thresholds.tolist()
    assert list(d["criteria"]) == ["fpr-10%", "desk", "costs"]
    assert d["criteria"]["costs"]["rule"] == "bayes_prior"
    with_folds = select_scores(y, s, criteria, folds=np.arange(y.size) % 3, name="c").to_dict()
    assert set(with_folds["out_of_fold"]) == {"area", "optimism", "curve"}
