"""report.pdf's tables on WeasyPrint's fixed layout with column widths ccreport measures
(:mod:`ccreport.render.column_widths`), against WeasyPrint's own automatic layout.

WeasyPrint is the oracle: a text's width is read from the positions of empty anchors around it
(``Page.anchors``, CSS px), a table's columns from its header cells' anchors and its height from
an anchor after it. A measured table must lay out as the automatic layout does: the same height (no
cell wrapped otherwise); at its maximum widths no column narrower (a cell would wrap) and none
wider by more than the margin; with the page's width shared out, each column within 2 mm.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import weasyprint

from ccreport import paths
from ccreport.render import column_widths as cw
from ccreport.render import tables as tb
from ccreport.render.site import make_environment

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

DEFAULT = paths.themes_dir() / paths.DEFAULT_THEME
FONTS = cw.theme_fonts(DEFAULT, DEFAULT)
SIZE_PX = 20.0

needs_fonts = pytest.mark.skipif(FONTS is None, reason="the default theme's fonts are not here")


def weasy_widths(runs: list[tuple[str, str]]) -> list[float]:
    """Each text's width (CSS px) as WeasyPrint sets it on one line in the default theme's body
    font at :data:`SIZE_PX`; ``runs``: (text, CSS of its span)."""
    css = (DEFAULT / "style.css").read_text(encoding="utf-8")
    spans = "".join(
        f'<p><span id="a{i}"></span><span style="{style}">{text}</span><span id="b{i}"></span></p>'
        for i, (text, style) in enumerate(runs)
    )
    page = f"<style>{css} p {{ white-space: nowrap; font-size: {SIZE_PX}px }}</style>{spans}"
    anchors = {}
    for rendered in weasyprint.HTML(string=page).render().pages:
        anchors.update(rendered.anchors)
    return [anchors[f"b{i}"][0] - anchors[f"a{i}"][0] for i in range(len(runs))]


TEXTS = [
    "Linear SVM",
    "AVATAR Te To Yo",  # kerning pairs
    "E[cost] (90%)",
    "0.1234",
    "[0.0812, 0.1561]",
    "p\u00a0\u2264\u00a02/1001",
    "\u2014",
    "tied with logistic, naive_bayes",
    "PC(+) \u2208 [0.25, 0.75]",
    "\u2020 \u2605",
]


@needs_fonts
def test_text_widths_within_the_margin_of_weasyprint():
    """Every text, regular, bold, italic and monospace, measured from advance widths lies at or
    below WeasyPrint's width plus the margin, and the margin is not much more than needed."""
    cases = []
    for text in TEXTS:
        for bold, italic, mono in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1)]:
            style = ("font-weight: 700;" if bold else "") + (
                "font-style: italic;" if italic else ""
            )
            if mono:
                style += "font-family: var(--font-mono)"
            ours = FONTS.width(text, bool(bold), bool(italic), bool(mono))
            assert ours is not None, text
            cases.append((text, style, ours))
    actual = weasy_widths([(t, s) for t, s, _ in cases])
    for (text, style, ours), px in zip(cases, actual):
        column = (ours * (1 + cw.MARGIN_REL) + cw.MARGIN_EM) * SIZE_PX
        assert px <= column, (text, style, px, ours * SIZE_PX)
        assert column - px <= 0.01 * px + 0.1 * SIZE_PX, (text, style, px, column)


@needs_fonts
def test_a_character_outside_the_font_leaves_the_automatic_layout():
    t = tb.Table("t", "T.", ["Classifier", "Cost"], [[tb.text("a"), tb.num(0.5, 3)]])
    assert cw.column_widths(t, FONTS) is not None
    t.rows[0][0] = tb.text("\u6f22")  # not in DejaVu Sans: Pango would take another font
    assert cw.column_widths(t, FONTS) is None


