"""The manifest: the documented example loads; every mistake is reported at once, with its line."""

import math
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ccreport.errors import UserInputError
from ccreport.project.manifest import (
    DEFAULT_PRIOR,
    CostSpec,
    ManifestLines,
    PriorSpec,
    Project,
    load_project,
)

EXAMPLE = """\
[project]
title = "Sonar: mines versus rocks"   # required
seed = 2006                      # optional int, default 2006
narrative = "narrative.md"       # optional markdown file, must exist
theme = "default"                # optional
confidence = 0.9                 # optional, 0<c<1
bootstrap = 1000                 # optional int >= 500 (replicates)
band = "pointwise"               # optional: pointwise | simultaneous | both
calibration = "auto"             # optional: auto | double | off
[[datasets]]                     # at least one
name = "sonar"
path = "data/sonar.csv"
label = "label"
positive = "M"
fold = "fold"
costs = "Amount"
narrative = "narratives/sonar.md"
[[classifiers]]
name = "logreg"
scores = "logreg"
[[classifiers]]
name = "tree-default"
predictions = "tree_crisp"
[[priors]]
name = "uniform"
distribution = "uniform"
[[priors]]
name = "sceptic"
distribution = "beta"
a = 2
b = 8
[[priors]]
name = "deployment"
distribution = "point"
p_positive = 0.3
cost_ratio = 5
[[priors]]
name = "uncertain"
distribution = "induced"
p_positive = { distribution = "beta", a = 3, b = 7 }
cost_ratio = { distribution = "loguniform", low = 1, high = 10 }
"""

SONAR_CSV = (
    "label,fold,Amount,logreg,tree_crisp\nM,1,10,0.9,M\nR,2,20,0.2,R\nM,2,5,0.6,R\nR,1,1,0.4,M\n"
)

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


def line_of(text: str, snippet: str, occurrence: int = 1) -> int:
    """The 1-based line of the ``occurrence``-th line of ``text`` containing ``snippet``."""
    hits = [number for number, line in enumerate(text.splitlines(), start=1) if snippet in line]
    return hits[occurrence - 1]


@pytest.fixture
def example(write):
    """The documented example project, with a tiny data file and its narratives."""
    write("data/sonar.csv", SONAR_CSV)
    write("narrative.md", "# Sonar\n")
    write("narratives/sonar.md", "About sonar.\n")
    return write("ccreport.toml", EXAMPLE)


@pytest.fixture
def minimal(write):
    """Write a manifest built from MINIMAL (plus extra text), with its data file; return a
    loader."""
    write("d.csv", "y,s\n1,0.5\n0,0.1\n")

    def load(text: str = MINIMAL) -> Project:
        write("ccreport.toml", text)
        return load_project("ccreport.toml")

    return load


def problems_of(load, text: str) -> list:
    with pytest.raises(UserInputError) as caught:
        load(text)
    return caught.value.problems


def one_problem(load, text: str):
    problems = problems_of(load, text)
    assert len(problems) == 1, [str(p) for p in problems]
    return problems[0]


# --- the happy path ----------------------------------------------------------------------------


def test_example_manifest_loads_with_every_key(example, project_dir):
    project = load_project(project_dir)
    assert project.title == "Sonar: mines versus rocks"
    settings = project.settings
    assert (
        settings.seed,
        project.theme,
        settings.confidence,
        settings.bootstrap,
        settings.band,
    ) == (2006, "default", 0.9, 1000, "pointwise")
    assert project.workers is None
    assert project.root == project_dir.resolve()
    assert project.manifest_path == example.resolve()
    assert project.manifest_text == EXAMPLE
    assert project.narrative == (project_dir / "narrative.md").resolve()

    (sonar,) = project.datasets
    assert sonar.name == "sonar" and sonar.path == (project_dir / "data" / "sonar.csv").resolve()
    assert sonar.path.is_absolute()
    assert (sonar.label, sonar.positive, sonar.fold) == ("label", "M", "fold")
    assert sonar.costs == CostSpec(
        fn="Amount", fp="Amount"
    )  # the short form: one column for both errors
    assert sonar.narrative == (project_dir / "narratives" / "sonar.md").resolve()
    assert sonar.line == line_of(EXAMPLE, "[[datasets]]")

    logreg, tree = project.classifiers
    assert (logreg.name, logreg.scores, logreg.predictions) == ("logreg", "logreg", None)
    assert (tree.name, tree.scores, tree.predictions) == ("tree-default", None, "tree_crisp")
    assert (logreg.line, tree.line) == (
        line_of(EXAMPLE, "[[classifiers]]", 1),
        line_of(EXAMPLE, "[[classifiers]]", 2),
    )


