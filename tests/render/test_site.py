"""The static site as a whole: links, figures, numbers against results.json, escaping, themes,
overrides."""

from __future__ import annotations

import csv
import dataclasses
import json
import subprocess
import sys

import numpy as np
import pytest
from site_fixtures import (
    EXAMPLE,
    check_site,
    example_build,
    fake_figure_index,
    parse_page,
    synthetic_results,
    write_tiny_project,
)

from ccreport.commands.build import build
from ccreport.errors import UserInputError
from ccreport.render import tables as tb
from ccreport.render.markdown_text import render_markdown
from ccreport.render.site import render_site
from ccreport.results import (
    Band,
    CalibrationDescription,
    ExpectedCostDifferenceInterval,
    ExpectedCostInterval,
    SignificantRegion,
    results_to_json,
)


@pytest.fixture(scope="module")
def example_site():
    """The example project built, HTML and PDF (shared with test_pdf.py)."""
    out = example_build()
    return out, json.loads((out / "results.json").read_text())


def _summary_rows(page, dataset):
    rows = page.tables[f"table-dataset-{dataset}-summary"]
    header, body = rows[0], rows[1:]
    return header, {row[0]: dict(zip(header, row)) for row in body}


def test_every_page_and_link_resolves_and_nothing_is_outside(example_site):
    out, data = example_site
    pages = check_site(out)
    expected = {"index.html", "methods.html", "provenance.html"} | {
        f"dataset-{d}.html" for d in data["datasets"]
    }
    assert expected <= set(pages)
    assert "results.json" in pages["provenance.html"].links
    assert "report.pdf" in pages["index.html"].links


def test_every_figure_of_the_index_is_on_a_page_with_its_vector_pdf(example_site):
    out, data = example_site
    pages = {p.name: parse_page(p) for p in out.glob("*.html")}
    images = {link for page in pages.values() for link in page.links if link.endswith(".svg")}
    pdfs = {
        link
        for page in pages.values()
        for link in page.links
        if link.endswith(".pdf") and link != "report.pdf"
    }
    for d in data["datasets"]:
        page = pages[f"dataset-{d}.html"]
        assert any(f"{d}" in link and link.endswith(".svg") for link in page.links)
    assert images and pdfs
    assert len(pdfs) == len(images)  # every figure offers its publication-ready PDF


def test_tables_carry_the_numbers_of_results_json(example_site):
    out, data = example_site
    for name, d in data["datasets"].items():
        page = parse_page(out / f"dataset-{name}.html")
        header, rows = _summary_rows(page, name)
        assert list(rows) == list(d["classifiers"]) + [
            tb.TRIVIAL_NAME
        ]  # the baseline last (test_ranking.py)
        for cname, c in d["classifiers"].items():
            row = rows[cname]
            assert row["AUC"] == f"{c['auc']:.{tb.AUC_DIGITS}f}"
            lo, hi = c["operating_range"]
            assert row["Operating range"] == f"[{lo:.3f}, {hi:.3f}]"
            for prior, value in c["expected_cost"].items():
                assert row[f"E[cost] {prior}"].split()[0] == tb.cost(value)
        comparisons = page.tables[f"table-dataset-{name}-comparisons"]
        for row, m in zip(comparisons[1:], d["comparisons"].values()):
            assert [row[0], row[1]] == [m["a"], m["b"]]
            assert row[2] == (", ".join(tb.pc(x) for x in m["crossovers"]) or tb.DASH)
            assert row[5] == tb.pc(m["max_difference"]["pc"])
            assert row[6] == tb.cost(m["max_difference"]["a_minus_b"])

    index = parse_page(out / "index.html")
    cross = index.tables["table-index-expected-cost"]
    assert cross[0][-1] == tb.TRIVIAL_NAME
    names = cross[0][2:-1]
    for row in cross[1:]:
        dataset, prior, cells = row[0], row[1], row[2:-1]
        values = {
            n: data["datasets"][dataset]["classifiers"]
            .get(n, {})
            .get("expected_cost", {})
            .get(prior)
            for n in names
        }
        best = min(v for v in values.values() if v is not None)
        for n, cell in zip(names, cells):
            assert cell.split()[0] == tb.cost(values[n])
            # the cheapest is starred (a symbol, not colour alone) only when significantly cheaper
            # than the runner-up (issue 14; tests/render/test_findings.py), otherwise it says whom
            # it is tied with
            if values[n] == best:
                assert (tb.BEST_MARK in cell) != (
                    "tied with" in cell or "not tested against" in cell
                )
            else:
                assert tb.BEST_MARK not in cell and "tied with" not in cell


