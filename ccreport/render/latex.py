"""The LaTeX form of a report table: paste-ready for a one-column journal article.

What a journal's LaTeX needs, and how each .tex file provides it:

* **Packages named.** The file starts with a comment listing the packages it needs
  (:data:`PACKAGES`: booktabs for the rules, siunitx for ``S`` columns, array for ragged ``p``
  columns).
* **Labels that compile.** ``\\label{tab:<key>}`` uses the table's key unescaped: keys are file
  stems (:mod:`ccreport.project.naming`, characters ``[a-z0-9_.-]``), all legal in a label, whereas
  an escaped ``\\_`` inside ``\\label`` stops pdflatex ("Missing \\endcsname") and corrupts the
  .aux.
* **True minus signs and aligned decimals.** Numeric columns are siunitx ``S`` columns with a
  ``table-format`` measured from the column's numbers (integer digits, decimals, sign), so the
  decimal points line up and siunitx typesets ``-0.013`` with a true minus. A numeric cell's note
  (rank, interval, p-value) and its mark go in a left-aligned companion column right after it, so
  they do not break the alignment; the header spans both. Minus signs in notes are typeset as
  ``$-$``.
* **Widths that fit.** The width of each column is estimated from Computer Modern's glyph widths
  at ``\\footnotesize`` (:func:`text_width`); text columns wider than :data:`MAX_TEXT_COLUMN_PT`
  wrap (ragged-right ``p`` columns with break points after ``/``, ``_`` and every 8 characters of
  digests), and so do notes wider than :data:`NOTE_WRAP_PT` (an interval, then its p-value, on
  the next line); a table still wider than :data:`TEXT_WIDTH_PT` (the text width of LaTeX's 10 pt
  article) is split by columns into stacked blocks, each repeating the row headers (the first
  ``lead_columns`` columns); and more than :data:`ROWS_PER_FLOAT` rows continue in further floats
  headed "Table n, continued". The estimate errs wide, so a table that fits by the estimate fits
  on the page.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from .marks import SIGNIFICANT_MARK

PACKAGES = ("booktabs", "siunitx", "array")
TEXT_WIDTH_PT = (
    345.0  # \textwidth of LaTeX's article class at 10 pt, one column (letter and A4 alike)
)
FONT_PT = 8.0  # \footnotesize in a 10 pt document
TABCOLSEP_PT = 4.0  # set inside each table (LaTeX's default is 6 pt)
THIN_SPACE_PT = 10.0 / 6  # \, between a number and its note, in the document's 10 pt
MAX_TEXT_COLUMN_PT = 120.0  # a text column wider than this wraps
NOTE_WRAP_PT = 80.0  # a numeric column's notes wider than this wrap at their ordinary spaces
ROWS_PER_FLOAT = 36  # body rows per float (a float taller than a page is not placed)
HEADER_LINE_CHARS = 14  # headers are broken into lines of about this many characters

# Glyph widths in em of Computer Modern Roman at 8 pt (cmr8: digits 0.531 em), rounded up so the
# estimate errs wide; monospace cmtt8 is 0.531 em per character.
_DIGIT_EM = 0.54
_LOWER_EM = 0.52
_UPPER_EM = 0.78
_SPACE_EM = 0.36
_OTHER_EM = 0.45
_MONO_EM = 0.54
_MATH_EM = 0.78  # a symbol typeset in math ($-$, $\le$, $^\star$)

_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "\u2014": "---",
    "\u2013": "--",
    "\u2212": "$-$",
    "\u2605": "$^\\star$",
    "\u2020": "$^\\dagger$",
    "\u2264": "$\\le$",
    "\u2265": "$\\ge$",
    "\u00b1": "$\\pm$",
    "\u00d7": "$\\times$",
    "\u2193": "$\\downarrow$",
    "\u2191": "$\\uparrow$",
    "\u2248": "$\\approx$",
    "\u00b7": "$\\cdot$",
    "\u2026": r"\ldots{}",
    "\u00a0": "~",
}
_ACCENTS = {
    "\u0301": "'",
    "\u0300": "`",
    "\u0302": "^",
    "\u0308": '"',
    "\u0303": "~",
    "\u0327": "c",
    "\u030c": "v",
}
_MINUS = re.compile(r"(?<![\w.])-(?=\.?\d)")  # a hyphen before a number: a minus sign


def escape(value: str) -> str:
    """``value`` safe inside LaTeX text: specials escaped, a hyphen before a number as a minus sign.

    Characters pdflatex cannot typeset from UTF-8 without extra packages become ASCII: a known
    symbol its math form, an accented Latin letter an accent command (``é`` -> ``\\'{e}``), anything
    else ``?``.
    """
    out = []
    for ch in _MINUS.sub("\u2212", str(value)):
        if ch in _SPECIALS:
            out.append(_SPECIALS[ch])
        elif ord(ch) < 128:
            out.append(ch)
        else:
            base, *marks = unicodedata.normalize("NFD", ch)
            if ord(base) < 128 and base.isalpha() and len(marks) == 1 and marks[0] in _ACCENTS:
                out.append(f"\\{_ACCENTS[marks[0]]}{{{base}}}")
            else:
                out.append("?")
    return "".join(out)


def text_width(value: str, mono: bool = False) -> float:
    """An upper estimate in points of ``value`` typeset at :data:`FONT_PT` (see the module
    docstring)."""
    if mono:
        return len(value) * _MONO_EM * FONT_PT
    em = 0.0
    for ch in value:
        if ch.isdigit():
            em += _DIGIT_EM
        elif ch.isupper() or ch in "mwMW":
            em += _UPPER_EM
        elif ch.isalpha():
            em += _LOWER_EM
        elif ch == " ":
            em += _SPACE_EM
        elif ord(ch) > 127:
            em += _MATH_EM
        else:
            em += _OTHER_EM
    return em * FONT_PT


def header_lines(header: str) -> list[str]:
    """``header`` broken at spaces into lines of about :data:`HEADER_LINE_CHARS` characters."""
    lines: list[str] = []
    for word in header.split():
        if lines and len(lines[-1]) + 1 + len(word) <= HEADER_LINE_CHARS:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def header_cell(header: str) -> str:
    lines = header_lines(header)
    if len(lines) == 1:
        return escape(lines[0])
    # a line starting with [ or * would be read as an argument of the \\ before it
    body = " \\\\ ".join(("{}" if s[:1] in "[*" else "") + escape(s) for s in lines)
    return "\\begin{tabular}[b]{@{}c@{}}" + body + "\\end{tabular}"


def number_format(texts: list[str]) -> str | None:
    """siunitx ``table-format`` of a column's numbers (``-1.4``: sign, 1 integer digit, 4
    decimals)."""
    numbers = [t for t in texts if re.fullmatch(r"-?\d+(\.\d+)?", t)]
    if not numbers:
        return None
    integer = max(len(t.lstrip("-").split(".")[0]) for t in numbers)
    decimals = max(len(t.split(".")[1]) if "." in t else 0 for t in numbers)
    sign = "-" if any(t.startswith("-") for t in numbers) else ""
    return f"{sign}{integer}.{decimals}"


@dataclass
class Column:
    """One column of the table as LaTeX lays it out: its spec, header, cells and estimated width."""

    spec: str
    header: str
    cells: list[str]
    width: float  # estimated, including the space between columns
    span: int = 1  # physical columns (a number and its note: 2)


def mark_text(cell) -> str:
    if not cell.best:
        return ""
    return "$^{*}$" if cell.mark == SIGNIFICANT_MARK else escape(cell.mark)


def breakable(body: str, mono: bool) -> str:
    """Break points in a wrapping cell: after ``/`` and ``\\_``, and every 8 characters of a
    digest."""
    if mono:
        return "\\allowbreak{}".join(body[i : i + 8] for i in range(0, len(body), 8))
    return body.replace("/", "/\\allowbreak{}").replace("\\_", "\\_\\allowbreak{}")


def text_column(header: str, cells) -> Column:
    widths = [text_width(c.text + (" " + c.note if c.note else ""), c.mono) for c in cells]
    widths += [text_width(line) for line in header_lines(header)]
    natural = max(widths)
    bodies = []
    wraps = natural > MAX_TEXT_COLUMN_PT
    for c in cells:
        body = escape(c.text)
        if c.mono:
            body = f"\\texttt{{{breakable(body, True) if wraps else body}}}"
        elif wraps:
            body = breakable(body, False)
        if c.best:
            body = f"\\textbf{{{body}}}{mark_text(c)}"
        if c.note:
            body += " " + escape(c.note)
        bodies.append(body)
    if wraps:
        spec = f">{{\\raggedright\\arraybackslash}}p{{{MAX_TEXT_COLUMN_PT:.0f}pt}}"
        width = MAX_TEXT_COLUMN_PT
    else:
        spec, width = "l", natural
    return Column(spec, header_cell(header), bodies, width + 2 * TABCOLSEP_PT)


def numeric_column(header: str, cells) -> Column:
    texts = [c.text for c in cells]
    fmt = number_format(texts) or "1.0"
    numbers = [t if re.fullmatch(r"-?\d+(\.\d+)?", t) else "{" + escape(t) + "}" for t in texts]
    notes = [(mark_text(c) + (" " + escape(c.note) if c.note else "")).strip() for c in cells]
    number_width = max(text_width(t) for t in texts)
    head_width = max(text_width(line) for line in header_lines(header))
    if not any(notes):
        width = max(number_width, head_width)
        return Column(
            f"S[table-format={fmt}]",
            "{" + header_cell(header) + "}",
            numbers,
            width + 2 * TABCOLSEP_PT,
        )
    note_width = max(text_width(c.note) + (text_width("*") if c.best else 0) for c in cells)
    note_spec = "l"
    if note_width > NOTE_WRAP_PT:
        # a long note (an interval, then a p-value) wraps at its ordinary spaces; what no-break
        # spaces hold together (an interval, "p <= 0.002") stays on one line
        pieces = [
            text_width(piece) + (text_width("*") if c.best and k == 0 else 0)
            for c in cells
            for k, piece in enumerate(c.note.split(" "))
        ]
        if max(pieces) < note_width:
            note_width = math.ceil(max(pieces))
            note_spec = f">{{\\raggedright\\arraybackslash}}p{{{note_width}pt}}"
    width = max(
        number_width + THIN_SPACE_PT + note_width + 2 * TABCOLSEP_PT, head_width + 2 * TABCOLSEP_PT
    )
    cells_out = [f"{n} & {note}" for n, note in zip(numbers, notes)]
    return Column(
        f"S[table-format={fmt}]@{{\\,}}{note_spec}",
        f"\\multicolumn{{2}}{{c}}{{{header_cell(header)}}}",
        cells_out,
        width,
        span=2,
    )


def layout(table) -> list[Column]:
    columns = []
    for j, header in enumerate(table.columns):
        cells = [row[j] for row in table.rows]
        numeric = j > 0 and any(c.numeric for c in cells)
        columns.append(numeric_column(header, cells) if numeric else text_column(header, cells))
    return columns


def column_groups(columns: list[Column], lead: int) -> list[list[int]]:
    """Indexes of the columns of each stacked block: the lead columns, then as many more as fit."""
    lead = min(max(lead, 1), len(columns))
    lead_width = sum(c.width for c in columns[:lead])
    groups: list[list[int]] = []
    current: list[int] = []
    width = lead_width
    for j in range(lead, len(columns)):
        if current and width + columns[j].width > TEXT_WIDTH_PT:
            groups.append(current)
            current, width = [], lead_width
        current.append(j)
        width += columns[j].width
    groups.append(current)
    return [list(range(lead)) + g for g in groups]


def tabular(columns: list[Column], indexes: list[int], rows: range) -> list[str]:
    chosen = [columns[j] for j in indexes]
    lines = [
        "\\begin{tabular}{" + "".join(c.spec for c in chosen) + "}",
        "\\toprule",
        " & ".join(c.header for c in chosen) + " \\\\",
        "\\midrule",
    ]
    for i in rows:
        cells = [c.cells[i] for c in chosen]
        if cells and cells[0][:1] in "[*":  # would be read as an argument of the previous row's \\
            cells[0] = "{}" + cells[0]
        lines.append(" & ".join(cells) + " \\\\")
    return lines + ["\\bottomrule", "\\end{tabular}"]


def table_latex(table) -> str:
    """The LaTeX source of ``table`` (a :class:`ccreport.render.tables.Table`); see the module
    docstring."""
    columns = layout(table)
    groups = column_groups(columns, getattr(table, "lead_columns", 1))
    n = len(table.rows)
    per_float = max(1, ROWS_PER_FLOAT // len(groups))
    chunks = [range(i, min(i + per_float, n)) for i in range(0, n, per_float)] or [range(0)]
    label = f"tab:{table.key}"
    lines = [
        "% generated by ccreport; needs " + "".join(f"\\usepackage{{{p}}}" for p in PACKAGES),
        f"% {len(groups)} column block(s), {len(chunks)} float(s); sized for a one-column article "
        f"(\\textwidth {TEXT_WIDTH_PT:.0f}pt)",
    ]
    for k, rows in enumerate(chunks):
        lines += [
            "\\begin{table}[htbp]",
            "\\centering",
            "\\footnotesize",
            f"\\setlength{{\\tabcolsep}}{{{TABCOLSEP_PT:g}pt}}",
        ]
        if k == 0:
            lines += [f"\\caption{{{escape(table.caption)}}}", f"\\label{{{label}}}"]
        else:
            lines += [f"\\textit{{Table~\\ref{{{label}}}, continued}}\\par\\medskip"]
        for g, indexes in enumerate(groups):
            if g:
                lines.append("\\par\\medskip")
            lines += tabular(columns, indexes, rows)
        if table.note and k == len(chunks) - 1:
            lines.append(f"\\par\\smallskip{{\\footnotesize {escape(table.note)}\\par}}")
        lines += ["\\end{table}", ""]
    return "\n".join(lines)
