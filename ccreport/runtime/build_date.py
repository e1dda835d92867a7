"""The build date: when a report says it was made, and where that date came from.

In order of precedence (the reproducible-builds convention first):

1. ``SOURCE_DATE_EPOCH`` in the environment, an integer count of seconds since 1970-01-01T00:00:00Z
   (https://reproducible-builds.org/specs/source-date-epoch/) written in ASCII digits, at most
   :data:`MAX_ENVIRONMENT_EPOCH` (10^11 s, in year 5138); any other value (non-ASCII digits, a sign,
   5,000 digits) is a user error (exit 2) that ``ccreport check`` reports too, never silently
   replaced;
2. the manifest's optional ``[project] date`` (an ISO date, ``date = 2024-05-01``), read as midnight
   UTC;
3. the time of the build, to the second.

Dates are written as ISO 8601 with a four-digit year (``0001-01-01T00:00:00Z`` for year 1), the
form ``ccreport verify`` reads back (:func:`parse_iso`).

With (1) or (2) the date is fixed, so two builds of the same inputs give the same bytes; with (3)
each build carries its own date. The date is a presentation setting (title page, PDF metadata,
``results.json``'s ``provenance``), never an input of an analysis.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime

from ..errors import Problem, UserInputError

ENVIRONMENT = "SOURCE_DATE_EPOCH"
FROM_ENVIRONMENT = "SOURCE_DATE_EPOCH"
FROM_MANIFEST = "manifest"
FROM_CLOCK = "build time"
SOURCES = (FROM_ENVIRONMENT, FROM_MANIFEST, FROM_CLOCK)
MAX_EPOCH = 253402300799  # 9999-12-31T23:59:59Z: the last moment an ISO date with 4 digits names
MAX_ENVIRONMENT_EPOCH = (
    10**11
)  # the largest SOURCE_DATE_EPOCH accepted (a bound, not a calendar edge)
MIN_EPOCH = -62135596800  # 0001-01-01T00:00:00Z: the first ([project] date = 0001-01-01)
ISO_MOMENT = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z", re.ASCII)


@dataclass(frozen=True)
class BuildDate:
    """A moment (UTC, whole seconds) and its source, one of :data:`SOURCES`."""

    epoch: int
    source: str

    @property
    def moment(self) -> datetime:
        return datetime.fromtimestamp(self.epoch, tz=UTC)

    @property
    def iso(self) -> str:
        """``2024-05-01T00:00:00Z``: as results.json and the PDF metadata record it (ISO 8601, the
        year always four digits: ``strftime("%Y")`` writes year 1 as ``1`` on glibc)."""
        m = self.moment
        return f"{m.year:04d}-{m.month:02d}-{m.day:02d}T{m.hour:02d}:{m.minute:02d}:{m.second:02d}Z"

    @property
    def fixed(self) -> bool:
        """Whether a rebuild gets the same date (so the same bytes)."""
        return self.source != FROM_CLOCK

    def display(self) -> str:
        """As the title page shows it: the day, and the time of day unless it is midnight UTC."""
        moment = self.moment
        day = self.iso[:10]
        return (
            day
            if (moment.hour, moment.minute, moment.second) == (0, 0, 0)
            else f"{day} {moment:%H:%M:%S} UTC"
        )


def epoch_of_date(day: date) -> int:
    """Midnight UTC of ``day`` in seconds since the epoch."""
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp())


@contextmanager
def libraries_see_no_invalid_epoch():
    """Hide an invalid ``SOURCE_DATE_EPOCH`` from the libraries imported inside the block.

    Some libraries read the variable with ``int()`` when they are imported (numpy.f2py, which
    scipy.special's array-API layer imports), so a value such as ``garbage`` would end the import
    of ccreport with a traceback before the command can name the problem. Inside the block a value
    :func:`parse_epoch` would refuse is removed from the environment; it is put back afterwards, so
    ``check``, ``build`` and ``verify`` still report it as a one-line error (exit 2)."""
    value = os.environ.get(ENVIRONMENT)
    invalid = False
    if value is not None:
        try:
            parse_epoch(value)
        except UserInputError:
            invalid = True
    if invalid:
        del os.environ[ENVIRONMENT]
    try:
        yield
    finally:
        if invalid:
            os.environ[ENVIRONMENT] = value


def parse_epoch(text: str) -> int:
    """``SOURCE_DATE_EPOCH``'s value; raises UserInputError naming the variable when it is not a
    non-negative decimal integer in ASCII digits, at most 10^11 (``str.isdigit``
    accepts other scripts' digits, and ``int`` refuses more than 4,300 digits: the length is
    checked first)."""
    value = text.strip()
    if (
        not (value.isascii() and value.isdigit())
        or len(value) > len(str(MAX_ENVIRONMENT_EPOCH))
        or int(value) > MAX_ENVIRONMENT_EPOCH
    ):
        shown = value if len(value) <= 24 else value[:24] + "..."
        raise UserInputError(
            Problem(
                ENVIRONMENT,
                "environment",
                "expected seconds since 1970-01-01T00:00:00Z, an integer from 0 to "
                f"{MAX_ENVIRONMENT_EPOCH}, got {shown!r}",
            )
        )
    return int(value)


def parse_iso(text) -> int | None:
    """The epoch of ``YYYY-MM-DDTHH:MM:SSZ`` (as :attr:`BuildDate.iso` writes it, years 0001 to
    9999), or None when ``text`` is not such a string or names no real moment."""
    match = ISO_MOMENT.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    try:
        moment = datetime(*(int(part) for part in match.groups()), tzinfo=UTC)
    except ValueError:  # 2024-02-30, hour 25, year 0
        return None
    return int(moment.timestamp())


def build_date(manifest_date: date | None, now: datetime | None = None, environ=None) -> BuildDate:
    """The build date by precedence (module doc): environment, manifest, clock."""
    environ = os.environ if environ is None else environ
    value = environ.get(ENVIRONMENT)
    if value is not None and value.strip():
        return BuildDate(parse_epoch(value), FROM_ENVIRONMENT)
    if manifest_date is not None:
        return BuildDate(epoch_of_date(manifest_date), FROM_MANIFEST)
    moment = now if now is not None else datetime.now(UTC)
    return BuildDate(int(moment.timestamp()), FROM_CLOCK)
