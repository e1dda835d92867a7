"""A content-addressed cache of task results, so an unchanged rebuild recomputes nothing.

A task is ``function(*args)`` with a pure function (battery and uncertainty tasks: every result is
a function of its arrays, settings and seed; ``battery.task_rng``). Its key is the SHA-256 of

* the function's module and qualified name,
* :func:`source_hash`: the bytes of every ``.py`` file of the installed ccreport package, the
  ccreport version and the numpy and scipy versions (a new release or an edited source invalidates
  everything),
* the pickled arguments (a battery task: its key, function, input arrays by value and the
  :class:`~ccreport.settings.AnalysisSettings`; the worker count is not among them).

So a changed dataset changes the keys of its own tasks only, and the other datasets' tasks are
found. Results are stored as ``<folder>/<key[:2]>/<key>.pickle``, written to a temporary file and
renamed, so a killed build never leaves half an entry; an entry that cannot be read is a miss.
Whole folders of output whose content is a function of a key can be stored too
(:func:`cached_folder`: the figures, keyed by the results they draw).
The folder is ``.ccreport-cache/`` beside the manifest by default (with a ``.gitignore`` holding
``*``, so version control ignores it), or ``--cache-dir``; ``--no-cache`` bypasses it. Entries are
pickles: the cache folder is trusted like the project's own files. Delete it to reclaim space.

Caching is off unless a build activates it (:func:`using`); library calls never touch the disk.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import shutil
import tempfile
from importlib import metadata
from pathlib import Path

from . import progress
from .version import __version__

DEFAULT_FOLDER = ".ccreport-cache"
_MISSING = object()
_active: Cache | None = None
_source_hash: str | None = None


class _Hasher:
    """A file-like sink feeding a SHA-256, so pickled arguments are hashed without a copy."""

    def __init__(self):
        self.hash = hashlib.sha256()

    def write(self, data) -> int:
        self.hash.update(data)
        return memoryview(data).nbytes  # the pickler passes large buffers as PickleBuffer, which has no len()


def source_hash() -> str:
    """SHA-256 of ccreport's own source files and version, and of numpy's and scipy's versions."""
    global _source_hash
    if _source_hash is None:
        h = hashlib.sha256(f"ccreport {__version__}".encode())
        for name in ("numpy", "scipy"):
            try:
                h.update(f"{name} {metadata.version(name)}".encode())
            except metadata.PackageNotFoundError:
                pass
        package = Path(__file__).resolve().parent
        for path in sorted(package.rglob("*.py")):
            h.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
        _source_hash = h.hexdigest()
    return _source_hash


def task_key(function, args) -> str:
    """The content address of ``function(*args)`` (see the module docstring)."""
    sink = _Hasher()
    sink.write(f"{function.__module__}:{function.__qualname__}:{source_hash()}".encode())
    pickle.Pickler(sink, protocol=5).dump(tuple(args))
    return sink.hash.hexdigest()


class Cache:
    """Task results stored by key under ``folder``; counts hits and misses of this build."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.pickle"

    def get(self, key: str):
        try:
            with open(self._path(key), "rb") as f:
                value = pickle.load(f)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
            self.misses += 1
            return _MISSING
        self.hits += 1
        return value

    def put(self, key: str, value) -> None:
        """Store ``value``; a cache that cannot be written (read-only, full) is skipped silently."""
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            ignore = self.folder / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# ccreport's task cache: safe to delete\n*\n", encoding="utf-8")
            fd, temporary = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=5)
            os.replace(temporary, path)
        except OSError:
            return


@contextlib.contextmanager
def using(folder: Path | None):
    """Activate the cache in ``folder`` for the block (None: no cache); yields the Cache or None."""
    global _active
    previous, _active = _active, (None if folder is None else Cache(folder))
    try:
        yield _active
    finally:
        _active = previous


def cached_folder(key_text: str, staging: Path, subfolder: str, produce):
    """``produce()`` writes ``staging/subfolder`` and returns a JSON-able index; with the cache
    active, a folder made before from the same ``key_text`` (and the same ccreport source) is
    copied in instead and its index returned. Used for the figures, keyed by the results they
    draw (``ccreport.build.figures_key``), so a changed narrative does not redraw them."""
    cache = _active
    if cache is None:
        return produce()
    key = hashlib.sha256(f"{source_hash()}\0{subfolder}\0{key_text}".encode()).hexdigest()
    stored = cache.folder / "folders" / key
    try:
        index = json.loads((stored / "index.json").read_text(encoding="utf-8"))
        shutil.copytree(stored / subfolder, staging / subfolder, dirs_exist_ok=True)
        cache.hits += 1
        return index
    except (OSError, ValueError):
        cache.misses += 1
    index = produce()
    temporary = None
    try:
        (cache.folder / "folders").mkdir(parents=True, exist_ok=True)
        temporary = Path(tempfile.mkdtemp(prefix=".tmp-", dir=cache.folder / "folders"))
        shutil.copytree(staging / subfolder, temporary / subfolder)
        (temporary / "index.json").write_text(json.dumps(index), encoding="utf-8")
        os.replace(temporary, stored)
    except OSError:  # a cache that cannot be written is skipped
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
    return index


def done(result):
    """A task finished: advance the progress display and hand the result through."""
    progress.advance()
    return result


def cached_call(function, *args):
    """``function(*args)``, from the active cache when present there (a single, costly step run
    outside the task batches, such as an induced prior's density)."""
    return cached_map(function, [args], lambda todo: [function(*a) for a in todo], show=False)[0]


def cached_map(function, argument_tuples, run, show: bool = True) -> list:
    """``[function(*args) for args in argument_tuples]``: results from the active cache where
    present, the others from ``run(missing_argument_tuples)`` (in order) and then stored.
    ``show``: count them on the progress display."""
    argument_tuples = list(argument_tuples)
    if show:
        progress.tasks(len(argument_tuples))
    cache = _active
    if cache is None:
        return list(run(argument_tuples))
    keys = [task_key(function, args) for args in argument_tuples]
    results = [cache.get(key) for key in keys]
    todo = [i for i, r in enumerate(results) if r is _MISSING]
    if show:
        progress.advance(len(results) - len(todo))
    for i, result in zip(todo, run([argument_tuples[i] for i in todo])):
        cache.put(keys[i], result)
        results[i] = result
    return results
