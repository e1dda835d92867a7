"""report.pdf's lists of figures and of tables, in columns balanced by ccreport.render.item_lists
(rather than CSS multi-column, which WeasyPrint balances by laying the list out again and again)."""

from __future__ import annotations

import re
from itertools import combinations
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from site_fixtures import fake_figure_index, synthetic_results

from ccreport.render.item_lists import balanced_columns, item_rows
from ccreport.render.pdf import report_html
from ccreport.render.site import render_site
from ccreport.results import results_to_json


def entries_of(parts: list[str]) -> list[SimpleNamespace]:
    return [SimpleNamespace(part=p, label=f"Item {i}") for i, p in enumerate(parts)]


def brute_force_height(rows, count: int) -> int:
    """The least tallest column over every split of ``rows`` into at most ``count`` runs, no run
    ending with a heading (so a heading never ends a column)."""
    n = len(rows)
    allowed = [i for i in range(1, n) if rows[i - 1][1] is not None]
    best = n
    for cuts in range(count):
        for chosen in combinations(allowed, cuts):
            bounds = [0, *chosen, n]
            best = min(best, max(b - a for a, b in zip(bounds, bounds[1:], strict=False)))
    return best


def test_worked_lists():
    # 7 entries and 2 headings in one part change: 9 lines, three columns of 3
    columns = balanced_columns(entries_of(["body"] * 3 + ["appendix"] * 4))
    assert [len(c) for c in columns] == [3, 3, 3]
    assert columns[0][0] == ("body", None) and columns[1][0][1].label == "Item 2"
    assert columns[1][1] == ("appendix", None) and columns[1][2][1].label == "Item 3"
    # a heading never ends a column: "Appendix" with its first entry opens column 2 (plain
    # columns of 3 lines would end column 1 with it)
    columns = balanced_columns(entries_of(["body"] + ["appendix"] * 4))
    assert [len(c) for c in columns] == [2, 3, 2]
    assert columns[1][0] == ("appendix", None) and columns[1][1][1].label == "Item 1"


def test_degenerate_lists():
    assert balanced_columns([]) == []
    one = balanced_columns(entries_of(["body"]))
    assert one == [[("body", None), (None, one[0][1][1])]]  # a heading never stands alone
    assert [len(c) for c in balanced_columns(entries_of(["body"] * 4), count=1)] == [5]
    with pytest.raises(ValueError):
        balanced_columns(entries_of(["body"]), count=0)


@given(
    st.lists(st.sampled_from(["body", "appendix"]), min_size=1, max_size=14),
    st.integers(min_value=1, max_value=4),
)
def test_balanced_as_brute_force(parts, count):
    entries = entries_of(parts)
    rows = item_rows(entries)
    columns = balanced_columns(entries, count)
    # every row once, in order; at most ``count`` columns, none empty, none ending with a heading
    assert [row for column in columns for row in column] == rows
    assert 1 <= len(columns) <= count and all(columns)
    assert all(column[-1][1] is not None for column in columns)
    # the tallest column as short as any split allows
    height = max(len(c) for c in columns)
    assert height == brute_force_height(rows, count)
    # filled in order: the first row of each next column did not fit under the height
    for column, following in zip(columns, columns[1:], strict=False):
        first = 2 if following[0][1] is None else 1
        assert len(column) + first > height
    # a heading where the part changes, and before the first entry
    headings = [part for part, entry in rows if entry is None]
    assert headings == [p for i, p in enumerate(parts) if i == 0 or parts[i - 1] != p]


def test_report_lists_in_balanced_columns(tmp_path):
    results = synthetic_results()
    (tmp_path / "results.json").write_text(results_to_json(results))
    site = render_site(results, None, tmp_path, fake_figure_index(results, tmp_path), pdf=False)
    html = report_html(site, 1_700_000_000, attachments=False)
    for kind, entries in (("figures", site.catalogue.figures), ("tables", site.catalogue.tables)):
        if not entries:
            continue
        nav = re.search(rf'<nav class="item-list item-list-{kind}".*?</nav>', html, re.DOTALL)
        assert nav, f"no list of {kind}"
        block = re.search(r'<div class="item-list-columns">(.*)</div>', nav.group(0), re.DOTALL)
        assert block, f"the list of {kind} is not in item-list-columns"
        lists = re.findall(r"<ol>(.*?)</ol>", block.group(1), re.DOTALL)
        expected = balanced_columns(entries)
        assert len(lists) == len(expected)
        for column, rows in zip(lists, expected, strict=True):
            anchors = re.findall(r'href="#([^"]+)"', column)
            assert anchors == [e.anchor for part, e in rows if e is not None]
        listed = re.findall(r'href="#([^"]+)"', block.group(1))
        assert listed == [e.anchor for e in entries]  # every item once, in order
