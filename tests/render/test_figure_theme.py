"""Greyscale-safe figures and the journal theme's black-and-white figures (issue 14, item 4)."""

from __future__ import annotations

import dataclasses
import importlib
import re

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from site_fixtures import synthetic_results

from ccreport import figures as F
from ccreport.paths import THEME_STYLE_NAME, themes_dir
from ccreport.results import SignificantRegion

D = importlib.import_module(
    "ccreport.figures.difference"
)  # the module (the package exports the function)
JOURNAL_STYLE = themes_dir() / "journal" / THEME_STYLE_NAME


def pair_with_significance():
    results = synthetic_results(("alpha", "beta"))
    d = next(iter(results.datasets.values()))
    m = next(iter(d.comparisons.values()))
    regions = (SignificantRegion(0.1, 0.3, m.a), SignificantRegion(0.6, 0.8, m.b))
    return results, dataclasses.replace(m, significant=regions)


def pixels(fig) -> np.ndarray:
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].astype(int)


def draw(m, results):
    styles = F.classifier_styles(results)
    with F.style():
        fig = D.difference(m, styles)
        rgb = pixels(fig)
    return fig, rgb


def test_significance_bars_are_hatched_per_winner_and_the_legend_swatches_match():
    results, m = pair_with_significance()
    fig, _ = draw(m, results)
    ax = fig.axes[0]
    bars = [
        c
        for c in ax.collections
        if c.get_hatch() in (D.A_HATCH, D.B_HATCH) and c.get_transform() is not ax.transData
    ]
    swatches = {p.get_label(): p for p in fig.legends[0].get_patches()}
    a_swatch, b_swatch = (
        swatches[f"significant: {m.a} cheaper"],
        swatches[f"significant: {m.b} cheaper"],
    )
    assert a_swatch.get_hatch() == D.A_HATCH and b_swatch.get_hatch() == D.B_HATCH
    styles = F.classifier_styles(results)
    for winner, swatch in ((m.a, a_swatch), (m.b, b_swatch)):
        look = D.significance_look(winner, m, styles)
        assert np.allclose(swatch.get_facecolor()[:3], look["facecolor"])
        assert np.allclose(swatch.get_edgecolor()[:3], look["edgecolor"])
    # the bars themselves carry the same looks: one with a's hatch, one with b's
    assert sorted(b.get_hatch() for b in bars if len(b.get_paths())) >= sorted(
        [D.A_HATCH, D.B_HATCH]
    )


def test_default_figures_have_colour_and_journal_figures_are_black_and_white():
    results, m = pair_with_significance()
    _, rgb = draw(m, results)
    spread = rgb.max(axis=2) - rgb.min(axis=2)
    assert spread.max() > 60  # the default theme draws in colour
    with F.theme_style(JOURNAL_STYLE):
        assert all(
            np.ptp([int(s.color[i : i + 2], 16) for i in (1, 3, 5)]) == 0
            for s in F.classifier_styles(results).values()
        )
        _, rgb = draw(m, results)
    spread = rgb.max(axis=2) - rgb.min(axis=2)
    assert spread.max() <= 3  # only greys (anti-aliasing of grey on white stays grey)


def test_theme_style_is_restored_and_a_theme_without_colours_keeps_the_palette(tmp_path):
    plain = tmp_path / THEME_STYLE_NAME
    plain.write_text("grid.color: eeeeee\n")
    with F.theme_style(plain):
        assert (
            F.style_for(0).color == F.style_for(0).color
            and F.style_for(0).color.lower() == "#0072b2"
        )
    with F.theme_style(JOURNAL_STYLE):
        assert F.style_for(0).color == "#000000"
    assert F.style_for(0).color.lower() == "#0072b2"


def test_journal_build_draws_black_and_white_figures(tmp_path):
    from site_fixtures import write_tiny_project

    from ccreport.commands.build import build

    for theme in ("journal", None):
        root = write_tiny_project(tmp_path / f"p-{theme}", theme=theme, settings="bootstrap = 500")
        build(root, tmp_path / f"out-{theme}", pdf=False)
    journal = (tmp_path / "out-journal/figures/tiny/cost.svg").read_text()
    default = (tmp_path / "out-None/figures/tiny/cost.svg").read_text()

    def colours(svg):
        return {c.lower() for c in re.findall(r"#[0-9a-fA-F]{6}", svg)}

    def grey(c):
        return c[1:3] == c[3:5] == c[5:7]

    assert all(grey(c) for c in colours(journal)), sorted(
        c for c in colours(journal) if not grey(c)
    )
    assert not all(grey(c) for c in colours(default))
    assert not (tmp_path / "out-journal/assets" / THEME_STYLE_NAME).exists()
