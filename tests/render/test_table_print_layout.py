"""How report.pdf sets tables densely: intervals beside their values, notes on one line, a note
shared by a run of like tables said once, a portrait table before a landscape one kept portrait.

The first tests check :class:`ccreport.render.tables.Table`'s width estimates and the classes the
``table`` macro gives in print and on the site; the others read the example's report.pdf back
(``pdftotext -bbox``, as tests/render/test_pagination.py does).
"""

from __future__ import annotations

import math
import re
import shutil
import sys
from pathlib import Path

import pytest

from ccreport import paths
from ccreport.render import tables as tb
from ccreport.render.catalogue import number_items
from ccreport.render.site import build_pages, make_environment

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from site_fixtures import example_build, example_results  # noqa: E402

needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext")


def interval_table(n_columns: int, digits: int = tb.COST_DIGITS) -> tb.Table:
    """Classifier rows, each value with its bracketed interval as the cell's note."""
    t = tb.Table(
        "dataset-d-intervals",
        "Intervals on d.",
        ["Classifier"] + [f"E[cost] p{j}" for j in range(n_columns)],
    )
    for i in range(3):
        row = [tb.text(f"clf_{i}")]
        for j in range(n_columns):
            lo, hi = 0.1 + 0.01 * i, 0.2 + 0.01 * j
            row.append(tb.num(0.15, digits, note=tb.interval(lo, hi, digits)))
        t.rows.append(row)
    return t


def test_inline_width_puts_each_note_beside_its_value():
    t = interval_table(2)
    value, note = t.rows[0][1].text, t.rows[0][1].note
    cell = len(value) + 1 + math.ceil(tb.NOTE_SCALE * len(note))
    header = max(len(w) for w in t.columns[1].split())
    first = max(len(t.rows[i][0].text) for i in range(3))
    expected = (max(first, len("Classifier")) + 3) + 2 * (max(cell, header) + 3)
    assert t.inline_width() == expected
    # under the value (print_width) a cell is as wide as the wider of value and note
    assert t.print_width() == (max(first, len("Classifier")) + 3) + 2 * (max(len(note), header) + 3)


def columns_for(limit: int) -> tuple[int, int]:
    """The most interval columns whose inline width is within ``limit``, and one more."""
    n = 1
    while interval_table(n + 1).inline_width() <= limit:
        n += 1
    return n, n + 1


def test_notes_go_inline_up_to_the_portrait_width_then_on_one_line_under_the_value():
    fits, too_wide = columns_for(tb.INLINE_TABLE_CHARS)
    assert interval_table(fits).inline_notes
    wider = interval_table(too_wide)
    assert not wider.inline_notes
    # under its value each note is narrower than beside it: the table may still fit unwrapped
    assert wider.one_line_notes == (wider.print_width() <= tb.INLINE_TABLE_CHARS)
    # a wide table (landscape) holds more before its notes wrap
    n = too_wide
    while not interval_table(n).wide:
        n += 1
    wide = interval_table(n)
    assert wide.one_line_notes == (wide.print_width() <= tb.LANDSCAPE_TABLE_CHARS)
    assert not wide.inline_notes
    # short notes (ranks) are not long notes: nothing to set apart
    short = interval_table(2)
    for row in short.rows:
        for c in row[1:]:
            c.note = "(1)"
    assert not short.long_notes and not short.inline_notes and not short.one_line_notes


def render_table(t: tb.Table, print_mode: bool, **kwargs) -> str:
    env = make_environment(None, paths.theme_dir(paths.DEFAULT_THEME, None))
    template = env.from_string('{% import "macros.html" as m with context %}{{ m.table(t, **kw) }}')
    return template.render(t=t, print=print_mode, kw=kwargs)


def figure_classes(html: str) -> set[str]:
    return set(re.search(r'<figure class="([^"]*)"', html).group(1).split())


