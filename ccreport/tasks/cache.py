"""A content-addressed cache of task results, so an unchanged rebuild recomputes nothing.

A task is ``function(*args)`` with a pure function (battery and uncertainty tasks: every result is
a function of its arrays, settings and seed; ``battery.task_rng``). Its key is the SHA-256 of

* the function's module and qualified name,
* :func:`source_hash`: the bytes of every ``.py`` file of the installed ccreport package, the
  ccreport version and the numpy and scipy versions (a new release or an edited source invalidates
  everything),
* the pickled arguments (a battery task: its key, function, input arrays by value and the
  :class:`~ccreport.project.settings.AnalysisSettings`; the worker count is not among them).

So a changed dataset changes the keys of its own tasks only, and the other datasets' tasks are
found. Results are stored as ``<folder>/<key[:2]>/<key>.pickle``, written to a temporary file and
renamed, so a killed build never leaves half an entry. Whole folders of output whose content is a
function of a key can be stored too (:func:`cached_folder`, :func:`cached_folders_later`: the
overview's figures and each dataset's, keyed by the results they draw). The folder is
``.ccreport-cache/`` beside the manifest by default (with a ``.gitignore`` holding ``*``, so version
control ignores it), or ``--cache-dir``; ``--no-cache`` bypasses it. Delete it to reclaim space.

Trust: a cache folder is read back as untrusted input (it may arrive with a project, in a zip or a
repository), and unpickling runs code, so nothing is unpickled unless this user's ccreport wrote
it. Every entry is ``MAGIC + HMAC-SHA256(secret, MAGIC + key + payload) + payload`` (the pickle);
a folder entry holds a manifest so authenticated, listing each file's SHA-256 and the index. The
secret is 32 random bytes in a per-user key file outside any project (:func:`key_path`: the file
named by ``$CCREPORT_CACHE_KEY``, else ``$XDG_CACHE_HOME/ccreport/cache-key``, else
``~/.cache/ccreport/cache-key``), created on first use with permissions 0600; a key file that
others may read or write is refused and the build runs without the cache. On read the HMAC is
checked before unpickling (:func:`hmac.compare_digest`), then the value's type against the cached
function's return annotation, and each cached file's SHA-256 (no file missing, none added, no
links). An entry that fails any check (damaged, truncated, made with another user's key, of the
wrong type) is deleted and recomputed, never used; the build says so in one line at its end
(:func:`using`).

Caching is off unless a build activates it (:func:`using`); library calls never touch the disk.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import pickle
import secrets
import shutil
import stat
import tempfile
import typing
from collections import Counter
from importlib import metadata
from pathlib import Path

from ..runtime import progress
from ..version import __version__

DEFAULT_FOLDER = ".ccreport-cache"
KEY_ENV = "CCREPORT_CACHE_KEY"  # the path of the key file, for CI and tests
KEY_BYTES = 32
ENTRY_MAGIC = b"ccreport cache entry 1\n"
FOLDER_MAGIC = b"ccreport cache folder 1\n"
MANIFEST_NAME = "manifest"
MISSING = (
    object()
)  # what Cache.get and Cache.get_folder return for an entry not found or not usable
_secrets: dict[Path, bytes] = {}
_active: Cache | None = None
_source_hash: str | None = None


class _Hasher:
    """A file-like sink feeding a SHA-256, so pickled arguments are hashed without a copy."""

    def __init__(self):
        self.hash = hashlib.sha256()

    def write(self, data) -> int:
        self.hash.update(data)
        return memoryview(
            data
        ).nbytes  # the pickler passes large buffers as PickleBuffer, which has no len()


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
        package = Path(__file__).resolve().parents[1]  # the whole ccreport package
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


class CacheKeyError(Exception):
    """The per-user key cannot be used: the build runs without the cache (said in one line)."""


def key_path() -> Path:
    """The per-user key file: ``$CCREPORT_CACHE_KEY``, else ``$XDG_CACHE_HOME/ccreport/cache-key``
    (an absolute ``XDG_CACHE_HOME`` only, as the XDG specification says), else
    ``~/.cache/ccreport/cache-key``."""
    named = os.environ.get(KEY_ENV)
    if named:
        return Path(named).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "ccreport" / "cache-key"


def _read_key(path: Path) -> bytes:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise CacheKeyError(f"{path} is not a regular file")
        if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o077):
            raise CacheKeyError(
                f"{path} must belong to this user and be readable by no one else (chmod 600)"
            )
        data = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) != KEY_BYTES:
        raise CacheKeyError(
            f"{path} does not hold a key of {KEY_BYTES} bytes (delete it to make a new one)"
        )
    return data


def secret() -> bytes:
    """This user's cache key (:func:`key_path`), made on first use: 32 random bytes, mode 0600.
    Raises :class:`CacheKeyError` when it cannot be read or made, or others may read or change
    it."""
    try:
        path = key_path()
    except RuntimeError:  # no home folder (Path.home)
        raise CacheKeyError(
            f"has no home folder to live in; set {KEY_ENV} to a file of its own"
        ) from None
    if path not in _secrets:
        try:
            try:
                _secrets[path] = _read_key(path)
            except FileNotFoundError:
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                try:
                    fd = os.open(
                        path,
                        os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                        0o600,
                    )
                except FileExistsError:  # made meanwhile by another build
                    pass
                else:
                    with os.fdopen(fd, "wb") as f:
                        f.write(secrets.token_bytes(KEY_BYTES))
                _secrets[path] = _read_key(path)
        except OSError as error:
            raise CacheKeyError(f"{path}: {error.strerror or error}") from None
    return _secrets[path]


def entry_mac(key: bytes, magic: bytes, name: str, payload) -> bytes:
    """HMAC-SHA256 under ``key`` of ``magic``, the entry's name (its content address) and
    ``payload``: the name is signed too, so a good entry moved to another name is refused."""
    h = hmac.new(key, magic, hashlib.sha256)
    h.update(name.encode() + b"\0")
    h.update(payload)
    return h.digest()


def verified_payload(key: bytes, magic: bytes, name: str, data: bytes):
    """The payload of ``data`` = ``magic | HMAC (32 bytes) | payload`` when its HMAC under ``key``
    (:func:`entry_mac`) is right, as a zero-copy view; None otherwise."""
    n = len(magic)
    view = memoryview(data)
    if not data.startswith(magic) or len(data) < n + 32:
        return None
    payload = view[n + 32 :]
    return (
        payload
        if hmac.compare_digest(view[n : n + 32], entry_mac(key, magic, name, payload))
        else None
    )


def _read_regular(path: Path) -> bytes:
    """The bytes of a regular file, never through a link nor blocking on a pipe
    (OSError otherwise)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read()
    finally:
        os.close(fd)


