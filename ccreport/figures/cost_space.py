"""Cost space (D&H 2006 sections 3-4): the cost figure of a dataset, one classifier in focus, small
multiples.

* :func:`cost_space` - the lower envelope of every classifier (a crisp classifier's single cost
  line, Eq. 2), the trivial classifiers' diagonals in bold (section 4.2, Fig. 8), each classifier's
  operating range (Fig. 9b) in a strip under the plot, y from 0 to 0.5 or "(Rescaled Y)" 0 to 1
  (section 3.2); confidence bands shaded (Fig. 16) and fold averages (section 4.5) when present;
* :func:`classifier_focus` - one classifier over the others, with its band (Fig. 16 style);
* :func:`each_highlighted` - every classifier highlighted in turn, one panel each, shared axes
  and one legend (the report's "each classifier highlighted" figure);
* :func:`small_multiples` - one cost-space panel per dataset with a shared legend (for notebooks:
  the report does not place it, as each dataset's chapter draws its own curves).

Each figure kind is registered with its caption and alt text (:class:`~.registry.FigureSpec`).
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..results import ClassifierResult, DatasetResult, Results, classifier_names, dataset_priors
from .registry import FigureOptions, FigureSpec, Subject, register
from .style import (
    COLUMN_WIDTH,
    DENSE_POINTS,
    FULL_WIDTH,
    NEC_LABEL,
    PANEL_PLOT_HEIGHT,
    PC_LABEL,
    SMALL_FONT,
    TRIVIAL_COLOUR,
    TRIVIAL_WIDTH,
    Style,
    as_array,
    fit_height,
    is_crisp,
    is_panel,
    label_of,
    legend_columns,
    level_text,
    new_figure,
    pc_label,
    style,
    styles_for,
    top_legend,
    width_inches,
)


def marker_positions(pc, nec, index: int, count: int, n: int = 5):
    """Positions of a few markers along a curve, staggered between classifiers so they never
    coincide."""
    offset = 0.06 + 0.16 * (index % max(count, 1)) / max(count, 1)
    x = offset + 0.2 * np.arange(n)
    x = x[x < 0.99]
    return x, np.interp(x, pc, nec)


def _draw_trivial(ax, label=True):
    kw = dict(color=TRIVIAL_COLOUR, linewidth=TRIVIAL_WIDTH, solid_capstyle="butt", zorder=2)
    ax.plot([0, 1], [0, 1], label="Trivial classifiers" if label else None, **kw)
    ax.plot([0, 1], [1, 0], **kw)


def _draw_band(ax, band, color, alpha, zorder):
    pc, lo, hi = as_array(band.pc), as_array(band.lower), as_array(band.upper)
    ax.fill_between(pc, lo, hi, color=color, alpha=alpha, linewidth=0, zorder=zorder)
    simultaneous = band.simultaneous
    if simultaneous is not None:
        for edge in (simultaneous.lower, simultaneous.upper):
            ax.plot(
                pc,
                as_array(edge),
                color=color,
                linewidth=0.7,
                linestyle=(0, (3, 2)),
                alpha=0.9,
                zorder=zorder,
            )


def _draw_classifier(ax, c: ClassifierResult, st: Style, index: int, count: int, emphasis: str):
    """emphasis: 'normal', 'dim' (others when one is highlighted) or 'bold' (the highlighted
    one)."""
    alpha = {"normal": 1.0, "dim": 0.35, "bold": 1.0}[emphasis]
    lw = {"normal": 1.3, "dim": 0.9, "bold": 2.1}[emphasis]
    z = {"normal": 4, "dim": 3, "bold": 6}[emphasis]
    pc, nec = as_array(c.envelope_pc), as_array(c.envelope_nec)
    rast = pc.size > DENSE_POINTS
    if is_crisp(c):
        fpr, fnr = c.cost_line
        ax.plot(
            pc,
            nec,
            color=st.color,
            linewidth=0.8,
            alpha=0.45 * alpha,
            zorder=z - 1,
            rasterized=rast,
        )
        line_x, line_y = np.array([0.0, 1.0]), np.array([fpr, fnr])
    else:
        line_x, line_y = pc, nec
    ax.plot(
        line_x,
        line_y,
        color=st.color,
        linestyle=st.linestyle,
        linewidth=lw,
        alpha=alpha,
        zorder=z,
        rasterized=rast,
    )
    mx, my = marker_positions(line_x, line_y, index, count)
    st.markers(ax, mx, my, size=4 if emphasis == "bold" else 3.5, alpha=alpha, zorder=z + 0.5)


def _draw_fold_average(ax, c: ClassifierResult, st: Style, alpha=0.9):
    """The vertical average of the per-fold cost curves (D&H 2006 section 4.5), dotted."""
    fa = c.fold_average
    if fa is None:
        return False
    pc = as_array(fa.pc)
    ax.plot(
        pc,
        as_array(fa.nec),
        color=st.color,
        linewidth=0.9,
        linestyle=(0, (0.8, 1.2)),
        alpha=alpha,
        zorder=5,
        dash_capstyle="round",
    )
    return True


def _short(name: str, limit: int = 16) -> str:
    """A row label that cannot squeeze the plot (the legend has the full name)."""
    return name if len(name) <= limit else name[: limit - 1] + "\u2026"


def draw_ranges(ax, classifiers: list[ClassifierResult], styles, highlight):
    """Operating ranges (D&H 2006 section 4.2) as one bracketed bar per classifier."""
    n = len(classifiers)
    for row, c in enumerate(classifiers):
        st = styles[c.name]
        y = n - 1 - row
        dim = highlight is not None and c.name != highlight
        alpha = 0.4 if dim else 1.0
        if c.operating_range is None:
            ax.text(
                0.5,
                y,
                "no operating range",
                ha="center",
                va="center",
                fontsize=SMALL_FONT,
                color=st.color,
                alpha=alpha,
            )
            continue
        lo, hi = c.operating_range
        ax.plot(
            [lo, hi],
            [y, y],
            color=st.color,
            linestyle=st.linestyle,
            linewidth=1.6,
            alpha=alpha,
            solid_capstyle="butt",
        )
        ax.plot(
            [lo, hi],
            [y, y],
            linestyle="none",
            marker="|",
            markersize=5,
            markeredgewidth=1.1,
            color=st.color,
            alpha=alpha,
        )
        x = lo + (hi - lo) * (0.15 + 0.7 * row / max(n - 1, 1))
        st.markers(ax, [x], [y], size=3.3, edge=0.4, alpha=alpha)
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_yticks(range(n), [_short(c.name) for c in reversed(classifiers)], fontsize=SMALL_FONT)
    ax.tick_params(axis="y", length=0, pad=2)
    ax.grid(axis="y", visible=False)
    ax.set_xlim(0, 1)


def _cost_axes_setup(ax, rescaled_y: bool):
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.0 if rescaled_y else 0.5)
    ax.set_ylabel(NEC_LABEL)
    ax.set_xticks(np.linspace(0, 1, 6))
    ax.set_yticks(np.linspace(0, 1, 6) if rescaled_y else np.linspace(0, 0.5, 6))
    ax.margins(0)


def setup_handle() -> Line2D:
    """The trivial classifiers' legend entry."""
    return Line2D(
        [], [], color=TRIVIAL_COLOUR, linewidth=TRIVIAL_WIDTH, label="Trivial classifiers"
    )


