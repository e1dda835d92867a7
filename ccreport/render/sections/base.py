"""A section of a page: what it declares (title, contents entry, tables), and the same resolved for
one page.

The dataset page loops over its sections and includes ``sections/<id>.html`` for each (a project
overrides one by placing a file of that name in its own ``templates/sections/``). Its figures are
the registered figure kinds whose ``section`` is the section's id (:mod:`ccreport.figures`), or
those of the sections it names in ``figures_of``, narrowed to the subjects ``shows`` accepts.

A section is in the report's body or in its appendix (``part``): report.pdf prints the body
sections of every dataset, then each dataset's appendix sections as a chapter of the appendix; the
site shows the appendix sections of a page folded away in ``<details class="appendix">``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...results import DatasetResult


def no_tables(d: DatasetResult, priors: list[str]) -> dict:
    return {}


def every_subject(d: DatasetResult, cited: frozenset[str], name: str | None) -> bool:
    return True


PARTS = ("body", "appendix")


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
    part: str = "body"  # one of PARTS: the report's body, or its appendix
    figures_of: tuple[str, ...] = ()  # show the figures registered for these section ids (): own
    # shows(dataset, cited pairs, subject name): whether a figure of a classifier or pair (None:
    # the dataset's own) is shown here; cited: the comparison keys the dataset's findings quote
    shows: Callable[[DatasetResult, frozenset[str], str | None], bool] = every_subject

    def __post_init__(self):
        if self.part not in PARTS:
            raise ValueError(f"section {self.id!r}: part {self.part!r} is not one of {PARTS}")


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
    def part(self) -> str:
        return self.section.part

    @property
    def appendix(self) -> bool:
        return self.section.part == "appendix"

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