def expected_type(function) -> type | None:
    """The class a cached function's results must be instances of: its return annotation, when
    that is a plain class (None: no check)."""
    try:
        returned = typing.get_type_hints(function).get("return")
    except Exception:  # an annotation that cannot be resolved is not checked
        return None
    return returned if isinstance(returned, type) else None


class Cache:
    """Task results stored by key under ``folder``; counts hits and misses of this build, and the
    entries discarded (by reason) because they failed their check."""

    def __init__(self, folder: Path, key: bytes | None = None):
        self.folder = Path(folder)
        self.key = secret() if key is None else key
        self.hits = 0
        self.misses = 0
        self.discarded: Counter[str] = Counter()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.pickle"

    def _discard(self, path: Path, reason: str) -> None:
        self.discarded[reason] += 1
        self.misses += 1
        with contextlib.suppress(OSError):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()

    def get(self, key: str, expected: type | None = None):
        """The value stored under ``key`` (``MISSING`` if none, or if the entry fails its HMAC,
        cannot be unpickled, or is not an instance of ``expected``: then it is deleted)."""
        path = self._path(key)
        try:
            data = _read_regular(path)
        except FileNotFoundError:
            self.misses += 1
            return MISSING
        except OSError:
            self._discard(path, "unreadable")
            return MISSING
        payload = verified_payload(self.key, ENTRY_MAGIC, key, data)
        if payload is None:
            self._discard(path, "failed its HMAC")
            return MISSING
        try:
            value = pickle.loads(payload)
        except Exception:
            self._discard(path, "could not be unpickled")
            return MISSING
        if expected is not None and not isinstance(value, expected):
            self._discard(path, "held the wrong type")
            return MISSING
        self.hits += 1
        return value

    def _writable(self, folder: Path) -> bool:
        """Make ``folder`` (inside the cache) and its ``.gitignore``; False when it is a link (a
        cache never writes through a link it did not make) or cannot be made."""
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if folder.is_symlink() or not folder.is_dir():
                return False
            fd = os.open(self.folder / ".gitignore", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return True
        except OSError:
            return False
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("# ccreport's task cache: safe to delete\n*\n")
        return True

    def put(self, key: str, value) -> None:
        """Store ``value``; a cache that cannot be written (read-only, full) is skipped silently."""
        path = self._path(key)
        if not self._writable(path.parent):
            return
        payload = pickle.dumps(value, protocol=5)
        temporary = None
        try:
            fd, temporary = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            with os.fdopen(fd, "wb") as f:
                f.write(ENTRY_MAGIC)
                f.write(entry_mac(self.key, ENTRY_MAGIC, key, payload))
                f.write(payload)
            os.replace(temporary, path)
        except OSError:
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)

    def get_folder(self, key: str, staging: Path, subfolder: str):
        """Copy the stored folder ``key`` into ``staging/subfolder`` and return its index, or
        ``MISSING`` (then ``staging/subfolder`` is as before). The manifest's HMAC is checked,
        then that the stored files are exactly the manifest's, regular files, each of its SHA-256,
        before anything is copied."""
        stored = self.folder / "folders" / key
        try:
            data = _read_regular(stored / MANIFEST_NAME)
        except FileNotFoundError:
            if stored.exists() or stored.is_symlink():
                self._discard(stored, "had no manifest")
            else:
                self.misses += 1
            return MISSING
        except OSError:
            self._discard(stored, "unreadable")
            return MISSING
        payload = (
            None if stored.is_symlink() else verified_payload(self.key, FOLDER_MAGIC, key, data)
        )
        if payload is None:
            self._discard(stored, "failed its HMAC")
            return MISSING
        try:
            manifest = json.loads(bytes(payload))
            index, digests = manifest["index"], manifest["files"]
            if not isinstance(index, dict) or not isinstance(digests, dict):
                raise ValueError
        except (ValueError, KeyError, TypeError):
            self._discard(stored, "held the wrong type")
            return MISSING
        root = stored / subfolder
        found, contents = set(), {}
        try:
            if root.is_symlink() or not root.is_dir():
                raise OSError(f"{root} is not a folder")
            for folder, dirs, files in os.walk(root, onerror=_raise):
                for name in dirs + files:
                    path = Path(folder, name)
                    if path.is_symlink():
                        raise OSError(f"{path} is a link")
                for name in files:
                    path = Path(folder, name)
                    rel = path.relative_to(root).as_posix()
                    found.add(rel)
                    if rel in digests:
                        contents[rel] = _read_regular(path)
        except OSError:
            self._discard(stored, "had a file missing, added or unreadable")
            return MISSING
        if found != set(digests) or any(
            hashlib.sha256(b).hexdigest() != digests[rel] for rel, b in contents.items()
        ):
            self._discard(stored, "had a file missing, added or changed")
            return MISSING
        target = staging / subfolder
        for rel in sorted(contents):
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            (target / rel).write_bytes(contents[rel])
        self.hits += 1
        return index

    def put_folder(self, key: str, staging: Path, subfolder: str, index) -> None:
        """Store ``staging/subfolder`` with ``index`` under ``key``; skipped if it cannot be
        written."""
        parent = self.folder / "folders"
        stored = parent / key
        if not self._writable(parent):
            return
        temporary = None
        try:
            temporary = Path(tempfile.mkdtemp(prefix=".tmp-", dir=parent))
            shutil.copytree(staging / subfolder, temporary / subfolder)
            digests = {
                p.relative_to(temporary / subfolder).as_posix(): hashlib.sha256(
                    p.read_bytes()
                ).hexdigest()
                for p in sorted((temporary / subfolder).rglob("*"))
                if p.is_file()
            }
            payload = json.dumps({"index": index, "files": digests}, sort_keys=True).encode()
            (temporary / MANIFEST_NAME).write_bytes(
                FOLDER_MAGIC + entry_mac(self.key, FOLDER_MAGIC, key, payload) + payload
            )
            os.replace(temporary, stored)
        except OSError:  # a cache that cannot be written is skipped
            if temporary is not None:
                shutil.rmtree(temporary, ignore_errors=True)

    def note(self) -> str | None:
        """One line on the entries discarded in this build (None: none were)."""
        if not self.discarded:
            return None
        total = sum(self.discarded.values())
        reasons = ", ".join(f"{n} {reason}" for reason, n in sorted(self.discarded.items()))
        return (
            f"cache {self.folder}: {total} entr{'y' if total == 1 else 'ies'} discarded and "
            f"recomputed ({reasons}); an entry is used only if this user's ccreport wrote it and "
            "it is intact"
        )


