"""Arrow's reading: the fast CSV path gives exactly what the line-by-line reader gives, and Parquet
input."""

import math

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ccreport.errors import UserInputError
from ccreport.project import columnar, loaders
from ccreport.project.loaders import load_dataset, read_dataset
from ccreport.project.manifest import ClassifierSpec, DatasetSpec

SCORES = ClassifierSpec("logreg", scores="logreg")
CRISP = ClassifierSpec("tree", predictions="tree_crisp")


def spec(path, **keys) -> DatasetSpec:
    defaults = {"name": "sonar", "label": "label", "positive": "M"}
    return DatasetSpec(path=path.resolve(), **{**defaults, **keys})


def outcome(loaded) -> tuple:
    """Everything a reading gives, comparable with ==."""
    problems = [str(problem) for problem in loaded.problems]
    data = loaded.dataset
    if data is None:
        return (problems, loaded.header)
    arrays = {
        "labels": data.labels.tolist(),
        "scores": {k: v.tolist() for k, v in data.scores.items()},
        "predictions": {k: v.tolist() for k, v in data.predictions.items()},
        "folds": None if data.folds is None else data.folds.tolist(),
        "costs": None if data.costs is None else data.costs.tolist(),
    }
    return (
        problems,
        loaded.header,
        data.sha256,
        data.positive_label,
        data.negative_label,
        data.fold_names,
        arrays,
    )


@pytest.fixture(autouse=True)
def arrow_for_every_size(monkeypatch):
    """Arrow reads these small files too (the build leaves files under ARROW_MIN_BYTES to the line
    reader), so the differential tests below compare the two readers."""
    monkeypatch.setattr(loaders, "ARROW_MIN_BYTES", 0)


def slow_outcome(monkeypatch, dataset_spec, classifiers):
    with monkeypatch.context() as patched:
        patched.setattr(loaders, "read_csv_fast", lambda *args: None)
        return outcome(read_dataset(dataset_spec, classifiers, "data.csv"))


# --- the fast CSV path ---------------------------------------------------------------------------

GOOD = """\
"label","fold","Amount","logreg","tree_crisp"
"M",1,10,0.9,"M"
R,2,20.5,0.2,R
M,10,5,0.6,R
R,1,0,-1e3,M
R,2,1,.4,R
"""


def test_a_clean_file_is_read_by_arrow_and_gives_the_same_dataset(write, monkeypatch):
    path = write("data.csv", GOOD)
    keys = {"fold": "fold", "costs": "Amount"}
    fast = loaders.read_csv_fast(
        spec(path, **keys), [SCORES, CRISP], "data.csv", columnar.file_digest(path)[0]
    )
    assert fast is not None and not fast.problems  # Arrow read it
    assert outcome(read_dataset(spec(path, **keys), [SCORES, CRISP], "data.csv")) == slow_outcome(
        monkeypatch, spec(path, **keys), [SCORES, CRISP]
    )
    assert fast.dataset.scores["logreg"].tolist() == [0.9, 0.2, 0.6, -1000.0, 0.4]
    assert fast.dataset.fold_names == ("1", "2", "10")


@pytest.mark.parametrize(
    "text",
    [
        "label,logreg\nM,0.9\n\nR,0.1\nR,1_0\n",  # a blank line, then a spelling only Python reads
        # a line of spaces: blank for csv, a short row for Arrow
        "label,logreg\nM,0.9\n   \nR,0.1\n",
        'label,logreg\nM, "0.9"\nR,0.1\n',  # csv's skipinitialspace unquotes after a space
        'label,logreg\n "M",0.9\nR,0.1\nM,0.3\n',
        'label,logreg\nM,0.9\n "R",0.1\nM,0.3\n',  # Arrow would keep the quotes: a class '"R"'
        'label,logreg\n"M\n",0.9\nR,0.1\nM,nan\n',  # a quoted line break, then a problem below it
        'label,logreg,notes\nM,0.9,"a\nb"\nR,0.1,x\nR,abc,y\n',
        "label,logreg\nM,0.9,1\nR,0.1\n",  # a ragged row
        "\n\nlabel,logreg\nM,0.9\nR,\n",  # blank lines before the header, an empty cell
        "label,logreg\n",  # no data rows
        'la"bel,logreg\nM,0.9\nR,0.1\n',
    ],
)
def test_files_arrow_cannot_take_give_the_line_by_line_readers_result(write, monkeypatch, text):
    path = write("data.csv", text)
    assert outcome(read_dataset(spec(path), [SCORES], "data.csv")) == slow_outcome(
        monkeypatch, spec(path), [SCORES]
    )


def test_a_byte_that_is_not_utf8_in_an_unused_column_is_still_reported(write):
    path = write("data.csv", b"label,logreg,notes\nM,0.9,caf\xe9\nR,0.1,x\n")
    with pytest.raises(UserInputError) as caught:
        load_dataset(spec(path), [SCORES], "data.csv")
    assert [str(p) for p in caught.value.problems] == [
        "data.csv:2: encoding: expected UTF-8 text, got byte 0xe9; save the file as UTF-8"
    ]


