"""report.pdf: pages, contents with page numbers, numbered figures and tables, captions, attachments, same bytes."""

from __future__ import annotations

import json
import re

import pytest

pypdf = pytest.importorskip("pypdf")

from ccreport.build import build  # noqa: E402

from site_fixtures import example_build, write_tiny_project  # noqa: E402

@pytest.fixture(scope="module")
def example_pdf():
    out = example_build()
    reader = pypdf.PdfReader(out / "report.pdf")
    pages = [page.extract_text() or "" for page in reader.pages]
    return out, reader, pages


def test_page_count_and_title_page(example_pdf):
    out, reader, pages = example_pdf
    data = json.loads((out / "results.json").read_text())
    assert 10 <= len(pages) <= 80
    assert data["title"].split()[0] in pages[0]
    assert "Page" not in pages[0]  # no running header or page number on the title page
    assert re.search(r"Page 5 of \d+", pages[4])


def test_table_of_contents_with_page_numbers(example_pdf):
    out, _, pages = example_pdf
    data = json.loads((out / "results.json").read_text())
    toc = pages[1]
    assert "Contents" in toc
    titles = ["Overview"] + [f"Dataset: {d}" for d in data["datasets"]] + ["Methods", "Provenance"]
    numbers = []
    for title in titles:
        match = re.search(re.escape(title) + r"\s*\.*\s*(\d+)", toc)
        assert match, title
        numbers.append(int(match.group(1)))
        # the chapter starts on the page the contents say
        assert title.split(": ")[-1] in pages[numbers[-1] - 1]
    assert numbers == sorted(numbers)


def test_numbered_figures_and_tables_with_captions(example_pdf):
    _, _, pages = example_pdf
    text = "\n".join(pages)
    assert "Figure 1." in text and "Table 1." in text
    tables = sorted({int(n) for n in re.findall(r"Table (\d+)\.", text)})
    assert tables == list(range(1, len(tables) + 1)) and len(tables) >= 10
    figures = sorted({int(n) for n in re.findall(r"Figure (\d+)\.", text)})
    assert figures == list(range(1, len(figures) + 1))
    assert "Expected normalized cost of each classifier" in " ".join(text.split())
    assert "Pairwise comparisons on sonar" in " ".join(text.split())


def test_running_header_and_attachments(example_pdf):
    out, reader, pages = example_pdf
    data = json.loads((out / "results.json").read_text())
    assert all(data["title"] in " ".join(p.split()) for p in pages[2:])
    attached = reader.attachments
    recorded = {f["path"] for f in data["provenance"]["files"]}
    assert set(attached) == {"results.json"} | recorded
    assert {f["role"] for f in data["provenance"]["files"]} >= {"manifest", "data", "narrative"}
    assert all(len(v) == 1 for v in attached.values())
    assert json.loads(attached["results.json"][0]) == data


def test_figures_stay_vector(example_pdf):
    """Figures go in as SVG (drawn as vectors); the only rasters are dense artists the figures rasterized themselves."""
    out, reader, _ = example_pdf
    images = set()
    for page in reader.pages:
        xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
        for xobject in xobjects.values():
            if xobject.get_object().get("/Subtype") == "/Image":
                images.add(xobject.idnum)
    svgs_with_rasters = [p for p in out.glob("figures/**/*.svg") if "<image" in p.read_text()]
    assert len(images) <= len(svgs_with_rasters)
    assert list(out.glob("figures/**/*.svg"))


def test_same_bytes_from_two_builds(tmp_path):
    project = write_tiny_project(tmp_path / "p")
    build(project, tmp_path / "one")
    build(project, tmp_path / "elsewhere" / "two")
    one = (tmp_path / "one" / "report.pdf").read_bytes()
    two = (tmp_path / "elsewhere" / "two" / "report.pdf").read_bytes()
    assert one == two
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(tmp_path / "one" / "report.pdf").pages)
    assert "Contents" in text and "Table 1." in text