def _raise(error: OSError):
    raise error


@contextlib.contextmanager
def using(folder: Path | None):
    """Activate the cache in ``folder`` for the block (None: no cache); yields the Cache or None.
    A key that cannot be used (:func:`secret`) turns the cache off, said in one line; entries
    discarded in the block are said in one line at its end."""
    global _active
    active = None
    if folder is not None:
        try:
            active = Cache(folder)
        except CacheKeyError as error:
            progress.note(f"building without the cache: the cache key {error}")
    previous, _active = _active, active
    try:
        yield _active
    finally:
        _active = previous
        if active is not None and active.note() is not None:
            progress.note(active.note())


def cached_folder(key_text: str, staging: Path, subfolder: str, produce):
    """``produce()`` writes ``staging/subfolder`` and returns a JSON-able index; with the cache
    active, a folder made before from the same ``key_text`` (and the same ccreport source) is
    copied in instead and its index returned, once its files are verified
    (:meth:`Cache.get_folder`). Used for the figures, keyed by the results they draw
    (``ccreport.commands.build.figures_key``), so a changed narrative does not redraw them."""
    cache = _active
    if cache is None:
        return produce()
    key = hashlib.sha256(f"{source_hash()}\0{subfolder}\0{key_text}".encode()).hexdigest()
    index = cache.get_folder(key, staging, subfolder)
    if index is not MISSING:
        return index
    index = produce()
    cache.put_folder(key, staging, subfolder, index)
    return index