def test_example_priors_are_normalized(example):
    uniform, sceptic, deployment, uncertain = load_project(example).priors
    assert uniform == PriorSpec(
        "uniform", "uniform", (("high", 1.0), ("low", 0.0)), line=line_of(EXAMPLE, "[[priors]]", 1)
    )
    assert sceptic.params == (("a", 2.0), ("b", 8.0)) and sceptic.distribution == "beta"
    assert all(isinstance(value, float) for _, value in sceptic.params)
    assert [key for key, _ in deployment.params] == ["cost_ratio", "p_positive", "pc"]
    assert deployment.param("pc") == pytest.approx(0.3 * 5 / (0.3 * 5 + 0.7))
    assert (deployment.param("p_positive"), deployment.param("cost_ratio")) == (0.3, 5.0)
    assert uncertain.params == (
        ("cost_ratio", (("distribution", "loguniform"), ("high", 10.0), ("low", 1.0))),
        ("p_positive", (("a", 3.0), ("b", 7.0), ("distribution", "beta"))),
    )
    assert uncertain.line == line_of(EXAMPLE, "[[priors]]", 4)


def test_project_is_found_from_its_folder_or_its_file(example, project_dir):
    assert load_project(project_dir) == load_project(example) == load_project(str(example))


def test_defaults(minimal):
    project = minimal()
    settings = project.settings
    assert (
        settings.seed,
        project.theme,
        settings.confidence,
        settings.bootstrap,
        settings.band,
    ) == (2006, "default", 0.9, 1000, "pointwise")
    assert settings.calibration == "auto"
    assert project.narrative is None and project.workers is None
    assert project.priors == (DEFAULT_PRIOR,) and DEFAULT_PRIOR.name == "uniform"
    (dataset,) = project.datasets
    assert dataset.fold is None and dataset.costs is None and dataset.narrative is None


def test_settings_are_read(minimal, write):
    write("themes/dark/theme.css", "body { color: white; }")
    project = minimal(
        MINIMAL.replace(
            'title = "t"',
            'title = "t"\nseed = 7\nconfidence = 0.95\nbootstrap = 500\nband = "both"\n'
            'workers = 4\ntheme = "dark"\ncalibration = "off"',
        )
    )
    settings = project.settings
    assert (
        settings.seed,
        settings.confidence,
        settings.bootstrap,
        settings.band,
        project.workers,
        project.theme,
    ) == (7, 0.95, 500, "both", 4, "dark")
    assert settings.calibration == "off"


def test_integer_positive_class_becomes_its_text(minimal):
    assert minimal(MINIMAL.replace('positive = "1"', "positive = 1")).datasets[0].positive == "1"


def test_param_default():
    assert DEFAULT_PRIOR.param("low") == 0.0 and DEFAULT_PRIOR.param("a", 5) == 5


# --- the manifest file itself ------------------------------------------------------------------


def test_folder_without_manifest(project_dir):
    with pytest.raises(UserInputError) as caught:
        load_project(project_dir)
    (problem,) = caught.value.problems
    assert problem.field == "ccreport.toml" and problem.file == "ccreport.toml"
    assert "no ccreport.toml" in problem.expected


@pytest.mark.parametrize("given", ["nowhere", "nowhere/ccreport.toml"])
def test_missing_folder_or_file(project_dir, given):
    with pytest.raises(UserInputError) as caught:
        load_project(given)
    (problem,) = caught.value.problems
    assert problem.field == "ccreport.toml" and "not found" in problem.expected
    assert problem.file == "nowhere/ccreport.toml"