@needs_fonts
def test_a_table_too_wide_for_its_page_shares_the_page_out():
    """Maximum widths past the page's text width: the columns fill the page exactly, each between
    its minimum and maximum width; past the minimum widths, None (the automatic layout)."""
    header = "Expected cost under the prior"
    box = cw.print_box()
    mm = cw.MM_PER_PT * box.font_pt
    for n in range(1, 60):
        t = tb.Table("t", "T.", ["Classifier"] + [f"{header} {j}" for j in range(n)])
        t.rows.append([tb.text("a")] + [tb.num(0.5, 4) for _ in range(n)])
        widths = cw.column_widths(t, FONTS)
        if widths is None:
            break
        used = sum(w * mm + 2 * box.padding_mm for w in widths)
        if used > box.page_mm - 1e-9:  # shared out: the page's width, none below its minimum
            assert used == pytest.approx(box.page_mm)
            assert widths[1] >= FONTS.width("Expected", True) - 1e-9
            assert widths[1] <= FONTS.width(f"{header} 0", True) + 1e-9
    assert 1 < n < 59
    widest = max(FONTS.width("Expected", True), FONTS.width("0.5000"))
    lows = [FONTS.width("Classifier", True)] + [widest] * n
    assert not box.fits(lows)


def test_the_print_boxes_are_report_css():
    """print_box's type sizes, paddings and page widths are the rules of the default report.css."""
    css = (DEFAULT / "report.css").read_text(encoding="utf-8")
    rules = {
        "table { font-size: 8pt": cw.print_box().font_pt == 8.0,
        "th, td { padding: 1mm 2mm; }": cw.print_box().padding_mm == 2.0,
        ".compact table { font-size: 7.2pt; }": cw.print_box(compact=True).font_pt == 7.2,
        ".compact th, .compact td { padding: 0.8mm 1.4mm; }": (
            cw.print_box(compact=True).padding_mm == 1.4
        ),
        ".table-figure.wide table { font-size: 6.3pt;": cw.print_box("wide").font_pt == 6.3,
        ".table-figure.wide th, .table-figure.wide td { padding: 0.4mm 1.2mm; }": (
            cw.print_box("wide").padding_mm == 1.2
        ),
        ".table-figure.wide-short table { font-size: 6.8pt; }": (
            cw.print_box("wide-short").font_pt == 6.8
        ),
        ".table-figure.wide-short th, .table-figure.wide-short td { padding: 0.6mm 1.1mm; }": (
            cw.print_box("wide-short").padding_mm == 1.1
        ),
        ".chapter-part-appendix .table-figure:not(.wide) table { font-size: 6.8pt;": (
            cw.print_box(appendix=True).font_pt == 6.8
        ),
        ".chapter-part-appendix th, .chapter-part-appendix td { padding: 0.35mm 1.2mm; }": (
            cw.print_box(appendix=True).padding_mm == 1.2
        ),
        "margin: 16mm 18mm 15mm 18mm;": cw.PORTRAIT_MM == 210 - 2 * 18,
        "@page landscape { size: A4 landscape; margin: 15mm 18mm 14mm 18mm; }": (
            cw.LANDSCAPE_MM == 297 - 2 * 18
        ),
        "table.measured { table-layout: fixed; width: 0; }": True,
        "table.measured thead th { box-sizing: content-box; }": True,
    }
    for rule, agrees in rules.items():
        assert rule in css and agrees, rule


def cell_kinds_table(n_rows: int = 4, long_notes: bool = True) -> tb.Table:
    """A table with every kind of cell ``cell_body`` prints: a linked row header, a best value
    with its mark, an interval note, a range note, a monospace cell, nowrap interval parts."""
    t = tb.Table(
        "kinds",
        "Kinds.",
        ["Classifier", "Expected cost", "Spread over folds", "Digest", "Operating range"],
    )
    for i in range(n_rows):
        best = tb.num(0.1234 + i, 4, note=tb.interval(0.08, 0.16, 4) if long_notes else "")
        best.best = i == 0
        spread = tb.num(0.2, 3, note="0.180\u20130.240", note_class="range")
        t.rows.append(
            [
                tb.text(f"classifier_{i}", href="#x"),
                best,
                spread,
                tb.text("a3f9c0d2e1", mono=True),
                tb.interval_cell([(0.1, 0.3), (0.5, 0.9 - 0.1 * i)]),
            ]
        )
    return t


