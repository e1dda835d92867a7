"""One base exception for ccreport; user mistakes are a subclass the CLI prints on one line."""

from __future__ import annotations

from dataclasses import dataclass


class CCReportError(Exception):
    """Base of every error ccreport raises on purpose."""


@dataclass(frozen=True)
class Problem:
    """One mistake in a user's input: where it is, which field, and what was expected.

    ``line`` is a 1-based line in a text file (the manifest) and ``row`` a 1-based data row of a
    table (the header is row 0); either or both may be None.
    """

    file: str
    field: str
    expected: str
    line: int | None = None
    row: int | None = None

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
        if self.row is not None:
            where += f": row {self.row}"
        text = f"{where}: {self.field}: {self.expected}"
        return text.replace("\r", "\\r").replace("\n", "\\n")  # one problem, one line


class UserInputError(CCReportError):
    """The manifest or the data is wrong. Holds every problem found, each printable on one line."""

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self):
        """Pickled as its problems, so one raised in a worker process (the build's figure and page
        writers) reaches the command line as it was raised."""
        return type(self), (self.problems,)
