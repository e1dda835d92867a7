"""report.pdf's content streams deflated once, before pydyf writes them.

pydyf (the PDF writer under WeasyPrint) deflates a stream marked ``compress`` at zlib level 9 each
time its bytes are asked for (``Stream.data``), and with a document identifier (render/pdf.py's
``pdf_identifier``) they are asked for twice: once to write the object, once for the MD5 of all
objects that becomes the file's ``/ID``. :func:`deflate_streams`, run from ``write_pdf``'s
finisher, deflates each such stream once, at :data:`STREAM_LEVEL`, and hands pydyf the deflated
bytes with their ``/FlateDecode`` filter and ``compress`` off, so both passes read them as they
are. A reader inflates the very bytes pydyf would have deflated: the page contents, fonts and
images are unchanged, and the same inputs still give the same file.
"""

from __future__ import annotations

import zlib

# zlib's own default: within a few per cent of level 9's size on report.pdf's streams (text
# operators, font programs), at a fraction of its time
STREAM_LEVEL = 6


def stream_bytes(stream) -> bytes:
    """The bytes pydyf writes for ``stream`` uncompressed: its items joined by newlines (numbers
    and strings as pydyf formats them), taken from a plain ``pydyf.Stream`` of the same items."""
    import pydyf

    data = pydyf.Stream(stream.stream, compress=False).data
    start = data.index(b"\nstream\n") + len(b"\nstream\n")
    return data[start : -len(b"\nendstream")]


def deflate_streams(pdf, level: int = STREAM_LEVEL) -> int:
    """Deflate, once, every stream of ``pdf`` (a ``pydyf.PDF``) that pydyf would deflate when
    writing, except attached files (:func:`ccreport.render.pdfa.deflate_embedded_file` deflates
    those at their own level). Returns how many streams were deflated."""
    import pydyf

    count = 0
    for obj in pdf.objects:
        if not isinstance(obj, pydyf.Stream) or not obj.compress:
            continue
        if obj.extra.get("Type") == "/EmbeddedFile":
            continue
        obj.stream = [zlib.compress(stream_bytes(obj), level)]
        obj.extra["Filter"] = "/FlateDecode"
        obj.compress = False
        count += 1
    return count
