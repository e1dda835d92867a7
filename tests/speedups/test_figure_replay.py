"""One draw for two files (ccreport.render.figure_replay): the PDF replays what the SVG's draw
recorded."""

from __future__ import annotations

import io
import re
import zlib

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from ccreport import figures as F
from ccreport.figures.style import segments
from ccreport.render.figure_files import NO_LAYOUT_ENGINE, SAVE_METADATA, lay_out_once
from ccreport.speedups.figure_replay import Recorder, replay, save_svg_and_pdf

SVG_KW, PDF_KW = {"metadata": SAVE_METADATA["svg"]}, {"metadata": SAVE_METADATA["pdf"]}


def _figure(text: bool = True) -> Figure:
    """Every kind of drawing call the report's figures make: lines with markers and dashes, hatched
    and transparent fills (collections), clipping to the axes, a rasterized dense curve, segments
    as a LineCollection, and (``text``) tick labels, mathtext, a rotated two-line label, a
    legend."""
    fig = Figure(figsize=(3.5, 2.6))
    ax = fig.subplots()
    x = np.linspace(0, 1, 1500)
    ax.plot(x, 0.3 + 0.2 * np.sin(9 * x), rasterized=True, label="dense")
    ax.plot(
        [0, 0.5, 1], [0.1, 0.6, 0.2], marker="s", linestyle=(0, (4, 1.5)), label="Difference of NEC"
    )
    ax.fill_between([0, 1], [0.0, 0.1], [0.2, 0.4], alpha=0.3, hatch="//", label="band")
    segments(
        ax,
        np.array([0.1, 0.2]),
        np.array([0.7, 0.8]),
        np.array([0.3, 0.4]),
        np.array([0.9, 1.2]),
        color="k",
    )
    ax.set_ylim(0, 1)
    if text:
        ax.set_xlabel(r"PC$_{iv}$(+)  $\alpha$ " + "\u2212 \u0394")
        ax.set_ylabel("Normalized\nexpected cost")
        ax.text(0.5, 0.5, "rotated", rotation=30)
        fig.legend(loc="outside lower center", ncols=2)
    else:
        ax.set_axis_off()
    lay_out_once(fig)  # as write_figures does: saved with no layout engine left, one draw per file
    return fig


def _style():
    return F.style(), matplotlib.rc_context(NO_LAYOUT_ENGINE)


def _save_directly(fig, fmt) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, **(SVG_KW if fmt == "svg" else PDF_KW))
    return buf.getvalue()


def _save_pair(fig) -> tuple[bytes, bytes, bool]:
    svg, pdf = io.BytesIO(), io.BytesIO()
    replayed = save_svg_and_pdf(fig, svg, pdf, svg_kw=SVG_KW, pdf_kw=PDF_KW)
    return svg.getvalue(), pdf.getvalue(), replayed


def _content(pdf: bytes) -> str:
    """The page's content stream (one FlateDecode stream holding the drawing operators)."""
    streams = [zlib.decompress(m) for m in re.findall(rb"stream\n(.*?)\nendstream", pdf, re.DOTALL)]
    return max((s.decode("latin-1") for s in streams if b" cm" in s or b" re" in s), key=len)


def _texts(content: str) -> list[tuple[float, float, str]]:
    """(x, y, shown strings) of every text object: the translation of the matrix set just before
    BT."""
    found = re.findall(r"([-\d.]+) ([-\d.]+) cm\nBT\n(.*?)ET", content, re.DOTALL)
    return [
        (float(x), float(y), "".join(re.findall(r"\((.*?)\)", body)).replace("\0", ""))
        for x, y, body in found
    ]


def test_the_svg_is_matplotlibs_own():
    with _style()[0], _style()[1]:
        fig = _figure()
        direct = _save_directly(fig, "svg")
        svg, _, replayed = _save_pair(fig)
    assert replayed and svg == direct


def test_replaying_into_svg_writes_the_same_bytes():
    """The recording is complete: played back into a second SVG renderer, it writes the file the
    artists wrote (rasterized curve, clip paths, groups, text and all)."""
    with _style()[0], _style()[1]:
        fig = _figure()
        draw = type(fig).draw
        recorders = []
        fig.draw = lambda renderer: draw(fig, recorders.append(Recorder(renderer)) or recorders[-1])
        first = _save_directly(fig, "svg")
        calls = recorders[0].calls
        fig.draw = lambda renderer: replay(calls, renderer)
        second = _save_directly(fig, "svg")
        del fig.draw
    assert recorders[0].complete and len(recorders) == 1
    assert {c[0] for c in calls} >= {
        "draw_path",
        "draw_markers",
        "draw_path_collection",
        "draw_text",
        "start_rasterizing",
        "stop_rasterizing",
        "open_group",
    }
    assert first == second


