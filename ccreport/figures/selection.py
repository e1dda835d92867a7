"""Selection criteria and hybrid classifiers in cost and ROC space (D&H 2006 section 5,
Figs. 21-24).

* :func:`dataset_hybrid` - the dataset hybrid: every classifier's lower envelope thin, in its
  own style and named in the legend, the cost-minimizing selection among all of them bold, each
  segment labelled by classifier and threshold under the curve, point priors as dotted verticals
  (the decision box's situations);
* :func:`criteria` - per Neyman-Pearson or workforce criterion, the chosen classifier in ROC space
  (the vertical FPR = max_fpr, Fig. 23a; the line TPR P + FPR N = W, Eq. 12, Fig. 24a) and in
  cost space (the criterion's cost line touching the envelope; for workforce the position of the
  virtual point (P/(P-N), (P-W)/(P-N)), which is off the plot, is written on it);
* :func:`independent` - Fig. 21: a threshold-from-PC(+) rule's hybrid, bold pieces over the grey
  cost lines of the classifier's thresholds, and the selected ROC points.

Greyscale: the hybrid is black and bold, the classifiers' envelopes thin with their dash and
marker; criteria differ by dash and marker.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from ..results import DatasetResult
from ..results.curves import drawn
from .cost_space import marker_positions
from .registry import FigureSpec, register
from .style import (
    NEC_LABEL,
    PC_LABEL,
    SMALL_FONT,
    as_array,
    fit_height,
    frame_small_roc_panel,
    new_figure,
    segments,
    style,
    styles_for,
    top_legend,
    width_inches,
)

GREY = "#9a9a9a"
BLACK = "#111111"


def _threshold(t) -> str:
    t = float(t)
    return "none" if np.isinf(t) else f"{t:.3g}"


LABEL_WIDTH = 0.025  # a hybrid segment at least this wide in PC(+) gets its number on the figure
NAME_WIDTH = 0.12  # ... and at least this wide, its classifier and threshold too
BAND_GREY = "#d4d4d4"


def _label_extent(text: str, x: float, lo: float, hi: float, per_char: float):
    """(left, right) of a label of ``text`` centred at ``x`` (data units; ``per_char`` the width
    of a character), shifted to lie inside [lo, hi] (the axes) when it can."""
    half = 0.5 * len(text) * per_char
    centre = min(max(x, lo + half), hi - half)
    return centre - half, centre + half


def place_segment_labels(pc, nec, segs, verticals, per_char: float, height: float, gap: float):
    """Where each hybrid segment's label goes: (text, x centre, y top) per labelled segment.

    A segment at least :data:`LABEL_WIDTH` wide gets its number, and at least
    :data:`NAME_WIDTH` wide also its classifier and threshold. The label hangs ``gap`` below the
    lowest point of the hybrid (``pc``, ``nec``) over the label's whole width, so it covers no
    curve (the hybrid is the lowest of all; nothing else is drawn below it); it is moved sideways
    inside its segment off the ``verticals`` (the priors' dotted lines), falls back to the number
    alone when the full text does not fit, and is left to the segments table when even the
    number meets a vertical, an earlier label or the x axis. ``per_char``/``height``: a
    character's width and the text's height in data units."""
    placed, taken = [], []
    for number, seg in enumerate(segs, start=1):
        lo, hi = float(seg["low"]), float(seg["high"])
        if hi - lo < LABEL_WIDTH:
            continue
        texts = [str(number)]
        if hi - lo >= NAME_WIDTH:
            texts.insert(0, f"{number} {seg['classifier']} \u2265{_threshold(seg['threshold'])}")
        mid = 0.5 * (lo + hi)
        for text in texts:
            spot = None
            for centre in (mid, *np.linspace(lo, hi, 9)):
                left, right = _label_extent(text, centre, 0.0, 1.0, per_char)
                if any(left - 0.5 * per_char <= v <= right + 0.5 * per_char for v in verticals):
                    continue
                if any(left < r and right > q for q, r in taken):
                    continue
                inside = (pc >= left) & (pc <= right)
                ys = np.concatenate([nec[inside], np.interp([left, right], pc, nec)])
                y = float(ys.min()) - gap
                if y - height < 0:
                    continue
                spot = (text, 0.5 * (left + right), y, left, right)
                break
            if spot is not None:
                placed.append(spot[:3])
                taken.append(spot[3:])
                break
    return placed


HYBRID_PLOT_HEIGHT = 2.8  # inches: the hybrid figure's axes with tick labels and x label


def dataset_hybrid(d: DatasetResult, styles=None, width="full") -> Figure:
    """The dataset hybrid's lower envelope, its band, and its segments numbered as in the segments
    table.

    Every segment of positive width is numbered 1, 2, ... from PC(+) = 0 (the numbering of the
    decision box's segments table); labels are placed by :func:`place_segment_labels`, under the
    curve and off the priors' lines; the others are listed in the table only (German credit has
    17 segments, many a few hundredths wide). Segment ends are small ticks on the curve. Each
    classifier's lower envelope is drawn thin in its own colour, dash pattern and marker
    (``styles``, as in every figure) and named in the legend; the band is shaded light grey and
    the hybrid is black and bold, so the figure reads in greyscale.
    """
    h = d.hybrid.hybrid
    styles = styles_for(styles, d.classifiers)
    with style():
        w = width_inches(width)
        fig = new_figure(w, HYBRID_PLOT_HEIGHT)
        ax = fig.subplots()
        band = d.hybrid_band
        handles = []
        if band is not None:
            inf = band.inference
            handles.append(
                ax.fill_between(
                    as_array(inf.grid),
                    as_array(inf.lower),
                    as_array(inf.upper),
                    color=BAND_GREY,
                    linewidth=0,
                    zorder=1,
                    label=f"{100 * band.level:.0f}% band (pointwise, optimism-corrected)",
                )
            )
        pc, nec = as_array(h.envelope.pc), as_array(h.envelope.nec)
        handles += ax.plot(
            pc,
            nec,
            color=BLACK,
            linewidth=2.2,
            zorder=4,
            label="dataset hybrid (cheapest over all)",
        )
        count = len(d.classifiers)
        for i, c in enumerate(d.classifiers.values()):
            st = styles[c.name]
            epc, enec = as_array(c.envelope_pc), as_array(c.envelope_nec)
            line = {"color": st.color, "linestyle": st.linestyle, "linewidth": 0.8}
            ax.plot(epc, enec, alpha=0.85, zorder=2, **line)
            mx, my = marker_positions(epc, enec, i, count)
            keep = my > np.interp(mx, pc, nec) + 1e-9  # no marker on the hybrid itself
            st.markers(ax, mx[keep], my[keep], size=3, edge=0.4, zorder=2.5)
            handles.append(st.handle(f"{c.name}'s lower envelope", linewidth=0.8))
        ax.plot([0, 1], [0, 1], color=BLACK, linewidth=0.8, linestyle=(0, (4, 2)), zorder=1)
        ax.plot([0, 1], [1, 0], color=BLACK, linewidth=0.8, linestyle=(0, (4, 2)), zorder=1)
        top = max(0.05, float(nec.max()) * 1.6)
        if band is not None:
            top = max(top, min(1.0, float(np.max(band.inference.upper)) * 1.15))
        priors = d.decisions.priors if d.decisions is not None else {}
        # a character and a line of SMALL_FONT text in data units, on axes about 0.6 in narrower
        # and 0.7 in lower than the figure's plot area (ticks, labels)
        per_char = 0.6 * SMALL_FONT / 72 / (w - 0.6)
        height = 1.25 * SMALL_FONT / 72 / (HYBRID_PLOT_HEIGHT - 0.7) * top
        for text, x, y in place_segment_labels(
            pc,
            nec,
            list(h.segments()),
            [float(row.pc) for row in priors.values()],
            per_char,
            height,
            gap=0.25 * height,
        ):
            ax.text(x, y, text, ha="center", va="top", fontsize=SMALL_FONT, zorder=6)
        ends = h.low[1:][np.diff(h.low) > 0]
        ax.plot(
            ends,
            np.interp(ends, pc, nec),
            linestyle="none",
            marker="|",
            markersize=5,
            color=BLACK,
            zorder=5,
        )
        for name, row in priors.items():
            ax.axvline(row.pc, color=BLACK, linewidth=0.9, linestyle=(0, (1, 1.5)), zorder=3)
            right = row.pc > 0.75  # near the right edge the name goes left of its line
            ax.text(
                row.pc,
                top * 0.97,
                f" {name} " if not right else f"{name} ",
                fontsize=SMALL_FONT,
                va="top",
                ha="right" if right else "left",
                zorder=6,
                bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none"},
            )
        ax.set_xlim(0, 1)
        ax.set_ylim(0, top)
        ax.set_xlabel(PC_LABEL)
        ax.set_ylabel(NEC_LABEL)
        fit_height(fig, top_legend(fig, handles, w), HYBRID_PLOT_HEIGHT)
    return fig


def _empirical(d: DatasetResult):
    """(criterion name, decision row, chosen classifier's choice) per Neyman-Pearson / workforce
    criterion."""
    out = []
    if d.decisions is None:
        return out
    for name, row in d.decisions.criteria.items():
        if row.kind in ("neyman_pearson", "workforce") and row.classifier is not None:
            out.append((name, row, d.classifiers[row.classifier].selection.criteria[name]))
    return out


def criteria(d: DatasetResult, width="full") -> Figure:
    """Figs. 23-24: each criterion's choice in ROC space (left) and cost space (right)."""
    rows = _empirical(d)
    with style():
        w = width_inches(width)
        fig = new_figure(w, 2.3 * len(rows))
        axes = np.atleast_2d(fig.subplots(len(rows), 2))
        for (name, row, ch), (roc_ax, cost_ax) in zip(rows, axes):
            c = d.classifiers[row.classifier]
            hf, ht = as_array(c.hull_fpr), as_array(c.hull_tpr)
            roc_ax.plot(
                *drawn(as_array(c.roc_fpr), as_array(c.roc_tpr), hf, ht), color=GREY, linewidth=0.7
            )
            roc_ax.plot(hf, ht, color=BLACK, linewidth=1.6, label=f"{c.name}: ROC hull")
            if row.kind == "neyman_pearson":
                roc_ax.axvline(
                    ch.max_fpr,
                    color=BLACK,
                    linewidth=0.9,
                    linestyle=(0, (4, 2)),
                    label=f"FPR = {ch.max_fpr:g}",
                )
                title = f"{name}: Neyman-Pearson, FPR \u2264 {ch.max_fpr:g}"
            else:
                p, n, cap = ch.n_pos, ch.n_neg, ch.capacity
                f = np.linspace(0, 1, 50)
                roc_ax.plot(
                    f,
                    (cap - n * f) / p,
                    color=BLACK,
                    linewidth=0.9,
                    linestyle=(0, (4, 2)),
                    label=f"TPR\u00b7P + FPR\u00b7N = {cap:g}",
                )
                title = f"{name}: workforce, at most {cap:g} cases"
            roc_ax.plot(
                [ch.fpr],
                [ch.tpr],
                marker="o",
                color=BLACK,
                markerfacecolor="white",
                markersize=5,
                linestyle="none",
                label=f"choice: TPR {ch.tpr:.3f}, FPR {ch.fpr:.3f}",
            )
            roc_ax.set_xlim(0, 1)
            roc_ax.set_ylim(0, 1)
            roc_ax.set_aspect("equal")
            roc_ax.set_xlabel("False positive rate")
            roc_ax.set_ylabel("True positive rate")
            roc_ax.set_title(title, fontsize=7)
            roc_ax.legend(loc="lower right", frameon=False, fontsize=SMALL_FONT)
            epc, enec = as_array(c.envelope_pc), as_array(c.envelope_nec)
            cost_ax.plot(epc, enec, color=BLACK, linewidth=1.6, label="lower envelope")
            a, b = ch.cost_line
            cost_ax.plot(
                [0, 1],
                [a, b],
                color=BLACK,
                linewidth=1.0,
                linestyle=(0, (4, 2)),
                label=f"criterion's cost line [{a:.3f}, {b:.3f}]",
            )
            if row.kind == "neyman_pearson":
                cost_ax.plot(
                    [0],
                    [ch.max_fpr],
                    marker="s",
                    color=BLACK,
                    markersize=4,
                    clip_on=False,
                    label=f"(0, max_fpr = {ch.max_fpr:g})",
                )
            else:
                vp = ch.virtual_point
                text = (
                    "P = N: Eq. 12 is a direction, no point"
                    if vp is None
                    else f"Eq. 12 point at PC(+) = {vp[0]:.2f}, NEC = {vp[1]:.2f}\n(off the plot, "
                    f"{'left' if vp[0] < 0 else 'right'}): every cost line\nflagging "
                    f"{ch.capacity:g} cases passes through it"
                )
                cost_ax.text(
                    0.02 if (vp is None or vp[0] < 0) else 0.98,
                    0.97,
                    text,
                    transform=cost_ax.transAxes,
                    fontsize=SMALL_FONT,
                    va="top",
                    ha="left" if (vp is None or vp[0] < 0) else "right",
                )
            if getattr(ch, "touch", None) is not None:
                cost_ax.plot(
                    [ch.touch[0]],
                    [ch.touch[1]],
                    marker="o",
                    color=BLACK,
                    markerfacecolor="white",
                    markersize=4,
                )
            cost_ax.set_xlim(0, 1)
            cost_ax.set_ylim(0, max(0.6, a, b) * 1.05)
            cost_ax.set_xlabel(PC_LABEL)
            cost_ax.set_ylabel(NEC_LABEL)
            cost_ax.legend(
                loc="upper right" if row.kind == "neyman_pearson" else "center right",
                frameon=False,
                fontsize=SMALL_FONT,
            )
    return fig


def _independent(d: DatasetResult):
    if d.decisions is None:
        return None
    for name, row in d.decisions.criteria.items():
        if row.kind == "performance_independent" and row.classifier is not None:
            return (
                name,
                d.classifiers[row.classifier],
                d.classifiers[row.classifier].selection.criteria[name],
            )
    return None


def independent(d: DatasetResult, width="full", max_lines: int = 80) -> Figure:
    """Fig. 21: the rule's hybrid (bold pieces) over the grey cost lines of (up to ``max_lines``
    of) the classifier's thresholds, and in ROC space; the legends name the grey lines too."""
    name, c, ch = _independent(d)
    with style():
        w = width_inches(width)
        fig = new_figure(w, 2.85)
        cost_ax, roc_ax = fig.subplots(1, 2)
        fpr, tpr = as_array(c.roc_fpr), as_array(c.roc_tpr)
        pick = np.unique(np.linspace(0, fpr.size - 1, min(fpr.size, max_lines)).round().astype(int))
        segments(
            cost_ax,
            np.zeros(pick.size),
            fpr[pick],
            np.ones(pick.size),
            1 - tpr[pick],
            color=GREY,
            linewidth=0.4,
            zorder=1,
        )
        cv = ch.curve
        lo, hi, a, b = (as_array(v) for v in (cv.low, cv.high, cv.start, cv.end))
        wide = hi > lo
        lo, hi, a, b = lo[wide], hi[wide], a[wide], b[wide]
        segments(
            cost_ax,
            lo,
            a + (b - a) * lo,
            hi,
            a + (b - a) * hi,
            color=BLACK,
            linewidth=2.0,
            zorder=3,
            capstyle="butt",
        )
        cost_ax.plot(
            as_array(c.envelope_pc),
            as_array(c.envelope_nec),
            color=BLACK,
            linewidth=0.9,
            linestyle=(0, (4, 2)),
            zorder=2,
            label="lower envelope",
        )
        cost_ax.plot(
            [], [], color=BLACK, linewidth=2.0, label=f"{ch.rule} hybrid (area {ch.area:.4f})"
        )
        shown = "" if pick.size == fpr.size else f", {pick.size} of {fpr.size}"
        cost_ax.plot([], [], color=GREY, linewidth=0.6, label=f"each threshold's cost line{shown}")
        cost_ax.set_xlim(0, 1)
        cost_ax.set_ylim(0, 1)
        cost_ax.set_xlabel(PC_LABEL)
        cost_ax.set_ylabel(NEC_LABEL)
        cost_ax.set_title(f"{name}: {c.name}, cost space", fontsize=7)
        # under the axes: inside, the legend would sit on the fan of cost lines
        cost_ax.legend(
            loc="upper center",
            bbox_to_anchor=(0.5, -0.17),
            ncols=1,
            frameon=False,
            fontsize=SMALL_FONT,
        )
        roc_ax.plot(
            *drawn(fpr, tpr, as_array(c.hull_fpr), as_array(c.hull_tpr)),
            color=GREY,
            linewidth=0.8,
            label="ROC curve",
        )
        wide = cv.high > cv.low
        sel_f, sel_t = cv.start[wide], 1 - cv.end[wide]
        roc_ax.plot(
            sel_f,
            sel_t,
            marker="o",
            markersize=2.5,
            color=BLACK,
            linestyle="none",
            label="selected points",
        )
        roc_ax.plot(
            as_array(c.hull_fpr),
            as_array(c.hull_tpr),
            color=BLACK,
            linewidth=0.9,
            linestyle=(0, (4, 2)),
            label="ROC hull",
        )
        frame_small_roc_panel(roc_ax)
    return fig


def _hybrid_caption(d: DatasetResult) -> str:
    segs = d.hybrid.hybrid.segments()
    band = (
        (
            "; shaded: its pointwise bootstrap band, optimism-corrected (classifier and "
            "threshold re-chosen on every replicate)"
        )
        if d.hybrid_band is not None
        else ""
    )
    return (
        f"The dataset hybrid on {d.name}: the cheapest classifier and threshold at "
        f"each PC(+) (bold), over every classifier's lower envelope (thin, in its own style, named "
        f"in the legend){band}. Its {len(segs)} segments are numbered from PC(+) = 0 as in the "
        "segments table (ticks: segment ends); wide ones also show classifier and threshold "
        "(positive iff score \u2265 threshold), under the curve. Dotted verticals: the point "
        "priors. "
        "The bold curve is selected and evaluated on the same data: optimistic."
    )


register(
    FigureSpec(
        kind="hybrid",
        scope="dataset",
        key="{dataset}/hybrid",
        stem="{dataset_slug}/hybrid",
        draw=lambda s: dataset_hybrid(s.dataset, s.styles),
        caption=lambda s: _hybrid_caption(s.dataset),
        alt=lambda s: (
            f"Cost-space plot of the dataset hybrid on {s.dataset.name} with labelled segments."
        ),
        section="decisions",
        order=5,
        width="full",
        wanted=lambda s, o: s.dataset.hybrid is not None,
    )
)
register(
    FigureSpec(
        kind="criteria",
        scope="dataset",
        key="{dataset}/criteria",
        stem="{dataset_slug}/criteria",
        draw=lambda s: criteria(s.dataset),
        caption=lambda s: (
            f"Selection criteria on {s.dataset.name} (D&H 2006 Figs. 23-24): for each criterion "
            "the chosen classifier's ROC hull with the constraint (left) and, in cost space, the "
            "criterion's cost line against the lower envelope (right)."
        ),
        alt=lambda s: f"ROC and cost-space panels of each selection criterion on {s.dataset.name}.",
        section="selection",
        order=60,
        width="full",
        wanted=lambda s, o: bool(_empirical(s.dataset)),
    )
)
register(
    FigureSpec(
        kind="independent",
        scope="dataset",
        key="{dataset}/independent",
        stem="{dataset_slug}/independent",
        draw=lambda s: independent(s.dataset),
        caption=lambda s: (
            f"Setting the threshold from PC(+) alone on {s.dataset.name} (D&H 2006 Fig. 21): the "
            "rule's hybrid cost curve (bold pieces, may jump) over the cost lines of the "
            "classifier's thresholds (grey, some of them), the lower envelope dashed; right, the "
            "ROC points the rule selects."
        ),
        alt=lambda s: (
            f"Performance-independent selection on {s.dataset.name} in cost and ROC space."
        ),
        section="selection",
        order=70,
        width="full",
        wanted=lambda s, o: _independent(s.dataset) is not None,
    )
)
