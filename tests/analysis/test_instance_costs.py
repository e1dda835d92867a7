"""Instance-varying costs (Fawcett 2006): the cost-benefit transform, ROCIV, AUCIV and the
cost-space dual."""

import numpy as np
import pytest
from brute_force import min_cost
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.integrate import trapezoid

from ccreport.analysis import instance_costs as ic
from ccreport.analysis.envelope import compare, lower_envelope, operating_range
from ccreport.analysis.priors import BetaPrior, PointPrior, UniformPrior
from ccreport.analysis.roc import auc, roc_hull, roc_points

# Spec §4 #20: scores .9p(2) .8n(1) .8p(3) .5n(4) .3p(1) .3n(2), cost in brackets.
TOY_Y = np.array([1, 0, 1, 0, 1, 0], bool)
TOY_S = np.array([0.9, 0.8, 0.8, 0.5, 0.3, 0.3])
TOY_C = np.array([2.0, 1.0, 3.0, 4.0, 1.0, 2.0])


@st.composite
def costed_scores(draw, max_size=30, integer_costs=False, zero_costs=True):
    """Labels with both classes, tied scores, and costs >= 0 with a positive total in each class."""
    n = draw(st.integers(2, max_size))
    y = draw(hnp.arrays(bool, n))
    if y.all() or not y.any():
        y[0] = not y[0]
    s = draw(hnp.arrays(float, n, elements=st.integers(0, 6).map(float)))
    low = 0 if zero_costs else 1
    # no subnormal costs: scaled by a class multiplier they underflow to 0, another (invalid) input
    elements = (
        st.integers(low, 50).map(float)
        if integer_costs
        else st.floats(low, 1e4, allow_nan=False, allow_subnormal=False)
    )
    c = draw(hnp.arrays(float, n, elements=elements))
    for cls in (True, False):  # each class needs a total > 0
        members = np.flatnonzero(y == cls)
        if not np.any(c[members] > 0):
            c[members[0]] = 1.0
    return y, s, c


# --- independent references (O(n^2) or O(n k), no shared code) ------------------------------------


def weighted_mann_whitney(y, s, c):
    """sum_{i pos, j neg} c_i c_j (1[s_i > s_j] + 1/2 1[s_i = s_j]) / (P_total N_total), pair by
    pair."""
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    w_pos, w_neg = c[pos] / c[pos].sum(), c[neg] / c[neg].sum()  # normalised first: no underflow
    total = 0.0
    for i, wi in zip(pos, w_pos):
        for j, wj in zip(neg, w_neg):
            total += wi * wj * (1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0)
    return total


def rociv_by_thresholds(y, s, c):
    """ROCIV points by thresholding at +inf and every distinct score: cost fractions at or above."""
    thresholds = np.concatenate(([np.inf], np.unique(s)[::-1]))
    tpr = np.array([c[y & (s >= t)].sum() for t in thresholds]) / c[y].sum()
    fpr = np.array([c[~y & (s >= t)].sum() for t in thresholds]) / c[~y].sum()
    return thresholds, fpr, tpr


def total_costs_by_thresholds(y, s, c):
    """Summed instance costs of the errors of every threshold: missed positives + flagged
    negatives."""
    thresholds = np.concatenate(([np.inf], np.unique(s)[::-1]))
    totals = np.array([c[y & (s < t)].sum() + c[~y & (s >= t)].sum() for t in thresholds])
    return thresholds, totals


# --- the cost-benefit transform -------------------------------------------------------------------


def test_fawcett_cost_benefit_examples():
    x = np.array([100.0, 100.0])
    y = np.array([True, False])
    # spec #14, F06 Fig. 2 (credit approval; Y = approve, p = legitimate): $22 and $120
    assert ic.cost_benefit(y, fn=20, tp=0.02 * x, fp=x, tn=20).tolist() == pytest.approx([22, 120])
    # spec #15, F06 Fig. 7 (credit scoring): $25 and $120
    assert ic.cost_benefit(y, fn=20, tp=0.05 * x, fp=x, tn=20).tolist() == pytest.approx([25, 120])
    # spec #16, F06 Fig. 9 (cell-phone fraud; Y = alarm, p = fraud): TP benefit $22, FP cost $12
    # (A9)
    assert ic.cost_benefit(y, fn=1 + 0.2 * x, tp=1, fp=2 + 0.1 * x).tolist() == pytest.approx(
        [22, 12]
    )
    # spec #17, F06 §6.1 (charity; Y = mail, p = donor): $99 and $1
    assert ic.cost_benefit(y, tp=x - 1, fp=1).tolist() == pytest.approx([99, 1])


