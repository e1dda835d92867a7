"""Tables of the report: one model, three outputs (HTML through the templates, CSV, LaTeX).

A :class:`Table` is built from Results only. Each cell keeps the text shown on the page (numbers
at a fixed precision: :data:`COST_DIGITS` for costs, :data:`AUC_DIGITS` for AUC,
:data:`PC_DIGITS` for PC(+) values) and the full-precision value written to the CSV file. The
LaTeX form (:mod:`ccreport.render.latex`) uses booktabs rules and siunitx columns.
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from typing import Any

from . import ranking
from .latex import table_latex
from .marks import SIGNIFICANT_MARK  # noqa: F401  (tables.SIGNIFICANT_MARK for the sections)

COST_DIGITS = 4
AUC_DIGITS = 3
PC_DIGITS = 3
DASH = "\u2014"
BEST_MARK = "\u2605"  # a star beside the bold best value: not colour alone
WIDE_TABLE_CHARS = 150  # compact 7.2pt type on A4 portrait holds about this many characters
NOTE_SCALE = 0.86  # a cell note's type size over its value's (.cell-note in style.css)
# 6.3-pt type on an A4 landscape page (261 mm of text) holds about this many characters (a table
# of 234 fills it)
LANDSCAPE_TABLE_CHARS = 240
# a table whose notes are set beside their values, mostly digits and brackets (wider than text on
# average), fills A4 portrait's text width at about this many characters of 7.2-pt type
INLINE_TABLE_CHARS = 135
NOT_BETTER_MARK = "\u2020"  # beside a cost no lower than the best trivial classifier's
TRIVIAL_NAME = (
    "best trivial"  # the row (or column) of the best trivial classifier in expected-cost tables
)


def fmt(value: float | None, digits: int) -> str:
    """``value`` at ``digits`` decimals; a minus sign for negatives; an em dash for missing."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return DASH
    text = f"{value:.{digits}f}"
    if text.startswith("-"):
        if float(text) == 0.0:
            text = text[1:]
    return text


def at_floor(p: float | None, replicates: int | None, floor_count: int = 2) -> bool:
    """Whether a bootstrap p-value is at its method's floor ``floor_count / (R + 1)``
    (:func:`p_value_text`)."""
    return (
        bool(replicates)
        and p is not None
        and p <= floor_count / (replicates + 1) * (1 + ranking.TIE_RTOL)
    )


def floor_text(replicates: int, floor_count: int = 2) -> str:
    """The floor of a bootstrap p-value as printed everywhere (HTML, PDF, LaTeX, CSV):
    ``2/1001``."""
    return f"{floor_count}/{replicates + 1}"


def p_value_text(
    p: float | None, replicates: int | None = None, floor_count: int = 2, name: str = "p"
) -> str:
    """A bootstrap p-value as printed: ``p=0.031``; at the method's floor, ``p ≤ 2/1001``.

    A bootstrap p-value is never below ``floor_count / (R + 1)``: 2 for the two-sided
    2 min(#(d* <= 0) + 1, #(d* >= 0) + 1) / (R + 1)
    (:func:`ccreport.analysis.bands.bootstrap_p_value`), 1 for the basic-bootstrap
    (#(|d* - d| >= |d|) + 1) / (R + 1) (:func:`ccreport.analysis.significance.difference_p_value`).
    Reached when no replicate is as extreme as the estimate, it says only that p is at most that, so
    it is printed as that bound, as the fraction itself with R the replicate count (``p ≤ 1/1001``;
    no-break spaces: the bound never wraps), the same in every table, finding and format. Without
    ``replicates`` the value is printed as it is. ``name``: the symbol printed ("p", "p_adj").
    """
    if p is None:
        return ""
    if at_floor(p, replicates, floor_count):
        return f"{name}\u00a0\u2264\u00a0{floor_text(replicates, floor_count)}"
    return f"{name}={fmt(p, 3)}"


def p_cell(p: float | None, replicates: int | None, floor_count: int = 2) -> Cell:
    """A table cell of a bootstrap p-value: at 3 decimals, or at its floor the bound ``≤ 2/1001``
    (:func:`p_value_text`), which the CSV file holds as ``<= 2/1001``."""
    if at_floor(p, replicates, floor_count):
        bound = floor_text(replicates, floor_count)
        return Cell(f"\u2264\u00a0{bound}", f"<= {bound}")
    return num(p, 3)


