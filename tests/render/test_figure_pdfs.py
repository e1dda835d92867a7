"""Figures in report.pdf drawn from their own vector PDF files as form XObjects
(ccreport.render.figure_pdfs)."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import matplotlib
import pytest

pypdf = pytest.importorskip("pypdf")
weasyprint = pytest.importorskip("weasyprint")

from ccreport import figures as F  # noqa: E402
from ccreport.render.figure_files import SAVE_METADATA, split_pages  # noqa: E402
from ccreport.render.figure_pdfs import XOBJECT_NAME, FigureImages, FigurePdf  # noqa: E402
from ccreport.render.pdfa import pdfa_repairs  # noqa: E402

matplotlib.use("Agg")


def _figure(folder: Path, stem: str, notdef_kept: bool = True, pdf: bool = True) -> None:
    """A small figure with text (minus signs, Greek, mathtext, ligatures in a two-line label),
    transparency, hatching and a rasterized artist; ``notdef_kept``: its PDF written as the build
    writes it (a page of a PdfPages document, split off by split_pages, which renumbers a font
    subset from code 1), else by savefig alone (the two-line label's ligatures at code 0)."""
    import io

    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.backends.backend_pdf import PdfPages

    (folder / "figures").mkdir(exist_ok=True)
    with F.style():
        fig, ax = plt.subplots(figsize=(4, 2.5))
        ax.plot([-1, 0, 1], [0.2, -0.5, 0.7], label="Difference of NEC")
        ax.fill_between([-1, 1], [-0.2, -0.2], [0.3, 0.3], alpha=0.3, hatch="//")
        ax.imshow(np.arange(12.0).reshape(3, 4), extent=(0.2, 0.8, 0.4, 0.6), rasterized=True)
        ax.set_xlabel(r"PC(+) $\alpha$ − Δ")
        ax.set_ylabel("Difference\nin flow")
        ax.legend()
        target = folder / "figures" / stem
        fig.savefig(f"{target}.svg", format="svg", metadata=SAVE_METADATA["svg"])
        if pdf and notdef_kept:
            buffer = io.BytesIO()
            with PdfPages(buffer, metadata=SAVE_METADATA["pdf"]) as pages:
                pages.savefig(fig)
            split_pages(buffer.getvalue(), [Path(f"{target}.pdf")])
        elif pdf:
            fig.savefig(f"{target}.pdf", format="pdf", metadata=SAVE_METADATA["pdf"])
        plt.close(fig)


def _write(folder: Path, stems, figure_pdfs: bool = True, images=None) -> Path:
    html = "<h1>Figures</h1>" + "".join(
        f'<figure><img src="figures/{s}.svg" alt="Figure {s}" style="width: '
        f'60%"><figcaption>{s}</figcaption></figure>'
        for s in stems
    )
    if images is None:
        images = FigureImages(folder) if figure_pdfs else {}
    document = weasyprint.HTML(string=html, base_url=str(folder) + "/").render(cache=images)

    def finisher(document, pdf):
        if figure_pdfs:
            images.embed(pdf)
        pdfa_repairs(document, pdf)

    target = folder / ("with-pdfs.pdf" if figure_pdfs else "with-svgs.pdf")
    document.write_pdf(target, pdf_variant="pdf/a-3b", pdf_tags=True, finisher=finisher)
    return target


def _figure_xobjects(pdf: Path) -> dict[int, object]:
    """The figures' form XObjects of a PDF by their number in drawing order."""
    out = {}
    for page in pypdf.PdfReader(pdf).pages:
        for name, ref in (page["/Resources"].get("/XObject") or {}).items():
            found = XOBJECT_NAME.search(name)
            if found:
                out[int(found[1])] = ref.get_object()
    return out


def test_intrinsic_size_is_the_svgs(tmp_path):
    """WeasyPrint lays the box out at the size the SVG declares: the PDF's MediaBox in px."""
    from weasyprint.images import SVGImage

    _figure(tmp_path, "a")
    svg = tmp_path / "figures" / "a.svg"
    expected = SVGImage(
        ElementTree.fromstring(svg.read_bytes()), svg.as_uri(), None, None
    ).get_intrinsic_size(1, 16)
    got = FigurePdf(tmp_path / "figures" / "a.pdf", FigureImages(tmp_path)).get_intrinsic_size(
        1, 16
    )
    assert got == pytest.approx(expected, rel=1e-9)


def test_cache_answers_only_figure_svgs_with_a_pdf(tmp_path):
    _figure(tmp_path, "a")
    _figure(tmp_path, "b", pdf=False)
    (tmp_path / "elsewhere.svg").write_text((tmp_path / "figures" / "a.svg").read_text())
    (tmp_path / "elsewhere.pdf").write_bytes((tmp_path / "figures" / "a.pdf").read_bytes())
    images = FigureImages(tmp_path)
    assert (tmp_path / "figures" / "a.svg").as_uri() in images
    assert isinstance(images[(tmp_path / "figures" / "a.svg").as_uri()], FigurePdf)
    assert (
        tmp_path / "figures" / "b.svg"
    ).as_uri() not in images  # no PDF: WeasyPrint loads the SVG
    assert (tmp_path / "elsewhere.svg").as_uri() not in images  # not under figures/
    assert "https://example.org/figures/a.svg" not in images


def test_a_planned_figure_is_read_when_first_laid_out(tmp_path):
    """A planned figure (a build still drawing it) is answered before its file exists, and read
    only once ``ready`` returns for it, when WeasyPrint first asks for its size; the document is
    the one drawn from files that were there from the start."""
    waited = []

    def ready(path):
        waited.append(Path(path).name)
        _figure(tmp_path, Path(path).stem)  # the figure's file is written only now

    planned = [tmp_path / "figures" / f"{s}.pdf" for s in ("a", "b")]
    images = FigureImages(tmp_path, planned, ready)
    url = (tmp_path / "figures" / "a.svg").as_uri()
    assert url in images and isinstance(images[url], FigurePdf)
    assert waited == [] and not planned[0].exists()
    assert images[url].get_intrinsic_size(1, 16)[0] > 0
    assert waited == ["a.pdf"]
    assert images[url].get_intrinsic_size(1, 16) == FigurePdf(
        planned[0], images
    ).get_intrinsic_size(1, 16)
    assert waited == ["a.pdf"]  # once a figure
    assert (tmp_path / "figures" / "c.svg").as_uri() not in images  # neither planned nor there


def test_planned_figures_give_the_same_document(tmp_path):
    _figure(tmp_path, "a")
    _figure(tmp_path, "b")
    eager = _write(tmp_path, ["a", "b"]).read_bytes()
    planned = [tmp_path / "figures" / f"{s}.pdf" for s in ("a", "b")]
    waited = []
    lazy = _write(tmp_path, ["a", "b"], images=FigureImages(tmp_path, planned, waited.append))
    assert lazy.read_bytes() == eager and waited == planned


def test_a_planned_figure_report_pdf_cannot_draw_names_its_file(tmp_path):
    """A planned figure has no SVG route (its SVG may not exist when it is chosen): a PDF that
    draws CID 0 stops the layout with the file named."""
    _figure(tmp_path, "ligature", notdef_kept=False)
    pdf = tmp_path / "figures" / "ligature.pdf"
    images = FigureImages(tmp_path, [pdf], lambda path: None)
    with pytest.raises(ValueError, match="ligature.pdf: font .* CID 0"):
        _write(tmp_path, ["ligature"], images=images)


def test_figure_xobject_is_the_figure_pdf_page(tmp_path):
    """The form XObject's content and fonts are the figure file's, its BBox the file's MediaBox, and
    it is drawn inside the tagged Figure's marked content; the document is PDF/A-3b and tagged."""
    _figure(tmp_path, "a")
    _figure(tmp_path, "b")
    target = _write(tmp_path, ["a", "b"])
    xobjects = _figure_xobjects(target)
    assert sorted(xobjects) == [0, 1]
    for name, stem in ((0, "a"), (1, "b")):
        source = pypdf.PdfReader(tmp_path / "figures" / f"{stem}.pdf").pages[0]
        xobject = xobjects[name]
        assert xobject["/Subtype"] == "/Form"
        assert [float(v) for v in xobject["/BBox"]] == [float(v) for v in source.mediabox]
        assert xobject.get_data() == source.get_contents().get_data()
        fonts = {str(f.get_object()["/BaseFont"]) for f in xobject["/Resources"]["/Font"].values()}
        assert fonts == {
            str(f.get_object()["/BaseFont"]) for f in source["/Resources"]["/Font"].values()
        }
        for font in xobject["/Resources"][
            "/Font"
        ].values():  # the font program itself, byte for byte
            descendant = font.get_object()["/DescendantFonts"][0].get_object()
            source_font = (
                source["/Resources"]["/Font"][
                    next(
                        k
                        for k, v in source["/Resources"]["/Font"].items()
                        if v.get_object()["/BaseFont"] == font.get_object()["/BaseFont"]
                    )
                ]
                .get_object()["/DescendantFonts"][0]
                .get_object()
            )
            assert (
                descendant["/FontDescriptor"]["/FontFile2"].get_data()
                == source_font["/FontDescriptor"]["/FontFile2"].get_data()
            )
        inner, source_inner = (
            xobject["/Resources"].get("/XObject"),
            source["/Resources"].get("/XObject"),
        )
        assert set(inner.get_object() if inner else {}) == set(
            source_inner.get_object() if source_inner else {}
        )
    page = pypdf.PdfReader(target).pages[0]
    content = page.get_contents().get_data()
    assert re.search(
        rb"/Figure\s*<</MCID \d+>>\s*BDC(?:(?!EMC).)*?/iccfig0_0 Do", content, re.DOTALL
    )
    page_validation = pytest.importorskip("page")
    report = page_validation.validate_pdf(target, profile="3b")
    assert report.is_compliant, [(f.rule_id, f.message) for f in report.failures]
    assert "/StructTreeRoot" in pypdf.PdfReader(target).trailer["/Root"]


def test_same_boxes_as_the_svg_route(tmp_path):
    """The figure lands where WeasyPrint puts the SVG: the XObject's matrix maps the figure's
    MediaBox onto the image box the SVG route draws into (same page text either way)."""
    _figure(tmp_path, "a")
    with_pdfs, with_svgs = _write(tmp_path, ["a"]), _write(tmp_path, ["a"], figure_pdfs=False)
    box = pypdf.PdfReader(tmp_path / "figures" / "a.pdf").pages[0].mediabox
    content = pypdf.PdfReader(with_pdfs).pages[0].get_contents().get_data().decode("latin-1")
    a, d, e, f = (
        float(v)
        for v in re.search(
            r"([-\d.]+) 0 0 ([-\d.]+) ([-\d.]+) ([-\d.]+) cm\s*/iccfig0_0 Do", content
        ).groups()
    )
    assert e == 0
    assert (
        a > 0 and d < 0 and a == pytest.approx(-d, rel=1e-6)
    )  # same scale both ways: the aspect is kept
    assert f == pytest.approx(
        -d * float(box.height), rel=1e-6
    )  # the figure's bottom at the box's bottom
    svg_content = pypdf.PdfReader(with_svgs).pages[0].get_contents().get_data().decode("latin-1")
    # the SVG route sets the same box: WeasyPrint's transform to the image box precedes the drawing
    # in both
    place = re.compile(r"1 0 0 1 ([-\d.]+) ([-\d.]+) cm")
    assert place.findall(content)[:1] == place.findall(svg_content)[:1]
    scale = re.search(r"([-\d.]+) 0 0 -[-\d.]+ [-\d.]+ [-\d.]+ cm\s*/iccfig0_0 Do", content)[1]
    assert (
        f"{scale} 0 0 {scale} 0 0 cm" in svg_content
    )  # the SVG's viewBox (= MediaBox) at the same scale
    assert [p.extract_text() for p in pypdf.PdfReader(with_pdfs).pages][0].startswith("Figures")


def test_fallbacks_to_the_svg(tmp_path):
    """A figure without a PDF file, or whose PDF draws CID 0 (a ligature in a second subset), is
    drawn from its SVG."""
    _figure(tmp_path, "nopdf", pdf=False)
    _figure(tmp_path, "ligature", notdef_kept=False)
    _figure(tmp_path, "ok")
    with pytest.raises(ValueError, match="CID 0"):
        FigurePdf(tmp_path / "figures" / "ligature.pdf", FigureImages(tmp_path))
    target = _write(tmp_path, ["nopdf", "ligature", "ok"])
    assert sorted(_figure_xobjects(target)) == [0]
    page_validation = pytest.importorskip("page")
    assert page_validation.validate_pdf(target, profile="3b").is_compliant


def test_same_bytes_twice(tmp_path):
    _figure(tmp_path, "a")
    _figure(tmp_path, "b")
    one = _write(tmp_path, ["a", "b", "a"]).read_bytes()
    assert _write(tmp_path, ["a", "b", "a"]).read_bytes() == one


def test_identical_font_programs_are_embedded_once(tmp_path):
    """The build pads every figure's font subset to the same glyphs: two figures, one copy of each
    program."""
    _figure(tmp_path, "a")
    _figure(tmp_path, "b")
    xobjects = _figure_xobjects(_write(tmp_path, ["a", "b"]))
    programs = {}
    for xobject in xobjects.values():
        for font in xobject["/Resources"]["/Font"].values():
            ref = (
                font.get_object()["/DescendantFonts"][0]
                .get_object()["/FontDescriptor"]
                .raw_get("/FontFile2")
            )
            programs.setdefault(ref.get_object().get_data(), set()).add(ref.idnum)
    assert programs and all(len(ids) == 1 for ids in programs.values())
    assert sum(len(x["/Resources"]["/Font"]) for x in xobjects.values()) > len(programs)


def test_name_bytes_are_pypdfs_for_every_kind_of_name():
    import io

    from pypdf.generic import NameObject

    from ccreport.render.figure_pdfs import name_bytes

    names = [
        "/Type",
        "/F1-DejaVuSans",
        "/a#b",
        "/with space",
        "/(paren)",
        "/caf\u00e9",
        "/\u00e9t\u00e9",
        "/x/y",
        "/%",
        "/",
    ]
    for name in names + names:  # the second time from the cache
        buffer = io.BytesIO()
        NameObject(name).write_to_stream(buffer)
        assert name_bytes(name) == buffer.getvalue()
    assert sum(name_bytes(n) != n.encode() for n in names) >= 6  # the escapes are exercised


def _font_programs(pdf) -> list[bytes]:
    """The embedded TrueType programs of a figure PDF's fonts (pypdf reader or path)."""
    reader = pdf if isinstance(pdf, pypdf.PdfReader) else pypdf.PdfReader(pdf)
    return [
        font.get_object()["/DescendantFonts"][0]
        .get_object()["/FontDescriptor"]["/FontFile2"]
        .get_data()
        for font in (reader.pages[0]["/Resources"].get("/Font") or {}).values()
    ]


def _ligature_figure():
    from matplotlib.figure import Figure

    fig = Figure(figsize=(3, 2))
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], label="Difference of coefficients")
    ax.set_title("Difference, offset, flow")
    ax.legend()
    return fig


