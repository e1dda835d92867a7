"""One report, one story (issue 32, points 2, 3, 4 and 6): the example's pages and PDF text, and its
results.json, read as a reader reads them.

* one quantity, one interval: no number shown with two intervals on any page or in the PDF text
  (:mod:`report_scan`), and results.json's two keys of one quantity hold one interval;
* every star justified by the family-wise result it claims;
* warnings travel with the numbers whose intervals under-cover;
* bounded quantities, bounded intervals.
"""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

import report_scan
from site_fixtures import example_build, example_results


@pytest.fixture(scope="module")
def site():
    return example_build()


@pytest.fixture(scope="module")
def results_json(site):
    return json.loads((site / "results.json").read_text(encoding="utf-8"))


def _names(results_json):
    datasets = list(results_json["datasets"])
    classifiers = sorted({c for d in results_json["datasets"].values() for c in d["classifiers"]})
    return datasets, classifiers, list(results_json["priors"])


# --- 2. one quantity, one interval --------------------------------------------------------------------


def test_no_quantity_shown_with_two_intervals(site, results_json):
    """Every number printed with an interval, on every HTML page and in report.pdf's text, is printed
    with one interval (on 8e32f04: logreg's 0.1467 with [0.1381, 0.1875] in the uncertainty table and
    [0.1188, 0.1612] as its "Optimal" threshold-choice area, and 9 more)."""
    datasets, classifiers, priors = _names(results_json)
    html = report_scan.html_occurrences(site, datasets, classifiers, priors)
    pdf = report_scan.pdf_occurrences(site / "report.pdf", datasets, classifiers, priors, html)
    assert len(html) > 300 and len(pdf) > 300  # the scan reads the tables, not nothing
    clashes = report_scan.conflicts(html + pdf)
    assert not clashes, "\n".join(report_scan.describe(g) for g in clashes)


def test_scan_finds_a_number_with_two_intervals(tmp_path):
    """The scanner itself: one number with two intervals in two tables is found; two columns of one
    row, or one number under two priors, are two quantities."""
    page = tmp_path / "dataset-d.html"
    page.write_text(
        "<table id='t1'><tr><th>Classifier</th><th>E[cost] uniform</th></tr>"
        "<tr><td>a</td><td>0.1467 [0.1381, 0.1875]</td></tr></table>"
        "<table id='t2'><tr><th>Classifier</th><th>Optimal</th><th>Skull</th></tr>"
        "<tr><td>a</td><td>0.1467 [0.1188, 0.1612]</td><td>0.1500 [0.1400, 0.1600]</td></tr>"
        "<tr><td>b</td><td>0.1500 [0.1400, 0.1700]</td><td>0.1500 [0.1400, 0.1600]</td></tr></table>"
        "<p>Quote: b under uniform, expected cost 0.2000, 90% interval [0.1000, 0.3000].</p>"
        "<p>Quote: b under beta, expected cost 0.2000, 90% interval [0.1500, 0.2500].</p>",
        encoding="utf-8")
    found = report_scan.html_occurrences(tmp_path, ["d"], ["a", "b"], ["uniform", "beta"])
    clashes = report_scan.conflicts(found)
    assert [(g[0].entity, g[0].value) for g in clashes] == [(("a",), "0.1467")]
    assert {o.interval for o in clashes[0]} == {("0.1381", "0.1875"), ("0.1188", "0.1612")}


def test_optimal_area_holds_the_expected_cost_interval(results_json):
    """results.json: the optimal threshold-choice area on the PC(+) axis is the uniform prior's expected
    cost (one integral), so it holds the same interval and names where that interval is."""
    checked = 0
    for d in results_json["datasets"].values():
        for name, c in d["classifiers"].items():
            optimal = (c.get("threshold_choice") or {}).get("pc", {}).get("optimal")
            if optimal is None or "uniform" not in c["expected_cost"]:
                continue
            assert optimal["area"] == pytest.approx(c["expected_cost"]["uniform"], abs=1e-9)
            assert optimal["interval_source"] == "expected_cost_interval.uniform"
            assert optimal["interval"] == c["expected_cost_interval"]["uniform"]
            checked += 1
    assert checked == 10


def test_crisp_optimal_is_its_expected_cost(site, results_json):
    """A crisp classifier's "Optimal" threshold-choice area is its lower envelope's, the number the
    summary shows (on 8e32f04 tree_crisp's single cost line, 0.2937 against 0.2064 elsewhere)."""
    for dname, d in results_json["datasets"].items():
        rows = {r["Classifier"]: r for r in csv.DictReader(
            (site / "tables" / f"dataset-{dname}-threshold-choice-pc.csv").open(encoding="utf-8"))}
        for name, c in d["classifiers"].items():
            assert float(rows[name]["Optimal"]) == pytest.approx(c["expected_cost"]["uniform"], abs=1e-12), (dname, name)
