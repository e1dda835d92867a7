"""Replaces matplotlib's per-file text layout, tick updates, PDF glyph layout, font subsetting and
stream compression by memoised ones: about 4 CPU s of the example's figure stage.

Writing the report's figures (:mod:`ccreport.render.figure_files`: about 70 figures, each laid out
once and saved as SVG and as PDF) spends most of its time on things that are the same in every
file: laying out the same tick labels and legend entries with the same fonts, and subsetting,
serialising and re-parsing the same font program for every PDF. The context managers here
memoise that work for the duration of one ``write_figures`` call (one style, one theme). They
write the bytes matplotlib writes on its own (SVG files byte-identical), except that PDF font
subsets are padded (below). Each patches private matplotlib names, so the build enters them only
through :func:`shared_work` and :func:`tick_updates`, which do nothing unless
``ccreport.speedups.active`` allows it for the installed matplotlib (:data:`WRITTEN_FOR`).

* :func:`shared_font_programs` - a PDF embeds a subset of each font it uses (``pdf.fonttype: 42``,
  TrueType), built by fontTools (about 0.1 s a subset for DejaVu Sans), saved to bytes, parsed
  again. Every subset is padded to the glyphs of :data:`BASE_CHARS` and its final bytes are kept:
  a figure asking for a subset seen before gets those bytes without touching fontTools: two
  fontTools runs for the example's 124 embedded subsets (DejaVu Sans, and its oblique for mathtext).
* :func:`shared_stream_compression` - the font programs and CIDToGIDMaps those figures embed are
  the same bytes in most files; each large stream is compressed once per content.
* :func:`shared_text_layouts` - ``Text._get_layout`` (the size and line positions of a text
  artist, measured with the renderer's font metrics) is a pure function of the text, its font
  properties, alignment, rotation, line spacing, the figure's dpi and the kind of renderer
  measuring it; matplotlib memoises only the metrics, per renderer *instance*, so each figure's
  layout pass and each file measured "0.2", "0.4", ... again. Here layouts are shared by every
  renderer of the same class and dpi.
* :func:`shared_pdf_glyph_layouts` - the PDF renderer's glyph-by-glyph layout of each string it
  draws (libraqm: glyphs, kerning, ligatures), shared by all strings of one font, size and text.
* :func:`remembered_tick_updates` - ``Axis._update_ticks`` (run the locator and the formatter, set
  every tick's position and label) runs about 14 times per axis while one figure is laid out and
  saved (each tight-bbox measure of a layout pass, each sibling's label position, each draw), with
  the same inputs most times. While one figure is laid out and saved, an axis whose inputs are
  those of its last update gets that update's ticks again; its tick objects still hold what that
  update set.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from io import BytesIO

import matplotlib

from . import active

WRITTEN_FOR = (
    "3.11",
)  # the matplotlib versions whose private names these patches were written against


def _on() -> bool:
    return active("figure_caches", "matplotlib", WRITTEN_FOR)


@contextlib.contextmanager
def shared_work():
    """For one ``write_figures`` call: shared font programs, stream compression, text layouts and
    PDF glyph layouts (each below), or nothing when the speedup is off."""
    if not _on():
        yield
        return
    with (
        shared_font_programs(),
        shared_stream_compression(),
        shared_text_layouts(),
        shared_pdf_glyph_layouts(),
    ):
        yield


def tick_updates():
    """:func:`remembered_tick_updates` for one figure's layout and save, or nothing when off."""
    return remembered_tick_updates() if _on() else contextlib.nullcontext()


# Characters every PDF font subset includes, so that most figures ask fontTools for the same subset
# and the subsetting runs once per font and build, not per figure. U+FB00-FB04 are the Latin
# ligatures (ff, fi, fl, ffi, ffl) DejaVu Sans substitutes in words such as "Difference" and
# "coefficient": without them each combination of ligatures in a figure was a subset of its own
# (five fontTools runs of the example's seven); with them the font programs grow by 5 glyphs.
BASE_CHARS = (
    "".join(chr(i) for i in range(32, 127))
    + "\u2212\u2191\u2193\u00d7\u2013\u2014\u00b1\u2264\u2265\u00b7"
    + "\ufb00\ufb01\ufb02\ufb03\ufb04"
)


class _SubsetProgram:
    """A font subset as the bytes of its font program (what ``font_as_file`` would write), standing
    in for the fontTools ``TTFont`` matplotlib's PDF backend only saves to bytes."""

    def __init__(self, data: bytes):
        self.data = data

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def subsetting_internals():
    """matplotlib's ``_backend_pdf_ps`` module when it has the three names
    :func:`shared_font_programs` replaces or reads, else None (with a debug note: that speedup is
    then off, and matplotlib subsets each figure's fonts itself)."""
    try:
        from matplotlib.backends import _backend_pdf_ps as pdfps
    except ImportError:
        pdfps = None
    names = ("get_glyphs_subset", "font_as_file", "SubsetResults")
    if pdfps is None or not all(hasattr(pdfps, n) for n in names):
        _note_missing(matplotlib.__version__)
        return None
    return pdfps


