"""Figures of a cost-curve report: one function per kind of figure, Results in, Figure out.

What each figure shows follows Drummond & Holte 2006, *Cost curves* (MLJ), sections 3-4:

* :func:`cost_space` - the lower envelope of every classifier (a crisp classifier's single cost line,
  Eq. 2), the trivial classifiers' diagonals in bold (section 4.2, Fig. 8), each classifier's
  operating range (Fig. 9b) in a strip under the plot, y from 0 to 0.5 or "(Rescaled Y)" 0 to 1
  (section 3.2); confidence bands shaded (Fig. 16) and fold averages (section 4.5) when present;
* :func:`roc_space` - ROC points/curves and their convex hulls (Fig. 4a, 13a);
* :func:`difference` - the difference of two cost curves with crossovers (Fig. 11b, 12b) and, when
  present, its confidence band and the regions where it is significant (Fig. 19-20);
* :func:`prior_densities` and :func:`cost_priors` - distributions over PC(+) (section 3.2, after
  Adams & Hand 1999), alone or under the cost plot on the same x-axis;
* :func:`classifier_focus` - one classifier over the others, with its band (Fig. 16 style);
* :func:`small_multiples` - one cost-space panel per dataset with a shared legend.

Every function builds a :class:`matplotlib.figure.Figure` directly (no pyplot state) inside the
package style ``ccreport.mplstyle``; save it inside :func:`style` too (the style carries the
settings that make SVG and PDF files byte-identical). Each classifier keeps one colour, line style
and marker across every figure and dataset: pass the mapping from :func:`classifier_styles`.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from pathlib import Path

import matplotlib.colors
import matplotlib.style as mplstyle
import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .results import ClassifierResult, ComparisonResult, DatasetResult, PriorResult, Results, classifier_names

STYLE_FILE = Path(__file__).with_name("ccreport.mplstyle")

COLUMN_WIDTH = 3.5  # inches: one journal column
FULL_WIDTH = 7.0  # inches: full page width

PC_LABEL = "PC(+)  (probability times cost)"
NEC_LABEL = "Normalized expected cost"
DIFF_LABEL = "Difference in normalized expected cost"

# Okabe & Ito (2008), "Color universal design", without black (black is the trivial classifiers)
# and with yellow last and darkened (pure #F0E442 vanishes on white paper).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#A08F00")
# dash patterns in units of the line width; six patterns, seven colours, seven markers: the first
# 42 classifiers all differ in the triple, and the first 6 in every element of it
LINESTYLES = (
    "solid",
    (0, (5.0, 1.8)),
    (0, (1.3, 1.3)),
    (0, (7.0, 1.6, 1.3, 1.6)),
    (0, (10.0, 2.5)),
    (0, (4.0, 1.4, 1.3, 1.4, 1.3, 1.4)),
)
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
# Paul Tol's "muted" scheme for priors (a different family from the classifiers' colours)
PRIOR_PALETTE = ("#332288", "#117733", "#882255", "#44AA99", "#999933", "#AA4499", "#88CCEE", "#DDCC77")
PRIOR_LINESTYLES = ("solid", (0, (4.0, 1.5)), (0, (1.2, 1.2)), (0, (6.0, 1.5, 1.2, 1.5)))

TRIVIAL_COLOUR = "#1a1a1a"
TRIVIAL_WIDTH = 1.9
DENSE_POINTS = 1000  # artists with more points than this are rasterized in vector output
MAX_MARKERS = 12  # markers drawn along a curve to tell it apart in greyscale


@dataclass(frozen=True)
class Style:
    """How one classifier is drawn, everywhere."""

    color: str
    linestyle: object
    marker: str

    def handle(self, label: str, linewidth: float = 1.4, **kw) -> Line2D:
        """A legend entry showing line, dash pattern and marker together."""
        return Line2D(
            [], [], color=self.color, linestyle=self.linestyle, marker=self.marker, linewidth=linewidth,
            markersize=4, label=label, **kw,
        )


def style_for(index: int) -> Style:
    return Style(PALETTE[index % len(PALETTE)], LINESTYLES[index % len(LINESTYLES)], MARKERS[index % len(MARKERS)])


def classifier_styles(names_or_results) -> dict[str, Style]:
    """One Style per classifier, assigned by order (manifest order when given Results)."""
    names = classifier_names(names_or_results) if isinstance(names_or_results, Results) else list(names_or_results)
    return {name: style_for(i) for i, name in enumerate(names)}


def _styles(styles, names) -> dict[str, Style]:
    if styles is None:
        return classifier_styles(names)
    missing = [n for n in names if n not in styles]
    if missing:  # a name the caller did not know: append, keeping the given ones fixed
        styles = dict(styles)
        for n in missing:
            styles[n] = style_for(len(styles))
    return styles


@contextlib.contextmanager
def style():
    """The package matplotlib style (sizes, fonts, reproducible SVG/PDF settings)."""
    with mplstyle.context(str(STYLE_FILE)):
        yield


def width_inches(width: str | float) -> float:
    if isinstance(width, (int, float)):
        return float(width)
    return {"column": COLUMN_WIDTH, "full": FULL_WIDTH}[width]


def _figure(width, height) -> Figure:
    fig = Figure(figsize=(width_inches(width), height))
    return fig


def _arr(x) -> np.ndarray:
    return np.asarray(x, dtype=float)


def _is_crisp(c: ClassifierResult) -> bool:
    return c.kind == "crisp" and c.cost_line is not None


def _label(c: ClassifierResult) -> str:
    return f"{c.name} (crisp)" if _is_crisp(c) else c.name


def _marker_positions(pc, nec, index: int, count: int, n: int = 5):
    """Positions of a few markers along a curve, staggered between classifiers so they never coincide."""
    offset = 0.06 + 0.16 * (index % max(count, 1)) / max(count, 1)
    x = offset + 0.2 * np.arange(n)
    x = x[x < 0.99]
    return x, np.interp(x, pc, nec)


# --- cost space ---------------------------------------------------------------------------------


def _draw_trivial(ax, label=True):
    kw = dict(color=TRIVIAL_COLOUR, linewidth=TRIVIAL_WIDTH, solid_capstyle="butt", zorder=2)
    ax.plot([0, 1], [0, 1], label="Trivial classifiers" if label else None, **kw)
    ax.plot([0, 1], [1, 0], **kw)


def _draw_band(ax, band, color, alpha, zorder):
    pc, lo, hi = _arr(band.pc), _arr(band.lower), _arr(band.upper)
    ax.fill_between(pc, lo, hi, color=color, alpha=alpha, linewidth=0, zorder=zorder)
    simultaneous = band.simultaneous
    if simultaneous is not None:
        for edge in (simultaneous.lower, simultaneous.upper):
            ax.plot(pc, _arr(edge), color=color, linewidth=0.7, linestyle=(0, (3, 2)), alpha=0.9, zorder=zorder)


def _draw_classifier(ax, c: ClassifierResult, st: Style, index: int, count: int, emphasis: str):
    """emphasis: 'normal', 'dim' (others when one is highlighted) or 'bold' (the highlighted one)."""
    alpha = {"normal": 1.0, "dim": 0.35, "bold": 1.0}[emphasis]
    lw = {"normal": 1.3, "dim": 0.9, "bold": 2.1}[emphasis]
    z = {"normal": 4, "dim": 3, "bold": 6}[emphasis]
    pc, nec = _arr(c.envelope_pc), _arr(c.envelope_nec)
    rast = pc.size > DENSE_POINTS
    if _is_crisp(c):
        fpr, fnr = c.cost_line
        ax.plot(pc, nec, color=st.color, linewidth=0.8, alpha=0.45 * alpha, zorder=z - 1, rasterized=rast)
        line_x, line_y = np.array([0.0, 1.0]), np.array([fpr, fnr])
    else:
        line_x, line_y = pc, nec
    ax.plot(line_x, line_y, color=st.color, linestyle=st.linestyle, linewidth=lw, alpha=alpha, zorder=z, rasterized=rast)
    mx, my = _marker_positions(line_x, line_y, index, count)
    ax.plot(mx, my, linestyle="none", marker=st.marker, color=st.color, markersize=4 if emphasis == "bold" else 3.5,
            markeredgecolor="white", markeredgewidth=0.5, alpha=alpha, zorder=z + 0.5)


def _draw_fold_average(ax, c: ClassifierResult, st: Style, alpha=0.9):
    """The vertical average of the per-fold cost curves (D&H 2006 section 4.5), dotted."""
    fa = c.fold_average
    if fa is None:
        return False
    pc = _arr(fa.pc)
    ax.plot(pc, _arr(fa.nec), color=st.color, linewidth=0.9, linestyle=(0, (0.8, 1.2)), alpha=alpha, zorder=5,
            dash_capstyle="round")
    return True


def _short(name: str, limit: int = 16) -> str:
    """A row label that cannot squeeze the plot (the legend has the full name)."""
    return name if len(name) <= limit else name[: limit - 1] + "\u2026"


def _draw_ranges(ax, classifiers: list[ClassifierResult], styles, highlight):
    """Operating ranges (D&H 2006 section 4.2) as one bracketed bar per classifier."""
    n = len(classifiers)
    for row, c in enumerate(classifiers):
        st = styles[c.name]
        y = n - 1 - row
        dim = highlight is not None and c.name != highlight
        alpha = 0.4 if dim else 1.0
        if c.operating_range is None:
            ax.text(0.5, y, "no operating range", ha="center", va="center", fontsize=6, color=st.color, alpha=alpha)
            continue
        lo, hi = c.operating_range
        ax.plot([lo, hi], [y, y], color=st.color, linestyle=st.linestyle, linewidth=1.6, alpha=alpha, solid_capstyle="butt")
        ax.plot([lo, hi], [y, y], linestyle="none", marker="|", markersize=5, markeredgewidth=1.1, color=st.color, alpha=alpha)
        ax.plot([lo + (hi - lo) * (0.15 + 0.7 * row / max(n - 1, 1))], [y], linestyle="none", marker=st.marker, markersize=3.3, color=st.color,
                markeredgecolor="white", markeredgewidth=0.4, alpha=alpha)
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_yticks(range(n), [_short(c.name) for c in reversed(classifiers)], fontsize=6)
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


def _draw_cost(ax, dataset: DatasetResult, styles, highlight=None, rescaled_y=False, bands=True, folds=True):
    """Draw the cost-space content into ``ax``; returns the legend handles."""
    classifiers = list(dataset.classifiers.values())
    if highlight is not None and highlight not in dataset.classifiers:
        raise ValueError(f"highlight: no classifier {highlight!r} in dataset {dataset.name!r}")
    _cost_axes_setup(ax, rescaled_y)
    _draw_trivial(ax)
    handles = [Line2D([], [], color=TRIVIAL_COLOUR, linewidth=TRIVIAL_WIDTH, label="Trivial classifiers")]
    have_band = have_simultaneous = have_folds = False
    level = None
    for i, c in enumerate(classifiers):
        st = styles[c.name]
        emphasis = "normal" if highlight is None else ("bold" if c.name == highlight else "dim")
        band = c.band
        show = emphasis == "bold" if highlight is not None else False
        if bands is not None:
            show = bool(bands) and emphasis != "dim"
        if show and band:
            _draw_band(ax, band, st.color, 0.28 if highlight else 0.14, zorder=1)
            have_band = True
            have_simultaneous |= band.simultaneous is not None
            level = band.level
        show_folds = (emphasis == "bold") if folds is None else (bool(folds) and emphasis != "dim")
        if show_folds and _draw_fold_average(ax, c, st):
            have_folds = True
        _draw_classifier(ax, c, st, i, len(classifiers), emphasis)
        handles.append(st.handle(_label(c), linewidth=2.0 if emphasis == "bold" else 1.3, alpha=0.45 if emphasis == "dim" else 1.0))
    level_text = f"{level:.0%} " if isinstance(level, (int, float)) else ""
    if have_band:
        band_colour = styles[highlight].color if highlight is not None else "#808080"
        handles.append(Patch(facecolor=band_colour, alpha=0.35, linewidth=0, label=f"{level_text}pointwise band"))
    if have_simultaneous:
        handles.append(Line2D([], [], color="#606060", linewidth=0.7, linestyle=(0, (3, 2)), label=f"{level_text}simultaneous band"))
    if have_folds:
        handles.append(Line2D([], [], color="#606060", linewidth=0.9, linestyle=(0, (0.8, 1.2)), label="fold average"))
    return handles


def _legend_columns(handles, width_in: float) -> int:
    longest = max((len(h.get_label()) for h in handles), default=10)
    per_col = 0.33 + 0.055 * longest  # inches: handle + text at 7 pt
    return max(1, min(len(handles), int(width_in // per_col)))


def _top_legend(fig, handles, width_in):
    fig.legend(handles=handles, loc="outside upper center", ncols=_legend_columns(handles, width_in), frameon=False)


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
) -> Figure:
    """Cost curves of every classifier on one dataset (D&H 2006 Fig. 8, 9b, 13b).

    ``highlight`` draws that classifier bold over the others (which are de-emphasised), with its
    band and fold spread if present. ``rescaled_y`` shows nec from 0 to 1 instead of 0 to 0.5
    (say "(Rescaled Y)" in the caption, as the paper does). ``ranges`` adds the operating-range
    strip under the plot. ``bands``/``folds``: draw confidence bands / fold averages (when the
    results carry them) for every classifier (True), none (False), or, by default (None), only for
    the highlighted one - bands of six classifiers on one plot hide each other.
    """
    styles = _styles(styles, dataset.classifiers)
    with style():
        w = width_inches(width)
        n = len(dataset.classifiers)
        main_h = 2.35 if w <= COLUMN_WIDTH + 0.01 else 2.9
        strip_h = 0.16 + 0.12 * n if ranges else 0
        legend_h = 0.17 * math.ceil((n + 2) / _legend_columns([Line2D([], [], label=c) for c in dataset.classifiers], w)) + 0.1
        fig = _figure(w, main_h + strip_h + legend_h + 0.45)
        if ranges:
            ax, strip = fig.subplots(2, 1, sharex=True, height_ratios=[main_h, strip_h])
        else:
            ax, strip = fig.subplots(), None
        handles = _draw_cost(ax, dataset, styles, highlight, rescaled_y, bands, folds)
        if strip is not None:
            _draw_ranges(strip, list(dataset.classifiers.values()), styles, highlight)
            ax.tick_params(labelbottom=False)
            strip.set_xlabel(PC_LABEL)
            strip.set_title("Operating range", fontsize=6.5, loc="left", pad=2, color="#333333")
        else:
            ax.set_xlabel(PC_LABEL)
        if title:
            ax.set_title(title)
        _top_legend(fig, handles, w)
        fig.align_ylabels()
    return fig


# --- priors ---------------------------------------------------------------------------------------


def _prior_look(index: int):
    return PRIOR_PALETTE[index % len(PRIOR_PALETTE)], PRIOR_LINESTYLES[index % len(PRIOR_LINESTYLES)]


def _draw_priors(ax, priors: list[PriorResult], order: list[str] | None = None):
    """Densities; ``order`` (every prior name of the report) fixes each prior's colour and dash."""
    order = list(order) if order else [p.name for p in priors]
    tops = []
    for p in priors:
        if p.density is not None:
            d = _arr(p.density)
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
            ax.annotate("", xy=(p.point, top * 0.93), xytext=(p.point, 0), annotation_clip=False,
                        arrowprops=dict(arrowstyle="-|>", color=color, linewidth=1.3, mutation_scale=7, shrinkA=0, shrinkB=0))
            ax.text(p.point + 0.015, top * 0.86, f"{p.point:.3g}", color=color, fontsize=6.5, ha="left", va="center",
                    bbox=dict(boxstyle="square,pad=0.1", facecolor="white", edgecolor="none", alpha=0.85), zorder=6)
            handles.append(Line2D([], [], color=color, linewidth=1.3, marker="^", markersize=3.5, label=f"{p.name} (point mass)"))
        else:
            grid, d = _arr(p.grid), np.clip(np.nan_to_num(_arr(p.density), nan=0.0, posinf=top * 2), 0, top * 2)
            ax.fill_between(grid, 0, d, color=color, alpha=0.05, linewidth=0)
            ax.plot(grid, d, color=color, linestyle=ls, linewidth=1.2)
            handles.append(Line2D([], [], color=color, linestyle=ls, linewidth=1.2, label=p.name))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, top)
    ax.set_ylabel("Density")
    return handles