# Spellings both readers take alike; then the traps (a quoted value after a space: csv unquotes
# it, Arrow does not; "1_0": Python reads it, Arrow does not) and cells that are wrong.
LABELS = ["M", "R", " M", "R ", '"M"']
NUMBERS = ["0.5", " .25", "-1e3", '"0.1"', "7"]
CRISP_CELLS = ["M", "R", " R", '"M"']
ODD = [' "R"', ' "M"', "1_0", "", "X", "nan", "inf", "abc", '"a\nb"', "١", '"M\n"']


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    data=st.data(),
    odd=st.sampled_from([0, 1, 4]),
    blank=st.sets(st.integers(0, 6), max_size=2),
    crlf=st.booleans(),
)
def test_fast_and_line_by_line_readers_agree_on_random_files(
    write, monkeypatch, data, odd, blank, crlf
):
    """Differential: whatever the cells, reading with the fast path allowed gives the same arrays
    and the same problems (file, line, row, column, words) as the line-by-line reader alone. In a
    third of the files every cell is one both readers take (so Arrow reads them), in the others
    some cells are odd (weight ``odd`` against 8 for each valid spelling)."""

    def cells(valid):
        return st.sampled_from(valid * 8 + ODD * odd)

    rows = data.draw(
        st.lists(st.tuples(cells(LABELS), cells(NUMBERS), cells(CRISP_CELLS)), max_size=6)
    )
    lines = ["label,logreg,tree_crisp"]
    for index, row in enumerate(rows):
        if index in blank:
            lines.append("")
        lines.append(",".join(row))
    newline = "\r\n" if crlf else "\n"
    path = write("data.csv", newline.join(lines) + newline)
    classifiers = [SCORES, CRISP]
    assert outcome(read_dataset(spec(path), classifiers, "data.csv")) == slow_outcome(
        monkeypatch, spec(path), classifiers
    )


@settings(max_examples=200, deadline=None)
@given(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["{!r}", "{:.17g}", "{:.3e}", "{:.6f}", " {!r} "]),
)
def test_arrow_reads_a_number_as_python_does(tmp_path_factory, value, spelling):
    text = spelling.format(value)
    path = tmp_path_factory.mktemp("n") / "n.csv"
    path.write_text(f"label,logreg\nM,{text}\nR,0\n")
    header = columnar.csv_header(path)
    n, columns = columnar.read_csv_columns(path, header, [1], [0])
    assert n == 2 and columns[1].to_numpy()[0] == float(text)


def test_csv_header_offset_skips_bom_and_blank_lines(write):
    path = write("data.csv", '\ufeff\n , \n"label", logreg \nM,1\n')
    header = columnar.csv_header(path)
    assert (header.names, header.line) == (["label", "logreg"], 3)
    assert path.read_bytes()[header.offset :] == b"M,1\n"
    assert (
        columnar.csv_header(write("q.csv", 'label,"log\nreg"\nM,1\n')) is None
    )  # a quoted line break: line-by-line


def test_file_digest_checks_utf8_across_blocks(write):
    split = "a" * ((1 << 20) - 1) + "é"  # the two bytes of é fall into two blocks
    digest, utf8 = columnar.file_digest(write("ok.csv", split))
    assert utf8 and digest == __import__("hashlib").sha256(split.encode()).hexdigest()
    assert not columnar.file_digest(write("bad.csv", b"a" * ((1 << 20) - 1) + b"\xc3"))[1]


# --- Parquet -------------------------------------------------------------------------------------


def parquet(write, name, columns: dict) -> "Path":  # noqa: F821
    path = write(name, b"")
    pq.write_table(pa.table(columns), path)
    return path


def test_parquet_gives_the_same_dataset_as_the_csv_with_the_same_cells(write):
    csv_path = write("data/d.csv", GOOD)
    table = pa.table(
        {
            "label": ["M", "R", "M", "R", "R"],
            "fold": [1, 2, 10, 1, 2],
            "Amount": [10, 20.5, 5, 0, 1],
            "logreg": np.array([0.9, 0.2, 0.6, -1e3, 0.4], dtype=np.float32).astype(np.float64),
            "tree_crisp": pa.array(["M", "R", "R", "M", "R"]).dictionary_encode(),
        }
    )
    table = table.set_column(3, "logreg", pa.array([0.9, 0.2, 0.6, -1e3, 0.4]))
    path = write("data/d.parquet", b"")
    pq.write_table(table, path)
    keys = {"fold": "fold", "costs": "Amount"}
    from_csv = outcome(read_dataset(spec(csv_path, **keys), [SCORES, CRISP], "x"))
    from_parquet = outcome(read_dataset(spec(path, **keys), [SCORES, CRISP], "x"))
    assert from_parquet[3:] == from_csv[3:] and from_parquet[:2] == from_csv[:2]
    assert from_parquet[2] == __import__("hashlib").sha256(path.read_bytes()).hexdigest()