@functools.cache
def _note_missing(version: str) -> None:
    logging.getLogger("ccreport.speedups").debug(
        "speedup shared_font_programs is off: matplotlib %s lacks the subsetting names", version
    )


@contextlib.contextmanager
def shared_font_programs():
    """Memoise matplotlib's PDF font subsetting for the duration of a ``write_figures`` call.

    Every subset asked for is padded to the font's glyphs for :data:`BASE_CHARS` and glyph 0
    (``.notdef``, which fontTools includes anyway), then built once: fontTools subsets, the result
    is saved to bytes and those bytes are what every figure asking for the same padded set embeds.
    matplotlib's backend takes the bytes through ``font_as_file``, patched to hand them over as they
    are instead of re-serialising a parsed font. The bytes depend only on the font and the padded
    glyph set, never on which figure came first, so 1 or 2 workers write the same files.
    """
    pdfps = subsetting_internals()
    if pdfps is None:
        yield
        return
    from matplotlib.font_manager import get_font

    original_subset, original_as_file = pdfps.get_glyphs_subset, pdfps.font_as_file
    results_class = pdfps.SubsetResults
    cache: dict = {}
    bases: dict = {}

    def get_glyphs_subset(fontfile, glyphs):
        try:
            path_key = (str(fontfile), getattr(fontfile, "face_index", 0))
            base = bases.get(path_key)
            if base is None:
                font = get_font(fontfile)
                base = bases[path_key] = frozenset(
                    font.get_char_index(ord(c)) for c in BASE_CHARS
                ) | {0}
            key = (path_key, frozenset(glyphs) | base)
        except Exception:  # an unexpected font object: no caching
            return original_subset(fontfile, glyphs)
        hit = cache.get(key)
        if hit is None:
            with original_subset(fontfile, set(key[1])) as subset:
                hit = cache[key] = (
                    original_as_file(subset.font).getvalue(),
                    dict(subset.glyph_index_map),
                )
        data, glyph_map = hit
        return results_class(_SubsetProgram(data), dict(glyph_map))._as_cm()

    def font_as_file(font):
        if isinstance(font, _SubsetProgram):
            return BytesIO(font.data)
        return original_as_file(font)

    pdfps.get_glyphs_subset, pdfps.font_as_file = get_glyphs_subset, font_as_file
    try:
        yield
    finally:
        pdfps.get_glyphs_subset, pdfps.font_as_file = original_subset, original_as_file


def _measurer(renderer):
    """What a renderer's text metrics depend on besides the text: the class implementing
    ``get_text_width_height_descent`` (through a ``MixedModeRenderer``, the vector renderer's) and
    its dpi."""
    method = renderer.get_text_width_height_descent
    owner = getattr(method, "__self__", None)
    return (getattr(method, "__func__", method), type(owner), getattr(owner, "dpi", None))


@contextlib.contextmanager
def shared_text_layouts():
    """Memoise ``Text._get_layout`` across the renderers of one ``write_figures`` call.

    The key is everything the layout reads: the renderer's measurer (:func:`_measurer`), the
    figure's dpi, the text, its font properties (all their fields, as their own ``__hash__``
    does), usetex, math parsing, line spacing, multi-alignment, rotation, rotation mode and both
    alignments, read from the attributes behind their getters (the getters cost more than the
    layout saves). Wrapped text (``wrap=True``, which depends on the text's position) and text
    whose rotation follows its transform are never cached; nor is any text if those attributes
    are missing (another matplotlib). Each call gets its own copy of the bounding box and line list.
    """
    try:
        from matplotlib.text import Text
        from matplotlib.transforms import Bbox

        original = Text._get_layout
    except (ImportError, AttributeError):
        yield
        return
    cache: dict = {}

    def _get_layout(self, renderer):
        try:
            state = vars(
                self
            )  # the attributes behind the getters _get_layout calls (a KeyError: not cached)
            if (
                state["_wrap"] or state["_transform_rotates_text"]
            ):  # position- or transform-dependent
                return original(self, renderer)
            prop = state["_fontproperties"]
            key = (
                _measurer(renderer),
                self.get_figure(root=True).dpi,
                state["_text"],
                type(prop),
                tuple(vars(prop).values()),
                state["_usetex"],
                state["_parse_math"],
                state["_linespacing"],
                state["_multialignment"],
                state["_rotation"],
                state["_rotation_mode"],
                state["_horizontalalignment"],
                state["_verticalalignment"],
            )
            hit = cache.get(key)
        except Exception:  # an unexpected renderer or text: matplotlib's own path
            return original(self, renderer)
        if hit is None:
            bbox, lines, box = original(self, renderer)
            hit = cache[key] = (bbox.frozen(), tuple(lines), box)
        bbox, lines, box = hit
        return Bbox(bbox.get_points().copy()), list(lines), box

    Text._get_layout = _get_layout
    try:
        yield
    finally:
        Text._get_layout = original


# Streams shorter than this are compressed anew each time (keeping them costs more than it saves).
SHARED_STREAM_BYTES = 4096


