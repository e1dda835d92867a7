"""The difference of two cost curves (D&H 2006 sections 4.3-4.4, Fig. 11b, 12b, 19-20).

Crossovers on the zero line and, when the results carry them, the paired bootstrap band of the
difference and the regions where it is significant (:class:`~ccreport.results.DifferenceBand`,
:class:`~ccreport.results.SignificantRegion`).
"""

from __future__ import annotations

import functools
import math

import matplotlib.colors
import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..results import ComparisonResult, DatasetResult
from .registry import FigureSpec, register
from .style import (
    COLUMN_WIDTH,
    DENSE_POINTS,
    DIFF_LABEL,
    PANEL_PLOT_HEIGHT,
    PANEL_WIDTH,
    SMALL_FONT,
    Style,
    as_array,
    fit_height,
    fit_legend,
    is_panel,
    level_text,
    new_figure,
    pc_label,
    style,
    styles_for,
    where_drawn,
    width_inches,
)


def _tint(color: str, amount: float):
    """``color`` mixed with white (amount 0: unchanged, 1: white)."""
    rgb = np.array(matplotlib.colors.to_rgb(color))
    return tuple(rgb + (1 - rgb) * amount)


def _shade(color: str, factor: float):
    """``color`` darkened (factor 1: unchanged, 0: black), for text on white."""
    return tuple(np.array(matplotlib.colors.to_rgb(color)) * factor)


A_HATCH = "\\\\\\"  # where a is cheaper: below zero, and a's significance bars
B_HATCH = "////"  # where b is cheaper


def significance_color(better, m: ComparisonResult, styles):
    return styles[better].color if better in (m.a, m.b) else "#555555"


def significance_look(better, m: ComparisonResult, styles) -> dict:
    """Face, edge (hatch) colour and hatch of a significance bar: those of the cheaper side's
    shading.

    The bar of a region where ``a`` is significantly cheaper is hatched like the area where a is
    cheaper (:data:`A_HATCH`), b's like b's (:data:`B_HATCH`), so the winner reads in greyscale
    by the hatch direction, not by colour alone.
    """
    color = significance_color(better, m, styles)
    hatch = A_HATCH if better == m.a else B_HATCH if better == m.b else None
    return {"facecolor": _tint(color, 0.55), "edgecolor": _shade(color, 0.8), "hatch": hatch}


def winners_of(m: ComparisonResult) -> list:
    """The classifiers named significantly cheaper somewhere, a and b first (one legend swatch
    each)."""
    significant = m.significant or ()
    found = [x for x in (m.a, m.b) if any(s.better == x for s in significant)]
    return found + sorted({s.better for s in significant} - {m.a, m.b})


