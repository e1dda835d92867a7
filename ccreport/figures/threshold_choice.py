"""Threshold choice curves (Hernández-Orallo, Flach & Ferri 2013, Figs. 3-5 and 8-9).

* :func:`threshold_methods` - one classifier's threshold choice methods together (rate-driven,
  perfect ranker, Kendall, skull, optimal, score-driven), each with its own dash pattern and marker
  so that the figure reads in greyscale, the manifest's partial ranges shaded under the Kendall
  curve (Figs. 8-9);
* :func:`kendall_curves` - every scoring classifier's Kendall curve on one plot (in each
  classifier's own style), partial ranges shaded.

The axis is the manifest's ``threshold_axis``: ``pc`` (x = PC(+), y = NEC: D&H's cost space, the
axis of the rest of the report), ``cost_proportion`` (the paper's x = cost proportion c at the
data's class mix, y = its loss Q with b = 2), or ``both`` (two panels, one above the other).
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..results import ClassifierResult, DatasetResult
from .registry import FigureOptions, FigureSpec, Subject, register
from .style import (
    NEC_LABEL,
    PANEL_PLOT_HEIGHT,
    PANEL_WIDTH,
    PC_LABEL,
    fit_height,
    fit_legend,
    is_panel,
    legend_columns,
    new_figure,
    pc_label,
    style,
    styles_for,
    width_inches,
)

AXIS_LABELS = {
    "pc": (PC_LABEL, NEC_LABEL),
    "cost_proportion": ("Cost proportion c = C(FN) / (C(FN) + C(FP))", "Loss Q (b = 2)"),
}
# The Kendall curve is the rate-driven curve minus the perfect ranker's (HFF 2013 Def. 3, Thm 2): a
# difference of two cost curves in their units, "not itself a cost curve" (HFF 2013 section 5), so
# its y axis is not named as one.
KENDALL_LABELS = {
    "pc": "Ranking loss: rate-driven NEC\nminus a perfect ranker's",
    "cost_proportion": "Ranking loss: rate-driven Q\nminus a perfect ranker's",
}
AXIS_NAMES = {"pc": "PC(+)", "cost_proportion": "cost proportion"}


# how each method is drawn: label, colour, dash pattern, marker, line width (distinct in greyscale)
METHOD_STYLES = {
    "optimal": ("optimal (lower envelope)", "#000000", "solid", None, 1.8),
    "score_driven": ("score-driven (Brier curve)", "#D55E00", (0, (1.0, 1.2)), "x", 1.2),
    "rate_driven": ("rate-driven", "#0072B2", "solid", "o", 1.0),
    "perfect_ranker": ("perfect ranker", "#8c8c8c", (0, (6.0, 2.0)), None, 1.0),
    "kendall": ("Kendall", "#009E73", (0, (5.0, 1.5, 1.2, 1.5)), "^", 1.1),
    "skull": ("convex skull", "#CC79A7", (0, (2.6, 1.4)), "s", 1.1),
}
MARKS = 7  # markers along a curve
SHADES = ("#bdbdbd", "#e0e0e0")
HATCHES = ("////", "\\\\\\\\")


def drawn_axes(setting: str) -> list[str]:
    """The axes a figure draws for the manifest's ``threshold_axis``."""
    return ["pc", "cost_proportion"] if setting == "both" else [setting]


def _mark_at(x: np.ndarray, offset: float) -> list[int]:
    """Indices of about ``MARKS`` points evenly spread along x, shifted by ``offset`` so methods'
    markers do not overlap."""
    targets = (np.arange(MARKS) + 0.5 + offset) / MARKS
    idx = np.clip(np.searchsorted(x, targets), 0, x.size - 1)
    return sorted({int(i) for i in idx})


def shade_partial_areas(ax, curve: np.ndarray, ranges) -> list[Patch]:
    """Partial areas under ``curve`` (k, 2) over each range (HFF Figs. 8-9): grey fills, hatched
    alternately."""
    handles = []
    for i, (low, high) in enumerate(ranges):
        x, y = curve[:, 0], curve[:, 1]
        inside = (x > low) & (x < high)
        xs = np.concatenate(([low], x[inside], [high]))
        ys = np.concatenate(([np.interp(low, x, y)], y[inside], [np.interp(high, x, y)]))
        colour, hatch = SHADES[i % 2], HATCHES[i % 2]
        ax.fill_between(
            xs, 0.0, ys, facecolor=colour, edgecolor="#6e6e6e", hatch=hatch, linewidth=0.0, zorder=1
        )
        handles.append(
            Patch(facecolor=colour, edgecolor="#6e6e6e", hatch=hatch, label=f"[{low:g}, {high:g}]")
        )
    return handles