def test_negative_costs_after_the_transform_are_errors():
    # spec #18, F06 §7: c(Y, p, x) = x - 20 with x in [0, 40] is invalid for x < 20
    x = np.linspace(0, 40, 9)
    y = np.ones(9, bool)
    assert (ic.transformed_costs(y, tp=x, fn=-20) < 0).sum() == 4  # x = 0, 5, 10, 15
    with pytest.raises(ValueError, match="4 instance"):
        ic.cost_benefit(y, tp=x, fn=-20)
    with pytest.raises(ValueError, match="finite"):
        ic.cost_benefit(
            np.array([True, False]), fn=np.array([1.0, np.nan]), fp=np.array([1.0, np.nan])
        )


def test_a_negative_cell_is_fine_when_the_transformed_cost_is_not():
    # a benefit column combined with a fixed cost that is really a saving: x - 1 >= 0 for x >= 1
    y = np.array([True, True, False])
    assert ic.cost_benefit(y, tp=np.array([1.0, 5.0, 0.0]), fn=-1, fp=2).tolist() == [0, 4, 2]


def test_cells_only_reach_their_own_class():
    y = np.array([True, False])
    assert ic.cost_benefit(y, fn=np.array([3.0, 1e9]), fp=np.array([1e9, 7.0])).tolist() == [3, 7]


# --- ROCIV points and AUCIV -----------------------------------------------------------------------


def test_spec_worked_example_20():
    curve = ic.rociv_points(TOY_Y, TOY_S, TOY_C)
    assert curve.fpr.tolist() == pytest.approx([0, 0, 1 / 7, 5 / 7, 1])
    assert curve.tpr.tolist() == pytest.approx([0, 1 / 3, 5 / 6, 5 / 6, 1])
    assert curve.thresholds.tolist() == [np.inf, 0.9, 0.8, 0.5, 0.3]
    assert ic.auciv(curve) == pytest.approx(34.5 / 42, abs=1e-15)
    assert weighted_mann_whitney(TOY_Y, TOY_S, TOY_C) == pytest.approx(34.5 / 42, abs=1e-15)
    # the strict (no half for ties) version is 32/42: the tie at .8 is worth 1 * 3 / 2 = 1.5
    assert curve.own_pc == pytest.approx(6 / 13)
    # the IV cost line of t = .8 at x0 = 6/13 is 2/13, the total cost 2 over 13
    x0, k = curve.own_pc, 2
    assert (1 - curve.tpr[k]) * x0 + curve.fpr[k] * (1 - x0) == pytest.approx(2 / 13)
    assert ic.min_total_cost(curve) == ic.MinTotalCost(threshold=0.8, total=2.0)


def test_order_within_ties_does_not_matter():
    flipped = [0, 2, 1, 3, 5, 4]
    a = ic.analyse_instance_costs(TOY_Y, TOY_S, TOY_C)
    b = ic.analyse_instance_costs(TOY_Y[flipped], TOY_S[flipped], TOY_C[flipped])
    assert a.to_dict() == b.to_dict()


@settings(max_examples=300, deadline=None)
@given(costed_scores())
def test_rociv_points_match_thresholding(data):
    y, s, c = data
    curve = ic.rociv_points(y, s, c)
    thresholds, fpr, tpr = rociv_by_thresholds(y, s, c)
    assert curve.thresholds.tolist() == thresholds.tolist()
    assert curve.fpr == pytest.approx(fpr, abs=1e-12) and curve.tpr == pytest.approx(tpr, abs=1e-12)
    assert (curve.fpr[-1], curve.tpr[-1]) == (1.0, 1.0)