def cost(value) -> str:
    return fmt(value, COST_DIGITS)


def auc(value) -> str:
    return fmt(value, AUC_DIGITS)


def pc(value) -> str:
    return fmt(value, PC_DIGITS)


def interval(lo, hi, digits: int = PC_DIGITS) -> str:
    return f"[{fmt(lo, digits)}, {fmt(hi, digits)}]"


def intervals(ivs, digits: int = PC_DIGITS) -> str:
    ivs = list(ivs or [])
    return ", ".join(interval(lo, hi, digits) for lo, hi in ivs) if ivs else DASH


def interval_cell(ivs, digits: int = PC_DIGITS) -> Cell:
    """A cell listing PC(+) intervals; the CSV keeps them as [[lo, hi], ...] at full precision."""
    ivs = [list(iv) for iv in (ivs or [])]
    parts = [interval(lo, hi, digits) for lo, hi in ivs]
    return Cell(", ".join(parts) or DASH, ivs, parts=parts or None)


@dataclass
class Cell:
    """One table cell: ``text`` as shown, ``value`` for the CSV (full precision)."""

    text: str
    value: Any = None
    numeric: bool = False
    best: bool = False
    href: str | None = None  # a link inside the site (row headers)
    note: str = ""  # small text after the value, e.g. a rank "(2)"
    parts: list[str] | None = (
        None  # pieces that must not wrap inside (intervals), shown comma-separated
    )
    mark: str = BEST_MARK  # the symbol shown beside a marked (``best``) value, and what it says
    mark_label: str = "lowest"
    mono: bool = False  # digests, file names: monospace
    note_class: str = (
        ""  # a CSS class of the note ("range": a spread, styled unlike a confidence interval)
    )
    # words at the end of ``note`` that the LaTeX form moves into a table footnote (a lettered
    # mark in the cell), so that a narrow column need not wrap them; the page shows them in place
    footnote: str = ""

    @property
    def csv_value(self):
        if self.value is None:
            return "" if self.numeric else self.text
        if isinstance(self.value, float):
            return repr(self.value)
        if isinstance(self.value, (list, tuple)):
            return json.dumps(self.value)
        return self.value


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value):
    """A CSV value a spreadsheet will not run as a formula (OWASP "CSV injection").

    Text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is prefixed with a
    single quote (``'=HYPERLINK(...)`` shows as text). Numbers are left alone, and so is text that
    reads as a number (``-0.25``, ``-inf``), so negative differences stay numbers.
    """
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    try:
        float(value)
        return value
    except ValueError:
        return "'" + value


def num(value, digits: int, **kwargs) -> Cell:
    value = None if value is None else float(value)
    return Cell(fmt(value, digits), value, numeric=True, **kwargs)


def text(value, **kwargs) -> Cell:
    return Cell("" if value is None else str(value), value, **kwargs)


