"""Displays of the threshold choice curves (Hernández-Orallo, Flach & Ferri 2013), in scikit-learn's
manner: ``from_predictions``, ``from_estimator``, ``from_results`` and ``plot``.

* :class:`KendallCurveDisplay` - Kendall curves (HFF Def. 3: the rate-driven method's cost above a
  perfect ranker's), one per scoring classifier, the report's ``kendall`` figure;
* :class:`ThresholdChoiceDisplay` - one classifier's threshold choice methods together (optimal,
  score-driven, rate-driven, perfect ranker, Kendall, convex skull), the report's
  ``threshold-methods`` figure.

Both draw with :mod:`ccreport.figures.threshold_choice`, the report's functions and style file:

* on a new figure (``ax=None``), :func:`~ccreport.figures.threshold_choice.kendall_curves` /
  :func:`~ccreport.figures.threshold_choice.threshold_methods` themselves, on the axis of the
  results' ``threshold_axis`` (``"pc"``, ``"cost_proportion"`` or ``"both"``, two panels): the
  figure ``ccreport build`` writes for the same data, the same bytes when saved with its settings;
* into a given ``ax``, :func:`~ccreport.figures.threshold_choice.draw_kendall` /
  :func:`~ccreport.figures.threshold_choice.draw_methods` (the functions those figures draw with) on
  one axis (``"pc"`` unless the results' setting names the other one).

Calling again with the same ``ax`` adds a classifier: a Kendall curve in the next colour, dash and
marker, or another classifier's method curves in the methods' colours and dashes with the
classifier's own marker (:data:`EXTRA_MARKERS`, none of the methods' markers). On a display's own
figure the new classifier goes into every panel and the figure's legend is redrawn.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field, replace

from matplotlib.lines import Line2D

from ..figures.style import PANEL_WIDTH, classifier_styles, legend_columns, style, style_for
from ..figures.threshold_choice import (
    AXIS_NAMES,
    KENDALL_LABELS,
    METHOD_STYLES,
    draw_kendall,
    draw_methods,
    drawn_axes,
    frame_axes,
    is_scoring,
    kendall_curves,
    kendall_handle,
    method_handles,
    methods_key_panel,
    ranges_of,
    shade_ranges,
    shading_legend,
    threshold_methods,
    y_top,
)
from ..results import Results
from .displays import response_values
from .evaluate import evaluate

EXTRA_MARKERS = (
    "D",
    "v",
    "P",
    "X",
    "*",
    "h",
)  # markers of the 2nd, 3rd, ... classifier's method curves


@dataclass(eq=False)
class Drawn:
    """What a display drew into one figure's panels: classifiers in order with their style, each
    panel's axis (threshold displays; instance-cost displays: whether it is weighted) and highest
    point, and whether the figure is a display's own."""

    panels: dict  # Axes -> axis name ("pc" / "cost_proportion")
    classifiers: list = field(default_factory=list)  # (ClassifierResult, Style or marker)
    tops: dict = field(default_factory=dict)  # Axes -> highest y drawn
    own: bool = False  # a display's own figure: its legend is the figure's
    shading: list = field(default_factory=list)  # legend entries of the shaded partial areas
    marks: dict = field(
        default_factory=dict
    )  # Axes -> the own_pc marked there (instance-cost panels)


DRAWN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # Axes -> Drawn


def dataset_of(results: Results, dataset: str | None):
    """One dataset of ``results``: the named one, else the first."""
    return (
        results.datasets[dataset] if dataset is not None else next(iter(results.datasets.values()))
    )


def one_axis(results: Results, axis: str | None) -> str:
    """The axis to draw into a given axes: ``axis``, else the results' setting unless that is "both"
    ("pc")."""
    setting = results.settings.threshold_axis
    axis = axis or (setting if setting != "both" else "pc")
    if axis not in AXIS_NAMES:
        raise ValueError(
            f"axis={axis!r}: expected one of "
            f"{', '.join(map(repr, AXIS_NAMES))} when drawing into an axes"
        )
    return axis


def scores_kwargs(y_score, name: str, crisp: bool) -> dict:
    return {"predictions": {name: y_score}} if crisp else {"scores": {name: y_score}}


def next_style(drawn: Drawn):
    """The first classifier style (colour, dash, marker) not yet on these axes."""
    used = {st.color for _, st in drawn.classifiers}
    k = len(drawn.classifiers)
    while style_for(k).color in used and k < len(drawn.classifiers) + 64:
        k += 1
    return style_for(k)


def own_figure_state(fig, axes: list[str], own: bool = True) -> Drawn:
    """Register a figure drawn by a report function: each panel maps to one shared
    :class:`Drawn`."""
    drawn = Drawn(dict(zip(fig.axes, axes, strict=True)), own=own)
    for ax in fig.axes:
        DRAWN[ax] = drawn
    return drawn


