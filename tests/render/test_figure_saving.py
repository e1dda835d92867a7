"""A figure's SVG and PDF page written in one walk of its artists
(ccreport.render.figure_saving): the SVG is savefig's bytes, the PDF page savefig's drawing with
text placed by the SVG's metrics, and the build walks each figure once."""

from __future__ import annotations

import io
import re
import zlib

import matplotlib
import numpy as np
import pytest
from matplotlib.axes import Axes
from matplotlib.backends.backend_pdf import PdfFile, PdfPages
from site_fixtures import synthetic_results

from ccreport import figures as F
from ccreport.figures.style import new_figure
from ccreport.render import figure_saving
from ccreport.render.figure_files import (
    NO_LAYOUT_ENGINE,
    SAVE_METADATA,
    lay_out_once,
    write_figures,
)

matplotlib.use("Agg")


def _figure():
    """Text (mathtext, a minus sign, two lines, rotated), a legend, hatching, transparency, markers,
    a collection, a clip path and a rasterized artist, laid out as the build lays figures out."""
    fig = new_figure(3.5, 2.6)
    ax, other = fig.subplots(1, 2, width_ratios=[2, 1])
    x = np.linspace(0, 1, 40)
    ax.plot(x, x**2, marker="o", markevery=8, label=r"$\alpha$ \u2212 curve")
    ax.fill_between(x, 0, x, alpha=0.3, hatch="//", label="area")
    ax.scatter(x[::5], x[::5] ** 3, s=6, label="points")
    ax.imshow(np.arange(12.0).reshape(3, 4), extent=(0.2, 0.8, 0.4, 0.6), rasterized=True)
    (clipped,) = other.plot(x, np.sin(6 * x), label="clipped")
    clipped.set_clip_path(other.patch)
    ax.set_xlabel("PC(+)  (probability\ntimes cost)")
    ax.set_ylabel("Normalized expected cost")
    ax.text(0.5, 0.9, "centred", ha="center", rotation=20)
    other.set_title("Right-aligned", loc="right")
    ax.legend(loc="upper left")
    lay_out_once(fig)
    return fig


def _savefig(fig, fmt: str) -> bytes:
    buffer = io.BytesIO()
    with matplotlib.rc_context(NO_LAYOUT_ENGINE):
        if fmt == "pdf":
            with PdfPages(buffer, metadata=SAVE_METADATA["pdf"]) as pages:
                pages.savefig(fig)
        else:
            fig.savefig(buffer, format=fmt, metadata=SAVE_METADATA[fmt])
    return buffer.getvalue()


def _one_walk(fig, tmp_path) -> tuple[bytes, bytes]:
    buffer = io.BytesIO()
    pdf = PdfFile(buffer, metadata=SAVE_METADATA["pdf"])
    figure_saving.save_svg_and_pdf(fig, tmp_path / "f.svg", pdf, svg_metadata=SAVE_METADATA["svg"])
    pdf.finalize()
    pdf.close()
    return (tmp_path / "f.svg").read_bytes(), buffer.getvalue()


def _page_contents(document: bytes) -> list[bytes]:
    """The decoded content streams of a matplotlib PDF (its pages, not fonts or images)."""
    streams = re.findall(rb"stream\r?\n(.*?)\r?\nendstream", document, re.S)
    out = []
    for raw in streams:
        try:
            data = zlib.decompress(raw)
        except zlib.error:
            continue
        if b" Tf" in data or b" re" in data or b" m " in data:
            out.append(data)
    return out


_NUMBER = re.compile(rb"-?\d+(?:\.\d+)?")


def test_the_svg_is_savefigs_and_the_pdf_page_savefigs_drawing(tmp_path):
    with F.style():
        fig = _figure()
        svg, pdf = _one_walk(fig, tmp_path)
        direct_svg, direct_pdf = _savefig(fig, "svg"), _savefig(fig, "pdf")
    assert svg == direct_svg
    ours, theirs = _page_contents(pdf), _page_contents(direct_pdf)
    assert len(ours) == len(theirs) > 0
    for a, b in zip(ours, theirs, strict=True):
        # the same operators in the same order; numbers equal but where text is placed by the
        # SVG's metrics (a label's anchor less its measured width or height), within 0.02 pt,
        # and the legend's rows below its mathtext entry, which the PDF renderer measures in
        # whole points: within 1 pt
        assert _NUMBER.sub(b"#", a) == _NUMBER.sub(b"#", b)
        x, y = (np.array([float(v) for v in _NUMBER.findall(s)]) for s in (a, b))
        moved = np.abs(x - y)
        assert moved.max() < 1.0 and np.mean(moved > 0.02) < 0.05 and np.mean(moved > 0) < 0.1


def test_the_figure_is_left_as_it_was(tmp_path):
    with F.style():
        fig = _figure()
        dpi, face = fig.dpi, fig.get_facecolor()
        first = _one_walk(fig, tmp_path)
        assert (fig.dpi, fig.get_facecolor()) == (dpi, face)
        assert _one_walk(fig, tmp_path) == first
        assert _savefig(fig, "svg") == first[0]


def test_a_figure_with_a_layout_engine_is_refused(tmp_path):
    with F.style():
        fig = new_figure(3.0, 2.0)
        fig.subplots().plot([0, 1], [0, 1])
        with pytest.raises(ValueError, match="layout engine"):
            figure_saving.save_svg_and_pdf(fig, tmp_path / "f.svg", PdfFile(io.BytesIO()))


def test_the_pdf_page_alone(tmp_path):
    with F.style():
        fig = _figure()
        buffer = io.BytesIO()
        pdf = PdfFile(buffer, metadata=SAVE_METADATA["pdf"])
        figure_saving.save_svg_and_pdf(fig, None, pdf)
        pdf.finalize()
        pdf.close()
        alone = _page_contents(buffer.getvalue())
        assert [_NUMBER.sub(b"#", s) for s in alone] == [
            _NUMBER.sub(b"#", s) for s in _page_contents(_savefig(fig, "pdf"))
        ]


def test_one_walk_only_under_the_rcparams_it_reproduces():
    can_save_both = figure_saving.can_save_both
    with F.style():
        assert can_save_both()
        with matplotlib.rc_context({"savefig.bbox": "tight"}):
            assert not can_save_both()
        with matplotlib.rc_context({"savefig.transparent": True}):
            assert not can_save_both()


@pytest.mark.parametrize("speedups", ["0", "1"])
def test_the_build_walks_each_figure_once_for_its_svg_and_pdf(tmp_path, monkeypatch, speedups):
    """Speedups off or on, each Axes is drawn once for both files of its figure (not once per file;
    drawing code measuring with ``draw_without_rendering`` aside)."""
    from matplotlib.figure import Figure

    monkeypatch.setenv("CCREPORT_SPEEDUPS", speedups)
    draws, measuring = [], []
    original_draw, original_measure = Axes.draw, Figure.draw_without_rendering

    def draw(self, renderer):
        if not measuring:
            draws.append(self)
        return original_draw(self, renderer)

    def measure(self):
        measuring.append(1)
        try:
            return original_measure(self)
        finally:
            measuring.pop()

    monkeypatch.setattr(Axes, "draw", draw)
    monkeypatch.setattr(Figure, "draw_without_rendering", measure)
    index = write_figures(synthetic_results(("a1", "b1")), tmp_path, workers=1, focus=False)
    svgs = sorted(tmp_path.rglob("*.svg"))
    assert len(svgs) == len(index) == len(sorted(tmp_path.rglob("*.pdf"))) > 0
    assert draws and len(draws) == len({id(ax) for ax in draws})  # no Axes drawn twice
