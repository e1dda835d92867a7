"""Displays of instance-varying costs (Fawcett 2006) in scikit-learn's manner: ``from_predictions``,
``from_estimator``, ``from_results`` and ``plot``.

* :class:`RocivDisplay` - ROC beside ROCIV (each instance weighted by its own cost, Fawcett 2006
  Algorithm 2), curves and convex hulls, the report's ``rociv`` figure;
* :class:`InstanceCostCurveDisplay` - the lower envelope over PC(+) beside the instance-cost
  envelope over PC_iv(+) (the dual of the ROCIV hull) with the data's own condition marked, the
  report's ``iv-cost`` figure.

The costs are the manifest's: ``costs=`` an array of each instance's cost (the short form) or the
cost-benefit form ``{"fn": ..., "fp": ..., "tp": ..., "tn": ..., "unit": "DM"}``, each cell an
array or a number (:func:`ccreport.evaluate`).

Both draw with :mod:`ccreport.figures.instance_costs`, the report's functions and style file: on a
new figure (``ax=None``) :func:`~ccreport.figures.instance_costs.side_by_side` itself, the figure
``ccreport build`` writes for the same data (``ax_`` is its right-hand, instance-cost panel;
``axes_`` both); into a given ``ax`` the instance-cost panel alone, by
:func:`~ccreport.figures.instance_costs.draw_roc_classifier` /
:func:`~ccreport.figures.instance_costs.draw_cost_classifier`, the functions that figure draws
with. Calling again with the same ``ax`` adds a classifier in the next colour, dash and marker (on
a display's own figure to both panels, and the figure's legend is redrawn).
"""

from __future__ import annotations

from dataclasses import replace

from ..figures.instance_costs import (
    draw_cost_classifier,
    draw_roc_classifier,
    frame_cost_panel,
    frame_roc_panel,
    has_costs,
    legend_handles,
    mark_own_pc,
    setup_cost_panel,
    setup_roc_panel,
    side_by_side,
)
from ..figures.style import classifier_styles, style
from ..results import Results
from .displays import response_values
from .evaluate import evaluate
from .threshold_displays import (
    DRAWN,
    Drawn,
    dataset_of,
    next_style,
    own_figure_state,
    relegend,
    scores_kwargs,
)


class InstanceCostDisplayBase:
    """What the two instance-cost displays share; ``kind`` is the report figure's ("roc" or "cost").
    Each subclass says how one panel is drawn: ``setup`` (a new axes), ``draw`` (one classifier),
    ``finish`` (after a classifier, on the instance-cost panel) and ``curve_lines`` (the curves of
    the report's figure)."""

    kind = "roc"
    legend_loc = "lower right"

    def __init__(self, results: Results, names=None, *, dataset: str | None = None):
        self.results = results
        self.dataset = dataset_of(results, dataset)
        found = self.dataset.classifiers
        names = [names] if isinstance(names, str) else names
        with_costs = [n for n, c in found.items() if has_costs(c)]
        if not with_costs:
            raise ValueError(
                f"{self.dataset.name!r} has no instance costs; evaluate(..., costs=...) gives them"
            )
        names = with_costs if names is None else names
        for n in names:
            if n not in with_costs:
                raise ValueError(
                    f"{n!r} is not a classifier with instance costs of {self.dataset.name!r}; "
                    f"expected one of {with_costs}"
                )
        self.classifiers = [found[n] for n in names]

    @classmethod
    def from_predictions(
        cls, y_true, y_score, *, costs, pos_label=None, name=None, ax=None, crisp=False, **settings
    ):
        """Evaluate one classifier with instance costs (``ccreport.evaluate``) and plot it.

        ``costs``: each instance's cost (array), or ``{"fn", "fp", "tp", "tn", "unit"}`` as the
        manifest's cost-benefit form, each cell an array or a number. ``crisp=True``: ``y_score``
        holds predicted labels. ``settings``: ``evaluate``'s.
        """
        name = name or ("predictions" if crisp else "classifier")
        results = evaluate(
            y_true,
            pos_label=pos_label,
            costs=costs,
            **scores_kwargs(y_score, name, crisp),
            **settings,
        )
        return cls(results, name).plot(ax=ax)

    @classmethod
    def from_estimator(
        cls,
        estimator,
        X,
        y,
        *,
        costs,
        response_method="auto",
        pos_label=None,
        name=None,
        ax=None,
        **kwargs,
    ):
        """Plot a fitted binary classifier on (X, y) with the instances' ``costs``
        (``predict_proba`` or ``decision_function``; scikit-learn itself is not needed)."""
        scores, pos_label = response_values(estimator, X, pos_label, response_method)
        return cls.from_predictions(
            y,
            scores,
            costs=costs,
            pos_label=pos_label,
            name=name or type(estimator).__name__,
            ax=ax,
            **kwargs,
        )

    @classmethod
    def from_results(cls, results: Results, names=None, *, dataset: str | None = None, ax=None):
        """Plot classifiers of Results already computed; ``names=None``: every classifier with
        instance costs (on a new figure: the report's figure for the dataset)."""
        return cls(results, names, dataset=dataset).plot(ax=ax)

    def plot(self, ax=None):
        """Draw into ``ax`` (None: a new figure, the report's two-panel figure)."""
        with style():
            if ax is None:
                dataset = replace(
                    self.dataset, classifiers={c.name: c for c in self.classifiers}, comparisons={}
                )
                styles = classifier_styles(self.results)
                fig = side_by_side(dataset, styles, self.kind)
                drawn = own_figure_state(fig, [False, True])  # panel -> weighted
                drawn.classifiers = [(c, styles[c.name]) for c in self.classifiers]
                drawn.marks = {
                    fig.axes[1]: self.classifiers[0].instance_costs.own_pc
                }  # own_pc already marked
                ax = fig.axes[1]
                lines = dict(
                    zip(
                        (c.name for c in self.classifiers),
                        self.curve_lines(ax)[: len(self.classifiers)],
                        strict=True,
                    )
                )
            else:
                lines = {c.name: self._add(ax, c) for c in self.classifiers}
        drawn = DRAWN[ax]
        self.ax_, self.figure_ = ax, ax.figure
        self.axes_ = list(drawn.panels) if drawn.own else [ax]
        self.lines_, self.line_ = lines, lines[self.classifiers[-1].name]
        return self

    def _add(self, ax, c):
        drawn = DRAWN.get(ax)
        if drawn is None:  # a new axes: the instance-cost panel alone
            drawn = DRAWN[ax] = Drawn({ax: True})
            self.setup(ax)
        st = next_style(drawn)
        index = len(drawn.classifiers)
        drawn.classifiers.append((c, st))
        line = None
        for panel, weighted in drawn.panels.items():
            drawn_line = self.draw(panel, c, st, weighted, index, index + 1)
            line = drawn_line if weighted else line
            if weighted:
                self.finish(panel, drawn, c)
        handles = legend_handles(
            [k for k, _ in drawn.classifiers], {k.name: s for k, s in drawn.classifiers}, self.kind
        )
        relegend(ax, drawn, handles, self.legend_loc)
        return line


