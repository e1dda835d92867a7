"""One BLAS thread per process: a build's parallelism is its worker processes (``-j``), never
threads.

NumPy's OpenBLAS starts one thread per core for a matrix operation. With ``-j N`` worker processes
each also running N BLAS threads the cores are oversubscribed, and on a busy machine a spinning
BLAS thread waits for a core: the Gauss-Legendre rule of an induced prior's CDF (one small
eigenvalue problem) can take seconds instead of hundredths of a second. The analyses' matrices
are small, so one thread loses nothing, and the results do not depend on the thread count either.
Uses threadpoolctl when installed; without it the limit is simply not applied.
"""

from __future__ import annotations

import contextlib


def one_blas_thread():
    """A context in which BLAS libraries loaded by this process use one thread (nothing without
    threadpoolctl)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def worker_init() -> None:
    """Initializer of worker processes: SIGINT left to the main process, one BLAS thread, freed
    memory kept for reuse (:func:`ccreport.speedups.heap.keep_freed_memory`, unless speedups are
    off)."""
    from ..speedups.heap import keep_freed_memory
    from .interrupts import ignore_interrupts

    ignore_interrupts()
    keep_freed_memory()
    one_blas_thread()  # threadpool_limits applies on creation; a worker keeps it for its life
