"""Ctrl-C during a build: only the main process reacts; worker processes ignore SIGINT.

A terminal sends SIGINT to every process of the foreground group, so without this each worker of
a process pool would print its own KeyboardInterrupt traceback. Workers ignore it
(:func:`ignore_interrupts` as the pool's initializer); the main process raises KeyboardInterrupt,
cancels the tasks not yet started (``shutdown(cancel_futures=True)``), removes its staging folder
and the CLI prints one line and exits with :data:`EXIT_INTERRUPTED`.

Python can lose that KeyboardInterrupt. It is raised wherever the main thread happens to be when
the signal is handled, and where that is an object's finaliser (``__del__``, a weakref or cffi
callback) Python prints "Exception ignored in ..." and carries on: the build would finish and
replace the previous output although the user pressed Ctrl-C (tests/runtime/test_safe_builds.py
makes it happen). Python 3.11 also wraps one raised inside a class's ``__set_name__`` (matplotlib's
import, during a build) into a RuntimeError: an "internal error" (seen once in 110 interrupts sent
at random moments of a build's first 2.5 s). So while a build runs (:func:`interrupts_noticed`) the
interrupt is also remembered, the build checks for it before it replaces anything
(:func:`raise_if_interrupted`), and the CLI reads an error caused by one as the interrupt it is
(:func:`caused_by_interrupt`). Python's "Exception ignored in ..." message for such a lost
interrupt (it also comes when SIGINT lands in the hooks a process pool's fork runs) is not
printed: the interrupt is not lost, and the CLI's one line says so.

A process started with SIGINT ignored (a background job of a non-interactive shell, ``nohup``)
keeps ignoring it, as Python itself does: nothing here turns it back on.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it

_received: list[
    bool
] = []  # one entry per interrupts_noticed context entered; True once SIGINT came


def ignore_interrupts() -> None:
    """Initializer of worker processes: leave SIGINT to the main process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def interrupts_noticed():
    """A context in which SIGINT raises KeyboardInterrupt, as Python's default handler does, and is
    also remembered for :func:`raise_if_interrupted`. Only where Python's default handler is in
    force and in the main thread (signal handlers can be set nowhere else); elsewhere nothing
    changes."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return

    def remember_and_raise(signum, frame):
        _received[-1] = True
        raise KeyboardInterrupt

    previous_hook = sys.unraisablehook

    def quiet_about_remembered_interrupts(unraisable):
        if not (issubclass(unraisable.exc_type, KeyboardInterrupt) and _received[-1]):
            previous_hook(unraisable)

    _received.append(False)
    sys.unraisablehook = quiet_about_remembered_interrupts
    signal.signal(signal.SIGINT, remember_and_raise)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.unraisablehook = previous_hook
        _received.pop()


def raise_if_interrupted() -> None:
    """Raise KeyboardInterrupt if SIGINT came since :func:`interrupts_noticed` was entered, even if
    the KeyboardInterrupt it raised was lost (see the module docstring)."""
    if _received and _received[-1]:
        raise KeyboardInterrupt


def caused_by_interrupt(error: BaseException) -> bool:
    """Whether ``error`` is or was caused by a KeyboardInterrupt (its ``__cause__``/``__context__``
    chain)."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False