class ThresholdDisplayFromArrays:
    """``from_predictions`` and ``from_estimator`` of the threshold-choice displays: evaluate one
    scoring classifier (``ccreport.evaluate``) and draw it with the display's own ``plot``."""

    @classmethod
    def from_predictions(
        cls,
        y_true,
        y_score,
        *,
        pos_label=None,
        name=None,
        ax=None,
        axis=None,
        partial_ranges=(),
        **settings,
    ):
        """Evaluate one scoring classifier (``ccreport.evaluate``) and plot it.

        ``axis``: ``"pc"`` (x = PC(+), y = normalized expected cost), ``"cost_proportion"`` (the
        2013 paper's axes) or ``"both"`` (two panels; only on a new figure); the manifest's
        ``threshold_axis``. ``partial_ranges``: ranges of x shaded and reported, e.g.
        ``[[0.1, 0.5]]``. ``settings``: ``evaluate``'s.
        """
        name = name or "classifier"
        if axis is not None:
            settings["threshold_axis"] = axis
        results = evaluate(
            y_true, {name: y_score}, pos_label=pos_label, partial_ranges=partial_ranges, **settings
        )
        return cls(results, name).plot(ax=ax)

    @classmethod
    def from_estimator(
        cls,
        estimator,
        X,
        y,
        *,
        response_method="auto",
        pos_label=None,
        name=None,
        ax=None,
        **kwargs,
    ):
        """Plot a fitted binary classifier on (X, y) (``predict_proba`` or
        ``decision_function``; scikit-learn itself is not needed)."""
        scores, pos_label = response_values(estimator, X, pos_label, response_method)
        return cls.from_predictions(
            y, scores, pos_label=pos_label, name=name or type(estimator).__name__, ax=ax, **kwargs
        )


class KendallCurveDisplay(ThresholdDisplayFromArrays):
    """Kendall curves of scoring classifiers (HFF 2013 Def. 3; area 2 w0 w1 (1 - AUC)), partial
    ranges shaded, as the report draws them.

    Attributes after :meth:`plot`: ``ax_`` (the first panel), ``axes_`` (every panel),
    ``figure_``, ``line_`` (the last classifier's curve on ``ax_``), ``lines_`` (name -> curve on
    ``ax_``), ``results``, ``classifiers`` (the ClassifierResults drawn).
    """

    def __init__(
        self, results: Results, names=None, *, dataset: str | None = None, axis: str | None = None
    ):
        self.results, self.axis = results, axis
        self.dataset = dataset_of(results, dataset)
        names = [names] if isinstance(names, str) else names
        found = self.dataset.classifiers
        if names is None:
            names = [n for n, c in found.items() if is_scoring(c)]
        for n in names:
            if n not in found or not is_scoring(found[n]):
                raise ValueError(
                    f"{n!r} is not a scoring classifier of {self.dataset.name!r}; expected one of "
                    f"{[k for k, c in found.items() if is_scoring(c)]}"
                )
        if not names:
            raise ValueError(
                f"{self.dataset.name!r} has no scoring classifier "
                "(crisp classifiers have no Kendall curve)"
            )
        self.classifiers = [found[n] for n in names]

    @classmethod
    def from_results(
        cls, results: Results, names=None, *, dataset: str | None = None, ax=None, axis=None
    ):
        """Plot classifiers of Results already computed; ``names=None``: every scoring classifier
        of the dataset (on a new figure: the report's ``kendall`` figure)."""
        return cls(results, names, dataset=dataset, axis=axis).plot(ax=ax)

    def plot(self, ax=None):
        """Draw into ``ax`` (None: a new figure, the report's Kendall figure)."""
        with style():
            if ax is None:
                setting = self.axis or self.results.settings.threshold_axis
                dataset = replace(
                    self.dataset, classifiers={c.name: c for c in self.classifiers}, comparisons={}
                )
                styles = classifier_styles(self.results)
                fig = kendall_curves(dataset, styles, setting)
                drawn = own_figure_state(fig, drawn_axes(setting))
                drawn.classifiers = [(c, styles[c.name]) for c in self.classifiers]
                ax = fig.axes[0]
                lines = dict(zip((c.name for c in self.classifiers), ax.get_lines(), strict=True))
            else:
                lines = {c.name: self._add(ax, c) for c in self.classifiers}
        self.ax_, self.figure_ = ax, ax.figure
        self.axes_ = [a for a, d in DRAWN.items() if d is DRAWN[ax]] if DRAWN[ax].own else [ax]
        self.lines_, self.line_ = lines, lines[self.classifiers[-1].name]
        return self

    def _add(self, ax, c):
        drawn = DRAWN.get(ax)
        if drawn is None:
            drawn = DRAWN[ax] = Drawn({ax: one_axis(self.results, self.axis)})
            shade_ranges(ax, ranges_of(c, drawn.panels[ax]))
        st = next_style(drawn)
        index = len(drawn.classifiers)
        drawn.classifiers.append((c, st))
        first = None
        for panel, axis in drawn.panels.items():
            line, top = draw_kendall(panel, c, st, axis, index)
            drawn.tops[panel] = max(drawn.tops.get(panel, 0.0), top)
            frame_axes(panel, axis, y_top(drawn.tops[panel]), KENDALL_LABELS[axis])
            first = first or line
        legend_axis = next(iter(drawn.panels.values()))
        handles = [kendall_handle(k, s, legend_axis) for k, s in drawn.classifiers]
        relegend(ax, drawn, handles, "upper left")
        return first


