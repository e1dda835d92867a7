"""Columns of a data file read with Apache Arrow: CSV by Arrow's multi-threaded reader, and Parquet.

:mod:`ccreport.project.loaders` checks and assembles a dataset; this module only gets the wanted
columns out of the file, fast:

- **CSV** (:func:`read_csv_columns`): Arrow's reader parses blocks of the file on every core and
  converts the score and cost columns to float64 itself. It is the *fast path* of a well-formed
  file: whenever Arrow cannot take the file exactly as the line-by-line reader of
  :mod:`ccreport.project.loaders` would (a quote in the header, a ragged row, a cell Arrow cannot
  convert, a row that is all spaces, a file that is not UTF-8, ...) it raises :class:`NotFast`, and
  the loader reads the file the slow way, which words every problem with its line and row. Where
  Arrow does convert a number it gives the same float64 as Python's ``float`` (both round
  correctly; Arrow accepts a subset of Python's spellings: no ``1_000``, no non-ASCII digits).
- **Parquet** (:func:`read_parquet_columns`): typed columns, read on every core; a row is the
  1-based row of the table, and there are no lines.

:func:`file_digest` hashes a file and checks it is UTF-8 in one pass over its bytes.

pyarrow is imported by the functions that use it, not with this module: importing it takes about
0.1 CPU s and its first conversion imports pandas (0.15 s more), which a build of small CSV files,
read line by line (:data:`ccreport.project.loaders.ARROW_MIN_BYTES`), never needs.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pyarrow as pa

PARQUET_SUFFIXES = (".parquet", ".pq")
BOM = codecs.BOM_UTF8
HEAD_BYTES = 1 << 20  # the header must end within the first MiB for the fast path


class NotFast(Exception):
    """Arrow cannot read this CSV file exactly as the line-by-line reader would; use that reader."""


class Unreadable(Exception):
    """A Parquet file Arrow cannot read; the message is Arrow's first line."""


def _unreadable(error: Exception) -> Unreadable:
    return Unreadable((str(error).strip().splitlines() or [type(error).__name__])[0])


def is_parquet(path: str | Path) -> bool:
    """Whether a data file is Parquet (by its suffix, ``.parquet`` or ``.pq``)."""
    return Path(path).suffix.lower() in PARQUET_SUFFIXES


def file_digest(path: str | Path) -> tuple[str, bool]:
    """The hex SHA-256 of a file's bytes, and whether the bytes are valid UTF-8 text."""
    digest = hashlib.sha256()
    decoder = codecs.getincrementaldecoder("utf-8")()
    utf8 = True
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
            pending = decoder.getstate()[0]  # the bytes of a character split across blocks
            if utf8 and (pending or not block.isascii()):
                try:
                    decoder.decode(block)
                except UnicodeDecodeError:
                    utf8 = False
    if utf8:
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            utf8 = False
    return digest.hexdigest(), utf8


def release_unused() -> None:
    """Give back to the system the memory Arrow's allocator keeps from freed buffers.

    Arrow's pool (mimalloc or jemalloc) keeps freed memory for its own reuse; numpy, which holds the
    converted columns, cannot use it, so after reading it is dead weight for the rest of the build
    (1.26 GB resident after loading a 10^7-row Parquet file with 5 columns, 0.55 GB after
    this). Nothing to give back, and nothing imported, when Arrow has not been used.
    """
    pa = sys.modules.get("pyarrow")
    if pa is not None:
        pa.default_memory_pool().release_unused()


# --- CSV -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CsvHeader:
    """A CSV file's header row: the column names (whitespace stripped), its line, and the byte
    offset where the data rows start."""

    names: list[str]
    line: int
    offset: int


def csv_header(path: str | Path) -> CsvHeader | None:
    """The header of a CSV file, as the line-by-line reader finds it: the first line with a
    non-blank field, leading blank lines skipped, a UTF-8 byte-order mark ignored.

    None when the fast path cannot start from it (no complete header line in the first MiB, a
    quoted line break or a lone carriage return in it, bytes that are not UTF-8).
    """
    with open(path, "rb") as stream:
        head = stream.read(HEAD_BYTES)
    start = len(BOM) if head.startswith(BOM) else 0
    line = 0
    while True:
        end = head.find(b"\n", start)
        if end < 0:
            return None
        raw = head[start:end]
        line += 1
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if b"\r" in raw:
            return None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
        reader = csv.reader(io.StringIO(text + "\nend\n"), skipinitialspace=True)
        fields = next(reader, [])
        if reader.line_num != 1:  # a quoted field goes on past this line
            return None
        if any(name.strip() for name in fields):
            return CsvHeader([name.strip() for name in fields], line, end + 1)
        start = end + 1


