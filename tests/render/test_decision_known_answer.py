"""A generated project whose right decisions are known by construction (issue 32, points 1 and 8).

50 positives, 50 negatives, three classifiers:

* ``coarse``: one score level above the rest, holding 23 positives and 1 negative (24 cases);
* ``graded``: 17 positives on top, then 3 negatives, then every other negative, then the other
  positives (a single threshold can take the 17 positives exactly);
* ``noise``: scores unrelated to the labels (a fixed permutation).

Workforce, W = 20 cases. ``coarse`` cannot flag its 24 top cases with one threshold, so its best
single threshold flags nobody (TPR 0); mixed at random (flag nobody w.p. 1/6, its top level
otherwise) it flags 20 cases in expectation and catches (20/24)(23/50) = 38.33% of positives.
``graded``'s best single threshold catches 17/50 = 34%; its randomised optimum mixes (0, 0.34)
with (1, 1) on its hull: 0.34 + (3/83) 0.66 = 36.39%. On the randomised basis the right answer is
``coarse`` with ``graded`` the runner-up; on the single-threshold basis, ``graded``. Ranking by one
classifier's single threshold and another's mix (8e32f04) picks ``graded``.

Neyman-Pearson, FPR <= 10%: ``coarse`` mixes (0.02, 0.46) and (1, 1) at FPR 0.1: TPR 0.46 +
(0.08/0.98) 0.54 = 50.41%; ``graded`` mixes (0, 0.34) and (1, 1): 40.6%. Right answer ``coarse``.

The built report (results.json, index.html and report.pdf's first two pages) must name them.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import numpy as np
import pytest

from ccreport.commands.build import build
from ccreport.render.decision_summary import few_scores_warning

pytestmark = pytest.mark.slow

MANIFEST = """
[project]
title = "Known decisions"
seed = 5
bootstrap = 500

[[datasets]]
name = "made"
path = "data.csv"
label = "y"
positive = "pos"

[[classifiers]]
name = "graded"
scores = "graded"

[[classifiers]]
name = "coarse"
scores = "coarse"

[[classifiers]]
name = "noise"
scores = "noise"

[[priors]]
name = "uniform"
distribution = "uniform"

[[priors]]
name = "desk-costs"
distribution = "point"
cost_fn = 4
cost_fp = 1
unit = "EUR"
datasets = ["made"]

[[criteria]]
name = "capacity-20"
kind = "workforce"
capacity = 20

[[criteria]]
name = "fpr-10pct"
kind = "neyman_pearson"
max_fpr = 0.1
"""


def write_project(root):
    root.mkdir(parents=True, exist_ok=True)
    y = np.array([1] * 50 + [0] * 50, bool)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    coarse = np.zeros(100)
    coarse[pos[:23]] = 1.0
    coarse[neg[:1]] = 1.0
    order = np.r_[pos[:17], neg[:3], neg[3:], pos[17:]]  # best first
    graded = np.empty(100)
    graded[order] = np.linspace(1.0, 0.01, 100)
    noise = np.random.default_rng(3).permutation(100) / 100.0
    rows = ["y,graded,coarse,noise"] + [
        f"{'pos' if y[i] else 'neg'},{graded[i]:.4f},{coarse[i]:.1f},{noise[i]:.2f}"
        for i in range(100)
    ]
    (root / "data.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (root / "ccreport.toml").write_text(MANIFEST, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp("known") / "project")
    out = root.parent / "site"
    results = build(root, out, pdf=True)
    return out, results


def test_results_name_the_known_decisions(built):
    built, _ = built
    box = json.loads((built / "results.json").read_text())["datasets"]["made"]["decisions"][
        "criteria"
    ]
    wf = box["capacity-20"]
    assert wf["compared_on"] == "randomised"
    assert wf["classifier"] == "coarse" and wf["runner_up"]["classifier"] == "graded"
    assert wf["tpr"] == pytest.approx(20 / 24 * 23 / 50) and wf["flagged"] == pytest.approx(20)
    assert wf["runner_up"]["tpr"] == pytest.approx(0.34 + 3 / 83 * 0.66)
    assert wf["mix"]["weight_first"] == pytest.approx(1 / 6) and wf["mix"]["thresholds"][0] is None
    assert wf["single_threshold"]["classifier"] == "graded" and wf["single_threshold"][
        "tpr"
    ] == pytest.approx(0.34)
    np_ = box["fpr-10pct"]
    assert np_["classifier"] == "coarse" and np_["runner_up"]["classifier"] == "graded"
    assert np_["tpr"] == pytest.approx(0.46 + 0.08 / 0.98 * 0.54) and np_["fpr"] == pytest.approx(
        0.1
    )
    assert [r["classifier"] for r in np_["ranking"]] == ["coarse", "graded", "noise"]


def test_report_opens_with_the_known_decisions(built):
    built, results = built
    html = (built / "index.html").read_text()
    block = html[
        html.index('class="decision-summary"') : html.index(
            "</section>", html.index('class="decision-summary"')
        )
    ]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", block))
    # one line per decision: what to deploy and the share of positives caught (20/24 of 23/50)
    assert re.search(
        r"capacity-20 \(workforce\): coarse, two thresholds mixed at random: catches 38\.3% of the "
        r"pos cases \( ?Table(&nbsp;| )\d+ ?\)\.",
        text,
    )
    assert re.search(r"fpr-10pct \(Neyman-Pearson\): coarse, .*catches 50\.4%", text)
    # every other number once, in the dataset's decision tables: the mix (flag nobody for 1/6 of
    # cases), the runner-up with its rates, the best single threshold in a row of its own
    page = (built / "dataset-made.html").read_text()
    table = page[page.index('id="table-dataset-made-criterion-decisions"') :]
    # (whitespace, no-break spaces too, as one space)
    table = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", table[: table.index("</table>")]))
    assert re.search(r"capacity-20 .*coarse \u221e / \S+ 16\.7% / 83\.3%", table)
    assert re.search(r"graded 36\.4% / ", table)
    assert re.search(r"capacity-20 one threshold graded \S+ 34\.0%", table)
    assert "36.4%" not in text  # the runner-up's rate: the table's, said once
    assert "desk-costs" in text and "EUR per case" in text
    # at desk-costs' PC(+) = 0.8 flagging everyone is cheapest: a trivial choice, its zero-width
    # interval explained
    assert re.search(
        r"Under desk-costs \(PC\(\+\) = 0\.800\): flag every case as pos \(a trivial classifier\)",
        text,
    )
    assert "zero width: flagging everyone costs exactly 1 \u2212 PC(+) on every resample" in page
    # the summary's warning is the band's own (none: the studentized bands keep their level with 2
    # scores)
    d = results.datasets["made"]
    for name, c in d.classifiers.items():
        expected = (
            f"Caution, {name}: {c.band.coverage_warning}"
            if c.band is not None and c.band.coverage_warning
            else ""
        )
        assert few_scores_warning(d, name) == expected
    assert html.index('class="decision-summary"') < html.index('id="index-findings"')
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    first = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "2", str(built / "report.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    first = re.sub(r"\s+", " ", first)
    assert "The decision" in first
    assert re.search(r"capacity-20 \(workforce\): coarse, two thresholds mixed at random", first)
    assert re.search(r"fpr-10pct \(Neyman-Pearson\): coarse,", first)
