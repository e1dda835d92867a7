"""PDF/A-3 repairs of WeasyPrint 70's output, applied as a ``write_pdf`` finisher.

WeasyPrint writes ``pdf_variant="pdf/a-3b"`` documents that a PDF/A validator (the ``page``
validator, which passes the veraPDF corpus; see tests/render/test_pdf.py) rejects for four reasons,
each repaired here on the ``pydyf.PDF`` before it is written:

* the catalog's ``/AF`` array lists every attachment twice (once from the ``EmbeddedFiles`` name
  tree, once from the object scan): each entry is kept once, in order;
* the XMP metadata stream is compressed, and ISO 19005-3 clause 6.6.2.1 forbids a ``Filter`` on the
  catalog's metadata stream: it is written uncompressed;
* images drawn from the figures' SVG (the dense artists matplotlib rasterized) carry
  ``/Interpolate true``, which clause 6.2.8 forbids: it is set to false;
* a stream whose data ends with a carriage return is followed by pydyf's ``\\nendstream``, so a
  reader takes ``\\r\\n`` for the end-of-line marker and finds the stream one byte shorter than its
  ``/Length`` (clause 6.1.7.1): such a stream gets ``\\r\\n`` before ``endstream``, the data and
  ``/Length`` unchanged. That holds for the cross-reference stream too, which pydyf makes while
  writing (after the finisher): ``pdf.add_object`` is wrapped so that it gets the same ending.

Each repair leaves the content as drawn; each is a no-op where WeasyPrint already complies.

One more change is about cost, not conformance: pydyf deflates every stream at zlib level 9, which
for the attached archive (results.json and the project's data files: a 10^7-row CSV is
about 340 MB) costs about 14 CPU s per 100 MB of CSV text against 1 s at level 1, for 39% against
45% of the size (Parquet data is already compressed: 8 against 5 CPU s for 218 MB, 78% either
way); benchmarks/README.md, "n = 10^7 ... per phase". Embedded files are therefore deflated at
:data:`EMBEDDED_FILE_LEVEL`; the stream is the same ``/FlateDecode`` stream a reader inflates to the
same bytes.
"""

from __future__ import annotations

import zlib

_ENDSTREAM = b"\nendstream"
EMBEDDED_FILE_LEVEL = 1  # zlib level of attached files (pydyf's own: 9)


class _EolSafe:
    """Mixin for pydyf streams: ``\\r\\n`` rather than ``\\n`` before ``endstream`` after data
    ending in ``\\r``."""

    @property
    def data(self):
        out = super().data
        if out.endswith(
            b"\r" + _ENDSTREAM
        ):  # checked without copying the (often megabytes of) data
            return out[: -len(_ENDSTREAM)] + b"\r" + _ENDSTREAM
        return out


_EOL_SAFE_CLASSES: dict[type, type] = {}


def _eol_safe(cls: type) -> type:
    if cls not in _EOL_SAFE_CLASSES:
        _EOL_SAFE_CLASSES[cls] = type(f"EolSafe{cls.__name__}", (_EolSafe, cls), {})
    return _EOL_SAFE_CLASSES[cls]


def unique_associated_files(pdf) -> None:
    """Keep each entry of the catalog's ``/AF`` array once, in order."""
    import pydyf

    associated = pdf.catalog.get("AF")
    if associated is None:
        return
    seen, kept = set(), []
    for entry in associated:
        key = str(entry)
        if key not in seen:
            seen.add(key)
            kept.append(entry)
    pdf.catalog["AF"] = pydyf.Array(kept)


def _object(pdf, reference):
    """The object a reference such as ``b"12 0 R"`` names (None if it is not one)."""
    try:
        return pdf.objects[
            int(str(reference.decode() if isinstance(reference, bytes) else reference).split()[0])
        ]
    except (ValueError, IndexError, AttributeError):
        return None


def pdfa_repairs(document, pdf) -> None:
    """The WeasyPrint finisher: every repair of the module docstring, on ``pdf``
    (a ``pydyf.PDF``)."""
    import pydyf

    unique_associated_files(pdf)
    metadata = _object(pdf, pdf.catalog.get("Metadata"))
    if isinstance(metadata, pydyf.Stream):
        metadata.compress = False
    for obj in pdf.objects:
        if not isinstance(obj, pydyf.Stream):
            continue
        if obj.extra.get("Subtype") == "/Image" and "Interpolate" in obj.extra:
            obj.extra["Interpolate"] = "false"
        if obj.extra.get("Type") == "/EmbeddedFile":
            deflate_embedded_file(obj)
        if not isinstance(obj, _EolSafe):
            obj.__class__ = _eol_safe(type(obj))
    eol_safe_later_streams(pdf)


def eol_safe_later_streams(pdf) -> None:
    """Streams added to ``pdf`` from now on (pydyf's cross-reference stream, made in ``pdf.write``)
    end as the module docstring says."""
    import pydyf

    add_object = pdf.add_object

    def add(obj):
        if isinstance(obj, pydyf.Stream) and not isinstance(obj, _EolSafe):
            obj.__class__ = _eol_safe(type(obj))
        add_object(obj)

    pdf.add_object = add


def deflate_embedded_file(stream) -> None:
    """Deflate an attached file's stream at :data:`EMBEDDED_FILE_LEVEL` now, in place of pydyf's
    level 9 when it writes (a no-op on an uncompressed stream or one not holding one bytes item)."""
    if not stream.compress or len(stream.stream) != 1 or not isinstance(stream.stream[0], bytes):
        return
    stream.stream = [zlib.compress(stream.stream[0], EMBEDDED_FILE_LEVEL)]
    stream.extra["Filter"] = "/FlateDecode"
    stream.compress = False
