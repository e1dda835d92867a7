"""Loading a dataset's CSV: the arrays are right, and every bad cell is named by file, line, row,
column."""

import hashlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ccreport.errors import UserInputError
from ccreport.project import data_table
from ccreport.project.loaders import fold_order, load_dataset, load_project_data, sha256_file
from ccreport.project.manifest import ClassifierSpec, DatasetSpec, load_project

SCORES = ClassifierSpec("logreg", scores="logreg")
CRISP = ClassifierSpec("tree", predictions="tree_crisp")
ABSENT = ClassifierSpec("svm", scores="svm")

GOOD = """\
label,fold,Amount,logreg,tree_crisp
M,1,10,0.9,M
R,2,20.5,0.2,R
M,10,5,0.6,R
R,1,0,-1e3,M
R,2,1,0.4,R
"""


def spec(path, **keys) -> DatasetSpec:
    defaults = {"name": "sonar", "label": "label", "positive": "M"}
    return DatasetSpec(path=path.resolve(), **{**defaults, **keys})


def problems_loading(path, classifiers=(SCORES, CRISP), **keys):
    with pytest.raises(UserInputError) as caught:
        load_dataset(spec(path, **keys), list(classifiers))
    return caught.value.problems


def one_problem(path, classifiers=(SCORES, CRISP), **keys):
    problems = problems_loading(path, classifiers, **keys)
    assert len(problems) == 1, [str(p) for p in problems]
    return problems[0]


# --- the happy path ----------------------------------------------------------------------------


def test_good_file_gives_the_arrays(write):
    path = write("data/sonar.csv", GOOD)
    data = load_dataset(spec(path, fold="fold", costs="Amount"), [SCORES, CRISP, ABSENT])
    assert data.name == "sonar" and data.path == path.resolve()
    assert data.sha256 == hashlib.sha256(GOOD.encode()).hexdigest() == sha256_file(path)
    assert data.labels.dtype == bool and data.labels.tolist() == [True, False, True, False, False]
    assert (data.positive_label, data.negative_label, data.n_pos, data.n_neg) == ("M", "R", 2, 3)
    assert set(data.scores) == {"logreg"} and data.scores["logreg"].dtype == np.float64
    assert data.scores["logreg"].tolist() == [0.9, 0.2, 0.6, -1000.0, 0.4]
    assert set(data.predictions) == {"tree"} and data.predictions["tree"].dtype == bool
    assert data.predictions["tree"].tolist() == [True, False, False, True, False]
    assert data.fold_names == ("1", "2", "10")  # numeric order when all folds are integers
    assert data.folds.tolist() == [0, 1, 2, 0, 1]
    assert data.costs.dtype == np.float64 and data.costs.tolist() == [10, 20.5, 5, 0, 1]


def test_optional_columns_absent(write):
    data = load_dataset(spec(write("d.csv", GOOD)), [SCORES])
    assert (
        data.folds is None
        and data.fold_names == ()
        and data.costs is None
        and data.predictions == {}
    )


def test_bom_quotes_whitespace_blank_lines_and_crlf(write):
    text = '\ufeff"label" , logreg\r\n "M" ,  " 0.5 "\r\n\r\nR,"1e-3"\r\n  \r\n'
    data = load_dataset(spec(write("d.csv", text)), [SCORES])
    assert data.labels.tolist() == [True, False]
    assert data.scores["logreg"].tolist() == [0.5, 0.001]


def test_text_folds_sort_as_text(write):
    text = "label,fold,logreg\nM,b,1\nR,a,2\nM,c10,3\nR,c9,4\n"
    data = load_dataset(spec(write("d.csv", text), fold="fold"), [SCORES])
    assert data.fold_names == ("a", "b", "c10", "c9") and data.folds.tolist() == [1, 0, 2, 3]


def test_fold_order():
    assert fold_order(["10", "-1", "2", "02"]) == ["-1", "02", "2", "10"]
    assert fold_order(["x", "1"]) == ["1", "x"]


def test_integer_positive_label(write):
    data = load_dataset(
        spec(write("d.csv", "y,logreg\n1,0.3\n0,0.2\n"), label="y", positive="1"), [SCORES]
    )
    assert (data.positive_label, data.negative_label) == ("1", "0")


