"""Honest ranking in the expected-cost tables (issue 14, item 1): trivial baseline, ties, the
star."""

from __future__ import annotations

import csv
import dataclasses
import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate
from site_fixtures import example_build, parse_page, synthetic_results

from ccreport.analysis import priors as pr
from ccreport.render import ranking
from ccreport.render import tables as tb
from ccreport.render.sections.overview import cross_dataset_table
from ccreport.render.sections.summary import summary_table
from ccreport.tasks.battery import trivial_expected_cost


@pytest.mark.parametrize(
    "prior",
    [
        pr.UniformPrior(),
        pr.UniformPrior(0.1, 0.4),
        pr.BetaPrior(2, 8),
        pr.BetaPrior(0.5, 0.7),
        pr.PointPrior(0.68),
    ],
)
def test_trivial_expected_cost_is_the_expectation_of_min_pc_one_minus_pc(prior):
    if isinstance(prior, pr.PointPrior):
        expected = min(prior.pc, 1 - prior.pc)
    else:
        expected = integrate.quad(
            lambda x: min(x, 1 - x) * float(prior.density(x)), 0, 1, points=[0.5], limit=200
        )[0]
    assert trivial_expected_cost(prior) == pytest.approx(expected, rel=1e-7)


def test_worked_trivial_costs():
    assert trivial_expected_cost(pr.UniformPrior()) == pytest.approx(0.25)
    # the sceptic prior Beta(2, 8): 0.198, which stump (0.190) barely beats
    assert trivial_expected_cost(pr.BetaPrior(2, 8)) == pytest.approx(0.19765625)
    assert trivial_expected_cost(pr.PointPrior(0.68)) == pytest.approx(0.32)


def test_floating_point_noise_is_a_tie_with_one_rank():
    # German credit under german-5to1: tree and tree_crisp both cost the trivial 7/22
    values = {
        "logreg": 0.2264,
        "tree": 0.31818181818181823,
        "tree_crisp": 0.3181818181818183,
        "knn": 0.2786,
        "x": None,
    }
    assert ranking.ranks(values) == {"logreg": 1, "knn": 2, "tree": 3, "tree_crisp": 3}
    assert ranking.ranks({"a": 0.1, "b": 0.1 * (1 + 2e-9)}) == {"a": 1, "b": 2}
    assert ranking.ranks({"a": 0.0, "b": 0.0, "c": 1.0}) == {"a": 1, "b": 1, "c": 3}
    assert ranking.lowest({"a": 0.3, "b": 0.3 + 1e-17, "c": 0.4}) == {"a", "b"}


@given(st.lists(st.integers(0, 20), min_size=1, max_size=12), st.integers(0, 3))
def test_ranks_are_competition_ranks_and_noise_does_not_split_ties(levels, noise):
    # costs on a coarse grid, each perturbed by a few ulps: the ranks of the exact values
    values = {str(i): v / 20 * (1 + noise * 1e-15 * (i % 3)) for i, v in enumerate(levels)}
    expected = {str(i): 1 + sum(w < v for w in levels) for i, v in enumerate(levels)}
    assert ranking.ranks(values) == expected


def test_star_needs_a_cost_below_the_trivial_baseline_and_a_significant_runner_up():
    significant = lambda a, b: 0.01  # noqa: E731  (an adjusted p-value below alpha = 0.1)
    assert ranking.starred({"a": 0.19, "b": 0.2}, 0.1977, significant, 0.1) == {"a"}
    assert (
        ranking.starred({"a": 0.32, "b": 0.33}, 0.32 * (1 + 1e-12), significant, 0.1) == set()
    )  # tied with trivial
    assert ranking.starred({"a": 0.4}, 0.32) == set()
    assert ranking.starred({"a": 0.3}, 0.32) == {"a"}  # alone, below the baseline
    # equal costs are a tie, whatever the test
    v = ranking.verdict({"a": 0.2, "b": 0.2}, None, significant, 0.1)
    assert not v.starred and v.reason == "equal" and v.tied_with == ("b",)
    # no test at all: nothing is significant
    assert ranking.starred({"a": 0.19, "b": 0.2}, 0.25) == set()
    assert ranking.no_better_than_trivial(
        0.31818181818181823, 7 / 22
    ) and not ranking.no_better_than_trivial(0.3, 7 / 22)
    assert not ranking.no_better_than_trivial(None, 0.25)


def with_trivial(results, costs):
    d = next(iter(results.datasets.values()))
    d = dataclasses.replace(d, trivial_expected_cost=costs)
    return dataclasses.replace(results, datasets={d.name: d}), d