def test_toml_syntax_error_names_its_line(minimal):
    text = MINIMAL.replace('label = "y"', 'label = "y\nfoo = ')
    problem = one_problem(minimal, text)
    assert problem.field == "TOML syntax" and problem.line == line_of(text, 'label = "y')
    assert "column" in problem.expected


def test_toml_invalid_value_line(minimal):
    text = MINIMAL.replace('scores = "s"', "scores = s")
    problem = one_problem(minimal, text)
    assert problem.line == line_of(text, "scores = s")
    assert str(problem).startswith(f"ccreport.toml:{problem.line}: TOML syntax: invalid value")


def test_repeated_key_points_at_the_repeat(minimal):
    text = MINIMAL.replace('label = "y"', 'label = "y"\nlabel = "z"')
    problem = one_problem(minimal, text)
    assert problem.line == line_of(text, 'label = "z"')


def test_not_utf8(write, project_dir):
    write("ccreport.toml", b'[project]\ntitle = "caf\xe9"\n')
    with pytest.raises(UserInputError) as caught:
        load_project(project_dir)
    (problem,) = caught.value.problems
    assert problem.line == 2 and "UTF-8" in problem.expected


# --- all problems at once, with their lines ----------------------------------------------------


def test_three_mistakes_three_problems_in_file_order(minimal):
    text = (
        MINIMAL.replace('title = "t"', 'title = "t"\nseed = true')
        .replace('positive = "1"', 'posative = "1"')
        .replace(
            'scores = "s"',
            'scores = "s"\n[[priors]]\nname = "sceptic"\ndistribution = "beta"\na = -1\nb = 2',
        )
    )
    problems = problems_of(minimal, text)
    assert [str(p) for p in problems] == [
        f"ccreport.toml:{line_of(text, 'seed')}: project.seed: expected an integer from 0 to "
        "2**64 - 1, got true",
        f"ccreport.toml:{line_of(text, '[[datasets]]')}: datasets[1] (d).positive: missing "
        "required key; "
        "expected the label column's value for the positive class (a string or an integer)",
        f"ccreport.toml:{line_of(text, 'posative')}: datasets[1] (d).posative: unknown key "
        "'posative'; did you mean 'positive'?",
        f"ccreport.toml:{line_of(text, 'a = -1')}: priors[1] (sceptic).a: expected a number > "
        "0, got -1",
    ]


MISTAKES = {
    # name: (replace this, by this, the problem's field, the snippet on the problem's line)
    "seed": ('title = "t"', 'title = "t"\nseed = "5"', "project.seed", "seed ="),
    "band": ('title = "t"', 'title = "t"\nband = "pointwize"', "project.band", "band ="),
    "label": ('label = "y"', "label = 3", "datasets[1] (d).label", "label ="),
    "typo": ('positive = "1"', 'positive = "1"\nflod = "f"', "datasets[1] (d).flod", "flod"),
    "path": ('path = "d.csv"', 'path = "e.csv"', "datasets[1] (d).path", "path ="),
    "both": (
        'scores = "s"',
        'scores = "s"\npredictions = "p"',
        "classifiers[1]{c}.predictions",
        "predictions =",
    ),
    "name": ('name = "c"', 'name = "c c"', "classifiers[1].name", 'name = "c c"'),
}


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(chosen=st.sets(st.sampled_from(sorted(MISTAKES)), min_size=1))
def test_every_mistake_is_reported_once_at_its_line(minimal, chosen):
    text = MINIMAL
    for name in sorted(chosen):
        old, new, _, _ = MISTAKES[name]
        text = text.replace(old, new, 1)
    problems = problems_of(minimal, text)
    classifier = "" if "name" in chosen else " (c)"  # an invalid name is not used to label fields
    expected = {
        (MISTAKES[name][2].format(c=classifier), line_of(text, MISTAKES[name][3]))
        for name in chosen
    }
    assert {(p.field, p.line) for p in problems} == expected
    assert len(problems) == len(chosen)
    assert [p.line for p in problems] == sorted(p.line for p in problems)