@settings(max_examples=300, deadline=None)
@given(costed_scores())
def test_auciv_is_weighted_mann_whitney_with_half_ties(data):
    y, s, c = data
    assert ic.auciv(ic.rociv_points(y, s, c)) == pytest.approx(
        weighted_mann_whitney(y, s, c), abs=1e-12
    )


@settings(max_examples=100, deadline=None)
@given(costed_scores(integer_costs=True, zero_costs=False))
def test_integer_costs_are_replicated_instances(data):
    # F06 §4: "conceptually ... replicating instances in proportion to their cost"
    y, s, c = data
    reps = c.astype(int)
    result = ic.analyse_instance_costs(y, s, c)
    roc = roc_points(np.repeat(y, reps), np.repeat(s, reps))
    assert (
        result.rociv.fpr.tolist() == roc.fpr.tolist()
        and result.rociv.tpr.tolist() == roc.tpr.tolist()
    )
    assert result.auciv == pytest.approx(auc(roc), abs=1e-12)


def test_auciv_matches_sklearn_weighted_auc():
    sk = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(13)
    y = rng.random(500) < 0.3
    s = np.round(rng.normal(y * 1.0, 1.0), 1)  # many ties
    c = rng.exponential(100.0, 500)
    assert ic.auciv(ic.rociv_points(y, s, c)) == pytest.approx(
        sk.roc_auc_score(y, s, sample_weight=c), abs=1e-12
    )


# --- equal costs within each class: ROCIV is ROC, exactly -----------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    costed_scores(),
    st.integers(1, 10**6).map(float),
    st.integers(1, 10**6).map(float),
)
def test_equal_costs_within_each_class_give_roc_exactly(data, cost_pos, cost_neg):
    y, s, _ = data
    c = np.where(y, cost_pos, cost_neg)
    result = ic.analyse_instance_costs(y, s, c, {"uniform": UniformPrior()})
    roc = roc_points(y, s)
    plain = lower_envelope(roc)
    assert (
        result.rociv.fpr.tolist() == roc.fpr.tolist()
        and result.rociv.tpr.tolist() == roc.tpr.tolist()
    )
    assert result.envelope.hull_fpr.tolist() == plain.hull_fpr.tolist()
    assert result.envelope.hull_tpr.tolist() == plain.hull_tpr.tolist()
    assert (
        result.envelope.pc.tolist() == plain.pc.tolist()
        and result.envelope.nec.tolist() == plain.nec.tolist()
    )
    assert result.operating_range == operating_range(plain)
    assert result.expected_cost["uniform"] == UniformPrior().expected(plain.pc, plain.nec)
    assert result.auciv == pytest.approx(auc(roc), abs=1e-14)
    # the class constants only move the data's own operating condition
    assert result.own_pc == pytest.approx(
        cost_pos * y.sum() / (cost_pos * y.sum() + cost_neg * (~y).sum())
    )


@settings(max_examples=200, deadline=None)
@given(costed_scores(), st.floats(1e-3, 1e3), st.floats(1e-3, 1e3))
def test_class_multipliers_leave_the_curves_unchanged(data, k_pos, k_neg):
    # spec §3.6: FN cost = k+ amount, FP cost = k- amount only move x, not the lines
    y, s, c = data
    a = ic.analyse_instance_costs(y, s, c)
    b = ic.analyse_instance_costs(y, s, c * np.where(y, k_pos, k_neg))
    assert b.rociv.fpr == pytest.approx(a.rociv.fpr, abs=1e-12) and b.rociv.tpr == pytest.approx(
        a.rociv.tpr, abs=1e-12
    )
    assert b.auciv == pytest.approx(a.auciv, abs=1e-12)