def test_negative_label_is_the_other_value(write):
    data = load_dataset(spec(write("d.csv", "label,logreg\nR,1\nM,2\n"), positive="R"), [SCORES])
    assert (data.positive_label, data.negative_label, data.labels.tolist()) == (
        "R",
        "M",
        [True, False],
    )


@pytest.mark.parametrize("chunk_rows", [1, 2, 3, 1000])
def test_chunks_do_not_change_the_result(write, monkeypatch, chunk_rows):
    monkeypatch.setattr(data_table, "CHUNK_ROWS", chunk_rows)
    data = load_dataset(spec(write("d.csv", GOOD), fold="fold", costs="Amount"), [SCORES, CRISP])
    assert data.scores["logreg"].tolist() == [0.9, 0.2, 0.6, -1000.0, 0.4]
    assert data.folds.tolist() == [0, 1, 2, 0, 1] and data.costs.size == 5


rows = st.lists(
    st.tuples(
        st.booleans(), st.floats(allow_nan=False, allow_infinity=False), st.sampled_from("abc")
    ),
    min_size=2,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=rows.filter(lambda rs: len({r[0] for r in rs}) == 2))
def test_round_trip(write, rows):
    text = "label,logreg,fold\n" + "".join(f"{'P' if y else 'N'},{s!r},{f}\n" for y, s, f in rows)
    data = load_dataset(spec(write("d.csv", text), positive="P", fold="fold"), [SCORES])
    assert data.labels.tolist() == [y for y, _, _ in rows]
    assert data.scores["logreg"].tolist() == [s for _, s, _ in rows]
    assert [data.fold_names[code] for code in data.folds] == [f for _, _, f in rows]


# --- the file as a whole -------------------------------------------------------------------------


def test_empty_file(write):
    problem = one_problem(write("d.csv", ""))
    assert (problem.file, problem.field) == ("d.csv", "header") and "empty" in problem.expected


def test_header_only(write):
    problem = one_problem(write("d.csv", "label,logreg\n\n"))
    assert (problem.field, problem.line) == ("rows", 1) and "no data rows" in problem.expected


def test_ragged_rows(write):
    problems = problems_loading(write("d.csv", "label,logreg\nM,1\nR,2,3\nR\nR,0.5\n"))
    assert [(p.field, p.line, p.row) for p in problems] == [("fields", 3, 2), ("fields", 4, 3)]
    assert problems[0].expected == "expected 2 fields, as in the header, got 3"


def test_not_utf8(write):
    problem = one_problem(write("d.csv", b"label,logreg\nM,1\nR\xe9,2\n"))
    assert (problem.field, problem.line) == ("encoding", 3) and "0xe9" in problem.expected


def test_unreadable_csv_keeps_the_rows_before(write):
    text = 'label,logreg\nM,1\nR,x\nM,"' + "y" * 200_000 + '"\n'
    problems = problems_loading(write("d.csv", text))
    assert [(p.field, p.line) for p in problems] == [("CSV", 4), ("logreg", 3)]
    assert "field larger than field limit" in problems[0].expected


def test_missing_columns_suggest_the_nearest(write):
    path = write("d.csv", "Label,fold_id,logreg\nM,1,2\nR,2,3\n")
    problems = problems_loading(path, fold="fold", costs="cost")
    assert [(p.field, p.line, p.row) for p in problems] == [
        ("label", 1, None),
        ("fold", 1, None),
        ("cost", 1, None),
    ]
    assert (
        problems[0].expected
        == 'column not found (the label of dataset "sonar"); did you mean "Label"?'
    )
    assert 'did you mean "fold_id"?' in problems[1].expected
    assert 'the header has "Label", "fold_id", "logreg"' in problems[2].expected


def test_duplicate_column(write):
    problem = one_problem(write("d.csv", "label,logreg,logreg\nM,1,2\nR,2,3\n"))
    assert problem.field == "logreg" and "got 2 (fields 2, 3)" in problem.expected


def test_classifier_column_absent_from_one_file_is_fine(write):
    data = load_dataset(spec(write("d.csv", "label,logreg\nM,1\nR,2\n")), [SCORES, CRISP, ABSENT])
    assert list(data.scores) == ["logreg"] and data.predictions == {}


