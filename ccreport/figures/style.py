"""How every figure looks: the package matplotlib style, sizes, and each classifier's colour, dash
and marker.

Every figure function builds a :class:`matplotlib.figure.Figure` directly (no pyplot state) inside
the package style ``ccreport.mplstyle``; save it inside :func:`style` too (the style carries the
settings that make SVG and PDF files byte-identical). Each classifier keeps one colour, line style
and marker across every figure and dataset: pass the mapping from :func:`classifier_styles`.
"""

from __future__ import annotations

import contextlib
import math
import weakref
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import matplotlib.colors
import matplotlib.style as mplstyle
import numpy as np
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.lines import Line2D
from matplotlib.transforms import Bbox

from ..results import ClassifierResult, Results, classifier_names

STYLE_FILE = Path(__file__).resolve().parent.parent / "ccreport.mplstyle"

COLUMN_WIDTH = 3.5  # inches: one journal column
FULL_WIDTH = 7.0  # inches: full page width
# report.pdf places figures by themes/default/report.css: A4 (210 mm) less two 18 mm margins is
# the text width; a grid of panels (one per classifier or pair) puts three in a row, each 31.5 %
# of it. Panels are drawn at that width, so their text prints at the size it is set in.
TEXT_WIDTH = (210 - 2 * 18) / 25.4  # inches: report.pdf's text width
# inches: one panel of a three-to-a-row grid, in whole points (155 pt, 2.15 in) like every size a
# figure gets from its contents, so its PDF's MediaBox is what report.pdf writes as its BBox
PANEL_WIDTH = math.floor(0.315 * TEXT_WIDTH * 72) / 72
# inches: one panel of a four-to-a-row grid (`.figure-grid.pairs.quad`, 23.5 % of the text width:
# 115 pt, 1.6 in), for panels that hold little text (the differences of a dataset's pairs)
QUAD_PANEL_WIDTH = math.floor(0.235 * TEXT_WIDTH * 72) / 72
# the smallest text a figure sets: a column figure two to a row is placed at 48.5 % of the text
# width (0.95 of its 3.5 in) and a full-width one at 0.98, so 6.5 pt prints at 6.2 pt or more
SMALL_FONT = 6.5

PC_LABEL = "PC(+)  (probability times cost)"
NEC_LABEL = "Normalized expected cost"
DIFF_LABEL = "Difference in normalized expected cost"

# Okabe & Ito (2008), "Color universal design", without black (black is the trivial classifiers)
# and with yellow last and darkened (pure #F0E442 vanishes on white paper).
# An eighth colour from Paul Tol's scheme (wine), dark where the yellow is light.
PALETTE = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#A08F00",
    "#882255",
)
# dash patterns in units of the line width: eight patterns, eight colours and nine markers, so
# the first 8 classifiers differ in every element of (colour, dash, marker) and the first 72 in
# the pair (dash, marker) (8 and 9 are coprime); in greyscale, dash and marker tell them apart
LINESTYLES = (
    "solid",
    (0, (5.0, 1.8)),
    (0, (1.3, 1.3)),
    (0, (7.0, 1.6, 1.3, 1.6)),
    (0, (10.0, 2.5)),
    (0, (4.0, 1.4, 1.3, 1.4, 1.3, 1.4)),
    (0, (2.6, 1.2, 2.6, 4.0)),
    (0, (1.2, 3.2)),
)
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h")
# Paul Tol's "muted" scheme for priors (a different family from the classifiers' colours)
PRIOR_PALETTE = (
    "#332288",
    "#117733",
    "#882255",
    "#44AA99",
    "#999933",
    "#AA4499",
    "#88CCEE",
    "#DDCC77",
)
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
            [],
            [],
            color=self.color,
            linestyle=self.linestyle,
            marker=self.marker,
            linewidth=linewidth,
            markersize=4,
            label=label,
            **kw,
        )

    def markers(self, ax, x, y, size: float = 3.5, edge: float = 0.5, **kw) -> Line2D:
        """Marks alone at (x, y) in this style's marker and colour, edged in white so that they
        stand out of the lines under them (greyscale: the marker tells the classifier)."""
        (line,) = ax.plot(
            x,
            y,
            linestyle="none",
            marker=self.marker,
            markersize=size,
            color=self.color,
            markeredgecolor="white",
            markeredgewidth=edge,
            **kw,
        )
        return line