def test_uncertainty_tables_carry_the_intervals_of_results_json(example_site):
    out, data = example_site
    for name, d in data["datasets"].items():
        page = parse_page(out / f"dataset-{name}.html")
        if not any("expected_cost_interval" in c for c in d["classifiers"].values()):
            continue
        rows = page.tables[f"table-dataset-{name}-intervals"]
        header = rows[0]
        for row in rows[1:]:
            c = d["classifiers"][row[0]]
            for column, cell in zip(header[1:], row[1:]):
                prior = column.removeprefix("E[cost] ")
                lo, hi = c["expected_cost_interval"][prior]
                assert (
                    cell == f"{tb.cost(c['expected_cost'][prior])} [{tb.cost(lo)}, {tb.cost(hi)}]"
                )
        rows = page.tables[f"table-dataset-{name}-differences"]
        assert rows[0] == ["A", "B", "Prior", "E[A] \u2212 E[B]"]
        pairs = iter(d["comparisons"].values())
        seen = []
        m = None
        for row in rows[1:]:  # one row per pair and prior, each naming its pair
            if m is None or row[:2] != [m["a"], m["b"]]:
                m = next(pairs)
                assert row[:2] == [m["a"], m["b"]]
            prior, cell = row[2], row[3]
            seen.append((m["a"], m["b"], prior))
            iv = m["expected_cost_difference_interval"][prior]
            replicates = m["difference_band"]["replicates"]
            expected = (
                f"{tb.cost(iv['lower'])}, {tb.cost(iv['upper'])}] unadjusted, "
                f"{tb.p_value_text(iv['p_value'], replicates, 1)}"
            )
            expected = " ".join(
                expected.split()
            )  # the page's text, spaces normalised (no-break spaces too)
            assert (
                cell.split()[0] == tb.cost(m["expected_cost_difference"][prior])
                and expected in cell
            )
            # both p and the adjusted p (p_holm) are shown; the mark follows the adjusted one
            # (issue 10)
            assert "p_adj" in cell and tb.fmt(iv["p_holm"], 3) in cell
            level = m["difference_band"]["level"]
            assert (tb.SIGNIFICANT_MARK in cell) == (iv["p_holm"] <= 1 - level + 1e-12)
        assert next(pairs, None) is None
        assert sorted(seen) == sorted(
            (m["a"], m["b"], p)
            for m in d["comparisons"].values()
            for p in m["expected_cost_difference"]
        )


