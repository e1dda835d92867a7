"""ccreport.render.pdf_writing: the PDF stage's cost cuts change no content and restore what they pause."""

import contextlib
import io
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pydyf = pytest.importorskip("pydyf")

from ccreport.render.pdf_writing import (  # noqa: E402
    STREAM_LEVEL,
    deflate_stream,
    deflate_streams,
    item_bytes,
    memoized_bytes,
    page_references_kept,
    shared_font_descriptions,
    text_layouts_kept,
)


def small_pdf(pages: int = 3):
    pdf = pydyf.PDF()
    for i in range(pages):
        content = pydyf.Stream([b"BT", f"/F1 {10 + i} Tf".encode(), 1.5, "(x) Tj", b"ET"], compress=True)
        pdf.add_object(content)
        pdf.add_page(pydyf.Dictionary({"Type": "/Page", "Parent": pdf.pages.reference, "Contents": content.reference,
                                       "MediaBox": pydyf.Array([0, 0, 200, 200])}))
    pdf.add_object(pydyf.Stream([b"already"], pydyf.Dictionary({"Filter": "/ASCIIHexDecode"}), compress=True))
    pdf.add_object(pydyf.Stream([b"plain"], compress=False))
    return pdf


def written(pdf) -> bytes:
    out = io.BytesIO()
    pdf.write(out, identifier=b"test", compress=True)
    return out.getvalue()


def test_deflate_stream_is_pydyfs_content_at_the_chosen_level():
    stream = pydyf.Stream([b"BT", "/F1 9 Tf", 2.0, 0.25, b"ET"], compress=True)
    raw = b"BT\n/F1 9 Tf\n2\n0.25\nET"  # pydyf's join of the same items
    items = [b"BT", "/F1 9 Tf", 2.0, 0.25, b"ET", 3, -1.125, 1e-7, pydyf.Array([1, 2.5]), pydyf.String("a")]
    assert pydyf.Stream(list(items)).data == pydyf.Stream([b"\n".join(item_bytes(i) for i in items)]).data
    deflate_stream(stream)
    assert stream.compress is False and stream.extra["Filter"] == "/FlateDecode"
    assert stream.stream == [zlib.compress(raw, STREAM_LEVEL)]
    assert zlib.decompress(stream.stream[0]) == raw
    filtered = pydyf.Stream([b"x"], pydyf.Dictionary({"Filter": "/ASCIIHexDecode"}), compress=True)
    deflate_stream(filtered)  # has its own filter: untouched
    assert filtered.stream == [b"x"] and filtered.compress is True
    plain = pydyf.Stream([b"y"], compress=False)
    deflate_stream(plain)
    assert plain.stream == [b"y"] and "Filter" not in plain.extra


def test_memoized_bytes_write_the_same_file_and_serialise_once():
    a, b = small_pdf(), small_pdf()
    deflate_streams(a)
    add_object = a.add_object

    def add(obj):  # the streams pydyf adds while writing, deflated as memoized_bytes deflates them
        add_object(obj)
        deflate_stream(obj)

    a.add_object = add
    deflate_streams(b)
    memoized_bytes(b)
    assert written(a) == written(b)
    page = b.objects[-3]
    first = page.data
    assert page.data is first  # kept, not rebuilt


def test_memoized_streams_inflate_to_pydyfs_content():
    import pypdf

    pdf = small_pdf()
    deflate_streams(pdf)
    memoized_bytes(pdf)
    reader = pypdf.PdfReader(io.BytesIO(written(pdf)))
    assert len(reader.pages) == 3
    assert reader.pages[2].get_contents().get_data() == b"BT\n/F1 12 Tf\n1.5\n(x) Tj\nET"


def test_page_references_kept_equal_pydyfs_and_follow_new_pages():
    original = pydyf.PDF.__dict__["page_references"]
    pdf = small_pdf(2)
    expected = pdf.page_references
    with page_references_kept():
        with page_references_kept():
            assert pdf.page_references == expected
            assert pdf.page_references is pdf.page_references
        pdf.add_page(pydyf.Dictionary({"Type": "/Page"}))
        assert pdf.page_references == expected + (pdf.objects[-1].reference,)
    assert pydyf.PDF.__dict__["page_references"] is original


DOCUMENT = """<!DOCTYPE html><html><head><style>
body { font-family: DejaVu Sans, sans-serif; font-size: 10pt }
h1 { font-size: 16pt; font-weight: bold } em { font-style: italic } .caps { font-variant-caps: small-caps }
.wide { font-stretch: expanded; letter-spacing: 0.1em } table td { font-size: 8pt }
</style></head><body><h1>Title</h1><p>Plain <em>italic</em> <strong>bold</strong> <span class="caps">Caps</span>
<span class="wide">wide</span></p><table><tbody><tr><td>0.1234</td><td>0.5678</td></tr></tbody></table>
<p>Plain again, and <em>italic again</em>.</p></body></html>"""


def _pdf(patched: bool) -> bytes:
    from ccreport.render.weasyprint_import import import_weasyprint

    weasyprint = import_weasyprint()
    with shared_font_descriptions() if patched else contextlib.nullcontext():
        return weasyprint.HTML(string=DOCUMENT).write_pdf(pdf_identifier=b"test")


