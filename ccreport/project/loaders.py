"""Read a dataset's CSV or Parquet file into arrays: true classes, scores or crisp predictions,
folds, costs.

A CSV file: UTF-8 text (a byte-order mark is fine), comma-separated, a header row naming the
columns, then one row per instance. Fields may be quoted; whitespace around a field is ignored;
blank lines are skipped. Only the columns the manifest names are converted. A well-formed file of
at least :data:`ARROW_MIN_BYTES` is read by Arrow's multi-threaded CSV reader
(:mod:`ccreport.project.columnar`); any other is streamed line by line, converted in bulk with numpy
a chunk of rows at a time, and that reader words every problem. Both give the same arrays, to the
bit. A Parquet file (``.parquet``, ``.pq``): its schema's names are the header; numbers come from
numeric columns, classes and folds from columns of any scalar type as text (a list, struct, map or
union column is a problem); problems name the row (1-based) and no line.

What the manifest names:

- ``label``: the true class. ``positive`` is the positive class; the negative class is the one
  other value of the column. A third value, a missing positive class or a single class is an error.
- a classifier's ``scores``: finite numbers, higher = more positive; its ``predictions``: crisp
  labels, each one of the two class values. A classifier is evaluated on every dataset whose file
  has its column; a column in no file at all is an error.
- ``fold``: non-empty values, coded 0..k-1 in sorted order (numeric order when all are integers).
- ``costs``: a column of finite numbers >= 0 (each positive's false-negative cost, each
  negative's false-positive cost), or the cells of a cost-benefit matrix (columns or numbers),
  reduced per row to ``fn + tp`` for positives and ``fp + tn`` for negatives (Fawcett 2006,
  section 3); every cell of a cost column must be a finite number, every misclassification cost
  (``fn``, ``fp``) >= 0 (benefits are ``tp``, ``tn``), each row's result >= 0 and at most
  :func:`cost_limit` (any sum of the n costs stays finite), and each class's total > 0.
  ``Dataset.costs`` holds the result, one cost per instance.

Every problem names the file, the line, the row and the column::

    data/sonar.csv:9: row 8: logreg: expected a number, got "abc"

``line`` is the physical line where the row starts, as an editor shows it (the header is line 1);
``row`` is the 1-based data row (the first row after the header is row 1; blank lines count), so
without quoted line breaks line = row + 1. At most :data:`MAX_REPORTED` problems are reported
per column, then one line counting the rest.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..analysis.instance_costs import transformed_costs
from ..errors import Problem, UserInputError
from . import columnar
from .data_table import (
    MAX_REPORTED,
    CategoryColumn,
    ColumnProblems,
    CsvTable,
    LineMap,
    NoLines,
    NumberColumn,
    encoding_problem,
    open_table,
    quoted,
)
from .manifest import ClassifierSpec, CostSpec, DatasetSpec, Project
from .manifest import display_path as path_for_messages

_INTEGER = re.compile(r"[+-]?\d+")


@dataclass(frozen=True, eq=False)
class Dataset:
    """One dataset's instances: true classes and what each classifier said about them."""

    name: str
    path: Path
    sha256: str  # hex digest of the file's bytes
    labels: np.ndarray  # bool, True = positive
    positive_label: str
    negative_label: str
    scores: dict[str, np.ndarray]  # classifier name -> float64 scores
    predictions: dict[str, np.ndarray]  # classifier name -> bool, True = predicted positive
    folds: np.ndarray | None = None  # int codes 0..k-1, in the order of fold_names
    fold_names: tuple[str, ...] = ()
    costs: np.ndarray | None = None  # float64: each positive's FN cost, each negative's FP cost
    cost_unit: str | None = None  # the manifest's ``costs.unit`` label ("DM"), if any

    @property
    def n_pos(self) -> int:
        return int(np.count_nonzero(self.labels))

    @property
    def n_neg(self) -> int:
        return int(self.labels.size - self.n_pos)


