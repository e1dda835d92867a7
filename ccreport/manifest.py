"""Read and validate a project manifest, ``ccreport.toml``, into a :class:`Project`.

Every problem in the manifest is collected in one pass and raised together as one
:class:`~ccreport.errors.UserInputError`; each names the file, the line of the offending key, the
field as a key path (``datasets[1] (sonar).path``: 1-based index, then the name when known) and
what was expected, for instance::

    ccreport.toml:14: priors[2] (sceptic).a: expected a number > 0, got -1

The manifest
------------

Paths are relative to the folder holding the manifest. Names (of datasets, classifiers, priors)
are used in file names, so they are made of letters, digits, ``_``, ``.`` and ``-``, and are
unique within their kind.

``[project]`` (required)
    ``title``       required string: the report's title.
    ``seed``        optional integer >= 0, default 2006: seeds every resampling task.
    ``narrative``   optional path of a markdown file (must exist) shown on the index page.
    ``theme``       optional string, default "default": the report's theme.
    ``confidence``  optional number strictly between 0 and 1, default 0.9: confidence level of
                    bootstrap intervals and bands.
    ``bootstrap``   optional integer >= 500, default 1000: bootstrap replicates (fewer leave the
                    5% tails of a 90% band to a handful of replicates).
    ``band``        optional, default "pointwise": "pointwise", "simultaneous" or "both".
    ``calibration`` optional, default "auto": "auto", "double" or "off": double-bootstrap
                    calibration of a scoring classifier's band ("auto": while n <= 10,000;
                    :mod:`ccreport.analysis.calibration`).
    ``workers``     optional integer >= 1: worker processes (``ccreport build -j`` overrides it).

``[[datasets]]`` (one or more)
    ``name``        required name.
    ``path``        required path of a CSV file with a header row (must exist).
    ``label``       required: the column holding the true class.
    ``positive``    required: the value of that column that is the positive class (a string, or
                    an integer, which is read as its decimal text). The negative class is the one
                    other value of the column.
    ``fold``        optional: a column holding each row's cross-validation fold.
    ``costs``       optional: per-instance misclassification costs (Fawcett 2006). Either a column
                    name, ``costs = "Amount"``: each positive's false-negative cost and each
                    negative's false-positive cost (numbers >= 0); or a cost-benefit matrix, each
                    cell a column name or a number: ``costs = { fn = "Amount", fp = 20 }`` with
                    ``fn`` the cost of missing a positive, ``fp`` the cost of flagging a negative,
                    optional benefits ``tp`` (of catching a positive) and ``tn`` (of clearing a
                    negative), and an optional ``unit`` label such as "EUR". The transform of
                    Fawcett's section 3 gives positives the cost ``fn + tp`` and negatives
                    ``fp + tn``; these must be >= 0 in every row, with a total > 0 in each class
                    (at least one of fn, tp and one of fp, tn). The short form is
                    ``{ fn = "Amount", fp = "Amount" }``.
    ``narrative``   optional path of a markdown file (must exist) shown on the dataset's page.

``[[classifiers]]`` (one or more; each is evaluated on every dataset whose file has its column)
    ``name``        required name.
    ``scores``      a column of scores, higher = more positive; or
    ``predictions`` a column of crisp predicted labels (values of the label column).
                    Exactly one of ``scores`` and ``predictions``.

``[[priors]]`` (optional; without any, one uniform prior named "uniform" is used)
    Distributions over the operating condition PC(+) under which expected costs are reported.
    ``name``          required name.
    ``distribution``  required: "uniform", "beta", "point" or "induced".
    uniform:  ``low``, ``high`` optional, 0 <= low < high <= 1 (default 0 and 1).
    beta:     ``a``, ``b`` required finite numbers > 0.
    point:    either ``pc`` (0 <= pc <= 1), or ``p_positive`` (0 < p < 1) and ``cost_ratio``
              (finite, > 0) = C(-|+) / C(+|-), giving PC(+) = p r / (p r + 1 - p); not both forms.
    every prior: ``datasets`` optional list of dataset names it applies to (default: all), for a
              prior that only makes sense for some datasets, such as one dataset's cost matrix.
    induced:  ``p_positive`` and ``cost_ratio``, each a distribution, inducing one over PC(+):
              p_positive = { distribution = "beta", a = 3, b = 7 } -- beta (a, b > 0),
              uniform (0 <= low < high <= 1, default 0 and 1) or point (0 < value < 1);
              cost_ratio = { distribution = "loguniform", low = 1, high = 10 } -- loguniform
              (0 < low < high), uniform (0 <= low < high; low default 0) or point (value > 0).
              A bare number means a point: ``cost_ratio = 5``.

Each :class:`PriorSpec` keeps its parameters normalized as a tuple of (key, value) pairs sorted by
key, numbers as floats and defaults filled in: a uniform prior always has ``high`` and ``low``; a
point prior always has ``pc`` (computed from ``p_positive`` and ``cost_ratio`` when those are
given, which are kept too); an induced prior's ``p_positive`` and ``cost_ratio`` are nested sorted
tuples that include their ``distribution`` (a bare number becomes
``(("distribution", "point"), ("value", x))``).
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time
from pathlib import Path

from .analysis.conditions import probability_cost
from .errors import Problem, UserInputError

MANIFEST_NAME = "ccreport.toml"
DEFAULT_SEED = 2006
BANDS = ("pointwise", "simultaneous", "both")
CALIBRATIONS = ("auto", "double", "off")
NAME_PATTERN = re.compile(r"[A-Za-z0-9_.-]+")

TOP_KEYS = ("project", "datasets", "classifiers", "priors")
PROJECT_KEYS = ("title", "seed", "narrative", "theme", "confidence", "bootstrap", "band", "calibration", "workers")
DATASET_KEYS = ("name", "path", "label", "positive", "fold", "costs", "narrative")
CLASSIFIER_KEYS = ("name", "scores", "predictions")
PRIOR_PARAMETERS = {
    "uniform": ("low", "high"),
    "beta": ("a", "b"),
    "point": ("pc", "p_positive", "cost_ratio"),
    "induced": ("p_positive", "cost_ratio"),
}


# --- the result ---------------------------------------------------------------------------------


COST_CELLS = ("fn", "fp", "tp", "tn")
COST_KEYS = (*COST_CELLS, "unit")


@dataclass(frozen=True)
class CostSpec:
    """A dataset's ``costs``: each cell of the cost-benefit matrix a column name (str) or a number.

    Positives cost ``fn + tp``, negatives ``fp + tn`` (Fawcett 2006, section 3;
    :func:`ccreport.analysis.instance_costs.cost_benefit`).
    """

    fn: str | float = 0.0
    fp: str | float = 0.0
    tp: str | float = 0.0
    tn: str | float = 0.0
    unit: str | None = None

    @classmethod
    def of(cls, value: CostSpec | str | None) -> CostSpec | None:
        """A CostSpec from the short form (one column for both classes' errors), or as it is."""
        return cls(fn=value, fp=value) if isinstance(value, str) else value

    @property
    def columns(self) -> tuple[str, ...]:
        """The distinct column names among the cells, in the order fn, fp, tp, tn."""
        return tuple(dict.fromkeys(cell for cell in self.cells() if isinstance(cell, str)))

    def cells(self) -> tuple[str | float, ...]:
        return (self.fn, self.fp, self.tp, self.tn)


@dataclass(frozen=True)
class DatasetSpec:
    """One ``[[datasets]]`` entry: a CSV file and how to read its classes."""

    name: str
    path: Path  # absolute
    label: str
    positive: str
    fold: str | None = None
    costs: CostSpec | None = None  # a bare column name is accepted too: CostSpec.of(name)
    narrative: Path | None = None
    line: int | None = None  # of its [[datasets]] header in the manifest


@dataclass(frozen=True)
class ClassifierSpec:
    """One ``[[classifiers]]`` entry: exactly one of ``scores`` and ``predictions`` is set."""

    name: str
    scores: str | None = None
    predictions: str | None = None
    line: int | None = None

    @property
    def column(self) -> str:
        """The data column this classifier reads, whichever kind it is."""
        return self.scores if self.scores is not None else self.predictions


@dataclass(frozen=True)
class PriorSpec:
    """One ``[[priors]]`` entry with validated, normalized parameters (see the module docstring)."""

    name: str
    distribution: str
    params: tuple[tuple[str, object], ...]
    line: int | None = None
    datasets: tuple[str, ...] | None = None  # the datasets it applies to; None: every dataset

    def applies_to(self, dataset: str) -> bool:
        return self.datasets is None or dataset in self.datasets

    def param(self, key: str, default=None):
        """The parameter ``key``, or ``default`` when the prior has none of that name."""
        return dict(self.params).get(key, default)


DEFAULT_PRIOR = PriorSpec("uniform", "uniform", (("high", 1.0), ("low", 0.0)))


@dataclass(frozen=True)
class Project:
    """A validated manifest: settings, datasets, classifiers and priors, paths made absolute."""

    root: Path
    manifest_path: Path
    manifest_text: str = field(repr=False)
    title: str
    datasets: tuple[DatasetSpec, ...]
    classifiers: tuple[ClassifierSpec, ...]
    priors: tuple[PriorSpec, ...]
    seed: int = DEFAULT_SEED
    narrative: Path | None = None
    theme: str = "default"
    confidence: float = 0.9
    bootstrap: int = 1000
    band: str = "pointwise"
    calibration: str = "auto"
    workers: int | None = None


def display_path(path: str | Path) -> str:
    """``path`` as a user would type it: relative to the working folder when inside it."""
    absolute = Path(path).resolve()
    try:
        return absolute.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(absolute)


# --- where keys are: tomllib keeps no positions, so scan the text --------------------------------

_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
_DOTTED = rf"{_KEY_PART}(?:\s*\.\s*{_KEY_PART})*"
_ARRAY_HEADER = re.compile(rf"\s*\[\[\s*(?P<name>{_DOTTED})\s*\]\]\s*(?:#.*)?$")
_TABLE_HEADER = re.compile(rf"\s*\[\s*(?P<name>{_DOTTED})\s*\]\s*(?:#.*)?$")
_KEY = re.compile(rf"\s*(?P<key>{_DOTTED})\s*=")


def _key_parts(dotted: str) -> tuple[str, ...]:
    return tuple(part.strip("\"'") for part in re.findall(_KEY_PART, dotted))


class ManifestLines:
    """The line of each table header and key of a manifest, found by scanning its text.

    Sections are ``""`` (the top level), ``"project"``, or an array of tables such as
    ``"datasets"``, whose k-th ``[[datasets]]`` header (1-based) is element k. Keys are recorded
    as paths inside their element, so a ``[priors.p_positive]`` sub-table or a dotted key
    ``p_positive.a = 3`` gives the path ``("p_positive", "a")``.
    """

    def __init__(self, text: str):
        self.headers: dict[tuple[str, int], int] = {}
        self.keys: dict[tuple[str, int, tuple[str, ...]], int] = {}
        self.repeated: list[int] = []  # lines that set a key already set in the same table
        self.n_lines = text.count("\n") + 1
        self._scan(text)

    def _scan(self, text: str) -> None:
        counts: dict[str, int] = {}
        section, index, prefix = "", 0, ()
        open_string = None
        for number, line in enumerate(text.splitlines(), start=1):
            if open_string is not None:
                if line.count(open_string) % 2 == 1:
                    open_string = None
                continue
            if match := _ARRAY_HEADER.match(line):
                section, *rest = _key_parts(match["name"])
                counts[section] = counts.get(section, 0) + 1
                index, prefix = counts[section], tuple(rest)
                self._record_header(section, index, prefix, number)
            elif match := _TABLE_HEADER.match(line):
                section, *rest = _key_parts(match["name"])
                index, prefix = counts.get(section, 0), tuple(rest)
                self._record_header(section, index, prefix, number)
            elif match := _KEY.match(line):
                self._record_key((section, index, prefix + _key_parts(match["key"])), number)
            open_string = next((q for q in ('"""', "'''") if line.count(q) % 2 == 1), None)

    def _record_header(self, section: str, index: int, prefix: tuple[str, ...], number: int) -> None:
        if prefix:
            self._record_key((section, index, prefix), number)
        else:
            self.headers.setdefault((section, index), number)

    def _record_key(self, where: tuple[str, int, tuple[str, ...]], number: int) -> None:
        section, index, path = where
        if where in self.keys:
            self.repeated.append(number)
        for length in range(1, len(path) + 1):  # a dotted key a.b = 1 also places the table a
            self.keys.setdefault((section, index, path[:length]), number)

    def line_of(self, section: str, index: int, path: tuple[str, ...] = ()) -> int | None:
        """The line of ``path`` in an element, else of its nearest recorded parent, else the header."""
        for length in range(len(path), 0, -1):
            if (found := self.keys.get((section, index, path[:length]))) is not None:
                return found
        if not section and path:  # a whole section: its header ([project], [datasets] or the first [[datasets]])
            return self.headers.get((path[0], 0), self.headers.get((path[0], 1)))
        if (found := self.headers.get((section, index))) is not None:
            return found
        return self.keys.get(("", 0, (section,)))  # an inline array of tables: datasets = [{...}]


# --- collecting problems -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Where:
    """A table in the manifest: ``datasets[2] (sonar)``, or a table nested inside one."""

    section: str = ""  # "" for the top level
    index: int = 0  # 1-based element of an array of tables; 0 for a plain table
    name: str | None = None
    prefix: tuple[str, ...] = ()

    def field(self, *keys: str) -> str:
        head = self.section + (f"[{self.index}]" if self.index else "")
        if self.name:
            head += f" ({self.name})"
        return ".".join(part for part in (head, *self.prefix, *keys) if part)

    def inner(self, key: str) -> _Where:
        return replace(self, prefix=self.prefix + (key,))

    def named(self, name: str | None) -> _Where:
        return replace(self, name=name)


@dataclass(frozen=True)
class Bound:
    """What a number must be: its description for messages and the test it must pass."""

    text: str
    accepts: Callable[[float], bool]
    integer: bool = False


POSITIVE = Bound("a number > 0", lambda x: x > 0)
NON_NEGATIVE = Bound("a number >= 0", lambda x: x >= 0)
PROBABILITY = Bound("a number in [0, 1]", lambda x: 0 <= x <= 1)
OPEN_PROBABILITY = Bound("a number strictly between 0 and 1", lambda x: 0 < x < 1)
SEED = Bound("an integer >= 0", lambda x: x >= 0, integer=True)
REPLICATES = Bound("an integer >= 500", lambda x: x >= 500, integer=True)
WORKERS = Bound("an integer >= 1", lambda x: x >= 1, integer=True)


def shown(value) -> str:
    """A TOML value as a message shows it: ``-1``, ``true``, ``"5" (a string)``, ``a table``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}" (a string)'
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, (datetime, date, time)):
        return f"a date/time {value.isoformat()}"
    return repr(value)


def unknown_key_message(key: str, allowed) -> str:
    """``unknown key 'posative'; did you mean 'positive'?``, or the list of valid keys."""
    close = difflib.get_close_matches(key, list(allowed), n=1)
    if close:
        return f"unknown key '{key}'; did you mean '{close[0]}'?"
    return f"unknown key '{key}'; expected one of {', '.join(allowed)}"


class Checker:
    """Reads values out of the parsed manifest, collecting a Problem for each one that is wrong.

    Each reader returns the value (or its default) when it is right, and None after recording a
    problem, so validation carries on and every mistake is reported in one go.
    """

    def __init__(self, file: str, lines: ManifestLines, root: Path):
        self.file = file
        self.lines = lines
        self.root = root
        self.problems: list[Problem] = []
        self.dataset_names: set[str] = set()  # known once the datasets are read

    def report(self, where: _Where, keys: tuple[str, ...], expected: str) -> None:
        line = self.lines.line_of(where.section, where.index, where.prefix + keys)
        self.problems.append(Problem(self.file, where.field(*keys), expected, line=line))

    def unknown_keys(self, table: dict, allowed, where: _Where) -> None:
        for key in table:
            if key not in allowed:
                self.report(where, (key,), unknown_key_message(key, allowed))

    def string(self, table: dict, key: str, where: _Where, what: str, required: bool = False) -> str | None:
        value = table.get(key)
        if value is None:
            if required:
                self.report(where, (key,), f"missing required key; expected {what}")
            return None
        if not isinstance(value, str) or not value.strip():
            self.report(where, (key,), f"expected {what}, got {shown(value)}")
            return None
        return value

    def number(self, table: dict, key: str, where: _Where, bound: Bound, default=None, required=False):
        value = table.get(key)
        if value is None:
            if required:
                self.report(where, (key,), f"missing required key; expected {bound.text}")
            return default
        kinds = int if bound.integer else (int, float)
        is_number = isinstance(value, kinds) and not isinstance(value, bool) and math.isfinite(value)
        if not is_number or not bound.accepts(value):
            self.report(where, (key,), f"expected {bound.text}, got {shown(value)}")
            return None
        return value

    def choice(self, table: dict, key: str, where: _Where, options, default=None, required=False) -> str | None:
        what = "one of " + ", ".join(f'"{option}"' for option in options)
        value = self.string(table, key, where, what, required)
        if value is None:
            return default if key not in table else None
        if value not in options:
            close = difflib.get_close_matches(value, list(options), n=1)
            hint = f'; did you mean "{close[0]}"?' if close else ""
            self.report(where, (key,), f"expected {what}, got {shown(value)}{hint}")
            return None
        return value

    def existing_file(self, table: dict, key: str, where: _Where, what: str, required=False) -> Path | None:
        text = self.string(table, key, where, what, required)
        if text is None:
            return None
        path = (self.root / text).resolve()
        if not path.exists():
            self.report(where, (key,), f"expected {what}; file not found: {text} (looked for {path})")
            return None
        if not path.is_file():
            self.report(where, (key,), f"expected {what}, got a folder: {text}")
            return None
        return path

    def name(self, table: dict, where: _Where, taken: dict[str, int]) -> str | None:
        """The element's ``name``: required, of file-name-safe characters, unique in its section."""
        value = self.string(table, "name", where, "a name of letters, digits, '_', '.' or '-'", required=True)
        if value is None:
            return None
        if not NAME_PATTERN.fullmatch(value):
            self.report(where, ("name",), f"expected letters, digits, '_', '.' or '-' only (names are used in file names), got {shown(value)}")
            return None
        if value in taken:
            self.report(where.named(value), ("name",), f"duplicate name; {where.section}[{taken[value]}] is also named \"{value}\"")
        else:
            taken[value] = where.index
        return value

    def tables(self, document: dict, section: str, required: bool) -> list[tuple[_Where, dict]]:
        """The elements of the array of tables ``section`` (``[[datasets]]``), each with its place."""
        value = document.get(section)
        top = _Where()
        if value is None or value == []:
            if required:
                self.report(top, (section,), f"missing; expected at least one [[{section}]] table")
            return []
        if isinstance(value, dict):
            self.report(top, (section,), f"expected one or more [[{section}]] tables (double brackets), got a single [{section}] table")
            return []
        if not isinstance(value, list):
            self.report(top, (section,), f"expected one or more [[{section}]] tables, got {shown(value)}")
            return []
        elements = []
        for index, element in enumerate(value, start=1):
            where = _Where(section, index)
            if isinstance(element, dict):
                elements.append((where, element))
            else:
                self.report(where, (), f"expected a table, got {shown(element)}")
        return elements


# --- the sections --------------------------------------------------------------------------------


def _check_top_level(check: Checker, document: dict) -> None:
    for key in document:
        if key in TOP_KEYS:
            continue
        if key in PROJECT_KEYS:
            check.report(_Where(), (key,), f"unknown top-level key '{key}'; did you mean to put it under [project]?")
        else:
            check.report(_Where(), (key,), unknown_key_message(key, TOP_KEYS))


def _project_settings(check: Checker, document: dict) -> dict | None:
    """The ``[project]`` table's settings as Project keyword arguments."""
    table = document.get("project")
    where = _Where("project")
    if table is None:
        check.report(_Where(), ("project",), 'missing [project] table; expected at least title = "..."')
        return None
    if not isinstance(table, dict):
        check.report(_Where(), ("project",), f"expected a [project] table, got {shown(table)}")
        return None
    check.unknown_keys(table, PROJECT_KEYS, where)
    return {
        "title": check.string(table, "title", where, "the report's title, a non-empty string", required=True),
        "seed": check.number(table, "seed", where, SEED, default=DEFAULT_SEED),
        "narrative": check.existing_file(table, "narrative", where, "a markdown file, relative to the manifest"),
        "theme": check.string(table, "theme", where, "the name of a theme") or "default",
        "confidence": _as_float(check.number(table, "confidence", where, OPEN_PROBABILITY, default=0.9)),
        "bootstrap": check.number(table, "bootstrap", where, REPLICATES, default=1000),
        "band": check.choice(table, "band", where, BANDS, default="pointwise"),
        "calibration": check.choice(table, "calibration", where, CALIBRATIONS, default="auto"),
        "workers": check.number(table, "workers", where, WORKERS),
    }


def _as_float(value):
    return None if value is None else float(value)


def _class_value(check: Checker, table: dict, where: _Where) -> str | None:
    """``positive``: a string, or an integer read as its decimal text."""
    value = table.get("positive")
    what = "the label column's value for the positive class (a string or an integer)"
    if value is None:
        check.report(where, ("positive",), f"missing required key; expected {what}")
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value.strip()
    check.report(where, ("positive",), f"expected {what}, got {shown(value)}")
    return None


def _dataset(check: Checker, where: _Where, table: dict, taken: dict[str, int]) -> DatasetSpec | None:
    where = where.named(check.name(table, where, taken))
    check.unknown_keys(table, DATASET_KEYS, where)
    column = "the name of a column"
    spec = {
        "name": where.name,
        "path": check.existing_file(table, "path", where, "a CSV file, relative to the manifest", required=True),
        "label": check.string(table, "label", where, "the name of the column with the true class", required=True),
        "positive": _class_value(check, table, where),
        "fold": check.string(table, "fold", where, column),
        "costs": _costs(check, table, where),
        "narrative": check.existing_file(table, "narrative", where, "a markdown file, relative to the manifest"),
    }
    if any(spec[key] is None for key in ("name", "path", "label", "positive")):
        return None
    return DatasetSpec(**spec, line=check.lines.line_of(where.section, where.index))


def _costs(check: Checker, table: dict, where: _Where) -> CostSpec | None:
    """``costs``: a column name (short form) or a cost-benefit matrix of columns and numbers."""
    value = table.get("costs")
    if value is None:
        return None
    if isinstance(value, str) and value.strip():
        return CostSpec.of(value)
    if not isinstance(value, dict):
        what = "a column name, or a table of cells fn, fp, tp, tn (column names or numbers) and unit"
        check.report(where, ("costs",), f"expected {what}, got {shown(value)}")
        return None
    inner = where.inner("costs")
    check.unknown_keys(value, COST_KEYS, inner)
    cells, ok = {}, all(key in COST_KEYS for key in value)
    for key in COST_CELLS:
        cell = value.get(key)
        if cell is None:
            continue
        is_number = isinstance(cell, (int, float)) and not isinstance(cell, bool) and math.isfinite(cell)
        if is_number or (isinstance(cell, str) and cell.strip()):
            cells[key] = float(cell) if is_number else cell
        else:
            check.report(inner, (key,), f"expected a column name or a finite number, got {shown(cell)}")
            ok = False
    unit = check.string(value, "unit", inner, 'a label for the unit of the costs, such as "EUR"')
    ok = ok and (unit is not None or "unit" not in value)
    for error, benefit, who in (("fn", "tp", "positives"), ("fp", "tn", "negatives")):
        given = [key for key in (error, benefit) if key in value]
        if not given:
            check.report(inner, (), f"expected {error} (or the benefit {benefit}), the {who}' cost; got neither")
            ok = False
        elif all(key in cells and not isinstance(cells[key], str) for key in given):
            fixed = sum(cells[key] for key in given)
            if not fixed > 0:
                check.report(inner, (given[0],), f"expected {error} + {benefit} > 0 (the {who}' cost in every row), got {fixed!r}")
                ok = False
    return CostSpec(**cells, unit=unit) if ok else None


def _classifier(check: Checker, where: _Where, table: dict, taken: dict[str, int]) -> ClassifierSpec | None:
    where = where.named(check.name(table, where, taken))
    check.unknown_keys(table, CLASSIFIER_KEYS, where)
    what = "the name of a column"
    scores = check.string(table, "scores", where, what)
    predictions = check.string(table, "predictions", where, what)
    if "scores" in table and "predictions" in table:
        check.report(where, ("predictions",), "expected exactly one of scores and predictions, got both")
        return None
    if "scores" not in table and "predictions" not in table:
        check.report(where, (), "expected exactly one of scores = \"column\" (scores, higher = more positive) or predictions = \"column\" (crisp labels), got neither")
        return None
    if where.name is None or (scores is None and predictions is None):
        return None
    return ClassifierSpec(where.name, scores, predictions, line=check.lines.line_of(where.section, where.index))


# --- priors --------------------------------------------------------------------------------------

Params = tuple[tuple[str, object], ...]


def _normalized(**params) -> Params:
    """Parameters as (key, value) pairs sorted by key, numbers as floats."""
    return tuple(sorted((key, float(value) if isinstance(value, (int, float)) else value) for key, value in params.items()))


def _interval(check: Checker, table: dict, where: _Where, low_bound: Bound, high_bound: Bound, low_default=None, high_default=None) -> Params | None:
    """``low`` and ``high`` with low < high: a uniform or log-uniform range."""
    required_low, required_high = low_default is None, high_default is None
    low = check.number(table, "low", where, low_bound, default=low_default, required=required_low)
    high = check.number(table, "high", where, high_bound, default=high_default, required=required_high)
    if low is None or high is None:
        return None
    if not low < high:
        key = "high" if "high" in table else "low"
        check.report(where, (key,), f"expected low < high, got low = {low!r}, high = {high!r}")
        return None
    return _normalized(low=low, high=high)


def _beta_params(check: Checker, table: dict, where: _Where) -> Params | None:
    a = check.number(table, "a", where, POSITIVE, required=True)
    b = check.number(table, "b", where, POSITIVE, required=True)
    return None if a is None or b is None else _normalized(a=a, b=b)


def _uniform_prior(check: Checker, table: dict, where: _Where) -> Params | None:
    return _interval(check, table, where, PROBABILITY, PROBABILITY, 0.0, 1.0)


def _point_prior(check: Checker, table: dict, where: _Where) -> Params | None:
    has_pc = "pc" in table
    has_conditions = "p_positive" in table or "cost_ratio" in table
    if has_pc and has_conditions:
        check.report(where, ("pc",), "expected either pc, or p_positive and cost_ratio, not both")
        return None
    if has_pc:
        pc = check.number(table, "pc", where, PROBABILITY)
        return None if pc is None else _normalized(pc=pc)
    if not has_conditions:
        check.report(where, (), "expected pc = PC(+), or p_positive = p(+) and cost_ratio = C(-|+)/C(+|-)")
        return None
    p = check.number(table, "p_positive", where, OPEN_PROBABILITY, required=True)
    r = check.number(table, "cost_ratio", where, POSITIVE, required=True)
    if p is None or r is None:
        return None
    return _normalized(pc=float(probability_cost(p, r)), p_positive=p, cost_ratio=r)


def _point_value(bound: Bound):
    def read(check: Checker, table: dict, where: _Where) -> Params | None:
        value = check.number(table, "value", where, bound, required=True)
        return None if value is None else _normalized(value=value)

    return read


P_POSITIVE_DISTRIBUTIONS = {
    "beta": (("a", "b"), _beta_params),
    "uniform": (("low", "high"), _uniform_prior),
    "point": (("value",), _point_value(OPEN_PROBABILITY)),
}
COST_RATIO_DISTRIBUTIONS = {
    "loguniform": (("low", "high"), lambda check, table, where: _interval(check, table, where, POSITIVE, POSITIVE)),
    "uniform": (("low", "high"), lambda check, table, where: _interval(check, table, where, NON_NEGATIVE, POSITIVE, 0.0)),
    "point": (("value",), _point_value(POSITIVE)),
}


def _induced_component(check: Checker, table: dict, key: str, where: _Where, distributions: dict, bare: Bound) -> Params | None:
    """One side of an induced prior: a bare number (a point) or a table naming a distribution."""
    value = table.get(key)
    example = ", ".join(distributions)
    if value is None:
        check.report(where, (key,), f"missing required key; expected {bare.text}, or a table {{ distribution = ... }} with one of {example}")
        return None
    if not isinstance(value, dict):
        number = check.number(table, key, where, bare)
        return None if number is None else _normalized(distribution="point", value=number)
    inner = where.inner(key)
    kind = check.choice(value, "distribution", inner, tuple(distributions), required=True)
    allowed = ("distribution",) + (distributions[kind][0] if kind else tuple(k for keys, _ in distributions.values() for k in keys))
    check.unknown_keys(value, tuple(dict.fromkeys(allowed)), inner)
    if kind is None:
        return None
    params = distributions[kind][1](check, value, inner)
    return None if params is None else tuple(sorted(params + (("distribution", kind),)))


def _induced_prior(check: Checker, table: dict, where: _Where) -> Params | None:
    p = _induced_component(check, table, "p_positive", where, P_POSITIVE_DISTRIBUTIONS, OPEN_PROBABILITY)
    r = _induced_component(check, table, "cost_ratio", where, COST_RATIO_DISTRIBUTIONS, POSITIVE)
    return None if p is None or r is None else (("cost_ratio", r), ("p_positive", p))


PRIOR_READERS = {
    "uniform": _uniform_prior,
    "beta": _beta_params,
    "point": _point_prior,
    "induced": _induced_prior,
}


def _check_prior_keys(check: Checker, table: dict, where: _Where, distribution: str | None) -> None:
    every_parameter = tuple(dict.fromkeys(k for keys in PRIOR_PARAMETERS.values() for k in keys))
    allowed = ("name", "distribution", "datasets") + (PRIOR_PARAMETERS[distribution] if distribution else every_parameter)
    for key in table:
        if key in allowed:
            continue
        if key in every_parameter:
            takes = ", ".join(PRIOR_PARAMETERS[distribution])
            check.report(where, (key,), f"'{key}' is not a parameter of a {distribution} prior, which takes {takes}")
        else:
            check.report(where, (key,), unknown_key_message(key, allowed))


def _prior(check: Checker, where: _Where, table: dict, taken: dict[str, int]) -> PriorSpec | None:
    where = where.named(check.name(table, where, taken))
    distribution = check.choice(table, "distribution", where, tuple(PRIOR_READERS), required=True)
    _check_prior_keys(check, table, where, distribution)
    if distribution is None:
        return None
    params = PRIOR_READERS[distribution](check, table, where)
    datasets = _prior_datasets(check, table, where)
    if where.name is None or params is None:
        return None
    line = check.lines.line_of(where.section, where.index)
    return PriorSpec(where.name, distribution, params, line=line, datasets=datasets)


def _prior_datasets(check: Checker, table: dict, where: _Where) -> tuple[str, ...] | None:
    """The optional ``datasets`` list restricting a prior to some datasets (names must exist)."""
    if "datasets" not in table:
        return None
    value = table["datasets"]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        check.report(where, ("datasets",), f"expected a non-empty list of dataset names, got {shown(value)}")
        return None
    unknown = [v for v in value if v not in check.dataset_names]
    if unknown:
        known = ", ".join(sorted(check.dataset_names)) or "none"
        check.report(where, ("datasets",), f"expected names of datasets in this manifest ({known}), got {shown(unknown[0])}")
        return None
    return tuple(value)


# --- reading the file ----------------------------------------------------------------------------


def manifest_path_of(path: str | Path) -> Path:
    """The manifest named by ``path``: a project folder (holding ccreport.toml) or the file itself."""
    given = Path(path)
    candidate = given / MANIFEST_NAME if given.is_dir() else given
    if candidate.is_file():
        return candidate.resolve()
    if given.is_dir():
        expected = f"no {MANIFEST_NAME} in {display_path(given)}; expected a project folder holding one (`ccreport new DIR` makes a starter project)"
    elif given.suffix == ".toml":
        expected = f"file not found: {path}"
    else:
        expected = f"folder not found: {path}; expected a project folder holding {MANIFEST_NAME}"
    shown_path = display_path(given / MANIFEST_NAME if given.suffix != ".toml" else given)
    raise UserInputError(Problem(shown_path, MANIFEST_NAME, expected))


def _read_text(path: Path, file: str) -> str:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UserInputError(Problem(file, MANIFEST_NAME, f"cannot read the file: {error.strerror}")) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise UserInputError(Problem(file, "encoding", f"expected UTF-8 text, got byte 0x{data[error.start]:02x}", line=line)) from None


_TOML_POSITION = re.compile(r"\s*\(at line (?P<line>\d+), column (?P<column>\d+)\)$")


def _parse_toml(text: str, file: str, lines: ManifestLines) -> dict:
    """The TOML document, or a UserInputError naming the line of the syntax error."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        if match := _TOML_POSITION.search(message):
            line = int(match["line"])
            message = f"{message[: match.start()]} (column {match['column']})"
        else:
            message = message.replace(" (at end of document)", "")
            line = lines.repeated[0] if lines.repeated else lines.n_lines
        raise UserInputError(Problem(file, "TOML syntax", message[:1].lower() + message[1:], line=line)) from None


def _by_line(problems: list[Problem]) -> list[Problem]:
    """Problems in the order of the file; those without a line last."""
    return sorted(problems, key=lambda p: (p.line is None, p.line or 0))


def load_project(path: str | Path) -> Project:
    """Read and validate a manifest: ``path`` is a project folder or the ``ccreport.toml`` itself.

    Raises UserInputError holding every problem found.
    """
    manifest_path = manifest_path_of(path)
    file = display_path(manifest_path)
    text = _read_text(manifest_path, file)
    lines = ManifestLines(text)
    document = _parse_toml(text, file, lines)
    check = Checker(file, lines, manifest_path.parent)

    _check_top_level(check, document)
    settings = _project_settings(check, document)
    datasets = _section(check, document, "datasets", _dataset, required=True)
    classifiers = _section(check, document, "classifiers", _classifier, required=True)
    check.dataset_names = {d.name for d in datasets}
    priors = _section(check, document, "priors", _prior, required=False) or (DEFAULT_PRIOR,)
    if check.problems:
        raise UserInputError(_by_line(check.problems))
    return Project(
        root=manifest_path.parent,
        manifest_path=manifest_path,
        manifest_text=text,
        datasets=datasets,
        classifiers=classifiers,
        priors=priors,
        **settings,
    )


def _section(check: Checker, document: dict, section: str, read_element, required: bool) -> tuple:
    """Every element of an array of tables, read by ``read_element`` (None ones dropped)."""
    taken: dict[str, int] = {}
    elements = (read_element(check, where, table, taken) for where, table in check.tables(document, section, required))
    return tuple(element for element in elements if element is not None)