# --- each rule ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "setting, expected",
    [
        ("seed = true", "expected an integer from 0 to 2**64 - 1, got true"),
        ("seed = 1.5", "expected an integer from 0 to 2**64 - 1, got 1.5"),
        ("seed = -1", "expected an integer from 0 to 2**64 - 1, got -1"),
        ('seed = "5"', 'expected an integer from 0 to 2**64 - 1, got "5" (a string)'),
        ("confidence = 1", "expected a number strictly between 0 and 1, got 1"),
        ("confidence = 0.0", "expected a number strictly between 0 and 1, got 0.0"),
        ("confidence = nan", "expected a number strictly between 0 and 1, got nan"),
        ("bootstrap = 499", "expected an integer from 500 to 20000, got 499"),
        ("bootstrap = 1000.0", "expected an integer from 500 to 20000, got 1000.0"),
        ("workers = 0", "expected an integer from 1 to 256, got 0"),
        (
            'band = "pointwize"',
            'expected one of "pointwise", "simultaneous", "both", got "pointwize" (a string); '
            'did you mean "pointwise"?',
        ),
        (
            'calibration = "dubble"',
            'expected one of "auto", "double", "off", got "dubble" (a string); did you mean '
            '"double"?',
        ),
        ('theme = ""', 'expected the name of a theme, got "" (a string)'),
        ("title = 5", "expected the report's title, a non-empty string, got 5"),
        ("narrative = [1]", "expected a markdown file, relative to the manifest, got an array"),
    ],
)
def test_project_settings_are_checked(minimal, setting, expected):
    key = setting.split(" =")[0]
    text = MINIMAL.replace('title = "t"', setting if key == "title" else f'title = "t"\n{setting}')
    problem = one_problem(minimal, text)
    assert (problem.field, problem.expected, problem.line) == (
        f"project.{key}",
        expected,
        line_of(text, setting),
    )


def test_missing_sections(minimal):
    problems = problems_of(minimal, "")
    assert [p.field for p in problems] == ["project", "datasets", "classifiers"]
    assert all(p.line is None for p in problems)


def test_missing_title_points_at_the_table(minimal):
    text = MINIMAL.replace('title = "t"\n', "")
    problem = one_problem(minimal, text)
    assert (problem.field, problem.line) == ("project.title", 1)
    assert problem.expected.startswith("missing required key")


def test_top_level_setting_is_pointed_to_project(minimal):
    problem = one_problem(minimal, "seed = 3\n" + MINIMAL)
    assert (problem.field, problem.line) == ("seed", 1)
    assert "under [project]" in problem.expected


def test_unknown_top_level_table(minimal):
    problem = one_problem(minimal, MINIMAL + "[[clasifiers]]\nname = 'x'\n")
    assert problem.field == "clasifiers" and "did you mean 'classifiers'?" in problem.expected


def test_single_bracket_datasets_table(minimal):
    text = MINIMAL.replace("[[datasets]]", "[datasets]")
    problem = one_problem(minimal, text)
    assert problem.field == "datasets" and "double brackets" in problem.expected
    assert problem.line == line_of(text, "[datasets]")


def test_missing_dataset_keys_are_each_reported(minimal):
    text = MINIMAL.replace('path = "d.csv"\nlabel = "y"\npositive = "1"\n', "")
    problems = problems_of(minimal, text)
    assert [p.field for p in problems] == [
        "datasets[1] (d).path",
        "datasets[1] (d).label",
        "datasets[1] (d).positive",
    ]
    assert {p.line for p in problems} == {line_of(text, "[[datasets]]")}


def test_missing_name(minimal):
    problem = one_problem(minimal, MINIMAL.replace('name = "d"\n', ""))
    assert problem.field == "datasets[1].name" and problem.expected.startswith(
        "missing required key"
    )