# --- classes -------------------------------------------------------------------------------------


def test_third_class_value_names_its_rows(write):
    problems = problems_loading(write("d.csv", "label,logreg\nM,1\nR,2\nR,3\nX,4\nM,5\nX,6\n"))
    assert [(p.field, p.line, p.row) for p in problems] == [("label", 5, 4), ("label", 7, 6)]
    assert (
        problems[0].expected
        == 'expected "M" (positive) or "R" (negative), got "X": a cost curve needs exactly '
        "two classes"
    )


def test_positive_class_absent(write):
    problem = one_problem(write("d.csv", "label,logreg\nm,1\nR,2\n"), classifiers=[SCORES])
    assert problem.field == "label" and problem.line is None
    assert (
        problem.expected
        == 'the positive class "M" does not occur; the column holds "m" (1 row), "R" (1 '
        'row); did you mean "m"?'
    )


def test_positive_written_as_another_number(write):
    problem = one_problem(write("d.csv", "y,logreg\n1.0,1\n0.0,2\n"), label="y", positive="1")
    assert 'did you mean "1.0"?' in problem.expected


def test_only_one_class(write):
    problem = one_problem(write("d.csv", "label,logreg\nM,1\nM,2\nM,3\n"))
    assert (
        str(problem)
        == 'd.csv: label: only one class present: 3 rows are all "M"; a cost curve needs '
        "both classes"
    )


def test_empty_label_cell(write):
    problem = one_problem(write("d.csv", "label,logreg\nM,1\n,2\nR,3\n"))
    assert (problem.line, problem.row, problem.expected) == (
        3,
        2,
        "empty cell; expected a class value",
    )


# --- scores, predictions, costs, folds -----------------------------------------------------------


def test_bad_scores_name_row_column_and_value(write):
    path = write("data/s.csv", "label,logreg\nM,0.5\nR,abc\nM,nan\nR,\nM,-inf\nR,1e999\n")
    problems = problems_loading(path)
    assert [str(p) for p in problems] == [
        'data/s.csv:3: row 2: logreg: expected a number, got "abc"',
        'data/s.csv:4: row 3: logreg: expected a finite number, got "nan"',
        "data/s.csv:5: row 4: logreg: empty cell; expected a number",
        'data/s.csv:6: row 5: logreg: expected a finite number, got "-inf"',
        'data/s.csv:7: row 6: logreg: expected a finite number, got "1e999"',
    ]


def test_bad_predictions(write):
    problems = problems_loading(
        write("d.csv", "label,tree_crisp\nM,M\nR,yes\nM,\nR,R\n"), classifiers=[CRISP]
    )
    assert [(p.field, p.row) for p in problems] == [("tree_crisp", 2), ("tree_crisp", 3)]
    assert (
        problems[0].expected == 'expected "M" or "R" (the classes of the label column), got "yes"'
    )
    assert problems[1].expected.startswith("empty cell; expected")


def test_bad_costs(write):
    problems = problems_loading(
        write("d.csv", "label,c\nM,1\nR,-2\nM,x\nR,inf\n"), classifiers=[], costs="c"
    )
    assert [(p.row, p.expected) for p in problems] == [
        (3, 'expected a number, got "x"'),
        (4, 'expected a finite number, got "inf"'),
        (2, "expected a cost >= 0, got -2.0"),
    ]


def test_empty_fold(write):
    problem = one_problem(write("d.csv", "label,f,logreg\nM,1,1\nR,,2\n"), fold="f")
    assert (problem.field, problem.row, problem.expected) == (
        "f",
        2,
        "empty cell; expected the row's fold",
    )


def test_at_most_five_problems_per_column_then_a_count(write, monkeypatch):
    monkeypatch.setattr(data_table, "CHUNK_ROWS", 7)
    body = "".join(f"{'MR'[i % 2]},bad{i}\n" for i in range(42))
    problems = problems_loading(write("d.csv", "label,logreg\n" + body))
    assert [p.row for p in problems[:5]] == [1, 2, 3, 4, 5]
    assert (problems[5].field, problems[5].expected, problems[5].line) == (
        "logreg",
        "and 37 more rows with problems in this column",
        None,
    )
    assert len(problems) == 6


