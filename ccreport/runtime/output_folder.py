"""The output folder: where a build writes, what it may replace, and its staging folders.

A build replaces its output folder OUT as a whole (see
:func:`ccreport.commands.build.swap_into_place`), so OUT must never hold anything ccreport did not
write. :func:`check_output` refuses, with one :class:`~ccreport.errors.UserInputError` naming the
reason:

* OUT that is the project folder or one of its parents (``-o .``, ``-o ..``), the home folder, the
  file-system root or a parent of the working folder;
* OUT that is, contains or lies inside an input: the manifest, a data file, a narrative, the
  project's ``templates/`` or ``themes/`` folder (``-o data``);
* OUT that is a regular file (or anything but a folder);
* an existing, non-empty OUT that is not a previous ccreport output, unless ``force``. Every output
  holds the marker file :data:`MARKER`; an output of a ccreport version older than the marker is
  recognised by its ``results.json`` (``"generator": "ccreport ..."``).

The first two kinds cannot be forced. Staging folders (``.ccreport-build-*`` beside OUT) carry
:data:`STAGING_MARKER` holding the building process's id; :func:`remove_stale_staging` deletes
those whose process is gone (a build killed with SIGKILL), and nothing else.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from ..errors import Problem, UserInputError
from ..project.manifest import display_path, manifest_path_of

MARKER = ".ccreport-output"
MARKER_TEXT = "This folder is a ccreport output; each build replaces it as a whole.\n"
STAGING_PREFIX = ".ccreport-build-"
RETIRED_PREFIX = ".ccreport-old-"
STAGING_MARKER = ".ccreport-staging"
KEY_PREFIX = "inputs sha256 "


def output_folder(project: str | Path, out_dir: str | Path | None = None) -> Path:
    """Where a build writes: ``out_dir`` if given, else ``site`` beside the manifest.

    ``project`` is what :func:`ccreport.project.manifest.load_project` accepts: a project folder or
    its ``ccreport.toml``.
    """
    if out_dir is not None:
        return Path(out_dir)
    return manifest_path_of(project).parent / "site"


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or path.is_relative_to(folder)


def input_paths(project) -> list[tuple[Path, str]]:
    """Every input of a project, resolved, with what it is: files, then input folders."""
    found = [(project.manifest_path, "the manifest")]
    if project.narrative is not None:
        found.append((project.narrative, "a narrative"))
    for spec in project.datasets:
        found.append((spec.path, f"the data of dataset {spec.name}"))
        if spec.narrative is not None:
            found.append((spec.narrative, f"the narrative of dataset {spec.name}"))
    for folder in ("templates", "themes"):
        if (project.root / folder).is_dir():
            found.append((project.root / folder, f"the project's {folder}/ folder"))
    return [(Path(p).resolve(), what) for p, what in found]


def is_previous_output(folder: Path) -> bool:
    """Whether ``folder`` was written by ccreport: it holds the marker (or, from a version before
    the marker, a results.json whose generator is ccreport)."""
    if (folder / MARKER).is_file():
        return True
    try:
        generator = json.loads((folder / "results.json").read_text(encoding="utf-8")).get(
            "generator", ""
        )
    except (OSError, ValueError, AttributeError):
        return False
    return isinstance(generator, str) and generator.startswith("ccreport ")


def _refuse(out: Path, expected: str) -> UserInputError:
    return UserInputError(Problem(display_path(out), "output folder (-o)", expected))


def check_output(project, out: str | Path, force: bool = False) -> Path:
    """The resolved output folder, after refusing any OUT a build must not replace (module doc)."""
    given = Path(out)
    target = given.resolve()
    root = Path(project.root).resolve()
    if _inside(root, target):
        what = "the project folder" if target == root else "a parent of the project folder"
        return _raise(
            given,
            f"expected a folder of its own, got {what}; replacing it would delete the manifest "
            f"and the data (the default is {display_path(root / 'site')})",
        )
    for forbidden, what in (
        (Path.home().resolve(), "the home folder"),
        (Path(target.anchor), "the file-system root"),
    ):
        if target == forbidden:
            return _raise(given, f"expected a folder of its own, got {what}")
    cwd = Path.cwd().resolve()
    if cwd != target and _inside(cwd, target):
        return _raise(given, "expected a folder of its own, got a parent of the working folder")
    for path, what in input_paths(project):
        if _inside(path, target):
            return _raise(
                given,
                f"expected a folder of its own, got one that holds {what} "
                f"({display_path(path)}); a build replaces its output folder as a whole",
            )
        if path.is_dir() and _inside(target, path):
            return _raise(
                given, f"expected a folder of its own, got one inside {what} ({display_path(path)})"
            )
    if target.exists() or target.is_symlink():
        if not target.is_dir():
            return _raise(
                given,
                "expected a folder, got an existing file; a build replaces its output folder as "
                "a whole",
            )
        if not force and any(target.iterdir()) and not is_previous_output(target):
            return _raise(
                given,
                f"the folder exists, is not empty and is not a ccreport output (no {MARKER}); "
                "choose another folder, or pass --force to replace it and everything in it",
            )
    return target


def _raise(out: Path, expected: str):
    raise _refuse(out, expected)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_staging(parent: Path, target: Path | None = None) -> list[Path]:
    """Delete staging and retired folders in ``parent`` left by builds that were killed.

    Only folders named ``.ccreport-build-*`` holding :data:`STAGING_MARKER` with the id of a process
    that no longer runs, and ``.ccreport-old-*`` folders holding a previous output (or nothing),
    are removed; the latter only while ``target`` exists (a build killed between the two renames of
    the swap leaves the previous output there and no target: it is kept for the user to restore).
    Returns what was removed.
    """
    removed = []
    if not parent.is_dir():
        return removed
    for folder in sorted(parent.glob(STAGING_PREFIX + "*")):
        marker = folder / STAGING_MARKER
        try:
            pid = int(marker.read_text(encoding="ascii").split()[0])
        except (OSError, ValueError, IndexError):
            continue
        if pid != os.getpid() and not _pid_alive(pid):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    retired = sorted(parent.glob(RETIRED_PREFIX + "*")) if target is None or target.exists() else []
    for folder in retired:
        inside = list(folder.iterdir()) if folder.is_dir() else [None]
        if all(p is not None and p.name == "previous" and is_previous_output(p) for p in inside):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def folder_mode() -> int:
    """The mode a new folder gets under the current umask (mkdtemp's folders are private)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o777 & ~umask


def make_staging(target: Path) -> Path:
    """A new staging folder beside ``target``, marked with this process's id and the output
    marker."""
    staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=target.parent))
    try:
        staging.chmod(folder_mode())  # a site folder is served to others
        (staging / STAGING_MARKER).write_text(f"{os.getpid()}\n", encoding="ascii")
        (staging / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
    except (
        BaseException
    ):  # Ctrl-C or a full disk between mkdtemp and the caller's cleanup: leave nothing
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return staging


def finish_staging(staging: Path, key: str | None = None) -> None:
    """Drop the staging marker: the folder is now a complete output, made from inputs ``key``."""
    if key is not None:
        (staging / MARKER).write_text(f"{MARKER_TEXT}{KEY_PREFIX}{key}\n", encoding="utf-8")
    (staging / STAGING_MARKER).unlink(missing_ok=True)


def output_key_of(folder: Path) -> str | None:
    """The inputs key recorded in an output's marker (``ccreport.commands.build.output_key``), if
    any."""
    try:
        lines = (folder / MARKER).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return next((line[len(KEY_PREFIX) :] for line in lines if line.startswith(KEY_PREFIX)), None)