def test_shared_font_descriptions_draw_the_same_pdf_with_one_description_per_font(monkeypatch):
    import weasyprint.text.line_break as line_break

    plain = _pdf(patched=False)
    made = []
    original = line_break.get_font_description
    monkeypatch.setattr(line_break, "get_font_description", lambda style: made.append(1) or original(style))
    counting = line_break.get_font_description
    assert _pdf(patched=True) == plain
    assert line_break.get_font_description is counting  # restored on exit
    fonts = len(made)
    made.clear()
    _pdf(patched=False)
    assert 0 < fonts <= 8 < len(made)  # one per distinct font (body, h1, em, strong, caps, wide, cells) vs one per layout


# Text that takes each of text_layouts_kept's paths: kept (plain text, table cells, a header row repeated
# on each page, leader dots drawn many times from one layout) and WeasyPrint's own (justified lines,
# letter and word spacing, pre-formatted lines with tabs and blank lines, ellipses, line clamps,
# forced word breaks, hyphenation, right-to-left text, decorations)
KEPT_CASES = {
    "justify": ("p{text-align:justify;width:200pt}", "<p>" + "lorem ipsum dolor sit amet consectetur " * 12 + "</p>"),
    "letter spacing": ("p{letter-spacing:0.1em}", "<p>spaced letters here and there</p>" * 4),
    "word spacing": ("p{word-spacing:3pt}", "<p>spaced words here and there</p>" * 4),
    "pre": ("pre{white-space:pre-wrap}", "<pre>line one\nline two\ttabbed\n\nafter a blank " + "long " * 40 + "</pre>"),
    "ellipsis": ("div{width:60pt;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}", "<div>a very long line that overflows</div>" * 3),
    "clamp": ("div{width:80pt;overflow:hidden;line-clamp:2}", "<div>" + "clamped text many words " * 8 + "</div>"),
    "break word": ("div{width:40pt;overflow-wrap:break-word}", "<div>supercalifragilisticexpialidocious and more</div>"),
    "leaders": ("a::after{content:leader('.') ' 12'} li{list-style:none}", "<ul>" + "<li><a>Entry</a></li>" * 5 + "</ul>"),
    "narrow cells": ("td{width:20pt}", "<table><tr>" + "<td>wide words in narrow cells</td>" * 6 + "</tr></table>"),
    "hyphens": ("p{hyphens:auto;width:60pt}", "<p lang='en'>internationalization representative hyphenation</p>"),
    "rtl": ("", "<p dir='rtl'>\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd and mixed text</p>"),
    "decorations": ("span{text-decoration:underline line-through}", "<p><span>decorated text spanning</span> plain</p>" * 5),
    "repeated header": (
        "@page{size:A6} thead{display:table-header-group}",
        "<table><thead><tr><th>head a</th><th>head b</th></tr></thead>" + "<tr><td>row</td><td>cell</td></tr>" * 60 + "</table>",
    ),
}


def _kept_pdf(css: str, body: str, patched: bool) -> bytes:
    import weasyprint

    html = f"<html><head><style>body{{font-family:DejaVu Sans;font-size:10pt}} {css}</style></head><body>{body}</body></html>"
    with text_layouts_kept() if patched else contextlib.nullcontext():
        return weasyprint.HTML(string=html).write_pdf(pdf_identifier=b"test")


@pytest.mark.parametrize("case", sorted(KEPT_CASES))
def test_text_layouts_kept_draw_the_same_pdf(case):
    css, body = KEPT_CASES[case]
    assert _kept_pdf(css, body, patched=True) == _kept_pdf(css, body, patched=False)


WORDS = st.sampled_from(["alpha", "beta", "\u03b3\u03ac\u03bc\u03bc\u03b1", "fi", "ffl", "\u2014", "0.123", "x\u00b2", "quite-long-hyphenated-word", "\u00a0"])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(20, 300), st.lists(WORDS, min_size=1, max_size=30)), min_size=1, max_size=8))
def test_text_layouts_kept_draw_the_same_pdf_for_random_paragraphs(paragraphs):
    body = "".join(f"<p style='width:{w}pt'>{' '.join(words)}</p>" for w, words in paragraphs)
    assert _kept_pdf("", body, patched=True) == _kept_pdf("", body, patched=False)


def test_text_layouts_kept_skip_remaking_layouts_and_restore_weasyprint(monkeypatch):
    import weasyprint.draw.text as draw_text
    import weasyprint.text.line_break as line_break

    originals = (line_break.Layout.deactivate, line_break.Layout.reactivate, line_break.Layout.set_text, draw_text.draw_first_line)
    remade = []
    reactivate = line_break.Layout.reactivate
    monkeypatch.setattr(line_break.Layout, "reactivate", lambda self, style: remade.append(1) or reactivate(self, style))
    css, body = KEPT_CASES["leaders"]
    _kept_pdf(css, body + "<p>plain text</p>" * 20, patched=False)
    unpatched = len(remade)
    remade.clear()
    counting = line_break.Layout.reactivate
    _kept_pdf(css, body + "<p>plain text</p>" * 20, patched=True)
    assert unpatched > 100 and remade == []  # every box drawn from the layout it was laid out with
    assert line_break.Layout.reactivate is counting
    assert (line_break.Layout.deactivate, line_break.Layout.set_text, draw_text.draw_first_line) == (originals[0], originals[2], originals[3])