def read_csv_columns(
    path: str | Path, header: CsvHeader, numbers: list[int], texts: list[int]
) -> tuple[int, dict[int, pa.ChunkedArray]]:
    """The data rows' count and the wanted fields (by 0-based position): ``numbers`` as float64,
    ``texts`` as strings exactly as written (not stripped). Raises :class:`NotFast`."""
    import pyarrow as pa
    import pyarrow.csv as arrow_csv

    if set(numbers) & set(texts):
        raise NotFast("a column wanted both as numbers and as text")
    names = [f"f{position}" for position in range(len(header.names))]
    types = {names[p]: pa.float64() for p in numbers} | {names[p]: pa.string() for p in texts}
    read = arrow_csv.ReadOptions(column_names=names, use_threads=True)
    parse = arrow_csv.ParseOptions(
        newlines_in_values=True
    )  # a quoted line break stays in its cell, as in csv
    convert = arrow_csv.ConvertOptions(
        include_columns=[names[p] for p in sorted({*numbers, *texts})],
        column_types=types,
        null_values=[],
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
        check_utf8=True,
    )
    try:
        with pa.memory_map(str(path)) as source:
            source.seek(header.offset)
            data = arrow_csv.read_csv(pa.BufferReader(source.read_buffer()), read, parse, convert)
    except (
        pa.ArrowInvalid,
        pa.ArrowNotImplementedError,
    ) as error:  # ragged rows, unconvertible cells
        raise NotFast(str(error)) from error
    if data.num_rows == 0:
        raise NotFast("no data rows")
    return data.num_rows, {p: data.column(names[p]) for p in (*numbers, *texts)}


def finite_floats(column: pa.ChunkedArray) -> np.ndarray:
    """A float64 column as numpy; :class:`NotFast` if any value is NaN or infinite (the slow
    reader words those problems)."""
    values = column.to_numpy()
    if not np.isfinite(values).all():
        raise NotFast("a number that is not finite")
    return values


# --- any Arrow column --------------------------------------------------------------------------


def coded_texts(column: pa.ChunkedArray) -> tuple[list[str], np.ndarray]:
    """The distinct values of a column as text, in order of first appearance, and each row's
    index into them (int64). A missing value is the empty text; a value of another type is its
    Python ``str`` (1, 1.5, True), as pandas writes it to CSV. Work is O(n) in Arrow plus
    O(distinct) in Python."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_dictionary(column.type):
        column = column.cast(column.type.value_type)
    distinct = pc.unique(column)
    codes = pc.index_in(column, value_set=distinct).to_numpy(zero_copy_only=False).astype(np.int64)
    texts = [
        "" if value is None else value if isinstance(value, str) else str(value)
        for value in distinct.to_pylist()
    ]
    return texts, codes


# --- Parquet ---------------------------------------------------------------------------------


def parquet_names(path: str | Path) -> list[str]:
    """The column names of a Parquet file (read from its footer only)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return list(pq.read_schema(str(path)).names)
    except pa.ArrowException as error:
        raise _unreadable(error) from error


def read_parquet_columns(path: str | Path, names: list[str]) -> pa.Table:
    """The named columns of a Parquet file, read on every core."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.read_table(str(path), columns=names, use_threads=True)
    except pa.ArrowException as error:
        raise _unreadable(error) from error


def is_numeric(column: pa.ChunkedArray) -> bool:
    """Whether an Arrow column holds numbers (integers, floats, decimals; dictionary of those)."""
    import pyarrow as pa

    kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
    return pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind)


def is_nested(column: pa.ChunkedArray) -> bool:
    """Whether an Arrow column holds lists, structs, maps or unions (no class or fold is one)."""
    import pyarrow as pa

    kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
    return pa.types.is_nested(kind) or pa.types.is_union(kind)


def is_text(column: pa.ChunkedArray) -> bool:
    import pyarrow as pa

    kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
    return pa.types.is_string(kind) or pa.types.is_large_string(kind)


def numeric_floats(column: pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray]:
    """A numeric column as float64 (a missing value as NaN) and where values are missing."""
    import pyarrow as pa

    if pa.types.is_dictionary(column.type):
        column = column.cast(column.type.value_type)
    missing = column.is_null().to_numpy(zero_copy_only=False)
    values = column.cast(pa.float64()).to_numpy(zero_copy_only=False)
    return np.asarray(values, dtype=np.float64), np.asarray(missing, dtype=bool)


def text_cells(column: pa.ChunkedArray) -> list[str]:
    """A text column's cells as Python strings, a missing value as the empty text."""
    import pyarrow as pa

    if pa.types.is_dictionary(column.type):
        column = column.cast(column.type.value_type)
    return ["" if cell is None else cell for cell in column.to_pylist()]
