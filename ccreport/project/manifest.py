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
    ``narrative``   optional path of a markdown file (must exist) shown on the index page.
    ``theme``       optional name, default "default": the report's theme, a folder of the project's
                    ``themes/`` or a shipped theme (a name, never a path).
    ``workers``     optional integer from 1 to 256 (``MAX_WORKERS``): worker processes (``ccreport
                    build -j`` overrides it); a build starts at most one per task and per core.
    ``scheduler``   optional address of a Dask distributed scheduler, such as "tcp://10.0.0.5:8786":
                    run the analyses' tasks on its workers (``ccreport build --scheduler`` overrides
                    it; needs ``ccreport[cluster]``); the results do not depend on it.
    ``date``        optional ISO date (``date = 2024-05-01`` or ``"2024-05-01"``): the report's
                    build date, a presentation setting (title page, PDF metadata, provenance), used
                    when ``SOURCE_DATE_EPOCH`` is not set (:mod:`ccreport.runtime.build_date`).
    The settings of the analyses (:class:`ccreport.project.settings.AnalysisSettings`, which
    declares them):
@ANALYSIS SETTINGS@

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
                    ``fn`` the cost of missing a positive, ``fp`` the cost of flagging a negative
                    (each >= 0: a benefit is never a negative cost), optional benefits ``tp`` (of
                    catching a positive) and ``tn`` (of clearing a negative), and an optional
                    ``unit`` label such as "EUR". The transform of Fawcett's section 3 gives
                    positives the cost ``fn + tp`` and negatives ``fp + tn``; these must be >= 0 and
                    finite (no overflow) in every row, with a total > 0 in each class (at least one
                    of fn, tp and one of fp, tn). The short form is
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
              (finite, > 0) = C(-|+) / C(+|-), giving PC(+) = p r / (p r + 1 - p); or costs in
              units: ``cost_fn`` (cost of missing a positive, > 0), ``cost_fp`` (cost of flagging
              a negative, > 0), optional ``unit`` label ("EUR") and optional ``p_positive``: r =
              cost_fn / cost_fp, and p is p_positive or, without it, the class mix of the one
              dataset the prior names in ``datasets``; the decision box then also gives the
              expected cost per case in ``unit``: nec (p cost_fn + (1 - p) cost_fp). One form only.
    every prior: ``datasets`` optional list of dataset names it applies to (default: all), for a
              prior that only makes sense for some datasets, such as one dataset's cost matrix.
    induced:  ``p_positive`` and ``cost_ratio``, each a distribution, inducing one over PC(+):
              p_positive = { distribution = "beta", a = 3, b = 7 } -- beta (a, b > 0),
              uniform (0 <= low < high <= 1, default 0 and 1) or point (0 < value < 1);
              cost_ratio = { distribution = "loguniform", low = 1, high = 10 } -- loguniform
              (0 < low < high), uniform (0 <= low < high; low default 0) or point (value > 0).
              A bare number means a point: ``cost_ratio = 5``.

``[[criteria]]`` (optional) selection criteria, each evaluated for every classifier and the dataset
    hybrid (:mod:`ccreport.project.manifest_criteria`): ``name`` (required name), ``kind``
    ("neyman_pearson" with ``max_fpr`` in (0, 1]; "workforce" with exactly one of ``capacity``,
    an integer >= 0 of cases, and ``capacity_share`` in [0, 1]; "parameter_based" with ``members``
    (crisp classifier name -> training PC(+)); "performance_independent" with
    ``rule`` "bayes_prior" (default), "score_driven" or "literal"), optional ``datasets``.

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
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from ..errors import Problem, UserInputError
from ..tasks.comparisons import check_names, read_comparisons
from .manifest_checks import (
    MAX_WORKERS,  # noqa: F401 (re-exported: the documented limit)
    NAME_PATTERN,  # noqa: F401 (re-exported)
    SCHEDULER_ADDRESS,
    SCHEDULER_EXPECTED,
    WORKERS,
    Checker,
    ManifestLines,
    Where,
    display_path,
    finite_float,
    printable,
    shown,
    unknown_key_message,
)
from .manifest_criteria import CriterionSpec, read_criterion
from .manifest_priors import DEFAULT_PRIOR, PRIOR_PARAMETERS, PriorSpec, read_prior  # noqa: F401 (PRIOR_PARAMETERS re-exported)
from .settings import (
    BANDS,  # noqa: F401 (the manifest's allowed values, declared with the settings)
    CALIBRATIONS,  # noqa: F401
    MAX_BOOTSTRAP,  # noqa: F401 (documented limits, declared with the settings)
    MAX_SEED,  # noqa: F401
    SETTING_KEYS,
    SETTINGS,
    THRESHOLD_AXES,  # noqa: F401
    AnalysisSettings,
    describe_setting,
)