def prior_densities(priors: dict[str, PriorResult] | list[PriorResult], *, width: str | float = "column") -> Figure:
    """Each prior as a density over PC(+); a point prior as an arrow at its value."""
    priors = list(priors.values()) if isinstance(priors, dict) else list(priors)
    with style():
        w = width_inches(width)
        fig = _figure(w, 1.9 + 0.17 * math.ceil(len(priors) / 2))
        ax = fig.subplots()
        handles = _draw_priors(ax, priors)
        ax.set_xlabel(PC_LABEL)
        ax.set_xticks(np.linspace(0, 1, 6))
        fig.legend(handles=handles, loc="outside lower center", ncols=_legend_columns(handles, w))
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
    styles = _styles(styles, dataset.classifiers)
    priors = list(priors.values()) if isinstance(priors, dict) else list(priors)
    with style():
        w = width_inches(width)
        n = len(dataset.classifiers)
        main_h = 2.35 if w <= COLUMN_WIDTH + 0.01 else 2.9
        prior_h = 0.95
        cols = _legend_columns([Line2D([], [], label=c) for c in dataset.classifiers], w)
        fig = _figure(w, main_h + prior_h + 0.17 * math.ceil((n + 2) / cols) + 0.17 * math.ceil(len(priors) / 2) + 0.7)
        ax, pax = fig.subplots(2, 1, sharex=True, height_ratios=[main_h, prior_h])
        handles = _draw_cost(ax, dataset, styles, highlight, rescaled_y, bands, folds)
        ax.tick_params(labelbottom=False)
        prior_handles = _draw_priors(pax, priors, prior_order)
        pax.set_xlabel(PC_LABEL)
        pax.set_title("Priors over PC(+)", fontsize=6.5, loc="left", pad=2, color="#333333")
        _top_legend(fig, handles, w)
        fig.legend(handles=prior_handles, loc="outside lower center", ncols=_legend_columns(prior_handles, w))
        fig.align_ylabels()
    return fig