def setup_cost_axes(ax, rescaled_y: bool = False) -> list:
    """Limits, ticks, y label and the trivial classifiers' diagonals; returns their legend
    handle."""
    _cost_axes_setup(ax, rescaled_y)
    _draw_trivial(ax)
    return [setup_handle()]


def draw_cost(
    ax, dataset: DatasetResult, styles, highlight=None, rescaled_y=False, bands=True, folds=True
):
    """Draw the cost-space content into ``ax``; returns the legend handles."""
    classifiers = list(dataset.classifiers.values())
    if highlight is not None and highlight not in dataset.classifiers:
        raise ValueError(f"highlight: no classifier {highlight!r} in dataset {dataset.name!r}")
    handles = setup_cost_axes(ax, rescaled_y)
    have_band = have_simultaneous = have_folds = False
    level = None
    for i, c in enumerate(classifiers):
        emphasis = "normal" if highlight is None else ("bold" if c.name == highlight else "dim")
        handle, band, drew_folds = draw_cost_classifier(
            ax, c, styles[c.name], i, len(classifiers), emphasis, bands, folds
        )
        handles.append(handle)
        if band is not None:
            have_band = True
            have_simultaneous |= band.simultaneous is not None
            level = band.level
        have_folds |= drew_folds
    handles += band_handles(
        have_band,
        have_simultaneous,
        have_folds,
        level,
        styles[highlight].color if highlight is not None else "#808080",
    )
    return handles


