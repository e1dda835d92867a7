"""Checking a parsed manifest: where each key is in the text, and the :class:`Checker` that reads
values against their bounds and collects every problem with its line and key path (a manifest is
reported whole, all problems at once, sorted by line).
"""

from __future__ import annotations

import difflib
import math
import re
import stat
from dataclasses import dataclass, replace
from datetime import date, datetime, time
from pathlib import Path

from ..errors import Problem
from .settings import RANGES, Bound

SCHEDULER_ADDRESS = re.compile(
    r"[A-Za-z][A-Za-z0-9+.-]*://\S+"
)  # a Dask scheduler: protocol://host:port
SCHEDULER_EXPECTED = "the address of a Dask scheduler such as tcp://HOST:PORT"

NAME_PATTERN = re.compile(r"[A-Za-z0-9_.-]+")


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

    def _record_header(
        self, section: str, index: int, prefix: tuple[str, ...], number: int
    ) -> None:
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
        """The line of ``path`` in an element, else of its nearest recorded parent, else the
        header."""
        for length in range(len(path), 0, -1):
            if (found := self.keys.get((section, index, path[:length]))) is not None:
                return found
        if (
            not section and path
        ):  # a whole section: its header ([project], [datasets] or the first [[datasets]])
            return self.headers.get((path[0], 0), self.headers.get((path[0], 1)))
        if (found := self.headers.get((section, index))) is not None:
            return found
        return self.keys.get(("", 0, (section,)))  # an inline array of tables: datasets = [{...}]


# --- collecting problems -----------------------------------------------------------------------


@dataclass(frozen=True)
class Where:
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

    def inner(self, key: str) -> Where:
        return replace(self, prefix=self.prefix + (key,))

    def named(self, name: str | None) -> Where:
        return replace(self, name=name)


POSITIVE = Bound("a number > 0", lambda x: x > 0)
NON_NEGATIVE = Bound("a number >= 0", lambda x: x >= 0)
PROBABILITY = Bound("a number in [0, 1]", lambda x: 0 <= x <= 1)
MAX_WORKERS = 256  # beyond the machine's cores and the task count they are clamped at build time
WORKERS = Bound(
    f"an integer from 1 to {MAX_WORKERS}", lambda x: 1 <= x <= MAX_WORKERS, integer=True
)


