"""Column widths of report.pdf's tables from the font's advance widths: WeasyPrint's fixed layout
in place of its automatic one.

WeasyPrint's automatic table layout (CSS 2.1 section 17.5.2.2) finds every cell's minimum and
maximum content width by shaping its text, a walk over boxes per cell. A table whose maximum
content widths fit its page gets exactly those (the table is as wide as its content, every cell on
one line), so when ccreport knows them it can give them: with ``table-layout: fixed`` and a table
``width`` that is not ``auto`` (report.css's ``table.measured``: ``width: 0``), the fixed layout
(CSS 2.1 section 17.5.2.1) takes each column's width from the first row's cells' ``width`` (plus
their padding) and widens the table to their sum, without measuring a word.

For a table of the :class:`~ccreport.render.tables.Table` model, as ``templates/macros.html``
prints it (``cell_body``), a cell's maximum content width w (in em of the table's type size, so
that the same widths hold at whatever size report.css sets the table) is the sum of its runs on
one line: the value (bold in a header cell and in ``<strong>``, whose 0.15 em side paddings are
added; monospace at 0.88 em in ``<code>``), a space, the best mark (0.15 em margin), a space, the
note at 0.86 em (italic with 0.01 em letter spacing for a ``range`` note); with notes on a line
of their own (``long-notes``) the wider of the value's line (with the space before the note, which
WeasyPrint counts) and the note's. Each run's width is
the sum of its characters' advance widths (fontTools, ``hmtx``) and kerning pairs (``kern``) over
the font's units per em.
The column's width is the largest of its cells', times ``1 + MARGIN_REL`` plus ``MARGIN_EM``:
shaping (kerning) moves a line by well under that (tests/render/test_column_widths.py compares
every cell of the example with WeasyPrint's own layout), so no cell wraps that the automatic
layout kept on one line.

A table whose maximum widths do not fit gets what the automatic layout gives it then (CSS Tables
3, width distribution, without percentages or specified widths): the page's text width shared
out, each column its minimum content width m_j plus the same share of M_j - m_j, with
w_j = m_j + (M_j - m_j) (A - sum m) / (sum M - sum m) (widths with paddings, A the page's text
width), from the best estimates of m_j and M_j (no margin: a margin would move width from one
column to another). A cell's minimum content width is its widest piece that cannot be broken
(:func:`pieces`; a number, a row header and the appendix's one-line notes are one piece each).

Returned None (the table keeps the automatic layout) when even the minimum widths do not fit the
page at the type and padding report.css gives that kind of table (:func:`print_box`), when the
maximum widths with the margin do not fit but every column is one unbreakable piece (nothing to
share out: :meth:`PrintBox.share`), when a character is not in the font (Pango would take
another font), or when the theme's fonts are not found as named (:func:`theme_fonts`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .tables import Cell, Table

MARGIN_REL = 0.005  # a column's width over its widest line, plus MARGIN_EM: shaping's leeway
MARGIN_EM = 0.08
MM_PER_PT = 25.4 / 72

# what themes/default/style.css gives the parts of a cell (em of the cell's type size)
NOTE_EM = 0.86  # .cell-note font-size
CODE_EM = 0.88  # code font-size
STRONG_PADDING_EM = 0.3  # td strong: padding 0 0.15em
MARK_MARGIN_EM = 0.15  # .best-mark margin-left
RANGE_SPACING_EM = 0.01  # .cell-note.range letter-spacing


@dataclass(frozen=True)
class PrintBox:
    """The largest type size (pt) and side padding (mm) report.css gives a kind of table, and the
    width (mm) of the page's text it must fit."""

    font_pt: float
    padding_mm: float
    page_mm: float

    def used_mm(self, widths_em: list[float]) -> float:
        """The width (mm) columns of these widths (em) take with their paddings."""
        return sum(w * self.font_pt * MM_PER_PT + 2 * self.padding_mm for w in widths_em)

    def share(self, lows: list[float], highs: list[float]) -> list[float] | None:
        """The page's width shared between columns of minimum and maximum widths ``lows`` and
        ``highs`` (em, no padding), each given its minimum plus the same share of what its
        maximum adds (CSS Tables 3's width distribution, without percentages or specified
        widths); the widths in em. None when the maxima add nothing to the minima (every column
        one unbreakable piece): there is nothing to share, and no margin to give."""
        low, high = self.used_mm(lows), self.used_mm(highs)
        if high <= low:
            return None
        ratio = (self.page_mm - low) / (high - low)
        return [a + (b - a) * ratio for a, b in zip(lows, highs)]

    def fits(self, widths_em: list[float]) -> bool:
        """Whether columns of these widths (em) and their paddings fit the page's text width."""
        return self.used_mm(widths_em) <= self.page_mm


