"""The build date: when a report says it was made, and where that date came from.

In order of precedence (the reproducible-builds convention first):

1. ``SOURCE_DATE_EPOCH`` in the environment, an integer count of seconds since 1970-01-01T00:00:00Z
   (https://reproducible-builds.org/specs/source-date-epoch/); a value that is not such an integer
   is a user error (exit 2), never silently replaced;
2. the manifest's optional ``[project] date`` (an ISO date, ``date = 2024-05-01``), read as midnight UTC;
3. the time of the build, to the second.

With (1) or (2) the date is fixed, so two builds of the same inputs give the same bytes; with (3)
each build carries its own date. The date is a presentation setting (title page, PDF metadata,
``results.json``'s ``provenance``), never an input of an analysis.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date, datetime, timezone

from .errors import Problem, UserInputError

ENVIRONMENT = "SOURCE_DATE_EPOCH"
FROM_ENVIRONMENT = "SOURCE_DATE_EPOCH"
FROM_MANIFEST = "manifest"
FROM_CLOCK = "build time"
SOURCES = (FROM_ENVIRONMENT, FROM_MANIFEST, FROM_CLOCK)
MAX_EPOCH = 253402300799  # 9999-12-31T23:59:59Z: the last moment an ISO date with 4 digits names


@dataclass(frozen=True)
class BuildDate:
    """A moment (UTC, whole seconds) and its source, one of :data:`SOURCES`."""

    epoch: int
    source: str

    @property
    def moment(self) -> datetime:
        return datetime.fromtimestamp(self.epoch, tz=timezone.utc)

    @property
    def iso(self) -> str:
        """``2024-05-01T00:00:00Z``: as results.json and the PDF metadata record it."""
        return self.moment.strftime("%Y-%m-%dT%H:%M:%SZ")

    @property
    def fixed(self) -> bool:
        """Whether a rebuild gets the same date (so the same bytes)."""
        return self.source != FROM_CLOCK

    def display(self) -> str:
        """As the title page shows it: the day, and the time of day unless it is midnight UTC."""
        moment = self.moment
        day = moment.strftime("%Y-%m-%d")
        return day if (moment.hour, moment.minute, moment.second) == (0, 0, 0) else f"{day} {moment:%H:%M:%S} UTC"


def epoch_of_date(day: date) -> int:
    """Midnight UTC of ``day`` in seconds since the epoch."""
    return int(datetime(day.year, day.month, day.day, tzinfo=timezone.utc).timestamp())


def parse_epoch(text: str) -> int:
    """``SOURCE_DATE_EPOCH``'s value; raises UserInputError naming the variable when it is not a
    non-negative decimal integer of a moment up to year 9999."""
    value = text.strip()
    if not value.isdigit() or int(value) > MAX_EPOCH:
        shown = value if len(value) <= 24 else value[:24] + "..."
        raise UserInputError(
            Problem(ENVIRONMENT, "environment", f"expected seconds since 1970-01-01T00:00:00Z, an integer from 0 to {MAX_EPOCH}, got {shown!r}")
        )
    return int(value)


def build_date(manifest_date: date | None, now: datetime | None = None, environ=None) -> BuildDate:
    """The build date by precedence (module doc): environment, manifest, clock."""
    environ = os.environ if environ is None else environ
    value = environ.get(ENVIRONMENT)
    if value is not None and value.strip():
        return BuildDate(parse_epoch(value), FROM_ENVIRONMENT)
    if manifest_date is not None:
        return BuildDate(epoch_of_date(manifest_date), FROM_MANIFEST)
    moment = now if now is not None else datetime.now(timezone.utc)
    return BuildDate(int(moment.timestamp()), FROM_CLOCK)