def test_summary_has_a_trivial_row_marks_and_no_star_when_nothing_beats_it():
    results = synthetic_results(("alpha", "beta", "gamma"))
    d0 = next(iter(results.datasets.values()))
    uniform = {n: c.expected_cost["uniform"] for n, c in d0.classifiers.items()}
    worst, best = max(uniform.values()), min(uniform.values())
    # a baseline between the cheapest and the dearest: the dearer ones are marked, the cheapest
    # starred
    middle = (worst + best) / 2
    results, d = with_trivial(results, {"uniform": middle, "sceptic": 0.0})
    t = summary_table(d, ["uniform", "sceptic"])
    assert (
        t.rows[-1][0].text == tb.TRIVIAL_NAME
        and t.rows[-1][4].value == middle
        and t.rows[-1][5].value == 0.0
    )
    body = t.rows[:-1]
    for row in body:
        value = uniform[row[0].text]
        assert (tb.NOT_BETTER_MARK in row[4].note) == (value >= middle)
        assert not row[
            4
        ].best  # no paired tests in these Results: nothing is significantly cheapest
        assert ("not tested against" in row[4].note) == (value == best)
        assert (
            tb.NOT_BETTER_MARK in row[5].note and not row[5].best
        )  # nothing beats a zero-cost baseline
    index = cross_dataset_table(results)
    assert index.columns[-1] == tb.TRIVIAL_NAME
    assert [r[-1].value for r in index.rows] == [middle, 0.0]
    assert index.extra_csv["best"] == [min(uniform, key=uniform.get), tb.TRIVIAL_NAME]


def test_without_trivial_costs_there_is_no_trivial_row():
    results = synthetic_results()
    d = next(iter(results.datasets.values()))
    assert d.trivial_expected_cost == {}
    t = summary_table(d, ["uniform"])
    assert [r[0].text for r in t.rows] == list(d.classifiers)


def test_example_ties_and_baselines(tmp_path):
    out = example_build()
    data = json.loads((out / "results.json").read_text())
    german = data["datasets"]["german_credit"]["classifiers"]
    with open(out / "tables/dataset-german_credit-summary.csv", newline="") as f:
        rows = {r["Classifier"]: r for r in csv.DictReader(f)}
    trivial = rows[tb.TRIVIAL_NAME]
    assert float(trivial["E[cost] uniform"]) == pytest.approx(0.25)
    assert float(trivial["E[cost] sceptic"]) == pytest.approx(0.19765625)
    assert float(trivial["E[cost] german-5to1"]) == pytest.approx(
        german["tree"]["expected_cost"]["german-5to1"], rel=1e-9
    )
    page = parse_page(out / "dataset-german_credit.html")
    table = page.tables["table-dataset-german_credit-summary"]
    body = {r[0]: dict(zip(table[0], r)) for r in table[1:]}
    col = "E[cost] german-5to1"
    assert (
        "(5)" in body["tree"][col] and "(5)" in body["tree_crisp"][col]
    )  # one rank for equal costs
    assert tb.NOT_BETTER_MARK in body["tree"][col] and tb.NOT_BETTER_MARK in body["tree_crisp"][col]
    assert tb.NOT_BETTER_MARK not in body["logreg"][col]
    assert body[tb.TRIVIAL_NAME][col].startswith("0.3182")


def test_p_value_at_the_bootstrap_floor_is_a_bound():
    from ccreport.analysis.bands import bootstrap_p_value

    # every replicate on one side of 0: the smallest p the two-sided bootstrap can give, 2 / (R + 1)
    floor = bootstrap_p_value(np.full(1000, 0.3))
    assert floor == 2 / 1001
    assert tb.p_value_text(floor, 1000) == "p\u00a0\u2264\u00a02/1001"
    assert tb.p_value_text(bootstrap_p_value(np.full(500, -0.1)), 500) == "p\u00a0\u2264\u00a02/501"
    assert tb.p_value_text(2 / 100001, 100000) == "p\u00a0\u2264\u00a02/100001"
    # one replicate beyond 0: an ordinary p-value
    one_more = bootstrap_p_value(np.r_[np.full(999, 0.3), -0.1])
    assert one_more == 4 / 1001 and tb.p_value_text(one_more, 1000) == "p=0.004"
    assert tb.p_value_text(0.3137, 1000) == "p=0.314" and tb.p_value_text(2 / 1001) == "p=0.002"
    assert tb.p_value_text(None, 1000) == ""
    # the basic-bootstrap difference p-value (issue 10) floors at 1 / (R + 1)
    from ccreport.analysis.significance import difference_p_value

    low = difference_p_value(np.full(500, -0.2), -0.2)
    assert low == 1 / 501 and tb.p_value_text(low, 500, floor_count=1) == "p\u00a0\u2264\u00a01/501"
    assert tb.p_value_text(1 / 1001, 1000, floor_count=1) == "p\u00a0\u2264\u00a01/1001"
    assert tb.p_value_text(2 / 1001, 1000, floor_count=1) == "p=0.002"
    assert tb.p_value_text(0.04, 1000, floor_count=1, name="p_adj") == "p_adj=0.040"


def test_fold_spreads_are_styled_as_ranges_not_intervals(tmp_path):
    out = example_build()
    page = (out / "dataset-german_credit.html").read_text(encoding="utf-8")
    assert 'class="cell-note range">range ' in page
    folds = parse_page(out / "dataset-german_credit.html").tables[
        "table-dataset-german_credit-folds"
    ]
    for row in folds[1:]:
        for cell in row[2:]:
            assert "range " in cell and "[" not in cell
