"""The figures of a report, each kind declared once beside its drawing function:
:class:`FigureSpec`.

A figure kind is one draw function plus one :func:`register` call in the same module, naming

* its ``scope``: one figure for the whole report, per dataset, per classifier on a dataset, or per
  pair of classifiers on a dataset;
* its index ``key`` and file ``stem`` (patterns filled per subject) and its width;
* its caption and alt text (functions of the same :class:`Subject` the drawing gets);
* the page ``section`` that shows it and its ``order`` there (the report order);
* ``wanted``: whether a subject gets the figure at all (say, a rescaled copy only when something
  drawn passes 0.5);
* for a kind report.pdf shows as a grid of panels (one per classifier or pair), ``panel_caption``
  and ``panels_note``: the panel's own facts, and what every panel of the grid shows, said once
  before it. Together they say what the full caption says; report.pdf prints them instead of the
  same long caption under every panel (the site keeps the full caption under each figure).

:func:`ccreport.render.figure_files.write_figures` and the page builder iterate :func:`specs`; no
other file lists figure kinds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from matplotlib.figure import Figure

from ..results import ClassifierResult, ComparisonResult, DatasetResult, Results

SCOPES = ("report", "dataset", "classifier", "pair")


@dataclass(frozen=True)
class FigureOptions:
    """What the caller of write_figures asked for (None: each kind's default)."""

    focus: bool | None = (
        None  # each classifier highlighted: always, never, or when one has a band/fold average
    )
    rescaled: bool | None = (
        None  # the "(Rescaled Y)" copy: always, never, or when something passes 0.5
    )


@dataclass(frozen=True, eq=False)
class Subject:
    """What one figure shows: the report, a dataset, or one classifier or pair (``name``) on a
    dataset."""

    results: Results
    styles: dict
    dataset: DatasetResult | None = None
    name: str | None = None  # a classifier's name, or a comparison's key ("a vs b")

    @property
    def classifier(self) -> ClassifierResult:
        return self.dataset.classifiers[self.name]

    @property
    def comparison(self) -> ComparisonResult:
        return self.dataset.comparisons[self.name]


def always(subject: Subject, options: FigureOptions) -> bool:
    return True


@dataclass(frozen=True)
class FigureSpec:
    """One kind of figure. ``key``/``stem`` patterns may use ``{dataset}``, ``{name}`` (key) and
    ``{dataset_slug}``, ``{name_slug}``, ``{pair_slug}`` (stem, relative to ``figures/``; stems from
    :mod:`ccreport.project.naming`)."""

    kind: str
    scope: str  # one of SCOPES
    key: str
    stem: str
    draw: Callable[[Subject], Figure]
    caption: Callable[[Subject], str]
    alt: Callable[[Subject], str]
    section: str  # the id of the page section showing it ("overview" for the index page)
    order: int  # place in the report: figures are listed by scope, then order
    width: str = "column"  # "column" | "full"
    wanted: Callable[[Subject, FigureOptions], bool] = field(default=always)
    panel_caption: Callable[[Subject], str] | None = (
        None  # the panel's own facts, in report.pdf's grid
    )
    panels_note: Callable[[Subject], str] | None = (
        None  # what every panel on the subject's dataset shows
    )

    def key_for(self, dataset: str | None = None, name: str | None = None) -> str:
        return self.key.format(dataset=dataset, name=name)

    def subjects(
        self, results: Results, dataset: DatasetResult | None, styles: dict
    ) -> list[Subject]:
        """The subjects of this kind: the report, the dataset, each classifier or each pair on
        it."""
        if self.scope == "report":
            return [Subject(results, styles)]
        if self.scope == "dataset":
            return [Subject(results, styles, dataset)]
        names = dataset.classifiers if self.scope == "classifier" else dataset.comparisons
        return [Subject(results, styles, dataset, name) for name in names]


REGISTRY: dict[str, FigureSpec] = {}  # kind -> spec; filled by register()


def register(spec: FigureSpec) -> FigureSpec:
    """Add a figure kind to the report (once per kind; returns it, to keep beside its function)."""
    if spec.scope not in SCOPES:
        raise ValueError(
            f"figure {spec.kind!r}: unknown scope {spec.scope!r}; expected one of {SCOPES}"
        )
    if spec.kind in REGISTRY and REGISTRY[spec.kind] is not spec:
        raise ValueError(f"figure kind {spec.kind!r} is registered twice")
    REGISTRY[spec.kind] = spec
    return spec


def specs(scope: str | None = None, section: str | None = None) -> list[FigureSpec]:
    """The registered kinds in report order, optionally only one scope's or one section's."""
    found = sorted(REGISTRY.values(), key=lambda s: (SCOPES.index(s.scope), s.order))
    return [
        s
        for s in found
        if (scope is None or s.scope == scope) and (section is None or s.section == section)
    ]
