"""A data file's rows and columns: where each row is in the file (lines, for messages), the
accumulators that convert a column a chunk of rows at a time and collect its problems by row, and
the line-by-line CSV reader (:func:`open_table`, :class:`CsvTable`). :mod:`ccreport.project.loaders`
turns them into a Dataset.
"""

from __future__ import annotations

import csv
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import Problem

MAX_REPORTED = 5
CHUNK_ROWS = 1 << 16


# --- where rows are --------------------------------------------------------------------------


class LineMap:
    """The physical line where each data row starts.

    Without quoted line breaks a row's line is ``row + offset`` for one offset; each quoted line
    break shifts the offset for the rows after it, and only those shifts are stored.
    """

    def __init__(self, offset: int):
        self._rows = [1]
        self._offsets = [offset]

    @property
    def offset(self) -> int:
        return self._offsets[-1]

    def shift(self, row: int, offset: int) -> None:
        self._rows.append(row)
        self._offsets.append(offset)

    def line(self, row: int) -> int:
        return row + self._offsets[bisect_right(self._rows, row) - 1]


class NoLines:
    """Rows of a file that has no lines (Parquet): problems name the row only."""

    offset = 0

    def line(self, row: int) -> None:
        return None


@dataclass
class ColumnProblems:
    """The problems of one column: the first :data:`MAX_REPORTED` in full, the rest counted."""

    file: str
    column: str
    lines: LineMap | NoLines
    reported: list[Problem] = field(default_factory=list)
    more: int = 0

    def add(self, row: int | None, expected: str) -> None:
        if len(self.reported) >= MAX_REPORTED:
            self.more += 1
            return
        line = None if row is None else self.lines.line(row)
        self.reported.append(Problem(self.file, self.column, expected, line=line, row=row))

    def add_cells(self, positions: np.ndarray, rows: np.ndarray, expected) -> None:
        """A problem for each position, ``expected(position)`` saying what is wrong there."""
        room = max(0, MAX_REPORTED - len(self.reported))
        for position in positions[:room]:
            self.add(int(rows[position]), expected(int(position)))
        self.more += max(0, len(positions) - room)

    def problems(self) -> list[Problem]:
        if not self.more:
            return list(self.reported)
        summary = Problem(
            self.file, self.column, f"and {self.more} more rows with problems in this column"
        )
        return [*self.reported, summary]


def quoted(value: str) -> str:
    return '"' + value + '"'


# --- columns, accumulated a chunk of rows at a time --------------------------------------------


class NumberColumn:
    """A column of finite numbers, converted in bulk; unreadable and non-finite cells reported."""

    def __init__(self, problems: ColumnProblems):
        self.problems = problems
        self._parts: list[np.ndarray] = []

    def add(self, cells: list[str], rows: np.ndarray) -> None:
        try:
            values = np.asarray(cells, dtype=np.float64)
        except ValueError:
            values = np.array([_float_or_nan(cell) for cell in cells], dtype=np.float64)
        bad = np.flatnonzero(~np.isfinite(values))
        if bad.size:
            self.problems.add_cells(bad, rows, lambda position: _number_problem(cells[position]))
        self._parts.append(values)

    def add_values(self, values: np.ndarray, rows: np.ndarray, text) -> None:
        """Numbers converted already (Parquet); ``text(position)`` is the cell as text, for
        problems."""
        bad = np.flatnonzero(~np.isfinite(values))
        if bad.size:
            self.problems.add_cells(bad, rows, lambda position: _number_problem(text(position)))
        self._parts.append(values)

    def values(self) -> np.ndarray:
        return np.concatenate(self._parts) if self._parts else np.empty(0)


def _float_or_nan(cell: str) -> float:
    try:
        return float(cell)
    except ValueError:
        return float("nan")


def _number_problem(cell: str) -> str:
    """What is wrong with a cell that did not give a finite number."""
    text = cell.strip()
    if not text:
        return "empty cell; expected a number"
    try:
        float(text)
    except ValueError:
        return f"expected a number, got {quoted(text)}"
    return f"expected a finite number, got {quoted(text)}"


