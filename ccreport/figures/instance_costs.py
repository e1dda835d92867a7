"""Instance-varying costs (Fawcett 2006): ROCIV beside ROC, the instance-cost envelope beside the
plain one.

Two full-width figures of a dataset that declares ``costs``, each two panels on the same axes so a
reader sees where weighting each instance by its own cost changes which classifier wins:

* ``rociv``: left, the ROC curves and hulls (counts); right, the ROCIV curves and hulls (each
  instance weighted by its cost, Fawcett 2006 Algorithm 2);
* ``iv-cost``: left, the lower envelopes over PC(+) (D&H 2006); right, the instance-cost lower
  envelopes over PC_iv(+) (the dual of the ROCIV hulls, spec section 3.6), with the data's own
  operating condition ``own_pc`` marked: there the envelope times the sum of all costs is the least
  total cost of errors on the data.

Every classifier keeps its colour, dash and marker, so the panels read in greyscale.
"""

from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D

from ..results import DatasetResult
from ..results.curves import drawn
from .registry import FigureOptions, FigureSpec, Subject, register
from .style import (
    NEC_LABEL,
    SMALL_FONT,
    TRIVIAL_COLOUR,
    TRIVIAL_WIDTH,
    as_array,
    label_of,
    legend_columns,
    new_figure,
    style,
    styles_for,
    width_inches,
)

OWN_PC_COLOUR = "#4d4d4d"


def has_instance_costs(d: DatasetResult) -> bool:
    return any(c.instance_costs is not None for c in d.classifiers.values())


def _markers(ax, x, y, st, count: int, index: int):
    """A few markers along a curve, staggered between classifiers (greyscale identification)."""
    if x.size < 2:
        return
    length = np.concatenate(([0.0], np.cumsum(np.hypot(np.diff(x), np.diff(y)))))
    at = length[-1] * (0.12 + 0.7 * (np.arange(4) + index / max(count, 1)) / 4)
    st.markers(ax, np.interp(at, length, x), np.interp(at, length, y), zorder=5)


def has_costs(c) -> bool:
    return c.instance_costs is not None


def setup_roc_panel(ax) -> None:
    """The chance diagonal of a ROC or ROCIV panel (drawn first, under the curves)."""
    ax.plot([0, 1], [0, 1], color="#8c8c8c", linewidth=0.8, linestyle=(0, (4, 2)), zorder=1)


def draw_roc_classifier(ax, c, st, weighted: bool, index: int = 0, count: int = 1) -> Line2D:
    """One classifier on a ROC panel (``weighted=False``: counts) or a ROCIV panel (each instance
    weighted by its cost, Fawcett 2006 Algorithm 2): the curve thin, the convex hull in the
    classifier's style, markers staggered by ``index`` of ``count``. Returns the hull's line."""
    if weighted:
        ic = c.instance_costs
        pts = np.asarray(ic.rociv_fpr), np.asarray(ic.rociv_tpr)
        hull = as_array(ic.hull_fpr), as_array(ic.hull_tpr)
    else:
        hull = as_array(c.hull_fpr), as_array(c.hull_tpr)
        pts = drawn(as_array(c.roc_fpr), as_array(c.roc_tpr), *hull)  # as results.json stores them
    ax.plot(*pts, color=st.color, linewidth=0.6, alpha=0.5, zorder=3)
    (line,) = ax.plot(*hull, color=st.color, linestyle=st.linestyle, linewidth=1.3, zorder=4)
    _markers(ax, *hull, st, count, index)
    return line


def frame_roc_panel(ax, weighted: bool) -> None:
    """Limits, ticks, labels and title of a ROC (``weighted=False``) or ROCIV panel."""
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xticks(np.linspace(0, 1, 6))
    ax.set_yticks(np.linspace(0, 1, 6))
    if weighted:
        ax.set_xlabel("ROCIV FPR: share of the negatives' costs")
        ax.set_ylabel("ROCIV TPR: share of the positives' costs")
        ax.set_title("ROCIV: each instance weighted by its cost", fontsize=8)
    else:
        ax.set_xlabel("False positive rate")
        ax.set_ylabel("True positive rate")
        ax.set_title("ROC: every instance counts once", fontsize=8)