@pytest.mark.parametrize("name", ["my data", "a/b", "été", ""])
def test_names_must_be_file_name_safe(minimal, name):
    problem = one_problem(minimal, MINIMAL.replace('name = "c"', f'name = "{name}"'))
    assert problem.field == "classifiers[1].name"


def test_duplicate_names(minimal, write):
    text = (
        MINIMAL + '[[classifiers]]\nname = "c"\npredictions = "p"\n[[datasets]]\nname = "d"\n'
        'path = "d.csv"\nlabel = "y"\npositive = "1"\n'
    )
    problems = problems_of(minimal, text)
    assert [(p.field, p.line) for p in problems] == [
        ("classifiers[2] (c).name", line_of(text, 'name = "c"', 2)),
        ("datasets[2] (d).name", line_of(text, 'name = "d"', 2)),
    ]
    assert "classifiers[1] is also named" in problems[0].expected


def test_missing_files(minimal, write):
    write("folder/keep.md", "x")
    text = MINIMAL.replace('path = "d.csv"', 'path = "missing.csv"\nnarrative = "folder"').replace(
        'title = "t"', 'title = "t"\nnarrative = "intro.md"'
    )
    problems = problems_of(minimal, text)
    assert [p.field for p in problems] == [
        "project.narrative",
        "datasets[1] (d).path",
        "datasets[1] (d).narrative",
    ]
    assert "file not found: intro.md" in problems[0].expected
    assert "file not found: missing.csv" in problems[1].expected
    assert "got a folder" in problems[2].expected
    assert [p.line for p in problems] == [
        line_of(text, "intro.md"),
        line_of(text, "missing.csv"),
        line_of(text, '= "folder"'),
    ]


@pytest.mark.parametrize("value", ["true", "1.5", '""', "[1]"])
def test_positive_must_be_text_or_integer(minimal, value):
    problem = one_problem(minimal, MINIMAL.replace('positive = "1"', f"positive = {value}"))
    assert problem.field == "datasets[1] (d).positive"


def test_classifier_needs_exactly_one_column(minimal):
    text = MINIMAL.replace(
        'scores = "s"', 'scores = "s"\npredictions = "p"\n[[classifiers]]\nname = "e"'
    )
    both, neither = problems_of(minimal, text)
    assert (both.field, both.line) == (
        "classifiers[1] (c).predictions",
        line_of(text, "predictions"),
    )
    assert "got both" in both.expected
    assert (neither.field, neither.line) == (
        "classifiers[2] (e)",
        line_of(text, "[[classifiers]]", 2),
    )
    assert "got neither" in neither.expected


def test_unknown_keys_suggest_the_nearest(minimal):
    text = MINIMAL.replace('scores = "s"', 'socres = "s"')
    problems = problems_of(minimal, text)
    assert any(
        p.expected == "unknown key 'socres'; did you mean 'scores'?"
        and p.line == line_of(text, "socres")
        for p in problems
    )


# --- priors ------------------------------------------------------------------------------------


def prior(minimal, body: str):
    return minimal(MINIMAL + '[[priors]]\nname = "p"\n' + body).priors[0]


def prior_problems(minimal, body: str):
    text = MINIMAL + '[[priors]]\nname = "p"\n' + body
    return text, problems_of(minimal, text)


