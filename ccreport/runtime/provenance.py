"""Provenance of a build: which ccreport, on which Python and OS, from which files, dated when.

:func:`make_provenance` gathers :class:`ccreport.results.Provenance` for ``results.json``, the
provenance page and the PDF's attachments. Every file is named by its path relative to the
manifest's folder (``data/x.csv``; ``../shared/x.csv`` for a file outside the project), never by an
absolute path of the building machine, with its SHA-256 and size.

The ccreport commit: when the ``ccreport`` package sits in a git checkout of ccreport (its folder's
parent holds ``pyproject.toml`` and is the top of a git work tree), ``git rev-parse HEAD`` and
``git status --porcelain --untracked-files=no`` say which commit and whether tracked files differ
from it. git runs without a shell, with a time limit, with optional locks off and prompts
disabled; when git is missing, fails or the package is not in a checkout (an installed wheel),
the record says so instead of a commit.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from pathlib import Path

from ..paths import theme_dir
from ..project.loaders import sha256_file
from ..project.manifest import Project
from ..project.project_files import relative_path
from ..results import Provenance, ProvenanceFile
from ..version import __version__

_PACKAGE_PARENT = Path(__file__).resolve().parents[2]  # the folder holding the ccreport package
GIT_TIMEOUT = 10  # seconds
TREE_CLEAN = "clean"
TREE_MODIFIED = "modified (tracked files differ from the commit)"
NOT_A_CHECKOUT = "not a git checkout (an installed ccreport)"
NO_GIT = "git not found: commit unknown"


def _git(*args: str) -> str | None:
    """stdout of ``git -C <package parent> args``, or None when git fails or is slow."""
    git = shutil.which("git")
    if git is None:
        return None
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    try:
        done = subprocess.run(
            [git, "-C", str(_PACKAGE_PARENT), *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT,
            env=env,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def ccreport_source() -> dict[str, str | None]:
    """``{"version", "commit", "tree"}``: the commit is None outside a git checkout of ccreport."""
    record: dict[str, str | None] = {"version": __version__, "commit": None, "tree": NOT_A_CHECKOUT}
    if not (_PACKAGE_PARENT / "pyproject.toml").is_file():
        return record
    if shutil.which("git") is None:
        record["tree"] = NO_GIT
        return record
    top = _git("rev-parse", "--show-toplevel")
    if top is None or Path(top.strip()).resolve() != _PACKAGE_PARENT:
        return record
    commit = _git("rev-parse", "HEAD")
    status = _git("status", "--porcelain", "--untracked-files=no")
    if commit is None or status is None:
        record["tree"] = "git failed: commit unknown"
        return record
    record["commit"] = commit.strip()
    record["tree"] = TREE_CLEAN if not status.strip() else TREE_MODIFIED
    return record


def platform_record() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "os": platform.platform(),
    }


def _files_under(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def shaping_files(project: Project) -> list[tuple[Path, str]]:
    """Every file of the project that shaped the output, with its role, in a fixed order: the
    manifest, the project narrative, each dataset's data and narrative, the project's template
    overrides (``templates/``) and its own theme's files (a shipped theme is part of ccreport).
    Each file appears once."""
    found: list[tuple[Path, str]] = [(project.manifest_path, "manifest")]
    if project.narrative is not None:
        found.append((project.narrative, "narrative"))
    for spec in project.datasets:
        found.append((spec.path, "data"))
        if spec.narrative is not None:
            found.append((spec.narrative, "narrative"))
    found += [(p, "template") for p in _files_under(project.root / "templates")]
    theme = theme_dir(project.theme, project.root)
    if theme.resolve().is_relative_to(project.root.resolve()):
        found += [(p, "theme") for p in _files_under(theme)]
    seen: set[Path] = set()
    unique = []
    for path, role in found:
        key = Path(path).resolve()
        if key not in seen:
            seen.add(key)
            unique.append((Path(path), role))
    return unique


def provenance_files(project: Project) -> tuple[ProvenanceFile, ...]:
    return tuple(
        ProvenanceFile(
            relative_path(path, project.root), sha256_file(path), path.stat().st_size, role
        )
        for path, role in shaping_files(project)
    )


def make_provenance(project: Project, date) -> Provenance:
    """The provenance of a build of ``project`` dated ``date`` (a
    :class:`ccreport.runtime.build_date.BuildDate`)."""
    return Provenance(
        date=date.iso,
        date_source=date.source,
        ccreport=ccreport_source(),
        platform=platform_record(),
        files=provenance_files(project),
    )
