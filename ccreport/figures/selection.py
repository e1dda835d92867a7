"""Selection criteria and hybrid classifiers in cost and ROC space (D&H 2006 section 5,
Figs. 21-24).

* :func:`dataset_hybrid` - the dataset hybrid: every classifier's lower envelope thin, in its
  own style and named in the legend, the cost-minimizing selection among all of them bold, each
  segment labelled by classifier and threshold under the curve, point priors as dotted verticals
  (the decision box's situations);
* :func:`criteria` - every selection criterion in one figure, a row each: the chosen classifier
  in ROC space and cost space and the row's key. Neyman-Pearson (the vertical FPR = max_fpr,
  Fig. 23) and workforce (the line TPR P + FPR N = W, Eq. 12, Fig. 24) show the criterion's
  cost line touching the envelope, the workforce key the virtual point (P/(P-N), (P-W)/(P-N)),
  off the plot; a threshold set from PC(+) alone (Fig. 21) its hybrid, bold pieces over the
  grey cost lines of the classifier's thresholds, and the ROC points it selects.

Greyscale: the hybrid is black and bold, the classifiers' envelopes thin with their dash and
marker; criteria differ by dash and marker.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.transforms import blended_transform_factory

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
    hybrid_pieces,
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


def empirical_criteria(d: DatasetResult):
    """(criterion name, decision row, chosen classifier's choice) per Neyman-Pearson / workforce
    criterion."""
    out = []
    if d.decisions is None:
        return out
    for name, row in d.decisions.criteria.items():
        if row.kind in ("neyman_pearson", "workforce") and row.classifier is not None:
            out.append((name, row, d.classifiers[row.classifier].selection.criteria[name]))
    return out


def independent_criterion(d: DatasetResult):
    """(criterion name, chosen classifier, its choice) of the performance-independent criterion
    (a threshold set from PC(+) alone), or None."""
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


CRITERION_ROW = 1.42  # inches: a row of :func:`criteria` (its title, axes and tick labels)
CRITERION_X_LABELS = 0.22  # inches: the x tick labels and axis labels under the last row
CRITERION_LINE = (0, (4, 2))  # the constraint and the criterion's cost line
CRITERION_TITLE = 0.12  # a row's title line: its grid row's height ratio, of CRITERION_ROW


def criteria(d: DatasetResult, width="full", max_lines: int = 80) -> Figure:
    """Every selection criterion of ``d`` in one figure, a row per criterion (D&H 2006 section 5):
    the chosen classifier in ROC space (left), in cost space (middle) and the row's key (right).

    * Neyman-Pearson (Fig. 23): the vertical FPR = max_fpr on the ROC hull and the chosen point;
      in cost space the criterion's cost line [a, b] against the lower envelope, its end
      (0, max_fpr) marked;
    * workforce (Fig. 24): the line TPR P + FPR N = W (Eq. 12) and the chosen point; in cost space
      the criterion's cost line, the key giving the virtual point (P/(P-N), (P-W)/(P-N)) every
      cost line flagging W cases passes through (off the plot);
    * a threshold set from PC(+) alone (Fig. 21): the ROC points the rule selects; in cost space
      the rule's hybrid (bold pieces, may jump) over the grey cost lines of up to ``max_lines``
      of the classifier's thresholds, the lower envelope dashed.

    Every panel shares the unit square's axes (ROC and cost space both run from 0 to 1), so the
    x tick labels and axis labels are printed under the last row only. Black and grey only: the
    figure reads the same in greyscale.

    Layout: one grid of axes, two grid rows per criterion (a title row, its text set from the
    figure's left edge, then the three panels), not nested subfigures: every position the layout
    engine computes is then an axes position, which the package's layout engine rounds
    (:func:`~ccreport.figures.style.snap_positions`), so the files are the same bytes in every
    process. The columns line up from row to row.
    """
    rows = [("empirical", *row) for row in empirical_criteria(d)]
    rule = independent_criterion(d)
    if rule is not None:
        rows.append(("independent", *rule))
    if not rows:
        raise ValueError(f"criteria: no selection criterion chose a classifier on {d.name!r}")
    with style():
        w = width_inches(width)
        fig = new_figure(w, len(rows) * CRITERION_ROW + CRITERION_X_LABELS, hspace=0.0)
        grid = fig.add_gridspec(
            2 * len(rows),
            3,
            width_ratios=[1.0, 1.55, 1.55],
            height_ratios=[CRITERION_TITLE, CRITERION_ROW - CRITERION_TITLE] * len(rows),
        )
        for k, (what, name, first, second) in enumerate(rows):
            title_ax = fig.add_subplot(grid[2 * k, 0])
            roc_ax, cost_ax, key_ax = (fig.add_subplot(grid[2 * k + 1, j]) for j in range(3))
            if what == "empirical":
                title, notes = _criterion_row(roc_ax, cost_ax, d, name, first, second)
            else:
                title, notes = _independent_row(roc_ax, cost_ax, name, first, second, max_lines)
            title_ax.set_axis_off()
            title_ax.text(
                0.01,
                0.0,
                title,
                transform=blended_transform_factory(fig.transFigure, title_ax.transAxes),
                ha="left",
                va="baseline",
                fontsize=7,
            ).set_in_layout(False)
            for ax in (roc_ax, cost_ax):
                ax.set_xlim(0, 1)
                ax.set_ylim(0, 1)
                ax.set_xticks(np.linspace(0, 1, 6))
                ax.set_yticks(np.linspace(0, 1, 6))
            roc_ax.set_aspect("equal")
            roc_ax.set_ylabel("True positive rate", fontsize=7)
            cost_ax.set_ylabel(NEC_LABEL.replace(" expected", "\nexpected"), fontsize=7)
            last = k == len(rows) - 1
            roc_ax.set_xlabel("False positive rate" if last else "")
            cost_ax.set_xlabel(PC_LABEL if last else "")
            for ax in (roc_ax, cost_ax):
                ax.tick_params(labelbottom=last)
            key_ax.set_axis_off()
            handles = roc_ax.get_legend_handles_labels()[0] + cost_ax.get_legend_handles_labels()[0]
            key_ax.legend(
                handles=handles,
                loc="center left",
                frameon=False,
                fontsize=SMALL_FONT,
                handlelength=2.2,
                labelspacing=0.25,
                borderaxespad=0.0,
                title=notes or None,
                title_fontsize=SMALL_FONT,
                alignment="left",
            )
    return fig


def _criterion_row(roc_ax, cost_ax, d: DatasetResult, name: str, row, ch) -> tuple[str, str]:
    """A Neyman-Pearson or workforce criterion's panels (Figs. 23-24); returns the row's title
    and the key's note (the workforce criterion's virtual point)."""
    c = d.classifiers[row.classifier]
    hf, ht = as_array(c.hull_fpr), as_array(c.hull_tpr)
    roc_ax.plot(
        *drawn(as_array(c.roc_fpr), as_array(c.roc_tpr), hf, ht),
        color=GREY,
        linewidth=0.7,
        label="ROC curve",
    )
    roc_ax.plot(hf, ht, color=BLACK, linewidth=1.5, label="ROC hull")
    notes = ""
    if row.kind == "neyman_pearson":
        roc_ax.axvline(
            ch.max_fpr, color=BLACK, linewidth=0.9, linestyle=CRITERION_LINE, label="constraint"
        )
        title = f"{name}: Neyman-Pearson, FPR \u2264 {ch.max_fpr:g}, on {c.name}"
    else:
        p, n, cap = ch.n_pos, ch.n_neg, ch.capacity
        f = np.linspace(0, 1, 50)
        roc_ax.plot(
            f,
            (cap - n * f) / p,
            color=BLACK,
            linewidth=0.9,
            linestyle=CRITERION_LINE,
            label=f"constraint TPR\u00b7P + FPR\u00b7N = {cap:g}",
        )
        title = f"{name}: workforce, at most {cap:g} cases flagged, on {c.name}"
        vp = ch.virtual_point
        notes = (
            "P = N: Eq. 12 is a direction, no point"
            if vp is None
            else f"Eq. 12 point at PC(+) = {vp[0]:.2f}, NEC = {vp[1]:.2f}\n(off the plot, "
            f"{'left' if vp[0] < 0 else 'right'}): every cost line\nflagging "
            f"{cap:g} cases passes through it"
        )
    roc_ax.plot(
        [ch.fpr],
        [ch.tpr],
        marker="o",
        color=BLACK,
        markerfacecolor="white",
        markersize=4.5,
        linestyle="none",
        label=f"choice: TPR {ch.tpr:.3f}, FPR {ch.fpr:.3f}",
    )
    cost_ax.plot(
        as_array(c.envelope_pc),
        as_array(c.envelope_nec),
        color=BLACK,
        linewidth=1.5,
        label="lower envelope",
    )
    a, b = ch.cost_line
    cost_ax.plot(
        [0, 1],
        [a, b],
        color=BLACK,
        linewidth=0.9,
        linestyle=CRITERION_LINE,
        label=f"criterion's cost line [{a:.3f}, {b:.3f}]",
    )
    if row.kind == "neyman_pearson":
        cost_ax.plot(
            [0],
            [ch.max_fpr],
            marker="s",
            color=BLACK,
            markersize=3.5,
            linestyle="none",
            clip_on=False,
            label=f"(0, max_fpr = {ch.max_fpr:g})",
        )
    if getattr(ch, "touch", None) is not None:
        cost_ax.plot(
            [ch.touch[0]],
            [ch.touch[1]],
            marker="o",
            color=BLACK,
            markerfacecolor="white",
            markersize=3.5,
            linestyle="none",
        )
    return title, notes


def _independent_row(roc_ax, cost_ax, name: str, c, ch, max_lines: int) -> tuple[str, str]:
    """A threshold set from PC(+) alone (Fig. 21): the rule's hybrid, bold pieces over the grey
    cost lines of (up to ``max_lines`` of) the classifier's thresholds, and the ROC points it
    selects; returns the row's title and no note."""
    fpr, tpr = as_array(c.roc_fpr), as_array(c.roc_tpr)
    roc_ax.plot(
        *drawn(fpr, tpr, as_array(c.hull_fpr), as_array(c.hull_tpr)),
        color=GREY,
        linewidth=0.8,
        label="ROC curve",
    )
    roc_ax.plot(
        as_array(c.hull_fpr),
        as_array(c.hull_tpr),
        color=BLACK,
        linewidth=0.9,
        linestyle=CRITERION_LINE,
        label="ROC hull",
    )
    cv = ch.curve
    wide = cv.high > cv.low
    roc_ax.plot(
        cv.start[wide],
        1 - cv.end[wide],
        marker="o",
        markersize=2.2,
        color=BLACK,
        linestyle="none",
        label="selected points",
    )
    pick = np.unique(np.linspace(0, fpr.size - 1, min(fpr.size, max_lines)).round().astype(int))
    segments(
        cost_ax,
        np.zeros(pick.size),
        fpr[pick],
        np.ones(pick.size),
        1 - tpr[pick],
        color=GREY,
        linewidth=0.35,
        zorder=1,
    )
    hybrid_pieces(cost_ax, cv, color=BLACK, linewidth=1.8)
    cost_ax.plot(
        as_array(c.envelope_pc),
        as_array(c.envelope_nec),
        color=BLACK,
        linewidth=0.9,
        linestyle=CRITERION_LINE,
        zorder=2,
        label="lower envelope",
    )
    cost_ax.plot([], [], color=BLACK, linewidth=1.8, label=f"{ch.rule} hybrid (area {ch.area:.4f})")
    shown = "" if pick.size == fpr.size else f", {pick.size} of {fpr.size}"
    cost_ax.plot([], [], color=GREY, linewidth=0.6, label=f"each threshold's cost line{shown}")
    return f"{name}: threshold set from PC(+) alone, on {c.name}", ""


def _criteria_caption(d: DatasetResult) -> str:
    """What :func:`criteria` draws, a sentence per kind of row it has."""
    kinds = {row.kind for _, row, _ in empirical_criteria(d)}
    parts = [
        f"Selection criteria on {d.name} (Drummond & Holte 2006, section 5), a row per "
        "criterion: the chosen classifier in ROC space (left) and in cost space (right), "
        "normalized expected cost against PC(+)."
    ]
    if kinds:
        parts.append(
            "For "
            + " and ".join(
                k
                for k, there in (
                    ("Neyman-Pearson (Fig. 23)", "neyman_pearson" in kinds),
                    ("workforce (Fig. 24)", "workforce" in kinds),
                )
                if there
            )
            + ": the constraint (dashed) on the ROC hull and the chosen point (circle); the "
            "criterion's cost line (dashed) against the classifier's lower envelope."
        )
    if independent_criterion(d) is not None:
        parts.append(
            "For the threshold set from PC(+) alone (Fig. 21): the rule's hybrid cost curve "
            "(bold pieces, may jump) over the cost lines of the classifier's thresholds (grey, "
            "some of them), the lower envelope dashed; in ROC space, the points the rule selects."
        )
    return " ".join(parts)


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
        caption=lambda s: _criteria_caption(s.dataset),
        alt=lambda s: (
            f"ROC and cost-space panels of each selection criterion on {s.dataset.name}, a row "
            "per criterion."
        ),
        section="selection",
        order=60,
        width="full",
        wanted=lambda s, o: (
            bool(empirical_criteria(s.dataset)) or independent_criterion(s.dataset) is not None
        ),
    )
)