@pytest.mark.parametrize(
    "body, params",
    [
        ('distribution = "uniform"', (("high", 1.0), ("low", 0.0))),
        ('distribution = "uniform"\nlow = 0.25', (("high", 1.0), ("low", 0.25))),
        ('distribution = "uniform"\nlow = 0\nhigh = 0.5', (("high", 0.5), ("low", 0.0))),
        ('distribution = "beta"\na = 0.5\nb = 3', (("a", 0.5), ("b", 3.0))),
        ('distribution = "point"\npc = 1', (("pc", 1.0),)),
        (
            'distribution = "point"\np_positive = 0.2\ncost_ratio = 4',
            (("cost_ratio", 4.0), ("p_positive", 0.2), ("pc", 0.5)),
        ),
        (
            'distribution = "induced"\np_positive = 0.1\ncost_ratio = 2',
            (
                ("cost_ratio", (("distribution", "point"), ("value", 2.0))),
                ("p_positive", (("distribution", "point"), ("value", 0.1))),
            ),
        ),
        (
            'distribution = "induced"\np_positive = { distribution = "uniform" }\n'
            'cost_ratio = { distribution = "uniform", high = 5 }',
            (
                ("cost_ratio", (("distribution", "uniform"), ("high", 5.0), ("low", 0.0))),
                ("p_positive", (("distribution", "uniform"), ("high", 1.0), ("low", 0.0))),
            ),
        ),
        (
            'distribution = "induced"\np_positive = { distribution = "point", value = 0.4 }\n'
            '[priors.cost_ratio]\ndistribution = "point"\nvalue = 3',
            (
                ("cost_ratio", (("distribution", "point"), ("value", 3.0))),
                ("p_positive", (("distribution", "point"), ("value", 0.4))),
            ),
        ),
    ],
)
def test_prior_params_normalized(minimal, body, params):
    spec = prior(minimal, body)
    assert spec.params == params
    assert spec.params == tuple(sorted(spec.params))


@pytest.mark.parametrize(
    "body, bad_line, field, expected",
    [
        ('distribution = "betta"', "betta", "distribution", '; did you mean "beta"?'),
        ('distribution = "beta"\na = 0\nb = 1', "a = 0", "a", "expected a number > 0, got 0"),
        ('distribution = "beta"\na = 1\nb = inf', "b = inf", "b", "expected a number > 0, got inf"),
        (
            'distribution = "beta"\na = 1',
            "[[priors]]",
            "b",
            "missing required key; expected a number > 0",
        ),
        (
            'distribution = "beta"\na = 1\nb = 1\npc = 0.5',
            "pc =",
            "pc",
            "'pc' is not a parameter of a beta prior, which takes a, b",
        ),
        (
            'distribution = "uniform"\nlow = 0.5\nhigh = 0.5',
            "high =",
            "high",
            "expected low < high, got low = 0.5, high = 0.5",
        ),
        (
            'distribution = "uniform"\nhigh = 1.5',
            "high =",
            "high",
            "expected a number in [0, 1], got 1.5",
        ),
        ('distribution = "point"\npc = 1.1', "pc =", "pc", "expected a number in [0, 1], got 1.1"),
        (
            'distribution = "point"\npc = 0.5\ncost_ratio = 2',
            "pc =",
            "pc",
            "expected either pc, or p_positive and cost_ratio, not both",
        ),
        (
            'distribution = "point"\np_positive = 0.5',
            "[[priors]]",
            "cost_ratio",
            "missing required key; expected a number > 0",
        ),
        (
            'distribution = "point"\np_positive = 1\ncost_ratio = 2',
            "p_positive",
            "p_positive",
            "expected a number strictly between 0 and 1, got 1",
        ),
        (
            'distribution = "point"\np_positive = 0.5\ncost_ratio = true',
            "cost_ratio",
            "cost_ratio",
            "expected a number > 0, got true",
        ),
        (
            'distribution = "induced"\np_positive = 0.5',
            "[[priors]]",
            "cost_ratio",
            "missing required key",
        ),
        (
            'distribution = "induced"\np_positive = { distribution = "beta", a = -3, b = 7 }\n'
            "cost_ratio = 2",
            "p_positive =",
            "p_positive.a",
            "expected a number > 0, got -3",
        ),
        (
            'distribution = "induced"\np_positive = 0.5\n'
            'cost_ratio = { distribution = "loguniform", low = 0, high = 10 }',
            "cost_ratio =",
            "cost_ratio.low",
            "expected a number > 0, got 0",
        ),
        (
            'distribution = "induced"\np_positive = 0.5\n'
            'cost_ratio = { distribution = "beta", a = 1, b = 1 }',
            "cost_ratio =",
            "cost_ratio.distribution",
            'expected one of "loguniform", "uniform", "point", got "beta" (a string)',
        ),
        (
            'distribution = "induced"\np_positive = { distribution = "point", valeu = 0.5 }\n'
            "cost_ratio = 2",
            "p_positive =",
            "p_positive.valeu",
            "unknown key 'valeu'; did you mean 'value'?",
        ),
        (
            'distribution = "induced"\np_positive = 0.5\n[priors.cost_ratio]\n'
            'distribution = "loguniform"\nlow = 2\nhigh = 1',
            "high = 1",
            "cost_ratio.high",
            "expected low < high, got low = 2, high = 1",
        ),
    ],
)
def test_prior_problems(minimal, body, bad_line, field, expected):
    text, problems = prior_problems(minimal, body)
    matching = [p for p in problems if p.field == f"priors[1] (p).{field}"]
    assert len(matching) == 1, [str(p) for p in problems]
    assert expected in matching[0].expected
    assert matching[0].line == line_of(text, bad_line)


