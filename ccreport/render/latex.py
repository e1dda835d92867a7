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
  the next line). Words a cell's note ends with that say who a cost is tied with
  (:attr:`ccreport.render.tables.Cell.footnote`) become a table footnote: a lettered mark in the
  cell, the words under the table. A table still wider than :data:`TEXT_WIDTH_PT` (the text width
  of LaTeX's 10 pt article) is set in long form (:func:`long_form`): one row per row and column,
  the row headers (the first ``lead_columns`` columns) on each group's first row, then the
  column's header ("Measure") and its cell ("Value"); one tabular per float, never stacked
  blocks, and never wider than the one-column ``\\textwidth``, so no table needs ``table*``.
  The estimate errs wide, so a table that fits by the estimate fits on the page.
* **Heights that fit.** Rows continue in further floats headed "Table n, continued" when the
  estimated height of a float (caption, header, rows with their wrapped lines, notes) would
  pass :data:`FLOAT_HEIGHT_PT`; a long form's row group is kept in one float when it fits.
* **Notes inside the float.** The table's note and its footnotes are a ``\\footnotesize``
  paragraph under the tabular, inside the float (no package beyond :data:`PACKAGES`).
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from dataclasses import dataclass, field, replace

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
# the widths at which text columns wrap, tried in turn until a table fits
WRAP_WIDTHS_PT = (MAX_TEXT_COLUMN_PT, 100.0, 90.0, 80.0, 70.0, 60.0, 50.0, 40.0)
# Heights, for splitting a long table into floats that fit a page (a float taller than the
# \textheight is not placed: "Float too large"), estimated high
FLOAT_HEIGHT_PT = 550.0 * 0.85  # \textheight of the 10 pt article, less a margin for the estimate
LINE_PT = 9.5  # \baselineskip of \footnotesize: one line of a row, caption or note
RULES_PT = 16.0  # booktabs' three rules and the space around them
CAPTION_SKIP_PT = 12.0  # \abovecaptionskip and the space after the caption
CONTINUED_PT = LINE_PT + 8.0  # "Table n, continued" and its \medskip
SMALLSKIP_PT = 4.0
ADDSPACE_PT = 4.0  # \addlinespace between row groups of the long form
HEADER_LINE_CHARS = 14  # headers are broken into lines of about this many characters

# Glyph widths in em of Computer Modern Roman at 8 pt (cmr8, \\footnotesize of the 10 pt article)
# for the printable ASCII characters, as pdflatex sets them (\\wd of an \\hbox of each), rounded
# up to 0.001 em; a symbol set in math ($-$, $\\le$, $^\\star$) at most 0.83 em; monospace cmtt8
# 0.531 em per character. :data:`WIDTH_MARGIN` makes room for kerns and rounding.
_CMR8_CHARS = "".join(chr(i) for i in range(33, 127))
_CMR8_EM = dict(
    zip(
        _CMR8_CHARS,
        # !"#$%&'()*+,-./
        (0.296, 0.532, 0.886, 0.532, 0.886, 0.827, 0.296, 0.414, 0.414, 0.532, 0.827, 0.296)
        + (0.355, 0.296, 0.532)
        + (0.532,) * 10  # digits
        # :;<=>?@
        + (0.296, 0.296, 0.827, 0.827, 0.827, 0.502, 0.827)
        # A-Z
        + (0.796, 0.753, 0.768, 0.812, 0.723, 0.694, 0.834, 0.796, 0.383, 0.546, 0.826, 0.664)
        + (0.973, 0.796, 0.827, 0.723, 0.827, 0.782, 0.591, 0.768, 0.796, 0.796, 1.091, 0.796)
        + (0.796, 0.65)
        # [\\]^_`
        + (0.296, 0.532, 0.296, 0.532, 0.383, 0.296)
        # a-z
        + (0.532, 0.591, 0.473, 0.591, 0.473, 0.325, 0.532, 0.591, 0.296, 0.325, 0.561, 0.296)
        + (0.886, 0.591, 0.532, 0.591, 0.561, 0.415, 0.42, 0.414, 0.591, 0.561, 0.768, 0.561)
        + (0.561, 0.473)
        # {|}~
        + (0.532, 0.296, 0.532, 0.532),
    )
)
_SPACE_EM = 0.355
_MONO_EM = 0.54
_MATH_EM = 0.83  # a symbol typeset in math ($-$, $\\le$, $^\\star$)
WIDTH_MARGIN = 1.03

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
    "\u221e": "$\\infty$",
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


@functools.lru_cache(maxsize=1 << 16)  # a pure function of its text: cells recur across layouts
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


@functools.lru_cache(maxsize=1 << 16)  # the layouts of fitted_layout measure the same cells
def text_width(value: str, mono: bool = False) -> float:
    """An upper estimate in points of ``value`` typeset at :data:`FONT_PT` (see the module
    docstring)."""
    if mono:
        return len(value) * _MONO_EM * FONT_PT
    value = _MINUS.sub("\u2212", value)  # a hyphen before a number is set as a minus sign
    em = sum(
        _SPACE_EM if ch == " " else _CMR8_EM.get(ch, _MATH_EM if ord(ch) > 127 else 0.6)
        for ch in value
    )
    return em * FONT_PT * WIDTH_MARGIN


def header_lines(header: str) -> list[str]:
    """``header`` broken at spaces into lines of about :data:`HEADER_LINE_CHARS` characters."""
    lines: list[str] = []
    words = []
    for word in header.split():
        # a word longer than a line breaks after its hyphens ("german-5to1-" / "uncertain")
        words += re.findall(r"[^-]+-|[^-]+$", word) if len(word) > HEADER_LINE_CHARS else [word]
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= HEADER_LINE_CHARS:
            lines[-1] += ("" if lines[-1].endswith("-") else " ") + word
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
    """One column of the table as LaTeX lays it out: its spec, header, cells and estimated width.

    ``lines``: per cell, an upper estimate of the lines it takes (a wrapping cell takes several);
    ``header_lines``: the lines of its header.
    """

    spec: str
    header: str
    cells: list[str]
    width: float  # estimated, including the space between columns
    span: int = 1  # physical columns (a number and its note: 2)
    lines: list[int] = field(default_factory=list)
    header_lines: int = 1


def mark_text(cell) -> str:
    if not cell.best:
        return ""
    return "$^{*}$" if cell.mark == SIGNIFICANT_MARK else escape(cell.mark)


def footnote_letter(k: int) -> str:
    """The ``k``-th table footnote's mark: a, b, ..., z, aa, ab, ..."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[k] if k < 26 else footnote_letter(k // 26 - 1) + letters[k % 26]


def footnote_marks(rows) -> dict[str, str]:
    """Each distinct :attr:`Cell.footnote` of ``rows`` -> its letter, in order of appearance."""
    marks: dict[str, str] = {}
    for row in rows:
        for c in row:
            words = getattr(c, "footnote", "")
            if words and words not in marks:
                marks[words] = footnote_letter(len(marks))
    return marks


def split_note(cell, marks: dict[str, str]) -> tuple[str, str]:
    """The note of ``cell`` as LaTeX prints it: ``(plain note, footnote letter)``.

    A cell's :attr:`footnote` (words that the page shows at the end of its note, e.g. "tied with
    naive_bayes") leaves the cell for a table footnote, so that a narrow column need not wrap
    them; the cell keeps the rest of its note and the footnote's letter.
    """
    words = getattr(cell, "footnote", "")
    note = cell.note
    if words and words in marks:
        if note.endswith(words):
            note = note[: -len(words)].strip()
        return note, marks[words]
    return note, ""


def footnote_text(letter: str) -> str:
    return f"$^{{\\mathrm{{{letter}}}}}$" if letter else ""


def wrapped_lines(pieces: list[float], width: float, space: float) -> int:
    """Lines that words of widths ``pieces`` take when broken greedily at ``width`` (a word wider
    than the line takes a line of its own)."""
    lines, current = 1, -space
    for w in pieces:
        if current > 0 and current + space + w > width:
            lines, current = lines + 1, w
        else:
            current += space + w
    return lines


def breakable(body: str, mono: bool) -> str:
    """Break points in a wrapping cell: after ``/`` and ``\\_``, and every 8 characters of a
    digest."""
    if mono:
        return "\\allowbreak{}".join(body[i : i + 8] for i in range(0, len(body), 8))
    return body.replace("/", "/\\allowbreak{}").replace("\\_", "\\_\\allowbreak{}")


@functools.lru_cache(maxsize=1 << 16)  # the layouts of fitted_layout split the same cells
def piece_widths(text: str, note: str, mono: bool) -> tuple[float, ...]:
    """:func:`text_width` of each piece a wrapping cell cannot break (``text`` and its ``note``):
    8 characters of a digest (``mono``), else the words between spaces, ``/`` and ``_``."""
    if mono:
        return tuple(text_width(text[i : i + 8], True) for i in range(0, len(text), 8))
    return tuple(text_width(piece) for piece in re.split(r"[ /_]", text + " " + note))


def text_column(header: str, cells, marks=None, max_width: float = MAX_TEXT_COLUMN_PT) -> Column:
    """A left-aligned text column; wider than ``max_width`` it wraps (ragged right)."""
    marks = marks or {}
    notes = [split_note(c, marks) for c in cells]
    widths = [
        text_width(c.text + (" " + n if n else ""), c.mono) + (text_width(f) if f else 0)
        for c, (n, f) in zip(cells, notes)
    ]
    heads = header_lines(header)
    head_width = max(text_width(line) for line in heads)
    natural = max(widths + [head_width])
    # never narrower than its header or than a word it cannot break (a p column would overflow)
    unbreakable = [w for c, (n, _) in zip(cells, notes) for w in piece_widths(c.text, n, c.mono)]
    max_width = max([max_width, math.ceil(head_width)] + [math.ceil(w) for w in unbreakable])
    bodies = []
    wraps = natural > max_width
    for c, (note, letter) in zip(cells, notes):
        body = escape(c.text)
        if c.mono:
            body = f"\\texttt{{{breakable(body, True) if wraps else body}}}"
        elif wraps:
            body = breakable(body, False)
        if c.best:
            body = f"\\textbf{{{body}}}{mark_text(c)}"
        if note:
            body += " " + escape(note)
        bodies.append(body + footnote_text(letter))
    if wraps:
        spec = f">{{\\raggedright\\arraybackslash}}p{{{max_width:.0f}pt}}"
        width = max_width
        # characters break anywhere in a digest; text at spaces, "/" and "_" (estimated as
        # spaces: the estimate errs towards more lines)
        lines = [
            math.ceil(w / max_width)
            if c.mono
            else wrapped_lines(list(piece_widths(c.text, n, False)), max_width, text_width(" "))
            for c, w, (n, _) in zip(cells, widths, notes)
        ]
    else:
        spec, width, lines = "l", natural, [1] * len(cells)
    return Column(spec, header_cell(header), bodies, width + 2 * TABCOLSEP_PT, 1, lines, len(heads))


def numeric_column(header: str, cells, marks=None, note_wrap: float = NOTE_WRAP_PT) -> Column:
    """A siunitx ``S`` column, with a companion note column when any cell has a note."""
    marks = marks or {}
    texts = [c.text for c in cells]
    fmt = number_format(texts) or "1.0"
    numbers = [t if re.fullmatch(r"-?\d+(\.\d+)?", t) else "{" + escape(t) + "}" for t in texts]
    split = [split_note(c, marks) for c in cells]
    notes = [
        (mark_text(c) + (" " + escape(n) if n else "")).strip() + footnote_text(f)
        for c, (n, f) in zip(cells, split)
    ]
    number_width = max(text_width(t) for t in texts)
    heads = header_lines(header)
    head_width = max(text_width(line) for line in heads)
    if not any(notes):
        width = max(number_width, head_width)
        return Column(
            f"S[table-format={fmt}]",
            "{" + header_cell(header) + "}",
            numbers,
            width + 2 * TABCOLSEP_PT,
            1,
            [1] * len(cells),
            len(heads),
        )
    extra = [
        (text_width("*") if c.best else 0) + (text_width(f) if f else 0)
        for c, (_, f) in zip(cells, split)
    ]
    note_width = max(text_width(n) + e for (n, _), e in zip(split, extra))
    note_spec = "l"
    lines = [1] * len(cells)
    if note_width > note_wrap:
        # a long note (an interval, then a p-value) wraps at its ordinary spaces; what no-break
        # spaces hold together (an interval, "p <= 0.002") stays on one line
        words = [[text_width(p) for p in n.split(" ")] for n, _ in split]
        for w, e in zip(words, extra):
            w[0] += e
        widest = max(max(w) for w in words)
        if widest < note_width:
            note_width = math.ceil(widest)
            note_spec = f">{{\\raggedright\\arraybackslash}}p{{{note_width}pt}}"
            lines = [wrapped_lines(w, note_width, text_width(" ")) for w in words]
    width = max(
        number_width + THIN_SPACE_PT + note_width + 2 * TABCOLSEP_PT, head_width + 2 * TABCOLSEP_PT
    )
    cells_out = [f"{n} & {note}" for n, note in zip(numbers, notes)]
    return Column(
        f"S[table-format={fmt}]@{{\\,}}{note_spec}",
        f"\\multicolumn{{2}}{{c}}{{{header_cell(header)}}}",
        cells_out,
        width,
        2,
        lines,
        len(heads),
    )


def layout(table, marks=None, max_width: float = MAX_TEXT_COLUMN_PT) -> list[Column]:
    """The columns of ``table`` as LaTeX sets them (``marks``: :func:`footnote_marks`): text
    columns wrap beyond ``max_width``, numeric columns' notes beyond the smaller of ``max_width``
    and :data:`NOTE_WRAP_PT`."""
    columns = []
    for j, header in enumerate(table.columns):
        cells = [row[j] for row in table.rows]
        numeric = j > 0 and any(c.numeric for c in cells)
        columns.append(
            numeric_column(header, cells, marks, min(max_width, NOTE_WRAP_PT))
            if numeric
            else text_column(header, cells, marks, max_width)
        )
    return columns


def fitted_layout(table, marks) -> tuple[list[Column], float]:
    """The widest layout of ``table`` that fits :data:`TEXT_WIDTH_PT`, wrapping text columns at
    ever narrower widths (:data:`WRAP_WIDTHS_PT`); if none fits, the narrowest. Returns the
    columns and their width."""
    for wrap in WRAP_WIDTHS_PT:
        columns = layout(table, marks, wrap)
        width = table_width(columns)
        if width <= TEXT_WIDTH_PT:
            break
    return columns, width


def table_width(columns: list[Column]) -> float:
    return sum(c.width for c in columns)


@dataclass
class LongForm:
    """A wide table turned into one row per (row, column): the lead columns, shown on a group's
    first row only, then the column's header ("Measure") and the cell ("Value").

    ``groups``: the index of each row's original row (row groups are kept in one float when they
    fit and set off by a little space).
    """

    columns: list[str]
    rows: list[list]
    groups: list[int]
    lead_columns: int


def long_form(table) -> LongForm:
    """``table`` in long form (see :class:`LongForm`); its cells are copies, the table is left
    as it is."""
    lead = min(max(getattr(table, "lead_columns", 1), 1), len(table.columns) - 1)
    rows, groups = [], []
    for i, row in enumerate(table.rows):
        for k, j in enumerate(range(lead, len(table.columns))):
            heads = [
                c if k == 0 else replace(c, text="", note="", best=False, footnote="", mono=False)
                for c in row[:lead]
            ]
            measure = replace(
                row[j],
                text=table.columns[j],
                numeric=False,
                best=False,
                note="",
                footnote="",
                mono=False,
            )
            rows.append(heads + [measure, row[j]])
            groups.append(i)
    return LongForm(list(table.columns[:lead]) + ["Measure", "Value"], rows, groups, lead)


def long_layout(long: LongForm, marks) -> list[Column]:
    """The long form's columns: the Value column aligned on the decimal point unless it holds
    text wider than :data:`NOTE_WRAP_PT` (then a wrapping text column); the Measure and Value
    columns wrap so that the table fits the text width."""
    lead = long.lead_columns
    values = [row[lead + 1] for row in long.rows]
    long_text = any(not c.numeric and text_width(c.text) > NOTE_WRAP_PT for c in values)
    if long_text:
        values = [replace(c, numeric=False) for c in values]
        long = replace(long, rows=[row[: lead + 1] + [v] for row, v in zip(long.rows, values)])
    columns = layout(long, marks)
    for wrap in WRAP_WIDTHS_PT:
        if table_width(columns) <= TEXT_WIDTH_PT:
            break
        columns = layout(long, marks, wrap)
    return columns


def row_heights(columns: list[Column], n_rows: int) -> list[float]:
    """The estimated height in points of each body row (its tallest cell)."""
    return [
        max((c.lines[i] for c in columns if c.lines), default=1) * LINE_PT for i in range(n_rows)
    ]


def paragraph_height(value: str) -> float:
    """Estimated height of ``value`` set as a paragraph across the text width."""
    if not value:
        return 0.0
    return math.ceil(text_width(value) / (TEXT_WIDTH_PT * 0.95)) * LINE_PT + SMALLSKIP_PT


def float_chunks(heights: list[float], groups: list[int], room: float) -> list[range]:
    """Rows split into floats of at most ``room`` points of rows; a row group starts a new float
    rather than straddle two, unless the group alone is taller than a float."""
    chunks: list[range] = []
    start, used, i, n = 0, 0.0, 0, len(heights)
    while i < n:
        end = i
        while end < n and groups[end] == groups[i]:
            end += 1
        height = sum(heights[i:end]) + (ADDSPACE_PT if i > start else 0.0)
        if i > start and used + height > room:
            chunks.append(range(start, i))
            start, used = i, 0.0
            continue
        if height > room:  # a group taller than a float: split by rows
            for r in range(i, end):
                if r > start and used + heights[r] > room:
                    chunks.append(range(start, r))
                    start, used = r, 0.0
                used += heights[r]
        else:
            used += height
        i = end
    chunks.append(range(start, n))
    return chunks


def tabular(columns: list[Column], rows: range, group_starts=frozenset()) -> list[str]:
    lines = [
        "\\begin{tabular}{" + "".join(c.spec for c in columns) + "}",
        "\\toprule",
        " & ".join(c.header for c in columns) + " \\\\",
        "\\midrule",
    ]
    for i in rows:
        if i in group_starts and i != rows.start:
            lines.append("\\addlinespace")
        cells = [c.cells[i] for c in columns]
        if cells and cells[0][:1] in "[*":  # would be read as an argument of the previous row's \\
            cells[0] = "{}" + cells[0]
        lines.append(" & ".join(cells) + " \\\\")
    return lines + ["\\bottomrule", "\\end{tabular}"]


def table_latex(table) -> str:
    """The LaTeX source of ``table`` (a :class:`ccreport.render.tables.Table`); see the module
    docstring."""
    marks = footnote_marks(table.rows)
    columns, wide = fitted_layout(table, marks)
    rows, groups = table.rows, list(range(len(table.rows)))
    form = "wide form"
    if wide > TEXT_WIDTH_PT and len(table.columns) > 1:
        long = long_form(table)
        rows, groups = long.rows, long.groups
        columns = long_layout(long, marks)
        form = f"long form (one row per row and column: the wide form needs {wide:.0f}pt)"
    n = len(rows)
    label = f"tab:{table.key}"
    head = max(c.header_lines for c in columns) * LINE_PT + RULES_PT
    legend = " ".join(f"{letter}: {words}." for words, letter in marks.items())
    room = (
        FLOAT_HEIGHT_PT
        - head
        - max(paragraph_height(table.caption) + CAPTION_SKIP_PT, CONTINUED_PT)
        - paragraph_height(legend)
    )
    heights = row_heights(columns, n)
    chunks = float_chunks(heights, groups, room) if n else [range(0)]
    last = chunks[-1]
    if n and sum(heights[i] for i in last) > room - paragraph_height(table.note):
        # the table's note goes under the last float: make room for it there
        tail = float_chunks(
            heights[last.start :], groups[last.start :], room - paragraph_height(table.note)
        )
        chunks[-1:] = [range(r.start + last.start, r.stop + last.start) for r in tail]
    starts = frozenset(
        i for i in range(n) if form != "wide form" and i > 0 and groups[i] != groups[i - 1]
    )
    lines = [
        "% generated by ccreport; needs " + "".join(f"\\usepackage{{{p}}}" for p in PACKAGES),
        f"% {form}, {len(chunks)} float(s) of one tabular each; fits the \\textwidth "
        f"({TEXT_WIDTH_PT:.0f}pt) of a one-column article: table, not table*",
    ]
    for k, chunk in enumerate(chunks):
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
        lines += tabular(columns, chunk, starts)
        used = [
            (words, letter)
            for words, letter in marks.items()
            if any(footnote_text(letter) in c.cells[i] for c in columns for i in chunk)
        ]
        notes = [f"{footnote_text(letter)}\\,{escape(words)}." for words, letter in used]
        if table.note and k == len(chunks) - 1:
            notes.append(escape(table.note))
        if notes:
            lines.append(
                "\\par\\smallskip{\\footnotesize\\raggedright " + " ".join(notes) + "\\par}"
            )
        lines += ["\\end{table}", ""]
    return "\n".join(lines)
