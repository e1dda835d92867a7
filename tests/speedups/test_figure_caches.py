"""Work shared by the figures of one write_figures call (ccreport.render.figure_caches): same bytes,
less work."""

from __future__ import annotations

import contextlib
import io

import matplotlib
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from ccreport import figures as F
from ccreport.render.figure_files import (
    NO_LAYOUT_ENGINE,
    SAVE_METADATA,
    lay_out_once,
)
from ccreport.speedups import figure_caches as C

pypdf = pytest.importorskip("pypdf")


def _figure(label: str = "Difference in normalized expected cost") -> Figure:
    """Tick labels, a two-line and a mathtext label, a legend, ligatures (ff, fi) and a minus
    sign."""
    fig = Figure(figsize=(3.5, 2.4))
    ax = fig.subplots()
    ax.plot([0, 1], [-0.2, 0.4], label="coefficient \u2212 offset")
    ax.set_xlabel(r"PC$_{iv}$(+)")
    ax.set_ylabel(label)
    ax.legend()
    lay_out_once(fig)
    return fig


def _save(fig, fmt: str) -> bytes:
    buf = io.BytesIO()
    with matplotlib.rc_context(NO_LAYOUT_ENGINE):
        fig.savefig(buf, format=fmt, metadata=SAVE_METADATA[fmt])
    return buf.getvalue()


def _both(*caches) -> tuple[bytes, bytes]:
    with F.style(), contextlib.ExitStack() as stack:
        for cache in caches:
            stack.enter_context(cache)
        fig = _figure()
        return _save(fig, "svg"), _save(fig, "pdf")


def test_shared_text_layouts_write_the_same_bytes_and_measure_once(monkeypatch):
    plain = _both()
    measured = []
    original = Text._get_layout
    monkeypatch.setattr(
        Text, "_get_layout", lambda self, renderer: measured.append(1) or original(self, renderer)
    )
    with F.style(), C.shared_text_layouts():
        fig = _figure()
        svg, pdf = _save(fig, "svg"), _save(fig, "pdf")
        first = len(measured)
        assert (_save(fig, "svg"), _save(fig, "pdf")) == (svg, pdf)
    assert (svg, pdf) == plain
    assert first > 0 and len(measured) == first  # the second pair measured nothing anew


def test_shared_text_layouts_leave_wrapped_text_alone(monkeypatch):
    measured = []
    original = Text._get_layout
    monkeypatch.setattr(
        Text,
        "_get_layout",
        lambda self, renderer: measured.append(self) or original(self, renderer),
    )
    with F.style(), C.shared_text_layouts():
        fig = Figure(figsize=(2, 1))
        text = fig.text(0.1, 0.5, "a long sentence that wraps " * 3, wrap=True)
        fig.savefig(io.BytesIO(), format="svg")
        fig.savefig(io.BytesIO(), format="svg")
    assert measured.count(text) >= 2


def test_shared_pdf_glyph_layouts_write_the_same_bytes():
    assert _both(C.shared_pdf_glyph_layouts()) == _both()


class _CountingZipper:
    """A zlib compressor that records the size of each piece of data it compresses."""

    def __init__(self, sizes, zipper):
        self.sizes, self.zipper = sizes, zipper

    def compress(self, data):
        self.sizes.append(len(data))
        return self.zipper.compress(data)

    def flush(self, *a):
        return self.zipper.flush(*a)


def test_shared_stream_compression_writes_the_same_bytes_and_compresses_each_stream_once(
    monkeypatch,
):
    import zlib

    sizes = []
    original = zlib.compressobj
    monkeypatch.setattr(zlib, "compressobj", lambda *a: _CountingZipper(sizes, original(*a)))
    plain = _both(C.shared_font_programs())[1]
    large = [s for s in sizes if s >= C.SHARED_STREAM_BYTES]
    assert len(large) >= 2  # the font programs of DejaVu Sans and of its oblique (mathtext)
    sizes.clear()
    with F.style(), C.shared_font_programs(), C.shared_stream_compression():
        fig = _figure()
        first = _save(fig, "pdf")
        assert sorted(set(s for s in sizes if s >= C.SHARED_STREAM_BYTES)) == sorted(set(large))
        sizes.clear()
        again = _save(fig, "pdf")
    assert first == again == plain
    assert not [
        s for s in sizes if s >= C.SHARED_STREAM_BYTES
    ]  # the second file compressed none of them again