def with_column_ids(html: str, prefix: str) -> str:
    """The header cells of a table's HTML given ids ``prefix0``, ``prefix1``, ... (anchors)."""
    parts = html.split('<th scope="col"')
    return parts[0] + "".join(
        f'<th scope="col" id="{prefix}{j}"{rest}' for j, rest in enumerate(parts[1:])
    )


def layouts(tables: list[tuple[tb.Table, str, str]], measured: bool) -> dict:
    """Each table's column edges and height (CSS px), laid out by WeasyPrint in the default
    theme's report stylesheets, each on a page of its own (tall, so nothing breaks); ``tables``:
    (table, kind class, part)."""
    env = make_environment(None, DEFAULT)
    macro = env.from_string('{% import "macros.html" as m with context %}{{ m.table(t) }}')
    widths = cw.table_widths_for(DEFAULT, DEFAULT) if measured else None
    body = []
    for k, (t, _, part) in enumerate(tables):
        html = macro.render(t=t, print=True, part=part, table_widths=widths)
        html = with_column_ids(html, f"t{k}c")
        body.append(
            f'<section class="chapter chapter-part-{part}" style="break-before: page">'
            f'<p id="t{k}top">.</p>{html}<p id="t{k}end">.</p></section>'
        )
    css = "".join(
        f"<style>{(DEFAULT / name).read_text(encoding='utf-8')}</style>"
        for name in ("style.css", "theme.css", "report.css")
    )
    tall = (
        "<style>@page { size: 210mm 3000mm } @page chapter { size: 210mm 3000mm }"
        " @page landscape { size: 297mm 3000mm }</style>"
    )
    doc = weasyprint.HTML(string=f"{css}{tall}<body class='report'>{''.join(body)}</body>").render()
    anchors = {}
    for page in doc.pages:
        anchors.update(page.anchors)
    out = {}
    for k, (t, _, _) in enumerate(tables):
        edges = [anchors[f"t{k}c{j}"][0] for j in range(len(t.columns))]
        out[k] = (edges, anchors[f"t{k}end"][1] - anchors[f"t{k}top"][1])
    return out


def assert_same_layout(tables: list[tuple[tb.Table, str, str]]) -> int:
    """Measured and automatic layouts of ``tables`` agree (module docstring); the count of tables
    measured."""
    auto, fixed = layouts(tables, False), layouts(tables, True)
    widths = cw.table_widths_for(DEFAULT, DEFAULT)
    measured = 0
    for k, (t, kind, part) in enumerate(tables):
        if widths(t, kind, part) is None:
            assert auto[k] == fixed[k], t.key  # not measured: the same automatic layout
            continue
        measured += 1
        (a_edges, a_height), (f_edges, f_height) = auto[k], fixed[k]
        assert f_height == pytest.approx(a_height, abs=0.01), (t.key, part)
        box = cw.print_box(kind, part == "appendix", t.compact)
        em = box.font_pt * 96 / 72
        ems = [float(w[:-2]) for w in widths(t, kind, part)]
        shared = not box.fits([w + 0.002 for w in ems])  # the page's width shared out
        for j in range(len(t.columns) - 1):
            a, f = a_edges[j + 1] - a_edges[j], f_edges[j + 1] - f_edges[j]
            if shared:  # between minimum and maximum widths: within 2 mm of the automatic
                assert abs(f - a) <= 2 * 96 / 25.4, (t.key, part, j, a, f)
            else:  # maximum widths: none narrower, none wider than the margin
                upper = a * (1 + 2 * cw.MARGIN_REL) + 2 * cw.MARGIN_EM * em
                assert a - 0.01 <= f <= upper, (t.key, part, j, a, f)
    return measured


@needs_fonts
def test_every_kind_of_cell_lays_out_as_the_automatic_layout():
    tables = [
        (cell_kinds_table(4, True), "", "body"),
        (cell_kinds_table(4, True), "", "appendix"),
        (cell_kinds_table(3, False), "", "body"),
    ]
    compact = cell_kinds_table(2, False)
    compact.compact = True
    tables.append((compact, "", "body"))
    assert assert_same_layout(tables) == len(tables)


