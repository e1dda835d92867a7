"""How the battery's tasks are run: one small interface, ``Executor.map(tasks) -> outputs``.

Every executor runs each :class:`~ccreport.tasks.battery.Task` with
:func:`~ccreport.tasks.battery.run_task` and returns the outputs in the order of the tasks. Tasks
are pure and draw from generators keyed by their names, so every executor gives the same outputs,
byte for byte; they differ only in where the work happens:

* :class:`SerialExecutor` - in this process, one task after another (``-j 1``: one process, no
  pool);
* :class:`ProcessPoolExecutor` - in ``workers`` worker processes (``concurrent.futures``);
* :class:`DaskExecutor` - on the workers of a Dask distributed cluster (``ccreport build --scheduler
  tcp://HOST:PORT`` or ``[project] scheduler``; the optional extra ``ccreport[cluster]``), opened
  by :func:`cluster`, which checks that the scheduler answers within :data:`CONNECT_TIMEOUT`
  seconds, has workers, and that every worker runs the same ccreport (version and source hash,
  :func:`ccreport.tasks.cache.source_hash`): the same code on the same inputs gives the same bytes.

All look each task up in the build's content-addressed cache first
(:func:`ccreport.tasks.cache.cached_map`, active only inside a build that asks for it; the cache
stays on this machine) and run only the tasks not found there. :func:`executor_for` chooses between
the local ones from a worker count; :func:`default_workers` is the count a build uses when neither
``-j`` nor the manifest gives one.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import socket
import urllib.parse
from collections.abc import Iterator, Sequence
from typing import Protocol

from ..errors import Problem, UserInputError
from ..project.manifest_checks import SCHEDULER_ADDRESS, SCHEDULER_EXPECTED
from ..runtime.threads import one_blas_thread, worker_init
from ..speedups.heap import keep_freed_memory
from ..version import __version__
from .battery import Task, run_task
from .cache import cached_map, done, source_hash

CONNECT_TIMEOUT = 10  # seconds to wait for a Dask scheduler's answer
DEFAULT_WORKERS_CAP = (
    8  # default workers at most: each holds its tasks' arrays (memory grows with workers)
)
INSTALL_HINT = 'pip install "ccreport[cluster]" (dask[distributed])'


class Executor(Protocol):
    def map(self, tasks: Sequence[Task]) -> list:
        """The output of every task, in the order of ``tasks``."""
        ...


class SerialExecutor:
    """Every task in this process, in order (freed memory kept for reuse first, as in a pool's
    workers: :func:`ccreport.runtime.threads.worker_init`)."""

    def map(self, tasks: Sequence[Task]) -> list:
        return cached_map(run_task, [(task,) for task in tasks], self._run)

    @staticmethod
    def _run(todo: list[tuple[Task]]) -> list:
        if todo:
            keep_freed_memory()
        return [done(run_task(*args)) for args in todo]


class ProcessPoolExecutor:
    """Every task in a pool of ``workers`` processes (a pool of one is still a second process).
    ``meanwhile``: work for this process while the workers run, once every task is handed out
    (a build imports what its output stages use, :func:`ccreport.commands.build.prepare_output`);
    it changes no output."""

    def __init__(self, workers: int, meanwhile=None):
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        self.workers = workers
        self.meanwhile = meanwhile

    def map(self, tasks: Sequence[Task]) -> list:
        return cached_map(run_task, [(task,) for task in tasks], self._run)

    def _run(self, todo: list[tuple[Task]]) -> list:
        if not todo:
            return []
        pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=min(self.workers, len(todo)), initializer=worker_init
        )
        try:
            outputs = pool.map(run_task, [task for (task,) in todo])  # every task handed out
            if self.meanwhile is not None:
                self.meanwhile()
            return [done(output) for output in outputs]
        finally:
            pool.shutdown(wait=True, cancel_futures=True)  # Ctrl-C: tasks not started are dropped


def machine_cores() -> int:
    """The cores this process may run on: ``os.process_cpu_count`` (Python 3.13), else the size of
    its CPU affinity set (``os.sched_getaffinity``, where the system has one), else
    ``os.cpu_count``."""
    counted = getattr(os, "process_cpu_count", None)
    if counted is not None:
        return max(1, counted() or 1)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def default_workers() -> int:
    """Worker processes of a build that asks for no count: one per core, at most
    :data:`DEFAULT_WORKERS_CAP` (the results do not depend on it)."""
    return min(machine_cores(), DEFAULT_WORKERS_CAP)


def executor_for(workers: int | None, meanwhile=None) -> Executor:
    """Serial for one worker (or None), a process pool for more (``meanwhile``: see
    :class:`ProcessPoolExecutor`)."""
    if workers is None or workers <= 1:
        return SerialExecutor()
    return ProcessPoolExecutor(int(workers), meanwhile)


def identity() -> tuple[str, str]:
    """This process's ccreport: its version and :func:`~ccreport.tasks.cache.source_hash`
    (run on each worker)."""
    return __version__, source_hash()


def run_task_one_thread(task: Task):
    """:func:`run_task` with one BLAS thread, as on a local worker, so a cluster's numbers are a
    local build's (a few matrix products round differently with more threads;
    ccreport.runtime.threads)."""
    with one_blas_thread():
        return run_task(task)


class DaskExecutor:
    """Every task on a Dask distributed cluster, through a connected ``distributed.Client``."""

    def __init__(self, client):
        self.client = client

    def map(self, tasks: Sequence[Task]) -> list:
        return cached_map(run_task, [(task,) for task in tasks], self._run)

    def _run(self, todo: list[tuple[Task]]) -> list:
        if not todo:
            return []
        futures = self.client.map(run_task_one_thread, [task for (task,) in todo], pure=False)
        try:
            return [done(future.result()) for future in futures]  # in task order
        finally:
            self.client.cancel(futures)  # Ctrl-C or a failed task: drop what is left on the cluster


def tcp_refusal(address: str, timeout: float) -> str | None:
    """Why a ``tcp://HOST:PORT`` address takes no connection within ``timeout`` seconds (None: it
    does, or another protocol, left to Dask)."""
    parts = urllib.parse.urlsplit(address)
    if parts.scheme != "tcp":
        return None
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        return "the port is not a number"
    if not host or port is None:
        return "expected tcp://HOST:PORT"
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except TimeoutError:
        return f"no answer within {timeout:g} s"
    except OSError as error:
        return error.strerror or str(error)
    return None


def scheduler_refusal(address: str, timeout: float) -> str | None:
    """Why no Dask scheduler answers an identity request at ``address`` within ``timeout`` seconds
    (None: one does). Something else listening there (a proxy, another server) is refused too."""
    import asyncio

    from distributed.comm import connect

    async def identity():
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            await comm.close()

    try:
        found = asyncio.run(asyncio.wait_for(identity(), timeout))
    except TimeoutError:
        return f"no Dask scheduler answered within {timeout:g} s"
    except Exception as error:  # noqa: BLE001 - whatever a non-Dask peer makes the protocol raise
        # e.g. MemoryError: its bytes read as a length
        return f"no Dask scheduler answered ({type(error).__name__})"
    if not isinstance(found, dict) or found.get("type") != "Scheduler":
        return "what answered is not a Dask scheduler"
    return None


@contextlib.contextmanager
def cluster(
    address: str, source: str, field: str, timeout: float = CONNECT_TIMEOUT
) -> Iterator[DaskExecutor]:
    """A :class:`DaskExecutor` on the scheduler at ``address``, closed after the block.

    ``source`` and ``field`` name where the address came from in messages ("command line",
    "--scheduler" or the manifest and "project.scheduler"). Raises UserInputError (exit 2, one line)
    when dask's distributed is not installed, the scheduler does not answer within ``timeout``
    seconds, it has no workers, or a worker cannot import ccreport or runs another version or
    source.
    """

    def problem(text: str) -> UserInputError:
        return UserInputError(Problem(source, field, text))

    if not SCHEDULER_ADDRESS.fullmatch(address):
        raise problem(f"expected {SCHEDULER_EXPECTED}, got {address!r}")
    try:
        import distributed
    except ImportError:
        raise problem(
            "running on a Dask cluster needs dask's distributed scheduler, which is not "
            f"installed; {INSTALL_HINT}"
        ) from None

    def unreachable(reason: str) -> UserInputError:
        return problem(
            f"cannot reach the Dask scheduler at {address!r}: {reason}; start it with `dask "
            "scheduler` and pass the address it prints (tcp://HOST:PORT)"
        )

    # probe first, fast and quiet: a Client that fails to connect retries until its timeout, then
    # prints a traceback when it is collected
    refused = tcp_refusal(address, timeout) or scheduler_refusal(address, timeout)
    if refused is not None:
        raise unreachable(refused)
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise unreachable(
            f"no answer within {timeout:g} s"
            if isinstance(error, TimeoutError)
            else str(error).splitlines()[0]
        ) from None
    try:
        workers = client.scheduler_info().get("workers", {})
        if not workers:
            raise problem(
                f"the Dask scheduler at {address!r} has no workers; start some with `dask worker "
                f"{address}`"
            )
        try:
            found = client.run(identity)
        except Exception as error:  # a worker without ccreport cannot unpickle identity
            raise problem(
                f"a Dask worker of {address!r} cannot run ccreport ({type(error).__name__}: "
                f"{str(error).splitlines()[0] if str(error) else ''}); install ccreport "
                f"{__version__} on every worker"
            ) from None
        mine = identity()
        for worker, theirs in sorted(found.items()):
            if tuple(theirs) != mine:
                raise problem(
                    f"the Dask worker {worker} runs ccreport {theirs[0]} (source "
                    f"{theirs[1][:12]}), this build ccreport {mine[0]} (source {mine[1][:12]}); "
                    "install the same ccreport on every worker"
                )
        yield DaskExecutor(client)
    finally:
        client.close()