def sha256_file(path: str | Path) -> str:
    """Hex SHA-256 digest of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --- one dataset -----------------------------------------------------------------------------


@dataclass
class Wanted:
    """The accumulators for the columns a dataset needs, keyed by column name."""

    table: CsvTable
    numbers: dict[str, NumberColumn] = field(default_factory=dict)
    categories: dict[str, CategoryColumn] = field(default_factory=dict)
    others: list[Problem] = field(default_factory=list)  # problems of no column (after them)

    def number(self, column: str) -> NumberColumn:
        if column not in self.numbers:
            self.numbers[column] = NumberColumn(self._problems_of(column))
        return self.numbers[column]

    def category(self, column: str) -> CategoryColumn:
        if column not in self.categories:
            self.categories[column] = CategoryColumn(self._problems_of(column))
        return self.categories[column]

    def _problems_of(self, column: str) -> ColumnProblems:
        for accumulator in (*self.numbers.values(), *self.categories.values()):
            if accumulator.problems.column == column:
                return accumulator.problems
        return ColumnProblems(self.table.file, column, self.table.lines)

    def by_position(self, positions: dict[str, list[int]]) -> dict[int, list]:
        feeds: dict[int, list] = {}
        for column, accumulator in (*self.numbers.items(), *self.categories.items()):
            feeds.setdefault(positions[column][0], []).append(accumulator)
        return feeds

    def problems(self) -> list[Problem]:
        """Every column's problems, column by column in the order of the header."""
        by_column = {
            a.problems.column: a.problems
            for a in (*self.numbers.values(), *self.categories.values())
        }
        order = self.table.positions()
        problems = []
        for column in sorted(by_column, key=lambda column: order[column][0]):
            problems.extend(by_column[column].problems())
        return problems + self.others


def _missing_column(table: CsvTable, column: str, role: str) -> Problem:
    close = suggestion(column, table.header)
    hint = (
        f"; did you mean {quoted(close)}?"
        if close
        else f"; the header has {_listing(table.header)}"
    )
    return Problem(table.file, column, f"column not found ({role}){hint}", line=table.header_line)


def suggestion(word: str, options: Sequence[str]) -> str | None:
    """The option the user probably meant: a near spelling, another case, or the same number."""
    close = difflib.get_close_matches(word, list(options), n=1)
    if close:
        return close[0]
    for option in options:
        if option.lower() == word.lower() or _same_number(option, word):
            return option
    return None


def _same_number(a: str, b: str) -> bool:
    try:
        return float(a) == float(b)
    except ValueError:
        return False


