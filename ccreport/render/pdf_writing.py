"""What typesetting report.pdf costs, cut without changing what WeasyPrint lays out or draws.

Six measures, each measured on the example's report.pdf (benchmarks/README.md, "PDF stage,
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

* :func:`text_layouts_kept`: WeasyPrint frees each text box's Pango layout once the box is laid out
  (``Layout.deactivate``) and makes and shapes it anew, from the same style and text, each time the
  box is drawn (``Layout.reactivate``: a Pango context, font description, layout, attributes; 11,939
  times for the example, 5,500 of them the table of contents' leader dots, which share one layout
  per entry). While the context is active a plain layout (no justification, word or letter
  spacing, forced word breaks, tabs or paragraph separators) is kept, lines and all, from its box's
  layout through every drawing of it: the example's text drawing 0.88 -> 0.54 s, report.pdf
  byte-identical, peak memory the same within 4 MB.

Nothing here changes a page: the content streams carry the same operators; the file's bytes
differ from an unpatched WeasyPrint only in the deflated streams (and so the ID), and stay the
same from build to build.
"""

from __future__ import annotations

import zlib
from contextlib import contextmanager

from .shared_patch import SharedPatch

STREAM_LEVEL = 6  # zlib level of the PDF's own streams (pydyf's: 9; 6 is zlib's default)

_references_patch = SharedPatch()
_references_original = None  # pydyf's page_references property, while patched


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

    def apply():
        global _references_original
        _references_original = original = pydyf.PDF.__dict__["page_references"]
        pydyf.PDF.page_references = property(_kept_page_references)

        def undo():
            pydyf.PDF.page_references = original

        return undo

    with _references_patch.applied(apply):
        yield


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


# What Pango reads as the end of a paragraph (pango_find_paragraph_boundary), and other separators, to be safe
_PARAGRAPH_SEPARATORS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def _plain_style(layout) -> bool:
    """Whether ``Layout.set_text`` adds no attributes to this layout (no justification spacing, word or
    letter spacing, forced word breaks) and WeasyPrint leaves Pango's wrap mode alone (it sets
    character wrapping only for ``overflow-wrap``)."""
    style = layout.style
    letter_spacing = style["letter_spacing"]
    return (
        not layout.justification_spacing
        and not style["word_spacing"]
        and (letter_spacing == "normal" or not letter_spacing)
        and style["overflow_wrap"] not in ("anywhere", "break-word")
    )


def _one_paragraph(text: str) -> bool:
    """Whether ``text`` is one paragraph for Pango, without tabs (tabs set a tab array)."""
    return "\t" not in text and _PARAGRAPH_SEPARATORS.isdisjoint(text)


@contextmanager
def text_layouts_kept():
    """While active, a plain text layout (module docstring) is kept, with its lines as Pango computed
    them, from the end of its box's layout through every drawing of the box (a leader's dots and a
    repeated table header draw one layout many times); it is freed with its box.

    WeasyPrint draws a text box's first line from a layout made anew (``Layout.reactivate``: style,
    text, unlimited width; then single-paragraph mode). A kept layout differs from that one only in
    ways that cannot move a glyph: its single-paragraph mode is set as soon as its text is (for text
    without paragraph separators the mode changes nothing, and set before drawing it does not make
    Pango lay the text out again), and its width may be the box's (a text that is one line is the
    same line at any width; a layout of several lines gets the unlimited width back). Anything else
    takes WeasyPrint's own path: a style that adds spacing attributes or wraps by characters, a text
    with tabs or paragraph separators, another style object at drawing, and a layout once an
    ellipsis was drawn into it (``draw_first_line`` changes its text or width)."""
    try:
        from weasyprint.draw import text as draw_text
        from weasyprint.text import line_break
        from weasyprint.text.ffi import ffi, pango

        layout_class = line_break.Layout
        deactivate, reactivate, set_text = layout_class.deactivate, layout_class.reactivate, layout_class.set_text
        draw_first_line = draw_text.draw_first_line
    except (ImportError, AttributeError):  # pragma: no cover - another WeasyPrint: nothing patched
        yield
        return

    def kept_set_text(self, text, justify=False):
        set_text(self, text, justify)
        if _plain_style(self) and _one_paragraph(self.text):
            pango.pango_layout_set_single_paragraph_mode(self.layout, True)  # as drawing sets it

    def kept_deactivate(self):
        state = self.__dict__.get("_ccreport_state")
        if state in (None, "drawing") and _plain_style(self) and _one_paragraph(self.text):
            self._ccreport_state = "kept"  # laid out, or drawn as it was laid out: kept for (another) drawing
            return
        self.__dict__.pop("_ccreport_state", None)
        deactivate(self)

    def kept_reactivate(self, style):
        if self.__dict__.get("_ccreport_state") == "kept" and self.style is style:
            if pango.pango_layout_get_line_readonly(self.layout, 1) != ffi.NULL:
                pango.pango_layout_set_width(self.layout, -1)  # several lines: laid out again, unlimited
            self._ccreport_state = "drawing"
            return
        if self.__dict__.pop("_ccreport_state", None) is not None:
            deactivate(self)
        reactivate(self, style)
        self._ccreport_state = "drawing"

    def kept_draw_first_line(stream, textbox, text_overflow, block_ellipsis, matrix):
        if text_overflow == "ellipsis" or block_ellipsis != "none":  # drawing changes the layout
            textbox.pango_layout._ccreport_state = "changed"
        return draw_first_line(stream, textbox, text_overflow, block_ellipsis, matrix)

    layout_class.set_text, layout_class.deactivate, layout_class.reactivate = kept_set_text, kept_deactivate, kept_reactivate
    draw_text.draw_first_line = kept_draw_first_line
    try:
        yield
    finally:
        layout_class.set_text, layout_class.deactivate, layout_class.reactivate = set_text, deactivate, reactivate
        draw_text.draw_first_line = draw_first_line
