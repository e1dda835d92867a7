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

COST_DIGITS = 4
AUC_DIGITS = 3
PC_DIGITS = 3
DASH = "\u2014"
BEST_MARK = "\u2605"  # a star beside the bold best value: not colour alone
WIDE_TABLE_CHARS = 150  # compact 7.2pt type on A4 portrait holds about this many characters
SIGNIFICANT_MARK = "*"  # beside a bold difference whose interval excludes 0


def fmt(value: float | None, digits: int) -> str:
    """``value`` at ``digits`` decimals; a minus sign for negatives; an em dash for missing."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return DASH
    text = f"{value:.{digits}f}"
    if text.startswith("-"):
        if float(text) == 0.0:
            text = text[1:]
    return text


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
    parts: list[str] | None = None  # pieces that must not wrap inside (intervals), shown comma-separated
    mark: str = BEST_MARK  # the symbol shown beside a marked (``best``) value, and what it says
    mark_label: str = "lowest"
    mono: bool = False  # digests, file names: monospace

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
    lead_columns: int = 1  # row-header columns, repeated when the LaTeX form is split by columns

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
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([spreadsheet_safe(v) for v in list(self.columns) + list(self.extra_csv)])
        for i, row in enumerate(self.rows):
            extra = [values[i] for values in self.extra_csv.values()]
            writer.writerow([spreadsheet_safe(v) for v in [c.csv_value for c in row] + extra])
        return out.getvalue()

    def to_latex(self) -> str:
        """The table for a journal's LaTeX (booktabs, siunitx): see :mod:`ccreport.render.latex`."""
        from .latex import table_latex

        return table_latex(self)


def mark_best(cells: list[Cell]) -> None:
    """Mark the smallest numeric value(s) of ``cells`` (ties at full precision all marked)."""
    values = [c.value for c in cells if c.numeric and c.value is not None]
    if not values:
        return
    best = min(values)
    for c in cells:
        if c.numeric and c.value is not None and c.value == best:
            c.best = True


def ranks(values: dict[str, float]) -> dict[str, int]:
    """Competition ranks (1 = lowest cost; ties share the better rank)."""
    ordered = sorted(v for v in values.values() if v is not None)
    return {k: 1 + ordered.index(v) for k, v in values.items() if v is not None}
