"""Write a laid-out figure as SVG and as a PDF page in one walk of its artists, through
matplotlib's public renderer API (the interface every backend implements).

``savefig`` walks every artist of a figure once per file: updating ticks, laying out each text and
legend, transforming each path. Most of a save's time is that walk, and for the SVG and the PDF of
a report figure (:mod:`ccreport.render.figure_files`) it is the same walk twice: both files are
drawn at 72 dpi from the same figure. :func:`save_svg_and_pdf` walks once: ``Figure.draw`` is
given a :class:`BothFiles` renderer that passes every drawing call on to the two renderers
``savefig`` would make (``RendererSVG`` and ``RendererPdf``, each inside a ``MixedModeRenderer``
that rasterizes the artists marked so), each call with a graphics context of its own renderer's
kind carrying the caller's properties (``GraphicsContextBase.copy_properties``).

What the files hold: the SVG is the bytes ``savefig(format="svg")`` writes (text is measured with
the SVG renderer's metrics, as ``savefig`` measures it); the PDF page is what ``savefig`` draws
except that text is placed with those same metrics (unhinted outlines, the ones the layout engine
measured with in :func:`~ccreport.render.figure_files.lay_out_once`) rather than the PDF
renderer's own (the font hinted at its size): a centred or right-aligned label moves by at most
about 0.05 pt, mathtext by up to 1 pt. A text's ``y`` is converted between the two renderers'
conventions (``flipy``: the SVG counts from the top, the PDF from the bottom).

:func:`can_save_both` says when this path applies: the rcParams ``savefig`` reads that it does not
reproduce (a tight or explicit bounding box, a transparent background) at their defaults;
otherwise the caller saves each file with ``savefig``.
"""

from __future__ import annotations

import contextlib

import matplotlib
from matplotlib.backend_bases import GraphicsContextBase, RendererBase
from matplotlib.backends.backend_mixed import MixedModeRenderer
from matplotlib.backends.backend_pdf import PdfFile, RendererPdf
from matplotlib.backends.backend_svg import RendererSVG

VECTOR_DPI = 72  # SVG and PDF draw in points: savefig sets the figure's dpi to this for both


def can_save_both() -> bool:
    """Whether :func:`save_svg_and_pdf` writes what ``savefig`` would under the current
    rcParams: no ``savefig.bbox`` (tight or a box), no ``savefig.transparent``."""
    rc = matplotlib.rcParams
    return rc["savefig.bbox"] in (None, "standard") and not rc["savefig.transparent"]


class BothFiles(RendererBase):
    """A renderer that draws every call into two renderers (``first``, then ``second``).

    Measures (text extents, ``flipy``, the canvas size, points to pixels, image options) are
    ``first``'s, so ``first`` receives exactly the calls it would get drawn on its own; ``second``
    gets the same calls, a text's ``y`` converted to its own ``flipy`` convention. Each drawing
    call gets, for each renderer, a graphics context of that renderer's kind with the properties
    the artist set (``copy_properties``), restored after the call.
    """

    def __init__(self, first, second):
        super().__init__()
        self.first = first
        self.second = second

    # --- what artists measure or ask: the first renderer's answers
    def get_text_width_height_descent(self, s, prop, ismath):
        return self.first.get_text_width_height_descent(s, prop, ismath)

    def flipy(self):
        return self.first.flipy()

    def get_canvas_width_height(self):
        return self.first.get_canvas_width_height()

    def points_to_pixels(self, points):
        return self.first.points_to_pixels(points)

    def get_image_magnification(self):
        return self.first.get_image_magnification()

    def option_image_nocomposite(self):
        return self.first.option_image_nocomposite()

    def option_scale_image(self):
        return self.first.option_scale_image()

    def new_gc(self):
        return GraphicsContextBase()

    # --- what both renderers do
    @staticmethod
    def _call(renderer, name, gc, *args, **kwargs):
        """``renderer.name(gc', *args)`` with ``gc'`` a graphics context of ``renderer``'s own kind
        carrying ``gc``'s properties."""
        own = renderer.new_gc()
        own.copy_properties(gc)
        getattr(renderer, name)(own, *args, **kwargs)
        own.restore()

    def _each(self, name, gc, args, kwargs):
        for renderer in (self.first, self.second):
            self._call(renderer, name, gc, *args, **kwargs)

    def _text(self, name, gc, x, y, args, kwargs):
        """A text call, its ``y`` converted from the first renderer's ``flipy`` convention to each
        renderer's own (through ``up``, counted from the bottom)."""
        first_height = self.first.get_canvas_width_height()[1]
        up = first_height - y if self.first.flipy() else y
        for renderer in (self.first, self.second):
            y_own = renderer.get_canvas_width_height()[1] - up if renderer.flipy() else up
            self._call(renderer, name, gc, x, y_own, *args, **kwargs)

    def open_group(self, s, gid=None):
        self.first.open_group(s, gid=gid)
        self.second.open_group(s, gid=gid)

    def close_group(self, s):
        self.first.close_group(s)
        self.second.close_group(s)

    def draw_path(self, gc, *args, **kwargs):
        self._each("draw_path", gc, args, kwargs)

    def draw_markers(self, gc, *args, **kwargs):
        self._each("draw_markers", gc, args, kwargs)

    def draw_path_collection(self, gc, *args, **kwargs):
        self._each("draw_path_collection", gc, args, kwargs)

    def draw_quad_mesh(self, gc, *args, **kwargs):
        self._each("draw_quad_mesh", gc, args, kwargs)

    def draw_gouraud_triangles(self, gc, *args, **kwargs):
        self._each("draw_gouraud_triangles", gc, args, kwargs)

    def draw_image(self, gc, *args, **kwargs):
        self._each("draw_image", gc, args, kwargs)  # x, y from the bottom in every renderer

    def draw_text(self, gc, x, y, *args, **kwargs):
        self._text("draw_text", gc, x, y, args, kwargs)

    def draw_tex(self, gc, x, y, *args, **kwargs):
        self._text("draw_tex", gc, x, y, args, kwargs)

    def start_rasterizing(self):
        self.first.start_rasterizing()
        self.second.start_rasterizing()

    def stop_rasterizing(self):
        self.first.stop_rasterizing()
        self.second.stop_rasterizing()

    def start_filter(self):
        self.first.start_filter()
        self.second.start_filter()

    def stop_filter(self, filter_func):
        self.first.stop_filter(filter_func)
        self.second.stop_filter(filter_func)