@needs_fonts
def test_the_example_tables_lay_out_as_the_automatic_layout():
    """Every table of the example, in the body and in the appendix: measured ones as the
    automatic layout lays them out; most of them measured."""
    from test_table_print_layout import numbered_tables

    tables = []
    for t in numbered_tables().values():
        kind = ("wide" if len(t.rows) >= 10 else "wide-short") if t.wide else ""
        tables += [(t, kind, "body"), (t, kind, "appendix")]
    measured = assert_same_layout(tables)
    assert measured >= len(tables) // 2, measured


def test_the_site_pages_have_no_measured_tables():
    """The widths are report.pdf's alone: the site's table markup has no width and no class."""
    env = make_environment(None, DEFAULT)
    macro = env.from_string('{% import "macros.html" as m with context %}{{ m.table(t) }}')
    html = macro.render(t=cell_kinds_table(), print=False, table_widths=lambda *a: ["1em"] * 5)
    assert "<table>" in html and "measured" not in html and "width:" not in html


def test_a_theme_with_its_own_report_css_keeps_the_automatic_layout(tmp_path):
    (tmp_path / "report.css").write_text("table { font-size: 12pt }", encoding="utf-8")
    widths = cw.table_widths_for(tmp_path, DEFAULT)
    assert widths(cell_kinds_table(), "", "body") is None


def test_pieces_break_where_a_line_may_break():
    """After spaces and after a hyphen or dash before a letter; never at a no-break space, in a
    number or before a digit."""
    assert cw.pieces("german-5to1-uncertain") == ["german-5to1-", "uncertain"]
    assert cw.pieces("p\u00a0\u2264\u00a02/1001") == ["p\u00a0\u2264\u00a02/1001"]
    assert cw.pieces("tied with  logreg, knn") == ["tied", "with", "logreg,", "knn"]
    assert cw.pieces("Significantly cheaper on (family-wise)") == [
        "Significantly",
        "cheaper",
        "on",
        "(family-",
        "wise)",
    ]
    assert cw.pieces("-0.0591") == ["-0.0591"]
    assert cw.pieces("E[A] \u2212 E[B]") == ["E[A]", "\u2212", "E[B]"]
    assert cw.pieces("") == []


def test_sharing_out_fills_the_page_between_minimum_and_maximum_widths():
    """CSS Tables 3's distribution: each column its minimum plus the same fraction of what its
    maximum adds, the columns and paddings filling the page's text width exactly."""
    box = cw.PrintBox(font_pt=8.0, padding_mm=2.0, page_mm=100.0)
    em = 8.0 * 25.4 / 72  # mm
    lows, highs = [4.0, 10.0, 2.0], [30.0, 10.0, 12.0]
    widths = box.share(lows, highs)
    # the fraction worked by hand: (100 - 12 - 16 em) / (36 em) of each column's range
    fraction = (100.0 - 12.0 - 16.0 * em) / (36.0 * em)
    assert widths == pytest.approx([4 + 26 * fraction, 10.0, 2 + 10 * fraction])
    assert sum(w * em + 4.0 for w in widths) == pytest.approx(100.0)


@needs_fonts
def test_a_table_of_unbreakable_columns_past_its_margin_keeps_the_automatic_layout():
    """Numbers under one-word headers: every column one piece, its minimum its maximum. When
    those fit the page but not with the margin, there is nothing to share out: None."""
    assert cw.PrintBox(8.0, 2.0, 100.0).share([5.0, 3.0], [5.0, 3.0]) is None
    box = cw.print_box()
    for n in range(1, 60):
        t = tb.Table("t", "T.", ["a"] + ["Cost"] * n)
        t.rows.append([tb.text("a")] + [tb.num(0.5, 4) for _ in range(n)])
        highs = [FONTS.width("a", True)] + [
            max(FONTS.width("Cost", True), FONTS.width("0.5000"))
        ] * n
        margined = [w * (1 + cw.MARGIN_REL) + cw.MARGIN_EM for w in highs]
        if box.fits(highs) and not box.fits(margined):
            assert cw.column_widths(t, FONTS) is None
            break
    else:
        pytest.fail("no column count falls between the widths with and without the margin")