_theme_override: Path | None = None  # set by theme_style(): the active theme's figures.mplstyle


@contextlib.contextmanager
def theme_style(path: Path | None):
    """Figures drawn (and saved) inside use the theme's matplotlib style ``path`` too.

    A theme folder may hold ``figures.mplstyle`` (:data:`ccreport.paths.THEME_STYLE_NAME`):
    matplotlib settings applied after ``ccreport.mplstyle`` by every :func:`style` block, so every
    figure function draws the theme's way with no second plotting path. If it sets
    ``axes.prop_cycle``, its colours replace :data:`PALETTE` for the classifiers and
    :data:`PRIOR_PALETTE` for the priors (the ``journal`` theme: black and greys, the classifiers
    told apart by dash pattern and marker). ``None``: the package style only.
    """
    global _theme_override
    previous, _theme_override = _theme_override, None if path is None else Path(path)
    try:
        yield
    finally:
        _theme_override = previous


def theme_colours() -> tuple[str, ...] | None:
    """The active theme style's ``axes.prop_cycle`` colours, or None when it sets none."""
    if _theme_override is None:
        return None
    params = matplotlib.rc_params_from_file(str(_theme_override), use_default_template=False)
    if "axes.prop_cycle" not in params:
        return None
    colours = params["axes.prop_cycle"].by_key().get("color") or []
    return tuple(matplotlib.colors.to_hex(c) for c in colours) or None


def palette() -> tuple[str, ...]:
    """The classifiers' colours: the theme's, else :data:`PALETTE`."""
    return theme_colours() or PALETTE


def prior_palette() -> tuple[str, ...]:
    """The priors' colours: the theme's, else :data:`PRIOR_PALETTE`."""
    return theme_colours() or PRIOR_PALETTE


def style_for(index: int) -> Style:
    colours = palette()
    return Style(
        colours[index % len(colours)],
        LINESTYLES[index % len(LINESTYLES)],
        MARKERS[index % len(MARKERS)],
    )


def classifier_styles(names_or_results) -> dict[str, Style]:
    """One Style per classifier, assigned by order (manifest order when given Results)."""
    names = (
        classifier_names(names_or_results)
        if isinstance(names_or_results, Results)
        else list(names_or_results)
    )
    return {name: style_for(i) for i, name in enumerate(names)}


def styles_for(styles, names) -> dict[str, Style]:
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
    """The package matplotlib style (sizes, fonts, reproducible SVG/PDF settings), then the
    active theme's (:func:`theme_style`)."""
    files = [str(STYLE_FILE)] + ([str(_theme_override)] if _theme_override is not None else [])
    with mplstyle.context(files):
        yield


def width_inches(width: str | float) -> float:
    if isinstance(width, (int, float)):
        return float(width)
    return {"column": COLUMN_WIDTH, "full": FULL_WIDTH}[width]


LAYOUT_GRID = 2.0**-20  # figure fraction: 5e-4 pt on a 7 in figure; a power of two, so exact


def snap_positions(fig) -> None:
    """Round every edge of every axes' position (as a layout engine left it, in figure fraction)
    to the nearest multiple of :data:`LAYOUT_GRID`, original and active position alike.

    The constrained layout engine solves its constraints with kiwisolver, whose ``Constraint``
    orders an expression's terms by the heap address of each variable (a ``std::map`` keyed by
    pointer): the solver's symbols, pivots and so the order of its floating-point sums follow
    where the interpreter happened to allocate them. Two processes (or two draws in one) can give
    an edge that differs in its last bit, and an SVG's clip-path ids (hashes of the clip boxes)
    differ with it. Rounding removes that noise unless an edge lies within it of a half-grid
    point: about 1e-16 / 2**-20, one edge in 10**10. Axes only: a subfigure's box has no public
    setter, so figures use one grid of axes instead. The axes' aspect (``apply_aspect`` at draw)
    is computed from the rounded position."""
    for ax in fig.get_axes():
        extents = np.round(np.asarray(ax.get_position(original=True).extents) / LAYOUT_GRID)
        in_layout = ax.get_in_layout()
        ax.set_position(Bbox.from_extents(*(extents * LAYOUT_GRID)), which="both")
        ax.set_in_layout(in_layout)  # set_position takes an axes out of layout; keep it as it was