def test_print_classes_only_in_the_pdf():
    inline = interval_table(2)
    assert inline.inline_notes
    assert "inline-notes" in figure_classes(render_table(inline, True))
    assert "inline-notes" not in figure_classes(render_table(inline, False))
    assert "long-notes" in figure_classes(render_table(inline, False))  # the site: under values
    one_line = interval_table(columns_for(tb.INLINE_TABLE_CHARS)[1])
    if one_line.one_line_notes:
        assert "one-line-notes" in figure_classes(render_table(one_line, True))
        assert "one-line-notes" not in figure_classes(render_table(one_line, False))


def test_a_note_can_be_left_to_an_earlier_table():
    t = interval_table(2)
    t.note = "Shared words."
    assert "Shared words." in render_table(t, True)
    assert "Shared words." not in render_table(t, True, note=False)
    assert "Shared words." not in render_table(t, False, note=False)


# the example's report.pdf


def numbered_tables() -> dict[str, tb.Table]:
    """The example's tables by key, numbered as on the site and in report.pdf."""
    pages = build_pages(example_results(), {})
    number_items(pages)
    return {t.key: t for page in pages for t in page.tables.values()}


@pytest.fixture(scope="module")
def report():
    from test_pagination import Report

    return Report(example_build() / "report.pdf")


def caption_page(report, t: tb.Table) -> int:
    """The page (from 0) whose words start with ``Table N.`` for ``t``'s number N."""
    label = f"{t.number}."
    for page, words in enumerate(report.words):
        texts = [w[2] for w in words]
        if any(a == "Table" and b == label for a, b in zip(texts, texts[1:])):
            return page
    raise AssertionError(f"no caption 'Table {label}' in report.pdf")


@needs_pdftotext
def test_appendix_intervals_sit_beside_their_values(report):
    """Every row of an appendix table whose notes fit inline is one line: each value and the first
    word of its interval share a line."""
    checked = 0
    for t in numbered_tables().values():
        if not (t.inline_notes and t.key.endswith("-intervals")):
            continue
        page = caption_page(report, t)
        words = report.words[page] + report.words[page + 1]
        # consecutive words on one line: the (smaller) note inside the value's line box, within
        # half a point (a no-break space may or may not end a word)
        pairs = [
            (a[2], b[2])
            for a, b in zip(words, words[1:])
            if b[0] >= a[0] - 0.5 and b[1] <= a[1] + 0.5
        ]
        for row in t.rows:
            for c in row[1:]:
                if c.note:
                    first = re.split(r"[\s\u00a0]+", c.note)[0]
                    found = any(a == c.text and b.startswith(first) for a, b in pairs)
                    assert found, (t.key, c.text, c.note)
                    checked += 1
    assert checked


@needs_pdftotext
def test_one_threshold_table_per_dataset_its_note_once(report):
    """Every classifier's thresholds of a dataset are one table, each classifier's rows together,
    and its note is printed once per dataset."""
    thresholds = [t for k, t in numbered_tables().items() if k.endswith("-thresholds")]
    assert thresholds and not [k for k in numbered_tables() if "-thresholds-" in k]
    for t in thresholds:
        names = [row[0].text for row in t.rows]
        groups = [n for k, n in enumerate(names) if k == 0 or n != names[k - 1]]
        assert len(groups) == len(set(groups)) > 1, t.key  # each classifier's rows together
    notes = {t.note for t in thresholds}
    assert len(notes) == 1
    first_words = " ".join(next(iter(notes)).split()[:6])
    text = " ".join(w[2] for page in report.words for w in page)
    assert text.count(first_words) == len(thresholds)


@needs_pdftotext
def test_pairwise_tables_are_portrait(report):
    """The pairwise comparisons (one row per pair) and the differences in expected cost (one row
    per pair and prior, however many priors) are set on portrait pages: no landscape page."""
    tables = numbered_tables()
    checked = 0
    for key, t in tables.items():
        if not key.endswith("-comparisons"):
            continue
        after = tables[key.replace("-comparisons", "-differences")]
        for table in (t, after):
            assert not table.wide, table.key
            assert report.orientation(caption_page(report, table)) == "portrait", table.key
        checked += 1
    assert checked
