"""The manifest's [[criteria]] entries and point priors with costs in units (issue 11)."""

from __future__ import annotations

import pytest

from ccreport.errors import UserInputError
from ccreport.project.manifest import load_project
from ccreport.project.manifest_criteria import CriterionSpec

MINIMAL = """\
[project]
title = "t"
[[datasets]]
name = "d"
path = "d.csv"
label = "y"
positive = "1"
[[classifiers]]
name = "c"
scores = "s"
"""


@pytest.fixture
def load(write):
    write("d.csv", "y,s\n1,0.5\n0,0.1\n")

    def load(extra: str):
        write("ccreport.toml", MINIMAL + extra)
        return load_project("ccreport.toml")

    return load


def problems(load, extra: str) -> list[str]:
    with pytest.raises(UserInputError) as caught:
        load(extra)
    return [str(p) for p in caught.value.problems]


def line_of(extra: str, snippet: str) -> int:
    text = MINIMAL + extra
    return next(i for i, line in enumerate(text.splitlines(), start=1) if snippet in line)


def test_criteria_are_read(load):
    project = load("""
[[criteria]]
name = "fpr-5pct"
kind = "neyman_pearson"
max_fpr = 0.05
[[criteria]]
name = "desk"
kind = "workforce"
capacity = 120
datasets = ["d"]
[[criteria]]
name = "share"
kind = "workforce"
capacity_share = 0.1
[[criteria]]
name = "bayes"
kind = "performance_independent"
[[criteria]]
name = "literal"
kind = "performance_independent"
rule = "literal"
""")
    assert [c.name for c in project.criteria] == ["fpr-5pct", "desk", "share", "bayes", "literal"]
    assert project.criteria[0] == CriterionSpec(
        "fpr-5pct", "neyman_pearson", (("max_fpr", 0.05),), line=12
    )
    assert project.criteria[1].params == (("capacity", 120),) and project.criteria[1].datasets == (
        "d",
    )
    assert project.criteria[2].params == (("capacity_share", 0.1),)
    assert project.criteria[3].params == (("rule", "bayes_prior"),)  # the default rule
    assert project.criteria[4].param("rule") == "literal"


def test_no_criteria_is_fine(load):
    assert load("").criteria == ()


@pytest.mark.parametrize(
    "entry, key, expected",
    [
        ('kind = "neyman_pearson"\nmax_fpr = 0', "max_fpr", "expected a number in (0, 1], got 0"),
        ('kind = "neyman_pearson"\nmax_fpr = 1.5', "max_fpr", "expected a number in (0, 1]"),
        ('kind = "neyman_pearson"', "[[criteria]]", "max_fpr: missing required key"),
        (
            'kind = "workforce"\ncapacity = 1.5',
            "capacity",
            "expected an integer >= 0 (cases), at most 2**53, got 1.5",
        ),
        ('kind = "workforce"\ncapacity = -1', "capacity", "expected an integer >= 0 (cases)"),
        (
            'kind = "workforce"\ncapacity_share = 1.2',
            "capacity_share",
            "expected a number in [0, 1]",
        ),
        (
            'kind = "workforce"\ncapacity = 3\ncapacity_share = 0.1',
            "capacity =",
            "expected exactly one of capacity",
        ),
        ('kind = "workforce"', "[[criteria]]", "expected exactly one of capacity"),
        (
            'kind = "performance_independent"\nrule = "bayes"',
            "rule",
            'expected one of "bayes_prior"',
        ),
        (
            'kind = "neyman_pearson"\nmax_fpr = 0.1\nrule = "literal"',
            "rule",
            "'rule' is not a parameter of a neyman_pearson criterion",
        ),
        ('kind = "neyman_pearsn"', "kind", 'did you mean "neyman_pearson"'),
        (
            'kind = "workforce"\ncapacity = 3\ndatasets = ["nope"]',
            'datasets = ["nope"]',
            "expected names of datasets in this manifest",
        ),
        ('kind = "workforce"\ncapacity = 3\ncolour = 1', "colour", "unknown key 'colour'"),
    ],
)
def test_criterion_mistakes_name_file_line_and_field(load, entry, key, expected):
    extra = f'\n[[criteria]]\nname = "x"\n{entry}\n'
    (problem,) = problems(load, extra)
    line = line_of(extra, key)  # a missing key: the table's header line
    assert problem.startswith(f"ccreport.toml:{line}: criteria[1] (x)."), problem
    assert expected in problem


def test_duplicate_criterion_names(load):
    extra = '\n[[criteria]]\nname = "x"\nkind = "performance_independent"\n' * 2
    (problem,) = problems(load, extra)
    assert 'criteria[2] (x).name: duplicate name; criteria[1] is also named "x"' in problem


def test_point_prior_with_costs_in_units(load):
    project = load("""
[[priors]]
name = "loan"
distribution = "point"
cost_fn = 5
cost_fp = 1
unit = "EUR"
p_positive = 0.3
""")
    params = dict(project.priors[0].params)
    assert params == {
        "cost_fn": 5.0,
        "cost_fp": 1.0,
        "cost_ratio": 5.0,
        "p_positive": 0.3,
        "pc": pytest.approx(1.5 / 2.2),
        "unit": "EUR",
    }


def test_point_prior_costs_without_p_positive_need_one_dataset(load):
    extra = '\n[[priors]]\nname = "loan"\ndistribution = "point"\ncost_fn = 5\ncost_fp = 1\n'
    (problem,) = problems(load, extra)
    assert "priors[1] (loan).datasets: expected one dataset name" in problem
    project = load(extra + 'datasets = ["d"]\n')
    assert "pc" not in dict(project.priors[0].params)


@pytest.mark.parametrize(
    "entry, expected",
    [
        (
            "cost_fn = 5\ncost_fp = 1\ncost_ratio = 5\np_positive = 0.3",
            "either cost_ratio or cost_fn and cost_fp",
        ),
        ("cost_fn = 5\npc = 0.3", "expected either pc"),
        ("cost_fn = 5\np_positive = 0.3", "cost_fp: missing required key"),
        ("cost_fn = 0\ncost_fp = 1\np_positive = 0.3", "cost_fn: expected a number > 0"),
        ('pc = 0.3\nunit = "EUR"', "unit: expected unit only with cost_fn and cost_fp"),
    ],
)
def test_point_prior_cost_mistakes(load, entry, expected):
    (problem,) = problems(load, f'\n[[priors]]\nname = "p"\ndistribution = "point"\n{entry}\n')
    assert expected in problem, problem
