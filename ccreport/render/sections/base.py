"""A section of a page: what it declares (title, contents entry, tables), and the same resolved for
one page.

The dataset page loops over its sections and includes ``sections/<id>.html`` for each (a project
overrides one by placing a file of that name in its own ``templates/sections/``). Its figures are
the registered figure kinds whose ``section`` is the section's id (:mod:`ccreport.figures`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...results import DatasetResult


def no_tables(d: DatasetResult, priors: list[str]) -> dict:
    return {}


@dataclass(frozen=True)
class Section:
    """One section of the dataset page.

    ``tables(dataset, priors)`` returns the section's tables by name (a None value: no such table
    for this dataset); the names are the keys of ``tables`` in the page's templates.
    """

    id: str  # the partial sections/<id>.html and the anchor <page>-<id>
    title: str  # its heading
    contents: str  # its entry in the page's contents
    tables: Callable[[DatasetResult, list[str]], dict] = no_tables


@dataclass
class PageSection:
    """A section on one page: its declaration with the tables and figures it has there."""

    section: Section
    tables: dict = field(default_factory=dict)
    figures: list = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.section.id

    @property
    def title(self) -> str:
        return self.section.title

    @property
    def contents(self) -> str:
        return self.section.contents

    @property
    def shown(self) -> bool:
        """Whether it has anything to show (sections without are left out of the page contents)."""
        return bool(self.tables or self.figures)


def confidence_text(d: DatasetResult) -> str:
    """The confidence level of the dataset's bands, as "90%" ("" without bands)."""
    for c in d.classifiers.values():
        if c.band is not None and c.band.level is not None:
            return f"{100 * float(c.band.level):g}%"
    return ""


def widths(lower, upper) -> list[float]:
    """Upper minus lower edge of a band at each grid point (missing values skipped)."""
    if lower is None or upper is None:
        return []
    return [float(u) - float(lo) for lo, u in zip(lower, upper) if lo is not None and u is not None]