def test_parquet_integer_labels_and_a_numeric_positive(write):
    path = parquet(write, "d.parquet", {"y": [1, 0, 0, 1], "logreg": [3, 1, 2, 4]})
    data = load_dataset(spec(path, label="y", positive="1"), [SCORES])
    assert data.labels.tolist() == [True, False, False, True] and data.scores[
        "logreg"
    ].tolist() == [3.0, 1.0, 2.0, 4.0]
    assert (data.positive_label, data.negative_label) == ("1", "0")


def parquet_problems(write, columns, classifiers=(SCORES,), **keys):
    path = parquet(write, "data/d.parquet", columns)
    with pytest.raises(UserInputError) as caught:
        load_dataset(spec(path, **keys), list(classifiers))
    return [str(problem) for problem in caught.value.problems]


def test_parquet_problems_name_file_row_column_and_what_was_expected(write):
    problems = parquet_problems(
        write,
        {
            "label": ["M", "R", None, "R", "Q"],
            "logreg": [0.5, math.nan, None, math.inf, 0.1],
            "tree_crisp": ["M", "R", "R", "x", "M"],
        },
        (SCORES, CRISP),
    )
    assert problems == [
        "data/d.parquet: row 3: label: empty cell; expected a class value",
        'data/d.parquet: row 5: label: expected "M" (positive) or "R" (negative), got "Q": a '
        "cost curve needs exactly two classes",
        'data/d.parquet: row 2: logreg: expected a finite number, got "nan"',
        "data/d.parquet: row 3: logreg: empty cell; expected a number",
        'data/d.parquet: row 4: logreg: expected a finite number, got "inf"',
        'data/d.parquet: row 4: tree_crisp: expected one of "M", "R", "Q" (the values of the '
        'label column), got "x"',
    ]


def test_parquet_text_scores_are_read_as_csv_cells_are(write):
    problems = parquet_problems(
        write, {"label": ["M", "R", "R"], "logreg": ["0.5", " 1e-3", "abc"]}
    )
    assert problems == ['data/d.parquet: row 3: logreg: expected a number, got "abc"']


def test_parquet_column_of_another_type_missing_column_no_rows_and_unreadable_file(
    write, project_dir
):
    assert parquet_problems(write, {"label": ["M", "R"], "logreg": [True, False]}) == [
        "data/d.parquet: logreg: expected a column of numbers, got Parquet type bool"
    ]
    assert parquet_problems(write, {"label": ["M", "R"], "logreg": [0.1, 0.2]}, label="Label") == [
        'data/d.parquet: Label: column not found (the label of dataset "sonar"); did you mean '
        '"label"?'
    ]
    empty = {"label": pa.array([], pa.string()), "logreg": pa.array([], pa.float64())}
    assert parquet_problems(write, empty) == ["data/d.parquet: rows: no data rows"]
    path = write("data/bad.parquet", b"not parquet at all")
    with pytest.raises(UserInputError) as caught:
        load_dataset(spec(path), [SCORES])
    (problem,) = caught.value.problems
    assert str(problem).startswith("data/bad.parquet: Parquet: unreadable: ") and "\n" not in str(
        problem
    )


# --- which reader a file gets --------------------------------------------------------------------


def test_a_file_under_the_threshold_is_read_line_by_line(write, monkeypatch):
    path = write("data.csv", GOOD)
    monkeypatch.setattr(loaders, "ARROW_MIN_BYTES", path.stat().st_size + 1)
    calls = []
    monkeypatch.setattr(loaders, "read_csv_fast", lambda *args: calls.append(args))
    loaded = read_dataset(spec(path, fold="fold", costs="Amount"), [SCORES, CRISP], "data.csv")
    assert not calls and loaded.dataset.scores["logreg"].tolist() == [0.9, 0.2, 0.6, -1000.0, 0.4]
    monkeypatch.setattr(loaders, "ARROW_MIN_BYTES", path.stat().st_size)
    read_dataset(spec(path, fold="fold", costs="Amount"), [SCORES, CRISP], "data.csv")
    assert len(calls) == 1  # at the threshold Arrow is asked


def test_loading_the_example_imports_neither_pyarrow_nor_pandas():
    """The example's CSV files are small: its build pays for neither import (0.25 CPU s)."""
    import subprocess
    import sys
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "example_project"
    code = (
        "import sys\n"
        "from ccreport.project.manifest import load_project\n"
        "from ccreport.project.loaders import load_project_data\n"
        f"data = load_project_data(load_project({str(example)!r}))\n"
        "assert len(data) == 2, data\n"
        "print(sorted(m for m in ('pyarrow', 'pandas') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