def draw_cost_classifier(
    ax,
    c: ClassifierResult,
    st: Style,
    index: int,
    count: int,
    emphasis: str = "normal",
    bands: bool | None = None,
    folds: bool | None = None,
):
    """One classifier's cost curve into ``ax`` (with its band and fold average when asked and
    present): returns its legend handle, the band drawn (or None) and whether a fold average was.
    ``index``/``count``: its place among the classifiers drawn (staggers the markers)."""
    band = c.band
    show = emphasis == "bold"
    if bands is not None:
        show = bool(bands) and emphasis != "dim"
    drawn = None
    if show and band:
        _draw_band(ax, band, st.color, 0.28 if emphasis != "normal" else 0.14, zorder=1)
        drawn = band
    show_folds = (emphasis == "bold") if folds is None else (bool(folds) and emphasis != "dim")
    drew_folds = bool(show_folds and _draw_fold_average(ax, c, st))
    _draw_classifier(ax, c, st, index, count, emphasis)
    handle = st.handle(
        label_of(c),
        linewidth=2.0 if emphasis == "bold" else 1.3,
        alpha=0.45 if emphasis == "dim" else 1.0,
    )
    return handle, drawn, drew_folds


def band_handles(
    have_band: bool, have_simultaneous: bool, have_folds: bool, level, band_colour: str
) -> list:
    """The legend entries of what :func:`draw_cost_classifier` drew beside the curves."""
    handles = []
    lt = level_text(level)
    if have_band:
        handles.append(
            Patch(facecolor=band_colour, alpha=0.35, linewidth=0, label=f"{lt}pointwise band")
        )
    if have_simultaneous:
        handles.append(
            Line2D(
                [],
                [],
                color="#606060",
                linewidth=0.7,
                linestyle=(0, (3, 2)),
                label=f"{lt}simultaneous band",
            )
        )
    if have_folds:
        handles.append(
            Line2D(
                [],
                [],
                color="#606060",
                linewidth=0.9,
                linestyle=(0, (0.8, 1.2)),
                label="fold average",
            )
        )
    return handles


def cost_space(
    dataset: DatasetResult,
    styles: dict[str, Style] | None = None,
    *,
    highlight: str | None = None,
    rescaled_y: bool = False,
    ranges: bool = True,
    bands: bool | None = None,
    folds: bool | None = None,
    width: str | float = "column",
    title: str | None = None,
    legend: bool = True,
) -> Figure:
    """Cost curves of every classifier on one dataset (D&H 2006 Fig. 8, 9b, 13b).

    ``highlight`` draws that classifier bold over the others (which are de-emphasised), with its
    band and fold spread if present. ``rescaled_y`` shows nec from 0 to 1 instead of 0 to 0.5
    (say "(Rescaled Y)" in the caption, as the paper does). ``ranges`` adds the operating-range
    strip under the plot. ``bands``/``folds``: draw confidence bands / fold averages (when the
    results carry them) for every classifier (True), none (False), or, by default (None), only for
    the highlighted one - bands of six classifiers on one plot hide each other. ``legend=False``
    (a panel of a grid whose note says what the legend would): no legend, and a panel's height
    is that of its axes.
    """
    styles = styles_for(styles, dataset.classifiers)
    with style():
        w = width_inches(width)
        n = len(dataset.classifiers)
        main_h = PANEL_PLOT_HEIGHT if is_panel(w) else 2.35 if w <= COLUMN_WIDTH + 0.01 else 2.9
        strip_h = 0.16 + 0.12 * n if ranges else 0
        legend_h = (
            0.17
            * math.ceil(
                (n + 2) / legend_columns([Line2D([], [], label=c) for c in dataset.classifiers], w)
            )
            + 0.1
        )
        fig = new_figure(w, main_h + strip_h + legend_h + 0.45)
        if ranges:
            ax, strip = fig.subplots(2, 1, sharex=True, height_ratios=[main_h, strip_h])
        else:
            ax, strip = fig.subplots(), None
        handles = draw_cost(ax, dataset, styles, highlight, rescaled_y, bands, folds)
        if strip is not None:
            draw_ranges(strip, list(dataset.classifiers.values()), styles, highlight)
            ax.tick_params(labelbottom=False)
            strip.set_xlabel(pc_label(w))
            strip.set_title("Operating range", fontsize=6.5, loc="left", pad=2, color="#333333")
        else:
            ax.set_xlabel(pc_label(w))
        if title:
            ax.set_title(title)
        key = top_legend(fig, handles, w) if legend else None
        if is_panel(w):
            fit_height(fig, key, main_h + strip_h + 0.1)
        fig.align_ylabels()
    return fig