def _listing(values: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(quoted(value) for value in values[:limit])
    return shown + (f" and {len(values) - limit} more" if len(values) > limit else "")


def _check_columns(
    table: CsvTable, required: dict[str, str], optional: Sequence[str]
) -> tuple[set[str], list[Problem]]:
    """Which wanted columns the header has exactly once, and problems for the required ones it
    lacks."""
    positions = table.positions()
    problems, present = [], set()
    for column in dict.fromkeys([*required, *optional]):
        count = len(positions.get(column, ()))
        if count == 1:
            present.add(column)
        elif count > 1:
            fields = ", ".join(str(p + 1) for p in positions[column])
            problems.append(
                Problem(
                    table.file,
                    column,
                    f"expected one column of this name, got {count} (fields {fields})",
                    line=table.header_line,
                )
            )
        elif column in required:
            problems.append(_missing_column(table, column, required[column]))
    return present, problems


def _required_columns(spec: DatasetSpec) -> dict[str, str]:
    """Column name -> the manifest key that names it, for the columns that must exist."""
    required = {spec.label: f"the label of dataset {quoted(spec.name)}"}
    if spec.fold is not None:
        required.setdefault(spec.fold, f"the fold of dataset {quoted(spec.name)}")
    costs = CostSpec.of(spec.costs)
    for column in costs.columns if costs is not None else ():
        required.setdefault(column, f"the costs of dataset {quoted(spec.name)}")
    return required


@dataclass
class Classes:
    """The two class values of a label column and each row's class."""

    positive: str
    negative: str
    labels: np.ndarray


def _classes(column: CategoryColumn, positive: str, rows: np.ndarray) -> Classes | None:
    """Check the label column holds the positive value and exactly one other, and code it."""
    values, codes = column.coded()
    counts = np.bincount(codes, minlength=len(values))
    present = {value: int(count) for value, count in zip(values, counts) if count and value}
    problems = column.problems
    if "" in values:
        empty = np.flatnonzero(codes == values.index(""))
        problems.add_cells(empty, rows, lambda _: "empty cell; expected a class value")
    if positive not in present:
        described = ", ".join(
            f"{quoted(v)} ({_rows(n)})" for v, n in list(present.items())[:MAX_REPORTED]
        )
        close = suggestion(positive, list(present)[:100])
        hint = f"; did you mean {quoted(close)}?" if close else ""
        problems.add(
            None,
            f"the positive class {quoted(positive)} does not occur; the column holds "
            f"{described or 'no values'}{hint}",
        )
        return None
    others = sorted(
        (value for value in present if value != positive),
        key=lambda value: (-present[value], value),
    )
    if not others:
        count = present[positive]
        problems.add(
            None,
            f"only one class present: {_rows(count)} {'is' if count == 1 else 'are'} all "
            f"{quoted(positive)}; a cost curve needs both classes",
        )
        return None
    negative = others[0]
    if len(others) > 1:
        stray = np.flatnonzero(np.isin(codes, [values.index(value) for value in others[1:]]))
        expected = f"expected {quoted(positive)} (positive) or {quoted(negative)} (negative)"
        third = "a cost curve needs exactly two classes"
        problems.add_cells(
            stray,
            rows,
            lambda position: f"{expected}, got {quoted(values[codes[position]])}: {third}",
        )
        return None
    return Classes(positive, negative, codes == values.index(positive))


def _rows(count: int) -> str:
    return "1 row" if count == 1 else f"{count} rows"


def _class_values(label: CategoryColumn | None, classes: Classes | None) -> tuple[str, ...]:
    """The values crisp predictions may take: the two classes, else whatever the label column
    holds."""
    if classes is not None:
        return (classes.positive, classes.negative)
    if label is None:
        return ()
    values, _ = label.coded()
    return tuple(value for value in values if value)


def _predictions(
    column: CategoryColumn, allowed: Sequence[str], positive: str, rows: np.ndarray
) -> np.ndarray:
    """Crisp predictions as bool (True = positive); cells that are not a class value are
    problems."""
    values, codes = column.coded()
    wrong = [code for code, value in enumerate(values) if value not in allowed]
    if wrong:
        if len(allowed) == 2:
            expected = (
                f"expected {quoted(allowed[0])} or {quoted(allowed[1])} (the classes of the "
                "label column)"
            )
        else:
            expected = f"expected one of {_listing(allowed)} (the values of the label column)"
        bad = np.flatnonzero(np.isin(codes, wrong))

        def describe(position: int) -> str:
            value = values[codes[position]]
            return f"empty cell; {expected}" if not value else f"{expected}, got {quoted(value)}"

        column.problems.add_cells(bad, rows, describe)
    return (
        codes == values.index(positive) if positive in values else np.zeros(codes.size, dtype=bool)
    )


def fold_order(values: Sequence[str]) -> list[str]:
    """Fold values sorted: numerically when all are integers, else as text."""
    if all(_INTEGER.fullmatch(value) for value in values):
        return sorted(values, key=lambda value: (int(value), value))
    return sorted(values)


def _folds(column: CategoryColumn, rows: np.ndarray) -> tuple[np.ndarray, tuple[str, ...]]:
    values, codes = column.coded()
    if "" in values:
        empty = np.flatnonzero(codes == values.index(""))
        column.problems.add_cells(empty, rows, lambda _: "empty cell; expected the row's fold")
    names = fold_order([value for value in values if value])
    rank = {name: code for code, name in enumerate(names)}
    recode = np.array([rank.get(value, -1) for value in values] or [0], dtype=np.int64)
    return recode[codes], tuple(names)


def _costs(
    costs: CostSpec | None, wanted: Wanted, classes: Classes | None, rows: np.ndarray
) -> np.ndarray | None:
    """Each row's cost after the cost-benefit transform (Fawcett 2006, section 3). Problems of the
    class's (first) cost column: a negative misclassification cost (a cell of an ``fn`` or ``fp``
    column: a benefit goes in ``tp``/``tn``), a row whose cost is negative or whose ``error +
    benefit`` overflows, a cost above :func:`cost_limit` (so that any sum of ``n`` costs, a class
    total or a bootstrap resample's, stays finite), and a class whose costs are all 0."""
    if (
        costs is None
        or classes is None
        or any(column not in wanted.numbers for column in costs.columns)
    ):
        return None
    cells = {
        key: wanted.numbers[c].values() if isinstance(c, str) else c
        for key, c in zip(("fn", "fp", "tp", "tn"), costs.cells())
    }
    with np.errstate(over="ignore", invalid="ignore"):
        values = transformed_costs(classes.labels, **cells)
    limit = cost_limit(values.size)
    for in_class, error, benefit, who in (
        (classes.labels, "fn", "tp", "positive"),
        (~classes.labels, "fp", "tn", "negative"),
    ):
        columns = [
            c for c in (getattr(costs, error), getattr(costs, benefit)) if isinstance(c, str)
        ]
        if not columns:  # numbers only: the manifest checked their sum is finite and > 0
            fixed = float(values[in_class][0]) if in_class.any() else 0.0
            if fixed > limit:
                wanted.others.append(
                    Problem(
                        wanted.table.file,
                        f"costs.{error}",
                        f"expected {error} + {benefit} of at most {limit:.6g} for {values.size} "
                        f"rows (so that a sum of their costs stays finite), got {fixed!r}",
                    )
                )
            continue
        problems = wanted.numbers[columns[0]].problems
        both = getattr(costs, error) != 0.0 and getattr(costs, benefit) != 0.0
        error_cells = np.broadcast_to(np.asarray(cells[error], dtype=float), values.shape)
        readable = np.isfinite(error_cells) & np.isfinite(
            np.broadcast_to(np.asarray(cells[benefit], dtype=float), values.shape)
        )
        refused = ~readable  # a cell that is not a number: its column reported it
        if (
            isinstance(getattr(costs, error), str) and both
        ):  # alone, a negative cost is a negative row cost (below)
            negative_cost = in_class & (error_cells < 0)
            wanted.numbers[getattr(costs, error)].problems.add_cells(
                np.flatnonzero(negative_cost),
                rows,
                lambda position, benefit=benefit, error_cells=error_cells: (
                    f"expected a misclassification cost >= 0 (benefits go in {benefit} of the "
                    f"cost-benefit form), got {float(error_cells[position])!r}"
                ),
            )
            refused |= negative_cost

        def expected(position: int, error=error, benefit=benefit, both=both) -> str:
            got = float(values[position])
            if not np.isfinite(got):
                return (
                    f"expected {error} + {benefit} a finite number, got {got!r} (the sum "
                    "overflows double precision)"
                )
            if got > limit:
                return (
                    f"expected a cost of at most {limit:.6g} (so that a sum of the {values.size} "
                    f"rows' costs stays finite), got {got!r}"
                )
            if not both:
                return f"expected a cost >= 0, got {got!r}"
            parts = ", ".join(
                f"{key} = {float(np.broadcast_to(cells[key], values.shape)[position])!r}"
                for key in (error, benefit)
            )
            return (
                f"expected {error} + {benefit} >= 0 after the cost-benefit transform, got "
                f"{got!r} ({parts})"
            )

        bad = np.flatnonzero(in_class & ~refused & ~((values >= 0) & (values <= limit)))
        problems.add_cells(bad, rows, expected)
        if not bad.size and not refused[in_class].any() and not np.any(values[in_class] > 0):
            problems.add(
                None,
                f"every {who} row costs 0 ({error} + {benefit}); expected a total > 0 in each "
                "class (an instance-cost ROC curve divides by it)",
            )
    return values


def cost_limit(n: int) -> float:
    """The largest per-instance cost for ``n`` instances: ``n`` times it (any class total, any
    bootstrap resample's total, a total over both classes) is finite in double precision, with a
    factor 4 to spare for the sums of such totals."""
    return float(np.finfo(np.float64).max) / (4.0 * max(n, 1))


def _fold_problems(spec: DatasetSpec, data: Dataset | None, file: str) -> list[Problem]:
    """A project's folds must let fold averaging run: at least one fold holds both classes."""
    if data is None or data.folds is None or not data.fold_names:
        return []
    if _some_fold_has_both(data.folds, data.labels, len(data.fold_names)):
        return []
    n = len(data.fold_names)
    return [
        Problem(
            file,
            spec.fold,
            f"no fold holds both classes ({n} fold{'s' if n != 1 else ''}, each all one class); "
            "fold averaging needs at least one fold with positives and negatives",
        )
    ]


def _some_fold_has_both(folds: np.ndarray, labels: np.ndarray, n_folds: int) -> bool:
    """Whether any fold holds a positive and a negative (what ``folds.fold_average`` needs)."""
    known = folds >= 0
    positives = np.bincount(folds[known], weights=labels[known].astype(float), minlength=n_folds)
    sizes = np.bincount(folds[known], minlength=n_folds)
    return bool(np.any((positives > 0) & (positives < sizes)))


@dataclass
class Loaded:
    """What reading one dataset gave: the Dataset (None if anything is wrong), problems, header."""

    dataset: Dataset | None
    problems: list[Problem]
    header: list[str] | None


def read_dataset(spec: DatasetSpec, classifiers: Sequence[ClassifierSpec], file: str) -> Loaded:
    """Read and check one dataset's file, collecting every problem instead of stopping at one.

    Parquet is read by Arrow. A CSV file of at least :data:`ARROW_MIN_BYTES` is read by Arrow's
    multi-threaded reader when that reader can take the file as it is and nothing in it is wrong;
    otherwise, and so for every problem's words, line and row, it is streamed line by line, only
    the wanted columns of one chunk of rows held as text (see :mod:`ccreport.project.columnar`).
    """
    try:
        if columnar.is_parquet(spec.path):
            return _read_parquet(spec, classifiers, file, sha256_file(spec.path))
        digest, utf8 = columnar.file_digest(spec.path)
        fast = (
            read_csv_fast(spec, classifiers, file, digest)
            if utf8 and _arrow_pays(spec.path)
            else None
        )
        if fast is not None:
            return fast
        with open(spec.path, encoding="utf-8-sig", newline="") as stream:
            return _read_stream(stream, spec, classifiers, file, digest)
    except OSError as error:
        return Loaded(
            None, [Problem(file, "path", f"cannot read the file: {error.strerror}")], None
        )
    except UnicodeDecodeError:
        return Loaded(None, [encoding_problem(spec.path, file)], None)


def _read_stream(
    stream, spec: DatasetSpec, classifiers: Sequence[ClassifierSpec], file: str, digest: str
) -> Loaded:
    table, problems = open_table(stream, file)
    if table is None:
        return Loaded(None, problems, None)
    return _read_table(
        table,
        spec,
        classifiers,
        digest,
        lambda wanted: table.read(wanted.by_position(table.positions())),
    )


ARROW_MIN_BYTES = 2 << 20
"""CSV files smaller than this (2 MiB) are read line by line. Arrow's reader has a fixed cost in
a process (importing pyarrow, and pandas at its first conversion) and the line reader a cost per
megabyte; measured, they break even near 2.5 MB (benchmarks/README.md, benchmarks/load_speed.py)."""


def _arrow_pays(path) -> bool:
    try:
        return Path(path).stat().st_size >= ARROW_MIN_BYTES
    except OSError:  # the readers word it
        return True


def read_csv_fast(
    spec: DatasetSpec, classifiers: Sequence[ClassifierSpec], file: str, digest: str
) -> Loaded | None:
    """The dataset read by Arrow's CSV reader, or None when the line-by-line reader must read the
    file: Arrow cannot take it as it is, or something in it is wrong (that reader words it)."""
    header = columnar.csv_header(spec.path)
    if header is None:
        return None
    table = CsvTable(file, header.names, header.line, None, LineMap(header.line))
    try:
        loaded = _read_table(
            table,
            spec,
            classifiers,
            digest,
            lambda wanted: _fill_from_csv(spec.path, header, wanted),
        )
    except columnar.NotFast:
        return None
    return None if loaded.problems else loaded


def _fill_from_csv(path: Path, header: columnar.CsvHeader, wanted: Wanted) -> list[Problem]:
    """Feed the wanted columns from Arrow's CSV reader; raises columnar.NotFast."""
    table = wanted.table
    positions = table.positions()
    numbers = {positions[column][0]: accumulator for column, accumulator in wanted.numbers.items()}
    texts = {positions[column][0]: accumulator for column, accumulator in wanted.categories.items()}
    n, columns = columnar.read_csv_columns(path, header, list(numbers), list(texts))
    table.rows = np.arange(1, n + 1, dtype=np.int64)
    for position, accumulator in numbers.items():
        accumulator.add_values(columnar.finite_floats(columns[position]), table.rows, str)
    for position, accumulator in texts.items():
        values, codes = columnar.coded_texts(columns[position])
        if any(
            '"' in value for value in values
        ):  # csv's skipinitialspace unquotes ' "M"'; Arrow does not
            raise columnar.NotFast("a quote inside a cell")
        accumulator.add_coded(values, codes)
    return []


def _read_parquet(
    spec: DatasetSpec, classifiers: Sequence[ClassifierSpec], file: str, digest: str
) -> Loaded:
    """A Parquet file's dataset: its schema's names are the header; a problem names the row only."""
    try:
        names = columnar.parquet_names(spec.path)
    except columnar.Unreadable as error:
        return Loaded(None, [Problem(file, "Parquet", f"unreadable: {error}")], None)
    table = CsvTable(file, names, None, None, NoLines())
    try:
        return _read_table(
            table, spec, classifiers, digest, lambda wanted: _fill_from_parquet(spec.path, wanted)
        )
    except columnar.Unreadable as error:
        return Loaded(None, [Problem(file, "Parquet", f"unreadable: {error}")], names)


def _fill_from_parquet(path: Path, wanted: Wanted) -> list[Problem]:
    """Feed the wanted columns from a Parquet file: numbers from numeric (or text) columns, classes
    and folds from columns of any type, as text."""
    table = wanted.table
    data = columnar.read_parquet_columns(
        path, list(dict.fromkeys([*wanted.numbers, *wanted.categories]))
    )
    table.rows = np.arange(1, data.num_rows + 1, dtype=np.int64)
    if data.num_rows == 0:
        return [Problem(table.file, "rows", "no data rows")]
    for column, accumulator in wanted.numbers.items():
        cells = data.column(column)
        if columnar.is_numeric(cells):
            values, missing = columnar.numeric_floats(cells)
            accumulator.add_values(
                values,
                table.rows,
                lambda position, missing=missing, values=values: (
                    "" if missing[position] else str(values[position])
                ),
            )
        elif columnar.is_text(cells):
            accumulator.add(columnar.text_cells(cells), table.rows)
        else:
            accumulator.problems.add(
                None, f"expected a column of numbers, got Parquet type {cells.type}"
            )
    problems = []
    for column, accumulator in list(wanted.categories.items()):
        cells = data.column(column)
        if columnar.is_nested(cells):  # Arrow cannot take unique values of lists or structs
            problems.append(
                Problem(
                    table.file,
                    column,
                    "expected a column of single values (text, numbers or booleans), got "
                    f"Parquet type {cells.type}",
                )
            )
            del wanted.categories[column]  # read as absent by _assemble
            continue
        accumulator.add_coded(*columnar.coded_texts(cells))
    return problems


def _read_table(
    table: CsvTable, spec: DatasetSpec, classifiers: Sequence[ClassifierSpec], digest: str, fill
) -> Loaded:
    """Check the header's columns, read the wanted ones with ``fill(wanted)`` (which sets
    ``table.rows`` and returns the problems of the rows' shape), and assemble the Dataset."""
    optional = [c.column for c in classifiers]
    present, problems = _check_columns(table, _required_columns(spec), optional)
    wanted = Wanted(table)
    if spec.label in present:
        wanted.category(spec.label)
    if spec.fold in present:
        wanted.category(spec.fold)
    costs = CostSpec.of(spec.costs)
    for column in costs.columns if costs is not None else ():
        if column in present:
            wanted.number(column)
    usable = [c for c in classifiers if c.column in present]
    for classifier in usable:
        if classifier.scores is not None:
            wanted.number(classifier.scores)
        else:
            wanted.category(classifier.predictions)
    problems += fill(wanted)
    dataset = _assemble(spec, usable, wanted, table.rows, digest)
    problems += wanted.problems()
    return Loaded(None if problems else dataset, problems, table.header)


def _assemble(
    spec: DatasetSpec,
    usable: Sequence[ClassifierSpec],
    wanted: Wanted,
    rows: np.ndarray,
    digest: str,
) -> Dataset | None:
    """The Dataset from the accumulated columns, recording problems in their ColumnProblems."""
    classes = None
    if spec.label in wanted.categories and rows.size:
        classes = _classes(wanted.categories[spec.label], spec.positive, rows)
    folds, fold_names = (None, ())
    if spec.fold in wanted.categories:
        folds, fold_names = _folds(wanted.categories[spec.fold], rows)
    costs = _costs(CostSpec.of(spec.costs), wanted, classes, rows)
    scores = {c.name: wanted.numbers[c.scores].values() for c in usable if c.scores is not None}
    allowed = _class_values(wanted.categories.get(spec.label), classes)
    predictions = {}
    for c in usable:
        if c.predictions is not None and allowed and c.predictions in wanted.categories:
            predictions[c.name] = _predictions(
                wanted.categories[c.predictions], allowed, spec.positive, rows
            )
    if classes is None:
        return None
    return Dataset(
        name=spec.name,
        path=spec.path,
        sha256=digest,
        labels=classes.labels,
        positive_label=classes.positive,
        negative_label=classes.negative,
        scores=scores,
        predictions=predictions,
        folds=folds,
        fold_names=fold_names,
        costs=costs,
        cost_unit=None if costs is None else CostSpec.of(spec.costs).unit,
    )


def load_dataset(
    spec: DatasetSpec, classifiers: Sequence[ClassifierSpec], display_path: str | None = None
) -> Dataset:
    """Read one dataset; ``display_path`` is how problems name the file (default: relative to cwd).

    Only classifiers whose column is in this file get scores or predictions. Raises
    UserInputError holding every problem found.
    """
    loaded = read_dataset(spec, classifiers, display_path or path_for_messages(spec.path))
    if loaded.problems:
        raise UserInputError(loaded.problems)
    return loaded.dataset


def _columns_in_no_file(project: Project, headers: list[list[str]]) -> list[Problem]:
    """A problem for each classifier whose column is in none of the data files."""
    columns = set().union(*headers)
    files = ", ".join(path_for_messages(spec.path) for spec in project.datasets)
    manifest = path_for_messages(project.manifest_path)
    problems = []
    for index, classifier in enumerate(project.classifiers, start=1):
        if classifier.column not in columns:
            key = "scores" if classifier.scores is not None else "predictions"
            expected = (
                f"column {quoted(classifier.column)} is in none of the data files ({files}); "
                "expected it in at least one"
            )
            problems.append(
                Problem(
                    manifest,
                    f"classifiers[{index}] ({classifier.name}).{key}",
                    expected,
                    line=classifier.line,
                )
            )
    return problems


def load_project_data(project: Project) -> list[Dataset]:
    """Every dataset of a project, in manifest order; one UserInputError with all problems of all
    files."""
    problems, datasets, headers = [], [], []
    for spec in project.datasets:
        loaded = read_dataset(spec, project.classifiers, path_for_messages(spec.path))
        problems += loaded.problems + _fold_problems(
            spec, loaded.dataset, path_for_messages(spec.path)
        )
        datasets.append(loaded.dataset)
        headers.append(loaded.header)
        columnar.release_unused()  # the file's Arrow buffers are freed: return them to the system
    if all(header is not None for header in headers):
        problems += _columns_in_no_file(project, headers)
    if problems:
        raise UserInputError(problems)
    return datasets