def test_point_prior_needs_one_form(minimal):
    text, (problem,) = prior_problems(minimal, 'distribution = "point"')
    assert problem.field == "priors[1] (p)" and problem.line == line_of(text, "[[priors]]")


def test_point_prior_pc_matches_the_formula(minimal):
    spec = prior(minimal, 'distribution = "point"\np_positive = 0.3\ncost_ratio = 5')
    assert math.isclose(spec.param("pc"), 0.3 * 5 / (0.3 * 5 + 0.7))
    assert type(spec.param("pc")) is float


# --- finding lines -----------------------------------------------------------------------------


def test_lines_skip_multiline_strings_and_count_array_elements():
    text = (
        'title = """\n[[datasets]]\nname = 1\n"""\n[[datasets]]\nname = "a"\n[[datasets]]\n'
        '  name = "b"  # two\n'
    )
    lines = ManifestLines(text)
    assert lines.line_of("datasets", 1) == 5 and lines.line_of("datasets", 2) == 7
    assert lines.line_of("datasets", 2, ("name",)) == 8
    assert lines.line_of("datasets", 2, ("path",)) == 7  # absent key: the header
    assert lines.line_of("datasets", 3) is None


def test_lines_of_dotted_keys_and_inline_arrays_of_tables():
    text = 'datasets = [\n  { name = "a" },\n]\n[[priors]]\np_positive.a = 3\n"cost_ratio" = 2\n'
    lines = ManifestLines(text)
    assert lines.line_of("datasets", 1, ("name",)) == 1  # falls back to the key holding the array
    assert lines.line_of("priors", 1, ("p_positive", "a")) == 5
    assert lines.line_of("priors", 1, ("p_positive", "b")) == 5
    assert lines.line_of("priors", 1, ("cost_ratio",)) == 6


def test_problem_strings_are_one_line_each(minimal):
    text = MINIMAL.replace('title = "t"', 'title = "t"\nseed = true\nband = 3')
    message = str(pytest.raises(UserInputError, minimal, text).value)
    assert len(message.splitlines()) == 2
    assert all(
        re.match(r"ccreport\.toml:\d+: project\.\w+: expected ", line)
        for line in message.splitlines()
    )


def test_prior_restricted_to_datasets(minimal):
    spec = prior(minimal, 'distribution = "uniform"\ndatasets = ["d"]')
    assert spec.datasets == ("d",) and spec.applies_to("d") and not spec.applies_to("other")
    assert prior(minimal, 'distribution = "uniform"').datasets is None


@pytest.mark.parametrize(
    "value, expected",
    [
        ('["nope"]', 'expected names of datasets in this manifest (d), got "nope"'),
        ("[]", "non-empty list"),
        ('"d"', "non-empty list"),
    ],
)
def test_prior_datasets_must_name_datasets(minimal, value, expected):
    text, problems = prior_problems(minimal, f'distribution = "uniform"\ndatasets = {value}')
    matching = [p for p in problems if p.field == "priors[1] (p).datasets"]
    assert len(matching) == 1 and expected in matching[0].expected, [str(p) for p in problems]
    assert matching[0].line == line_of(text, "datasets = ")
