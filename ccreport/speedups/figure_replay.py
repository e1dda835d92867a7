"""Replaces the PDF file's own walk of a figure's artists (``Figure.draw``) by a replay of the SVG's
draw: about 1.6 CPU s of the example.

Draw a figure once, write it as SVG and as PDF: the PDF replays what the SVG's draw recorded.

``savefig`` walks the whole artist tree for every file: updating ticks, laying out tick labels and
legends, transforming paths: most of each save's time. The two vector files of a report figure
(:mod:`ccreport.render.figure_files`) are drawn on the same 72-dpi canvas, from the same figure, by
the same artist code, so the second walk only repeats the first. :func:`save_svg_and_pdf` saves
the SVG as matplotlib does, through a :class:`Recorder` standing in for the renderer ``savefig``
hands to ``Figure.draw``: every call passes through unchanged (the SVG bytes are matplotlib's) and
every drawing call is also kept, with a snapshot of its graphics context and frozen copies of its
transforms, bounding boxes and clip paths. The PDF is then saved by ``savefig`` as usual, except
that ``Figure.draw`` replays the recording into the PDF renderer instead of walking the artists
(:func:`replay`).

What the PDF file then differs in from one drawn on its own: text positions come from the layout
the SVG measured (unhinted outlines at 100 pt, scaled, :class:`matplotlib.textpath.TextToPath`)
instead of the PDF renderer's own measure (the font hinted at its size at 72 dpi): widths differ by
at most about 0.1 pt, so a centred label or a legend entry moves by 0.05 pt or less; mathtext,
which the PDF renderer measures in whole points, by up to 1 pt. The text now sits where the layout
(``lay_out_once``, measured with the SVG renderer too) made room for it. A y coordinate of text is
flipped between the two renderers' conventions (``flipy``: SVG counts from the top, PDF from the
bottom). Everything else is the bytes matplotlib writes: a figure without text replays to the
same PDF file. Rasterized artists (dense curves) are replayed as calls too, so the PDF's
mixed-mode renderer rasterizes them itself, as it did.

Anything the recorder does not know (an Agg filter, a drawing method it has no record of), or a
figure ``savefig`` draws more than once (one with a layout engine left), makes it give up: the PDF
is then drawn by matplotlib as before, so an unusual figure is only slower. The recorder reads
private renderer attributes (``_rasterizing``, a graphics context's clip path), so the build calls
:func:`save_svg_and_pdf` only when :func:`on` says the speedup may run.
"""

from __future__ import annotations

import contextlib
from operator import attrgetter

from matplotlib.backend_bases import GraphicsContextBase
from matplotlib.transforms import BboxBase, Transform, TransformedPath

from . import active

WRITTEN_FOR = ("3.11",)  # matplotlib versions the recorder was written against


def on() -> bool:
    """Whether the build may draw a figure's SVG and PDF once (``ccreport.speedups.active``)."""
    return active("figure_replay", "matplotlib", WRITTEN_FOR)


# Calls that put something on the canvas (or change how later ones are put), kept in order
RECORDED = (
    "draw_path",
    "draw_markers",
    "draw_path_collection",
    "draw_quad_mesh",
    "draw_gouraud_triangles",
    "draw_image",
    "draw_text",
    "draw_tex",
    "open_group",
    "close_group",
    "start_rasterizing",
    "stop_rasterizing",
)
TEXT_CALLS = ("draw_text", "draw_tex")  # (gc, x, y, s, prop, angle, ...): y follows flipy()
# What artists read from the renderer thousands of times a figure (the rasterization bookkeeping of
# every draw wrapper, the text and line metrics): read straight from the renderer by class
# properties rather than through ``__getattr__``, which Python calls only after a failed look-up
FORWARDED = (
    "_rasterizing",
    "_raster_depth",
    "points_to_pixels",
    "get_text_width_height_descent",
    "new_gc",
    "flipy",
    "get_canvas_width_height",
    "option_image_nocomposite",
)


