"""report.pdf's fixed table layouts (ccreport.speedups.table_widths) against WeasyPrint's own
automatic layout of the same tables, in the same CSS, under both built-in themes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

weasyprint = pytest.importorskip("weasyprint")

from weasyprint.formatting_structure import boxes  # noqa: E402

from ccreport import paths  # noqa: E402
from ccreport.render.site import copy_theme, make_environment  # noqa: E402
from ccreport.render.tables import Cell, Table, num, text  # noqa: E402
from ccreport.speedups.table_widths import (  # noqa: E402
    PAGE_CONTENT_PX,
    SLACK,
    Layout,
    measurer_for,
    table_layout,
    theme_families,
)

PAGE = """{% import "macros.html" as m with context %}<!DOCTYPE html><html><head>
<link rel="stylesheet" href="assets/style.css"><link rel="stylesheet" href="assets/theme.css">
<link rel="stylesheet" href="assets/report.css"></head><body class="report">
{% for t in tables %}{{ m.table(t) }}{% endfor %}</body></html>"""


def _tables() -> list[Table]:
    """Tables like the report's: notes inline and below, intervals, best marks, hyphens, code,
    compact and wide ones, a column of long text that must wrap, one column, empty cells."""
    long_words = "a long note that has to wrap across several lines of its column " * 3
    rows = []
    for i, name in enumerate(["logreg", "naive_bayes", "german-5to1-uncertain", "tree_crisp"]):
        rows.append(
            [
                text(name),
                num(0.1234 + i / 7, 4, note=f"({i + 1})" if i else "(1) tied with naive_bayes"),
                Cell(
                    "[0.1020, 0.1508], [0.2, 0.3]", parts=["[0.1020, 0.1508]", "[0.2000, 0.3000]"]
                ),
                num(0.25, 4, best=i == 1),
                text("threshold-from-costs" if i % 2 else "p\u00a0\u2264\u00a00.002"),
            ]
        )
    notes = Table(
        "notes",
        "Notes below values",
        ["Classifier", "E[cost] german-5to1-uncertain", "Intervals", "Best", "Criterion"],
        rows,
    )
    inline = Table(
        "inline",
        "Short notes inline",
        ["Classifier", "Cost", "Intervals", "Best", "Criterion"],
        [[r[0], num(0.5, 4, note="(2)"), r[2], r[3], r[4]] for r in rows],
    )
    compact = Table("compact", "Compact", inline.columns, inline.rows, compact=True)
    wide = Table(
        "wide",
        "Wide",
        [f"Column number {k}" for k in range(14)],
        [
            [text(f"row-{r}")] + [num(k / 3, 4, note="(r)", note_class="range") for k in range(13)]
            for r in range(3)
        ],
    )
    too_wide = Table(
        "too_wide",
        "Wider than the page even at its narrowest",
        [f"C{k}" for k in range(30)],
        [[text("row")] + [num(k / 3, 4, note="range") for k in range(29)]],
    )
    wrap = Table(
        "wrap", "Wraps", ["Name", "Words"], [[text("x"), text(long_words)], [text("y"), text("")]]
    )
    mono = Table(
        "mono", "Code", ["File", "SHA-256"], [[text("data/sonar.csv"), Cell("9f" * 32, mono=True)]]
    )
    single = Table("single", "One column", ["Only"], [[text("one")], [text("")]])
    return [notes, inline, compact, wide, too_wide, wrap, mono, single]


def _laid_out(
    folder: Path, theme: str, tables: list[Table], layouts
) -> list[tuple[float, list[float]]]:
    """(table width, column widths) of each table as WeasyPrint lays out the print HTML."""
    env = make_environment(None, paths.themes_dir() / theme)
    html = env.from_string(PAGE).render(tables=tables, print=True, table_layout=layouts)
    document = weasyprint.HTML(string=html, base_url=str(folder) + "/").render()
    found: dict[int, tuple[float, list[float]]] = {}

    def walk(box):
        if isinstance(box, boxes.TableBox) and id(box.element) not in found:
            found[id(box.element)] = (box.width, list(box.column_widths))
        for child in getattr(box, "children", None) or []:
            walk(child)

    for page in document.pages:
        walk(page._page_box)
    return list(found.values())


@pytest.fixture(scope="module", params=["default", "journal"])
def themed(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(request.param)
    theme = paths.themes_dir() / request.param
    copy_theme(theme, folder)
    from weasyprint.text.fonts import FontConfiguration

    measure = measurer_for(
        theme, paths.themes_dir(), folder / "assets", FontConfiguration().font_map
    )
    assert measure is not None
    return request.param, folder, measure


def test_the_widths_are_those_of_weasyprints_automatic_layout(themed):
    theme, folder, measure = themed
    tables = _tables()
    automatic = _laid_out(folder, theme, tables, None)
    ours = [table_layout(t, measure) for t in tables]
    assert len(automatic) == len(ours) == len(tables)
    for t, (width, columns), layout in zip(tables, automatic, ours):
        available = PAGE_CONTENT_PX[t.wide]
        if (
            width > available + 1
        ):  # not even the minima fit: each column at its minimum, past the page
            assert layout.columns == pytest.approx(columns, abs=1e-3), t.key
            continue
        assert layout.width <= available + 1e-6, t.key
        if width < available - 1:  # every cell on one line: the same columns plus at most the slack
            for auto, mine in zip(columns, layout.columns):
                assert auto - 1e-3 <= mine <= auto + SLACK + 1 / 64 + 1e-3, (
                    t.key,
                    columns,
                    layout.columns,
                )
        else:  # filling the page: the same share-out within a few px
            assert layout.width == pytest.approx(available)
            assert max(abs(a - b) for a, b in zip(columns, layout.columns)) < 4, (
                t.key,
                columns,
                layout.columns,
            )


def test_the_fixed_layout_is_what_weasyprint_then_uses(themed):
    """Given the widths, WeasyPrint's fixed layout keeps them (so the page is as computed)."""
    theme, folder, measure = themed
    tables = _tables()
    layouts = {t.key: table_layout(t, measure) for t in tables}
    fixed = _laid_out(folder, theme, tables, lambda t: layouts[t.key])
    for t, (width, columns) in zip(tables, fixed):
        assert width == pytest.approx(layouts[t.key].width, abs=1e-3)
        assert columns == pytest.approx(list(layouts[t.key].columns), abs=1e-3)


