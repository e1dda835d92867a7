"""What the figures measure before they are saved: the same numbers as a fresh measure, each
measured once where it repeats (labels traced once, one renderer per figure)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.textpath  # noqa: E402
import pytest  # noqa: E402
from matplotlib.backends.backend_agg import RendererAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.font_manager import FontProperties  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from ccreport.figures.style import fit_height, fit_legend, renderer_for  # noqa: E402


def test_outline_width_is_textpaths_and_traces_each_label_once_per_font(monkeypatch):
    from ccreport.figures.difference import outline_width

    traced = []
    real = matplotlib.textpath.TextPath

    def counting(*args, **kwargs):
        traced.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(matplotlib.textpath, "TextPath", counting)
    text = "measuring-label-xyz cheaper \u2193"  # a string no other test measures
    expected = real((0, 0), text, size=7.0).get_extents().width
    assert outline_width(text, 7.0, FontProperties()) == pytest.approx(expected, abs=0)
    assert outline_width(text, 7.0, FontProperties()) == pytest.approx(expected, abs=0)
    assert traced == [text]
    with matplotlib.rc_context({"font.family": "serif"}):  # another font file: measured again
        serif = outline_width(text, 7.0, FontProperties())
        assert serif == pytest.approx(real((0, 0), text, size=7.0).get_extents().width, abs=0)
    assert traced == [text, text] and serif != expected


def test_renderer_for_is_one_renderer_per_figure_and_dpi_measuring_as_a_fresh_one():
    fig = Figure(figsize=(3.0, 2.0), dpi=72)
    first = renderer_for(fig)
    assert isinstance(first, RendererAgg) and renderer_for(fig) is first
    handles = [Line2D([], [], label=f"classifier {k}") for k in range(7)]
    legend = fit_legend(fig, handles, "outside upper center", 3.0)
    fit_height(fig, legend, 1.5)  # a new height: the same renderer still measures
    assert renderer_for(fig) is first
    w, h = fig.get_size_inches()
    fresh = RendererAgg(w * fig.dpi, h * fig.dpi, fig.dpi)
    assert legend.get_window_extent(first).bounds[2:] == legend.get_window_extent(fresh).bounds[2:]
    fig.set_dpi(100)
    assert renderer_for(fig) is not first and renderer_for(fig).dpi == 100
    assert renderer_for(Figure(figsize=(3.0, 2.0), dpi=100)) is not renderer_for(fig)