def test_shared_font_programs_subset_once_and_in_any_order(monkeypatch):
    from fontTools import subset

    if C.subsetting_internals() is None:
        pytest.skip("this matplotlib lacks the names the speedup replaces: it is off by itself")

    runs = []
    original = subset.Subsetter.subset
    monkeypatch.setattr(
        subset.Subsetter, "subset", lambda self, font: runs.append(1) or original(self, font)
    )

    def pdfs(labels):
        with F.style(), C.shared_font_programs():
            return {label: _save(_figure(label), "pdf") for label in labels}

    a, b = "Difference in flow", "Costs \u00d7 2, 0.5 \u2264 p"
    forward, backward = pdfs([a, b]), pdfs([b, a])
    assert forward == backward  # a figure's bytes do not depend on the figures before it
    assert (
        len(runs) == 2 * 2
    )  # per call: one subset of DejaVu Sans (both labels fit the padding), one of the italic
    text = pypdf.PdfReader(io.BytesIO(forward[a])).pages[0].extract_text()
    assert (
        "Difference" in text and "coefficient" in text
    )  # the ligature glyphs map back to their letters


def _ticks(axis) -> list[tuple[float, str]]:
    return [(t.get_loc(), t.label1.get_text()) for t in axis._update_ticks()]


def test_remembered_tick_updates_write_the_same_bytes_with_fewer_updates(monkeypatch):
    from matplotlib.axis import Axis

    plain = _both()
    updates = []
    original = Axis._update_ticks
    monkeypatch.setattr(Axis, "_update_ticks", lambda self: updates.append(self) or original(self))
    remembered = _both(C.remembered_tick_updates())
    with_memo = len(updates)
    updates.clear()
    _both()
    assert remembered == plain
    assert (
        0 < with_memo < len(updates) / 2
    )  # measured: 436 of 2408 updates in the example's figures


@pytest.mark.parametrize("change", ["limits", "size", "dpi", "locator", "scale"])
def test_remembered_tick_updates_follow_what_the_ticks_depend_on(change):
    """After any input of the tick update changes, the ticks are those matplotlib computes anew."""
    from matplotlib.ticker import MultipleLocator

    def changed(fig, ax):
        if change == "limits":
            ax.set_xlim(0, 7)
        elif change == "size":
            fig.set_size_inches(8, 2.4)
        elif change == "dpi":
            fig.set_dpi(30)
        elif change == "locator":
            ax.xaxis.set_major_locator(MultipleLocator(0.3))
        else:
            ax.set_xscale("log")
            ax.set_xlim(0.01, 100)

    def ticks_after_change(memo: bool):
        fig = Figure(figsize=(1.6, 2.4))
        ax = fig.subplots()
        ax.plot([0.1, 1], [0, 1])
        with C.remembered_tick_updates() if memo else contextlib.nullcontext():
            before = _ticks(ax.xaxis)
            assert _ticks(ax.xaxis) == before
            changed(fig, ax)
            return before, _ticks(ax.xaxis)

    before, after = ticks_after_change(memo=True)
    assert (before, after) == ticks_after_change(memo=False)
    assert (after == before) == (
        change == "dpi"
    )  # the tick count follows the length in points, not pixels


def test_shared_font_programs_patch_nothing_when_matplotlib_lacks_the_names(monkeypatch):
    pdfps = C.subsetting_internals()
    if pdfps is None:
        pytest.skip("this matplotlib lacks the names already")
    monkeypatch.delattr(pdfps, "SubsetResults")
    before = pdfps.get_glyphs_subset
    assert C.subsetting_internals() is None
    with C.shared_font_programs():
        assert pdfps.get_glyphs_subset is before