def cached_folders_later(key_texts, staging: Path, start):
    """Folders of output cached one by one (:func:`cached_folder` for several subfolders whose
    contents are functions of their own keys: a dataset's figures, keyed by that dataset's results),
    the producing begun now and finished later.

    ``key_texts()``: ``{subfolder: key text}``, asked for only when the cache is active;
    ``start(subfolders)`` begins writing ``staging/<subfolder>`` for each subfolder of the list
    (None: every subfolder there is) and returns a function that waits for them and returns
    ``{subfolder: JSON-able index}`` (``start`` is not called when every folder was found). The
    folders found in the cache (verified, :meth:`Cache.get_folder`) are copied in at once. Returns
    a function that waits, stores the folders produced and returns ``{subfolder: index}``: with
    the cache active, in ``key_texts()``'s order, the folders found and the others produced, in one
    ``start`` call; without it, what ``start(None)``'s function returns. A subfolder the producing
    leaves out is an empty index."""
    cache = _active
    if cache is None:
        return start(None)
    keys = {
        sub: hashlib.sha256(f"{source_hash()}\0{sub}\0{text}".encode()).hexdigest()
        for sub, text in key_texts().items()
    }
    found = {sub: cache.get_folder(key, staging, sub) for sub, key in keys.items()}
    missing = [sub for sub, index in found.items() if index is MISSING]
    finish = start(missing) if missing else None

    def finished() -> dict:
        if finish is not None:
            made = finish()
            for sub in missing:
                found[sub] = made.get(sub, {})
                if (staging / sub).is_dir():
                    cache.put_folder(keys[sub], staging, sub, found[sub])
        return found

    return finished


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
    expected = expected_type(function)
    results = [cache.get(key, expected) for key in keys]
    todo = [i for i, r in enumerate(results) if r is MISSING]
    if show:
        progress.advance(len(results) - len(todo))
    for i, result in zip(todo, run([argument_tuples[i] for i in todo])):
        cache.put(keys[i], result)
        results[i] = result
    return results