# --- ROC space ------------------------------------------------------------------------------------


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
    styles = _styles(styles, dataset.classifiers)
    classifiers = list(dataset.classifiers.values())
    with style():
        w = width_inches(width)
        side = min(w - 0.55, 3.0)
        cols = _legend_columns([Line2D([], [], label=_label(c) + "   ") for c in classifiers], w)
        fig = _figure(w, side + 0.17 * math.ceil((len(classifiers) + 1) / cols) + 0.5)
        ax = fig.subplots()
        ax.plot([0, 1], [0, 1], color="#8c8c8c", linewidth=0.8, linestyle=(0, (4, 2)), zorder=1)
        handles = [Line2D([], [], color="#8c8c8c", linewidth=0.8, linestyle=(0, (4, 2)), label="Chance (trivial)")]
        for i, c in enumerate(classifiers):
            st = styles[c.name]
            dim = highlight is not None and c.name != highlight
            alpha = 0.35 if dim else 1.0
            lw = 2.0 if (highlight == c.name) else (0.9 if dim else 1.3)
            z = 6 if highlight == c.name else (3 if dim else 4)
            fpr, tpr = _arr(c.roc_fpr), _arr(c.roc_tpr)
            hf, ht = _arr(c.hull_fpr), _arr(c.hull_tpr)
            if _is_crisp(c):
                ax.plot(hf, ht, color=st.color, linestyle=st.linestyle, linewidth=lw * 0.8, alpha=alpha, zorder=z)
                x, y = c.cost_line[0], 1.0 - c.cost_line[1]
                ax.plot([x], [y], linestyle="none", marker=st.marker, markersize=6, color=st.color,
                        markeredgecolor="white", markeredgewidth=0.6, alpha=alpha, zorder=z + 1)
            else:
                ax.plot(fpr, tpr, color=st.color, linewidth=0.6, alpha=0.55 * alpha, zorder=z - 1,
                        rasterized=fpr.size > DENSE_POINTS)
                ax.plot(hf, ht, color=st.color, linestyle=st.linestyle, linewidth=lw, alpha=alpha, zorder=z)
                inner = np.arange(1, hf.size - 1)
                pick = inner[_subsample(inner.size, MAX_MARKERS)] if inner.size else inner
                ax.plot(hf[pick], ht[pick], linestyle="none", marker=st.marker, markersize=3.5, color=st.color,
                        markeredgecolor="white", markeredgewidth=0.5, alpha=alpha, zorder=z + 0.5)
            handles.append(st.handle(f"{_label(c)}  AUC {c.auc:.3f}", alpha=alpha))
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_aspect("equal")
        ax.set_xticks(np.linspace(0, 1, 6))
        ax.set_yticks(np.linspace(0, 1, 6))
        ax.set_xlabel("False positive rate")
        ax.set_ylabel("True positive rate")
        if title:
            ax.set_title(title)
        fig.legend(handles=handles, loc="outside lower center", ncols=_legend_columns(handles, w))
    return fig