__doc__ = __doc__.replace(
    "@ANALYSIS SETTINGS@",
    "\n".join(
        f"    ``{f.name}``{' ' * max(1, 12 - len(f.name))}{describe_setting(f)}" for f in SETTINGS
    ),
)
from ..paths import available_themes, is_theme_name

MANIFEST_NAME = "ccreport.toml"
DEFAULT_SEED = AnalysisSettings().seed

TOP_KEYS = ("project", "datasets", "classifiers", "priors", "criteria")
PROJECT_KEYS = ("title", "narrative", "theme", *SETTING_KEYS, "workers", "scheduler", "date")
DATASET_KEYS = ("name", "path", "label", "positive", "fold", "costs", "narrative")
CLASSIFIER_KEYS = ("name", "scores", "predictions")
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
class Project:
    """A validated manifest: settings, datasets, classifiers and priors, paths made absolute."""

    root: Path
    manifest_path: Path
    manifest_text: str = field(repr=False)
    title: str
    datasets: tuple[DatasetSpec, ...]
    classifiers: tuple[ClassifierSpec, ...]
    priors: tuple[PriorSpec, ...]
    criteria: tuple[CriterionSpec, ...] = ()  # [[criteria]]: selection criteria
    settings: AnalysisSettings = AnalysisSettings()  # what the analyses compute with
    narrative: Path | None = None
    theme: str = "default"
    workers: int | None = None  # how to run: worker processes (None: not given)
    scheduler: str | None = None  # how to run: a Dask scheduler's address (None: on this machine)
    build_date: date | None = (
        None  # [project] date: the build date when SOURCE_DATE_EPOCH is not set (presentation only)
    )


# --- the sections --------------------------------------------------------------------------------


def _check_top_level(check: Checker, document: dict) -> None:
    for key in document:
        if key in TOP_KEYS:
            continue
        if key in PROJECT_KEYS:
            check.report(
                Where(),
                (key,),
                f"unknown top-level key '{key}'; did you mean to put it under [project]?",
            )
        else:
            check.report(Where(), (key,), unknown_key_message(key, TOP_KEYS))


def _project_settings(check: Checker, document: dict) -> dict | None:
    """The ``[project]`` table's settings as Project keyword arguments."""
    table = document.get("project")
    where = Where("project")
    if table is None:
        check.report(
            Where(), ("project",), 'missing [project] table; expected at least title = "..."'
        )
        return None
    if not isinstance(table, dict):
        check.report(Where(), ("project",), f"expected a [project] table, got {shown(table)}")
        return None
    check.unknown_keys(table, PROJECT_KEYS, where)
    return {
        "title": check.string(
            table, "title", where, "the report's title, a non-empty string", required=True
        ),
        "settings": _analysis_settings(check, table, where),
        "narrative": check.text_file(
            table, "narrative", where, "a markdown file, relative to the manifest"
        ),
        "theme": _theme(check, table, where),
        "workers": check.number(table, "workers", where, WORKERS),
        "scheduler": _scheduler(check, table, where),
        "build_date": _build_date(check, table, where),
    }


