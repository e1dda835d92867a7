"""report.pdf: pages, contents with page numbers, numbered figures and tables, captions,
attachments, same bytes."""

from __future__ import annotations

import hashlib
import html as html_module
import json
import re
import shutil
import subprocess
import tempfile
from collections import Counter

import pytest

pypdf = pytest.importorskip("pypdf")

from site_fixtures import example_build, write_tiny_project  # noqa: E402

from ccreport.commands.build import build  # noqa: E402
from ccreport.render.figure_pdfs import XOBJECT_NAME  # noqa: E402
from ccreport.render.page_names import dataset_page_slug  # noqa: E402


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


def test_no_section_heading_ends_a_page(example_pdf):
    """A numbered heading is never the last thing on a page: it stays with what follows, even when
    that is a wide table on a landscape page of its own (the heading goes onto that page)."""
    out, reader, _ = example_pdf
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    heading = re.compile(
        r"^\d+\.\d+\s+[A-Z][^.]*$"
    )  # "3.2 Summary", not a contents line with leaders
    for number in range(1, len(reader.pages) + 1):
        text = subprocess.run(
            [
                "pdftotext",
                "-f",
                str(number),
                "-l",
                str(number),
                "-layout",
                str(out / "report.pdf"),
                "-",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        body = [line for line in lines if not re.match(r"Page \d+ of \d+$", line)]
        assert not (body and heading.match(body[-1])), (number, body[-1])


def test_landscape_pages_hold_only_wide_tables(example_pdf):
    """A wide table gets landscape pages, and only a wide table; the heading and text after it go
    back to portrait (the chapters' named page type), and a table's note stays whole with its last
    row. The example's tables all fit portrait (the pairwise differences in long form, one row per
    pair and prior): it has no landscape page."""
    from test_pagination import LANDSCAPE_ROWS
    from test_table_print_layout import numbered_tables

    _, reader, pages = example_pdf
    landscape = [
        i
        for i, page in enumerate(reader.pages)
        if float(page.mediabox.width) > float(page.mediabox.height)
    ]
    wide = [t.key for t in numbered_tables().values() if t.wide and len(t.rows) >= LANDSCAPE_ROWS]
    assert bool(landscape) == bool(wide), (landscape, wide)
    for i in (
        landscape
    ):  # a heading only where the wide table follows it at once (it goes with its table)
        headings = re.findall(
            r"^\d+\.\d+[ \u2002][A-Z][^\n]*$\n(?!Table \d+\.)", pages[i], flags=re.MULTILINE
        )
        assert not headings, (i + 1, headings)
        assert not re.search(r"Figure \d+\.", pages[i]), i + 1


def test_decision_summary_right_after_the_title(example_pdf):
    """Issue 32 point 8, issue 36: the decision, per dataset, with each constrained choice, on the
    title page under the title block."""
    out, _, pages = example_pdf
    data = json.loads((out / "results.json").read_text())
    page = " ".join(pages[0].split())
    assert data["title"].split()[0] in page.split("The decision")[0]
    assert "The decision" in page.split("What to deploy")[0]
    for name, d in data["datasets"].items():
        assert name in page
        for criterion, row in d["decisions"]["criteria"].items():
            if row.get("classifier"):
                assert f"{criterion} (" in page and f"): {row['classifier']}," in page
        for prior, row in d["decisions"]["priors"].items():
            # the cost interval quoted is the expected-cost table's (expected_cost_interval), in
            # units
            canonical = d["classifiers"][row["classifier"]]["expected_cost_interval"][prior]
            scale = row["cost_per_case"]["value"] / row["expected_cost"]
            lo, hi = (v * scale for v in canonical)
            assert row["cost_per_case"]["interval"] == pytest.approx([lo, hi])
            assert f"Under {prior} (PC(+) = {row['pc']:.3f}): deploy {row['classifier']}" in page
            assert f"[{lo:,.3f}, {hi:,.3f}]" in page


def test_table_of_contents_with_page_numbers(example_pdf):
    out, _, pages = example_pdf
    data = json.loads((out / "results.json").read_text())
    start = next(i for i, p in enumerate(pages) if "Contents" in p)
    end = start + 1  # the contents may run over several pages: their entries end in dotted leaders
    while (
        end < len(pages) and re.search(r"\.{8,}\s*\d+", pages[end]) and "Contents" not in pages[end]
    ):
        end += 1
    toc = "\n".join(pages[start:end])
    assert (
        start < 3 and "Contents" in toc
    )  # after the title page (and the decision summary, when it has a page)
    titles = ["Overview"] + [f"Dataset: {d}" for d in data["datasets"]] + ["Methods", "Provenance"]
    numbers = []
    for title in titles:
        match = re.search(re.escape(title) + r"\s*\.*\s*(\d+)", toc)
        assert match, title
        numbers.append(int(match.group(1)))
        # the chapter starts on the page the contents say
        assert title.split(": ")[-1] in pages[numbers[-1] - 1]
    assert numbers == sorted(numbers)


def test_lists_of_figures_and_tables_give_each_items_page(example_pdf):
    """Each entry of the lists on the contents' pages ends in the page its caption is on."""
    _, _, pages = example_pdf
    listing = "\n".join(p for p in pages[:3] if "List of figures" in p or "List of tables" in p)
    # an entry runs to the next "Figure N"/"Table N": pypdf 5 extracts a column's entries without
    # line breaks between them, newer pypdf one entry a line
    entries = re.findall(
        r"(Figure|Table) (\d+) (?:(?!(?:Figure|Table) \d).)*?(\d+)\s*(?=(?:Figure|Table) \d|\Z)",
        listing,
        re.DOTALL,
    )
    kinds = {kind for kind, _, _ in entries}
    assert kinds == {"Figure", "Table"}
    for kind in kinds:  # every item listed once
        numbers = sorted(int(n) for k, n, _ in entries if k == kind)
        assert numbers == list(range(1, len(numbers) + 1))
    for kind, number, page in entries:
        assert re.search(rf"\b{kind} {number}\.", pages[int(page) - 1]), (kind, number, page)


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
    """Figures go in as vectors (their PDF files as form XObjects, or a figure without one as SVG);
    the only rasters are dense artists the figures rasterized themselves, inside their own form
    XObjects."""
    out, reader, _ = example_pdf
    page_images, figure_images = set(), set()
    for page in reader.pages:
        xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
        for name, xobject in xobjects.items():
            obj = xobject.get_object()
            if obj.get("/Subtype") == "/Image":
                page_images.add(xobject.idnum)
            elif XOBJECT_NAME.search(name):
                inner = (obj.get("/Resources") or {}).get("/XObject") or {}
                figure_images |= {
                    (xobject.idnum, n)
                    for n, x in inner.items()
                    if x.get_object().get("/Subtype") == "/Image"
                }
    assert not page_images  # every figure of the example has its PDF: nothing drawn from SVG
    rasters = 0  # the images matplotlib put in the figure files
    for path in out.glob("figures/**/*.pdf"):
        inner = (pypdf.PdfReader(path).pages[0]["/Resources"].get("/XObject") or {}).values()
        rasters += sum(x.get_object().get("/Subtype") == "/Image" for x in inner)
    assert len(figure_images) == rasters
    assert list(out.glob("figures/**/*.svg"))


def test_every_figure_is_drawn_from_its_own_pdf_file(example_pdf):
    """Each figure of the site is a form XObject of report.pdf whose content stream, BBox and font
    programs are those of its figure's PDF file (ccreport.render.figure_pdfs), each once."""
    out, reader, _ = example_pdf
    sources = {}
    for path in out.glob("figures/**/*.pdf"):
        page = pypdf.PdfReader(path).pages[0]
        sources[page.get_contents().get_data()] = (path, page)
    drawn = {}
    for page in reader.pages:
        for name, xobject in ((page.get("/Resources") or {}).get("/XObject") or {}).items():
            if XOBJECT_NAME.search(name):
                drawn[name] = xobject.get_object()
    assert len(drawn) == len(sources) == len(list(out.glob("figures/**/*.svg")))
    matched = set()
    for xobject in drawn.values():
        path, page = sources[xobject.get_data()]  # KeyError: content that is no figure file's
        matched.add(path)
        assert [float(v) for v in xobject["/BBox"]] == [float(v) for v in page.mediabox]
        programs = {
            f.get_object()["/DescendantFonts"][0]
            .get_object()["/FontDescriptor"]["/FontFile2"]
            .get_data()
            for f in xobject["/Resources"]["/Font"].values()
        }
        assert programs == {
            f.get_object()["/DescendantFonts"][0]
            .get_object()["/FontDescriptor"]["/FontFile2"]
            .get_data()
            for f in page["/Resources"]["/Font"].values()
        }
    assert len(matched) == len(sources)


def test_same_bytes_from_two_builds(tmp_path, monkeypatch):
    project = write_tiny_project(tmp_path / "p")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    build(project, tmp_path / "one")
    # WeasyPrint's folder of @font-face files is gone when the build returns (a fast exit never
    # frees it)
    assert not list(scratch.glob("weasyprint-*"))
    build(project, tmp_path / "elsewhere" / "two")
    one = (tmp_path / "one" / "report.pdf").read_bytes()
    two = (tmp_path / "elsewhere" / "two" / "report.pdf").read_bytes()
    assert one == two
    text = "\n".join(
        p.extract_text() for p in pypdf.PdfReader(tmp_path / "one" / "report.pdf").pages
    )
    assert "Contents" in text and "Table 1." in text


# --- issue 15: the PDF is the report --------------------------------------------------------------

_LABELLED = re.compile(
    r'<span class="item-label">(Figure|Table) (\d+)\.</span>(.*?)</figcaption>', re.DOTALL
)


def _words(text: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html_module.unescape(text)).split())


def _site_pages(out) -> list[str]:
    """The site's pages in the report's order (the PDF's chapters)."""
    datasets = json.loads((out / "results.json").read_text())["datasets"]
    return [
        "index.html",
        *(f"{dataset_page_slug(d)}.html" for d in datasets),
        "methods.html",
        "provenance.html",
    ]


def _site_items(out) -> dict[tuple[str, int], str]:
    """(kind, number) -> caption of every numbered figure and table on every page of the site."""
    items = {}
    for page in _site_pages(out):
        for kind, number, caption in _LABELLED.findall((out / page).read_text(encoding="utf-8")):
            caption = re.sub(r'<span class="downloads">.*', "", caption, flags=re.DOTALL)
            assert (kind, int(number)) not in items, (kind, number)
            items[(kind, int(number))] = _words(caption)
    return items


@pytest.fixture(scope="module")
def pdf_text(example_pdf):
    out, _, _ = example_pdf
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    return subprocess.run(
        ["pdftotext", str(out / "report.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout


def test_every_figure_and_table_of_the_site_is_in_the_pdf_with_the_same_number(
    example_pdf, pdf_text
):
    out, _, _ = example_pdf
    site = _site_items(out)
    figures = sorted(n for kind, n in site if kind == "Figure")
    tables = sorted(n for kind, n in site if kind == "Table")
    assert figures == list(range(1, len(figures) + 1)) and tables == list(range(1, len(tables) + 1))
    assert len(figures) == len(
        list(out.glob("figures/**/*.svg"))
    )  # the site shows every drawn figure
    text = " ".join(pdf_text.split())
    captions = Counter(re.findall(r"((?:Figure|Table) \d+)\. ", text))
    assert all(n == 1 for n in captions.values()), captions.most_common(3)  # each exactly once
    assert {("Figure", int(n)) for n in re.findall(r"Figure (\d+)\.", text)} == {
        k for k in site if k[0] == "Figure"
    }
    assert {("Table", int(n)) for n in re.findall(r"Table (\d+)\.", text)} == {
        k for k in site if k[0] == "Table"
    }
    panels = _panel_captions(out)  # report.pdf's grids: the panel's own caption under each panel
    for (kind, number), caption in site.items():  # each number labels the same caption in both
        start = (
            " ".join(panels.get(number, caption).split()[:4])
            if kind == "Figure"
            else " ".join(caption.split()[:4])
        )
        assert f"{kind} {number}. {start}" in text, (kind, number, start)
    assert panels  # the example has grids of panels


_FIGURE_ID = re.compile(
    r'<figure class="figure[^"]*" id="([^"]+)">\s*<img[^>]*>\s*<figcaption><span '
    r'class="item-label">Figure (\d+)\.'
)


def _panel_captions(out) -> dict[int, str]:
    """Site figure number -> the caption report.pdf prints under it as a panel of a grid, for the
    figure kinds that have one (ccreport.figures.registry: panel_caption)."""
    from site_fixtures import example_results

    from ccreport import figures as F
    from ccreport.render.site import Figure

    number_of = {}
    for page in _site_pages(out):
        number_of.update(
            {fid: int(n) for fid, n in _FIGURE_ID.findall((out / page).read_text(encoding="utf-8"))}
        )
    results = example_results()
    found = {}
    for spec in F.specs():
        if spec.panel_caption is None:
            continue
        for d in results.datasets.values():
            for subject in spec.subjects(results, d, {}):
                fid = Figure(
                    key=spec.key_for(d.name, subject.name), svg="", pdf=None, caption="", alt=""
                ).id
                if fid in number_of:
                    found[number_of[fid]] = spec.panel_caption(subject)
    return found


def test_each_grid_of_panels_says_once_what_every_panel_shows(example_pdf, pdf_text):
    """A grid's panels note (once, before the grid) and the panel captions together say what the
    site's full caption says: the pair or classifier, its own facts, and the rest in the note."""
    from site_fixtures import example_results

    from ccreport import figures as F
    from ccreport.figures.registry import FigureOptions
    from ccreport.render import findings as fd
    from ccreport.render.sections import DATASET_SECTIONS
    from ccreport.render.sections.figure_sections import cited_pairs

    text = " ".join(pdf_text.split())
    results = example_results()
    for spec in F.specs():
        if spec.panel_caption is None:
            continue
        for d in results.datasets.values():
            subjects = [x for x in spec.subjects(results, d, {}) if spec.wanted(x, FigureOptions())]
            note = " ".join(spec.panels_note(subjects[0]).split())
            cited = cited_pairs(fd.dataset_findings(results, d))
            grids = [  # the sections showing some of the kind's panels: one grid, one note each
                s
                for s in DATASET_SECTIONS
                if spec.section in (s.figures_of or (s.id,))
                and any(s.shows(d, cited, x.name) for x in subjects)
            ]
            assert text.count(" ".join(note.split()[:20])) == len(grids), (spec.kind, d.name)
            for subject in subjects:
                full, panel = spec.caption(subject), spec.panel_caption(subject)
                assert len(panel) < len(full) / 2 and subject.dataset.name in panel
                facts = re.findall(r"PC\(\+\) = [\d., ]+\d|\d+ folds|\d+% pointwise", full)
                facts += re.findall(
                    r"method: (.*?)(?:, \d+ replicates|\.$|\. )", full
                )  # a band's method
                for fact in facts:
                    assert fact.rstrip(".") in panel + " " + note, (spec.kind, subject.name, fact)


def test_site_numbers_follow_the_reading_order_of_every_page(example_pdf):
    """The catalogue's order is the templates' order and report.pdf's: numbers rise down the body
    of every page of the site (up to its first folded appendix section), page after page, then on
    through the appendix sections and the wholly appendix pages (methods, provenance)."""
    out, _, _ = example_pdf
    body, appendix = [], []
    for page in _site_pages(out):
        html = (out / page).read_text(encoding="utf-8")
        if page in ("methods.html", "provenance.html"):
            head, tail = "", html
        else:
            head, fold, tail = html.partition('<details class="appendix"')
            tail = fold + tail
        body += [(page, kind, int(n)) for kind, n, _ in _LABELLED.findall(head)]
        appendix += [(page, kind, int(n)) for kind, n, _ in _LABELLED.findall(tail)]
    last = {"Figure": 0, "Table": 0}
    for page, kind, number in body + appendix:
        assert number > last[kind], (page, kind, number)
        last[kind] = number


def test_nothing_in_the_pdf_only_makes_sense_on_screen(pdf_text):
    text = " ".join(pdf_text.split())
    for phrase in ("click", "Download", "The HTML report also", "figures/ folder", "On this page"):
        assert phrase.lower() not in text.lower(), phrase


def test_real_date_tagging_and_every_input_attached(example_pdf):
    out, reader, _ = example_pdf
    data = json.loads((out / "results.json").read_text())
    date = data["provenance"]["date"]  # e.g. 2026-11-23T16:39:00Z
    assert reader.metadata["/CreationDate"].startswith("D:" + re.sub(r"[-T:Z]", "", date))
    assert not date.startswith("2006")
    if shutil.which("pdfinfo"):
        info = subprocess.run(
            ["pdfinfo", str(out / "report.pdf")], capture_output=True, text=True
        ).stdout
        assert re.search(r"Tagged:\s+yes", info)
        assert re.search(r"PDF subtype:\s+PDF/A-3b", info) or "PDF subtype" not in info
    if shutil.which("pdfdetach"):
        listed = subprocess.run(
            ["pdfdetach", "-list", str(out / "report.pdf")], capture_output=True, text=True
        ).stdout
        names = {line.split(": ", 1)[1] for line in listed.splitlines()[1:]}
        assert names == {"results.json"} | {f["path"] for f in data["provenance"]["files"]}
        assert any(f["role"] == "data" for f in data["provenance"]["files"])


def test_pdf_a_3b_conformance_by_a_validator(example_pdf):
    """PDF/A-3b checked by ``page`` (PyPI ``page-validation``, which passes veraPDF's test corpus;
    veraPDF itself is in no registry this project can install from)."""
    page = pytest.importorskip(
        "page",
        reason="the PDF/A validator page-validation is not installed (pip install page-validation)",
    )
    out, _, _ = example_pdf
    report = page.validate_pdf(out / "report.pdf", profile="3b")
    assert report.is_compliant, [(f.rule_id, f.message) for f in report.failures]


def test_pdfa_repairs_on_a_small_pdf_object_tree():
    """Each repair of ccreport.render.pdfa, on pydyf objects made here: /AF once, metadata
    uncompressed, no interpolated image, and \\r\\n before endstream only after data ending in a
    carriage return."""
    pydyf = pytest.importorskip("pydyf")
    from ccreport.render.pdfa import pdfa_repairs

    pdf = pydyf.PDF()
    metadata = pydyf.Stream(
        [b"<x:xmpmeta/>"], {"Type": "/Metadata", "Subtype": "/XML"}, compress=True
    )
    image = pydyf.Stream(
        [b"\x00\x01"], {"Type": "/XObject", "Subtype": "/Image", "Interpolate": "true"}
    )
    ends_in_cr, plain = pydyf.Stream([b"abc\r"]), pydyf.Stream([b"abc"])
    spec = pydyf.Dictionary({"Type": "/Filespec"})
    for obj in (metadata, image, ends_in_cr, plain, spec):
        pdf.add_object(obj)
    pdf.catalog["Metadata"] = metadata.reference
    pdf.catalog["AF"] = pydyf.Array([spec.reference, spec.reference])
    pdfa_repairs(None, pdf)
    assert list(pdf.catalog["AF"]) == [spec.reference]
    assert b"/Filter" not in metadata.data and image.extra["Interpolate"] == "false"
    assert ends_in_cr.data.endswith(b"/Length 4>>\nstream\nabc\r\r\nendstream")
    assert plain.data.endswith(b"/Length 3>>\nstream\nabc\nendstream")


def test_embedded_files_deflated_at_the_fast_level_and_read_back_whole(example_pdf):
    """Attached files are deflated at zlib level 1 (pydyf's level 9 cost about 90 CPU s more on a
    10^7-row CSV, issue 9), and every attachment still reads back as the file's bytes."""
    import zlib

    pydyf = pytest.importorskip("pydyf")
    from ccreport.render.pdfa import EMBEDDED_FILE_LEVEL, pdfa_repairs

    raw = b"label,score\n" + b"pos,0.25\nneg,0.5\n" * 200
    pdf = pydyf.PDF()
    attached = pydyf.Stream([raw], {"Type": "/EmbeddedFile"}, compress=True)
    pdf.add_object(attached)
    pdfa_repairs(None, pdf)
    body = zlib.compress(raw, EMBEDDED_FILE_LEVEL)
    assert EMBEDDED_FILE_LEVEL == 1 and b"/Filter /FlateDecode" in attached.data
    assert (
        attached.data.endswith(b"stream\n" + body + b"\nendstream") and zlib.decompress(body) == raw
    )

    out, reader, _ = example_pdf
    data = json.loads((out / "results.json").read_text())
    for f in data["provenance"]["files"]:
        assert hashlib.sha256(reader.attachments[f["path"]][0]).hexdigest() == f["sha256"]