def classifier_focus(
    dataset: DatasetResult,
    name: str,
    styles: dict[str, Style] | None = None,
    *,
    rescaled_y: bool = False,
    width: str | float = "column",
    legend: bool = True,
) -> Figure:
    """One classifier highlighted over the others with its band and fold average (Fig. 16 style).

    No operating-range strip: the dataset's cost figure has it, and the band needs the room.
    ``legend=False``: see :func:`cost_space` (a panel of the grid: the grid's note says what its
    legend would, the dataset's cost figure names the classifiers' styles).
    """
    return cost_space(
        dataset,
        styles,
        highlight=name,
        rescaled_y=rescaled_y,
        width=width,
        ranges=False,
        legend=legend,
    )


def each_highlighted(
    dataset: DatasetResult,
    styles: dict[str, Style] | None = None,
    *,
    names=None,
    rescaled_y: bool | None = None,
    ncols: int | None = None,
    width: str | float = "full",
) -> Figure:
    """Each classifier highlighted (D&H 2006 Fig. 16 style) as small multiples: one panel per
    classifier of ``names`` (default: every classifier of ``dataset``), each drawn as
    :func:`classifier_focus` draws it (the classifier bold with its band and fold average, the
    others faint), its title naming the highlighted classifier.

    The panels share both axes (tick labels on the outer panels only) and one legend above them:
    every classifier's colour, dash and marker (so up to eight are told apart in greyscale), the
    trivial classifiers, and the band and fold-average keys when a panel draws them.
    ``rescaled_y`` None: y runs to 1 in every panel when anything a panel draws passes 0.5
    (:func:`focus_rescaled`), else to 0.5. ``ncols``: panels per row (default three at full
    width, two narrower, never more than there are panels).
    """
    styles = styles_for(styles, dataset.classifiers)
    names = list(dataset.classifiers) if names is None else list(names)
    unknown = [n for n in names if n not in dataset.classifiers]
    if unknown or not names:
        raise ValueError(
            f"each_highlighted: no classifier {unknown[0]!r} in dataset {dataset.name!r}"
            if unknown
            else "each_highlighted: no classifier to highlight"
        )
    if rescaled_y is None:
        rescaled_y = any(above_half(dataset.classifiers[n]) for n in names)
    with style():
        w = width_inches(width)
        ncols = min(len(names), ncols or (3 if w > COLUMN_WIDTH + 0.01 else 2))
        nrows = math.ceil(len(names) / ncols)
        fig = new_figure(w, 1.0)
        axes = fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False).ravel()
        have_band = have_simultaneous = have_folds = False
        level = None
        for ax, name in zip(axes, names):
            for i, c in enumerate(dataset.classifiers.values()):
                emphasis = "bold" if c.name == name else "dim"
                _, band, drew_folds = draw_cost_classifier(
                    ax, c, styles[c.name], i, len(dataset.classifiers), emphasis
                )
                if band is not None:
                    have_band, level = True, band.level
                    have_simultaneous |= band.simultaneous is not None
                have_folds |= drew_folds
            _cost_axes_setup(ax, rescaled_y)
            _draw_trivial(ax, label=False)
            ax.set_title(name, fontsize=7, pad=2)
        for ax in axes[len(names) :]:
            ax.set_visible(False)
        for k, ax in enumerate(axes[: len(names)]):
            bottom = k + ncols >= len(names)  # no panel drawn below this one
            ax.tick_params(labelbottom=bottom, labelleft=k % ncols == 0)
            ax.set_xlabel("")
            ax.set_ylabel("")
        fig.supxlabel(PC_LABEL, fontsize=8)
        fig.supylabel(NEC_LABEL, fontsize=8)
        handles = [setup_handle()]
        handles += [styles[c.name].handle(label_of(c)) for c in dataset.classifiers.values()]
        handles += band_handles(have_band, have_simultaneous, have_folds, level, "#808080")
        key = top_legend(fig, handles, w)
        fit_height(fig, key, nrows * FOCUS_ROW_HEIGHT + 0.25)
    return fig