def _scheduler(check: Checker, table: dict, where: Where) -> str | None:
    """``scheduler``: a Dask scheduler address, protocol://host:port (tcp://10.0.0.5:8786)."""
    what = SCHEDULER_EXPECTED
    value = check.string(table, "scheduler", where, what)
    if value is not None and not SCHEDULER_ADDRESS.fullmatch(value):
        check.report(where, ("scheduler",), f"expected {what}, got {shown(value)}")
        return None
    return value


def _build_date(check: Checker, table: dict, where: Where) -> date | None:
    """``date``: a TOML local date (``2024-05-01``) or a string holding an ISO date."""
    value = table.get("date")
    expected = "an ISO date such as 2024-05-01 (the report's build date)"
    if value is None:
        return None
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    check.report(where, ("date",), f"expected {expected}, got {shown(value)}")
    return None


def _analysis_settings(check: Checker, table: dict, where: Where) -> AnalysisSettings:
    """Each setting of :class:`AnalysisSettings` read as its declaration says (bound or choices,
    default)."""
    values = {}
    for f in SETTINGS:
        bound, choices = f.metadata["bound"], f.metadata["choices"]
        if f.metadata.get("ranges"):
            values[f.name] = check.ranges(table, f.name, where, default=f.default)
        elif f.metadata.get("comparisons"):
            values[f.name] = read_comparisons(check, table, f.name, where, f.default)
        elif bound is not None:
            value = check.number(table, f.name, where, bound, default=f.default)
            values[f.name] = value if value is None or bound.integer else float(value)
        else:
            values[f.name] = check.choice(table, f.name, where, choices, default=f.default)
    return AnalysisSettings(**values)


def _theme(check: Checker, table: dict, where: Where) -> str | None:
    """``theme``: the name of a theme folder (the project's ``themes/<name>`` or a shipped one)."""
    name = check.string(table, "theme", where, "the name of a theme")
    if name is None:
        return None if "theme" in table else "default"
    known = available_themes(check.root)
    if not is_theme_name(name):
        check.report(
            where,
            ("theme",),
            f"expected the name of a theme (one of {', '.join(known)}), not a path; got "
            f"{shown(name)}",
        )
        return None
    if name not in known:
        close = difflib.get_close_matches(name, known, n=1)
        hint = f'; did you mean "{close[0]}"?' if close else ""
        check.report(
            where,
            ("theme",),
            f"unknown theme {shown(name)}; expected one of {', '.join(known)}{hint}",
        )
        return None
    return name


def _class_value(check: Checker, table: dict, where: Where) -> str | None:
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


def _dataset(
    check: Checker, where: Where, table: dict, taken: dict[str, int]
) -> DatasetSpec | None:
    where = where.named(check.name(table, where, taken))
    check.unknown_keys(table, DATASET_KEYS, where)
    column = "the name of a column"
    spec = {
        "name": where.name,
        "path": check.existing_file(
            table, "path", where, "a CSV file, relative to the manifest", required=True
        ),
        "label": check.string(
            table, "label", where, "the name of the column with the true class", required=True
        ),
        "positive": _class_value(check, table, where),
        "fold": check.string(table, "fold", where, column),
        "costs": _costs(check, table, where),
        "narrative": check.text_file(
            table, "narrative", where, "a markdown file, relative to the manifest"
        ),
    }
    if any(spec[key] is None for key in ("name", "path", "label", "positive")):
        return None
    return DatasetSpec(**spec, line=check.lines.line_of(where.section, where.index))