def test_a_column_of_long_text_wraps_and_the_table_fills_the_page(themed):
    _, _, measure = themed
    wrap = next(t for t in _tables() if t.key == "wrap")
    layout = table_layout(wrap, measure)
    assert layout.width == pytest.approx(PAGE_CONTENT_PX[wrap.wide])
    assert layout.columns[0] < 60  # "x" and its header keep their natural width


def test_a_theme_of_the_project_gets_the_automatic_layout(tmp_path):
    own = tmp_path / "themes" / "mine"
    shutil.copytree(paths.themes_dir() / "default", own)
    copy_theme(own, tmp_path / "out")
    assert measurer_for(own, paths.themes_dir(), tmp_path / "out" / "assets", object()) is None


def test_theme_families_take_the_last_declaration(tmp_path):
    (tmp_path / "a.css").write_text(
        ':root { --font-body: "Noto Sans", Arial, sans-serif; --font-mono: monospace; }'
    )
    (tmp_path / "b.css").write_text(":root { --font-body: 'DejaVu Serif', serif; }")
    found = theme_families([tmp_path / "a.css", tmp_path / "b.css"])
    assert found == {"body": ["DejaVu Serif", "serif"], "mono": ["monospace"]}


def test_layout_styles():
    layout = Layout(width=100.0, columns=(40.0, 60.0))
    assert layout.table_style == "table-layout: fixed; width: 100.0000px"
    assert layout.column_styles() == ["width: 40.0000px", "width: 60.0000px"]


def test_the_switch_and_the_version_guard_turn_the_fixed_layout_off(tmp_path, monkeypatch, caplog):
    """report.pdf's tables get fixed widths only while the speedup is active: CCREPORT_SPEEDUPS=0,
    or a WeasyPrint it was not written for, gives WeasyPrint's automatic layout (no function), with
    a debug note."""
    import logging
    from types import SimpleNamespace

    from weasyprint.text.fonts import FontConfiguration

    from ccreport import speedups
    from ccreport.render.pdf import table_layouts

    theme = paths.themes_dir() / "default"
    copy_theme(theme, tmp_path)
    site, options = SimpleNamespace(theme=theme), {"font_config": FontConfiguration()}
    monkeypatch.delenv(speedups.SWITCH, raising=False)
    layout_of = table_layouts(site, tmp_path, options)
    assert layout_of is not None and layout_of(_tables()[0]).table_style.startswith(
        "table-layout: fixed"
    )
    monkeypatch.setenv(speedups.SWITCH, "0")
    assert table_layouts(site, tmp_path, options) is None
    monkeypatch.delenv(speedups.SWITCH)
    monkeypatch.setattr("ccreport.speedups.table_widths.WRITTEN_FOR", ("69",))
    with caplog.at_level(logging.DEBUG, logger="ccreport.speedups"):
        assert table_layouts(site, tmp_path, options) is None
    assert "table_widths is off" in caplog.text