FOCUS_ROW_HEIGHT = 1.3  # inches: a row of :func:`each_highlighted`'s panels with their title


def small_multiples(
    results: Results,
    styles: dict[str, Style] | None = None,
    *,
    ncols: int | None = None,
    rescaled_y: bool = False,
    bands: bool = False,
    width: str | float = "full",
) -> Figure:
    """One cost-space panel per dataset, shared axes and one legend for every classifier."""
    names = classifier_names(results)
    styles = styles_for(styles, names)
    datasets = list(results.datasets.values())
    with style():
        w = width_inches(width)
        ncols = ncols or (1 if len(datasets) == 1 else 2 if w <= FULL_WIDTH + 0.01 else 3)
        nrows = max(1, math.ceil(len(datasets) / ncols))
        panel_h = (w / ncols) * 0.68
        handles_all = [
            Line2D(
                [], [], color=TRIVIAL_COLOUR, linewidth=TRIVIAL_WIDTH, label="Trivial classifiers"
            )
        ]
        kinds = {}
        for d in datasets:
            for c in d.classifiers.values():
                kinds.setdefault(c.name, c)
        handles_all += [styles[n].handle(label_of(kinds[n])) for n in names]
        cols = legend_columns(handles_all, w)
        fig = new_figure(w, nrows * panel_h + 0.17 * math.ceil(len(handles_all) / cols) + 0.35)
        axes = np.atleast_1d(
            fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False)
        ).ravel()
        for ax, d in zip(axes, datasets):
            draw_cost(ax, d, styles, None, rescaled_y, bands, False)
            ax.set_title(d.name)
        for ax in axes[len(datasets) :]:
            ax.set_visible(False)
        for k, ax in enumerate(axes[: len(datasets)]):
            if k % ncols:
                ax.set_ylabel("")
            bottom = k + ncols >= len(datasets)  # nothing drawn below this panel
            ax.tick_params(labelbottom=bottom)
            ax.set_xlabel(PC_LABEL if bottom else "")
        fig.legend(handles=handles_all, loc="outside lower center", ncols=cols)
    return fig


# --- captions, alt text and registration ----------------------------------------------------------


def fmt_range(r) -> str:
    return (
        "none (never better than both trivial classifiers)"
        if r is None
        else f"{r[0]:.2f} < PC(+) < {r[1]:.2f}"
    )


def _best_under(dataset: DatasetResult, prior: str) -> str:
    costs = {c.name: c.expected_cost.get(prior) for c in dataset.classifiers.values()}
    costs = {k: v for k, v in costs.items() if v is not None}
    if not costs:
        return ""
    best = min(costs, key=costs.get)
    return f"Lowest expected cost under the {prior} prior: {best} ({costs[best]:.3f})."


def _drawn_as(d: DatasetResult) -> str:
    """How the cost figures draw each kind of classifier (a clause of their captions)."""
    crisp = [c.name for c in d.classifiers.values() if c.kind == "crisp"]
    return (
        "Each scoring classifier is drawn as its lower envelope"
        + (
            f"; the crisp classifier{'s' if len(crisp) > 1 else ''} {', '.join(crisp)} as a "
            "single cost line (its envelope faint)"
            if crisp
            else ""
        )
        + ". The bold diagonals are the trivial classifiers (always negative, always positive)."
    )


def _band_clause(b, whose: str, details: bool = True) -> str:
    """The caption's sentence on a band; ``details`` False: its method and simultaneous band are
    left to each panel's caption."""
    if not details:
        return (
            f"The shaded region is the {level_text(b.level)}pointwise "
            f"confidence band of {whose}, as its caption says."
        )
    return (
        f"The shaded region is the {level_text(b.level)}pointwise confidence band of {whose}"
        + (f"; method: {b.method}, {b.replicates} replicates" if b.method else "")
        + ("; dashed lines, the simultaneous band" if b.simultaneous is not None else "")
        + "."
    )


