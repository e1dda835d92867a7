"""Issue 11 wiring: selection tasks against the analysis module, the decision box against
results.json, its sections, and determinism across worker counts."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from site_fixtures import write_tiny_project

from ccreport.analysis import selection as sel
from ccreport.analysis.roc import roc_points
from ccreport.commands.build import compute_results
from ccreport.project.loaders import load_project_data
from ccreport.project.manifest import load_project
from ccreport.project.project_files import read_project_files
from ccreport.render.sections import decisions as sections
from ccreport.results import results_to_json
from ccreport.tasks.executors import ProcessPoolExecutor, SerialExecutor

EXTRA = """
[[priors]]
name = "sceptic"
distribution = "beta"
a = 2
b = 8

[[priors]]
name = "loan"
distribution = "point"
cost_fn = 5
cost_fp = 1
unit = "EUR"
datasets = ["tiny"]

[[priors]]
name = "even"
distribution = "point"
pc = 0.5

[[criteria]]
name = "np"
kind = "neyman_pearson"
max_fpr = 0.1

[[criteria]]
name = "desk"
kind = "workforce"
capacity = 12

[[criteria]]
name = "share"
kind = "workforce"
capacity_share = 0.25

[[criteria]]
name = "pi"
kind = "performance_independent"
rule = "score_driven"
"""


def build(tmp_path, executor=None, folds=3, name="p"):
    root = write_tiny_project(tmp_path / name, folds=folds, extra_priors=EXTRA)
    project = load_project(root)
    data = load_project_data(project)
    results = compute_results(project, data, read_project_files(project, data), executor)
    return project, data, results


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build(tmp_path_factory.mktemp("dec"))


def test_selection_task_equals_the_analysis_module(built):
    project, (data,), results = built
    d = results.datasets["tiny"]
    criteria = {
        "np": sel.NeymanPearson(0.1),
        "desk": sel.Workforce(capacity=12),
        "share": sel.Workforce(capacity_share=0.25),
    }
    for name in ("good", "weak"):
        direct = sel.select_scores(
            data.labels, data.scores[name], criteria, folds=data.folds, name=name
        )
        c = d.classifiers[name]
        out = c.to_dict()
        assert len(out["thresholds"]) == len(out["roc_points"])
        np.testing.assert_array_equal(
            c.selection.thresholds, roc_points(data.labels, data.scores[name]).thresholds
        )
        for key in criteria:
            assert c.selection.criteria[key].to_dict() == direct.criteria[key].to_dict()
        assert c.selection.out_of_fold.to_dict() == direct.out_of_fold.to_dict()
    # weak's scores are not probabilities: the rule is recorded as not applicable
    assert "not_applicable" in d.classifiers["weak"].to_dict()["criteria"]["pi"]
    rule = d.classifiers["rule"].selection.criteria["pi"]  # crisp 0/1 predictions: the rule applies
    assert rule.area == pytest.approx(
        sel.performance_independent(
            roc_points(data.labels, data.predictions["rule"].astype(float)), "score_driven"
        ).area
    )
    rocs = {n: roc_points(data.labels, data.scores[n]) for n in ("good", "weak")}
    rocs["rule"] = roc_points(data.labels, data.predictions["rule"].astype(float))
    direct = sel.select_dataset(
        rocs,
        data.labels,
        {n: data.scores.get(n, data.predictions.get(n)).astype(float) for n in rocs},
        data.folds,
    )
    assert d.hybrid.hybrid.to_dict() == direct.hybrid.to_dict()
    assert d.hybrid.out_of_fold.area == direct.out_of_fold.area


def test_decision_box_agrees_with_results_json(built):
    _, (data,), results = built
    j = json.loads(results_to_json(results))["datasets"]["tiny"]
    d = results.datasets["tiny"]
    box = j["decisions"]
    assert set(box["priors"]) == {"loan", "even"} and set(box["criteria"]) == {
        "np",
        "desk",
        "share",
        "pi",
    }
    for prior, row in box["priors"].items():
        c = j["classifiers"][row["classifier"]]
        # the cheapest classifier under the prior, with its own expected cost and interval
        assert row["expected_cost"] == min(
            x["expected_cost"][prior] for x in j["classifiers"].values()
        )
        assert row["expected_cost"] == c["expected_cost"][prior]
        assert row["expected_cost_interval"] == c["expected_cost_interval"][prior]
        # the threshold is one of the classifier's, and its ROC point is the stated rates
        k = c["thresholds"].index(row["threshold"])
        assert c["roc_points"][k] == pytest.approx([row["fpr"], row["tpr"]])
        assert row["threshold_interval"] == [c["thresholds"][k + 1], row["threshold"]]
        lo, hi = row["pc_interval"]
        assert lo <= row["pc"] <= hi
        # the runner-up's paired test is the pair comparison's, oriented chosen minus runner-up
        r = row["runner_up"]
        key = f"{row['classifier']} vs {r['classifier']}"
        m = (
            j["comparisons"].get(key)
            or j["comparisons"][f"{r['classifier']} vs {row['classifier']}"]
        )
        sign = 1 if key in j["comparisons"] else -1
        assert r["difference"] == sign * m["expected_cost_difference"][prior]
        assert r["p_value"] == m["expected_cost_difference_interval"][prior]["p_value"]
        # the verdict follows the adjusted p-value (p_holm) (issue 10)
        assert r["p_holm"] == m["expected_cost_difference_interval"][prior]["p_holm"]
        assert r["significant"] == (r["p_holm"] <= 1 - m["difference_band"]["level"] + 1e-12)
        assert r["difference"] == pytest.approx(row["expected_cost"] - r["expected_cost"])
    loan = box["priors"]["loan"]
    p = data.n_pos / (data.n_pos + data.n_neg)
    assert loan["pc"] == pytest.approx(p * 5 / (p * 5 + (1 - p)))
    assert loan["cost_per_case"]["value"] == pytest.approx(
        loan["expected_cost"] * (p * 5 + (1 - p) * 1)
    )
    assert loan["cost_per_case"]["unit"] == "EUR"
    np_row = box["criteria"]["np"]
    # every classifier ranked on one basis (the randomised optimum): the chosen is the best there
    assert np_row["compared_on"] == "randomised"
    best_tpr = max(x["criteria"]["np"]["tpr"] for x in j["classifiers"].values())
    assert (
        j["classifiers"][np_row["classifier"]]["criteria"]["np"]["tpr"] == best_tpr == np_row["tpr"]
    )
    assert [r["classifier"] for r in np_row["ranking"]][:2] == [
        np_row["classifier"],
        np_row["runner_up"]["classifier"],
    ]
    assert np_row["fpr"] <= 0.1 + 1e-12
    single = np_row["single_threshold"]
    assert single["tpr"] == max(
        x["criteria"]["np"]["deterministic"]["tpr"] for x in j["classifiers"].values()
    )
    desk = box["criteria"]["desk"]
    assert desk["flagged"] <= 12 + 1e-9 and desk["single_threshold"]["flagged"] <= 12 + 1e-9
    # the lines and the tables show the JSON's numbers, each number once: a line holds what to
    # deploy and one number, its table row the rest
    tables = sections.decision_tables(d, list(d.priors))
    lines = {x.head: x for x in tables["decisions"].sentences}
    loan_line = lines[f"Under loan (PC(+) = {loan['pc']:.3f})"]
    assert f"{loan['cost_per_case']['value']:,.3f} EUR per case" in loan_line.text
    assert sections.threshold_text(loan["threshold"]) in loan_line.text
    assert f"{loan['expected_cost']:.4f}" not in loan_line.text  # the table's, in units here
    assert f"{100 * loan['tpr']:.1f}%" not in loan_line.text and loan_line.table == "decisions"
    columns = tables["decisions"].columns
    first = dict(zip(columns, tables["decisions"].rows[list(box["priors"]).index("loan")]))
    assert first["Deploy"].text == loan["classifier"]
    assert first["E[cost]"].value == loan["expected_cost"]
    assert first[columns[10]].value == loan["cost_per_case"]["value"]
    assert first["TPR"].text == f"{100 * loan['tpr']:.1f}%"
    assert first["Same cases above"].text == f"{loan['threshold_interval'][0]:.6g}"
    assert first["Flagged"].text == f"{100 * loan['flagged_share']:.1f}%"
    assert first["Runner-up"].text == loan["runner_up"]["classifier"]
    assert first["Runner-up"].note.startswith(
        "significantly dearer" if loan["runner_up"]["significant"] else "tied"
    )
    crit = {x.head: x for x in tables["decision_criteria"].sentences}
    np_line = crit["np (Neyman-Pearson)"]
    assert np_line.text.startswith(f"{np_row['classifier']}, ")
    assert f"catches {100 * np_row['tpr']:.1f}%" in np_line.text
    assert np_row["runner_up"]["classifier"] not in np_line.text  # the table's
    columns = tables["decision_criteria"].columns
    rows = [dict(zip(columns, r)) for r in tables["decision_criteria"].rows]
    by_name = {r["Criterion"].value: r for r in rows}
    np_cells = by_name["np"]
    runner = np_cells["Runner-up"]
    assert runner.text == np_row["runner_up"]["classifier"]
    tpr, fpr = (100 * np_row["runner_up"][k] for k in ("tpr", "fpr"))
    assert runner.note == f"{tpr:.1f}%\u00a0/\u00a0{fpr:.1f}%"
    c = np_row["constraint"]
    lo, hi = c["in_sample"]["interval"]
    assert np_cells["Exact interval"].text.startswith(f"[{100 * lo:.1f}%,\u00a0{100 * hi:.1f}%]")
    assert np_cells["Held out"].text.startswith(f"{100 * c['held_out']['estimate']:.1f}%")
    # a randomised choice's best single threshold is a row of its own, not lost with the sentences
    for name, row in box["criteria"].items():
        if "mix" not in row:
            continue
        st = row["single_threshold"]
        alone = by_name[f"{name} (one threshold)"]
        assert alone["Deploy"].text == st["classifier"]
        assert alone["Threshold"].text == f"{st['threshold']:.6g}"
        assert alone["TPR"].text == f"{100 * st['tpr']:.1f}%"
        assert alone["FPR"].text == f"{100 * st['fpr']:.1f}%"
        s_in = st["constraint"]["in_sample"]
        assert alone["Count"].text == f"{s_in['count']:.0f}/{s_in['n']:.0f}"
        # its share flagged: (P TPR + N FPR) / (P + N), the workforce's own count when it has one
        if "flagged" in st:
            assert alone["Flagged"].text == f"{100 * st['flagged'] / (d.n_pos + d.n_neg):.1f}%"
        mixed_cells = by_name[name]["Threshold"]
        a, b = row["mix"]["thresholds"]
        shown = ["\u221e" if x is None else f"{x:.6g}" for x in (a, b)]
        assert mixed_cells.text == "\u00a0/\u00a0".join(shown)
        assert mixed_cells.note.startswith(f"{100 * row['mix']['weight_first']:.1f}%")
    csv_text = tables["decision_criteria"].to_csv()
    assert "np (one threshold)" in csv_text and tables["decision_criteria"].to_latex()
    # each cost belongs to the rates shown beside it (the deployed randomised optimum's)
    pcs = {n: r["pc"] for n, r in box["priors"].items()}
    mixed = 0
    for name in ("np", "desk"):
        row = box["criteria"][name]
        for p, v in row["at_priors"].items():
            assert v["expected_cost"] == pytest.approx(
                row["fpr"] * (1 - pcs[p]) + (1 - row["tpr"]) * pcs[p]
            )
            price = row["price"][p]
            assert price["constrained"] == pytest.approx(v["expected_cost"])
            assert price["unconstrained"] == pytest.approx(box["priors"][p]["expected_cost"])
            assert price["unconstrained"] <= price["constrained"] + 1e-12
            assert price["flag_nobody"] == pcs[p] and price["flag_everyone"] == pytest.approx(
                1 - pcs[p]
            )
        mixed += "mix" in row
        c = row["constraint"]
        assert (
            c["in_sample"]["interval"][0]
            <= c["in_sample"]["estimate"]
            <= c["in_sample"]["interval"][1]
        )
        assert "held_out" in c  # the fixture has folds
    assert mixed >= 1  # the fixture exercises a randomised optimum
    # the decision and the criteria's bootstrap (hybrid.criteria) choose the same classifier
    for name in ("np", "desk", "share"):
        assert box["criteria"][name]["classifier"] == j["hybrid"]["criteria"][name]["classifier"]
    prices = tables["decision_prices"]
    # the constraints' prices, then the cost of the threshold set from PC(+) at each point prior
    assert [r[0].text for r in prices.rows] == [
        "np",
        "np",
        "desk",
        "desk",
        "share",
        "share",
        "pi",
        "pi",
    ]
    assert (
        prices.rows[0][2].value
        == box["criteria"]["np"]["price"]["loan"]["cost_per_case"]["constrained"]
    )
    # the choice's interval in the row's unit: the criterion's bootstrap interval times the scale
    iv = d.hybrid_band.criterion_intervals("np", box["criteria"]["np"]["classifier"])["loan"]
    unit = box["criteria"]["np"]["price"]["loan"]["cost_per_case"]
    scale = unit["flag_nobody"] + unit["flag_everyone"]
    assert prices.rows[0][3].csv_value == (
        f"[{iv['lower'] * scale:.3f}, {iv['upper'] * scale:.3f}]"
    )
    pi = box["criteria"]["pi"]["at_priors"]["loan"]
    pi_row = next(r for r in prices.rows if r[0].text == "pi" and r[1].text.startswith("loan"))
    assert pi_row[2].value == pi["cost_per_case"]
    assert pi_row[4].value == box["priors"]["loan"]["cost_per_case"]["value"]
    assert 0 < box["priors"]["loan"]["flagged_share"] <= 1


def test_sections_render_their_tables(built):
    _, _, results = built
    d = results.datasets["tiny"]
    th = sections.threshold_tables(d, list(d.priors))
    assert set(th) == {"thresholds"}  # one table of the dataset, a classifier's rows together
    rows = th["thresholds"].rows
    assert [r[0].text for r in rows] == sorted(
        (r[0].text for r in rows), key=["good", "weak", "rule"].index
    )
    good = d.classifiers["good"].selection.table
    good_rows = [r for r in rows if r[0].text == "good"]
    assert len(good_rows) == good.threshold.size
    assert good_rows[0][1].text.startswith("above every score")
    st = sections.selection_tables(d, list(d.priors))
    assert st["criteria_by_classifier"].columns == ["Classifier", "np", "desk", "share", "pi"]
    oof = st["out_of_fold"].rows
    assert [r[0].text for r in oof] == ["good", "weak", "rule", "dataset hybrid (all classifiers)"]
    assert oof[0][3].value == pytest.approx(d.classifiers["good"].selection.out_of_fold.optimism)
    for t in list(th.values()) + list(st.values()):
        assert t.to_csv() and t.to_latex()


def test_without_folds_no_out_of_fold_and_without_criteria_only_priors(tmp_path):
    _, _, results = build(tmp_path, folds=None, name="nofold")
    j = json.loads(results_to_json(results))["datasets"]["tiny"]
    assert "out_of_fold" not in j["classifiers"]["good"] and "out_of_fold" not in j["hybrid"]
    assert j["hybrid"]["segments"][0]["low"] == 0.0 and j["hybrid"]["segments"][-1]["high"] == 1.0


def test_same_bytes_with_one_or_two_workers(tmp_path):
    _, _, serial = build(tmp_path, SerialExecutor(), name="a")
    _, _, pooled = build(tmp_path, ProcessPoolExecutor(2), name="b")
    blank = dict(versions={}, generator="x")
    assert results_to_json(dataclasses.replace(serial, **blank)) == results_to_json(
        dataclasses.replace(pooled, **blank)
    )
