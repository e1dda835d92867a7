"""The command's last step: end the process without taking the interpreter's heap apart.

After ``ccreport build`` has written its output, a normal interpreter exit frees every object one by
one (the results, figures, WeasyPrint's boxes and fonts, every module), which measured 0.3-0.7 CPU s
of the example build's 18 (benchmarks/README.md, "Process exit, session 11"): work whose only
effect is memory the operating system reclaims anyway. :func:`exit_now` does what an exit must do
and skips that part:

1. the ``atexit`` handlers run, in their usual order (temporary folders' finalizers, logging's
   flush, multiprocessing's clean-up of pool workers, Dask's clients);
2. ``sys.stdout`` and ``sys.stderr`` are flushed;
3. ``os._exit(code)``.

It falls back to an ordinary ``sys.exit(code)`` when a thread other than the main one is still
running (an ordinary exit waits for non-daemon threads) or when this Python has no
``atexit._run_exitfuncs`` (a CPython detail, present in every CPython 3). Every file ccreport
writes is closed by the code that writes it (``with`` blocks; the output folder is renamed into
place before the command returns), so no buffered data is left for the interpreter's teardown to
flush. Only the entry points use it (:func:`ccreport.cli.run`: the ``ccreport`` script and
``python -m ccreport``); :func:`ccreport.cli.main` returns its status as before, for callers in
the same process.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn


def other_threads_running() -> bool:
    """Whether a thread other than the main one is alive (an ordinary exit would wait for it)."""
    main = threading.main_thread()
    return any(thread is not main and thread.is_alive() and not thread.daemon for thread in threading.enumerate())


def exit_now(code: int | None) -> NoReturn:
    """End the process with exit status ``code``: ``atexit`` handlers, flushed standard streams,
    then ``os._exit`` (see the module docstring for what is skipped and when it falls back)."""
    code = 0 if code is None else int(code)
    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_handlers is None or other_threads_running():
        sys.exit(code)
    run_handlers()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):  # closed or replaced streams: nothing to flush
            pass
    os._exit(code)