class CategoryColumn:
    """A column of a few distinct text values (classes, folds), kept as integer codes."""

    def __init__(self, problems: ColumnProblems):
        self.problems = problems
        self._index: dict[str, int] = {}
        self._parts: list[np.ndarray] = []

    def add(self, cells: list[str], rows: np.ndarray) -> None:
        index = self._index
        codes = [index.setdefault(cell, len(index)) for cell in cells]
        self._parts.append(np.asarray(codes, dtype=np.int64))

    def add_coded(self, texts: Sequence[str], codes: np.ndarray) -> None:
        """Cells given as their distinct texts and each row's index into them (Arrow's reading)."""
        index = self._index
        recode = np.array(
            [index.setdefault(text, len(index)) for text in texts] or [0], dtype=np.int64
        )
        self._parts.append(recode[codes])

    def coded(self) -> tuple[tuple[str, ...], np.ndarray]:
        """The distinct values, whitespace stripped, and each row's code into them."""
        stripped = [raw.strip() for raw in self._index]
        values = tuple(dict.fromkeys(stripped))
        position = {value: code for code, value in enumerate(values)}
        recode = np.array([position[value] for value in stripped] or [0], dtype=np.int64)
        codes = np.concatenate(self._parts) if self._parts else np.empty(0, dtype=np.int64)
        return values, recode[codes]


# --- reading the file ------------------------------------------------------------------------


@dataclass
class CsvTable:
    """The header of a CSV file and a reader positioned at its first data row (for Arrow's reading
    and Parquet, no reader; a Parquet file's header is its schema's names, on no line)."""

    file: str
    header: list[str]
    header_line: int | None
    reader: object
    lines: LineMap | NoLines
    rows: np.ndarray = field(
        default_factory=lambda: np.empty(0, dtype=np.int64)
    )  # kept rows' numbers

    def positions(self) -> dict[str, list[int]]:
        """Where each column name occurs in the header."""
        found: dict[str, list[int]] = {}
        for position, name in enumerate(self.header):
            found.setdefault(name, []).append(position)
        return found

    def read(self, columns: dict[int, list]) -> list[Problem]:
        """Feed each wanted column's cells to its accumulators; return problems of the rows' shape.

        ``columns`` maps a field's position to the accumulators of that column. Rows go to them a
        chunk at a time; the kept rows' numbers end up in ``self.rows``.
        """
        ragged = ColumnProblems(self.file, "fields", self.lines)
        unreadable = []
        width, chunk, chunk_rows, kept = len(self.header), [], [], []
        last_line = self.header_line
        try:
            for row, record in enumerate(self.reader, start=1):
                line, last_line = last_line + 1, self.reader.line_num
                if line - row != self.lines.offset:  # a quoted line break came before this row
                    self.lines.shift(row, line - row)
                if len(record) == width:
                    chunk.append(record)
                    chunk_rows.append(row)
                    if len(chunk) == CHUNK_ROWS:
                        kept.append(_feed(columns, chunk, chunk_rows))
                        chunk, chunk_rows = [], []
                elif not _blank(record):
                    ragged.add(row, f"expected {width} fields, as in the header, got {len(record)}")
        except csv.Error as error:  # the rows before it are still checked
            unreadable.append(
                Problem(self.file, "CSV", f"unreadable: {error}", line=self.reader.line_num)
            )
        if chunk:
            kept.append(_feed(columns, chunk, chunk_rows))
        self.rows = np.concatenate(kept) if kept else np.empty(0, dtype=np.int64)
        if self.rows.size == 0 and not ragged.reported and not unreadable:
            return [
                Problem(self.file, "rows", "no data rows after the header", line=self.header_line)
            ]
        return ragged.problems() + unreadable


def _blank(record: list[str]) -> bool:
    return not record or (len(record) == 1 and not record[0].strip())


def _feed(columns: dict[int, list], chunk: list[list[str]], chunk_rows: list[int]) -> np.ndarray:
    rows = np.asarray(chunk_rows, dtype=np.int64)
    for position, accumulators in columns.items():
        cells = [record[position] for record in chunk]
        for accumulator in accumulators:
            accumulator.add(cells, rows)
    return rows


def encoding_problem(path: Path, file: str) -> Problem:
    """Where a file that is not UTF-8 first fails to decode."""
    data = path.read_bytes()
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        expected = (
            f"expected UTF-8 text, got byte 0x{data[error.start]:02x}; save the file as UTF-8"
        )
        return Problem(file, "encoding", expected, line=line)
    return Problem(file, "encoding", "expected UTF-8 text")


def open_table(stream, file: str) -> tuple[CsvTable | None, list[Problem]]:
    """The header of a CSV text stream (leading blank lines skipped), or the problem if there is
    none."""
    reader = csv.reader(stream, skipinitialspace=True)
    try:
        for header in reader:
            if any(name.strip() for name in header):
                names = [name.strip() for name in header]
                return CsvTable(file, names, reader.line_num, reader, LineMap(reader.line_num)), []
    except csv.Error as error:
        return None, [Problem(file, "header", f"unreadable CSV: {error}", line=reader.line_num)]
    return None, [
        Problem(
            file,
            "header",
            "the file is empty; expected a header row naming the columns, then data rows",
        )
    ]