def _roc_panel(ax, d: DatasetResult, styles, weighted: bool):
    setup_roc_panel(ax)
    classifiers = [c for c in d.classifiers.values() if has_costs(c)]
    for i, c in enumerate(classifiers):
        draw_roc_classifier(ax, c, styles[c.name], weighted, i, len(classifiers))
    frame_roc_panel(ax, weighted)


def setup_cost_panel(ax) -> None:
    """The trivial classifiers of a cost panel (bold diagonals, drawn first)."""
    kw = dict(color=TRIVIAL_COLOUR, linewidth=TRIVIAL_WIDTH, solid_capstyle="butt", zorder=2)
    ax.plot([0, 1], [0, 1], **kw)
    ax.plot([0, 1], [1, 0], **kw)


def draw_cost_classifier(ax, c, st, weighted: bool, index: int = 0, count: int = 1) -> Line2D:
    """One classifier's lower envelope over PC(+) (``weighted=False``, D&H 2006) or its
    instance-cost envelope over PC_iv(+) (the dual of its ROCIV hull, spec section 3.6), markers
    staggered by ``index`` of ``count``. Returns the envelope's line."""
    if weighted:
        pc, nec = as_array(c.instance_costs.envelope_pc), as_array(c.instance_costs.envelope_nec)
    else:
        pc, nec = as_array(c.envelope_pc), as_array(c.envelope_nec)
    (line,) = ax.plot(pc, nec, color=st.color, linestyle=st.linestyle, linewidth=1.3, zorder=4)
    _markers(ax, pc, nec, st, count, index)
    return line


def frame_cost_panel(ax, weighted: bool, own_pc: float | None = None) -> None:
    """Limits, ticks, labels and title of a cost panel; on the instance-cost panel
    (``weighted=True``) the data's own condition ``own_pc`` as a dotted vertical line."""
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 0.5)
    ax.set_xticks(np.linspace(0, 1, 6))
    ax.set_yticks(np.linspace(0, 0.5, 6))
    ax.margins(0)
    if weighted:
        mark_own_pc(ax, own_pc)
        ax.set_xlabel("PC_iv(+)  (class-average costs)")
        ax.set_title("Instance costs: each error costs its own amount", fontsize=8)
    else:
        ax.set_xlabel("PC(+)  (probability times cost)")
        ax.set_title("Class-level costs: every error of a class costs the same", fontsize=8)
    ax.set_ylabel(NEC_LABEL)


def mark_own_pc(ax, own_pc: float) -> None:
    """The data's own operating condition on an instance-cost panel: a dotted vertical line at
    ``own_pc``, labelled (there the envelope times the sum of all costs is the least total cost)."""
    ax.axvline(own_pc, color=OWN_PC_COLOUR, linewidth=0.9, linestyle=(0, (1, 1.5)), zorder=3)
    ax.annotate(
        f"this data\n{own_pc:.2f}",
        (own_pc, 0.49),
        xytext=(-3, 0),
        textcoords="offset points",
        ha="right",
        va="top",
        fontsize=SMALL_FONT,
        color=OWN_PC_COLOUR,
    )


def _cost_panel(ax, d: DatasetResult, styles, weighted: bool):
    setup_cost_panel(ax)
    classifiers = [c for c in d.classifiers.values() if has_costs(c)]
    for i, c in enumerate(classifiers):
        draw_cost_classifier(ax, c, styles[c.name], weighted, i, len(classifiers))
    frame_cost_panel(ax, weighted, classifiers[0].instance_costs.own_pc)


def legend_handles(classifiers, styles, kind: str) -> list[Line2D]:
    """The legend of a ``kind`` ("roc" or "cost") figure: chance or the trivial classifiers, then
    each classifier (with AUC and AUCIV on the ROC figure)."""
    handles = [
        Line2D([], [], color=TRIVIAL_COLOUR, linewidth=TRIVIAL_WIDTH, label="Trivial classifiers")
        if kind == "cost"
        else Line2D([], [], color="#8c8c8c", linewidth=0.8, linestyle=(0, (4, 2)), label="Chance")
    ]
    for c in classifiers:
        ic = c.instance_costs
        text = (
            f"{label_of(c)}  AUC {c.auc:.3f} / AUCIV {ic.auciv:.3f}"
            if kind == "roc"
            else label_of(c)
        )
        handles.append(styles[c.name].handle(text))
    return handles


