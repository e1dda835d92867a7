"""The sections of the pages and their table builders, one module per section.

The dataset page shows :data:`DATASET_SECTIONS` in order; each is a :class:`~.base.Section`
(title, contents entry, tables) whose template is ``sections/<id>.html``. A new section is one
module here (its table builders and its ``SECTION``), one template partial and one entry below.
"""

from . import (
    comparisons,
    decisions,
    figure_sections,
    instance_costs,
    summary,
    threshold_choice,
    uncertainty,
)
from .base import PageSection, Section

DATASET_SECTIONS: tuple[Section, ...] = (
    summary.SECTION,
    decisions.DECISIONS,
    figure_sections.FIGURES,
    uncertainty.SECTION,
    comparisons.SECTION,
    threshold_choice.SECTION,
    instance_costs.SECTION,
    figure_sections.FOCUS,
    figure_sections.DIFFERENCES,
    decisions.SELECTION,
    decisions.THRESHOLDS,
)

__all__ = ["DATASET_SECTIONS", "PageSection", "Section"]