def difference(
    comparison: ComparisonResult,
    styles: dict[str, Style] | None = None,
    *,
    width: str | float = "column",
    title: str | None = None,
    ylim: tuple[float, float] | None = None,
) -> Figure:
    """The difference a - b of two cost curves (D&H 2006 sections 4.3-4.4, Fig. 19-20).

    Below zero ``a`` is cheaper (shaded in a's colour), above zero ``b`` is (b's colour).
    Crossovers are marked on the zero line with their PC(+); a confidence band and the regions where
    the difference is significant (bars along the bottom) are drawn when the results carry them.
    ``ylim``: the y limits, e.g. :func:`difference_ylim` of every pair of a dataset so that a grid
    of their panels shares one scale (default: this pair's own).
    """
    m = comparison
    styles = styles_for(styles, [m.a, m.b])
    band = m.difference_band
    with style():
        w = width_inches(width)
        # the shaded sides are labelled in the plot ("x cheaper"); the legend has the rest
        winners = winners_of(m)
        n_handles = 1 + bool(band) + bool(m.crossovers) + len(winners)
        # as many legend columns as the longest label allows
        # (at 7 pt: 0.33 in + 0.055 in a character)
        longest = max(
            [len(f"{m.a} \u2212 {m.b}"), 36 if band else 0]
            + [len(f"significant: {x} cheaper") for x in winners]
        )
        cols = max(1, min(2 if w <= COLUMN_WIDTH + 0.01 else 4, int(w // (0.33 + 0.055 * longest))))
        fig = new_figure(w, 2.05 + 0.17 * math.ceil(n_handles / cols) + 0.45)
        ax = fig.subplots()
        handles = draw_difference(ax, m, styles, w, title, ylim)
        if is_panel(w):
            legend = fit_legend(fig, handles, "outside lower center", w)
            fit_height(fig, legend, PANEL_PLOT_HEIGHT + 0.1)
        else:
            fig.legend(handles=handles, loc="outside lower center", ncols=cols)
    return fig


def outline_width(text: str, size: float, font) -> float:
    """The width in points of ``text``'s outline (``TextPath(...).get_extents()``) at ``size`` in
    ``font`` (a ``FontProperties``): the same label is measured in every figure of its classifier,
    so each is traced once per font file and properties (:func:`_outline_width`)."""
    from matplotlib.font_manager import findfont

    return _outline_width(text, size, font, findfont(font))


@functools.lru_cache(maxsize=512)
def _outline_width(text: str, size: float, font, font_file: str) -> float:
    from matplotlib.textpath import TextPath

    return float(TextPath((0, 0), text, size=size, prop=font).get_extents().width)


def clear_of(lines, name: str, arrow: str, width_in: float) -> tuple[float, str]:
    """(x, text): where (axes fraction, left end) and how the label "``name`` cheaper ``arrow``"
    goes so that it crosses none of the vertical ``lines`` (PC(+) values; the crossovers' dotted
    lines): on one line in the first gap between them wide enough, else on two lines (the name,
    then "cheaper"), else on two lines in the widest gap, kept inside the axes. Widths are the
    text's outline at :data:`SMALL_FONT` (``TextPath``) on axes taken as 0.75 in narrower than
    the figure."""
    from matplotlib.font_manager import FontProperties

    font = FontProperties()  # the style's font: what TextPath would measure with
    axes_pt = max(width_in - 0.75, 0.5) * 72
    edges = [0.0, *sorted(float(x) for x in lines if 0.0 < x < 1.0), 1.0]
    gaps = list(zip(edges[:-1], edges[1:], strict=True))
    variants = [f"{name} cheaper {arrow}", f"{name}\ncheaper {arrow}"]
    for text in variants:
        width = max(outline_width(part, SMALL_FONT, font) for part in text.split("\n"))
        need = width / axes_pt + 0.035
        fitting = [lo for lo, hi in gaps if hi - lo >= need]
        if fitting:
            return fitting[0] + 0.012, text
    start = max(gaps, key=lambda g: g[1] - g[0])[0]
    return min(start + 0.012, max(0.012, 1.0 - need)), variants[-1]


def difference_ylim(comparisons) -> tuple[float, float]:
    """The y limits that show every difference curve and band of ``comparisons`` (one pair for
    its own figure; all pairs of a dataset for a grid of panels on one scale): their range with a
    sixth of its span (0.04 or more) added on each side, and at least a quarter of the span on
    each side of zero, room for the "cheaper" labels clear of the curves."""
    lo = hi = 0.0
    for m in comparisons:
        diff = as_array(m.difference)
        if diff.size:
            lo, hi = min(lo, float(np.min(diff))), max(hi, float(np.max(diff)))
        band = m.difference_band
        if band:
            lo = min(lo, float(np.nanmin(as_array(band.lower))))
            hi = max(hi, float(np.nanmax(as_array(band.upper))))
    span = max(hi - lo, 0.04)
    return min(lo - 0.16 * span, -0.25 * span), max(hi + 0.16 * span, 0.25 * span)


def draw_difference(
    ax,
    comparison: ComparisonResult,
    styles: dict[str, Style],
    width_in: float,
    title: str | None = None,
    ylim: tuple[float, float] | None = None,
) -> list:
    """The difference a - b into ``ax`` (zero line, shaded sides, band, crossovers, significant
    regions, labels); returns the legend handles. ``width_in``: the figure's width (the y label);
    ``ylim``: the y limits (default: :func:`difference_ylim` of this pair alone)."""
    m = comparison
    sa, sb = styles[m.a], styles[m.b]
    pc, diff = as_array(m.difference_pc), as_array(m.difference)
    band = m.difference_band
    significant = m.significant or ()
    w = width_in
    ax.set_xlim(0, 1)
    ax.set_ylim(*(difference_ylim([m]) if ylim is None else ylim))
    ax.axhline(0, color="#1a1a1a", linewidth=0.8, zorder=2)
    # the two sides are hatched in opposite directions, so they stay apart in greyscale print
    ax.fill_between(
        pc,
        diff,
        0,
        where=diff <= 0,
        interpolate=True,
        facecolor=_tint(sa.color, 0.78),
        edgecolor=sa.color,
        hatch=A_HATCH,
        linewidth=0,
        zorder=1,
    )
    ax.fill_between(
        pc,
        diff,
        0,
        where=diff >= 0,
        interpolate=True,
        facecolor=_tint(sb.color, 0.78),
        edgecolor=sb.color,
        hatch=B_HATCH,
        linewidth=0,
        zorder=1,
    )
    handles = []
    if band:
        ax.fill_between(
            as_array(band.pc),
            as_array(band.lower),
            as_array(band.upper),
            color="#7f7f7f",
            alpha=0.3,
            linewidth=0,
            zorder=1.5,
        )
        handles.append(
            Patch(
                facecolor="#7f7f7f",
                alpha=0.45,
                linewidth=0,
                label=f"{level_text(band.level)}pointwise band"
                + ("\n" if w < COLUMN_WIDTH - 0.01 else " ")
                + "of the difference",
            )
        )
    ax.plot(pc, diff, color="#1a1a1a", linewidth=1.5, zorder=4, rasterized=pc.size > DENSE_POINTS)
    handles.insert(0, Line2D([], [], color="#1a1a1a", linewidth=1.5, label=f"{m.a} \u2212 {m.b}"))
    labelled = []
    for x in m.crossovers:
        ax.axvline(x, color="#4d4d4d", linewidth=0.6, linestyle=(0, (1.5, 1.5)), zorder=2)
        ax.plot(
            [x],
            [0],
            marker="o",
            markersize=4,
            markerfacecolor="white",
            markeredgecolor="#1a1a1a",
            markeredgewidth=1.0,
            zorder=5,
        )
        # the value just above the frame, like a tick label, skipping any that would collide
        # (four characters at 6.5 pt and a space, as a share of the axes' width)
        apart = 4.5 * 0.6 * 6.5 / 72 / max(w - 0.75, 0.5)
        if len(m.crossovers) <= 6 and all(abs(x - y) > apart for y in labelled):
            ax.text(
                x,
                1.015,
                f"{x:.2f}",
                transform=ax.get_xaxis_transform(),
                fontsize=6.5,
                ha="center",
                va="bottom",
                color="#333333",
            )
            labelled.append(x)
    if m.crossovers:
        handles.append(
            Line2D(
                [],
                [],
                linestyle="none",
                marker="o",
                markersize=4,
                markerfacecolor="white",
                markeredgecolor="#1a1a1a",
                label="crossover",
            )
        )
    if significant:
        trans = ax.get_xaxis_transform()
        for s in significant:
            ax.fill_between(
                [float(s.lo), float(s.hi)],
                0,
                0.045,
                transform=trans,
                linewidth=0,
                zorder=3,
                **significance_look(s.better, m, styles),
            )
        # one swatch per winner, drawn exactly like its bars
        for winner in winners_of(m):
            handles.append(
                Patch(
                    linewidth=0,
                    label=f"significant: {winner} cheaper",
                    **significance_look(winner, m, styles),
                )
            )
    a_x, a_text = clear_of(m.crossovers, m.a, "\u2193", w)
    b_x, b_text = clear_of(m.crossovers, m.b, "\u2191", w)
    ax.text(
        a_x,
        0.03 if not significant else 0.07,
        a_text,
        transform=ax.transAxes,
        fontsize=SMALL_FONT,
        ha="left",
        va="bottom",
        color=_shade(sa.color, 0.65),
    )
    ax.text(
        b_x,
        0.97,
        b_text,
        transform=ax.transAxes,
        fontsize=SMALL_FONT,
        ha="left",
        va="top",
        color=_shade(sb.color, 0.65),
    )
    ax.set_xlabel(pc_label(w))
    ax.set_ylabel(
        DIFF_LABEL if w > COLUMN_WIDTH + 0.01 else "Difference in normalized\nexpected cost"
    )
    ax.set_xticks(np.linspace(0, 1, 6))
    if title:
        ax.set_title(title)
    return handles


# --- caption, alt text and registration -----------------------------------------------------------


def _crossovers_at(m: ComparisonResult) -> str:
    return "PC(+) = " + ", ".join(f"{x:.3f}" for x in m.crossovers)


def _crossovers_sentence(m: ComparisonResult) -> str:
    return (
        f"Circles mark the crossovers, at {_crossovers_at(m)}."
        if m.crossovers
        else "The curves do not cross."
    )


def _band_sentence(band, method: bool = True) -> str:
    """The caption's sentence on a difference band; ``method`` False: left to each panel's
    caption."""
    said = (
        f"method: {band.method or 'paired resampling'}"
        if method
        else "its method in the panel's caption"
    )
    return (
        f"The grey region is the {level_text(band.level)}pointwise confidence band of the "
        f"difference (each PC(+) on its own, not adjusted for reading the whole curve); {said}."
    )


SIGNIFICANCE_SENTENCE = (
    "Bars along the bottom mark where the difference is significant family-wise over PC(+) "
    "(studentized max-statistic: the chance of any false bar is at most 1 \u2212 confidence), "
    "coloured and hatched like the cheaper classifier's side of zero."
)


def _diff_caption(d: DatasetResult, m: ComparisonResult) -> str:
    parts = [
        f"Difference of the cost curves of {m.a} and {m.b} on {d.name} ({m.a} minus {m.b}): below "
        f"zero {m.a} has the lower normalized expected cost, above zero {m.b} has.",
        _crossovers_sentence(m),
    ]
    band = m.difference_band
    if band is not None:
        parts.append(_band_sentence(band))
    if m.significant is not None and band is not None:
        parts.append(SIGNIFICANCE_SENTENCE)
    return " ".join(parts)


def _diff_panel_caption(d: DatasetResult, m: ComparisonResult) -> str:
    """A panel of report.pdf's grid: the pair, the dataset and where the curves cross."""
    if m.crossovers:
        where = (
            ("crossover" if len(m.crossovers) == 1 else "crossovers") + " at " + _crossovers_at(m)
        )
    else:
        where = "the curves do not cross"
    band = m.difference_band
    own = (
        f" Band: {band.method or 'paired resampling'}."
        if band is not None and len(_difference_band_methods(d)) > 1
        else ""
    )
    return f"{m.a} \u2212 {m.b} on {d.name}: {where}.{own}"


def _difference_band_methods(d: DatasetResult) -> set:
    """The methods of a dataset's difference bands (one, with one resampling per dataset)."""
    return {
        m.difference_band.method for m in d.comparisons.values() if m.difference_band is not None
    }


def _diff_panels_note(d: DatasetResult) -> str:
    """What every panel of a dataset's difference grid shows (the rest of :func:`_diff_caption`)."""
    drawn = list(d.comparisons.values())
    bands = [m.difference_band for m in drawn if m.difference_band is not None]
    tested = [m for m in drawn if m.significant is not None and m.difference_band is not None]
    parts = [
        f"Each panel: the difference of the cost curves of A and B on {d.name}, A \u2212 B as its "
        "caption names them, in normalized expected cost against PC(+): below zero A has the "
        "lower normalized expected cost, above zero B has. Circles mark the crossovers. All "
        "panels share one y scale."
    ]
    if bands:
        parts.append(
            where_drawn(len(bands), len(drawn))
            + _band_sentence(bands[0], method=len(_difference_band_methods(d)) == 1)
        )
    if tested:
        parts.append(where_drawn(len(tested), len(drawn)) + SIGNIFICANCE_SENTENCE)
    return " ".join(parts)


def _diff_alt(m: ComparisonResult) -> str:
    def ivs(xs):
        return ", ".join(f"{lo:.2f}-{hi:.2f}" for lo, hi in xs) or "nowhere"

    pc, v = m.max_difference
    sig = m.significant
    sig_text = ""
    if sig is not None:
        sig_text = (
            " Significant: "
            + (
                ", ".join(f"{s.better} better on {float(s.lo):.2f}-{float(s.hi):.2f}" for s in sig)
                or "nowhere"
            )
            + "."
        )
    return (
        f"Difference {m.a} minus {m.b} in normalized expected cost across PC(+). "
        f"{m.a} cheaper on {ivs(m.a_better)}; {m.b} cheaper on {ivs(m.b_better)}. "
        f"Largest difference {v:+.3f} at PC(+) = {pc:.2f}.{sig_text}"
    )


DIFFERENCE = register(
    FigureSpec(
        kind="diff",
        scope="pair",
        key="{dataset}/diff/{name}",
        stem="{dataset_slug}/diff/{pair_slug}",
        draw=lambda s: difference(
            s.comparison,
            s.styles,
            width=PANEL_WIDTH,
            ylim=difference_ylim(s.dataset.comparisons.values()),
        ),
        caption=lambda s: _diff_caption(s.dataset, s.comparison),
        alt=lambda s: _diff_alt(s.comparison),
        section="differences",
        order=10,
        panel_caption=lambda s: _diff_panel_caption(s.dataset, s.comparison),
        panels_note=lambda s: _diff_panels_note(s.dataset),
    )
)