def frame_axes(ax, axis: str, top: float = 1.0, ylabel: str | None = None) -> None:
    """Limits, ticks and labels of a threshold-choice panel on ``axis`` ("pc" or "cost_proportion"),
    y up to ``top``; ``ylabel`` replaces the axis's cost label (the Kendall figure's,
    :data:`KENDALL_LABELS`)."""
    ax.set_xlim(0, 1)
    ax.set_ylim(0, top)
    ax.set_xticks(np.linspace(0, 1, 6))
    xlabel, cost_label = AXIS_LABELS[axis]
    ax.set_xlabel(xlabel)
    ax.set_ylabel(cost_label if ylabel is None else ylabel)


def ranges_of(c: ClassifierResult, axis: str) -> list[tuple[float, float]]:
    return [(p.low, p.high) for p in c.threshold_choice.methods[axis]["kendall"].partial]


def _height(panels: int, legend_rows: int) -> float:
    return panels * 2.05 + 0.17 * legend_rows + 0.35


def y_top(top: float) -> float:
    """The y limit of a panel whose highest curve point is ``top``."""
    return min(1.0, 1.1 * top + 0.02)


def method_handles(c: ClassifierResult) -> list[Line2D]:
    """Legend entries of the methods :func:`draw_methods` draws for ``c`` (no Brier curve without
    probabilities)."""
    handles = [
        Line2D([], [], color=col, linestyle=ls, marker=mk, markersize=4, linewidth=lw, label=label)
        for label, col, ls, mk, lw in METHOD_STYLES.values()
    ]
    if c.threshold_choice.methods["pc"]["score_driven"].curve is None:
        handles = [h for h in handles if not h.get_label().startswith("score-driven")]
    return handles


def shading_legend(shade_handles: list[Patch]) -> list[Patch]:
    """The legend entries of the shaded partial areas, after a heading entry (none without
    ranges)."""
    if not shade_handles:
        return []
    return [
        Patch(facecolor="none", edgecolor="none", label="shaded: partial areas under Kendall"),
        *shade_handles,
    ]


def draw_methods(
    ax, c: ClassifierResult, axis: str, marker: str | None = None, shade: bool = True
) -> tuple[list[Patch], float, list]:
    """Draw one classifier's threshold choice curves on ``axis`` into ``ax`` (HFF 2013 Figs. 3-5),
    the partial areas under its Kendall curve shaded first (Figs. 8-9).

    Each method has its own colour, dash and marker (:data:`METHOD_STYLES`); ``marker`` replaces
    the methods' markers (a second classifier on the same axes); ``shade=False`` leaves the partial
    areas out. Returns (the shading's legend entries, the highest y drawn, the lines drawn).
    """
    methods = c.threshold_choice.methods[axis]
    shade_handles = (
        shade_partial_areas(ax, methods["kendall"].curve, ranges_of(c, axis)) if shade else []
    )
    top, lines = 0.0, []
    for i, (method, (_label, col, ls, mk, lw)) in enumerate(METHOD_STYLES.items()):
        curve = methods[method].curve
        if curve is None:  # the Brier curve without probability scores
            continue
        mk = mk if marker is None or mk is None else marker
        x, y = curve[:, 0], curve[:, 1]
        top = max(top, float(np.nanmax(y)))
        lines += ax.plot(
            x,
            y,
            color=col,
            linestyle=ls,
            linewidth=lw,
            marker=mk,
            markersize=3.5,
            markevery=_mark_at(x, 0.13 * i) if mk else None,
            markerfacecolor="white" if mk != "x" else col,
            markeredgewidth=0.8,
            zorder=3 + (method == "optimal"),
        )
    return shade_handles, top, lines


def shade_ranges(ax, ranges) -> None:
    """The partial ranges as vertical bands behind the curves (grey, hatched alternately)."""
    for i, (low, high) in enumerate(ranges):
        ax.axvspan(
            low,
            high,
            facecolor=SHADES[i % 2],
            edgecolor="#6e6e6e",
            hatch=HATCHES[i % 2],
            linewidth=0.0,
            alpha=0.5,
            zorder=0,
        )


