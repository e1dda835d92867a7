"""Priors over PC(+) (D&H 2006 section 3.2, after Adams & Hand 1999): alone, or under the cost plot.

* :func:`prior_densities` - each prior as a density over PC(+), a point prior as an arrow;
* :func:`cost_priors` - the cost figure of a dataset with its priors in a panel underneath, on the
  same x-axis.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ..results import DatasetResult, PriorResult, Results
from .cost_space import draw_cost
from .registry import FigureSpec, register
from .style import (
    COLUMN_WIDTH,
    PC_LABEL,
    PRIOR_LINESTYLES,
    Style,
    as_array,
    legend_columns,
    new_figure,
    prior_palette,
    style,
    styles_for,
    top_legend,
    width_inches,
)


def _prior_look(index: int):
    colours = prior_palette()
    return colours[index % len(colours)], PRIOR_LINESTYLES[index % len(PRIOR_LINESTYLES)]


def draw_priors(ax, priors: list[PriorResult], order: list[str] | None = None):
    """Densities; ``order`` (every prior name of the report) fixes each prior's colour and dash."""
    order = list(order) if order else [p.name for p in priors]
    tops = []
    for p in priors:
        if p.density is not None:
            d = as_array(p.density)
            finite = d[np.isfinite(d)]
            if finite.size:
                tops.append(float(finite.max()))
    top = max(tops) * 1.12 if tops else 1.0
    if not tops:
        top = 1.0
    handles = []
    for i, p in enumerate(priors):
        color, ls = _prior_look(order.index(p.name) if p.name in order else len(order) + i)
        if p.density is None and p.point is not None:
            ax.annotate(
                "",
                xy=(p.point, top * 0.93),
                xytext=(p.point, 0),
                annotation_clip=False,
                arrowprops=dict(
                    arrowstyle="-|>",
                    color=color,
                    linewidth=1.3,
                    mutation_scale=7,
                    shrinkA=0,
                    shrinkB=0,
                ),
            )
            ax.text(
                p.point + 0.015,
                top * 0.86,
                f"{p.point:.3g}",
                color=color,
                fontsize=6.5,
                ha="left",
                va="center",
                bbox=dict(
                    boxstyle="square,pad=0.1", facecolor="white", edgecolor="none", alpha=0.85
                ),
                zorder=6,
            )
            handles.append(
                Line2D(
                    [],
                    [],
                    color=color,
                    linewidth=1.3,
                    marker="^",
                    markersize=3.5,
                    label=f"{p.name} (point mass)",
                )
            )
        else:
            grid, d = (
                as_array(p.grid),
                np.clip(np.nan_to_num(as_array(p.density), nan=0.0, posinf=top * 2), 0, top * 2),
            )
            ax.fill_between(grid, 0, d, color=color, alpha=0.05, linewidth=0)
            ax.plot(grid, d, color=color, linestyle=ls, linewidth=1.2)
            handles.append(Line2D([], [], color=color, linestyle=ls, linewidth=1.2, label=p.name))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, top)
    ax.set_ylabel("Density")
    return handles


def prior_densities(
    priors: dict[str, PriorResult] | list[PriorResult], *, width: str | float = "column"
) -> Figure:
    """Each prior as a density over PC(+); a point prior as an arrow at its value."""
    priors = list(priors.values()) if isinstance(priors, dict) else list(priors)
    with style():
        w = width_inches(width)
        fig = new_figure(w, 1.9 + 0.17 * math.ceil(len(priors) / 2))
        ax = fig.subplots()
        handles = draw_priors(ax, priors)
        ax.set_xlabel(PC_LABEL)
        ax.set_xticks(np.linspace(0, 1, 6))
        fig.legend(handles=handles, loc="outside lower center", ncols=legend_columns(handles, w))
    return fig


def cost_priors(
    dataset: DatasetResult,
    priors: dict[str, PriorResult] | list[PriorResult],
    styles: dict[str, Style] | None = None,
    *,
    highlight: str | None = None,
    rescaled_y: bool = False,
    bands: bool | None = None,
    folds: bool | None = None,
    width: str | float = "column",
    prior_order: list[str] | None = None,
) -> Figure:
    """Cost curves with the priors over PC(+) in a short panel underneath, on the same x-axis.

    ``prior_order``: every prior name of the report, so a prior keeps its colour and dash in every
    figure when a dataset uses only some of them (default: the order of ``priors``).
    """
    styles = styles_for(styles, dataset.classifiers)
    priors = list(priors.values()) if isinstance(priors, dict) else list(priors)
    with style():
        w = width_inches(width)
        n = len(dataset.classifiers)
        main_h = 2.35 if w <= COLUMN_WIDTH + 0.01 else 2.9
        prior_h = 0.95
        cols = legend_columns([Line2D([], [], label=c) for c in dataset.classifiers], w)
        fig = new_figure(
            w,
            main_h
            + prior_h
            + 0.17 * math.ceil((n + 2) / cols)
            + 0.17 * math.ceil(len(priors) / 2)
            + 0.7,
        )
        ax, pax = fig.subplots(2, 1, sharex=True, height_ratios=[main_h, prior_h])
        handles = draw_cost(ax, dataset, styles, highlight, rescaled_y, bands, folds)
        ax.tick_params(labelbottom=False)
        prior_handles = draw_priors(pax, priors, prior_order)
        pax.set_xlabel(PC_LABEL)
        pax.set_title("Priors over PC(+)", fontsize=6.5, loc="left", pad=2, color="#333333")
        top_legend(fig, handles, w)
        fig.legend(
            handles=prior_handles,
            loc="outside lower center",
            ncols=legend_columns(prior_handles, w),
        )
        fig.align_ylabels()
    return fig


# --- captions, alt text and registration ----------------------------------------------------------


def priors_alt(priors) -> str:
    """The alt text of a priors panel: each prior's name and description."""
    priors = priors.priors if isinstance(priors, Results) else priors
    return (
        "Densities over PC(+) of the priors: "
        + "; ".join(f"{p.name}, {p.description}" for p in priors.values())
        + "."
    )


PRIORS = register(
    FigureSpec(
        kind="priors",
        scope="report",
        key="overview/priors",
        stem="overview/priors",
        draw=lambda s: prior_densities(s.results.priors),
        caption=lambda s: (
            "The priors over the operating condition PC(+) used for expected costs: each as a "
            "density, a point prior as an arrow at its value."
        ),
        alt=lambda s: priors_alt(s.results),
        section="overview",
        order=10,
        wanted=lambda s, options: bool(s.results.priors),
    )
)
