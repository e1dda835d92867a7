"""ROC space (Fawcett 2006; D&H 2006 Fig. 4a, 13a): ROC points joined into curves and their convex
hulls.

Each hull is the dual of the lower envelope drawn in cost space (:mod:`.cost_space`).
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ..results import DatasetResult
from ..results.curves import drawn
from .registry import FigureSpec, register
from .style import (
    DENSE_POINTS,
    MAX_MARKERS,
    SMALL_FONT,
    Style,
    as_array,
    is_crisp,
    label_of,
    legend_columns,
    new_figure,
    renderer_for,
    style,
    styles_for,
    width_inches,
)


def _subsample(n: int, k: int) -> np.ndarray:
    return np.unique(np.linspace(0, n - 1, min(n, k)).round().astype(int))


def roc_space(
    dataset: DatasetResult,
    styles: dict[str, Style] | None = None,
    *,
    highlight: str | None = None,
    width: str | float = "column",
    title: str | None = None,
) -> Figure:
    """ROC points joined into curves (thin) and their convex hulls (in each classifier's style)."""
    styles = styles_for(styles, dataset.classifiers)
    classifiers = list(dataset.classifiers.values())
    with style():
        w = width_inches(width)
        side = min(w - 0.55, 3.0)
        cols = legend_columns([Line2D([], [], label=label_of(c) + "   ") for c in classifiers], w)
        fig = new_figure(w, side + 0.5)
        ax = fig.subplots()
        ax.plot([0, 1], [0, 1], color="#8c8c8c", linewidth=0.8, linestyle=(0, (4, 2)), zorder=1)
        handles = [
            Line2D(
                [],
                [],
                color="#8c8c8c",
                linewidth=0.8,
                linestyle=(0, (4, 2)),
                label="Chance (trivial)",
            )
        ]
        for c in classifiers:
            st = styles[c.name]
            dim = highlight is not None and c.name != highlight
            alpha = 0.35 if dim else 1.0
            lw = 2.0 if (highlight == c.name) else (0.9 if dim else 1.3)
            z = 6 if highlight == c.name else (3 if dim else 4)
            hf, ht = as_array(c.hull_fpr), as_array(c.hull_tpr)
            fpr, tpr = drawn(
                as_array(c.roc_fpr), as_array(c.roc_tpr), hf, ht
            )  # as results.json stores them
            if is_crisp(c):
                ax.plot(
                    hf,
                    ht,
                    color=st.color,
                    linestyle=st.linestyle,
                    linewidth=lw * 0.8,
                    alpha=alpha,
                    zorder=z,
                )
                x, y = c.cost_line[0], 1.0 - c.cost_line[1]
                st.markers(ax, [x], [y], size=6, edge=0.6, alpha=alpha, zorder=z + 1)
            else:
                ax.plot(
                    fpr,
                    tpr,
                    color=st.color,
                    linewidth=0.6,
                    alpha=0.55 * alpha,
                    zorder=z - 1,
                    rasterized=fpr.size > DENSE_POINTS,
                )
                ax.plot(
                    hf,
                    ht,
                    color=st.color,
                    linestyle=st.linestyle,
                    linewidth=lw,
                    alpha=alpha,
                    zorder=z,
                )
                inner = np.arange(1, hf.size - 1)
                pick = inner[_subsample(inner.size, MAX_MARKERS)] if inner.size else inner
                st.markers(ax, hf[pick], ht[pick], alpha=alpha, zorder=z + 0.5)
            handles.append(st.handle(f"{label_of(c)}  AUC {c.auc:.3f}", alpha=alpha))
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_aspect("equal")
        ax.set_xticks(np.linspace(0, 1, 6))
        ax.set_yticks(np.linspace(0, 1, 6))
        ax.set_xlabel("False positive rate")
        ax.set_ylabel("True positive rate")
        if title:
            ax.set_title(title)
        key = ax.legend(
            handles=handles,
            loc="lower right",
            fontsize=SMALL_FONT,
            handlelength=2.0,
            handletextpad=0.4,
            labelspacing=0.25,
            borderaxespad=0.3,
        )
        if _covers(fig, ax, key):
            key.remove()
            fig.set_figheight(side + 0.17 * math.ceil((len(classifiers) + 1) / cols) + 0.5)
            fig.legend(
                handles=handles, loc="outside lower center", ncols=legend_columns(handles, w)
            )
    return fig


def _covers(fig, ax, key, samples: int = 24) -> bool:
    """Whether anything drawn in ``ax`` (a curve, the chance diagonal, a crisp point) passes
    through the box of its legend ``key``, at the figure's laid-out size: each line's segments
    sampled ``samples`` times in data coordinates. The lower right of ROC space lies below the
    chance diagonal, where a hull never goes, so the legend sits there unless a classifier is
    worse than chance there. The figure is laid out as drawing would first lay it out (its
    layout engine, then the axes' equal aspect), without drawing it."""
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)
    ax.apply_aspect()
    box = key.get_window_extent(renderer_for(fig))
    (x0, y0), (x1, y1) = ax.transData.inverted().transform([[box.x0, box.y0], [box.x1, box.y1]])
    t = np.linspace(0.0, 1.0, samples)[:, None, None]
    for line in ax.get_lines():
        xy = np.asarray(line.get_xydata(), float)
        if xy.shape[0] > 1:
            xy = (xy[:-1] + t * (xy[1:] - xy[:-1])).reshape(-1, 2)
        inside = (xy[:, 0] > x0) & (xy[:, 0] < x1) & (xy[:, 1] > y0) & (xy[:, 1] < y1)
        if inside.any():
            return True
    return False


# --- caption, alt text and registration -----------------------------------------------------------


def _roc_caption(d: DatasetResult) -> str:
    return (
        f"ROC space for {d.name}: the ROC points of each classifier joined into a curve (thin) "
        "and their convex hull (in the classifier's line style, markers on hull vertices); a "
        "crisp classifier is one point. The dashed diagonal is chance. Each hull is the dual of "
        "the lower envelope in the cost-space figure."
    )


def _roc_alt(d: DatasetResult) -> str:
    aucs = ", ".join(f"{c.name} {c.auc:.3f}" for c in d.classifiers.values())
    return (
        f"ROC curves with convex hulls for {len(d.classifiers)} "
        f"classifiers on {d.name}. AUC: {aucs}."
    )


ROC = register(
    FigureSpec(
        kind="roc",
        scope="dataset",
        key="{dataset}/roc",
        stem="{dataset_slug}/roc",
        draw=lambda s: roc_space(s.dataset, s.styles),
        caption=lambda s: _roc_caption(s.dataset),
        alt=lambda s: _roc_alt(s.dataset),
        section="curves",
        order=20,
    )
)
