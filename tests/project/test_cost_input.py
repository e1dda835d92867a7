"""The ``costs`` key of a dataset: the short and full (cost-benefit matrix) forms, read and checked.

Fawcett 2006, section 3: positives cost ``fn + tp``, negatives ``fp + tn``; every bad cell is named
by file, row and column, all at once, and the command exits 2.
"""

import numpy as np
import pytest

from ccreport.cli import main
from ccreport.errors import UserInputError
from ccreport.project.loaders import load_dataset, load_project_data
from ccreport.project.manifest import CostSpec, DatasetSpec, load_project

HEAD = """\
[project]
title = "t"
[[datasets]]
name = "credit"
path = "d.csv"
label = "y"
positive = "bad"
"""
TAIL = """
[[classifiers]]
name = "c"
scores = "s"
"""
DATA = "y,s,Amount,Fee\nbad,0.9,1000,5\ngood,0.8,2000,5\nbad,0.3,500,5\ngood,0.1,4000,5\n"


@pytest.fixture
def project(write):
    """``project(costs_line, data=DATA)``: write a manifest with that costs line and its data
    file."""

    def make(costs_line: str, data: str = DATA):
        write("d.csv", data)
        return write("ccreport.toml", HEAD + costs_line + "\n" + TAIL)

    return make


def manifest_problems(path) -> list[str]:
    with pytest.raises(UserInputError) as caught:
        load_project(path)
    return [str(p) for p in caught.value.problems]


def data_problems(path) -> list[str]:
    with pytest.raises(UserInputError) as caught:
        load_project_data(load_project(path))
    return [str(p) for p in caught.value.problems]


# --- the manifest ---------------------------------------------------------------------------------


def test_short_form_keeps_its_meaning(project):
    (spec,) = load_project(project('costs = "Amount"')).datasets
    assert spec.costs == CostSpec(fn="Amount", fp="Amount") == CostSpec.of("Amount")
    assert spec.costs.columns == ("Amount",) and spec.costs.unit is None


def test_full_form_cells_are_columns_or_numbers(project):
    (spec,) = load_project(
        project('costs = { fn = "Amount", fp = 20, tn = "Fee", unit = "EUR" }')
    ).datasets
    assert spec.costs == CostSpec(fn="Amount", fp=20.0, tp=0.0, tn="Fee", unit="EUR")
    assert spec.costs.columns == ("Amount", "Fee")
    assert isinstance(spec.costs.fp, float)


def test_full_form_table_syntax(project):
    text = '[datasets.costs]\nfn = "Amount"\nfp = 20\nunit = "DM"'
    (spec,) = load_project(project(text)).datasets
    assert spec.costs == CostSpec(fn="Amount", fp=20.0, unit="DM")


def test_manifest_cost_mistakes_are_all_reported(project):
    problems = manifest_problems(project("costs = { fn = true, fp = 0, tq = 1, unit = 3 }"))
    assert problems == [
        "ccreport.toml:8: datasets[1] (credit).costs.tq: unknown key 'tq'; expected one of "
        "fn, fp, tp, tn, unit",
        "ccreport.toml:8: datasets[1] (credit).costs.fn: expected a column name or a finite "
        "number, got true",
        "ccreport.toml:8: datasets[1] (credit).costs.unit: expected a label for the unit of "
        'the costs, such as "EUR", got 3',
        "ccreport.toml:8: datasets[1] (credit).costs.fp: expected fp + tn > 0 (the negatives' "
        "cost in every row), got 0.0",
    ]


def test_each_class_needs_a_cost(project):
    (problem,) = manifest_problems(project('costs = { fn = "Amount", unit = "EUR" }'))
    assert (
        problem == "ccreport.toml:8: datasets[1] (credit).costs: expected fp (or the benefit tn), "
        "the negatives' cost; got neither"
    )
    (problem,) = manifest_problems(project("costs = 3"))
    assert (
        "costs: expected a column name, or a table of cells fn, fp, tp, tn" in problem
        and problem.endswith("got 3")
    )