@dataclass
class Table:
    """A captioned table with a header row; the first column holds row headers."""

    key: str  # file stem: tables/<key>.csv and .tex, and the HTML id
    caption: str
    columns: list[str]
    rows: list[list[Cell]] = field(default_factory=list)
    note: str = ""  # shown under the table (legend for marks, units)
    extra_csv: dict[str, list[Any]] = field(default_factory=dict)  # extra CSV-only columns
    number: int | None = None
    compact: bool = False  # small type (wide tables)
    # the table read out, one line per decision (decision box: sections.decisions.SummaryLine)
    sentences: list = field(default_factory=list)
    lead_columns: int = 1  # row-header columns, shown once per row group in the LaTeX long form
    # column header -> the CSV columns it is written as: each of its cells' ``value`` is a tuple
    # of that many values (e.g. a range as its low and high end)
    csv_split: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"table-{self.key}"

    @property
    def long_notes(self) -> bool:
        """Cells carry long notes (intervals, p-values): print puts them on their own line."""
        return any(len(c.note) > 8 for row in self.rows for c in row)

    def print_width(self) -> int:
        """A rough width in characters as printed (notes on their own line when long)."""
        long_notes = self.long_notes
        total = 0
        for j, header in enumerate(self.columns):
            widest = max((len(w) for w in header.split()), default=0)
            for row in self.rows:
                c = row[j]
                width = len(max(c.parts, key=len) if c.parts else c.text) + (2 if c.best else 0)
                if c.note:
                    width = max(width, len(c.note)) if long_notes else width + len(c.note) + 1
                widest = max(widest, width)
            total += widest + 3
        return total

    def inline_width(self) -> int:
        """A rough width in characters as printed with every note on its value's line (a note's
        type is :data:`NOTE_SCALE` of the value's, its characters counted so)."""
        total = 0
        for j, header in enumerate(self.columns):
            widest = max((len(w) for w in header.split()), default=0)
            for row in self.rows:
                c = row[j]
                width = len(", ".join(c.parts) if c.parts else c.text) + (2 if c.best else 0)
                if c.note:
                    width += 1 + math.ceil(NOTE_SCALE * len(c.note))
                widest = max(widest, width)
            total += widest + 3
        return total

    @property
    def inline_notes(self) -> bool:
        """Long notes (intervals, p-values) fit on their value's line in portrait: report.pdf's
        appendix prints them there, so a row is one line high (the site keeps them under the
        value, where a narrow screen has room for them)."""
        return self.long_notes and self.inline_width() <= INLINE_TABLE_CHARS

    @property
    def one_line_notes(self) -> bool:
        """Long notes that fit unwrapped under their values, in portrait or (a wide table) on a
        landscape page: report.pdf prints each on one line (a row two lines high, not three or
        four)."""
        limit = LANDSCAPE_TABLE_CHARS if self.wide else INLINE_TABLE_CHARS
        return self.long_notes and self.print_width() <= limit

    @property
    def wide(self) -> bool:
        """Too wide for a portrait page of the PDF: printed on a landscape page."""
        return self.print_width() > WIDE_TABLE_CHARS

    @property
    def csv_href(self) -> str:
        return f"tables/{self.key}.csv"

    @property
    def tex_href(self) -> str:
        return f"tables/{self.key}.tex"

    def to_csv(self) -> str:
        """The table as CSV: one column per column (a :attr:`csv_split` column as several), then
        the :attr:`extra_csv` columns; values at full precision, spreadsheet-safe."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        header = []
        for name in self.columns:
            header += list(self.csv_split.get(name, (name,)))
        writer.writerow([spreadsheet_safe(v) for v in header + list(self.extra_csv)])
        for i, row in enumerate(self.rows):
            values = []
            for name, c in zip(self.columns, row):
                split = self.csv_split.get(name)
                if split is None:
                    values.append(c.csv_value)
                    continue
                parts = tuple(c.value) if isinstance(c.value, (tuple, list)) else ()
                if len(parts) != len(split):
                    raise ValueError(
                        f"table {self.key}: a cell of column {name!r} holds {len(parts)} CSV "
                        f"values, {len(split)} expected ({', '.join(split)})"
                    )
                values += [repr(v) if isinstance(v, float) else v for v in parts]
            extra = [values_[i] for values_ in self.extra_csv.values()]
            writer.writerow([spreadsheet_safe(v) for v in values + extra])
        return out.getvalue()

    def to_latex(self) -> str:
        """The table for a journal's LaTeX (booktabs, siunitx): see :mod:`ccreport.render.latex`."""
        return table_latex(self)


def tie_note(name: str, v: ranking.Verdict) -> str:
    """The words beside a lowest cost that is not starred (:func:`ranking.verdict`): whom it is tied
    with."""
    if v.starred or name not in v.best or v.reason == "trivial":
        return ""
    others = [n for n in (v.best if v.reason == "equal" else v.tied_with) if n != name]
    if not others:
        return ""
    return ("not tested against " if v.reason == "not compared" else "tied with ") + ", ".join(
        others
    )


def mark_verdict(cells: dict[str, Cell], v: ranking.Verdict) -> None:
    """Star the verdict's best when it is starred; otherwise say beside it whom it is tied with."""
    for name in v.best:
        if name not in cells:
            continue
        if v.starred:
            cells[name].best = True
        else:
            words = tie_note(name, v)
            if words:
                cells[name].note = f"{cells[name].note} {words}".strip()
                cells[name].footnote = words


def mark_best(cells: list[Cell], allowed=None) -> None:
    """Mark the lowest numeric value(s) of ``cells``: equal up to :data:`ranking.TIE_RTOL` all
    marked.

    ``allowed``: a function of the {index: value} mapping giving the indexes that may be marked
    (:func:`ranking.starred` with the trivial baseline); by default the lowest.
    """
    values = {i: c.value for i, c in enumerate(cells) if c.numeric}
    for i in (allowed or ranking.lowest)(values):
        cells[i].best = True
