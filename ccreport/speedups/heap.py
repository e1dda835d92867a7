"""Replaces glibc's dynamic malloc thresholds (mallopt via ctypes) in the processes that run tasks;
saves ~0.25 CPU s of page faults.

Freed memory kept for reuse by the many large temporaries of a hot loop (glibc only). Off with
``CCREPORT_SPEEDUPS=0`` (:func:`ccreport.speedups.enabled`); the numbers are the same either way
(only where memory comes from changes).

Why: the double-bootstrap calibration (:mod:`ccreport.analysis.calibration`) allocates and frees
arrays of a few to tens of MB thousands of times (picks, cumulative counts, hull candidates). With
glibc's default, dynamic thresholds, ``free`` returns memory at the top of the heap to the kernel
and large requests get fresh ``mmap`` pages, so the pages of each new array are faulted in and
zeroed by the kernel again. Measured in the example's uncertainty tasks (10 calibrations at
n = 208 and 1000, 200 x 50 replicates, one process): 27,000 minor page faults and 0.27 CPU s of
system time in the calibrations, 15,000 more in the bands; on six back-to-back calibrations of those
sizes 110,000-130,000 faults and 0.4-0.8 CPU s of system time next to 1.4 s of user time. With the
thresholds below freed pages stay in the heap and the next array of the same size reuses them:
9,000 faults (the heap's first growth) and 0.02 CPU s in the example's calibrations, none in the
bands after them; the same numbers (only where memory comes from changes). Set by the executors
before a process runs its first task (:func:`ccreport.runtime.threads.worker_init`,
:class:`ccreport.tasks.executors.SerialExecutor`).

:func:`keep_freed_memory` sets ``M_MMAP_THRESHOLD`` to 32 MB (glibc's own ceiling for its dynamic
threshold on 64-bit: larger requests are still mapped and unmapped) and ``M_TRIM_THRESHOLD`` to
256 MB (at most that much free memory stays at the heap's top; the calibration's working set,
bounded by ``path_layout.CHUNK_ELEMENTS``, fits). A trim threshold of 64 MB, what glibc's dynamic
adjustment pairs with a 32 MB mmap threshold, was measured not to be enough: the working set is
larger and it faulted as often as the default. The setting is for the rest of the process (setting
either threshold turns glibc's dynamic adjustment off): a process that ran tasks keeps up to
256 MB of freed memory for its later work instead of giving it back. Its peak memory does not
change. A no-op where the C library is not glibc.
"""

from __future__ import annotations

import ctypes
import ctypes.util

from . import enabled

M_TRIM_THRESHOLD = -1  # glibc's malloc.h
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 * 1024 * 1024  # DEFAULT_MMAP_THRESHOLD_MAX on 64-bit glibc
TRIM_THRESHOLD = 256 * 1024 * 1024  # free memory kept at the heap's top

_set = False


def glibc():
    """This process's C library through ctypes when it is glibc (which has mallopt), else None."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    # glibc only: other C libraries' mallopt differ or do not exist
    return libc if hasattr(libc, "gnu_get_libc_version") and hasattr(libc, "mallopt") else None


def keep_freed_memory() -> bool:
    """Set this process's glibc heap thresholds (module docstring), once, unless speedups are off;
    whether they are set."""
    global _set
    if not _set and enabled():
        libc = glibc()
        _set = (
            libc is not None
            and libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
            and libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
        )
    return _set