def test_text_is_drawn_without_ligatures_so_no_code_zero_glyph(tmp_path):
    """Ligatures (DejaVu's "ff", "fi", "fl") would open a second font subset whose glyphs count
    from code 0, read as .notdef by PDF/A; without_ligatures draws single-line text without them:
    one font, no code 0, and report.pdf draws the figure from its PDF. The SVG is unchanged."""
    from ccreport.render.figure_files import without_ligatures
    from ccreport.render.figure_pdfs import draws_cid_zero, page_fonts

    fonts, svgs = {}, {}
    for plain in (False, True):
        with F.style():
            fig = _ligature_figure()
            if plain:
                without_ligatures(fig)
            fig.savefig(tmp_path / f"{plain}.pdf", format="pdf", metadata=SAVE_METADATA["pdf"])
            fig.savefig(tmp_path / f"{plain}.svg", format="svg", metadata=SAVE_METADATA["svg"])
        fonts[plain] = page_fonts(pypdf.PdfReader(tmp_path / f"{plain}.pdf").pages[0])
        svgs[plain] = (tmp_path / f"{plain}.svg").read_bytes()
    assert any(draws_cid_zero(font) for _, font in fonts[False])  # the control: ligatures do
    assert len(fonts[True]) == 1 and not draws_cid_zero(fonts[True][0][1])
    assert svgs[True] == svgs[False]
    FigurePdf(tmp_path / "True.pdf", FigureImages(tmp_path))  # accepted for report.pdf