PORTRAIT_MM = 174.0  # themes/default/report.css: A4 less two 18 mm margins
LANDSCAPE_MM = 261.0  # A4 landscape less two 18 mm margins


def print_box(kind: str = "", appendix: bool = False, compact: bool = False) -> PrintBox:
    """The type size, padding and page width themes/default/report.css gives a table: a wide
    table (``kind`` ``"wide"``) on a landscape page at 6.3 pt, 1.2 mm; a wide-short one in
    portrait at 6.8 pt, 1.1 mm; the appendix's others at 6.8 pt, 1.2 mm; the body's at 8 pt, 2 mm
    (compact: 7.2 pt, 1.4 mm)."""
    if kind == "wide":
        return PrintBox(6.3, 1.2, LANDSCAPE_MM)
    if kind == "wide-short":
        return PrintBox(6.8, 1.1, PORTRAIT_MM)
    if appendix:
        return PrintBox(6.8, 1.2, PORTRAIT_MM)
    return PrintBox(7.2, 1.4, PORTRAIT_MM) if compact else PrintBox(8.0, 2.0, PORTRAIT_MM)


class Face:
    """One font file's advance widths and kerning pairs (its ``kern`` table, format 0), in em."""

    def __init__(self, path: str):
        from fontTools.ttLib import TTFont

        font = TTFont(path, lazy=True)
        units = font["head"].unitsPerEm
        metrics = font["hmtx"].metrics
        self.glyphs = font.getBestCmap()
        self.advances = {code: metrics[glyph][0] / units for code, glyph in self.glyphs.items()}
        self.kerning = {}
        if "kern" in font:
            for table in font["kern"].kernTables:
                pairs = getattr(table, "kernTable", None) or {}
                for pair, value in pairs.items():
                    self.kerning[pair] = self.kerning.get(pair, 0.0) + value / units
        font.close()

    def width(self, text: str) -> float | None:
        """``text``'s advance widths summed with its kerning pairs (em); None when a character is
        not in the font."""
        advances, glyphs, kerning = self.advances, self.glyphs, self.kerning
        total = 0.0
        previous = None
        for ch in text:
            advance = advances.get(ord(ch))
            if advance is None:
                return None
            glyph = glyphs[ord(ch)]
            total += advance + (kerning.get((previous, glyph), 0.0) if kerning else 0.0)
            previous = glyph
        return total


@dataclass(frozen=True)
class Fonts:
    """The faces a table's text is set in: body text by (bold, italic), monospace by bold."""

    body: dict
    mono: dict

    def width(self, text: str, bold=False, italic=False, mono=False) -> float | None:
        face = self.mono[bold] if mono else self.body[bold, italic]
        return face.width(text)