class Recorder:
    """A renderer proxy: forwards every attribute to ``renderer`` and records the drawing calls.

    ``calls`` holds ``(name, gc snapshot or None, args, kwargs, (flipy, canvas height))`` per call
    of :data:`RECORDED`; ``complete`` turns False at the first call it cannot record faithfully.
    """

    def __init__(self, renderer):
        object.__setattr__(self, "renderer", renderer)
        object.__setattr__(self, "calls", [])
        object.__setattr__(self, "complete", True)
        object.__setattr__(self, "frozen", {})  # id(live object) -> (live, values, frozen copy)

    def __getattr__(
        self, name
    ):  # the calls of RECORDED and the names of FORWARDED are class attributes
        target = getattr(self.renderer, name)
        if name.startswith("draw_") or name in ("start_filter", "stop_filter"):
            object.__setattr__(self, "complete", False)
        return target

    def __setattr__(self, name, value):  # the rasterization bookkeeping of matplotlib's artists
        setattr(self.renderer, name, value)

    def _record(self, name, target, args, kwargs):
        gc = args[0] if args and isinstance(args[0], GraphicsContextBase) else None
        rest = args[1:] if gc is not None else args
        frame = None
        if name in TEXT_CALLS:
            frame = (self.renderer.flipy(), self.renderer.get_canvas_width_height()[1])
        self.calls.append(
            (
                name,
                None if gc is None else self._snapshot(gc),
                tuple(self._freeze(a) for a in rest),
                {k: self._freeze(v) for k, v in kwargs.items()},
                frame,
            )
        )
        return target(*args, **kwargs)

    def _freeze(self, value):
        """A copy of a transform, bounding box or transformed path that later changes of the
        figure cannot reach; one copy per live object and value, so that the PDF renderer (which
        compares clip rectangles and paths by identity) sees the same sharing as in a live draw."""
        if isinstance(value, TransformedPath):
            path, affine = value.get_transformed_path_and_affine()
            values = (id(path), tuple(affine.get_matrix().ravel()))

            def make():
                return TransformedPath(path, affine.frozen())

        elif isinstance(value, (Transform, BboxBase)):
            frozen = value.frozen()
            if isinstance(value, BboxBase):
                values = tuple(frozen.get_points().ravel())
            else:
                try:
                    values = tuple(frozen.get_matrix().ravel())
                except (NotImplementedError, AttributeError):  # a non-affine transform: no sharing
                    return frozen

            def make():
                return frozen

        else:
            return value
        held = self.frozen.get(id(value))
        if held is None or held[1] != values:
            held = self.frozen[id(value)] = (value, values, make())
        return held[2]

    def _snapshot(self, gc) -> GraphicsContextBase:
        """A graphics context with ``gc``'s properties (its attributes copied, without running
        ``__init__``'s rcParams look-ups) and frozen copies of its clip rectangle and path."""
        snap = GraphicsContextBase.__new__(GraphicsContextBase)
        vars(snap).update(vars(gc))
        rect, clip = gc.get_clip_rectangle(), gc.get_clip_path()
        snap.set_clip_rectangle(None if rect is None else self._freeze(rect))
        snap.set_clip_path(None if clip[0] is None else self._freeze(gc._clippath))
        return snap


def _recording(name: str):
    """The Recorder's method ``name``: record the call, then make it on the renderer."""

    def call(self, *args, **kwargs):
        return self._record(name, getattr(self.renderer, name), args, kwargs)

    call.__name__ = call.__qualname__ = name
    return call


for _name in RECORDED:
    setattr(Recorder, _name, _recording(_name))
for _name in FORWARDED:  # getattr(recorder.renderer, name) each time, as __getattr__ would
    setattr(Recorder, _name, property(attrgetter("renderer." + _name)))
del _name


def replay(calls, renderer) -> None:
    """Make each recorded call on ``renderer`` (the PDF file's mixed-mode renderer), each with a
    graphics context of the renderer's own kind carrying the recorded properties."""
    for name, snap, args, kwargs, frame in calls:
        method = getattr(renderer, name)
        if frame is not None and renderer.flipy() != frame[0]:
            x, y = args[0], args[1]
            height = renderer.get_canvas_width_height()[1]
            y_up = frame[1] - y if frame[0] else y
            args = (x, height - y_up if renderer.flipy() else y_up, *args[2:])
        if snap is None:
            method(*args, **kwargs)
            continue
        gc = renderer.new_gc()
        gc.copy_properties(snap)
        method(gc, *args, **kwargs)
        gc.restore()


@contextlib.contextmanager
def _drawing_through(fig, draw):
    """``fig.draw`` is ``draw`` inside (an instance attribute over the class's method)."""
    fig.draw = draw
    try:
        yield
    finally:
        del fig.draw


def save_svg_and_pdf(
    fig, svg_target, pdf_target, svg_kw: dict | None = None, pdf_kw: dict | None = None
) -> bool:
    """``fig.savefig`` to ``svg_target`` (format svg), then to ``pdf_target`` (format pdf) with the
    SVG's drawing replayed; ``svg_kw`` and ``pdf_kw``: further savefig keywords of each. Returns
    whether the PDF was replayed (False: matplotlib drew it, see the module docstring)."""
    draw = type(fig).draw
    recorders = []

    def recording_draw(renderer):
        recorder = Recorder(renderer)
        recorders.append(recorder)
        return draw(fig, recorder)

    with _drawing_through(fig, recording_draw):
        fig.savefig(svg_target, format="svg", **(svg_kw or {}))
    if len(recorders) != 1 or not recorders[0].complete:
        fig.savefig(pdf_target, format="pdf", **(pdf_kw or {}))
        return False
    calls = recorders[0].calls
    with _drawing_through(fig, lambda renderer: replay(calls, renderer)):
        fig.savefig(pdf_target, format="pdf", **(pdf_kw or {}))
    return True
