"""The example's report.pdf says each fact once: its Overview chapter is at most two pages and
each narrative (the project's, each dataset's) at most half a page, read from the PDF's outline
(each entry's page and its top on that page).

The narratives' part of a page: from the narrative's heading (a dataset's: the outline entry
titled by the narrative's first heading; the project's: the Overview's own title, whose heading
the page does not repeat) to the next outline entry, in units of the page's usable height (the
portrait page minus its top and bottom margins, themes/default/report.css), pages in between
counting one each.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pypdf = pytest.importorskip("pypdf")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from report_scan import outline_entries  # noqa: E402
from site_fixtures import EXAMPLE, example_build  # noqa: E402

from ccreport.project.manifest import load_project  # noqa: E402

MM = 72 / 25.4
TOP, BOTTOM = 16 * MM, 15 * MM  # @page margins of a portrait page
CHAPTER_GAP = 10 * MM  # .chapter + .chapter: margin-top, above a chapter that runs on
OVERVIEW_PAGES = 2
NARRATIVE_SHARE = 0.5


def share(reader, start, end) -> float:
    """Pages from one outline entry's top to another's, in usable page heights."""
    (_, _, p0, t0), (_, _, p1, t1) = start, end
    height = float(reader.pages[p0].mediabox.height)
    usable = height - TOP - BOTTOM
    if p0 == p1:
        return (t1 - t0) / usable
    return (height - BOTTOM - t0) / usable + (t1 - TOP) / usable + (p1 - p0 - 1)


def headings(path: Path) -> list[str]:
    """The markdown headings of a narrative, in order (its first is its title)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.lstrip("#").strip() for line in lines if line.startswith("#")]


def narrative_share(reader, entries, k: int, own: list[str]) -> float:
    """From entry k to the first later entry that is not one of the narrative's own headings."""
    end = next(e for e in entries[k + 1 :] if e[1] not in own)
    return share(reader, entries[k], end)


@pytest.fixture(scope="module")
def pdf():
    reader = pypdf.PdfReader(example_build() / "report.pdf")
    return reader, list(outline_entries(reader))


def test_the_overview_is_at_most_two_pages(pdf):
    reader, entries = pdf
    chapters = [e for e in entries if e[0] == 0]
    i = next(k for k, e in enumerate(chapters) if e[1].endswith("Overview"))
    overview, after = chapters[i], chapters[i + 1]
    # the next chapter runs on: at the top of its page (after the gap above it) it starts a page
    starts_a_page = after[3] <= TOP + CHAPTER_GAP + 6
    pages = after[2] - overview[2] + (0 if starts_a_page else 1)
    assert pages <= OVERVIEW_PAGES, f"the Overview runs over {pages} pages"


def test_each_narrative_is_at_most_half_a_page(pdf):
    reader, entries = pdf
    project = load_project(EXAMPLE)
    own = {d.name: headings(d.narrative) for d in project.datasets if d.narrative}
    titles = {h[0]: name for name, h in own.items()}
    assert project.narrative is not None and len(titles) == len(project.datasets)
    shares = {}
    for k, entry in enumerate(entries):
        if entry[0] == 1 and entry[1] in titles:
            name = titles[entry[1]]
            shares[name] = narrative_share(reader, entries, k, own[name])
        elif entry[0] == 0 and entry[1].endswith("Overview"):
            shares["the project"] = narrative_share(reader, entries, k, headings(project.narrative))
    assert set(shares) == set(titles.values()) | {"the project"}
    long = {name: round(s, 2) for name, s in shares.items() if s > NARRATIVE_SHARE}
    assert not long, f"narratives over half a page (in pages): {long}"