_VARIABLE = re.compile(r"--font-(body|mono)\s*:\s*([^;]+);")
GENERIC = {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui"}


def theme_families(css_files: list[Path]) -> dict[str, list[str]]:
    """The last ``--font-body`` and ``--font-mono`` the stylesheets declare, in their order, as
    lists of family names (quotes removed)."""
    found: dict[str, list[str]] = {}
    for path in css_files:
        if path.is_file():
            for kind, value in _VARIABLE.findall(path.read_text(encoding="utf-8")):
                names = [n.strip().strip("\"'") for n in value.split(",")]
                found[kind] = [n for n in names if n]
    return found


def _find(families: list[str], bold: bool, italic: bool) -> Face | None:
    """The face of the first installed family of ``families`` in that weight (bold: 600 or more,
    else 300-500, the nearest to 700 or 400) and style (italic or oblique, or upright), of normal
    width, among the fonts matplotlib lists (the system's, as fontconfig lists them, before
    matplotlib's own copies); None when no named family has it (a generic family, a synthesised
    bold or italic: what Pango would draw is not known)."""
    from matplotlib import font_manager as fm

    bundled = str(Path(fm.__file__).parent / "mpl-data")
    target = 700 if bold else 400
    for family in families:
        if family.lower() in GENERIC:
            continue
        found = [
            e
            for e in fm.fontManager.ttflist
            if e.name.lower() == family.lower()
            and e.stretch == "normal"
            and (e.style != "normal") == italic
            and isinstance(e.weight, int)
            and (e.weight >= 600 if bold else 300 <= e.weight <= 500)
        ]
        if found:
            best = min(
                found, key=lambda e: (abs(e.weight - target), e.fname.startswith(bundled), e.fname)
            )
            return Face(best.fname)
    return None


@lru_cache(maxsize=8)
def theme_fonts(theme: Path, default_theme: Path) -> Fonts | None:
    """The faces of the theme's ``--font-body`` and ``--font-mono`` (its own style.css and
    theme.css, else the default theme's, as the site's assets are laid over each other), or None
    when one is not found (:func:`_find`)."""
    css = [
        (Path(theme) / name) if (Path(theme) / name).is_file() else Path(default_theme) / name
        for name in ("style.css", "theme.css")
    ]
    families = theme_families(css)
    if "body" not in families or "mono" not in families:
        return None
    body = {(b, i): _find(families["body"], b, i) for b in (False, True) for i in (False, True)}
    mono = {b: _find(families["mono"], b, False) for b in (False, True)}
    if None in body.values() or None in mono.values():
        return None
    return Fonts(body, mono)


def cell_width(cell: Cell, fonts: Fonts, bold: bool, notes_below: bool) -> float | None:
    """A cell's maximum content width (em of the table's type), as ``cell_body`` prints it, or
    None when a character is not in the font. ``bold``: a header cell; ``notes_below``: the note
    on a line of its own (``.long-notes .cell-note { display: block }``)."""
    space = fonts.width(" ", bold)
    if cell.parts:
        value = fonts.width(", ".join(cell.parts), bold)
    elif cell.href:
        value = fonts.width(cell.text, bold)
    elif cell.mono:
        value = fonts.width(cell.text, bold, mono=True)
        value = None if value is None else CODE_EM * value
    elif cell.best:
        value = fonts.width(cell.text, True)
        value = None if value is None else value + STRONG_PADDING_EM
    else:
        value = fonts.width(cell.text, bold)
    if value is None or space is None:
        return None
    if cell.best:
        mark = fonts.width(cell.mark, bold)
        if mark is None:
            return None
        value += space + MARK_MARGIN_EM + mark
    if not cell.note:
        return value
    spread = "range" in cell.note_class.split()
    note = fonts.width(cell.note, bold, italic=spread)
    if note is None:
        return None
    note = NOTE_EM * (note + (RANGE_SPACING_EM * len(cell.note) if spread else 0.0))
    # a note set below its value: the value's line keeps the space before the note (WeasyPrint
    # counts it in the line's maximum content width)
    return max(value + space, note) if notes_below else value + space + note


_BREAK = re.compile(r"(?<= )(?=[^ ])|(?<=[-\u2013\u2014])(?=[^\d\s])")


def pieces(text: str) -> list[str]:
    """``text`` cut where a line may break (UAX #14 as it falls in the tables' text: after
    spaces, after a hyphen or a dash not before a digit; never at a no-break space), each piece
    without its trailing spaces."""
    return [p.rstrip(" ") for p in _BREAK.split(text) if p.strip(" ")]


def widest_piece(text: str, fonts: Fonts, bold=False, italic=False, mono=False) -> float | None:
    """The width (em) of ``text``'s widest :func:`pieces`; None when a character is not in the
    font."""
    widest = 0.0
    for piece in pieces(text):
        w = fonts.width(piece, bold, italic, mono)
        if w is None:
            return None
        widest = max(widest, w)
    return widest


def cell_min_width(
    cell: Cell, fonts: Fonts, value_nowrap: bool, notes_below: bool, note_nowrap: bool
) -> float | None:
    """A cell's minimum content width (em): its widest piece that cannot be broken. A ``nowrap``
    value (a number, a row header) is one piece, with its mark and an inline note; a note below
    its value wraps unless ``note_nowrap``."""
    if value_nowrap and not (cell.note and notes_below):
        return cell_width(cell, fonts, False, notes_below)
    if value_nowrap:
        plain = Cell(cell.text, parts=cell.parts, mono=cell.mono, best=cell.best, mark=cell.mark)
        value = cell_width(plain, fonts, False, False)
    elif cell.parts:
        last = len(cell.parts) - 1  # each part a nowrap span, the comma after it but the last's
        value = max(
            (
                fonts.width(p + ("," if i < last else "")) or math.inf
                for i, p in enumerate(cell.parts)
            ),
            default=0.0,
        )
    elif cell.mono:
        value = widest_piece(cell.text, fonts, mono=True)
        value = None if value is None else CODE_EM * value
    elif cell.best:
        value = widest_piece(cell.text, fonts, bold=True)
        value = None if value is None else value + STRONG_PADDING_EM
    else:
        value = widest_piece(cell.text, fonts)
    if value is None or not math.isfinite(value):
        return None
    if cell.best and not value_nowrap:
        mark = fonts.width(cell.mark)
        if mark is None:
            return None
        value = max(value, MARK_MARGIN_EM + mark)
    if not cell.note:
        return value
    spread = "range" in cell.note_class.split()
    if note_nowrap:
        note = fonts.width(cell.note, False, italic=spread)
    else:
        note = widest_piece(cell.note, fonts, italic=spread)
    if note is None:
        return None
    note = NOTE_EM * (note + (RANGE_SPACING_EM * len(cell.note) if spread else 0.0))
    return max(value, note)


def column_widths(
    table: Table,
    fonts: Fonts | None,
    kind: str = "",
    notes_inline: bool = False,
    appendix: bool = False,
    one_line_notes: bool = False,
) -> list[float] | None:
    """Each column's width (em of the table's type) for the fixed layout, or None for the
    automatic one (module docstring). ``kind``: ``""``, ``"wide"`` (a landscape page) or
    ``"wide-short"`` (:func:`print_box`); ``notes_inline``: long notes printed on their value's
    line in the data cells (the appendix's ``inline-notes`` tables); ``appendix``: the table is
    in an appendix chapter (set smaller)."""
    if fonts is None or not table.columns:
        return None
    highs, lows = [], []
    for j, name in enumerate(table.columns):
        high = fonts.width(name, True)
        low = widest_piece(name, fonts, bold=True)
        if high is None or low is None:
            return None
        # report.css sets inline notes in the data cells (td) only: a row header's stays below
        notes_below = table.long_notes and (j == 0 or not notes_inline)
        for row in table.rows:
            cell = row[j]
            w = cell_width(cell, fonts, bold=j == 0, notes_below=notes_below)
            if j == 0:
                m = w
            else:
                m = cell_min_width(
                    cell,
                    fonts,
                    value_nowrap=cell.numeric,
                    notes_below=notes_below,
                    note_nowrap=notes_inline
                    or not (cell.numeric and table.long_notes)
                    or (one_line_notes and cell.numeric),
                )
            if w is None or m is None:
                return None
            high, low = max(high, w), max(low, m)
        highs.append(high)
        lows.append(low)
    box = print_box(kind, appendix, table.compact)
    margined = [w * (1 + MARGIN_REL) + MARGIN_EM for w in highs]
    if box.fits(margined):
        return margined
    if not box.fits(lows):
        return None
    return box.share(lows, highs)


def css_widths(widths: list[float] | None) -> list[str] | None:
    """Column widths as CSS lengths, rounded up to 1/1000 em."""
    if widths is None:
        return None
    return [f"{math.ceil(w * 1000) / 1000:.3f}em" for w in widths]


def table_widths_for(theme: Path, default_theme: Path):
    """The function report.pdf's table macro calls, ``(table, kind, part)`` to a list of CSS
    widths or None (:func:`column_widths`), in the theme's fonts. ``part``: ``"body"`` or
    ``"appendix"``, the chapter's part. A theme with a report.css of its own (whose table rules
    :func:`print_box` does not describe) keeps the automatic layout: always None."""
    own_css = (
        Path(theme).resolve() != Path(default_theme).resolve()
        and (Path(theme) / "report.css").is_file()
    )
    fonts = None if own_css else theme_fonts(Path(theme), Path(default_theme))

    def widths(table: Table, kind: str = "", part: str = "body") -> list[str] | None:
        appendix = part == "appendix"
        notes_inline = appendix and table.inline_notes
        # macros.html's one-line-notes class, which report.css reads in the appendix only
        one_line = (
            appendix and not table.inline_notes and table.one_line_notes and (kind != "wide-short")
        )
        return css_widths(column_widths(table, fonts, kind, notes_inline, appendix, one_line))

    return widths
