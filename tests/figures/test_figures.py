"""Figures: every kind runs on synthetic Results (with and without uncertainty extras), the files
are complete and byte-identical across runs, PDF fonts are embedded, options do what they say."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ccreport import figures as F
from ccreport.figures import significance_color
from ccreport.project import naming
from ccreport.render.figure_files import write_figures
from ccreport.results import Band, dataset_priors
from tests.synthetic import WORSE_THAN_TRIVIAL, synthetic_dataset, synthetic_results

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def plain():
    return synthetic_results(datasets=("alpha", "beta"))


@pytest.fixture(scope="module")
def extras():
    return synthetic_results(datasets=("one",), bands=True, folds=True)


def _draw(fig: Figure) -> Figure:
    fig.draw_without_rendering()  # runs layout and every artist's draw
    return fig


def _lines_with_color(ax, color):
    return [ln for ln in ax.get_lines() if ln.get_color() == color and len(ln.get_xdata()) > 1]


# --- styles ---------------------------------------------------------------------------------------


def test_styles_distinct_and_consistent(plain):
    styles = F.classifier_styles(plain)
    assert list(styles) == F.classifier_names(plain)
    triples = {(s.color, str(s.linestyle), s.marker) for s in styles.values()}
    assert len(triples) == len(styles)
    assert len({s.color for s in styles.values()}) == len(styles)
    assert len({str(s.linestyle) for s in styles.values()}) == len(styles)
    # the same classifier is drawn with the same colour in every figure of every dataset
    colour = styles["naive_bayes"].color
    for d in plain.datasets.values():
        assert _lines_with_color(F.cost_space(d, styles).axes[0], colour)
        assert _lines_with_color(F.roc_space(d, styles).axes[0], colour)
    many = F.classifier_styles([f"c{i}" for i in range(42)])
    assert len({(s.color, str(s.linestyle), s.marker) for s in many.values()}) == 42


def test_style_file_is_packaged_and_sets_reproducibility():
    text = F.STYLE_FILE.read_text()
    for key in ("svg.hashsalt", "svg.fonttype: none", "pdf.fonttype: 42"):
        assert key in text
    assert '"*.mplstyle"' in (ROOT / "pyproject.toml").read_text()


# --- each kind of figure --------------------------------------------------------------------------


@pytest.mark.parametrize("bands", [False, True])
def test_every_kind_runs(plain, extras, bands):
    results = extras if bands else plain
    styles = F.classifier_styles(results)
    d = next(iter(results.datasets.values()))
    figs = [
        F.cost_space(d, styles),
        F.cost_space(d, styles, bands=True, folds=True),
        F.cost_space(d, styles, ranges=False, width="full"),
        F.roc_space(d, styles),
        F.prior_densities(results.priors),
        F.cost_priors(d, results.priors, styles),
        F.small_multiples(results, styles),
        *[F.classifier_focus(d, c, styles) for c in d.classifiers],
        *[F.difference(m, styles) for m in d.comparisons.values()],
    ]
    for fig in figs:
        assert isinstance(fig, Figure)
        _draw(fig)


def test_axis_labels_use_the_papers_names(plain):
    d = plain.datasets["alpha"]
    fig = F.cost_space(d)
    ax, strip = fig.axes[:2]
    assert ax.get_ylabel() == "Normalized expected cost"
    assert strip.get_xlabel().startswith("PC(+)")
    roc = F.roc_space(d).axes[0]
    assert (roc.get_xlabel(), roc.get_ylabel()) == ("False positive rate", "True positive rate")


def test_default_and_rescaled_y(plain):
    d = plain.datasets["alpha"]
    assert F.cost_space(d).axes[0].get_ylim() == (0.0, 0.5)
    assert F.cost_space(d, rescaled_y=True).axes[0].get_ylim() == (0.0, 1.0)
    assert F.cost_priors(d, plain.priors, rescaled_y=True).axes[0].get_ylim() == (0.0, 1.0)


def test_trivial_diagonals_are_bold(plain):
    ax = F.cost_space(plain.datasets["alpha"]).axes[0]
    trivial = [ln for ln in ax.get_lines() if ln.get_color() == F.TRIVIAL_COLOUR]
    assert {(tuple(ln.get_xdata()), tuple(ln.get_ydata())) for ln in trivial} >= {
        ((0, 1), (0, 1)),
        ((0, 1), (1, 0)),
    }
    others = [ln.get_linewidth() for ln in ax.get_lines() if ln not in trivial]
    assert all(ln.get_linewidth() > max(others) for ln in trivial)


def test_highlight_draws_one_over_the_others(plain):
    d = plain.datasets["alpha"]
    styles = F.classifier_styles(plain)
    ax = F.cost_space(d, styles, highlight="tree").axes[0]
    width = {
        name: max(ln.get_linewidth() for ln in _lines_with_color(ax, st.color))
        for name, st in styles.items()
    }
    alpha = {
        name: max(ln.get_alpha() or 1 for ln in _lines_with_color(ax, st.color))
        for name, st in styles.items()
    }
    z = {
        name: max(ln.get_zorder() for ln in _lines_with_color(ax, st.color))
        for name, st in styles.items()
    }
    for name in styles:
        if name != "tree":
            assert width["tree"] > width[name] and alpha[name] < 1 and z["tree"] > z[name]
    with pytest.raises(ValueError):
        F.cost_space(d, styles, highlight="no such classifier")


def test_crisp_classifier_drawn_as_its_cost_line(plain):
    d = plain.datasets["alpha"]
    c = d.classifiers["tree_crisp"]
    st = F.classifier_styles(plain)["tree_crisp"]
    lines = _lines_with_color(F.cost_space(d).axes[0], st.color)
    ends = {(tuple(ln.get_xdata()), tuple(np.round(ln.get_ydata(), 12))) for ln in lines}
    assert ((0.0, 1.0), tuple(np.round(c.cost_line, 12))) in ends


def test_worse_than_trivial_and_crisp_only():
    d = synthetic_dataset("bad", classifiers=("logreg", WORSE_THAN_TRIVIAL))
    assert d.classifiers[WORSE_THAN_TRIVIAL].operating_range is None
    fig = _draw(F.cost_space(d))
    strip_text = [t.get_text() for t in fig.axes[1].texts]
    assert "no operating range" in strip_text
    crisp = synthetic_dataset("crisp", classifiers=("tree_crisp",))
    for fig in (
        F.cost_space(crisp),
        F.roc_space(crisp),
        F.cost_priors(crisp, synthetic_results().priors),
    ):
        _draw(fig)


def test_bands_and_folds_drawn_only_when_present(plain, extras):
    d = extras.datasets["one"]
    fig = F.classifier_focus(d, "logreg")
    ax = fig.axes[0]
    assert ax.collections, "the band of the highlighted classifier is shaded"
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("pointwise band" in t for t in labels) and "fold average" in labels
    bare = F.classifier_focus(plain.datasets["alpha"], "logreg")
    assert not bare.axes[0].collections
    assert not any("band" in t.get_text() for t in bare.legends[0].get_texts())


def test_difference_marks_crossovers_band_and_significance(extras, plain):
    d = extras.datasets["one"]
    crossing = [m for m in d.comparisons.values() if m.crossovers]
    assert crossing, "the synthetic data should have a pair whose curves cross"
    m = crossing[0]
    fig = _draw(F.difference(m))
    ax = fig.axes[0]
    vlines = [
        ln
        for ln in ax.get_lines()
        if len(ln.get_xdata()) == 2 and ln.get_xdata()[0] == ln.get_xdata()[1]
    ]
    assert sorted(float(ln.get_xdata()[0]) for ln in vlines) == pytest.approx(sorted(m.crossovers))
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "crossover" in labels and any("pointwise band of the difference" in t for t in labels)
    assert any("significant" in t for t in labels) == bool(m.significant)
    lo, hi = ax.get_ylim()
    assert lo < 0 < hi
    plain_m = next(iter(plain.datasets["alpha"].comparisons.values()))
    labels = [t.get_text() for t in _draw(F.difference(plain_m)).legends[0].get_texts()]
    assert not any("band" in t or "significant" in t for t in labels)


def test_significance_bar_coloured_by_the_better_classifiers_name(plain):
    # regression: a classifier named "a" that is the comparison's b took a's colour
    m = dataclasses.replace(next(iter(plain.datasets["alpha"].comparisons.values())), a="b", b="a")
    styles = F.classifier_styles(["b", "a"])
    assert styles["a"].color != styles["b"].color
    assert significance_color("a", m, styles) == styles["a"].color
    assert significance_color("b", m, styles) == styles["b"].color
    assert significance_color(None, m, styles) == "#555555"


def test_point_prior_is_an_arrow_with_its_value(plain):
    fig = _draw(F.prior_densities(plain.priors))
    ax = fig.axes[0]
    assert any(t.get_text() == "0.68" for t in ax.texts)
    assert len(ax.get_lines()) == sum(p.density is not None for p in plain.priors.values())


def test_cost_priors_share_the_x_axis(plain):
    fig = F.cost_priors(plain.datasets["alpha"], plain.priors)
    cost, prior = fig.axes[:2]
    assert cost.get_shared_x_axes().joined(cost, prior)
    assert prior.get_ylabel() == "Density"


def test_small_multiples_one_panel_per_dataset_and_one_legend(plain):
    fig = F.small_multiples(plain)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == list(plain.datasets)
    assert len(fig.legends) == 1
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert len(labels) == 1 + len(F.classifier_names(plain))
    three = synthetic_results(datasets=("a", "b", "c"))
    assert sum(ax.get_visible() for ax in F.small_multiples(three).axes) == 3
    one = synthetic_results(datasets=("only",))
    _draw(F.small_multiples(one))


def test_dense_rocs_are_rasterized():
    d = synthetic_dataset("dense", classifiers=("logreg",), dense=True)
    ax = F.roc_space(d).axes[0]
    assert any(ln.get_rasterized() for ln in ax.get_lines() if len(ln.get_xdata()) > F.DENSE_POINTS)


def test_sizes_are_journal_sizes(plain):
    d = plain.datasets["alpha"]
    assert F.cost_space(d).get_size_inches()[0] == pytest.approx(3.5)
    assert F.cost_space(d, width="full").get_size_inches()[0] == pytest.approx(7.0)
    assert F.small_multiples(plain).get_size_inches()[0] == pytest.approx(7.0)


def test_legends_outside_the_axes(plain):
    """A legend must not hide curves: every legend box lies outside every axes box."""
    d = plain.datasets["alpha"]
    for fig in (
        F.cost_space(d),
        F.roc_space(d),
        F.difference(next(iter(d.comparisons.values()))),
        F.small_multiples(plain),
    ):
        fig.draw_without_rendering()
        renderer = fig._get_renderer()
        for legend in fig.legends:
            box = legend.get_window_extent(renderer)
            for ax in fig.axes:
                if ax.get_visible():
                    assert not box.overlaps(ax.get_window_extent(renderer))


def test_nothing_clipped(plain):
    """All text (labels, ticks, legends) lies inside the figure."""
    d = plain.datasets["alpha"]
    for fig in (
        F.cost_space(d),
        F.cost_priors(d, plain.priors),
        F.roc_space(d),
        F.difference(next(iter(d.comparisons.values()))),
    ):
        fig.draw_without_rendering()
        tight = fig.get_tightbbox()
        w, h = fig.get_size_inches()
        assert (
            tight.x0 >= -0.01
            and tight.y0 >= -0.01
            and tight.x1 <= w + 0.01
            and tight.y1 <= h + 0.01
        )


# --- files ----------------------------------------------------------------------------------------


def test_file_stems_of_names():
    from ccreport.project.naming import stem

    assert stem("sonar") == "sonar"  # a plain name is kept
    assert stem("German credit/2").startswith("german-credit-2--")  # else readable + hash
    assert stem("../../etc").startswith("etc--") and stem("ü").startswith("x--")


SMALL = ("logreg", "stump", "tree_crisp")


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """One synthetic report (with extras) written once in svg, pdf and png, for the file tests."""
    folder = tmp_path_factory.mktemp("figures")
    results = synthetic_results(datasets=("one",), classifiers=SMALL, bands=True, folds=True)
    return (
        results,
        folder,
        write_figures(results, folder, formats=("svg", "pdf", "png"), workers=1, rescaled=True),
    )


def test_write_figures_index(written):
    extras, tmp_path, index = written
    d = extras.datasets["one"]
    expected = {
        "overview/priors",
        "one/cost",
        "one/cost-rescaled",
        "one/roc",
    }
    expected |= {"one/focus"} | {f"one/diff/{k}" for k in d.comparisons}
    assert set(index) == expected
    for key, entry in index.items():
        for fmt in ("svg", "pdf", "png"):
            path = tmp_path / entry[fmt]
            assert path.is_file() and path.stat().st_size > 1000, (key, fmt)
            assert not Path(entry[fmt]).is_absolute() and ".." not in entry[fmt]
        assert entry["caption"] and entry["alt"] and entry["width"] in ("column", "full")
    assert index["overview/priors"]["width"] == "column"
    assert "(Rescaled Y)" in index["one/cost-rescaled"]["caption"]
    assert "(Rescaled Y)" not in index["one/cost"]["caption"]
    assert index["one/cost"]["svg"] == "figures/one/cost.svg"


def test_rescaled_figure_only_when_something_passes_half():
    import dataclasses

    from ccreport.figures.cost_space import above_half

    c = synthetic_dataset("x", classifiers=("logreg", "tree_crisp")).classifiers
    assert not above_half(c["logreg"])
    high = dataclasses.replace(c["tree_crisp"], cost_line=(0.2, 0.7))
    assert above_half(high) and not above_half(dataclasses.replace(high, cost_line=(0.2, 0.4)))
    band = Band(
        level=0.9,
        replicates=10,
        method="test",
        pc=np.array([0, 1]),
        lower=np.array([0, 0]),
        upper=np.array([0.3, 0.6]),
    )
    assert above_half(dataclasses.replace(c["logreg"], band=band))


def test_write_figures_without_extras_skips_focus_and_escapes_names(tmp_path):
    results = synthetic_results(
        datasets=("Sonar / rocks & mines",), classifiers=("logreg", "tree_crisp")
    )
    index = write_figures(results, tmp_path, workers=1, rescaled=False)
    assert not any(k.endswith("/focus") for k in index)
    assert not any(k.endswith("/cost-rescaled") for k in index)
    key = "Sonar / rocks & mines/diff/logreg vs tree_crisp"
    stem = naming.stem("Sonar / rocks & mines")  # not a plain name: readable part + hash
    assert stem.startswith("sonar-rocks-mines--")
    assert index[key]["svg"] == f"figures/{stem}/diff/logreg--vs--tree_crisp.svg"
    assert (tmp_path / index[key]["pdf"]).is_file()


def test_pdf_fonts_embedded(written):
    _, tmp_path, index = written
    for entry in index.values():
        data = (tmp_path / entry["pdf"]).read_bytes()
        assert b"/FontFile2" in data, entry["pdf"]
        assert b"/FontFile " not in data and b"/Type3" not in data


def test_pdf_fonts_embedded_pypdf(written):
    pypdf = pytest.importorskip("pypdf")
    _, tmp_path, index = written
    reader = pypdf.PdfReader(tmp_path / index["one/cost"]["pdf"])
    fonts = reader.pages[0]["/Resources"]["/Font"]
    for ref in fonts.values():
        font = ref.get_object()
        descendant = font["/DescendantFonts"][0].get_object()
        assert "/FontFile2" in descendant["/FontDescriptor"].get_object()
    assert "Normalized expected cost" in reader.pages[0].extract_text()


def test_svg_text_as_text(written):
    """Text is <text> in the style's font (report.pdf pins it: tests/render/test_figure_fonts.py),
    not glyph outlines."""
    _, tmp_path, index = written
    svg = (tmp_path / index["one/cost"]["svg"]).read_text()
    assert (
        "font-family: 'DejaVu Sans', sans-serif" in svg
        and ">Normalized expected cost</text>" in svg
    )
    assert 'id="DejaVuSans-' not in svg  # no glyph outline definitions
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", svg)


_RUN = """
import sys
sys.path.insert(0, {root!r})
from tests.synthetic import synthetic_results
from ccreport.project import naming
from ccreport.render.figure_files import write_figures
results = synthetic_results(
    datasets=("a",), classifiers=("logreg", "stump", "tree_crisp"), bands=True, folds=True
)
write_figures(results, {out!r}, formats=("svg", "pdf"), workers={workers})
"""


def test_byte_identical_across_runs(tmp_path):
    """Two fresh processes (one with worker processes) write the same bytes."""
    outs = []
    for k, workers in enumerate((1, 2)):
        out = tmp_path / f"run{k}"
        subprocess.run(
            [sys.executable, "-c", _RUN.format(root=str(ROOT), out=str(out), workers=workers)],
            check=True,
        )
        outs.append(
            {
                p.relative_to(out).as_posix(): p.read_bytes()
                for p in sorted(out.rglob("*"))
                if p.is_file()
            }
        )
    assert outs[0].keys() == outs[1].keys() and len(outs[0]) >= 14
    differ = [k for k in outs[0] if outs[0][k] != outs[1][k]]
    assert not differ


def test_cost_priors_only_the_priors_of_the_dataset():
    from tests.synthetic import default_priors

    results = synthetic_results(datasets=("a",), classifiers=("logreg", "stump"))
    some = {k: v for k, v in default_priors().items() if k in ("uniform", "sceptic")}
    d = synthetic_dataset("b", classifiers=("logreg", "stump"), priors=some)
    results = dataclasses.replace(results, datasets={**results.datasets, "b": d})
    assert list(dataset_priors(results, d)) == ["uniform", "sceptic"]
    assert list(dataset_priors(results, results.datasets["a"])) == list(results.priors)
    fig = F.cost_priors(d, dataset_priors(results, d), prior_order=list(results.priors))
    labels = {t.get_text() for legend in fig.legends for t in legend.get_texts()}
    labels |= {
        t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()
    }
    assert "uniform" in labels and "german-5to1" not in labels


def test_a_prior_keeps_its_look_when_a_dataset_uses_some(plain):
    d = plain.datasets["alpha"]
    order = list(plain.priors)
    subset = {k: plain.priors[k] for k in ("around-5to1",)}
    full = F.cost_priors(d, plain.priors).axes[1]
    part = F.cost_priors(d, subset, prior_order=order).axes[1]
    colour = lambda ax: {ln.get_color() for ln in ax.get_lines()}  # noqa: E731
    assert colour(part) <= colour(full)


def test_long_names_do_not_squeeze_the_plot(plain):
    import dataclasses as dc

    d = plain.datasets["alpha"]
    long = "a_classifier_with_a_very_long_descriptive_name"
    c = dc.replace(d.classifiers["logreg"], name=long)
    d2 = dc.replace(
        d, classifiers={long: c, **{k: v for k, v in d.classifiers.items() if k != "logreg"}}
    )
    fig = F.cost_space(d2)
    fig.draw_without_rendering()
    labels = [t.get_text() for t in fig.axes[1].get_yticklabels()]
    assert all(len(t) <= 16 for t in labels)
    assert any(t.get_text() == long for t in fig.legends[0].get_texts())
    assert fig.axes[0].get_position().width > 0.6  # the plot keeps most of the width


def test_one_classifier_and_no_priors(tmp_path):
    results = synthetic_results(datasets=("solo",), classifiers=("tree_crisp",), priors={})
    index = write_figures(results, tmp_path, workers=1)
    assert set(index) == {"solo/cost", "solo/roc"}
    for entry in index.values():
        assert (tmp_path / entry["svg"]).is_file() and (tmp_path / entry["pdf"]).is_file()


def test_segments_are_one_collection_with_the_given_ends():
    from matplotlib.collections import LineCollection

    from ccreport.figures.style import new_figure, segments, style

    with style():
        ax = new_figure(3.5, 3).subplots()
        lc = segments(
            ax,
            [0.0, 0.2],
            [0.1, 0.3],
            [1.0, 0.5],
            [0.9, 0.4],
            color="#111111",
            linewidth=2.0,
            capstyle="butt",
        )
    assert isinstance(lc, LineCollection) and list(ax.collections) == [lc] and not list(ax.lines)
    assert [s.tolist() for s in lc.get_segments()] == [
        [[0.0, 0.1], [1.0, 0.9]],
        [[0.2, 0.3], [0.5, 0.4]],
    ]
    assert lc.get_linewidth()[0] == 2.0 and lc.get_capstyle() == "butt"


def test_focus_caption_says_which_panels_draw_a_band_or_folds(extras):
    """The figure of each classifier highlighted when one classifier has no band and another no
    fold average: the caption names the panels that draw each; with every panel drawing both,
    it names none."""
    from dataclasses import replace

    from ccreport.figures.cost_space import FOCUS
    from ccreport.figures.registry import Subject

    d = extras.datasets["one"]
    names = [
        n for n, c in d.classifiers.items() if c.band is not None and c.fold_average is not None
    ]
    assert len(names) >= 3 and len(names) == len(d.classifiers)
    changed = dict(d.classifiers)
    changed[names[0]] = replace(changed[names[0]], band=None)
    changed[names[1]] = replace(changed[names[1]], fold_average=None)
    mixed = replace(d, classifiers=changed)
    caption = FOCUS.caption(Subject(extras, {}, mixed))
    banded = caption.split("In the panels of ")[1].split(", the shaded region")[0]
    assert banded.split(", ") == names[1:]
    folds = caption.split("per-fold cost curves: ")[1].split(".")[0]
    assert folds.endswith("(" + ", ".join([names[0], *names[2:]]) + ")")
    full = FOCUS.caption(Subject(extras, {}, d))
    assert "In the panels of" not in full and "The shaded region" in full
    assert "dotted line" in full and "folds (" not in full


def _labelled(axis) -> bool:
    return any(t.get_visible() and t.get_text() for t in axis.get_ticklabels())


def test_each_highlighted_draws_one_panel_per_classifier_on_shared_axes(extras):
    """One panel per classifier, titled with its name, the classifier drawn widest there; one
    legend naming every classifier; tick labels on the outer panels only; every panel on one y
    range (rescaled when a band passes 0.5)."""
    d = extras.datasets["one"]
    styles = F.classifier_styles(extras)
    fig = _draw(F.each_highlighted(d, styles, ncols=2))
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == list(d.classifiers)
    assert len(fig.legends) == 1
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert all(any(label.startswith(n) for label in labels) for n in d.classifiers)
    assert len({ax.get_ylim() for ax in panels}) == 1
    for k, ax in enumerate(panels):
        widest = max(_lines_with_color(ax, styles[ax.get_title()].color), key=Line2D.get_linewidth)
        others = [
            ln.get_linewidth()
            for n in d.classifiers
            if n != ax.get_title()
            for ln in _lines_with_color(ax, styles[n].color)
        ]
        assert widest.get_linewidth() > max(others)
        left = k % 2 == 0
        below = k + 2 < len(panels)
        assert _labelled(ax.yaxis) == left and _labelled(ax.xaxis) == (not below)
    rescaled = F.each_highlighted(d, styles, rescaled_y=True)
    assert {ax.get_ylim() for ax in rescaled.axes if ax.get_visible()} == {(0.0, 1.0)}
    two = F.each_highlighted(d, styles, names=list(d.classifiers)[:2])
    assert [ax.get_title() for ax in two.axes if ax.get_visible()] == list(d.classifiers)[:2]
    with pytest.raises(ValueError, match="no classifier"):
        F.each_highlighted(d, styles, names=["no such classifier"])


def test_body_cost_figure_shades_every_band(extras):
    """The dataset's cost figure (the body's, issue 36: "one cost curve figure with bands") shades
    each classifier's pointwise band in its colour, and its caption says whose bands they are."""
    from matplotlib.colors import to_rgba

    from ccreport.figures.registry import REGISTRY, Subject

    d = extras.datasets["one"]
    styles = F.classifier_styles(extras)
    spec = REGISTRY["cost"]
    subject = Subject(extras, styles, d, None)
    ax = _draw(spec.draw(subject)).axes[0]
    banded = [c for c in d.classifiers.values() if c.band is not None]
    assert banded, "the fixture has bands"
    shaded = {tuple(np.round(p.get_facecolor()[0][:3], 6)) for p in ax.collections}
    for c in banded:
        assert tuple(np.round(to_rgba(styles[c.name].color)[:3], 6)) in shaded, c.name
    assert "pointwise confidence bands of each classifier" in spec.caption(subject)
    # one classifier without a band: the caption names those with one
    changed = dict(d.classifiers)
    changed[banded[0].name] = dataclasses.replace(banded[0], band=None)
    fewer = dataclasses.replace(d, classifiers=changed)
    caption = spec.caption(Subject(extras, styles, fewer, None))
    named = caption.split("pointwise confidence bands of each of ")[1].split(";")[0].split(".")[0]
    assert named.split(", ") == [c.name for c in banded[1:]]
    # without bands at all, no sentence on them
    bare = dataclasses.replace(d, classifiers={n: replace_band(c) for n, c in changed.items()})
    assert "shaded" not in spec.caption(Subject(extras, styles, bare, None))


