"""Python's cyclic garbage collector around a build's output stages.

A build holds hundreds of thousands of long-lived objects (the modules of numpy, scipy, matplotlib
and WeasyPrint, the results), and its output stages allocate millions of short-lived ones (artists,
computed styles, boxes). Every collection of the oldest generation walks all of them, so left
alone the collector costs a build a sizeable share of its CPU time (counted with ``gc.callbacks``;
the figures are in benchmarks/README.md).

* :func:`long_lived_frozen`: what the process holds when the output stages start is moved to the
  permanent generation (``gc.freeze``) until they end, so the figure stage's collections (its
  artists are cyclic garbage that must be collected) walk only the objects it made.
* :func:`collector_paused`: the collector is paused while WeasyPrint builds, lays out and writes
  report.pdf. WeasyPrint allocates millions of small objects (computed styles, boxes, line boxes,
  PDF objects); every allocation count past the collector's threshold starts a collection, and the
  oldest generation's collections walk every object the process holds (the build's results
  included). Paused, the same work costs less CPU and a little more peak memory (the cyclic
  garbage WeasyPrint leaves is collected once, when the collector is enabled again and next runs).
  Paused and enabled by a counter, so nested and concurrent uses in one process restore the
  collector once the last one ends, and only if it was enabled before the first.
  A build pauses it over all its output stages (figures, pages, report.pdf: their garbage is
  collected once, after them) and report.pdf's typesetting pauses it again inside.
* :func:`leave_garbage_to_exit`: a process that ends when its command returns (the ``ccreport``
  command, :func:`ccreport.cli.run`) does not enable the collector again after a pause: the output
  stages' garbage (about 55 MB on the example) is left to the operating system, which reclaims it
  at the exit, rather than walked once more for nothing: most of what the collections of a build
  would still cost. A long-lived process (``ccreport serve``, a notebook calling
  :func:`ccreport.commands.build`) never calls it, so its collector resumes after every build.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager


@contextmanager
def long_lived_frozen():
    """``gc.freeze()`` for the block, ``gc.unfreeze()`` after it (module docstring). Does nothing
    when objects are frozen already (a caller's own freeze): unfreezing would thaw them too."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


_pause_lock = threading.Lock()
_pauses = 0
_was_enabled = False
_process_ends = False


def leave_garbage_to_exit() -> None:
    """From now on a pause that ends leaves the collector paused: this process exits when its
    command returns, and its garbage goes with it (module docstring). Irreversible by design."""
    global _process_ends
    _process_ends = True


@contextmanager
def collector_paused():
    """Pause the cyclic garbage collector for the block (see the module docstring)."""
    global _pauses, _was_enabled
    with _pause_lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled and not _process_ends:
                gc.enable()
