"""The sections of the pages and their table builders, one module per section.

The dataset page shows :data:`DATASET_SECTIONS` in order; each is a :class:`~.base.Section`
(title, contents entry, tables, part) whose template is ``sections/<id>.html``. A new section is
one module here (its table builders and its ``SECTION``), one template partial and one entry below.

The body of a dataset (``part="body"``) is what a reader needs to decide: the expected-cost
table, the decision box (what to deploy at each point prior and under each criterion) with its
hybrid figure, the cost curves and the differences the findings cite. Everything else is the
appendix (``part="appendix"``): the prices of the constraints and the hybrid's segments, the ROC
curves, the bands and intervals, the pairwise tables, threshold choice, instance costs, each
classifier highlighted, the other pairs' differences, the selection criteria and the threshold
tables. The body sections come first, so the page and report.pdf read in the same order.
"""

from dataclasses import replace

from . import (
    comparisons,
    decisions,
    figure_sections,
    instance_costs,
    summary,
    threshold_choice,
    uncertainty,
)
from .base import PARTS, PageSection, Section


def _appendix(section: Section) -> Section:
    return replace(section, part="appendix")


def _only(tables, names: tuple[str, ...]):
    """The tables of the builder ``tables`` that are named in ``names``."""

    def only(d, priors) -> dict:
        return {k: t for k, t in tables(d, priors).items() if k in names}

    return only


_DECISION_DETAILS = ("decision_prices", "hybrid_segments")
_DECISION_BOX = replace(
    decisions.DECISIONS, tables=_only(decisions.decision_tables, ("decisions", "decision_criteria"))
)
DECISION_DETAILS = Section(
    "decision_details",
    "Prices of the constraints and segments of the hybrid",
    "Prices and hybrid segments",
    tables=_only(decisions.decision_tables, _DECISION_DETAILS),
    part="appendix",
)


DATASET_SECTIONS: tuple[Section, ...] = (
    summary.SECTION,
    _DECISION_BOX,
    figure_sections.FIGURES,
    DECISION_DETAILS,
    figure_sections.CURVES,
    _appendix(uncertainty.SECTION),
    _appendix(comparisons.SECTION),
    _appendix(threshold_choice.SECTION),
    _appendix(instance_costs.SECTION),
    figure_sections.FOCUS,
    figure_sections.DIFFERENCES,
    _appendix(decisions.SELECTION),
    _appendix(decisions.THRESHOLDS),
)

__all__ = ["DATASET_SECTIONS", "PARTS", "PageSection", "Section"]