# --- the cost-space dual --------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(costed_scores(), st.lists(st.floats(0, 1), min_size=1, max_size=8))
def test_envelope_is_the_minimum_over_thresholds_of_the_summed_instance_costs(data, xs):
    y, s, c = data
    result = ic.analyse_instance_costs(y, s, c)
    p_total, n_total = c[y].sum(), c[~y].sum()
    thresholds = np.concatenate(([np.inf], np.unique(s)[::-1]))
    missed = np.array([c[y & (s < t)].sum() for t in thresholds])
    flagged = np.array([c[~y & (s >= t)].sum() for t in thresholds])
    x = np.concatenate((xs, [0.0, 1.0, result.own_pc], result.envelope.pc))
    # NEC_iv(x) of a threshold = FNR_iv x + FPR_iv (1 - x), the trivial classifiers among the
    # thresholds
    brute = np.min((missed / p_total)[:, None] * x + (flagged / n_total)[:, None] * (1 - x), axis=0)
    assert result.envelope(x) == pytest.approx(brute, abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(costed_scores())
def test_min_total_cost_by_brute_force(data):
    y, s, c = data
    result = ic.analyse_instance_costs(y, s, c)
    thresholds, totals = total_costs_by_thresholds(y, s, c)
    best, scale = totals.min(), c.sum()
    tolerance = 1e-12 * scale  # summation order
    # ties within ic.TIE_RTOL of all costs go to the highest threshold, so the total may exceed the
    # least by that
    assert best - tolerance <= result.min_total_cost.total <= best + ic.TIE_RTOL * scale
    # the highest threshold among the cheapest ones (equal up to rounding: ic.TIE_RTOL)
    assert result.min_total_cost.threshold == thresholds[totals <= best + ic.TIE_RTOL * scale][0]
    # the exact dual: (P_total + N_total) * envelope(own_pc) is the least total cost of errors
    assert result.envelope(result.own_pc) * scale == pytest.approx(best, abs=tolerance)


def test_expected_cost_under_priors_reuses_the_priors():
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.4
    s = rng.normal(y * 1.2, 1.0)
    c = rng.gamma(2.0, 50.0, 300)
    priors = {"uniform": UniformPrior(), "sceptic": BetaPrior(2, 8), "own": PointPrior(0.25)}
    result = ic.analyse_instance_costs(y, s, c, priors)
    env = result.envelope
    assert result.expected_cost["uniform"] == pytest.approx(env.area, abs=1e-15)
    assert result.expected_cost["own"] == pytest.approx(float(env(0.25)), abs=1e-15)
    grid = np.linspace(0, 1, 200_001)
    dense = BetaPrior(2, 8).density(grid) * env(grid)
    assert result.expected_cost["sceptic"] == pytest.approx(trapezoid(dense, grid), abs=1e-8)
    assert list(result.to_dict()["expected_cost"]) == ["uniform", "sceptic", "own"]


def test_envelope_is_the_dual_of_the_rociv_hull():
    result = ic.analyse_instance_costs(TOY_Y, TOY_S, TOY_C)
    assert result.envelope.hull_fpr.tolist() == pytest.approx([0, 0, 1 / 7, 1])
    assert result.envelope.hull_tpr.tolist() == pytest.approx([0, 1 / 3, 5 / 6, 1])
    # envelope vertices are where neighbouring hull points' cost lines meet: pc = dF / (dF + dT)
    assert result.envelope.pc.tolist() == pytest.approx(
        [0, (1 / 7) / (1 / 7 + 1 / 2), (6 / 7) / (6 / 7 + 1 / 6), 1]
    )
    assert min_cost(
        result.envelope.hull_fpr, result.envelope.hull_tpr, result.envelope.pc
    ) == pytest.approx(result.envelope.nec)
    assert result.operating_range == pytest.approx((0.0, (6 / 7) / (6 / 7 + 1 / 6)))


def test_to_dict_has_exactly_the_issues_keys():
    d = ic.analyse_instance_costs(TOY_Y, TOY_S, TOY_C, {"uniform": UniformPrior()}).to_dict()
    assert list(d) == [
        "auciv", "rociv_points", "rociv_hull", "lower_envelope", "own_pc",
        "min_total_cost", "expected_cost", "operating_range",
    ]  # fmt: skip
    assert list(d["min_total_cost"]) == ["threshold", "total"]
    assert d["rociv_points"][2] == pytest.approx([1 / 7, 5 / 6])
    assert d["lower_envelope"][0] == [0.0, 0.0] and d["lower_envelope"][-1] == [1.0, 0.0]


# --- degenerate inputs ----------------------------------------------------------------------------


def test_one_class_is_an_error():
    with pytest.raises(ValueError, match="both classes"):
        ic.rociv_points(np.ones(3, bool), np.arange(3.0), np.ones(3))


def test_all_zero_costs_in_a_class_is_an_error():
    y = np.array([1, 1, 0, 0], bool)
    with pytest.raises(ValueError, match="positives' costs sum to 0"):
        ic.rociv_points(y, np.arange(4.0), np.array([0, 0, 1, 2.0]))
    with pytest.raises(ValueError, match="negatives' costs sum to 0"):
        ic.rociv_points(y, np.arange(4.0), np.array([1, 2, 0, 0.0]))


def test_negative_or_nan_costs_are_refused_by_the_analysis():
    y = np.array([1, 0], bool)
    for bad in (-1.0, np.nan, np.inf):
        with pytest.raises(ValueError, match="costs must be finite"):
            ic.rociv_points(y, np.array([1.0, 0.0]), np.array([1.0, bad]))


def test_zero_cost_instances_keep_one_point_per_distinct_score():
    # the run at 0.5 holds only a zero-cost negative: the point repeats, aligned with its threshold
    y = np.array([1, 0, 1, 0], bool)
    curve = ic.rociv_points(y, np.array([0.9, 0.5, 0.3, 0.1]), np.array([1.0, 0.0, 3.0, 2.0]))
    assert curve.thresholds.tolist() == [np.inf, 0.9, 0.5, 0.3, 0.1]
    assert curve.fpr.tolist() == [0, 0, 0, 0, 1] and curve.tpr.tolist() == [0, 0.25, 0.25, 1, 1]
    assert ic.auciv(curve) == 1.0


def test_constant_scores():
    y = np.array([1, 0, 1, 0, 0], bool)
    result = ic.analyse_instance_costs(
        y, np.full(5, 0.3), np.array([5.0, 1, 2, 3, 4]), {"uniform": UniformPrior()}
    )
    assert result.rociv.fpr.tolist() == [0, 1] and result.rociv.tpr.tolist() == [0, 1]
    assert result.auciv == 0.5 and result.operating_range is None
    assert result.envelope.pc.tolist() == [0, 0.5, 1] and result.envelope.nec.tolist() == [
        0,
        0.5,
        0,
    ]
    assert result.expected_cost["uniform"] == 0.25
    # own_pc = 7 / 15 < 1/2: flagging nothing (threshold +inf) costs the positives' 7 < the
    # negatives' 8
    assert result.min_total_cost == ic.MinTotalCost(threshold=np.inf, total=7.0)
    assert result.to_dict()["min_total_cost"]["threshold"] is None


def test_crisp_predictions_as_zero_one_scores():
    y = np.array([1, 1, 0, 0, 0], bool)
    pred = np.array([1, 0, 1, 0, 0], float)
    c = np.array([30.0, 10.0, 5.0, 20.0, 20.0])
    curve = ic.rociv_points(y, pred, c)
    assert curve.fpr.tolist() == pytest.approx([0, 5 / 45, 1]) and curve.tpr.tolist() == [
        0,
        0.75,
        1,
    ]
    # acting on the predictions: the missed positive's 10 + the flagged negative's 5
    assert ic.min_total_cost(curve) == ic.MinTotalCost(threshold=1.0, total=15.0)


# --- comparisons ----------------------------------------------------------------------------------


def test_instance_costs_can_change_which_classifier_wins():
    # a ranks the cheap positives first, b the expensive ones: same ROC, different ROCIV
    y = np.array([1, 1, 0, 0, 1, 1, 0, 0], bool)
    c = np.array([1.0, 1.0, 50.0, 50.0, 100.0, 100.0, 50.0, 50.0])
    a_scores = np.array([8.0, 7, 6, 5, 4, 3, 2, 1])
    b_scores = np.array([4.0, 3, 6, 5, 8, 7, 2, 1])
    assert auc(roc_points(y, a_scores)) == auc(roc_points(y, b_scores))
    priors = {"uniform": UniformPrior()}
    a = ic.analyse_instance_costs(y, a_scores, c, priors)
    b = ic.analyse_instance_costs(y, b_scores, c, priors)
    m = ic.compare_instance_costs(a, b)
    assert m.auciv_difference < 0 and m.min_total_cost_difference == 100.0 - 2.0
    assert m.comparison.b_better and not m.comparison.a_better
    plain = compare(
        lower_envelope(roc_points(y, a_scores)), lower_envelope(roc_points(y, b_scores))
    )
    assert not plain.a_better and not plain.b_better  # without costs they tie everywhere
    d = m.to_dict()
    assert d["expected_cost_difference"]["uniform"] == pytest.approx(
        a.expected_cost["uniform"] - b.expected_cost["uniform"]
    )
    assert d["crossovers"] == [] and d["difference"][0] == [0.0, 0.0]


def test_comparison_needs_the_same_costs():
    a = ic.analyse_instance_costs(TOY_Y, TOY_S, TOY_C)
    b = ic.analyse_instance_costs(TOY_Y, TOY_S, TOY_C * 2)
    with pytest.raises(ValueError, match="same instances"):
        ic.compare_instance_costs(a, b)


def test_rociv_hull_is_the_roc_hull_of_the_cost_weighted_counts():
    rng = np.random.default_rng(5)
    y = rng.random(400) < 0.5
    s = np.round(rng.normal(y * 1.0, 1.0), 1)
    c = rng.integers(1, 6, 400).astype(float)
    result = ic.analyse_instance_costs(y, s, c)
    reps = c.astype(int)
    f, t = roc_hull(roc_points(np.repeat(y, reps), np.repeat(s, reps)))
    assert result.envelope.hull_fpr == pytest.approx(f, abs=1e-12)
    assert result.envelope.hull_tpr == pytest.approx(t, abs=1e-12)


# --- the instance bootstrap -----------------------------------------------------------------------


def stratified_counts(rng, y, replicates):
    """Multinomial counts within each class: each class keeps its size (D&H 2006 section 4.6)."""
    counts = np.zeros((replicates, y.size), dtype=np.int64)
    for cls in (True, False):
        members = np.flatnonzero(y == cls)
        counts[:, members] = rng.multinomial(
            members.size, np.full(members.size, 1.0 / members.size), size=replicates
        )
    return counts


@settings(max_examples=60, deadline=None)
@given(costed_scores(zero_costs=False), st.integers(0, 2**32 - 1))
def test_each_replicate_is_the_analysis_of_its_drawn_instances(data, seed):
    y, s, c = data
    counts = stratified_counts(np.random.default_rng(seed), y, 5)
    reps = ic.rociv_replicates(y, s, c, counts)
    aucs = reps.auciv()
    thresholds, totals = reps.min_total_cost()
    grid = np.linspace(0, 1, 11)
    envelopes = reps.envelope_on(grid, chunk=3)
    for b in range(counts.shape[0]):
        drawn = np.repeat(np.arange(y.size), counts[b])  # costs travel with their instances
        one = ic.analyse_instance_costs(y[drawn], s[drawn], c[drawn])
        assert reps.own_pc[b] == pytest.approx(one.own_pc, abs=1e-12)
        assert aucs[b] == pytest.approx(one.auciv, abs=1e-12)
        assert totals[b] == pytest.approx(one.min_total_cost.total, abs=1e-9 * c[drawn].sum())
        assert envelopes[b] == pytest.approx(one.envelope(grid), abs=1e-12)
        # the replicate's points include the drawn data's own ROCIV points (plus repeats)
        keep = np.isin(reps.thresholds, one.rociv.thresholds)
        assert reps.fpr[b, keep] == pytest.approx(one.rociv.fpr, abs=1e-12)
        assert reps.tpr[b, keep] == pytest.approx(one.rociv.tpr, abs=1e-12)
        if np.isfinite(one.min_total_cost.threshold):
            assert (
                thresholds[b] >= one.min_total_cost.threshold
            )  # the same total; the sample's grid may tie higher


def test_replicates_with_a_costless_class_are_an_error():
    y = np.array([1, 1, 0, 0], bool)
    counts = np.array([[2, 0, 1, 1]])  # only the zero-cost positive drawn
    with pytest.raises(ValueError, match="cost 0 in total"):
        ic.rociv_replicates(y, np.arange(4.0), np.array([0.0, 1.0, 1.0, 1.0]), counts)
