"""Progress of a build on a terminal: the phase and the tasks done, drawn by ``rich``.

A build reports through the module-level reporter: :func:`phase` when a phase starts (loading,
analysing, figures, site, PDF), :func:`tasks` when a batch of tasks starts and :func:`advance` as
they finish. By default the reporter is silent; :func:`showing` installs a ``rich`` progress
display for the duration of a ``with`` block when :func:`wanted` says so: standard error is a
terminal, the ``CI`` environment variable is unset or empty, and ``--quiet`` was not given. Notes
(such as workers clamped to the cores) go to :func:`note`, printed above the bar or as a plain line.
"""

from __future__ import annotations

import contextlib
import os
import sys


class _Silent:
    def phase(self, name: str) -> None:
        pass

    def tasks(self, total: int) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def note(self, text: str) -> None:
        print(f"ccreport: {text}", file=sys.stderr)


class _Rich(_Silent):
    def __init__(self, progress):
        self.progress = progress
        self.task = progress.add_task("starting", total=None)

    def phase(self, name: str) -> None:
        self.progress.remove_task(self.task)  # a fresh task: rich cannot clear a total once set
        self.task = self.progress.add_task(name, total=None)

    def tasks(self, total: int) -> None:
        self.progress.reset(self.task, total=max(total, 1), completed=0)

    def advance(self, n: int = 1) -> None:
        self.progress.advance(self.task, n)

    def note(self, text: str) -> None:
        self.progress.console.print(f"ccreport: {text}", markup=False, highlight=False)


_current: _Silent = _Silent()


def wanted(quiet: bool = False, stream=None) -> bool:
    """Whether to draw a progress display: a terminal, not CI, not ``--quiet``."""
    stream = sys.stderr if stream is None else stream
    return not quiet and not os.environ.get("CI") and hasattr(stream, "isatty") and stream.isatty()


@contextlib.contextmanager
def showing(enabled: bool):
    """Draw the progress display inside the block when ``enabled`` (else notes only)."""
    global _current
    if not enabled:
        yield _current
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    console = Console(stderr=True)
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        previous, _current = _current, _Rich(bar)
        try:
            yield _current
        finally:
            _current = previous


def phase(name: str) -> None:
    _current.phase(name)


def tasks(total: int) -> None:
    _current.tasks(total)


def advance(n: int = 1) -> None:
    _current.advance(n)


def note(text: str) -> None:
    _current.note(text)