def kendall_handle(c: ClassifierResult, st, axis: str):
    """The legend entry of a classifier's Kendall curve: its name and Kendall area on ``axis``."""
    return st.handle(f"{c.name}  area {c.threshold_choice.methods[axis]['kendall'].area:.3f}")


def draw_kendall(ax, c: ClassifierResult, st, axis: str, index: int) -> tuple[Line2D, float]:
    """Draw one classifier's Kendall curve (HFF 2013 Def. 3) on ``axis`` into ``ax`` in its style
    ``st``, markers shifted by ``index``. Returns (the line, its highest y)."""
    curve = c.threshold_choice.methods[axis]["kendall"].curve
    x, y = curve[:, 0], curve[:, 1]
    (line,) = ax.plot(
        x,
        y,
        color=st.color,
        linestyle=st.linestyle,
        linewidth=1.2,
        marker=st.marker,
        markersize=3.5,
        markevery=_mark_at(x, 0.11 * index),
        markeredgecolor="white",
        markeredgewidth=0.5,
        zorder=3,
    )
    return line, float(np.nanmax(y))


def methods_top(dataset: DatasetResult, axis: str) -> float:
    """The highest point of any threshold choice curve of any scoring classifier of ``dataset`` on
    ``axis`` (0 when none has curves): one y limit for a grid of :func:`threshold_methods`
    panels."""
    tops = [
        float(np.nanmax(m.curve[:, 1]))
        for c in dataset.classifiers.values()
        if is_scoring(c)
        for m in c.threshold_choice.methods[axis].values()
        if m.curve is not None and m.curve.size
    ]
    return max(tops, default=0.0)