class ReproducibleLayout(ConstrainedLayoutEngine):
    """Matplotlib's constrained layout (same parameters), then :func:`snap_positions`: the same
    positions, to 2**-20 of the figure, in every process, whether the figure is laid out by
    ``savefig``, a notebook's display or the build (``lay_out_once``)."""

    def execute(self, fig):
        info = super().execute(fig)
        snap_positions(fig)
        return info


def new_figure(width, height, **layout) -> Figure:
    """A figure of ``width`` (inches, or "column"/"full") by ``height`` inches. Under a style that
    asks for constrained layout (the package's), its engine is :class:`ReproducibleLayout` with the
    style's parameters, ``layout`` (``h_pad``, ``w_pad``, ``hspace``, ``wspace``, ``rect``)
    replacing some of them; under a style with another engine or none (a theme's), the style's
    engine is kept and ``layout``, which only constrained layout reads, is not used."""
    fig = Figure(figsize=(width_inches(width), height))
    engine = fig.get_layout_engine()
    if isinstance(engine, ConstrainedLayoutEngine):
        fig.set_layout_engine(ReproducibleLayout(**{**engine.get(), **layout}))
    return fig


def as_array(x) -> np.ndarray:
    return np.asarray(x, dtype=float)


def level_text(level) -> str:
    """A band's confidence level as legends and captions print it ("90% "); nothing when it has
    none."""
    return f"{level:.0%} " if isinstance(level, (int, float)) else ""


def where_drawn(drawn: int, panels: int) -> str:
    """A grid note's opening for something only some of its panels draw."""
    return "" if drawn == panels else "Where drawn: "


def segments(ax, x0, y0, x1, y1, **kw):
    """Straight segments (x0, y0)-(x1, y1), arrays of one length, as one LineCollection: one
    artist and one path to draw and write instead of a Line2D each (a cost line per threshold,
    a hybrid's pieces). ``kw``: LineCollection properties (color, linewidth, zorder, capstyle).
    The axes' limits are the caller's to set (the collection updates the data limits only)."""
    from matplotlib.collections import LineCollection

    ends = np.stack(
        [
            np.column_stack([as_array(x0), as_array(y0)]),
            np.column_stack([as_array(x1), as_array(y1)]),
        ],
        axis=1,
    )
    return ax.add_collection(LineCollection(ends, **kw))


def hybrid_pieces(ax, curve, *, color, linewidth: float) -> None:
    """A threshold-choice hybrid's pieces in bold (D&H 2006 Figs. 22-24): on each interval
    [low, high] of PC(+) where it uses one cost line (start at PC(+) = 0, end at 1), that line's
    stretch, as one :func:`segments` collection; intervals of zero width are left out."""
    lo, hi, a, b = (as_array(v) for v in (curve.low, curve.high, curve.start, curve.end))
    wide = hi > lo
    lo, hi, a, b = lo[wide], hi[wide], a[wide], b[wide]
    segments(
        ax,
        lo,
        a + (b - a) * lo,
        hi,
        a + (b - a) * hi,
        color=color,
        linewidth=linewidth,
        zorder=3,
        capstyle="butt",
    )


def is_crisp(c: ClassifierResult) -> bool:
    return c.kind == "crisp" and c.cost_line is not None


def label_of(c: ClassifierResult) -> str:
    return f"{c.name} (crisp)" if is_crisp(c) else c.name


