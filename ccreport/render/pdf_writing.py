"""What typesetting report.pdf costs, cut without changing what WeasyPrint lays out or draws.

Five measures, each measured on the example's report.pdf (benchmarks/README.md, "PDF stage,
session 10"):

* :func:`ccreport.collector.collector_paused` (render/pdf.py uses it around WeasyPrint): Python's
  cyclic garbage collector is paused while WeasyPrint builds, lays out and writes the document.
* :func:`deflate_streams`: pydyf deflates every stream at zlib level 9 *each time* its bytes are
  asked for, and with a document identifier (``pdf_identifier``) it asks twice: once to write the
  object, once for the MD5 of all objects that becomes the ID. Here every stream still to be
  compressed is deflated once, at :data:`STREAM_LEVEL`, and handed to pydyf as already filtered
  bytes; the reader inflates the same content.
* :func:`memoized_bytes`: the other objects (about 15,000 dictionaries of the structure tree, the
  pages, annotations) are serialised once: their ``data`` is kept on first use, after the
  finisher's last change, so the identifier's second pass reads what the first wrote.

* :func:`page_references_kept`: WeasyPrint's tagging asks ``pdf.page_references`` (a tuple naming
  every page) for each of about 14,000 structure elements, and pydyf builds the tuple anew each time;
  while the context is active the tuple is kept per document until a page is added.

* :func:`shared_font_descriptions`: every Pango layout WeasyPrint makes (about 18,000 for the
  example: each text box is laid out, then made again to be drawn) builds a Pango font description
  from the same seven style values; while the context is active one description per set of values
  is built and shared (Pango copies a description into the layout it is set on).

Nothing here changes a page: the content streams carry the same operators; the file's bytes
differ from an unpatched WeasyPrint only in the deflated streams (and so the ID), and stay the
same from build to build.
"""

from __future__ import annotations

import threading
import zlib
from contextlib import contextmanager

STREAM_LEVEL = 6  # zlib level of the PDF's own streams (pydyf's: 9; 6 is zlib's default)

_references_lock = threading.Lock()
_references_users = 0
_references_original = None


def _kept_page_references(pdf):
    kids = pdf.pages["Kids"]
    kept = pdf.__dict__.get("_ccreport_page_references")
    if kept is None or kept[0] is not kids or kept[1] != len(kids):
        kept = pdf.__dict__["_ccreport_page_references"] = (kids, len(kids), _references_original.fget(pdf))
    return kept[2]


@contextmanager
def page_references_kept():
    """While active, ``pydyf.PDF.page_references`` is computed once per document and number of pages
    (the same tuple pydyf would build; see the module docstring)."""
    import pydyf

    global _references_users, _references_original
    with _references_lock:
        if _references_users == 0:
            _references_original = pydyf.PDF.__dict__["page_references"]
            pydyf.PDF.page_references = property(_kept_page_references)
        _references_users += 1
    try:
        yield
    finally:
        with _references_lock:
            _references_users -= 1
            if _references_users == 0:
                pydyf.PDF.page_references = _references_original


def deflate_streams(pdf, level: int = STREAM_LEVEL) -> None:
    """Deflate, once and at ``level``, every stream of ``pdf`` that pydyf would deflate as it writes
    (see :func:`deflate_stream`)."""
    for obj in pdf.objects:
        deflate_stream(obj, level)


def deflate_stream(obj, level: int = STREAM_LEVEL) -> None:
    """If ``obj`` is a stream pydyf would deflate as it writes (``compress`` set, no ``/Filter``):
    join its items as pydyf joins them, deflate them at ``level`` and make it a stream pydyf writes
    as it is, with ``/Filter /FlateDecode``. Anything else is left alone."""
    import pydyf

    if not isinstance(obj, pydyf.Stream) or not obj.compress or "Filter" in obj.extra:
        return
    raw = b"\n".join(item_bytes(item) for item in obj.stream)
    obj.stream = [zlib.compress(raw, level)]
    obj.extra["Filter"] = "/FlateDecode"
    obj.compress = False


def item_bytes(item) -> bytes:
    """One item of a pydyf stream as pydyf 0.13 writes it (``pydyf._to_bytes``; a test compares the two)."""
    import pydyf

    if isinstance(item, bytes):
        return item
    if isinstance(item, float):
        return str(int(item)).encode("ascii") if item.is_integer() else f"{item:f}".rstrip("0").encode("ascii")
    if isinstance(item, pydyf.Object):
        return item.data
    return str(item).encode("ascii")


class _Memo:
    """Mixin for pydyf objects: ``data`` computed once, then kept."""

    @property
    def data(self):
        try:
            return self.__dict__["_ccreport_data"]
        except KeyError:
            out = self.__dict__["_ccreport_data"] = super().data
            return out


_MEMO_CLASSES: dict[type, type] = {}


def _memo_class(cls: type) -> type:
    if cls not in _MEMO_CLASSES:
        _MEMO_CLASSES[cls] = type(f"Memo{cls.__name__}", (_Memo, cls), {})
    return _MEMO_CLASSES[cls]


def memoized_bytes(pdf) -> None:
    """From now on each object of ``pdf`` is serialised once (call after its last change: the
    ``write_pdf`` finisher's last step). Objects pydyf adds while writing (the info dictionary, its
    object stream of all small objects, the cross-reference stream), each complete when added, are
    deflated by :func:`deflate_stream` and serialised once too."""
    for obj in pdf.objects:
        _memoize(obj)
    add_object = pdf.add_object  # possibly already wrapped (ccreport.render.pdfa)

    def add(obj):
        add_object(obj)
        deflate_stream(obj)
        _memoize(obj)

    pdf.add_object = add


def _memoize(obj) -> None:
    if not isinstance(obj, _Memo):
        try:
            obj.__class__ = _memo_class(type(obj))
        except TypeError:  # pragma: no cover - a class whose layout forbids it: serialised as before
            pass


def _font_description_key(style) -> tuple:
    """The style values ``weasyprint.text.fonts.get_font_description`` reads, hashable."""
    variations = style["font_variation_settings"]
    return (
        tuple(style["font_family"]), style["font_style"], style["font_stretch"], style["font_weight"],
        style["font_size"], style["font_variant_caps"],
        variations if isinstance(variations, str) else tuple(tuple(v) for v in variations),
    )


@contextmanager
def shared_font_descriptions():
    """While active, WeasyPrint's text layouts share one Pango font description per set of font
    style values (module docstring): ``weasyprint.text.line_break.get_font_description`` memoised.
    The descriptions are read-only to their users (``pango_layout_set_font_description`` copies the
    one it is given), so every layout gets the font it would have got."""
    try:
        import weasyprint.text.line_break as line_break

        original = line_break.get_font_description
    except (ImportError, AttributeError):  # pragma: no cover - another WeasyPrint: nothing patched
        yield
        return
    kept: dict = {}

    def get_font_description(style):
        try:
            key = _font_description_key(style)
        except (KeyError, TypeError):  # pragma: no cover - an unexpected style: WeasyPrint's own
            return original(style)
        description = kept.get(key)
        if description is None:
            description = kept[key] = original(style)
        return description

    line_break.get_font_description = get_font_description
    try:
        yield
    finally:
        line_break.get_font_description = original