def test_a_figure_without_text_replays_to_the_same_pdf_bytes():
    with _style()[0], _style()[1]:
        fig = _figure(text=False)
        direct = _save_directly(fig, "pdf")
        _, pdf, replayed = _save_pair(fig)
    assert replayed and pdf == direct
    assert b"/Subtype /Image" in pdf  # the rasterized curve, rasterized by the PDF's own renderer


def test_text_in_the_replayed_pdf_is_where_matplotlib_puts_it():
    """Same strings in the same order, each where a direct draw puts it but for the SVG renderer's
    text metrics: within 0.05 pt for plain text; within 1 pt for mathtext, whose size the PDF
    renderer rounds up to whole points. The y axis is flipped back to PDF's convention."""
    with _style()[0], _style()[1]:
        fig = _figure()
        direct = _texts(_content(_save_directly(fig, "pdf")))
        _, pdf, replayed = _save_pair(fig)
    replayed_texts = _texts(_content(pdf))
    assert replayed
    assert [t[2] for t in replayed_texts] == [t[2] for t in direct]
    assert len(direct) > 10
    for (x, y, shown), (x0, y0, _) in zip(replayed_texts, direct):
        tolerance = 1.0 if shown.startswith("PC") else 0.05  # the mathtext x label
        assert abs(x - x0) < tolerance and abs(y - y0) < tolerance, shown


def test_what_cannot_be_recorded_is_drawn_by_matplotlib():
    with _style()[0], _style()[1]:
        fig = _figure(text=False)
        fig.axes[0].lines[1].set_agg_filter(lambda image, dpi: (image, 0, 0))
        direct = _save_directly(fig, "pdf")
        _, pdf, replayed = _save_pair(fig)
    assert not replayed and pdf == direct


def test_the_figure_is_left_as_it_was():
    """After the pair, the figure draws itself again (no replaying ``draw`` left behind)."""
    with _style()[0], _style()[1]:
        fig = _figure()
        svg, _, _ = _save_pair(fig)
        assert "draw" not in vars(fig)
        recorders = []
        draw = type(fig).draw
        fig.draw = lambda renderer: draw(fig, recorders.append(Recorder(renderer)) or recorders[-1])
        assert _save_directly(fig, "svg") == svg
    assert recorders  # the class's draw ran, not a replay


def test_a_figure_with_a_layout_engine_is_drawn_by_matplotlib():
    """savefig draws such a figure twice (layout, then output): nothing to replay from one draw."""
    with F.style():
        fig = Figure(figsize=(3, 2))
        fig.subplots().plot([0, 1], [1, 0])
        direct = _save_directly(fig, "pdf")
        svg, pdf, replayed = _save_pair(fig)
    assert not replayed and pdf == direct and svg.startswith(b"<?xml")


def test_the_recorder_reads_the_renderers_attributes_as_they_are_now():
    """FORWARDED names are read from the renderer at each access (the rasterization counters change
    while a figure is drawn, and a mixed-mode renderer swaps its inner renderer); recorded calls are
    looked up on the renderer when made. A recorder keeping what it read first fails this."""

    class Inner:
        def __init__(self, tag):
            self.tag = tag

        def points_to_pixels(self, points):
            return (self.tag, points)

        def draw_path(self, gc, path, transform, rgbFace=None):
            return self.tag

        def draw_unknown(self):
            return self.tag

    class Outer:  # like MixedModeRenderer: what it does not hold, its current inner renderer does
        _raster_depth, _rasterizing = 0, False

        def __init__(self):
            self.inner = Inner("vector")

        def __getattr__(self, name):
            return getattr(self.inner, name)

    outer = Outer()
    recorder = Recorder(outer)
    assert (recorder._raster_depth, recorder._rasterizing, recorder.points_to_pixels(2)) == (
        0,
        False,
        ("vector", 2),
    )
    recorder._raster_depth += 1
    recorder._rasterizing = True
    outer.inner = Inner("raster")
    assert (outer._raster_depth, recorder._raster_depth, recorder._rasterizing) == (1, 1, True)
    assert recorder.points_to_pixels(3) == ("raster", 3)
    assert recorder.draw_path(None, None, None) == "raster" and [c[0] for c in recorder.calls] == [
        "draw_path"
    ]
    assert recorder.complete
    _ = recorder.draw_unknown  # a drawing method it has no record of
    assert not recorder.complete