def relegend(ax, drawn: Drawn, handles, loc: str) -> None:
    """The legend after a classifier was added: the figure's (a display's own figure, as the
    report places it) or the axes'."""
    if drawn.own:
        fig = ax.figure
        for legend in list(fig.legends):
            legend.remove()
        fig.legend(
            handles=handles,
            loc="outside lower center",
            ncols=legend_columns(handles, fig.get_size_inches()[0]),
            frameon=False,
        )
    elif loc == "outside right":  # beside the axes (six methods and more would hide the curves)
        ax.legend(
            handles=handles,
            loc="upper left",
            bbox_to_anchor=(1.02, 1.0),
            borderaxespad=0.0,
            frameon=False,
        )
    else:
        ax.legend(
            handles=handles,
            loc=loc,
            frameon=True,
            facecolor="white",
            edgecolor="none",
            framealpha=0.85,
        )


class ThresholdChoiceDisplay(ThresholdDisplayFromArrays):
    """One classifier's threshold choice curves (HFF 2013 Figs. 3-5): optimal (the lower
    envelope), score-driven (the Brier curve, probability scores only), rate-driven, perfect
    ranker, Kendall and convex skull, partial areas under Kendall shaded (Figs. 8-9).

    Attributes after :meth:`plot`: ``ax_``, ``axes_``, ``figure_``, ``lines_`` (method -> curve on
    ``ax_``), ``line_`` (the rate-driven curve), ``results``, ``classifier``.
    """

    def __init__(
        self, results: Results, name: str, *, dataset: str | None = None, axis: str | None = None
    ):
        self.results, self.axis = results, axis
        self.dataset = dataset_of(results, dataset)
        self.classifier = self.dataset.classifiers[name]
        if not is_scoring(self.classifier):
            raise ValueError(
                f"{name!r} is crisp: it has one cost line, no "
                "threshold to choose (HFF 2013 needs scores)"
            )

    @classmethod
    def from_results(
        cls, results: Results, name: str, *, dataset: str | None = None, ax=None, axis=None
    ):
        """Plot one classifier of Results already computed (on a new figure: the report's
        ``threshold-methods`` figure of that classifier)."""
        return cls(results, name, dataset=dataset, axis=axis).plot(ax=ax)

    def plot(self, ax=None):
        """Draw into ``ax`` (None: a new figure, the report's figure)."""
        c = self.classifier
        with style():
            if ax is None:
                setting = self.axis or self.results.settings.threshold_axis
                # the report's panel: its width, on the y scale of all the dataset's classifiers
                fig = threshold_methods(
                    self.dataset,
                    c.name,
                    setting,
                    PANEL_WIDTH,
                    shared_y=True,
                    legend=c.name == methods_key_panel(self.dataset),
                )
                drawn = own_figure_state(fig, drawn_axes(setting))
                drawn.classifiers = [(c, None)]
                ax = fig.axes[0]
                lines = ax.get_lines()
            else:
                lines = self._add(ax, c)
        self.ax_, self.figure_ = ax, ax.figure
        self.axes_ = [a for a, d in DRAWN.items() if d is DRAWN[ax]] if DRAWN[ax].own else [ax]
        drawn_first = DRAWN[ax].panels[ax]
        keys = [
            k for k in METHOD_STYLES if c.threshold_choice.methods[drawn_first][k].curve is not None
        ]
        self.lines_ = dict(zip(keys, lines, strict=True))
        self.line_ = self.lines_["rate_driven"]
        return self

    def _add(self, ax, c):
        drawn = DRAWN.get(ax)
        fresh = drawn is None
        if fresh:
            drawn = DRAWN[ax] = Drawn({ax: one_axis(self.results, self.axis)})
        marker = (
            None
            if not drawn.classifiers
            else EXTRA_MARKERS[(len(drawn.classifiers) - 1) % len(EXTRA_MARKERS)]
        )
        drawn.classifiers.append((c, marker))
        first = None
        for panel, axis in drawn.panels.items():
            shading, top, lines = draw_methods(panel, c, axis, marker=marker, shade=fresh)
            drawn.shading = drawn.shading or shading
            drawn.tops[panel] = max(drawn.tops.get(panel, 0.0), top)
            frame_axes(panel, axis, y_top(drawn.tops[panel]))
            first = first or lines
        handles = max(
            (method_handles(k) for k, _ in drawn.classifiers), key=len
        )  # the Brier curve if any has one
        if len(drawn.classifiers) > 1:  # which marker is whose
            handles += [
                Line2D(
                    [],
                    [],
                    color="#333333",
                    linestyle="none",
                    marker=m or "o",
                    markersize=4,
                    markerfacecolor="white",
                    markeredgewidth=0.8,
                    label=f"{k.name}" + (" (the methods' markers)" if m is None else ""),
                )
                for k, m in drawn.classifiers
            ]
        relegend(ax, drawn, handles + shading_legend(drawn.shading), "outside right")
        return first