def test_fixed_cells_of_one_class_must_sum_above_zero(project):
    (problem,) = manifest_problems(project('costs = { fn = 5, tp = -5, fp = "Amount" }'))
    assert problem.endswith(
        "costs.fn: expected fn + tp > 0 (the positives' cost in every row), got 0.0"
    )


# --- the data -------------------------------------------------------------------------------------


def test_transform_per_class(project):
    (data,) = load_project_data(
        load_project(project('costs = { fn = "Amount", fp = 20, tp = "Fee" }'))
    )
    # positives (bad): Amount + Fee; negatives (good): 20
    assert data.costs.tolist() == [1005, 20, 505, 20]


def test_short_form_data_unchanged(project):
    (data,) = load_project_data(load_project(project('costs = "Amount"')))
    assert data.costs.dtype == np.float64 and data.costs.tolist() == [1000, 2000, 500, 4000]


def test_a_bare_column_name_is_accepted_by_the_loader(write):
    path = write("d.csv", DATA)
    spec = DatasetSpec(name="credit", path=path.resolve(), label="y", positive="bad", costs="Fee")
    assert load_dataset(spec, []).costs.tolist() == [5, 5, 5, 5]


def test_bad_cells_are_named_by_file_row_and_column_all_at_once(project):
    data = (
        "y,s,Amount,Fee\nbad,0.9,1000,x\ngood,0.8,,5\nbad,0.3,nan,5\ngood,0.1,4000,-30\n"
        "bad,0.2,10,-20\n"
    )
    problems = data_problems(
        project('costs = { fn = "Amount", tp = "Fee", fp = 20, tn = "Fee" }', data)
    )
    assert problems == [
        "d.csv:3: row 2: Amount: empty cell; expected a number",
        'd.csv:4: row 3: Amount: expected a finite number, got "nan"',
        "d.csv:6: row 5: Amount: expected fn + tp >= 0 after the cost-benefit transform, got "
        "-10.0 (fn = 10.0, tp = -20.0)",
        'd.csv:2: row 1: Fee: expected a number, got "x"',
        "d.csv:5: row 4: Fee: expected fp + tn >= 0 after the cost-benefit transform, got "
        "-10.0 (fp = 20.0, tn = -30.0)",
    ]


def test_short_form_negative_cost_message(project):
    data = "y,s,Amount\nbad,0.9,1000\ngood,0.8,-5\n"
    (problem,) = data_problems(project('costs = "Amount"', data))
    assert problem == "d.csv:3: row 2: Amount: expected a cost >= 0, got -5.0"


def test_a_class_whose_costs_are_all_zero(project):
    data = "y,s,Amount\nbad,0.9,0\ngood,0.8,5\nbad,0.1,0\n"
    (problem,) = data_problems(project('costs = { fn = "Amount", fp = 1 }', data))
    assert problem.startswith(
        "d.csv: Amount: every positive row costs 0 (fn + tp); expected a total > 0 in each class"
    )


def test_missing_cost_column(project):
    (problem,) = data_problems(project('costs = { fn = "Amout", fp = 1 }'))
    assert (
        problem == 'd.csv:1: Amout: column not found (the costs of dataset "credit"); did you mean '
        '"Amount"?'
    )


def test_cli_exits_2_with_one_line_per_problem(project, capsys):
    data = "y,s,Amount\nbad,0.9,-1\ngood,0.8,abc\n"
    manifest = project('costs = { fn = "Amount", fp = "Amount", unit = "EUR" }', data)
    assert main(["check", str(manifest)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [  # cells that are not numbers first, then the transform's results
        'd.csv:3: row 2: Amount: expected a number, got "abc"',
        "d.csv:2: row 1: Amount: expected a cost >= 0, got -1.0",
        "ccreport: 2 problems found; nothing was written",
    ]
