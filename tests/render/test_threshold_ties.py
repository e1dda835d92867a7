"""Threshold tables show a tie as the range of the tied thresholds and their count, never every
tied score, on the page and in LaTeX; the CSV holds the tie's PC(+), low, high and count.

The tied thresholds at an edge's PC(+) are checked by brute force: every ROC point's normalized
expected cost (1 - TPR) PC(+) + FPR (1 - PC(+)) (D&H 2006 Eq. 3) in exact rational arithmetic.
"""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ccreport.analysis import selection as sel
from ccreport.analysis.roc import roc_points
from ccreport.render.sections import decisions


def table_of(labels, scores):
    roc = roc_points(np.asarray(labels, dtype=bool), np.asarray(scores, dtype=float))
    h = sel.threshold_table(roc, "c")
    d = SimpleNamespace(
        name="d", classifiers={"c": SimpleNamespace(selection=SimpleNamespace(table=h))}
    )
    return roc, h, decisions.threshold_tables(d, ["uniform"])["thresholds"]


def brute_force_ties(roc, pc: float):
    """Thresholds of minimal cost at ``pc`` (taken as the exact rational of the edge's slope)."""
    p = Fraction(pc).limit_denominator(10 * (roc.n_pos + roc.n_neg) ** 2)
    costs = [
        (1 - Fraction(int(tp), roc.n_pos)) * p + Fraction(int(fp), roc.n_neg) * (1 - p)
        for tp, fp in zip(roc.tp, roc.fp)
    ]
    best = min(costs)
    return [float(t) for t, c in zip(roc.thresholds, costs) if c == best]


def naive_bayes_like():
    """Many tiny scores of negatives below the lowest positive: all tied at PC(+) = 1."""
    rng = np.random.default_rng(3)
    pos = rng.uniform(0.2, 1.0, 40)
    neg = np.concatenate([rng.uniform(0.0, 0.9, 30), 10.0 ** -rng.uniform(6, 11, 37)])
    labels = np.r_[np.ones(pos.size), np.zeros(neg.size)]
    return labels, np.r_[pos, neg]


def test_a_tie_of_many_scores_is_shown_as_its_range_and_count():
    roc, h, t = table_of(*naive_bayes_like())
    ties = [row[5] for row in t.rows if row[5].text != "\u2014"]
    assert ties
    widest = max(ties, key=lambda c: c.value[3])
    assert widest.value[3] > 30  # the example's case: dozens of tiny tied scores
    for cell in ties:
        pc, low, high, n = cell.value
        tied = brute_force_ties(roc, pc)
        assert (low, high, n) == (min(tied), max(tied), len(tied))
        shown = re.fullmatch(
            r"at (\d\.\d{3}): \[(\S+),\u00a0(\S+)\] \((\d+)\u00a0tied\)", cell.text
        )
        assert shown, cell.text
        assert shown.group(1) == f"{pc:.3f}" and int(shown.group(4)) == n
        assert shown.group(2) == decisions.bound_text(low)
        assert shown.group(3) == decisions.bound_text(high)
    tex = t.to_latex()
    assert "tied)" in tex and tex.count("e-") < 2 * len(t.rows) + 2  # no list of tied scores


def test_the_csv_holds_the_tie_in_four_columns():
    _, _, t = table_of(*naive_bayes_like())
    rows = list(csv.reader(io.StringIO(t.to_csv())))
    assert rows[0] == ["Classifier", "Threshold", "PC(+) interval", "FPR", "TPR"] + list(
        decisions.TIE_CSV_COLUMNS
    )
    assert all(len(r) == 9 for r in rows)
    # one table per dataset: each row names its classifier, on the page and in the CSV
    assert {c[0].text for c in t.rows} == {r[0] for r in rows[1:]} == {"c"}
    for r, row in zip(rows[1:], t.rows):
        if row[5].value[0] == "":
            assert r[5:] == ["", "", "", ""]
        else:
            pc, low, high, n = (float(x) for x in r[5:])
            assert (pc, low, high, int(n)) == row[5].value  # full precision


def test_infinite_bounds_read_as_infinity():
    assert decisions.bound_text(float("inf")) == "\u221e"
    assert decisions.bound_text(float("-inf")) == "\u2212\u221e"
    assert decisions.bound_text(1.29178e-08) == "1.29178e-08"
    # the first hull edge ties +inf (flag nobody) with the highest score
    _, _, t = table_of([1, 1, 0, 0], [0.9, 0.9, 0.1, 0.1])
    assert t.rows[0][5].text == "at 0.000: [0.9,\u00a0\u221e] (2\u00a0tied)"
    assert "[0.9,~$\\infty$] (2~tied)" in t.to_latex()


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=2, max_size=40).filter(
        lambda xs: 0 < sum(y for y, _ in xs) < len(xs)
    )
)
def test_tie_ranges_match_brute_force(data):
    labels = [y for y, _ in data]
    scores = [s / 6 for _, s in data]
    roc, _, t = table_of(labels, scores)
    for row in t.rows:
        if row[5].value[0] != "":
            pc, low, high, n = row[5].value
            tied = brute_force_ties(roc, pc)
            assert (low, high, n) == (min(tied), max(tied), len(tied))
