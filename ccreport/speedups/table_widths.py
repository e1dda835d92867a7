"""Replaces WeasyPrint's automatic table layout pass (through its cffi Pango bindings) in
report.pdf; saves ~1 CPU s.

Column widths of report.pdf's tables, computed once, so WeasyPrint lays them out with its fixed
layout. With the speedup off (``CCREPORT_SPEEDUPS=0``, or a WeasyPrint other than
:data:`WRITTEN_FOR`) the tables get WeasyPrint's automatic layout; only report.pdf is affected,
never the site's pages.

WeasyPrint's automatic table layout (CSS 2.1 section 17.5.2.2) finds every cell's minimum and
maximum content width by breaking its text into lines at every opportunity, a Python walk over
boxes per cell: on the example, 1.3 of report.pdf's 7 CPU s for 53 tables (benchmarks/README.md,
"Fixed-layout PDF tables, session 11"). Given each column's width and the table's
(``<table style="table-layout: fixed; width: W">`` and a ``<colgroup>``), it skips that pass
(CSS 2.1 section 17.5.2.1). This module gives those widths, computed the way the automatic layout
computes them, from the Table model (:mod:`ccreport.render.tables`) and text measured by Pango, the
library WeasyPrint measures text with, in the same font map:

* a cell's **maximum content width**: its content on one line (a row header and a numeric cell,
  ``white-space: nowrap``, always are), plus the cell's horizontal padding; where notes sit on a
  line of their own (``long-notes`` tables), the wider of the value's line and the note's;
* its **minimum content width**: the widest piece that cannot be broken (a word; a whole
  ``nowrap`` cell; an interval, joined by no-break spaces), plus padding;
* per column, the largest of its cells' (the maximum never below the minimum); then the automatic
  algorithm: with ``m_j``/``M_j`` the column minima and maxima and ``A`` the page's content width,
  a table whose ``sum M_j <= A`` gets ``w_j = M_j`` and width ``sum M_j``; otherwise
  ``w_j = m_j + (M_j - m_j) (A - sum m_j) / (sum M_j - sum m_j)`` and width ``A`` (or ``m_j`` and
  ``sum m_j`` when even the minima do not fit): WeasyPrint's ``auto_table_layout`` without
  percentages or specified widths, which the report's tables never have.

What the widths assume of the CSS is :class:`TableCss`, read from report.css and style.css of the
default theme (font sizes in pt, paddings in mm, bold headers, notes at 0.86 em): only the built-in
themes are laid out this way (:func:`measurer_for`); a project's own theme or template gets
WeasyPrint's automatic layout, as before. Where every cell fits on one line, each column's width is
rounded up to 1/64 px and given up to :data:`SLACK` px more (as much as the page leaves), so a
measurement rounded down never wraps a cell the automatic layout kept on one line; a table that
fills the page fills exactly its width, as the automatic layout's does.
``tests/test_table_widths.py`` compares the widths with WeasyPrint's own automatic layout of the
example's tables under both built-in themes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from ..render.tables import Cell, Table

PX_PER_PT = 96 / 72
PX_PER_MM = 96 / 25.4
SLACK = 0.5  # px added to every column: a rounded-down measurement must not wrap a cell
NBSP = "\u00a0"
WRITTEN_FOR = (
    "70",
)  # WeasyPrint versions whose Pango bindings (weasyprint.text.ffi) this was written against


@dataclass(frozen=True)
class TableCss:
    """What report.css and style.css give a table in the PDF (CSS px; weights as CSS numbers)."""

    font_px: float  # td, th
    padding_px: float  # left + right padding of a cell
    header_weight: int = 700  # thead th
    row_header_weight: int = 600  # th[scope=row]
    note_em: float = 0.86  # .cell-note
    code_em: float = 0.88  # code (monospace)
    strong_padding_em: float = 0.3  # td strong: 0.15em on each side
    best_mark_margin_em: float = 0.15  # .best-mark margin-left
    range_letter_spacing_em: float = 0.01  # .cell-note.range


REGULAR = TableCss(font_px=8 * PX_PER_PT, padding_px=2 * 2 * PX_PER_MM)
COMPACT = TableCss(font_px=7.2 * PX_PER_PT, padding_px=2 * 1.4 * PX_PER_MM)
PAGE_CONTENT_PX = {
    False: (210 - 2 * 18) * PX_PER_MM,
    True: (297 - 2 * 18) * PX_PER_MM,
}  # portrait, landscape


@dataclass(frozen=True)
class Layout:
    """A table's fixed layout: its width and its columns' (CSS px)."""

    width: float
    columns: tuple[float, ...]

    @property
    def table_style(self) -> str:
        return f"table-layout: fixed; width: {self.width:.4f}px"

    def column_styles(self) -> list[str]:
        return [f"width: {w:.4f}px" for w in self.columns]


class PangoMeasure:
    """Widths of text on one line, in CSS px, measured by Pango in WeasyPrint's font map.

    ``families``: the CSS font-family list of body text, ``mono``: of code. One Pango layout per
    font (family, weight, style, size), reused for every text; each text measured once.
    """

    def __init__(self, font_map, families: list[str], mono: list[str]):
        from weasyprint.text.ffi import FROM_UNITS, TO_UNITS, ffi, gobject, pango

        self._ffi, self._pango, self._from_units, self._to_units = ffi, pango, FROM_UNITS, TO_UNITS
        context = ffi.gc(pango.pango_font_map_create_context(font_map), gobject.g_object_unref)
        pango.pango_context_set_round_glyph_positions(context, False)
        self._context = context
        self._gobject = gobject
        self._families = {False: ",".join(families).encode(), True: ",".join(mono).encode()}
        self._layouts: dict = {}
        self._widths: dict = {}
        self._pieces: dict = {}
        self._rect = ffi.new("PangoRectangle *")

    def _layout_of(self, text: str, weight: int, italic: bool, size_px: float, mono: bool):
        """The Pango layout of the font (one per font, kept), holding ``text``."""
        key = (weight, italic, size_px, mono)
        layout = self._layouts.get(key)
        if layout is None:
            ffi, pango = self._ffi, self._pango
            description = ffi.gc(
                pango.pango_font_description_new(), pango.pango_font_description_free
            )
            pango.pango_font_description_set_family(description, self._families[mono])
            pango.pango_font_description_set_style(
                description, pango.PANGO_STYLE_ITALIC if italic else pango.PANGO_STYLE_NORMAL
            )
            pango.pango_font_description_set_weight(description, weight)
            pango.pango_font_description_set_absolute_size(
                description, int(size_px * self._to_units)
            )
            layout = ffi.gc(pango.pango_layout_new(self._context), self._gobject.g_object_unref)
            pango.pango_layout_set_auto_dir(layout, False)
            pango.pango_layout_set_font_description(layout, description)
            self._layouts[key] = layout
        data = text.encode()
        self._pango.pango_layout_set_text(layout, data, len(data))
        return layout

    def pieces(
        self,
        text: str,
        weight: int = 400,
        italic: bool = False,
        size_px: float = 12.0,
        mono: bool = False,
    ) -> list[str]:
        """``text`` cut where Pango may break a line (after spaces, after hyphens, ...: UAX #14, as
        WeasyPrint breaks), each piece without its trailing spaces."""
        key = (text, weight, italic, size_px, mono)
        found = self._pieces.get(key)
        if found is not None:
            return found
        layout = self._layout_of(text, weight, italic, size_px, mono)
        count = self._ffi.new("gint *")
        attrs = self._pango.pango_layout_get_log_attrs_readonly(layout, count)
        cuts = [i for i in range(1, min(count[0], len(text) + 1) - 1) if attrs[i].is_line_break]
        pieces = [text[a:b].rstrip(" ") for a, b in zip([0, *cuts], [*cuts, len(text)])]
        pieces = [piece for piece in pieces if piece]
        self._pieces[key] = pieces
        return pieces

    def width(
        self,
        text: str,
        weight: int = 400,
        italic: bool = False,
        size_px: float = 12.0,
        mono: bool = False,
    ) -> float:
        key = (text, weight, italic, size_px, mono)
        found = self._widths.get(key)
        if found is not None:
            return found
        if not text:
            self._widths[key] = 0.0
            return 0.0
        layout = self._layout_of(text, weight, italic, size_px, mono)
        line = self._pango.pango_layout_get_line_readonly(layout, 0)
        self._pango.pango_layout_line_get_extents(line, self._ffi.NULL, self._rect)
        width = self._rect.width * self._from_units
        self._widths[key] = width
        return width


@dataclass(frozen=True)
class _Run:
    """Inline text of one font: ``text`` (spaces break it unless ``nowrap``), its font and extra
    width on each side (padding, margin)."""

    text: str
    weight: int
    size_px: float
    italic: bool = False
    mono: bool = False
    nowrap: bool = False
    extra: float = 0.0
    letter_spacing: float = 0.0


def _cell_runs(cell: Cell, css: TableCss, weight: int) -> tuple[list[_Run], list[_Run]]:
    """The value's runs and the note's runs of a cell (macros.html's ``cell_body``)."""
    size = css.font_px
    runs: list[_Run] = []
    if cell.parts:
        for i, part in enumerate(cell.parts):
            runs.append(
                _Run(part + ("," if i < len(cell.parts) - 1 else ""), weight, size, nowrap=True)
            )
    elif cell.mono:
        runs.append(_Run(cell.text, weight, size * css.code_em, mono=True))
    elif cell.best:
        runs.append(_Run(cell.text, max(weight, 700), size, extra=css.strong_padding_em * size))
    else:
        runs.append(_Run(cell.text, weight, size))
    if cell.best:
        runs.append(
            _Run(cell.mark, weight, size, nowrap=True, extra=css.best_mark_margin_em * size)
        )
    note: list[_Run] = []
    if cell.note:
        size_note = size * css.note_em
        spread = "range" in cell.note_class.split()  # .cell-note.range: italic, spaced out
        spacing = css.range_letter_spacing_em * size_note if spread else 0.0
        note.append(_Run(cell.note, weight, size_note, italic=spread, letter_spacing=spacing))
    return runs, note


def _line_width(runs: list[_Run], measure: PangoMeasure, space: _Run | None = None) -> float:
    """Runs on one line, a space in the cell's own font (``space``; else the first run's) between
    consecutive runs, as macros.html puts one between the value, the mark and the note."""
    space = space or (runs[0] if runs else None)
    total = 0.0
    for i, run in enumerate(runs):
        total += _text_width(run, run.text, measure)
        if i:
            total += measure.width(" ", space.weight, space.italic, space.size_px, space.mono)
    return total


def _text_width(run: _Run, text: str, measure: PangoMeasure) -> float:
    return (
        measure.width(text, run.weight, run.italic, run.size_px, run.mono)
        + run.extra
        + run.letter_spacing * len(text)
    )


def _widest_piece(runs: list[_Run], measure: PangoMeasure) -> float:
    """The widest piece a line may not be broken inside: a whole run when it is ``nowrap``, else
    each piece between Pango's break opportunities (no-break spaces do not break)."""
    widest = 0.0
    for run in runs:
        pieces = (
            [run.text]
            if run.nowrap
            else measure.pieces(run.text, run.weight, run.italic, run.size_px, run.mono)
        )
        for piece in pieces:
            widest = max(widest, _text_width(run, piece, measure))
    return widest


def cell_extents(
    cell: Cell,
    css: TableCss,
    measure: PangoMeasure,
    *,
    weight: int,
    nowrap: bool,
    notes_below: bool,
    note_nowrap: bool,
) -> tuple[float, float]:
    """(minimum, maximum) content width of one cell, padding included (module docstring)."""
    runs, note = _cell_runs(cell, css, weight)
    space = _Run(" ", weight, css.font_px)
    value_line = _line_width(runs, measure, space)
    if not note:
        widest = value_line if nowrap else _widest_piece(runs, measure)
        return widest + css.padding_px, value_line + css.padding_px
    if notes_below:  # the note is a block of its own under the value
        note_line = _line_width(note, measure)
        maximum = max(value_line, note_line)
        minimum = max(
            value_line if nowrap else _widest_piece(runs, measure),
            note_line if note_nowrap else _widest_piece(note, measure),
        )
        return minimum + css.padding_px, maximum + css.padding_px
    line = _line_width(runs + note, measure, space)
    minimum = line if nowrap else max(_widest_piece(runs, measure), _widest_piece(note, measure))
    return minimum + css.padding_px, line + css.padding_px


def table_layout(table: Table, measure: PangoMeasure) -> Layout:
    """The fixed layout reproducing the automatic one for ``table`` as macros.html prints it."""
    css = COMPACT if table.compact else REGULAR
    long_notes = table.long_notes
    n = len(table.columns)
    lo = [0.0] * n
    hi = [0.0] * n
    for j, name in enumerate(table.columns):
        header = Cell(name)
        lo[j], hi[j] = cell_extents(
            header,
            css,
            measure,
            weight=css.header_weight,
            nowrap=False,
            notes_below=False,
            note_nowrap=False,
        )
    for row in table.rows:
        for j, cell in enumerate(row[:n]):
            if j == 0:  # th scope=row: nowrap, semibold (its note inherits nowrap)
                extents = cell_extents(
                    cell,
                    css,
                    measure,
                    weight=css.row_header_weight,
                    nowrap=True,
                    notes_below=long_notes,
                    note_nowrap=True,
                )
            else:  # td; td.num is nowrap, but a note below it wraps (style.css)
                extents = cell_extents(
                    cell,
                    css,
                    measure,
                    weight=400,
                    nowrap=cell.numeric,
                    notes_below=long_notes,
                    note_nowrap=False,
                )
            lo[j] = max(lo[j], extents[0])
            hi[j] = max(hi[j], extents[1])
    hi = [max(a, b) for a, b in zip(lo, hi)]
    available = PAGE_CONTENT_PX[table.wide]
    low, high = sum(lo), sum(hi)
    if high <= available:  # every cell on one line: the table as wide as its content, plus slack
        slack = min(SLACK, (available - high) / n) if n else 0.0
        widths = [math.ceil(w * 64) / 64 + slack for w in hi]
        if sum(widths) > available:  # the rounding up must not push it past the page either
            widths = [w + slack for w in hi]
    elif low >= available:
        widths = lo
    else:
        # the page's width, shared out in proportion to what each column would take beyond its
        # minimum
        ratio = (available - low) / (high - low)
        widths = [a + (b - a) * ratio for a, b in zip(lo, hi)]
    return Layout(width=sum(widths), columns=tuple(widths))


_VARIABLE = re.compile(r"--font-(body|mono)\s*:\s*([^;]+);")


def theme_families(css_files: list[Path]) -> dict[str, list[str]]:
    """The last ``--font-body`` and ``--font-mono`` declared in the stylesheets, in order, as
    font-family lists (quotes removed)."""
    found: dict[str, list[str]] = {}
    for path in css_files:
        for kind, value in _VARIABLE.findall(path.read_text(encoding="utf-8")):
            found[kind] = [name.strip().strip("\"'") for name in value.split(",") if name.strip()]
    return found


def measurer_for(theme: Path, builtin_themes: Path, assets: Path, font_map) -> PangoMeasure | None:
    """A measure for the PDF's tables, or None (automatic layout) when the theme is not one of
    the built-in themes, whose CSS :class:`TableCss` describes, or its fonts cannot be read."""
    if Path(theme).resolve().parent != Path(builtin_themes).resolve():
        return None
    families = theme_families(
        [assets / name for name in ("style.css", "theme.css") if (assets / name).is_file()]
    )
    if "body" not in families or "mono" not in families:
        return None
    try:
        return PangoMeasure(font_map, families["body"], families["mono"])
    except (
        ImportError,
        AttributeError,
    ):  # pragma: no cover - WeasyPrint's Pango bindings moved: the automatic layout
        return None