def legend_columns(handles, width_in: float) -> int:
    longest = max((len(h.get_label()) for h in handles), default=10)
    per_col = 0.33 + 0.055 * longest  # inches: handle + text at 7 pt
    return max(1, min(len(handles), int(width_in // per_col)))


def is_panel(width_in: float) -> bool:
    """Whether a figure this wide is a panel narrower than a journal column (a grid's panel,
    :data:`PANEL_WIDTH`): its legend is set compactly (:func:`fit_legend`)."""
    return width_in < COLUMN_WIDTH - 0.01


def pc_label(width_in: float) -> str:
    """The PC(+) axis label: :data:`PC_LABEL`, or just "PC(+)" on a panel, whose grid's note and
    captions say what PC(+) is."""
    return "PC(+)" if is_panel(width_in) else PC_LABEL


PANEL_PLOT_HEIGHT = 1.55  # inches: a panel's axes with their tick labels and x label
QUAD_PLOT_HEIGHT = 1.3  # the same for a four-to-a-row panel


_MEASURING: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # figure -> (dpi, renderer)


def renderer_for(fig):
    """An Agg renderer at ``fig``'s dpi, to measure text and legends before saving: one per
    figure and dpi, so a legend measured again (another column count, then its height) finds its
    texts' metrics in matplotlib's per-renderer cache. Its canvas has the figure's size when first
    asked for; sizes measured with it (text, a legend's width and height) depend on the dpi
    alone."""
    from matplotlib.backends.backend_agg import RendererAgg

    known = _MEASURING.get(fig)
    if known is not None and known[0] == fig.dpi:
        return known[1]
    w, h = fig.get_size_inches()
    renderer = RendererAgg(w * fig.dpi, h * fig.dpi, fig.dpi)
    _MEASURING[fig] = (fig.dpi, renderer)
    return renderer


def fit_legend(fig, handles, loc: str, width_in: float):
    """A figure legend at ``loc`` with as many columns as fit ``width_in`` (measured, not
    estimated), never wider than the figure unless one column is. A panel's legend
    (:func:`is_panel`) is set compactly: :data:`SMALL_FONT`, shorter handles, tighter rows."""
    opts = {"frameon": False}
    if is_panel(width_in):
        opts.update(
            fontsize=SMALL_FONT,
            handlelength=2.0,
            handletextpad=0.4,
            labelspacing=0.2,
            columnspacing=0.9,
        )
    renderer = renderer_for(fig)
    room = (width_in - 0.04) * fig.dpi
    for ncols in range(min(len(handles), legend_columns(handles, width_in) + 2), 0, -1):
        legend = fig.legend(handles=handles, loc=loc, ncols=ncols, **opts)
        if ncols == 1 or legend.get_window_extent(renderer).width <= room:
            return legend
        legend.remove()
    return fig.legend(handles=handles, loc=loc, ncols=1, **opts)


def fit_height(fig, legend, body_in: float) -> None:
    """Set ``fig``'s height to ``body_in`` inches for its axes plus its legend's measured height
    (none when ``legend`` is None) and a little room, rounded up to a whole point: a panel's
    height follows from what it holds."""
    key = 0.0 if legend is None else legend.get_window_extent(renderer_for(fig)).height / fig.dpi
    height = body_in + key + 0.08
    fig.set_figheight(math.ceil(height * 72 - 1e-6) / 72)


def top_legend(fig, handles, width_in):
    """The legend above the axes: measured columns for a panel (:func:`fit_legend`), else as many
    columns as :func:`legend_columns` estimates."""
    if is_panel(width_in):
        return fit_legend(fig, handles, "outside upper center", width_in)
    return fig.legend(
        handles=handles,
        loc="outside upper center",
        ncols=legend_columns(handles, width_in),
        frameon=False,
    )


def frame_small_roc_panel(ax) -> None:
    """The ROC-space panel beside a selection figure's cost panel (D&H 2006 Figs. 21-24): unit
    square, equal aspect, axis labels, a small title and the legend in the lower right."""
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("False positive rate")
    ax.set_ylabel("True positive rate")
    ax.set_title("ROC space", fontsize=7)
    ax.legend(loc="lower right", frameon=False, fontsize=SMALL_FONT)