def test_split_pages_keep_each_figures_own_resources_and_the_shared_fonts(tmp_path):
    """Two figures drawn as one PdfPages document and split: each file keeps the resources its
    own content names (the rasterized image only in the first), both the document's one font
    program; the same bytes twice."""
    import io

    import numpy as np
    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.figure import Figure

    from ccreport.render.figure_files import split_pages

    def document() -> bytes:
        buffer = io.BytesIO()
        with F.style(), PdfPages(buffer, metadata=SAVE_METADATA["pdf"]) as pages:
            first = Figure(figsize=(3, 2))
            ax = first.add_subplot()
            ax.imshow(np.arange(12.0).reshape(3, 4), rasterized=True)
            ax.set_title("alpha 0.25")
            pages.savefig(first)
            second = Figure(figsize=(3, 2))
            second.add_subplot().plot([0, 1], [1, 0], "o-")
            second.axes[0].set_title("beta")
            pages.savefig(second)
        return buffer.getvalue()

    targets = [tmp_path / "first.pdf", tmp_path / "second.pdf"]
    split_pages(document(), targets)
    first, second = (t.read_bytes() for t in targets)
    split_pages(document(), targets)
    assert [t.read_bytes() for t in targets] == [first, second]

    def images(path):
        xobjects = pypdf.PdfReader(path).pages[0]["/Resources"].get("/XObject") or {}
        return sum(x.get_object().get("/Subtype") == "/Image" for x in xobjects.values())

    assert images(targets[0]) == 1 and images(targets[1]) == 0
    assert _font_programs(targets[0]) == _font_programs(targets[1]) != []
    for target in targets:  # every resource kept is named by the page's content
        page = pypdf.PdfReader(target).pages[0]
        content = page.get_contents().get_data()
        for kind in ("/Font", "/XObject", "/ExtGState"):
            for name in page["/Resources"].get(kind) or {}:
                assert re.search(re.escape(name.encode()) + rb"[\s/\[<(]", content), (kind, name)
        assert pypdf.PdfReader(target).pages[0].mediabox.width == 216  # 3 in