# --- differences ----------------------------------------------------------------------------------


def _tint(color: str, amount: float):
    """``color`` mixed with white (amount 0: unchanged, 1: white)."""
    rgb = np.array(matplotlib.colors.to_rgb(color))
    return tuple(rgb + (1 - rgb) * amount)


def _shade(color: str, factor: float):
    """``color`` darkened (factor 1: unchanged, 0: black), for text on white."""
    return tuple(np.array(matplotlib.colors.to_rgb(color)) * factor)


def _sig_color(better, m: ComparisonResult, styles):
    return styles[better].color if better in (m.a, m.b) else "#555555"


def difference(
    comparison: ComparisonResult,
    styles: dict[str, Style] | None = None,
    *,
    width: str | float = "column",
    title: str | None = None,
) -> Figure:
    """The difference a - b of two cost curves (D&H 2006 sections 4.3-4.4, Fig. 19-20).

    Below zero ``a`` is cheaper (shaded in a's colour), above zero ``b`` is (b's colour).
    Crossovers are marked on the zero line with their PC(+); a confidence band and the regions where
    the difference is significant (bars along the bottom) are drawn when the results carry them.
    """
    m = comparison
    styles = _styles(styles, [m.a, m.b])
    sa, sb = styles[m.a], styles[m.b]
    pc, diff = _arr(m.difference_pc), _arr(m.difference)
    band = m.difference_band
    significant = m.significant or ()
    with style():
        w = width_inches(width)
        # the shaded sides are labelled in the plot ("x cheaper"); the legend has the rest
        n_handles = 1 + bool(band) + bool(m.crossovers) + bool(significant)
        cols = 2 if w <= COLUMN_WIDTH + 0.01 else 4
        fig = _figure(w, 2.05 + 0.17 * math.ceil(n_handles / cols) + 0.45)
        ax = fig.subplots()
        lo = min(0.0, float(np.min(diff))) if diff.size else 0.0
        hi = max(0.0, float(np.max(diff))) if diff.size else 0.0
        if band:
            lo = min(lo, float(np.nanmin(_arr(band.lower))))
            hi = max(hi, float(np.nanmax(_arr(band.upper))))
        span = max(hi - lo, 0.04)
        # room on both sides of zero (at least a quarter of the span) for the "cheaper" labels
        lo, hi = min(lo - 0.1 * span, -0.25 * span), max(hi + 0.1 * span, 0.25 * span)
        ax.set_xlim(0, 1)
        ax.set_ylim(lo, hi)
        ax.axhline(0, color="#1a1a1a", linewidth=0.8, zorder=2)
        # the two sides are hatched in opposite directions, so they stay apart in greyscale print
        ax.fill_between(pc, diff, 0, where=diff <= 0, interpolate=True, facecolor=_tint(sa.color, 0.78), edgecolor=sa.color,
                        hatch="\\\\\\", linewidth=0, zorder=1)
        ax.fill_between(pc, diff, 0, where=diff >= 0, interpolate=True, facecolor=_tint(sb.color, 0.78), edgecolor=sb.color,
                        hatch="////", linewidth=0, zorder=1)
        handles = []
        if band:
            ax.fill_between(_arr(band.pc), _arr(band.lower), _arr(band.upper), color="#7f7f7f", alpha=0.3,
                            linewidth=0, zorder=1.5)
            level = band.level
            lt = f"{level:.0%} " if isinstance(level, (int, float)) else ""
            handles.append(Patch(facecolor="#7f7f7f", alpha=0.45, linewidth=0, label=f"{lt}band of the difference"))
        ax.plot(pc, diff, color="#1a1a1a", linewidth=1.5, zorder=4, rasterized=pc.size > DENSE_POINTS)
        handles.insert(0, Line2D([], [], color="#1a1a1a", linewidth=1.5, label=f"{m.a} \u2212 {m.b}"))
        labelled = []
        for x in m.crossovers:
            ax.axvline(x, color="#4d4d4d", linewidth=0.6, linestyle=(0, (1.5, 1.5)), zorder=2)
            ax.plot([x], [0], marker="o", markersize=4, markerfacecolor="white", markeredgecolor="#1a1a1a",
                    markeredgewidth=1.0, zorder=5)
            # the value just above the frame, like a tick label, skipping any that would collide
            if len(m.crossovers) <= 6 and all(abs(x - y) > 0.09 for y in labelled):
                ax.text(x, 1.015, f"{x:.2f}", transform=ax.get_xaxis_transform(), fontsize=6.5, ha="center",
                        va="bottom", color="#333333")
                labelled.append(x)
        if m.crossovers:
            handles.append(Line2D([], [], linestyle="none", marker="o", markersize=4, markerfacecolor="white",
                                  markeredgecolor="#1a1a1a", label="crossover"))
        if significant:
            trans = ax.get_xaxis_transform()
            for s in significant:
                ax.fill_between([float(s.lo), float(s.hi)], 0, 0.045, transform=trans,
                                color=_sig_color(s.better, m, styles), linewidth=0, zorder=3)
            handles.append(Patch(facecolor="#333333", linewidth=0, label="significant (coloured bar)"))
        ax.text(0.012, 0.03 if not significant else 0.07, f"{m.a} cheaper \u2193", transform=ax.transAxes, fontsize=6.5,
                ha="left", va="bottom", color=_shade(sa.color, 0.65))
        ax.text(0.012, 0.97, f"{m.b} cheaper \u2191", transform=ax.transAxes, fontsize=6.5, ha="left", va="top",
                color=_shade(sb.color, 0.65))
        ax.set_xlabel(PC_LABEL)
        ax.set_ylabel(DIFF_LABEL if w > COLUMN_WIDTH + 0.01 else "Difference in normalized\nexpected cost")
        ax.set_xticks(np.linspace(0, 1, 6))
        if title:
            ax.set_title(title)
        fig.legend(handles=handles, loc="outside lower center", ncols=cols)
    return fig