def test_differences_csv_names_the_pair_and_prior_on_every_row(example_site):
    """The long-form differences table's CSV: one row per pair and prior, each naming its pair
    and prior, values at full precision."""
    out, data = example_site
    for name, d in data["datasets"].items():
        with open(out / f"tables/dataset-{name}-differences.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        got = {(r["A"], r["B"], r["Prior"]): float(r["E[A] \u2212 E[B]"]) for r in rows}
        assert len(got) == len(rows)
        assert got == {
            (m["a"], m["b"], p): v
            for m in d["comparisons"].values()
            for p, v in m["expected_cost_difference"].items()
        }


def test_csv_has_full_precision_and_latex_uses_booktabs(example_site):
    out, data = example_site
    name = next(iter(data["datasets"]))
    with open(out / f"tables/dataset-{name}-summary.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[-1]["Classifier"] == tb.TRIVIAL_NAME
    for row in rows[:-1]:
        c = data["datasets"][name]["classifiers"][row["Classifier"]]
        assert float(row["AUC"]) == c["auc"]
        for prior, value in c["expected_cost"].items():
            assert float(row[f"E[cost] {prior}"]) == value
        assert json.loads(row["Operating range"]) == [c["operating_range"]]
    with open(out / "tables/index-expected-cost.csv", newline="") as f:
        assert "best" in next(csv.reader(f))
    tex = (out / f"tables/dataset-{name}-summary.tex").read_text()
    blocks = tex.count(
        "\\begin{tabular}{"
    )  # a wide table is split into blocks (test_latex_tables.py)
    for rule in ("\\toprule", "\\midrule", "\\bottomrule"):
        assert tex.count(rule) == blocks >= 1
    assert "naive\\_bayes" in tex and "naive_bayes" not in tex.replace("naive\\_bayes", "")
    # every table on every page is downloadable as CSV and LaTeX
    for page_path in out.glob("*.html"):
        page = parse_page(page_path)
        for table_id in page.tables:
            key = table_id.removeprefix("table-")
            assert f"tables/{key}.csv" in page.links and f"tables/{key}.tex" in page.links


def test_provenance_lists_inputs_versions_and_the_manifest(example_site):
    out, data = example_site
    html = (out / "provenance.html").read_text()
    for f in data["inputs"]:
        assert f["sha256"] in html and f["path"] in html
    assert data["versions"]["weasyprint"] in html
    assert "&lt;" not in data.get("title", "")
    manifest = (EXAMPLE / "ccreport.toml").read_text()
    assert "german-5to1-uncertain" in manifest and "name = &#34;german-5to1-uncertain&#34;" in html


def test_methods_page_has_formulas_and_references(example_site):
    out, _ = example_site
    text = " ".join((out / "methods.html").read_text().split())
    for needle in (
        "PC(+) = p(+)",
        "Eq. 5",
        "1 / (1 + S)",
        "Machine Learning</cite> 65",
        "27(8), 882",
        "93(1), 71",
        "3-D confusion matrix",
        "vertically",
        "binomial",
        "stratified",
        "induced",
    ):
        assert needle in text, needle


def test_names_and_titles_are_escaped(tmp_path):
    names = ("<script>alert(1)</script>", 'a&b "q"')
    results = synthetic_results(names, title="<b>Title</b> & co")
    (tmp_path / "results.json").write_text(results_to_json(results))
    render_site(results, None, tmp_path, fake_figure_index(results, tmp_path), pdf=False)
    check_site(tmp_path)
    for page in tmp_path.glob("*.html"):
        html = page.read_text()
        assert "<script>" not in html and "<b>Title" not in html and "<pos>" not in html
        assert "alert(2)" not in html or "&lt;script&gt;alert(2)" in html
    index = (tmp_path / "index.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index and "a&amp;b &#34;q&#34;" in index
    assert "&lt;b&gt;Title&lt;/b&gt; &amp; co" in index
    tex = (tmp_path / "tables/dataset-d1-summary.tex").read_text()
    assert "a\\&b" in tex and "\\textless{}script\\textgreater{}" in tex
    assert "https://example.org" not in " ".join(parse_page(tmp_path / "dataset-d1.html").links)


def test_markdown_escapes_raw_html_and_unlinks_outside_addresses():
    html = render_markdown(
        "# T\n\n<img src=x onerror=alert(1)> [a](https://x.org) [b](methods.html) "
        "![i](http://x/i.png)"
    )
    assert "<img" not in html and "&lt;img" in html
    assert 'href="https' not in html and "(https://x.org)" in html
    assert 'href="methods.html"' in html and "<h2>T</h2>" in html


def test_uncertainty_tables_appear_when_present(tmp_path):
    results = synthetic_results(("a1", "b1"))
    d = results.datasets["d1"]
    band = Band(
        level=0.9,
        replicates=200,
        method="binomial",
        target="envelope",
        pc=np.array([0, 0.5, 1]),
        lower=np.array([0, 0.1, 0]),
        upper=np.array([0, 0.3, 0]),
    )
    calibration = CalibrationDescription(
        method="double bootstrap",
        outer=10,
        inner=10,
        window=None,
        upper_level=np.array([0.95, 0.987, 0.95]),
        lower_level=0.05,
        sup_scale=1.2,
        expected_upper_level={},
    )
    for name, c in d.classifiers.items():
        d.classifiers[name] = dataclasses.replace(
            c,
            band=dataclasses.replace(band, calibration=calibration) if name == "a1" else band,
            expected_cost_interval={
                p: ExpectedCostInterval(v - 0.01, v + 0.01) for p, v in c.expected_cost.items()
            },
        )
    key, m = next(iter(d.comparisons.items()))
    d.comparisons[key] = m = dataclasses.replace(
        m,
        significant=(SignificantRegion(0.2, 0.4, "a1"),),
        expected_cost_difference_interval={
            p: ExpectedCostDifferenceInterval(v, v - 0.02, v + 0.02, 0.04)
            for p, v in m.expected_cost_difference.items()
        },
    )
    (tmp_path / "results.json").write_text(results_to_json(results))
    render_site(results, None, tmp_path, {}, pdf=False)
    page = parse_page(tmp_path / "dataset-d1.html")
    assert {
        "table-dataset-d1-intervals",
        "table-dataset-d1-bands",
        "table-dataset-d1-differences",
    } <= set(page.tables)
    row = page.tables["table-dataset-d1-intervals"][1]
    c = d.classifiers["a1"]
    lo, hi = c.expected_cost_interval["uniform"].to_dict()
    assert row[1] == f"{tb.cost(c.expected_cost['uniform'])} [{tb.cost(lo)}, {tb.cost(hi)}]"
    bands = {r[0]: r for r in page.tables["table-dataset-d1-bands"][1:]}
    assert bands["a1"][5] == "upper edge at the 95.0–98.7% quantile" and bands["b1"][5] == tb.DASH
    # where the difference is significant over PC(+) is a column of the per-pair comparisons;
    # the differences table has one row per pair and prior
    assert "[0.200, 0.400] a1" in page.tables["table-dataset-d1-comparisons"][1][-1]
    diff_row = page.tables["table-dataset-d1-differences"][1]
    assert diff_row[2] == "uniform" and "p=0.040" in diff_row[3]
    check_site(tmp_path)


# --- themes and template overrides ---------------------------------------------------------------


def test_project_template_override_by_file_name_and_by_extending_base(tmp_path):
    project = write_tiny_project(tmp_path / "p")
    (project / "templates").mkdir()
    (project / "templates" / "methods.html").write_text(
        '{% extends "base.html" %}{% block content %}<p id="own-methods">Our own methods for '
        "{{ title }}</p>{% endblock %}"
    )
    (project / "templates" / "dataset.html").write_text(
        '{% extends "base/dataset.html" %}\n{% block facts %}<p id="before-facts">Read this '
        "first.</p>{{ super() }}{% endblock %}\n"
    )
    (project / "templates" / "sections").mkdir()
    (project / "templates" / "sections" / "summary.html").write_text(
        '<p id="before-summary">Read this first.</p>\n{% include "base/sections/summary.html" %}'
    )
    out = tmp_path / "site"
    build(project, out, pdf=False)
    assert 'id="own-methods"' in (out / "methods.html").read_text()
    dataset = (out / "dataset-tiny.html").read_text()
    assert 'id="before-facts"' in dataset and 'class="facts"' in dataset
    assert 'id="before-summary"' in dataset and 'id="table-dataset-tiny-summary"' in dataset
    assert dataset.index('id="before-summary"') < dataset.index('id="table-dataset-tiny-summary"')
    # (no check_site here: the replaced methods page drops the anchors other pages link to)


def test_undefined_variable_in_an_override_fails_with_file_and_line(tmp_path):
    project = write_tiny_project(tmp_path / "p")
    (project / "templates").mkdir()
    (project / "templates" / "index.html").write_text(
        '{% extends "base.html" %}\n{% block content %}\n<p>{{ titel }}</p>\n{% endblock %}\n'
    )
    out = tmp_path / "site"
    out.mkdir()
    (out / "keep.txt").write_text("previous build")
    (out / ".ccreport-output").write_text(
        "a previous ccreport output\n"
    )  # else not replaceable at all
    with pytest.raises(UserInputError) as info:
        build(project, out, pdf=False)
    (problem,) = info.value.problems
    assert problem.file.endswith("templates/index.html") and problem.line == 3
    assert problem.field == "template" and "titel" in problem.expected
    assert (out / "keep.txt").read_text() == "previous build"  # previous output untouched
    # the CLI prints it on one line and exits 2
    run = subprocess.run(
        [sys.executable, "-m", "ccreport", "build", str(project), "-o", str(out), "--no-pdf"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 2
    assert (
        "index.html:3: template: undefined variable" in run.stderr and "Traceback" not in run.stderr
    )


def test_template_syntax_error_names_file_and_line(tmp_path):
    project = write_tiny_project(tmp_path / "p")
    (project / "templates").mkdir()
    (project / "templates" / "provenance.html").write_text(
        '{% extends "base.html" %}\n\n{% block content %}{% if %}{% endblock %}\n'
    )
    with pytest.raises(UserInputError) as info:
        build(project, tmp_path / "site", pdf=False)
    (problem,) = info.value.problems
    assert (
        problem.file.endswith("provenance.html")
        and problem.line == 3
        and "syntax" in problem.expected
    )


def test_theme_choice_and_unknown_theme(tmp_path):
    project = write_tiny_project(tmp_path / "p", theme="journal")
    build(project, tmp_path / "site", pdf=False)
    assert "journal" in (tmp_path / "site" / "assets" / "theme.css").read_text()
    assert (tmp_path / "site" / "assets" / "style.css").is_file()  # the default theme underneath
    bad = write_tiny_project(tmp_path / "q", theme="no-such-theme")
    with pytest.raises(UserInputError) as info:
        build(bad, tmp_path / "site2", pdf=False)
    assert "project.theme" in str(info.value) and "journal" in str(info.value)


def test_a_project_can_ship_its_own_theme(tmp_path):
    project = write_tiny_project(tmp_path / "p", theme="house")
    (project / "themes" / "house" / "templates").mkdir(parents=True)
    (project / "themes" / "house" / "theme.css").write_text("/* house */ body { color: #222; }\n")
    (project / "themes" / "house" / "templates" / "index.html").write_text(
        '{% extends "base/index.html" %}{% block narrative %}'
        '<p id="house">House style</p>{% endblock %}'
    )
    out = tmp_path / "site"
    build(project, out, pdf=False)
    assert "house" in (out / "assets" / "theme.css").read_text()
    assert 'id="house"' in (out / "index.html").read_text()


def test_site_works_without_figures_and_tiny_project_links(tmp_path):
    project = write_tiny_project(tmp_path / "p", title='Tiny <i>&</i> "quoted"')
    out = tmp_path / "site"
    build(project, out, pdf=False)
    check_site(out)
    assert "Tiny &lt;i&gt;&amp;&lt;/i&gt; &#34;quoted&#34;" in (out / "index.html").read_text()


def test_installed_layout_finds_templates_and_themes():
    from ccreport import paths

    assert (paths.templates_dir() / "base.html").is_file()
    assert {"default", "journal"} <= set(paths.available_themes())


def test_appendix_sections_are_folded_and_every_figure_is_shown_once(example_site):
    """The contract with the site's styles: each appendix section of a dataset page with something
    to show is in a closed ``<details class="appendix" id="<page>-appendix-<section>">`` whose
    summary is its title, after every body section; each figure file is shown by one image."""
    import re
    from collections import Counter

    from ccreport.render.page_names import dataset_page_slug
    from ccreport.render.sections import DATASET_SECTIONS

    out, data = example_site
    shown = Counter()
    for page in out.glob("*.html"):
        shown.update(re.findall(r'<img src="([^"]+\.svg)"', page.read_text(encoding="utf-8")))
    assert shown and all(n == 1 for n in shown.values()), shown.most_common(3)
    for d in data["datasets"]:
        slug = dataset_page_slug(d)
        html = (out / f"{slug}.html").read_text(encoding="utf-8")
        folds = re.findall(
            r'<details class="appendix" id="([^"]+)">\s*<summary>([^<]+)</summary>', html
        )
        titles = {s.id: s.title for s in DATASET_SECTIONS}
        assert folds and "<details open" not in html and " open>" not in html
        for fold_id, title in folds:
            section = fold_id.removeprefix(f"{slug}-appendix-")
            assert titles[section] == title.strip()
            assert next(s for s in DATASET_SECTIONS if s.id == section).part == "appendix"
        first_fold = html.index('<details class="appendix"')
        for s in DATASET_SECTIONS:
            if s.part == "body" and f'id="{slug}-{s.id}"' in html:
                assert html.index(f'id="{slug}-{s.id}"') < first_fold, s.id