def printable(text: str) -> str:
    """``text`` with control characters escaped (a name holding a line break stays on one line)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def file_kind(path: Path) -> str | None:
    """What is at ``path`` (symbolic links followed), in words: "a file", "a folder", "a named
    pipe", "a socket", "a device", or None when nothing is there (or it cannot be looked at)."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        return None
    for test, kind in (
        (stat.S_ISREG, "a file"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "neither a file nor a folder"


def finite_float(value) -> bool:
    """Whether a TOML number is a finite float (an integer of 400 digits is not)."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def shown(value) -> str:
    """A TOML value as a message shows it: ``-1``, ``true``, ``"5" (a string)``, ``a table``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{printable(value)}" (a string)'
    if isinstance(value, int) and abs(value) >= 10**30:
        return f"an integer of {len(str(abs(value)))} digits"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, (datetime, date, time)):
        return f"a date/time {value.isoformat()}"
    return repr(value)


def _listed(value) -> str:
    """An array of scalars as written (``[0.5, 0.1]``), anything else as :func:`shown` puts it."""
    if isinstance(value, list) and all(isinstance(v, (int, float, str, bool)) for v in value):
        return (
            "["
            + ", ".join(repr(v) if not isinstance(v, (str, bool)) else shown(v) for v in value)
            + "]"
        )
    return shown(value)


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
        self.classifier_kinds: dict[str, str] = {}  # name -> "scores" | "predictions", once read

    def report(self, where: Where, keys: tuple[str, ...], expected: str) -> None:
        line = self.lines.line_of(where.section, where.index, where.prefix + keys)
        self.problems.append(Problem(self.file, where.field(*keys), expected, line=line))

    def unknown_keys(self, table: dict, allowed, where: Where) -> None:
        for key in table:
            if key not in allowed:
                self.report(where, (key,), unknown_key_message(key, allowed))

    def string(
        self, table: dict, key: str, where: Where, what: str, required: bool = False
    ) -> str | None:
        value = table.get(key)
        if value is None:
            if required:
                self.report(where, (key,), f"missing required key; expected {what}")
            return None
        if not isinstance(value, str) or not value.strip():
            self.report(where, (key,), f"expected {what}, got {shown(value)}")
            return None
        return value

    def number(
        self, table: dict, key: str, where: Where, bound: Bound, default=None, required=False
    ):
        value = table.get(key)
        if value is None:
            if required:
                self.report(where, (key,), f"missing required key; expected {bound.text}")
            return default
        kinds = int if bound.integer else (int, float)
        is_number = (
            isinstance(value, kinds)
            and not isinstance(value, bool)
            and (bound.integer or finite_float(value))
        )
        if not is_number or not bound.accepts(value):
            self.report(where, (key,), f"expected {bound.text}, got {shown(value)}")
            return None
        return value

    def choice(
        self, table: dict, key: str, where: Where, options, default=None, required=False
    ) -> str | None:
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

    def ranges(
        self, table: dict, key: str, where: Where, default=()
    ) -> tuple[tuple[float, float], ...] | None:
        """A list of ``[low, high]`` pairs of numbers with ``0 <= low < high <= 1``
        (as float pairs)."""
        value = table.get(key)
        if value is None:
            return default
        if not isinstance(value, list):
            self.report(where, (key,), f"expected {RANGES}, got {shown(value)}")
            return None
        found, ok = [], True
        for i, item in enumerate(value, start=1):
            pair = item if isinstance(item, list) and len(item) == 2 else None
            numbers = pair is not None and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                for v in pair
            )
            if not numbers:
                self.report(
                    where,
                    (key,),
                    f"entry {i}: expected a pair [low, high] of numbers, got {_listed(item)}",
                )
                ok = False
            elif not 0 <= pair[0] < pair[1] <= 1:
                self.report(
                    where, (key,), f"entry {i}: expected 0 <= low < high <= 1, got {_listed(item)}"
                )
                ok = False
            else:
                found.append((float(pair[0]), float(pair[1])))
        return tuple(found) if ok else None

    def existing_file(
        self, table: dict, key: str, where: Where, what: str, required=False
    ) -> Path | None:
        text = self.string(table, key, where, what, required)
        if text is None:
            return None
        if "\0" in text:
            self.report(where, (key,), f"expected {what}, got a path holding a NUL character")
            return None
        try:
            path = (self.root / text).resolve()
        except (OSError, RuntimeError) as error:  # a symbolic-link loop, a name too long
            self.report(
                where,
                (key,),
                f"expected {what}; cannot follow {printable(text)}: "
                f"{getattr(error, 'strerror', None) or 'a symbolic-link loop'}",
            )
            return None
        kind = file_kind(path)
        if kind is None:
            self.report(
                where,
                (key,),
                f"expected {what}; file not found: {printable(text)} (looked for {path})",
            )
            return None
        if kind != "a file":
            self.report(where, (key,), f"expected {what}, got {kind}: {printable(text)}")
            return None
        return path

    def text_file(self, table: dict, key: str, where: Where, what: str) -> Path | None:
        """An existing file that must be UTF-8 text (a narrative): the line of the first bad
        byte."""
        path = self.existing_file(table, key, where, what)
        if path is None:
            return None
        try:
            data = path.read_bytes()
        except OSError as error:
            self.report(
                where,
                (key,),
                f"expected {what}; cannot read {display_path(path)}: {error.strerror}",
            )
            return None
        try:
            data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            self.report(
                where,
                (key,),
                f"expected {what} in UTF-8; {display_path(path)}:{line} has byte "
                f"0x{data[error.start]:02x}",
            )
            return None
        return path

    def name(self, table: dict, where: Where, taken: dict[str, int]) -> str | None:
        """The element's ``name``: required, of file-name-safe characters, unique in its section."""
        value = self.string(
            table, "name", where, "a name of letters, digits, '_', '.' or '-'", required=True
        )
        if value is None:
            return None
        if not NAME_PATTERN.fullmatch(value):
            self.report(
                where,
                ("name",),
                "expected letters, digits, '_', '.' or '-' only (names are used in file names), "
                f"got {shown(value)}",
            )
            return None
        if value in taken:
            self.report(
                where.named(value),
                ("name",),
                f'duplicate name; {where.section}[{taken[value]}] is also named "{value}"',
            )
        else:
            taken[value] = where.index
        return value

    def dataset_list(self, table: dict, where: Where) -> tuple[str, ...] | None:
        """The optional ``datasets`` list of names of this manifest's datasets (None: all)."""
        if "datasets" not in table:
            return None
        value = table["datasets"]
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            self.report(
                where,
                ("datasets",),
                f"expected a non-empty list of dataset names, got {shown(value)}",
            )
            return None
        unknown = [v for v in value if v not in self.dataset_names]
        if unknown:
            known = ", ".join(sorted(self.dataset_names)) or "none"
            self.report(
                where,
                ("datasets",),
                f"expected names of datasets in this manifest ({known}), got {shown(unknown[0])}",
            )
            return None
        return tuple(value)

    def tables(self, document: dict, section: str, required: bool) -> list[tuple[Where, dict]]:
        """The elements of the array of tables ``section`` (``[[datasets]]``), each with its
        place."""
        value = document.get(section)
        top = Where()
        if value is None or value == []:
            if required:
                self.report(top, (section,), f"missing; expected at least one [[{section}]] table")
            return []
        if isinstance(value, dict):
            self.report(
                top,
                (section,),
                f"expected one or more [[{section}]] tables (double brackets), got a single "
                f"[{section}] table",
            )
            return []
        if not isinstance(value, list):
            self.report(
                top, (section,), f"expected one or more [[{section}]] tables, got {shown(value)}"
            )
            return []
        elements = []
        for index, element in enumerate(value, start=1):
            where = Where(section, index)
            if isinstance(element, dict):
                elements.append((where, element))
            else:
                self.report(where, (), f"expected a table, got {shown(element)}")
        return elements
