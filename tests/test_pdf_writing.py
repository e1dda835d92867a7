"""ccreport.render.pdf_writing: the PDF stage's cost cuts change no content and restore what they pause."""

import io
import zlib

import pytest

pydyf = pytest.importorskip("pydyf")

from ccreport.render.pdf_writing import (  # noqa: E402
    STREAM_LEVEL,
    deflate_stream,
    deflate_streams,
    item_bytes,
    memoized_bytes,
    page_references_kept,
    shared_font_descriptions,
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
    import contextlib

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