class RocivDisplay(InstanceCostDisplayBase):
    """ROC and ROCIV curves with their convex hulls (Fawcett 2006 Algorithm 2: each positive
    weighted by the cost of missing it, each negative by the cost of flagging it; the legend gives
    AUC and AUCIV). Attributes after :meth:`plot`: ``ax_`` (the ROCIV panel), ``axes_``,
    ``figure_``, ``line_``/``lines_`` (the ROCIV hulls), ``results``, ``classifiers``."""

    kind = "roc"
    legend_loc = "lower right"

    def curve_lines(self, ax):
        return ax.get_lines()[2::3]  # the diagonal, then per classifier: curve, hull, markers

    def setup(self, ax):
        setup_roc_panel(ax)
        frame_roc_panel(ax, weighted=True)

    def draw(self, ax, c, st, weighted, index, count):
        return draw_roc_classifier(ax, c, st, weighted, index, count)

    def finish(self, ax, drawn: Drawn, c) -> None:
        return None


class InstanceCostCurveDisplay(InstanceCostDisplayBase):
    """Lower envelopes with class-level costs over PC(+) (D&H 2006) beside the instance-cost
    envelopes over PC_iv(+) (spec section 3.6), with the data's own condition ``own_pc`` (there
    the envelope times the sum of all costs is the least total cost of errors on the data).
    Attributes after :meth:`plot`: ``ax_`` (the instance-cost panel), ``axes_``, ``figure_``,
    ``line_``/``lines_`` (the instance-cost envelopes), ``results``, ``classifiers``."""

    kind = "cost"
    # under the envelopes, whose peak is mid-axis; clear of the own_pc label at the top
    legend_loc = "lower center"

    def curve_lines(self, ax):
        return ax.get_lines()[
            2::2
        ]  # the two trivial classifiers, then per classifier: envelope, markers (then own_pc)

    def setup(self, ax):
        setup_cost_panel(ax)

    def draw(self, ax, c, st, weighted, index, count):
        return draw_cost_classifier(ax, c, st, weighted, index, count)

    def finish(self, ax, drawn: Drawn, c) -> None:
        """Frame the panel once; mark the data's own condition of each new data set drawn."""
        own = c.instance_costs.own_pc
        marked = drawn.marks.get(ax)
        if marked is None:
            frame_cost_panel(ax, weighted=True, own_pc=own)
        elif abs(marked - own) > 1e-12:
            mark_own_pc(ax, own)
        drawn.marks[ax] = own
