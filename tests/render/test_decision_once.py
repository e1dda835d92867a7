"""Issue 36: the decision says each fact once.

The front page reads out each decision in one line (what to deploy and one number); every other
number of it is in one cell of the decision tables, and each method is explained once per table
note. On the example's report.pdf: a constrained rate's exact interval and its held-out interval
are printed once each; Clopper-Pearson is explained once per dataset with constraints in the body;
the best single threshold of a randomised choice (only ever read out in words before) is a row of
the criteria table, in its CSV and LaTeX too.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
from collections import Counter

import pypdf
import pytest
from site_fixtures import example_build

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built():
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    out = example_build()
    reader = pypdf.PdfReader(out / "report.pdf")
    appendix = min(
        reader.get_destination_page_number(x)
        for x in reader.outline
        if not isinstance(x, list) and x.title.startswith("Appendix")
    )
    pages = []
    for k in range(len(reader.pages)):
        text = subprocess.run(
            ["pdftotext", "-layout", "-f", str(k + 1), "-l", str(k + 1), out / "report.pdf", "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        pages.append(text)
    return out, json.loads((out / "results.json").read_text()), pages, appendix


def words(text: str) -> str:
    return " ".join(text.split())


def pct(iv) -> str:
    return rf"\[{100 * iv[0]:.1f}%,\s*{100 * iv[1]:.1f}%\]"


def test_each_constrained_interval_is_printed_once(built):
    """Once per table cell that holds it: a choice's in-sample and held-out intervals and its best
    single threshold's (two cells share one text when they flag as many cases)."""
    _, data, pages, _ = built
    text = words(" ".join(pages))
    cells = Counter()
    for d in data["datasets"].values():
        for row in d["decisions"]["criteria"].values():
            c = row.get("constraint") or {}
            shown = [c.get("in_sample"), c.get("held_out")]
            if "mix" in row:  # its best single threshold is a row of its own
                shown.append(
                    ((row.get("single_threshold") or {}).get("constraint") or {}).get("in_sample")
                )
            for x in shown:
                if x is not None:
                    cells[pct(x["interval"])] += 1
    assert sum(cells.values()) >= 6  # both datasets' two constrained criteria, three cells each
    for pattern, n in cells.items():
        assert len(re.findall(pattern, text)) == n, pattern


def test_the_method_is_explained_once_per_table_in_the_body(built):
    _, data, pages, appendix = built
    body = words(" ".join(pages[:appendix]))
    constrained = sum(
        any("constraint" in r for r in d["decisions"]["criteria"].values())
        for d in data["datasets"].values()
    )
    assert constrained == 2
    assert len(re.findall(r"Clopper-\s*Pearson", body)) == constrained
    assert len(re.findall(r"one-sided", body)) == constrained


def test_the_single_threshold_alternative_is_a_table_row(built):
    out, data, pages, _ = built
    lines = [words(line) for page in pages for line in page.splitlines()]
    seen = 0
    for name, d in data["datasets"].items():
        rows = list(
            csv.DictReader(
                io.StringIO(
                    (out / "tables" / f"dataset-{name}-criterion-decisions.csv").read_text()
                )
            )
        )
        tex = (out / "tables" / f"dataset-{name}-criterion-decisions.tex").read_text()
        by_name = {r["Criterion"]: r for r in rows}
        for criterion, row in d["decisions"]["criteria"].items():
            st = row.get("single_threshold")
            if "mix" not in row or not st:
                continue
            alone = by_name[f"{criterion} (one threshold)"]
            assert alone["Deploy"] == st["classifier"]
            assert alone["Threshold"] == f"{st['threshold']:.6g}"
            assert alone["TPR"] == f"{100 * st['tpr']:.1f}%"
            assert f"{st['threshold']:.6g}" in tex and f"{100 * st['tpr']:.1f}" in tex
            # in report.pdf: one line of the table, its note "one threshold" under it
            s_in = st["constraint"]["in_sample"]
            row_text = re.compile(
                rf"{criterion} {st['classifier']} {st['threshold']:.6g} {100 * st['tpr']:.1f}% "
                rf"{100 * st['fpr']:.1f}% \S+ {s_in['count']:.0f}/{s_in['n']:.0f} "
                + pct(s_in["interval"])
            )
            k = next(k for k, line in enumerate(lines) if row_text.match(line))
            assert lines[k + 1] == "one threshold", lines[k : k + 2]
            seen += 1
    assert seen >= 4


def test_the_front_page_line_is_short_and_names_its_table(built):
    _, data, pages, _ = built
    first = words(pages[0])
    for d in data["datasets"].values():
        for criterion, row in d["decisions"]["criteria"].items():
            if not row.get("classifier") or row["kind"] == "performance_independent":
                continue
            line = re.search(rf"{re.escape(criterion)} \([^)]*\): (.*?)\(Table (\d+)\)\.", first)
            assert line, criterion
            assert f"catches {100 * row['tpr']:.1f}%" in line.group(1)
            # the rates, the exact interval and the runner-up are the table's
            assert "%" not in line.group(1).replace(f"{100 * row['tpr']:.1f}%", "")
            assert row["runner_up"]["classifier"] not in line.group(1)