def test_font_chunks_are_runs_of_one_group():
    from types import SimpleNamespace

    from ccreport.render.figure_files import FIGURES_PER_DOCUMENT, font_chunks

    n = FIGURES_PER_DOCUMENT
    stems = [f"figures/overview/{i}" for i in range(2)]
    stems += [f"figures/a/{i}" for i in range(2 * n + 3)] + [f"figures/b/x/{i}" for i in range(n)]
    tasks = [SimpleNamespace(stem=s) for s in stems]
    chunks = font_chunks(tasks)
    a = 2 * n + 3  # three runs whose lengths differ by at most one (15, 14, 14 for n = 20)
    assert [len(c) for c in chunks] == [2, a - 2 * (a // 3), a // 3, a // 3, n]
    assert [t for c in chunks for t in c] == tasks
    assert all(len({t.stem.split("/")[1] for t in c}) == 1 for c in chunks)


@pytest.mark.slow
def test_figure_pdfs_share_their_chunks_fonts_for_any_workers_and_groups(tmp_path, monkeypatch):
    """With the speedups off, the figure PDF files of a chunk (font_chunks) embed one font program
    (not one subset per figure), and every PDF is the same bytes drawn by one worker, by two, or
    with its group alone (the cache's redraw of one dataset)."""
    from site_fixtures import synthetic_results

    from ccreport.render.figure_files import font_chunks, group_of, write_figures

    monkeypatch.setenv("CCREPORT_SPEEDUPS", "0")
    results = synthetic_results(("a1", "b1", "c1"))
    one = write_figures(results, tmp_path / "one", workers=1, focus=False)
    write_figures(results, tmp_path / "two", workers=2, focus=False)
    group = next(group_of(e) for e in one.values() if not group_of(e).endswith("overview"))
    alone = write_figures(results, tmp_path / "alone", workers=1, focus=False, groups=[group])

    def pdfs(folder):
        return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*.pdf")}

    drawn = pdfs(tmp_path / "one")
    assert len(drawn) == len(one) and pdfs(tmp_path / "two") == drawn
    assert alone and all(
        drawn[e["pdf"]] == pdfs(tmp_path / "alone")[e["pdf"]] for e in alone.values()
    )
    programs = {p for path in (tmp_path / "one").rglob("*.pdf") for p in _font_programs(path)}
    n_chunks = len(font_chunks([type("T", (), {"stem": e["pdf"]}) for e in one.values()]))
    assert len(programs) <= 2 * n_chunks < len(drawn)


def test_a_second_subset_is_renumbered_from_one_in_the_split_files(tmp_path):
    """A two-line text keeps its ligatures (matplotlib draws each line without the text's font
    features), so its "ff" opens a second subset counted from code 0 (.notdef to PDF/A). The split
    file renumbers that font from 1: no font draws code 0, the text still reads "Difference" and
    "offset", and report.pdf draws the figure from its PDF, valid PDF/A-3b."""
    import io

    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.figure import Figure

    from ccreport.render.figure_files import split_pages, without_ligatures
    from ccreport.render.figure_pdfs import draws_cid_zero, page_fonts

    buffer = io.BytesIO()
    (tmp_path / "figures").mkdir()
    with F.style(), PdfPages(buffer, metadata=SAVE_METADATA["pdf"]) as pages:
        for title in ("plain", "Difference (ff)\noffset fi fl (x)"):
            fig = Figure(figsize=(3, 2))
            fig.add_subplot().set_title(title)
            without_ligatures(fig)
            fig.savefig(tmp_path / "figures" / f"{len(title)}.svg", format="svg")
            pages.savefig(fig)
    original = pypdf.PdfReader(io.BytesIO(buffer.getvalue()))
    assert any(draws_cid_zero(font) for _, font in page_fonts(original.pages[1]))  # the control
    targets = [tmp_path / "figures" / "5.pdf", tmp_path / "figures" / "32.pdf"]
    split_pages(buffer.getvalue(), targets)
    for target in targets:
        assert not any(
            draws_cid_zero(font) for _, font in page_fonts(pypdf.PdfReader(target).pages[0])
        )
    text = pypdf.PdfReader(targets[1]).pages[0].extract_text()
    letters = "".join(text.split())  # pypdf versions differ in the spaces they infer
    assert "Difference(ff)" in letters and "offsetfifl(x)" in letters
    assert text == original.pages[1].extract_text()
    report = _write(tmp_path, ["5", "32"])
    assert len(_figure_xobjects(report)) == 2  # both from their PDF files
    page = pytest.importorskip("page")
    assert page.validate_pdf(report, profile="3b").is_compliant


def test_literal_strings_read_back_as_matplotlib_wrote_them():
    """unescape_literal inverts pdfRepr of bytes (escaped parentheses, backslashes, CR, LF)
    and reads the other escapes of ISO 32000-1 7.3.4.2."""
    import numpy as np
    from matplotlib.backends.backend_pdf import pdfRepr

    from ccreport.render.figure_files import unescape_literal

    rng = np.random.default_rng(3)
    for n in (0, 1, 2, 17, 256):
        data = rng.integers(0, 256, n, dtype=np.uint8).tobytes() + bytes(range(256))
        assert unescape_literal(pdfRepr(data)[1:-1]) == data
    assert (
        unescape_literal(
            rb"a\101\t\0b\\\)\(\
c"
        )
        == b"aA\t\x00b\\)(c"
    )