def test_every_column_reported_at_once(write):
    text = "label,fold,Amount,logreg,tree_crisp\nM,1,1,x,M\nR,,2,0.5,R\nM,1,-1,0.5,Q\nR,1,1,1\n"
    problems = problems_loading(write("d.csv", text), fold="fold", costs="Amount")
    assert [(p.field, p.row) for p in problems] == [
        ("fields", 4),
        ("fold", 2),
        ("Amount", 3),
        ("logreg", 1),
        ("tree_crisp", 3),
    ]


def test_line_follows_quoted_line_breaks(write):
    text = 'label,note,logreg\nM,"two\nlines",1\nR,x,oops\nM,"three\nlines\nhere",2\nR,y,bad\n'
    problems = problems_loading(write("d.csv", text), classifiers=[SCORES])
    assert [(p.row, p.line) for p in problems] == [(2, 4), (4, 8)]


# --- the whole project ---------------------------------------------------------------------------

MANIFEST = """\
[project]
title = "t"
[[datasets]]
name = "a"
path = "a.csv"
label = "y"
positive = "1"
[[datasets]]
name = "b"
path = "b.csv"
label = "y"
positive = "1"
[[classifiers]]
name = "first"
scores = "s1"
[[classifiers]]
name = "second"
scores = "s2"
[[classifiers]]
name = "nowhere"
predictions = "p"
"""


def test_project_data_uses_each_column_where_it_is(write, project_dir):
    write("a.csv", "y,s1\n1,0.5\n0,0.2\n")
    write("b.csv", "y,s2,p\n1,0.5,1\n0,0.2,1\n")
    write("ccreport.toml", MANIFEST)
    a, b = load_project_data(load_project(project_dir))
    assert (a.name, list(a.scores), a.predictions) == ("a", ["first"], {})
    assert (b.name, list(b.scores), list(b.predictions)) == ("b", ["second"], ["nowhere"])


def test_project_data_reports_every_file_and_unused_columns(write, project_dir):
    write("a.csv", "y,s1\n1,x\n0,0.2\n")
    write("b.csv", "y,s1\n1,0.5\n1,0.2\n")
    write("ccreport.toml", MANIFEST)
    with pytest.raises(UserInputError) as caught:
        load_project_data(load_project(project_dir))
    messages = [str(p) for p in caught.value.problems]
    assert messages[:2] == [
        'a.csv:2: row 1: s1: expected a number, got "x"',
        'b.csv: y: only one class present: 2 rows are all "1"; a cost curve needs both classes',
    ]
    assert messages[2].startswith(
        'ccreport.toml:16: classifiers[2] (second).scores: column "s2" is in none of the data '
        "files (a.csv, b.csv)"
    )
    assert messages[3].startswith(
        'ccreport.toml:19: classifiers[3] (nowhere).predictions: column "p"'
    )
    assert len(messages) == 4


@pytest.mark.slow
def test_a_million_rows(write, tmp_path):
    n = 1_000_000
    rng = np.random.default_rng(0)
    labels = rng.random(n) < 0.3
    scores = np.round(rng.normal(labels.astype(float), 1.0), 6)
    lines = [
        f"{'pos' if y else 'neg'},{s!r},{i % 10}"
        for i, (y, s) in enumerate(zip(labels.tolist(), scores.tolist()))
    ]
    lines[-1] = "neg,oops,1"
    path = write("big.csv", "label,logreg,fold\n" + "\n".join(lines) + "\n")
    with pytest.raises(UserInputError) as caught:
        load_dataset(spec(path, positive="pos", fold="fold"), [SCORES])
    assert [(p.row, p.line) for p in caught.value.problems] == [(n, n + 1)]
    lines[-1] = "neg,0.5,1"
    path.write_text("label,logreg,fold\n" + "\n".join(lines) + "\n")
    data = load_dataset(spec(path, positive="pos", fold="fold"), [SCORES])
    assert (
        data.n_pos == labels.sum() and data.scores["logreg"][:-1].tolist() == scores[:-1].tolist()
    )
    assert data.fold_names == tuple(str(k) for k in range(10))