def _costs(check: Checker, table: dict, where: Where) -> CostSpec | None:
    """``costs``: a column name (short form) or a cost-benefit matrix of columns and numbers."""
    value = table.get("costs")
    if value is None:
        return None
    if isinstance(value, str) and value.strip():
        return CostSpec.of(value)
    if not isinstance(value, dict):
        what = (
            "a column name, or a table of cells fn, fp, tp, tn (column names or numbers) and unit"
        )
        check.report(where, ("costs",), f"expected {what}, got {shown(value)}")
        return None
    inner = where.inner("costs")
    check.unknown_keys(value, COST_KEYS, inner)
    cells, ok = {}, all(key in COST_KEYS for key in value)
    for key in COST_CELLS:
        cell = value.get(key)
        if cell is None:
            continue
        is_number = (
            isinstance(cell, (int, float)) and not isinstance(cell, bool) and finite_float(cell)
        )
        if (
            is_number and key in ("fn", "fp") and cell < 0
        ):  # a benefit is tp or tn, never a negative cost
            check.report(
                inner,
                (key,),
                "expected a misclassification cost >= 0 (benefits go in tp and tn), got "
                f"{shown(cell)}",
            )
            ok = False
        elif is_number or (isinstance(cell, str) and cell.strip()):
            cells[key] = float(cell) if is_number else cell
        else:
            check.report(
                inner, (key,), f"expected a column name or a finite number, got {shown(cell)}"
            )
            ok = False
    unit = check.string(value, "unit", inner, 'a label for the unit of the costs, such as "EUR"')
    ok = ok and (unit is not None or "unit" not in value)
    for error, benefit, who in (("fn", "tp", "positives"), ("fp", "tn", "negatives")):
        given = [key for key in (error, benefit) if key in value]
        if not given:
            check.report(
                inner,
                (),
                f"expected {error} (or the benefit {benefit}), the {who}' cost; got neither",
            )
            ok = False
        elif all(key in cells and not isinstance(cells[key], str) for key in given):
            fixed = sum(cells[key] for key in given)
            if not math.isfinite(fixed):
                check.report(
                    inner,
                    (given[0],),
                    f"expected {error} + {benefit} a finite number, got {fixed!r} (the sum "
                    "overflows double precision)",
                )
                ok = False
            elif not fixed > 0:
                check.report(
                    inner,
                    (given[0],),
                    f"expected {error} + {benefit} > 0 (the {who}' cost in every row), got "
                    f"{fixed!r}",
                )
                ok = False
    return CostSpec(**cells, unit=unit) if ok else None


def _classifier(
    check: Checker, where: Where, table: dict, taken: dict[str, int]
) -> ClassifierSpec | None:
    where = where.named(check.name(table, where, taken))
    check.unknown_keys(table, CLASSIFIER_KEYS, where)
    what = "the name of a column"
    scores = check.string(table, "scores", where, what)
    predictions = check.string(table, "predictions", where, what)
    if "scores" in table and "predictions" in table:
        check.report(
            where, ("predictions",), "expected exactly one of scores and predictions, got both"
        )
        return None
    if "scores" not in table and "predictions" not in table:
        check.report(
            where,
            (),
            'expected exactly one of scores = "column" (scores, higher = more positive) or '
            'predictions = "column" (crisp labels), got neither',
        )
        return None
    if where.name is None or (scores is None and predictions is None):
        return None
    return ClassifierSpec(
        where.name, scores, predictions, line=check.lines.line_of(where.section, where.index)
    )


# --- reading the file ----------------------------------------------------------------------------


def manifest_path_of(path: str | Path) -> Path:
    """The manifest named by ``path``: a project folder (holding ccreport.toml) or the file
    itself."""
    given = Path(path)
    candidate = given / MANIFEST_NAME if given.is_dir() else given
    if candidate.is_file():
        return candidate.resolve()
    if given.is_dir():
        expected = (
            f"no {MANIFEST_NAME} in {display_path(given)}; expected a project folder holding one "
            "(`ccreport new DIR` makes a starter project)"
        )
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
        raise UserInputError(
            Problem(file, MANIFEST_NAME, f"cannot read the file: {error.strerror}")
        ) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise UserInputError(
            Problem(
                file,
                "encoding",
                f"expected UTF-8 text, got byte 0x{data[error.start]:02x}",
                line=line,
            )
        ) from None