def replace_band(c):
    return dataclasses.replace(c, band=None)


def test_selection_criteria_are_one_figure_with_a_row_per_criterion():
    """Every selection criterion of a dataset (Neyman-Pearson, workforce and the threshold set
    from PC(+) alone) is a row of one figure: its ROC and cost panels on the unit square and a
    key naming what they draw; x tick labels under the last row only; the workforce key gives the
    virtual point of Eq. 12."""
    from site_fixtures import example_results

    from ccreport.figures.registry import REGISTRY, FigureOptions, Subject
    from ccreport.figures.selection import empirical_criteria, independent_criterion

    assert "independent" not in REGISTRY
    results = example_results()
    spec = REGISTRY["criteria"]
    for d in results.datasets.values():
        subject = Subject(results, {}, d)
        assert spec.wanted(subject, FigureOptions())
        names = [name for name, _, _ in empirical_criteria(d)] + [independent_criterion(d)[0]]
        fig = _draw(spec.draw(subject))
        assert not fig.subfigs  # one grid of axes: a title row, then the row's three panels
        rows = [fig.axes[at : at + 4] for at in range(0, len(fig.axes), 4)]
        assert len(rows) == len(names) == 3
        for k, (row, name) in enumerate(zip(rows, names, strict=True)):
            title_ax, roc_ax, cost_ax, key_ax = row
            assert [t.get_text()[: len(name) + 2] for t in title_ax.texts] == [f"{name}: "]
            if k:  # the columns line up from row to row
                assert cost_ax.get_position().x0 == rows[0][2].get_position().x0
            assert roc_ax.get_ylim() == cost_ax.get_ylim() == (0.0, 1.0)
            last = k == len(rows) - 1
            assert _labelled(roc_ax.xaxis) == _labelled(cost_ax.xaxis) == last
            assert bool(cost_ax.get_xlabel()) == last
            labels = [t.get_text() for t in key_ax.get_legend().get_texts()]
            assert "ROC curve" in labels and "lower envelope" in labels
        workforce = rows[1][3].get_legend().get_title().get_text()
        assert workforce.startswith("Eq. 12 point at PC(+) = ")
        caption = spec.caption(subject)
        assert all(f"Fig. {n}" in caption for n in (21, 23, 24))
