"""Timing helpers shared by the speed benchmarks (run as ``python benchmarks/<name>.py``)."""

from __future__ import annotations

import time


def best_time(function, *args, repeats: int) -> float:
    """The shortest wall time of ``repeats`` calls of ``function(*args)``, in seconds."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - started)
    return min(times)
