"""report.pdf as a typesetter would check it: the example's report read back from its text
positions (``pdftotext -bbox``), its outline and its tagged structure (pypdf).

* the body (up to the first top-level outline entry whose title starts with "Appendix") is at most
  :data:`BODY_PAGES` pages and the whole report at most :data:`TOTAL_PAGES`;
* the decision summary is on page 1, under the title block (the answer first), the contents start
  page 2, and the lists of figures and of tables follow the contents (on the same page or the next);
* no page is under a third full (its lowest line of text against the page's usable height) unless
  it ends a chapter (the next page starts one) or the report;
* no heading (an outline entry) is the last text of its page;
* a landscape page carries at least :data:`LANDSCAPE_ROWS` table rows (``TR`` elements of the
  tagged PDF's structure tree outside a table head).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from html import unescape
from pathlib import Path

import pytest

pypdf = pytest.importorskip("pypdf")
from pypdf.generic import ArrayObject, DictionaryObject  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from report_scan import outline_entries  # noqa: E402
from site_fixtures import example_build  # noqa: E402

BODY_PAGES = 20
TOTAL_PAGES = 40
LANDSCAPE_ROWS = 10
MM = 72 / 25.4
MARGINS = {  # (top, bottom) in points: themes/default/report.css, @page and @page landscape
    "portrait": (16 * MM, 15 * MM),
    "landscape": (15 * MM, 14 * MM),
}
MIN_FILL = 1 / 3

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext")


class Report:
    """The example's report.pdf: pages (width, height, words), outline entries and table rows."""

    def __init__(self, pdf: Path):
        self.reader = pypdf.PdfReader(pdf)
        self.sizes = [
            (float(p.mediabox.width), float(p.mediabox.height)) for p in self.reader.pages
        ]
        self.words = words_by_page(pdf)
        self.outline = list(outline_entries(self.reader))

    def orientation(self, page: int) -> str:
        width, height = self.sizes[page]
        return "landscape" if width > height else "portrait"

    def text_words(self, page: int) -> list[tuple[float, float, str]]:
        """(top, bottom, word) of the page's words inside its margins (no running head or foot)."""
        top, bottom = MARGINS[self.orientation(page)]
        height = self.sizes[page][1]
        return [w for w in self.words[page] if w[0] >= top - 1 and w[1] <= height - bottom + 1]

    def fill(self, page: int) -> float:
        """How far down the usable height the page's lowest text reaches (0: empty, 1: full)."""
        top, bottom = MARGINS[self.orientation(page)]
        usable = self.sizes[page][1] - top - bottom
        found = self.text_words(page)
        return 0.0 if not found else (max(w[1] for w in found) - top) / usable

    def chapter_starts(self) -> set[int]:
        """The pages (from 0) that start a chapter: top-level outline entries (the title page's
        heading is the first)."""
        return {page for level, _, page, _ in self.outline if level == 0}

    def appendix_page(self) -> int | None:
        """The page (from 0: the number of pages before it) of the first top-level entry whose
        title starts with "Appendix"."""
        starts = [p for level, t, p, _ in self.outline if level == 0 and t.startswith("Appendix")]
        return min(starts) if starts else None


def words_by_page(pdf: Path) -> list[list[tuple[float, float, str]]]:
    """Each page's words as (top, bottom, text), top-down coordinates in points."""
    xhtml = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    pages = []
    for page in re.split(r"<page ", xhtml)[1:]:
        pages.append(
            [
                (float(top), float(bottom), unescape(text))
                for top, bottom, text in re.findall(
                    r'<word xMin="[^"]+" yMin="([^"]+)" xMax="[^"]+" yMax="([^"]+)">([^<]*)</word>',
                    page,
                )
            ]
        )
    return pages


def table_rows_by_page(reader) -> Counter:
    """The number of body rows (``TR`` outside a ``THead``) of the tagged PDF on each page."""
    pages = {p.indirect_reference.idnum: i for i, p in enumerate(reader.pages)}
    rows: Counter = Counter()

    def kids(element) -> list:
        k = element.get("/K")
        return [] if k is None else list(k) if isinstance(k, ArrayObject) else [k]

    def page_of(element) -> int | None:
        if "/Pg" in element:
            return pages.get(element.raw_get("/Pg").idnum)
        for kid in kids(element):
            kid = kid.get_object()
            if isinstance(kid, DictionaryObject) and (found := page_of(kid)) is not None:
                return found
        return None

    def walk(element) -> None:
        element = element.get_object()
        if not isinstance(element, DictionaryObject) or element.get("/S") == "/THead":
            return
        if element.get("/S") == "/TR":
            rows[page_of(element)] += 1
            return
        for kid in kids(element):
            walk(kid)

    walk(reader.trailer["/Root"]["/StructTreeRoot"])
    return rows


@pytest.fixture(scope="module")
def report() -> Report:
    return Report(example_build() / "report.pdf")


def test_body_up_to_the_appendix(report):
    appendix = report.appendix_page()
    assert appendix is not None, "no top-level outline entry starts with 'Appendix'"
    assert appendix <= BODY_PAGES, f"the body is {appendix} pages (at most {BODY_PAGES})"


def test_total_pages(report):
    assert len(report.sizes) <= TOTAL_PAGES, f"{len(report.sizes)} pages (at most {TOTAL_PAGES})"


def test_decision_on_the_title_page_then_the_contents_then_the_lists(report):
    first = {}
    for _level, title, page, _ in report.outline:
        first.setdefault(title, page)
    assert first.get("The decision") == 0, "the decision summary is not on page 1"
    assert first.get("Contents") == 1, "the contents do not start on page 2"
    lists = [first.get("List of figures"), first.get("List of tables")]
    assert None not in lists, "no list of figures or no list of tables"
    assert min(lists) in (1, 2), "the lists do not follow the contents (page 2 or 3)"
    chapters = sorted(report.chapter_starts() - {0})
    assert chapters and max(lists) < chapters[0], "a list comes after the first chapter"


def test_no_page_under_a_third_full(report):
    starts = report.chapter_starts()
    last = len(report.sizes) - 1
    thin = [
        f"page {page + 1} is {report.fill(page):.0%} full"
        for page in range(1, last)
        if page + 1 not in starts and report.fill(page) < MIN_FILL
    ]
    assert not thin, "; ".join(thin)


def test_no_heading_ends_a_page(report):
    stranded = []
    for _level, title, page, top in report.outline:
        if page == 0:
            continue
        words = report.text_words(page)
        own = set(title.split())
        heading = [w for w in words if top - 3 <= w[0] <= top + 30 and w[2] in own]
        bottom = max((w[1] for w in heading), default=top + 20)
        if not [w for w in words if w[0] > bottom + 1]:
            stranded.append(f"{title!r} on page {page + 1}")
    assert not stranded, "headings with nothing after them on their page: " + "; ".join(stranded)


def test_landscape_pages_hold_ten_rows_or_more(report):
    rows = table_rows_by_page(report.reader)
    short = [
        f"page {page + 1}: {rows[page]} rows"
        for page in range(len(report.sizes))
        if report.orientation(page) == "landscape" and rows[page] < LANDSCAPE_ROWS
    ]
    assert not short, "landscape pages for fewer than ten rows: " + "; ".join(short)
