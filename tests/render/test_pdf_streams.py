"""report.pdf's streams deflated once before pydyf writes them (ccreport.render.pdf_streams)."""

from __future__ import annotations

import io
import zlib

import pydyf
import pypdf
import pytest

from ccreport.render.pdf_streams import deflate_streams, stream_bytes


def written(pdf: pydyf.PDF) -> bytes:
    out = io.BytesIO()
    pdf.write(out, identifier=b"test")
    return out.getvalue()


def make_pdf() -> tuple[pydyf.PDF, dict[str, pydyf.Stream]]:
    pdf = pydyf.PDF()
    streams = {
        "content": pydyf.Stream([b"BT", 12, 3.5, "/F1 Tf", b"(text) Tj ET"] * 50, compress=True),
        "plain": pydyf.Stream([b"0 0 m 1 1 l S"], compress=False),
        "attached": pydyf.Stream([b"x" * 300], {"Type": "/EmbeddedFile"}, compress=True),
    }
    for stream in streams.values():
        pdf.add_object(stream)
    pages = pydyf.Dictionary({"Type": "/Pages", "Kids": pydyf.Array([]), "Count": 0})
    pdf.add_object(pages)
    pdf.catalog["Pages"] = pages.reference
    return pdf, streams


def test_stream_bytes_as_pydyf_writes_them():
    stream = pydyf.Stream([b"a b", 1, 2.5, "x\nendstream", b""])
    assert stream_bytes(stream) == b"a b\n1\n2.5\nx\nendstream\n"
    assert stream_bytes(pydyf.Stream([])) == b""


def test_same_content_deflated_once():
    plain_pdf, _ = make_pdf()
    before = written(plain_pdf)
    pdf, streams = make_pdf()
    raw = stream_bytes(streams["content"])
    assert deflate_streams(pdf) == 1  # the content; not the plain stream nor the attachment
    content = streams["content"]
    assert not content.compress and content.extra["Filter"] == "/FlateDecode"
    assert zlib.decompress(content.stream[0]) == raw
    assert streams["plain"].stream == [b"0 0 m 1 1 l S"] and "Filter" not in streams["plain"].extra
    assert streams["attached"].compress  # left to ccreport.render.pdfa
    after = written(pdf)
    # every stream reads back as the same bytes from both files
    old, new = pypdf.PdfReader(io.BytesIO(before)), pypdf.PdfReader(io.BytesIO(after))
    for number in range(1, len(pdf.objects)):
        a, b = old.get_object(number), new.get_object(number)
        if isinstance(a, pypdf.generic.StreamObject):
            assert a.get_data() == b.get_data()
    # a second call finds nothing left to deflate, and the same input gives the same bytes
    assert deflate_streams(pdf) == 0
    again, _ = make_pdf()
    deflate_streams(again)
    assert written(again) == after


@pytest.mark.parametrize("level", [1, 9])
def test_level(level):
    pdf, streams = make_pdf()
    raw = stream_bytes(streams["content"])
    deflate_streams(pdf, level)
    assert streams["content"].stream == [zlib.compress(raw, level)]