def cost_caption(
    d: DatasetResult,
    rescaled: bool,
    with_priors: bool,
    highlight: str | None = None,
    bands: bool = False,
) -> str:
    """The caption of a cost-space figure (with the priors panel, or one classifier highlighted;
    ``bands``: every classifier's band is drawn, as :func:`cost_space` with ``bands=True``)."""
    parts = [
        f"Cost curves on {d.name}"
        + (f", {highlight} highlighted" if highlight else "")
        + ": normalized expected cost against PC(+), the probability-times-cost operating condition"
        + " (Drummond & Holte 2006). "
        + _drawn_as(d)
    ]
    if highlight:
        c = d.classifiers[highlight]
        if c.band is not None:
            parts.append(_band_clause(c.band, highlight))
        if c.fold_average is not None:
            parts.append(
                "The dotted line is the vertical average of the "
                f"{c.fold_average.n_folds} per-fold cost curves."
            )
    elif bands and _bands_clause(d):
        parts.append(_bands_clause(d))
    if with_priors:
        parts.append(
            "The panel underneath shows each prior over PC(+) on "
            "the same axis; a point prior is an arrow at its value."
        )
    elif highlight:
        parts.append("The other classifiers are drawn faint for reference.")
    else:
        parts.append(
            "The strip underneath shows each classifier's operating "
            "range, where it beats both trivial classifiers."
        )
    if rescaled:
        parts.append("(Rescaled Y)")
    return " ".join(parts)


def _bands_clause(d: DatasetResult) -> str:
    """The caption's sentence on every classifier's band drawn at once ("" when none has one)."""
    banded = [c for c in d.classifiers.values() if c.band is not None]
    if not banded:
        return ""
    levels = {level_text(c.band.level) for c in banded}
    whose = (
        "each classifier"
        if len(banded) == len(d.classifiers)
        else "each of " + ", ".join(c.name for c in banded)
    )
    return (
        f"The shaded regions, in each classifier's colour, are the "
        f"{levels.pop() if len(levels) == 1 else ''}pointwise confidence bands of {whose}"
        + (
            "; dashed lines, the simultaneous bands"
            if any(c.band.simultaneous is not None for c in banded)
            else ""
        )
        + "."
    )


def _names(classifiers) -> str:
    return ", ".join(c.name for c in classifiers)


def _focus_caption(d: DatasetResult) -> str:
    """The caption of :func:`each_highlighted`'s figure of ``d``: what every panel draws, said
    once, and where the panels differ (band method, simultaneous band, folds), which panels."""
    classifiers = list(d.classifiers.values())
    parts = [
        f"Each classifier highlighted on {d.name}: one panel per classifier, named above it, "
        "drawn bold over the others (faint, for reference); cost curves as normalized expected "
        "cost against PC(+) (Drummond & Holte 2006), on axes shared by every panel. "
        + _drawn_as(d)
        + " Every classifier keeps its colour, dash and marker; the legend names them."
    ]
    banded = [c for c in classifiers if c.band is not None]
    if banded:
        where = "" if len(banded) == len(classifiers) else f"In the panels of {_names(banded)}, "
        levels = {level_text(c.band.level) for c in banded}
        methods: dict[tuple, list] = {}
        for c in banded:
            if c.band.method:
                methods.setdefault((c.band.method, c.band.replicates), []).append(c)
        how = "; ".join(
            f"{m}, {r} replicates" + (f" ({_names(cs)})" if len(methods) > 1 else "")
            for (m, r), cs in methods.items()
        )
        sim = [c for c in banded if c.band.simultaneous is not None]
        parts.append(
            (where + "t" if where else "T")
            + f"he shaded region is the {levels.pop() if len(levels) == 1 else ''}pointwise "
            "confidence band of the highlighted classifier"
            + (f"; method: {how}" if how else "")
            + (
                "; dashed lines, the simultaneous band"
                + ("" if len(sim) == len(banded) else f" (of {_names(sim)})")
                if sim
                else ""
            )
            + "."
        )
    folded: dict[int, list] = {}
    for c in classifiers:
        if c.fold_average is not None:
            folded.setdefault(c.fold_average.n_folds, []).append(c)
    if folded:
        every = sum(len(cs) for cs in folded.values()) == len(classifiers)
        parts.append(
            "The dotted line is the vertical average of the per-fold cost curves: "
            + "; ".join(
                f"{n} folds" + ("" if every and len(folded) == 1 else f" ({_names(cs)})")
                for n, cs in folded.items()
            )
            + "."
        )
    if focus_rescaled(d):
        parts.append("(Rescaled Y): the y axis runs to 1, as a drawn band or cost line passes 0.5.")
    return " ".join(parts)