def threshold_methods(
    dataset: DatasetResult,
    name: str,
    setting: str = "pc",
    width="column",
    shared_y: bool = False,
    legend: bool = True,
) -> Figure:
    """One classifier's threshold choice curves together, partial ranges shaded under its Kendall
    curve.

    ``shared_y``: the y axis reaches the highest curve of every scoring classifier of the dataset
    (:func:`methods_top`), so the panels of all its classifiers read on one scale; otherwise this
    classifier's own highest curve. ``legend=False`` (a panel of a grid whose one legend is on
    its :func:`methods_key_panel`): no legend, and the panel's height is that of its axes."""
    c = dataset.classifiers[name]
    axes = drawn_axes(setting)
    with style():
        w = width_inches(width)
        handles = [
            Line2D(
                [], [], color=col, linestyle=ls, marker=mk, markersize=4, linewidth=lw, label=label
            )
            for label, col, ls, mk, lw in METHOD_STYLES.values()
        ]
        shade_handles = []
        cols = legend_columns(
            handles, w
        )  # the legend's columns count the Brier entry even when not drawn
        fig = new_figure(w, _height(len(axes), -(-(len(handles) + 2) // cols)))
        panels = fig.subplots(len(axes), 1, squeeze=False)[:, 0]
        for ax, axis in zip(panels, axes, strict=True):
            shade_handles, top, _ = draw_methods(ax, c, axis)
            frame_axes(ax, axis, y_top(methods_top(dataset, axis) if shared_y else top))
            if is_panel(w) and axis == "pc":
                ax.set_xlabel(pc_label(w))
            if len(axes) > 1:
                ax.set_title(f"{AXIS_NAMES[axis]} axis", fontsize="small")
        handles = method_handles(c) + shading_legend(shade_handles)
        if is_panel(w):
            key = fit_legend(fig, handles, "outside lower center", w) if legend else None
            fit_height(fig, key, len(axes) * (PANEL_PLOT_HEIGHT + 0.15))
        else:
            fig.legend(handles=handles, loc="outside lower center", ncols=cols, frameon=False)
    return fig


def kendall_curves(
    dataset: DatasetResult, styles=None, setting: str = "pc", width="column"
) -> Figure:
    """Every scoring classifier's Kendall curve on one plot (HFF Def. 3), partial ranges shaded."""
    scoring = [c for c in dataset.classifiers.values() if is_scoring(c)]
    styles = styles_for(styles, [c.name for c in scoring])
    axes = drawn_axes(setting)
    with style():
        w = width_inches(width)
        handles = [kendall_handle(c, styles[c.name], axes[0]) for c in scoring]
        cols = legend_columns(handles, w)
        fig = new_figure(w, _height(len(axes), -(-(len(handles) + 1) // cols)))
        panels = fig.subplots(len(axes), 1, squeeze=False)[:, 0]
        for ax, axis in zip(panels, axes, strict=True):
            shade_ranges(ax, ranges_of(scoring[0], axis))
            top = 0.0
            for i, c in enumerate(scoring):
                top = max(top, draw_kendall(ax, c, styles[c.name], axis, i)[1])
            frame_axes(ax, axis, y_top(top), KENDALL_LABELS[axis])
            if len(axes) > 1:
                ax.set_title(f"{AXIS_NAMES[axis]} axis", fontsize="small")
        fig.legend(handles=handles, loc="outside lower center", ncols=cols, frameon=False)
    return fig


# --- captions, alt text and registration ----------------------------------------------------------


def is_scoring(c: ClassifierResult) -> bool:
    """Whether ``c`` has the scoring classifiers' threshold choice curves (a crisp one has its cost
    line only)."""
    return c.threshold_choice is not None and "kendall" in c.threshold_choice.methods.get("pc", {})


def _axis_text(setting: str) -> str:
    if setting == "cost_proportion":
        return (
            "x is the cost proportion c = C(FN)/(C(FN)+C(FP)) at the data's class mix and y the "
            "loss with C(FN)+C(FP) = 2 (the 2013 paper's axes)"
        )
    if setting == "both":
        return (
            "top: x = PC(+), y = normalized expected cost (the report's "
            "cost space); bottom: the 2013 paper's axes, cost proportion "
            "c at the data's class mix and the loss with C(FN)+C(FP) = 2"
        )
    return "x = PC(+), y = normalized expected cost, the axes of the report's cost curves"


def _kendall_axis_text(setting: str) -> str:
    """The Kendall figure's axes: y is in the units of the cost curves but is not itself a cost
    (HFF 2013 section 5)."""
    if setting == "cost_proportion":
        return (
            "x is the cost proportion c = C(FN)/(C(FN)+C(FP)) at the data's class mix; y is the "
            "rate-driven loss (C(FN)+C(FP) = 2) minus a perfect ranker's"
        )
    if setting == "both":
        return (
            "top: x = PC(+), y = the rate-driven normalized expected cost minus a perfect "
            "ranker's; bottom: the 2013 paper's cost proportion c at the data's class mix, y = "
            "the rate-driven loss (C(FN)+C(FP) = 2) minus a perfect ranker's"
        )
    return "x = PC(+); y = the rate-driven normalized expected cost minus a perfect ranker's"


KENDALL_NOT_COST = (
    "A Kendall curve is the difference of two cost curves, not itself "
    "a cost curve: it is the cost of no classifier and does not meet "
    "cost lines (Hernández-Orallo, Flach & Ferri 2013, section 5)."
)


def _ranges_text(ranges) -> str:
    if not ranges:
        return ""
    return " Shaded: the partial ranges " + ", ".join(f"[{a:g}, {b:g}]" for a, b in ranges) + "."


METHODS_KEY = (
    "the cost of each way of choosing the threshold at deployment; optimal = the "
    "lower envelope (best threshold for each condition), score-driven = threshold "
    "at the scores read as probabilities, rate-driven = flag the share of cases "
    "the condition asks for, which is the perfect ranker's curve plus the Kendall "
    "curve (drawn on the same axes, though a difference of two cost curves, not a "
    "cost curve); the convex skull is the rate-driven curve of the ROC convex hull."
)
NOT_PROBABILITIES = (
    "The score-driven (Brier) curve is not drawn: the scores are not probabilities in [0, 1]."
)


def _no_brier_curve(c) -> bool:
    return c.threshold_choice.methods["pc"]["score_driven"].curve is None


def _axes_and_ranges(s: Subject) -> str:
    axes = _axis_text(s.results.settings.threshold_axis)
    return f"{axes[0].upper()}{axes[1:]}.{_ranges_text(s.results.settings.partial_ranges)}"


def _methods_caption(s: Subject) -> str:
    c = s.classifier
    na = " " + NOT_PROBABILITIES if _no_brier_curve(c) else ""
    return (
        f"Threshold choice methods of {c.name} on {s.dataset.name} (Hernández-Orallo, Flach & "
        f"Ferri 2013): {METHODS_KEY} {_axes_and_ranges(s)}{na}"
    )


def _methods_panel_caption(s: Subject) -> str:
    """A panel of report.pdf's grid: the classifier and the dataset (and a missing Brier curve)."""
    return f"{s.name} on {s.dataset.name}." + (
        " No score-driven curve: the scores are not probabilities."
        if _no_brier_curve(s.classifier)
        else ""
    )


def _methods_panels_note(s: Subject) -> str:
    """What every panel of a dataset's threshold-choice grid shows (the rest of
    :func:`_methods_caption`)."""
    return (
        f"Each panel: the threshold choice methods on {s.dataset.name} "
        "of the classifier its caption names (Hernández-Orallo, Flach "
        f"& Ferri 2013): {METHODS_KEY} {_axes_and_ranges(s)}"
        f" The legend, on {methods_key_panel(s.dataset)}'s panel, is every panel's."
    )


def _methods_alt(s: Subject) -> str:
    m = s.classifier.threshold_choice.methods["pc"]
    areas = ", ".join(
        f"{k.replace('_', ' ')} {m[k].area:.3f}" for k in METHOD_STYLES if m[k].area is not None
    )
    return (
        f"Threshold choice curves of {s.name} on "
        f"{s.dataset.name}; areas on the PC(+) axis: {areas}."
    )


def _kendall_caption(s: Subject) -> str:
    setting = s.results.settings.threshold_axis
    return (
        f"Kendall curves on {s.dataset.name}: the cost of the rate-driven method above a perfect "
        "ranker's, for each scoring classifier (lower is a better ranking; the area is 2 w0 w1 "
        f"(1 - AUC)). {_kendall_axis_text(setting)[0].upper()}{_kendall_axis_text(setting)[1:]}; "
        "areas in the legend on the first axis drawn. "
        f"{KENDALL_NOT_COST}{_ranges_text(s.results.settings.partial_ranges)}"
    )


def _kendall_alt(s: Subject) -> str:
    areas = ", ".join(
        f"{c.name} {c.threshold_choice.methods['pc']['kendall'].area:.3f}"
        for c in s.dataset.classifiers.values()
        if is_scoring(c)
    )
    return (
        "Kendall curves of the scoring classifiers on "
        f"{s.dataset.name}; Kendall areas on the PC(+) axis: {areas}."
    )


def methods_key_panel(d: DatasetResult) -> str | None:
    """The classifier whose panel carries the one legend of ``d``'s threshold-choice grid (the
    panels :func:`_methods_wanted`: its scoring classifiers): the first that has every method's
    curve (a score-driven one too), else the first scoring one. The legend names the methods'
    styles and the shaded ranges, the same in every panel; a panel without the score-driven
    curve says so in its caption."""
    scoring = [c for c in d.classifiers.values() if is_scoring(c)]
    full = [c for c in scoring if len(method_handles(c)) == len(METHOD_STYLES)]
    first = next(iter(full or scoring), None)
    return None if first is None else first.name


def _methods_wanted(s: Subject, options: FigureOptions) -> bool:
    return is_scoring(s.classifier)


def _kendall_wanted(s: Subject, options: FigureOptions) -> bool:
    return any(is_scoring(c) for c in s.dataset.classifiers.values())


KENDALL = register(
    FigureSpec(
        kind="kendall",
        scope="dataset",
        key="{dataset}/kendall",
        stem="{dataset_slug}/kendall",
        draw=lambda s: kendall_curves(s.dataset, s.styles, s.results.settings.threshold_axis),
        caption=_kendall_caption,
        alt=_kendall_alt,
        section="threshold_choice",
        order=10,
        wanted=_kendall_wanted,
    )
)
THRESHOLD_METHODS = register(
    FigureSpec(
        kind="threshold-methods",
        scope="classifier",
        key="{dataset}/threshold-methods/{name}",
        stem="{dataset_slug}/threshold-methods/{name_slug}",
        draw=lambda s: threshold_methods(
            s.dataset,
            s.name,
            s.results.settings.threshold_axis,
            PANEL_WIDTH,
            shared_y=True,
            legend=s.name == methods_key_panel(s.dataset),
        ),
        caption=_methods_caption,
        alt=_methods_alt,
        section="threshold_choice",
        order=20,
        wanted=_methods_wanted,
        panel_caption=_methods_panel_caption,
        panels_note=_methods_panels_note,
    )
)