def figure_height(width_in: float, kind: str, entries: int, cols: int) -> float:
    """Inches: two square ROC panels (or two flatter cost panels) side by side and the legend's
    rows; the squares a little narrower than half the width, so the pair takes less of a page."""
    return (
        (width_in / 2 - 0.3) * (0.82 if kind == "roc" else 0.52) + 0.55 + 0.17 * -(-entries // cols)
    )


def side_by_side(d: DatasetResult, styles=None, kind: str = "roc"):
    """The two panels of ``kind`` ("roc": ROC | ROCIV; "cost": envelope | instance-cost
    envelope)."""
    styles = styles_for(styles, d.classifiers)
    classifiers = [c for c in d.classifiers.values() if c.instance_costs is not None]
    with style():
        w = width_inches("full")
        handles = legend_handles(classifiers, styles, kind)
        cols = legend_columns(handles, w)
        height = figure_height(w, kind, len(handles), cols)
        fig = new_figure(w, height)
        left, right = fig.subplots(1, 2)
        panel = _roc_panel if kind == "roc" else _cost_panel
        panel(left, d, styles, weighted=False)
        panel(right, d, styles, weighted=True)
        fig.legend(handles=handles, loc="outside lower center", ncols=cols)
    return fig


def _rociv_caption(d: DatasetResult) -> str:
    return (
        f"ROC (left) and ROCIV (right, Fawcett 2006) for {d.name}: thin lines are the curves, the "
        "classifier's line style its convex hull. ROCIV weights each positive by the cost of "
        "missing it and each negative by the cost of flagging it; where a hull moves between the "
        "panels the instance costs change the ranking. The legend gives AUC and AUCIV."
    )


def _rociv_alt(d: DatasetResult) -> str:
    parts = ", ".join(
        f"{c.name} AUC {c.auc:.3f} AUCIV {c.instance_costs.auciv:.3f}"
        for c in d.classifiers.values()
        if c.instance_costs is not None
    )
    return f"Two panels, ROC and ROCIV curves with hulls for {d.name}: {parts}."


def _cost_caption(d: DatasetResult) -> str:
    return (
        f"Lower envelopes for {d.name} with class-level costs over PC(+) (left, D&H 2006) and "
        "with each instance's own cost over PC_iv(+) (right: the dual of the ROCIV hull; x is "
        "the PC(+) that the class-average costs give). The dotted vertical line is this data's "
        "own condition: there the right-hand curve times the sum of all costs is the least total "
        "cost of errors on the data. Bold diagonals: the trivial classifiers."
    )


def _cost_alt(d: DatasetResult) -> str:
    found = [c for c in d.classifiers.values() if c.instance_costs is not None]
    unit = found[0].instance_costs.unit or ""
    cheapest = min(found, key=lambda c: c.instance_costs.min_total)
    return (
        f"Two panels of cost curves for {d.name}, without and with "
        "instance costs. Cheapest on the data with instance costs: "
        f"{cheapest.name}, {cheapest.instance_costs.min_total:,.0f} {unit}."
    ).replace(" .", ".")


def _wanted(s: Subject, options: FigureOptions) -> bool:
    return has_instance_costs(s.dataset)


ROCIV = register(
    FigureSpec(
        kind="rociv",
        scope="dataset",
        key="{dataset}/rociv",
        stem="{dataset_slug}/rociv",
        draw=lambda s: side_by_side(s.dataset, s.styles, "roc"),
        caption=lambda s: _rociv_caption(s.dataset),
        alt=lambda s: _rociv_alt(s.dataset),
        section="instance_costs",
        order=80,
        width="full",
        wanted=_wanted,
    )
)
IV_COST = register(
    FigureSpec(
        kind="iv-cost",
        scope="dataset",
        key="{dataset}/iv-cost",
        stem="{dataset_slug}/iv-cost",
        draw=lambda s: side_by_side(s.dataset, s.styles, "cost"),
        caption=lambda s: _cost_caption(s.dataset),
        alt=lambda s: _cost_alt(s.dataset),
        section="instance_costs",
        order=90,
        width="full",
        wanted=_wanted,
    )
)