# --- one classifier in focus ----------------------------------------------------------------------


def classifier_focus(
    dataset: DatasetResult, name: str, styles: dict[str, Style] | None = None, *, rescaled_y: bool = False,
    width: str | float = "column",
) -> Figure:
    """One classifier highlighted over the others with its band and fold average (Fig. 16 style).

    No operating-range strip: the dataset's cost figure has it, and the band needs the room.
    """
    return cost_space(dataset, styles, highlight=name, rescaled_y=rescaled_y, width=width, ranges=False)


# --- small multiples ------------------------------------------------------------------------------


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
    styles = _styles(styles, names)
    datasets = list(results.datasets.values())
    with style():
        w = width_inches(width)
        ncols = ncols or (1 if len(datasets) == 1 else 2 if w <= FULL_WIDTH + 0.01 else 3)
        nrows = max(1, math.ceil(len(datasets) / ncols))
        panel_h = (w / ncols) * 0.68
        handles_all = [Line2D([], [], color=TRIVIAL_COLOUR, linewidth=TRIVIAL_WIDTH, label="Trivial classifiers")]
        kinds = {}
        for d in datasets:
            for c in d.classifiers.values():
                kinds.setdefault(c.name, c)
        handles_all += [styles[n].handle(_label(kinds[n])) for n in names]
        cols = _legend_columns(handles_all, w)
        fig = _figure(w, nrows * panel_h + 0.17 * math.ceil(len(handles_all) / cols) + 0.35)
        axes = np.atleast_1d(fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False)).ravel()
        for ax, d in zip(axes, datasets):
            _draw_cost(ax, d, styles, None, rescaled_y, bands, False)
            ax.set_title(d.name)
        for ax in axes[len(datasets):]:
            ax.set_visible(False)
        for k, ax in enumerate(axes[: len(datasets)]):
            if k % ncols:
                ax.set_ylabel("")
            bottom = k + ncols >= len(datasets)  # nothing drawn below this panel
            ax.tick_params(labelbottom=bottom)
            ax.set_xlabel(PC_LABEL if bottom else "")
        fig.legend(handles=handles_all, loc="outside lower center", ncols=cols)
    return fig
