"""[project] comparisons (issue 9 item 2): which pairs a dataset compares, and everything following
them."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from site_fixtures import write_tiny_project

import ccreport
from ccreport.commands.build import compute_results
from ccreport.errors import UserInputError
from ccreport.project.loaders import load_project_data
from ccreport.project.manifest import load_project
from ccreport.project.project_files import read_project_files
from ccreport.project.settings import AnalysisSettings, Comparisons
from ccreport.results import results_to_json
from ccreport.tasks import comparisons as cm

FAST = 'bootstrap = 500\ncalibration = "off"'


def results_of(root):
    project = load_project(root)
    data = load_project_data(project)
    return compute_results(project, data, read_project_files(project, data))


def expected_costs(cost_list):
    return lambda: cost_list


# --- choosing -------------------------------------------------------------------------------------


def test_all_is_every_pair_in_manifest_order():
    got = cm.choose(Comparisons("all"), ["a", "b", "c"], expected_costs([3, 2, 1]), "u")
    assert (
        got.pairs == (("a", "b"), ("a", "c"), ("b", "c"))
        and got.rule == "all"
        and got.reference is None
    )


def test_auto_is_all_up_to_eight_classifiers_then_best():
    for k in (1, 2, cm.AUTO_ALL_MAX):
        names = [f"c{i}" for i in range(k)]
        got = cm.choose(Comparisons(), names, expected_costs(list(range(k))), "u")
        assert got.rule == "all" and got.pairs == tuple(itertools.combinations(names, 2))
    names = [f"c{i}" for i in range(cm.AUTO_ALL_MAX + 1)]
    costs = [5.0] * len(names)
    costs[4] = 1.0
    got = cm.choose(Comparisons(), names, expected_costs(costs), "u")
    assert got.rule == "best" and got.reference == "c4" and len(got.pairs) == len(names) - 1
    assert got.pairs == tuple(("c4", n) for n in names if n != "c4")
    assert "'u'" in got.basis


def test_best_ties_go_to_the_first_declared_within_the_tolerance():
    assert cm.best_of(["a", "b", "c"], [0.2, 0.1, 0.1]) == "b"
    assert (
        cm.best_of(["a", "b", "c"], [0.1 * (1 + 5e-10), 0.2, 0.1]) == "a"
    )  # within 1e-9 relative: a tie
    assert cm.best_of(["a", "b", "c"], [0.1 * (1 + 5e-9), 0.2, 0.1]) == "c"
    assert cm.best_of(["a", "b"], [0.0, 0.0]) == "a"


def test_costs_are_computed_only_for_best():
    def boom():
        raise AssertionError("costs asked for")

    for rule in (
        Comparisons("all"),
        Comparisons("baseline", baseline="b"),
        Comparisons("pairs", pairs=(("b", "a"),)),
    ):
        cm.choose(rule, ["a", "b", "c"], boom, "u")


def test_baseline_and_pairs_on_a_dataset_missing_a_classifier():
    got = cm.choose(Comparisons("baseline", baseline="b"), ["a", "b", "c"], None, "u")
    assert got.pairs == (("b", "a"), ("b", "c")) and got.reference == "b"
    assert cm.choose(Comparisons("baseline", baseline="z"), ["a", "b"], None, "u").pairs == ()
    got = cm.choose(
        Comparisons("pairs", pairs=(("c", "a"), ("a", "z"))), ["a", "b", "c"], None, "u"
    )
    assert got.pairs == (("c", "a"),)


# --- in the build ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def all_pairs(tmp_path_factory):
    return results_of(
        write_tiny_project(
            tmp_path_factory.mktemp("all") / "p", settings=FAST + '\ncomparisons = "all"'
        )
    )


def test_best_is_the_lowest_expected_cost_under_the_first_prior(tmp_path, all_pairs):
    d_all = (
        all_pairs.datasets["tiny"]
        if "tiny" in all_pairs.datasets
        else next(iter(all_pairs.datasets.values()))
    )
    first = d_all.priors[0]
    costs = {n: c.expected_cost[first] for n, c in d_all.classifiers.items()}
    best = min(costs, key=lambda n: (costs[n], list(costs).index(n)))
    r = results_of(write_tiny_project(tmp_path / "p", settings=FAST + '\ncomparisons = "best"'))
    d = next(iter(r.datasets.values()))
    assert d.comparison_choice.reference == best
    assert list(d.comparisons) == [f"{best} vs {n}" for n in d.classifiers if n != best]
    # a pair's numbers do not depend on which other pairs are chosen (one resampling per dataset)
    # ...
    for m in d.comparisons.values():
        a, b = m.a, m.b
        twin = d_all.comparisons.get(f"{a} vs {b}") or d_all.comparisons[f"{b} vs {a}"]
        sign = 1.0 if twin.a == a else -1.0
        for p in d.priors:
            assert m.expected_cost_difference_interval[p].p_value == pytest.approx(
                twin.expected_cost_difference_interval[p].p_value
            )
            assert m.expected_cost_difference[p] == pytest.approx(
                sign * twin.expected_cost_difference[p], abs=1e-15
            )
    # ... but the adjusted p-values' family is the chosen pairs x priors: the step-down max-T over a
    # sub-family reads maxima over fewer tests, so each p_adj lies between its raw p and its p_adj
    # among all pairs, and below it somewhere (the family really shrank)
    smaller = False
    for m in d.comparisons.values():
        twin = d_all.comparisons.get(f"{m.a} vs {m.b}") or d_all.comparisons[f"{m.b} vs {m.a}"]
        for p in d.priors:
            iv, full = (
                m.expected_cost_difference_interval[p],
                twin.expected_cost_difference_interval[p],
            )
            assert iv.p_value - 1e-15 <= iv.p_holm <= full.p_holm + 1e-15
            smaller |= iv.p_holm < full.p_holm - 1e-12
    assert smaller


def test_baseline_pairs_follow_everywhere_and_are_recorded(tmp_path):
    r = results_of(
        write_tiny_project(tmp_path / "p", settings=FAST + '\ncomparisons = { baseline = "rule" }')
    )
    d = next(iter(r.datasets.values()))
    others = [n for n in d.classifiers if n != "rule"]
    assert list(d.comparisons) == [f"rule vs {n}" for n in others]
    blob = json.loads(results_to_json(r))
    assert blob["settings"]["comparisons"] == {"baseline": "rule"}
    choice = blob["datasets"][d.name]["comparison_choice"]
    assert choice == {
        "requested": {"baseline": "rule"},
        "rule": "baseline",
        "reference": "rule",
        "n_pairs": len(others),
    }
    assert set(blob["datasets"][d.name]["comparisons"]) == set(d.comparisons)


def test_explicit_pairs_keep_their_order_and_threshold_choice_follows(tmp_path, all_pairs):
    r = results_of(
        write_tiny_project(tmp_path / "p", settings=FAST + '\ncomparisons = [["weak", "good"]]')
    )
    d = next(iter(r.datasets.values()))
    assert list(d.comparisons) == ["weak vs good"]
    m = d.comparisons["weak vs good"]
    assert (m.a, m.b) == ("weak", "good")
    assert (
        m.threshold_choice is not None
    )  # the threshold-choice differences of the chosen pair only
    twin = next(iter(all_pairs.datasets.values())).comparisons["good vs weak"]
    for p in d.priors:
        assert m.expected_cost_difference[p] == pytest.approx(
            -twin.expected_cost_difference[p], abs=1e-15
        )


def test_no_pairs(tmp_path):
    r = results_of(write_tiny_project(tmp_path / "p", settings=FAST + "\ncomparisons = []"))
    d = next(iter(r.datasets.values()))
    assert d.comparisons == {} and d.comparison_choice.rule == "pairs"


@pytest.mark.parametrize(
    "value, fragment",
    [
        ('"some"', 'expected "auto", "all", "best"'),
        ("3", 'expected "auto", "all", "best"'),
        ('{ base = "good" }', "expected a table { baseline"),
        (
            '{ baseline = "nope" }',
            'unknown classifier "nope" as baseline; expected one of "good", "weak", "rule"',
        ),
        ('[["good", "good"]]', "entry 1: expected two different classifiers"),
        ('[["good", "weak"], ["weak", "good"]]', "entry 2: duplicate pair"),
        ('[["good", "nope"]]', 'entry 1: unknown classifier "nope"'),
        ('[["good"]]', "entry 1: expected a pair [a, b] of classifier names"),
    ],
)
def test_bad_values_are_one_line_naming_file_line_and_key(tmp_path, value, fragment):
    root = write_tiny_project(tmp_path / "p", settings=FAST + f"\ncomparisons = {value}")
    with pytest.raises(UserInputError) as e:
        load_project(root)
    (problem,) = e.value.problems
    text = str(problem)
    assert text.startswith("ccreport.toml:") or "ccreport.toml:" in text
    assert (
        problem.line is not None
        and "project.comparisons" in text
        and fragment in text
        and "\n" not in text
    )


def test_settings_record_and_manifest_documentation():
    assert AnalysisSettings().to_dict()["comparisons"] == "auto"
    assert Comparisons("pairs", pairs=(("a", "b"),)).to_dict() == [["a", "b"]]
    from ccreport.project import manifest

    assert "comparisons" in manifest.__doc__ and '{ baseline = "<classifier>" }' in manifest.__doc__


def test_notebook_evaluate_accepts_comparisons_and_checks_names():
    rng = np.random.default_rng(3)
    y = rng.random(120) < 0.5
    scores = {n: rng.normal(size=120) + y * (i + 0.5) for i, n in enumerate(["a", "b", "c"])}
    r = ccreport.evaluate(
        y, scores, pos_label=True, comparisons={"baseline": "c"}, bootstrap=500, calibration="off"
    )
    d = next(iter(r.datasets.values()))
    assert list(d.comparisons) == ["c vs a", "c vs b"]
    with pytest.raises(
        UserInputError, match=r'evaluate: comparisons: entry 1: unknown classifier "z"'
    ):
        ccreport.evaluate(
            y, scores, pos_label=True, comparisons=[("a", "z")], bootstrap=500, calibration="off"
        )
    with pytest.raises(UserInputError, match="duplicate pair"):
        ccreport.evaluate(
            y, scores, pos_label=True, comparisons=[("a", "b"), ("b", "a")], bootstrap=500
        )


def test_written_notebook_project_reads_back_the_same_comparisons(tmp_path):
    rng = np.random.default_rng(4)
    y = rng.random(80) < 0.5
    scores = {"a": rng.normal(size=80) + y, "b": rng.normal(size=80)}
    folder = ccreport.write_project(
        y, tmp_path / "nb", scores, pos_label=True, comparisons=[["b", "a"]]
    )
    assert load_project(folder).settings.comparisons == Comparisons("pairs", pairs=(("b", "a"),))


def test_the_decision_box_runner_up_test_follows_the_chosen_pairs(tmp_path):
    """A runner-up outside the compared pairs gets no paired test, and its table cell and its
    line say so."""
    from ccreport.render.sections.decisions import prior_line, runner_up_verdict

    point = '\n[[priors]]\nname = "even"\ndistribution = "point"\npc = 0.5\n'
    r = results_of(
        write_tiny_project(tmp_path / "p", settings=FAST + "\ncomparisons = []", extra_priors=point)
    )
    d = next(iter(r.datasets.values()))
    rows = [(n, row) for n, row in d.decisions.priors.items() if row.runner_up]
    assert rows
    for name, row in rows:
        assert "difference" not in row.runner_up and "p_value" not in row.runner_up
        assert runner_up_verdict(d, name, row) == "not compared"
        assert ": not compared)" in prior_line(d, name, row).text
    r = results_of(
        write_tiny_project(
            tmp_path / "q", settings=FAST + '\ncomparisons = "all"', extra_priors=point
        )
    )
    d = next(iter(r.datasets.values()))
    for name, row in d.decisions.priors.items():
        if row.runner_up:
            assert "p_holm" in row.runner_up
            assert runner_up_verdict(d, name, row).startswith(("tied, p_adj", "significantly"))
            assert "not compared" not in prior_line(d, name, row).text
