"""Where the shipped templates and themes are, from a source checkout or an installed wheel.

In the repository they live at the top level (``templates/``, ``themes/``); the wheel maps them to
the packages ``ccreport.templates`` and ``ccreport.themes`` (see pyproject.toml). Both are found
through ``importlib.resources`` in a wheel; in a source checkout (a ``pyproject.toml`` beside the
``ccreport`` package) the folders beside the package are used first, so a second checkout (a git
worktree) renders with its own templates even when another checkout is the editable install.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from .errors import Problem, UserInputError

_REPOSITORY = Path(__file__).resolve().parent.parent
DEFAULT_THEME = "default"
THEME_STYLE_NAME = (
    "figures.mplstyle"  # a theme's matplotlib style for its figures (ccreport.figures.style)
)
THEME_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")


def _package_folder(package: str, fallback: str) -> Path:
    beside = _REPOSITORY / fallback
    if (_REPOSITORY / "pyproject.toml").is_file() and beside.is_dir():
        return (
            beside  # a source checkout: its own templates, even when another checkout is installed
        )
    try:
        found = Path(str(resources.files(package)))
        if found.is_dir():
            return found
    except (ModuleNotFoundError, TypeError):
        pass
    return _REPOSITORY / fallback


def templates_dir() -> Path:
    """The base templates shipped with ccreport."""
    return _package_folder("ccreport.templates", "templates")


def themes_dir() -> Path:
    """The folder holding the shipped themes, one sub-folder each."""
    return _package_folder("ccreport.themes", "themes")


def _is_theme(folder: Path) -> bool:
    return folder.is_dir() and any((folder / name).is_file() for name in ("style.css", "theme.css"))


def is_theme_name(name: str) -> bool:
    """A theme is chosen by name, never by path: letters, digits, '_', '.', '-', not starting with
    '.'."""
    return bool(THEME_NAME.fullmatch(name))


def available_themes(project_root: Path | None = None) -> list[str]:
    """The themes a manifest may name: the shipped ones and the project's ``themes/<name>``."""
    names = {p.name for p in themes_dir().iterdir() if _is_theme(p)}
    if project_root is not None and (project_root / "themes").is_dir():
        names |= {p.name for p in (project_root / "themes").iterdir() if _is_theme(p)}
    return sorted(n for n in names if is_theme_name(n))


def theme_dir(name: str, project_root: Path | None = None, manifest: str = "ccreport.toml") -> Path:
    """The folder of theme ``name``: the project's own ``themes/<name>`` first, then the shipped
    one.

    A theme folder holds ``theme.css`` (loaded after the default ``style.css``) and/or its own
    ``style.css``, ``print.css``, ``report.css`` (the PDF), other assets, and optionally a
    ``templates/`` folder whose files override the base templates. Files it lacks come from the
    default theme.
    """
    candidates = []
    if not is_theme_name(name):
        raise UserInputError(
            Problem(
                file=manifest,
                field="project.theme",
                expected=f"expected the name of a theme, not a path; got {name!r}",
            )
        )
    if project_root is not None:
        candidates.append(project_root / "themes" / name)
    candidates.append(themes_dir() / name)
    for folder in candidates:
        if _is_theme(folder):
            return folder
    raise UserInputError(
        Problem(
            file=manifest,
            field="project.theme",
            expected=f"unknown theme {name!r}; expected one of "
            f"{', '.join(available_themes(project_root))}",
        )
    )


def theme_figure_style(project) -> Path | None:
    """The ``figures.mplstyle`` (its figures' matplotlib style) of ``project``'s theme (a
    :class:`ccreport.project.manifest.Project`, or anything with ``theme`` and ``root``), if it has
    one."""
    theme = getattr(project, "theme", None) or DEFAULT_THEME
    path = theme_dir(theme, project.root) / THEME_STYLE_NAME
    return path if path.is_file() else None