def save_svg_and_pdf(fig, svg_path, pdf: PdfFile, svg_metadata=None) -> None:
    """Write ``fig`` (laid out, no layout engine left: see
    :func:`~ccreport.render.figure_files.lay_out_once`) to ``svg_path`` as SVG and as the next
    page of ``pdf`` (a matplotlib ``PdfFile``: ``PdfPages`` is a thin wrapper of one), in one
    walk of its artists (``svg_path`` None: the PDF page alone, as ``savefig`` draws it). Only
    where :func:`can_save_both`.

    Does what ``savefig`` does around its renderer for these two formats: the figure's face and
    edge colours set from ``savefig.facecolor`` / ``savefig.edgecolor`` (unless "auto"), its dpi
    set to 72 while drawing and rasterized artists drawn at ``savefig.dpi`` (or the figure's own
    dpi, for "figure"), each restored afterwards; ``svg_metadata`` as ``savefig``'s
    ``metadata`` for the SVG.
    """
    if fig.get_layout_engine() is not None:
        raise ValueError("save_svg_and_pdf draws a laid-out figure: remove its layout engine")
    rc = matplotlib.rcParams
    raster_dpi = rc["savefig.dpi"]
    if raster_dpi == "figure":
        raster_dpi = fig.dpi
    colours = {}
    for prop in ("facecolor", "edgecolor"):
        wanted = rc[f"savefig.{prop}"]
        if not (isinstance(wanted, str) and wanted == "auto"):
            colours[prop] = wanted
    before_dpi = fig.dpi
    before = {prop: getattr(fig, f"get_{prop}")() for prop in colours}
    try:
        for prop, value in colours.items():
            getattr(fig, f"set_{prop}")(value)
        fig.dpi = raster_dpi  # as savefig sets it, then the vector backends' 72: the same
        fig.dpi = VECTOR_DPI  # transforms to the last bit (an SVG clip's id is a hash of them)
        width, height = fig.get_size_inches()
        w, h = width * VECTOR_DPI, height * VECTOR_DPI
        with contextlib.ExitStack() as stack:
            svg = None
            if svg_path is not None:
                fh = stack.enter_context(open(svg_path, "w", encoding="utf-8"))
                svg = MixedModeRenderer(
                    fig, width, height, raster_dpi,
                    RendererSVG(w, h, fh, image_dpi=raster_dpi, metadata=svg_metadata),
                )  # fmt: skip
            pdf.newPage(width, height)
            stack.callback(pdf.endStream)  # the page's content stream ends, drawn or not
            page = MixedModeRenderer(
                fig, width, height, raster_dpi, RendererPdf(pdf, raster_dpi, height, width)
            )
            fig.draw(page if svg is None else BothFiles(svg, page))
            for renderer in (svg, page):
                if renderer is not None:
                    renderer.finalize()
    finally:
        fig.dpi = before_dpi
        for prop, value in before.items():
            getattr(fig, f"set_{prop}")(value)