_LONG_DIGITS = re.compile(r"[0-9_]{4301,}")
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
        raise UserInputError(
            Problem(file, "TOML syntax", message[:1].lower() + message[1:], line=line)
        ) from None
    except ValueError as error:  # Python refuses to convert an integer of more than 4,300 digits
        at = _LONG_DIGITS.search(text)
        if at is None:
            raise UserInputError(
                Problem(file, "TOML value", f"expected a value TOML can read ({str(error)[:80]})")
            ) from None
        line = text.count("\n", 0, at.start()) + 1
        raise UserInputError(
            Problem(
                file,
                "TOML value",
                "expected a number of at most 4300 digits, got an integer of "
                f"{len(at.group().replace('_', ''))} digits",
                line=line,
            )
        ) from None


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
    check.classifier_kinds = {
        c.name: "scores" if c.scores is not None else "predictions" for c in classifiers
    }
    priors = _section(check, document, "priors", read_prior, required=False) or (DEFAULT_PRIOR,)
    criteria = _section(check, document, "criteria", read_criterion, required=False)
    if settings is not None:
        check_names(
            check, settings["settings"].comparisons, [c.name for c in classifiers], Where("project")
        )
    if check.problems:
        raise UserInputError(_by_line(check.problems))
    return Project(
        root=manifest_path.parent,
        manifest_path=manifest_path,
        manifest_text=text,
        datasets=datasets,
        classifiers=classifiers,
        priors=priors,
        criteria=criteria,
        **settings,
    )


def _section(check: Checker, document: dict, section: str, read_element, required: bool) -> tuple:
    """Every element of an array of tables, read by ``read_element`` (None ones dropped)."""
    taken: dict[str, int] = {}
    elements = (
        read_element(check, where, table, taken)
        for where, table in check.tables(document, section, required)
    )
    return tuple(element for element in elements if element is not None)


# --- the same checks for Python arguments (ccreport.evaluate) ------------------------------------


def check_classifier_names(source: str, comparisons, names) -> None:
    """``comparisons`` (read by :func:`read_arguments`) names only classifiers of ``names``; else
    UserInputError naming ``source`` and the argument ``comparisons``."""
    check = Checker(source, ManifestLines(""), Path.cwd())
    check_names(check, comparisons, list(names), Where())
    if check.problems:
        raise UserInputError(check.problems)


def as_toml_value(value):
    """A Python argument as the manifest reader sees a TOML value: tuples become lists (a TOML array
    reads as a list), inside lists and dicts too, so ``partial_ranges=[(0.1, 0.5)]`` or ``()`` is
    read as ``[[0.1, 0.5]]`` or ``[]``."""
    if isinstance(value, (list, tuple)):
        return [as_toml_value(v) for v in value]
    if isinstance(value, dict):
        return {k: as_toml_value(v) for k, v in value.items()}
    return value


def read_arguments(
    source: str, settings: dict, priors: dict | None
) -> tuple[AnalysisSettings, tuple[PriorSpec, ...]]:
    """Settings and priors given as Python values (``ccreport.evaluate``'s arguments), read by the
    manifest's own readers: the same checks and messages, naming ``source`` (the function) where a
    manifest names its file, and the argument where it names a key, for instance::

        evaluate: bootstrap: expected an integer from 500 to 20000, got 10
        evaluate: priors (sceptic).a: expected a number > 0, got -1

    ``settings``: keyword arguments named as the ``[project]`` settings; ``priors``: name -> the
    table of a ``[[priors]]`` entry without its name (None: the one uniform prior). Raises
    UserInputError holding every problem found.
    """
    settings = {k: as_toml_value(v) for k, v in settings.items()}
    priors = None if priors is None else {k: as_toml_value(v) for k, v in priors.items()}
    check = Checker(source, ManifestLines(""), Path.cwd())
    check.unknown_keys(settings, SETTING_KEYS, Where())
    analysis = _analysis_settings(
        check, {k: v for k, v in settings.items() if k in SETTING_KEYS}, Where()
    )
    specs, taken = [], {}
    for name, table in (priors or {}).items():
        if not isinstance(table, dict):
            check.report(
                Where("priors", 0, printable(str(name))),
                (),
                f"expected a table of a prior's keys, got {shown(table)}",
            )
            continue
        specs.append(read_prior(check, Where("priors", 0), {"name": name, **table}, taken))
    if check.problems:
        raise UserInputError(check.problems)
    return analysis, tuple(s for s in specs if s is not None) or (DEFAULT_PRIOR,)
