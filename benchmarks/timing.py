"""Timing helpers shared by the speed benchmarks (run as ``python benchmarks/<name>.py``)."""

from __future__ import annotations

import time

from ccreport.analysis import memo


def best_time(function, *args, repeats: int) -> float:
    """The shortest wall time of ``repeats`` calls of ``function(*args)``, in seconds.

    ccreport's per-process memos (:mod:`ccreport.analysis.memo`) are emptied before every call, so
    each repeat does the whole work, as a build's first call on an array does, instead of timing a
    memo hit."""
    times = []
    for _ in range(repeats):
        memo.clear()
        started = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - started)
    return min(times)