@contextlib.contextmanager
def shared_stream_compression():
    """Memoise the compression of the large streams PDF files repeat, for one ``write_figures``
    call.

    Every figure's PDF embeds its font programs (the padded subsets of :func:`shared_font_programs`,
    the same bytes in most figures) and a 128 kB CIDToGIDMap per font (the same for figures using
    the same characters); ``PdfFile.outputStream`` compressed each again, about 0.15 CPU s of the
    example's figures. Here a stream of at least :data:`SHARED_STREAM_BYTES` bytes is compressed
    once per content and compression level: ``compress(data) + flush()`` of a fresh
    ``zlib.compressobj(level)``, the very bytes matplotlib's ``Stream`` writes for one ``write``
    (zlib is deterministic), so the files are the same.
    """
    try:
        import zlib

        from matplotlib.backends.backend_pdf import PdfFile

        original = PdfFile.outputStream
    except (ImportError, AttributeError):
        yield
        return
    cache: dict = {}

    def outputStream(self, ref, data, *, extra=None):
        level = matplotlib.rcParams["pdf.compression"]
        if not level or not isinstance(data, bytes) or len(data) < SHARED_STREAM_BYTES:
            return original(self, ref, data, extra=extra)
        packed = cache.get((level, data))
        if packed is None:
            zipper = zlib.compressobj(level)
            packed = cache[(level, data)] = zipper.compress(data) + zipper.flush()
        self.beginStream(ref.id, None, extra)
        stream = self.currentstream
        stream.compressobj = (
            None  # what follows is compressed already; the header still says FlateDecode
        )
        stream.file.write(packed)
        self.endStream()

    PdfFile.outputStream = outputStream
    try:
        yield
    finally:
        PdfFile.outputStream = original


@contextlib.contextmanager
def shared_pdf_glyph_layouts():
    """Memoise the glyph layout of plain text in PDF files for the duration of a ``write_figures``
    call.

    matplotlib's PDF renderer lays every string out glyph by glyph (libraqm through
    ``_text_helpers.layout``: glyphs, kerning, ligatures) each time it draws it, and the same tick
    labels and legend entries come back in every figure. While ``RendererPdf.draw_text`` draws a
    string that is not mathtext, the layout it asks for is kept under the font, the size the
    renderer has just set on it (the text's size in points, at 72 dpi), the string, its font
    features and language; any other use of ``_text_helpers.layout`` (text to path, PostScript) is
    left alone. The PDF renderer uses only the items' glyph, character and position, so the bytes
    are the same.
    """
    try:
        from matplotlib import _text_helpers as text_helpers
        from matplotlib.backends.backend_pdf import RendererPdf

        original_layout, original_draw_text = text_helpers.layout, RendererPdf.draw_text
    except (ImportError, AttributeError):
        yield
        return
    cache: dict = {}
    size = [None]  # the size of the plain text RendererPdf.draw_text is drawing, else None

    def layout(string, font, *, features=None, language=None):
        if size[0] is None:
            return original_layout(string, font, features=features, language=language)
        key = (font, size[0], string, features, language)
        items = cache.get(key)
        if items is None:
            items = cache[key] = list(
                original_layout(string, font, features=features, language=language)
            )
        return iter(items)

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath:
            return original_draw_text(self, gc, x, y, s, prop, angle, ismath, mtext)
        size[0] = prop.get_size_in_points()
        try:
            return original_draw_text(self, gc, x, y, s, prop, angle, ismath, mtext)
        finally:
            size[0] = None

    text_helpers.layout, RendererPdf.draw_text = layout, draw_text
    try:
        yield
    finally:
        text_helpers.layout, RendererPdf.draw_text = original_layout, original_draw_text


def _tick_inputs(axis) -> tuple:
    """What ``Axis._update_ticks`` reads: the view and data intervals, the axes' size in pixels and
    the dpi (an auto locator's tick count follows the axis length in points), the scale, and the
    locators and formatters themselves (by identity: their settings do not change while a figure
    is laid out and saved)."""
    return (
        tuple(axis.get_view_interval().tolist()),
        tuple(axis.get_data_interval().tolist()),
        axis.axes.bbox.bounds,
        axis.get_figure(root=True).dpi,
        axis.get_scale(),
        axis.major.locator,
        axis.major.formatter,
        axis.minor.locator,
        axis.minor.formatter,
    )


@contextlib.contextmanager
def remembered_tick_updates():
    """Remember each axis' last tick update while one figure is laid out and saved (see the module
    docstring). Only for that span: a figure's own drawing code, which may set tick parameters,
    runs before it. The tick objects are matplotlib's, so the files are the same bytes."""
    try:
        from matplotlib.axis import Axis

        original = Axis._update_ticks
    except (ImportError, AttributeError):
        yield
        return
    last: dict = {}  # axis -> (inputs, ticks to draw)

    def _update_ticks(self):
        try:
            inputs = _tick_inputs(self)
        except Exception:  # an unusual axis: matplotlib's own path
            return original(self)
        remembered = last.get(self)
        if remembered is not None and remembered[0] == inputs:
            return list(remembered[1])
        ticks = original(self)
        last[self] = (inputs, tuple(ticks))
        return ticks

    Axis._update_ticks = _update_ticks
    try:
        yield
    finally:
        Axis._update_ticks = original
