"""Ctrl-C during a build: only the main process reacts; worker processes ignore SIGINT.

A terminal sends SIGINT to every process of the foreground group, so without this each worker of
a process pool would print its own KeyboardInterrupt traceback. Workers ignore it
(:func:`ignore_interrupts` as the pool's initializer); the main process raises KeyboardInterrupt,
cancels the tasks not yet started (``shutdown(cancel_futures=True)``), removes its staging folder
and the CLI prints one line and exits with :data:`EXIT_INTERRUPTED`.
"""

from __future__ import annotations

import signal

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def ignore_interrupts() -> None:
    """Initializer of worker processes: leave SIGINT to the main process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
