"""One numbering of the report's figures and tables, computed once and shown by the site and
report.pdf.

The report's items are numbered in report.pdf's reading order, figures and tables each from 1:

* first the body, then the appendix (:attr:`ccreport.render.sections.base.Section.part`; the
  methods and provenance pages are wholly appendix): in each part, the pages in the site's order
  (overview, one page per dataset, methods, provenance), which is also the order of report.pdf's
  chapters;
* on a dataset page, its sections in :data:`ccreport.render.sections.DATASET_SECTIONS` order;
* in a section, the figures in the registered kinds' order (:func:`ccreport.figures.specs`: scope,
  then ``order``; one per classifier or pair in the dataset's order) and the tables in the order the
  section's builder returns them.

Nothing here lists figure kinds or sections: a newly registered kind or section is numbered where
its ``section`` and ``order`` place it. :func:`number_items` writes each number into its
:class:`~ccreport.render.site.Figure` or :class:`~ccreport.render.tables.Table` and returns the
:class:`Catalogue`, which both renderers use as it is (report.pdf shows every figure and table of
the site, so it never numbers again) and which lists them for the PDF's list of figures and tables.
The section templates show a section's figures, and its tables, in that order (a test reads the
numbers back from every page of the example).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SHORT_CAPTION = 70  # characters of a caption in the lists of figures and tables
_PHRASE_END = re.compile(r"[:;] |\. (?=[A-Z])")  # where a caption's first phrase ends


@dataclass(frozen=True)
class Entry:
    """One numbered figure or table: where it is and what its caption says."""

    kind: str  # "figure" | "table"
    number: int
    key: str  # the figure's index key or the table's key
    caption: str
    page: str  # the slug of the page showing it
    anchor: str  # the element id on that page (and in report.pdf)
    part: str = "body"  # in report.pdf's body or its appendix

    @property
    def short_caption(self) -> str:
        """The caption's first phrase (up to its first colon or full stop, at most
        :data:`SHORT_CAPTION` characters, cut at a word), for the lists of figures and tables."""
        text = " ".join(re.sub(r"<[^>]+>", "", self.caption).split())
        depth = 0
        for i, char in enumerate(text):
            depth += (char in "([") - (char in ")]")
            if depth == 0 and i > 0 and _PHRASE_END.match(text, i):
                text = text[:i]
                break
        text = text.rstrip(".:;")
        if len(text) > SHORT_CAPTION:
            text = text[: SHORT_CAPTION - 1].rsplit(" ", 1)[0].rstrip(",;") + "\u2026"
        return text

    @property
    def label(self) -> str:
        """ "Figure 3" or "Table 12", as captions print it."""
        return f"{self.kind.capitalize()} {self.number}"


@dataclass(frozen=True)
class Catalogue:
    """Every figure and every table of the report, in number order."""

    figures: tuple[Entry, ...] = ()
    tables: tuple[Entry, ...] = ()

    def labels(self) -> list[str]:
        return [e.label for e in self.figures + self.tables]


def number_items(pages) -> Catalogue:
    """Number the figures and tables of ``pages`` (site pages, in order) in reading order.

    Each figure's and table's ``number`` is set; the returned catalogue lists them. A page's
    ``figures`` and ``tables`` are dicts already in reading order (the page builder fills them
    section by section); ``page.part_of(key)`` says whether an item is in the body or the
    appendix, and every body item is numbered before any appendix item.
    """
    figures, tables = [], []
    for part in ("body", "appendix"):
        for page in pages:
            for figure in page.figures.values():
                if page.part_of(figure.key) != part:
                    continue
                figure.number = len(figures) + 1
                figures.append(
                    Entry(
                        "figure",
                        figure.number,
                        figure.key,
                        figure.caption,
                        page.slug,
                        figure.id,
                        part,
                    )
                )
            for table in page.tables.values():
                if page.part_of(table.key) != part:
                    continue
                table.number = len(tables) + 1
                tables.append(
                    Entry(
                        "table", table.number, table.key, table.caption, page.slug, table.id, part
                    )
                )
    return Catalogue(tuple(figures), tuple(tables))