def _focus_alt(d: DatasetResult) -> str:
    """Each panel's operating range and band width, one sentence per classifier."""
    text = [f"Small multiples of cost curves on {d.name}, each classifier highlighted in turn."]
    for c in d.classifiers.values():
        line = f"{c.name}: operating range {fmt_range(c.operating_range)}"
        if c.band is not None:
            width = np.asarray(c.band.upper, float) - np.asarray(c.band.lower, float)
            line += f", band width from {np.nanmin(width):.3f} to {np.nanmax(width):.3f}"
        text.append(line + ".")
    return " ".join(text)


def cost_alt(d: DatasetResult, results: Results) -> str:
    """The alt text of a cost-space figure: operating ranges and the cheapest under the first
    prior."""
    ranges = "; ".join(f"{c.name} {fmt_range(c.operating_range)}" for c in d.classifiers.values())
    first_prior = next(iter(dataset_priors(results, d)), None)
    best = _best_under(d, first_prior) if first_prior else ""
    return (
        f"Line chart of cost curves for {len(d.classifiers)} "
        f"classifiers on {d.name}. Operating ranges: {ranges}. {best}".strip()
    )


def above_half(c: ClassifierResult) -> bool:
    """Whether part of what the cost figure draws for ``c`` lies above nec = 0.5 (clipped there)."""
    tops = [max(c.cost_line)] if c.cost_line is not None else []
    band = c.band
    if band is not None:
        tops.append(float(np.nanmax(np.asarray(band.upper, float))))
        if band.simultaneous is not None:
            tops.append(float(np.nanmax(np.asarray(band.simultaneous.upper, float))))
    return any(t > 0.5 + 1e-9 for t in tops)


def focus_rescaled(d: DatasetResult) -> bool:
    """Whether :func:`each_highlighted` draws ``d``'s panels on the rescaled y axis (0 to 1): when
    anything drawn for any classifier (its cost line, band or simultaneous band) passes 0.5, so
    that every panel shares one y scale."""
    return any(above_half(c) for c in d.classifiers.values())


def _rescaled_wanted(s: Subject, options: FigureOptions) -> bool:
    if options.rescaled is not None:
        return options.rescaled
    return focus_rescaled(s.dataset)


def _focus_wanted(s: Subject, options: FigureOptions) -> bool:
    """The figure with ``focus=True``, none with False; by default when a classifier has a band or
    fold average (what a highlighted panel adds to the cost curves figure)."""
    if options.focus is not None:
        return options.focus
    return any(
        c.band is not None or c.fold_average is not None for c in s.dataset.classifiers.values()
    )


COST = register(
    FigureSpec(
        kind="cost",
        scope="dataset",
        key="{dataset}/cost",
        stem="{dataset_slug}/cost",
        draw=lambda s: cost_space(s.dataset, s.styles, bands=True),
        caption=lambda s: cost_caption(s.dataset, False, False, bands=True),
        alt=lambda s: cost_alt(s.dataset, s.results),
        section="figures",
        order=10,
    )
)
COST_RESCALED = register(
    FigureSpec(
        kind="cost-rescaled",
        scope="dataset",
        key="{dataset}/cost-rescaled",
        stem="{dataset_slug}/cost-rescaled",
        draw=lambda s: cost_space(s.dataset, s.styles, rescaled_y=True),
        caption=lambda s: cost_caption(s.dataset, True, False),
        alt=lambda s: cost_alt(s.dataset, s.results),
        section="curves",
        order=40,
        wanted=_rescaled_wanted,
    )
)
FOCUS = register(
    FigureSpec(
        kind="focus",
        scope="dataset",
        key="{dataset}/focus",
        stem="{dataset_slug}/focus",
        draw=lambda s: each_highlighted(s.dataset, s.styles, rescaled_y=focus_rescaled(s.dataset)),
        caption=lambda s: _focus_caption(s.dataset),
        alt=lambda s: _focus_alt(s.dataset),
        section="focus",
        order=100,
        width="full",
        wanted=_focus_wanted,
    )
)
