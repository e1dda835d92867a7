"""How the battery's tasks are run: one small interface, ``Executor.map(tasks) -> outputs``.

Every executor runs each :class:`~ccreport.battery.Task` with :func:`~ccreport.battery.run_task`
and returns the outputs in the order of the tasks. Tasks are pure and draw from generators keyed by
their names, so every executor gives the same outputs, byte for byte; they differ only in where the
work happens:

* :class:`SerialExecutor` - in this process, one task after another (``-j 1``: one process, no pool);
* :class:`ProcessPoolExecutor` - in ``workers`` worker processes (``concurrent.futures``).

Both look each task up in the build's content-addressed cache first (:func:`ccreport.cache.cached_map`,
active only inside a build that asks for it) and run only the tasks not found there. Another way of
running (a cluster) is one more class with a ``map`` method; :func:`executor_for` chooses between
the local ones from a worker count.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Sequence
from typing import Protocol

from .battery import Task, run_task
from .cache import cached_map, done
from .threads import worker_init


class Executor(Protocol):
    def map(self, tasks: Sequence[Task]) -> list:
        """The output of every task, in the order of ``tasks``."""
        ...


class SerialExecutor:
    """Every task in this process, in order."""

    def map(self, tasks: Sequence[Task]) -> list:
        return cached_map(run_task, [(task,) for task in tasks], lambda todo: [done(run_task(*args)) for args in todo])


class ProcessPoolExecutor:
    """Every task in a pool of ``workers`` processes (a pool of one is still a second process)."""

    def __init__(self, workers: int):
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        self.workers = workers

    def map(self, tasks: Sequence[Task]) -> list:
        return cached_map(run_task, [(task,) for task in tasks], self._run)

    def _run(self, todo: list[tuple[Task]]) -> list:
        if not todo:
            return []
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=min(self.workers, len(todo)), initializer=worker_init)
        try:
            return [done(output) for output in pool.map(run_task, [task for (task,) in todo])]
        finally:
            pool.shutdown(wait=True, cancel_futures=True)  # Ctrl-C: tasks not started are dropped


def executor_for(workers: int | None) -> Executor:
    """Serial for one worker (or None), a process pool for more."""
    return SerialExecutor() if workers is None or workers <= 1 else ProcessPoolExecutor(int(workers))
