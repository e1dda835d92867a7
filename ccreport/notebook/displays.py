"""Displays in scikit-learn's manner (``RocCurveDisplay``): ``from_predictions``, ``from_estimator``
and ``plot`` (keeping ``ax_``, ``figure_``, ``line_``), drawing the report's own figures.

Every figure is drawn by the report's functions in :mod:`ccreport.figures` with its style file:

* on a new figure (``ax=None``), :func:`~ccreport.figures.cost_space` /
  :func:`~ccreport.figures.difference` themselves: the very figure ``ccreport build`` writes for
  the same data (saved with the report's metadata, the same bytes);
* into a given ``ax``, :func:`~ccreport.figures.cost_space.setup_cost_axes` and
  :func:`~ccreport.figures.cost_space.draw_cost_classifier` (the functions ``cost_space`` draws
  with) / :func:`~ccreport.figures.difference.draw_difference`. Calling again with the same ``ax``
  adds a classifier in the next colour, dash and marker, as scikit-learn users do; on a display's
  own figure the legend and the operating-range strip are redrawn with every classifier.

The numbers come from :func:`ccreport.evaluate` (the report's battery), so a display's curves are
the report's for the same data.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field, replace

from ..figures.cost_space import (
    band_handles,
    cost_space,
    draw_cost_classifier,
    draw_ranges,
    setup_cost_axes,
    setup_handle,
)
from ..figures.difference import difference, difference_ylim, draw_difference
from ..figures.style import (
    PC_LABEL,
    QUAD_PANEL_WIDTH,
    label_of,
    style,
    style_for,
    top_legend,
    width_inches,
)
from ..results import ClassifierResult, ComparisonResult, DatasetResult, Results
from .evaluate import evaluate


@dataclass(eq=False)
class AxesState:
    """What the displays drew into one axes: classifiers in order, and the figure's parts to
    redraw."""

    classifiers: list = field(default_factory=list)  # (ClassifierResult, Style)
    strip: object = None  # the operating-range strip of a display's own figure
    width_in: float | None = None  # set for a display's own figure (its legend is the figure's)
    extras: dict = field(
        default_factory=lambda: {"band": None, "simultaneous": False, "folds": False}
    )


AXES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # Axes -> AxesState


def response_values(estimator, X, pos_label=None, response_method="auto"):
    """The scores of a fitted binary classifier, as scikit-learn's ``_get_response_values_binary``:
    ``predict_proba[:, column of pos_label]``, else ``decision_function`` (negated when pos_label
    is the first class). Returns (scores, pos_label)."""
    classes = getattr(estimator, "classes_", None)
    if classes is None or len(classes) != 2:
        raise ValueError(
            "expected a fitted binary classifier (classes_ of length 2), got "
            f"{type(estimator).__name__}"
        )
    pos_label = classes[-1] if pos_label is None else pos_label
    if pos_label not in list(classes):
        raise ValueError(
            f"pos_label={pos_label!r} is not a class of the "
            f"estimator; expected one of {list(classes)}"
        )
    methods = (
        ("predict_proba", "decision_function") if response_method == "auto" else (response_method,)
    )
    for method in methods:
        if hasattr(estimator, method):
            values = getattr(estimator, method)(X)
            if method == "predict_proba":
                return values[:, list(classes).index(pos_label)], pos_label
            return (values if pos_label == classes[-1] else -values), pos_label
    raise ValueError(f"{type(estimator).__name__} has none of {', '.join(methods)}")


def _one(results: Results, name: str) -> tuple[DatasetResult, ClassifierResult]:
    dataset = next(iter(results.datasets.values()))
    return dataset, dataset.classifiers[name]


class CostCurveDisplay:
    """The cost curve of one classifier (D&H 2006 section 3: its lower envelope, or a crisp
    classifier's cost line), with the trivial classifiers and, on its own figure, the report's
    operating-range strip; its band with ``band=True`` (then, on its own figure, it is the report's
    cost figure of a one-classifier project, which draws every band).

    Attributes after :meth:`plot`: ``ax_`` (the cost axes), ``figure_``, ``line_`` (the curve),
    ``results`` (the :class:`~ccreport.results.Results`), ``classifier`` (its ClassifierResult).
    """

    def __init__(
        self, results: Results, name: str, *, band: bool = False, rescaled_y: bool = False
    ):
        self.results, self.name = results, name
        self.dataset, self.classifier = _one(results, name)
        self.band, self.rescaled_y = band, rescaled_y

    @classmethod
    def from_predictions(
        cls,
        y_true,
        y_score,
        *,
        pos_label=None,
        name=None,
        ax=None,
        priors=None,
        band=False,
        crisp=False,
        folds=None,
        rescaled_y=False,
        **settings,
    ):
        """Evaluate one classifier (``ccreport.evaluate``) and plot its cost curve.

        ``y_score``: scores (higher = more positive), or with ``crisp=True`` predicted labels (a
        single cost line). ``settings``: ``evaluate``'s (seed, confidence, bootstrap, band,
        calibration). ``band``: draw the bootstrap band.
        """
        name = name or ("predictions" if crisp else "classifier")
        given = {"predictions": {name: y_score}} if crisp else {"scores": {name: y_score}}
        results = evaluate(
            y_true, pos_label=pos_label, priors=priors, folds=folds, **given, **settings
        )
        return cls(results, name, band=band, rescaled_y=rescaled_y).plot(ax=ax)

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
        """Plot the cost curve of a fitted scikit-learn classifier on (X, y): its
        ``predict_proba[:, pos_label]`` or ``decision_function`` (scikit-learn is not needed
        here, any object with ``classes_`` and one of those methods will do)."""
        scores, pos_label = response_values(estimator, X, pos_label, response_method)
        return cls.from_predictions(
            y, scores, pos_label=pos_label, name=name or type(estimator).__name__, ax=ax, **kwargs
        )

    @classmethod
    def from_results(
        cls,
        results: Results,
        name: str,
        *,
        dataset: str | None = None,
        ax=None,
        band=False,
        rescaled_y=False,
    ):
        """Plot one classifier of Results already computed (by ``evaluate`` or
        ``ccreport.commands.build``)."""
        if dataset is not None:
            results = replace(results, datasets={dataset: results.datasets[dataset]})
        return cls(results, name, band=band, rescaled_y=rescaled_y).plot(ax=ax)

    def plot(self, ax=None, *, name=None, **kwargs):
        """Draw into ``ax`` (None: a new figure, the report's cost figure when ``band``); ``name``
        relabels the curve; ``kwargs``: line properties of the curve (matplotlib ``Line2D.set``)."""
        c = self.classifier if name is None else replace(self.classifier, name=name)
        with style():
            if ax is None:
                dataset = replace(self.dataset, classifiers={c.name: c}, comparisons={})
                fig = cost_space(
                    dataset,
                    {c.name: style_for(0)},
                    rescaled_y=self.rescaled_y,
                    bands=self.band or None,
                )
                ax = fig.axes[0]
                AXES[ax] = AxesState(
                    [(c, style_for(0))], strip=fig.axes[1], width_in=width_inches("column")
                )
                self.line_ = _curve_line(ax, c)
            else:
                self.line_ = self._add(ax, c)
        if kwargs:
            self.line_.set(**kwargs)
        self.ax_, self.figure_ = ax, ax.figure
        return self

    def _add(self, ax, c: ClassifierResult):
        state = AXES.get(ax)
        if state is None:
            state = AXES[ax] = AxesState()
            setup_cost_axes(ax, self.rescaled_y)
            ax.set_xlabel(PC_LABEL)
        st = style_for(len(state.classifiers))
        index = len(state.classifiers)
        handle, drawn, drew_folds = draw_cost_classifier(
            ax, c, st, index, index + 1, "normal", bool(self.band), False
        )
        state.classifiers.append((c, st))
        if drawn is not None:
            state.extras.update(
                band=drawn.level,
                simultaneous=state.extras["simultaneous"] or drawn.simultaneous is not None,
            )
        handles = [setup_handle()] + [
            s.handle(label_of(k), linewidth=1.3) for k, s in state.classifiers
        ]
        ex = state.extras
        handles += band_handles(
            ex["band"] is not None, ex["simultaneous"], False, ex["band"], "#808080"
        )
        if (
            state.width_in is not None
        ):  # a display's own figure: its legend and strip show every classifier
            for legend in list(ax.figure.legends):
                legend.remove()
            top_legend(ax.figure, handles, state.width_in)
            strip = state.strip
            strip.cla()
            draw_ranges(
                strip,
                [k for k, _ in state.classifiers],
                {k.name: s for k, s in state.classifiers},
                None,
            )
            strip.set_xlabel(PC_LABEL)
            strip.set_title("Operating range", fontsize=6.5, loc="left", pad=2, color="#333333")
        else:
            ax.legend(
                handles=handles,
                loc="upper left",
                frameon=True,
                facecolor="white",
                edgecolor="none",
                framealpha=0.85,
            )
        return _curve_line(ax, c)


def _curve_line(ax, c: ClassifierResult):
    """The line of ``c``'s curve just drawn (the last line with more than the markers' points)."""
    lines = [line for line in ax.get_lines() if line.get_linestyle() != "None"]
    return lines[-1]


class DifferenceDisplay:
    """The difference of two classifiers' cost curves, a - b (D&H 2006 sections 4.3-4.4, Fig.
    19-20): crossovers, the paired bootstrap band and the significant intervals, as the report
    draws it. Attributes after :meth:`plot`: ``ax_``, ``figure_``, ``line_``, ``comparison``."""

    def __init__(self, results: Results, a: str, b: str):
        self.results = results
        self.dataset = dataset = next(iter(results.datasets.values()))
        self.comparison: ComparisonResult = dataset.comparisons[f"{a} vs {b}"]
        self.styles = {a: style_for(0), b: style_for(1)}

    @classmethod
    def from_predictions(
        cls,
        y_true,
        y_score_a,
        y_score_b,
        *,
        names=("a", "b"),
        pos_label=None,
        ax=None,
        priors=None,
        folds=None,
        **settings,
    ):
        """Evaluate two classifiers on the same instances (``ccreport.evaluate``) and plot a - b."""
        a, b = names
        results = evaluate(
            y_true,
            {a: y_score_a, b: y_score_b},
            pos_label=pos_label,
            priors=priors,
            folds=folds,
            **settings,
        )
        return cls(results, a, b).plot(ax=ax)

    @classmethod
    def from_estimator(
        cls, estimator_a, estimator_b, X, y, *, names=None, pos_label=None, ax=None, **kwargs
    ):
        """Plot the difference of two fitted classifiers' cost curves on (X, y)."""
        sa, pos = response_values(estimator_a, X, pos_label)
        sb, _ = response_values(estimator_b, X, pos)
        names = names or (type(estimator_a).__name__, type(estimator_b).__name__)
        return cls.from_predictions(y, sa, sb, names=names, pos_label=pos, ax=ax, **kwargs)

    def plot(self, ax=None):
        """Draw into ``ax`` (None: a new figure, the report's difference figure: a panel of its
        grid, without a legend; the sides are labelled in the plot)."""
        with style():
            if ax is None:
                # the report's panel: its width, on the y scale of all the dataset's pairs
                fig = difference(
                    self.comparison,
                    self.styles,
                    width=QUAD_PANEL_WIDTH,
                    ylim=difference_ylim(self.dataset.comparisons.values()),
                    legend=False,
                )
                ax = fig.axes[0]
            else:
                handles = draw_difference(
                    ax, self.comparison, self.styles, ax.figure.get_size_inches()[0]
                )
                ax.legend(handles=handles, loc="upper right")
        self.ax_, self.figure_ = ax, ax.figure
        self.line_ = max(ax.get_lines(), key=lambda line: len(line.get_xdata()))
        return self
