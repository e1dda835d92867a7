"""The project's files as the Results record them: paths, SHA-256 digests, narrative texts.

Read once by the build, before the analyses, so that computing the Results reads no file:
:func:`ccreport.commands.build.compute_results` is a function of the loaded data and of this record.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..results import InputFile
from .loaders import Dataset, sha256_file
from .manifest import Project


@dataclass(frozen=True)
class ProjectFiles:
    """Every input file with its digest and role, and the narratives' markdown."""

    inputs: tuple[InputFile, ...]
    narrative: str | None  # the project's narrative (index page)
    dataset_paths: dict[str, str]  # dataset name -> its file, as results.json names it
    dataset_narratives: dict[str, str | None]  # dataset name -> its narrative


def relative_path(path: Path, root: Path) -> str:
    """``path`` relative to the project folder ``root`` (the manifest's), posix, with ``..`` when
    outside it (``../shared/x.csv``): never an absolute path of the building machine."""
    return Path(os.path.relpath(Path(path).resolve(), Path(root).resolve())).as_posix()


def _read_text(path: Path | None) -> str | None:
    return None if path is None else path.read_text(encoding="utf-8")


def read_project_files(project: Project, datasets: list[Dataset]) -> ProjectFiles:
    """Hash the manifest and the narratives (the data files were hashed as they were loaded)."""
    root = project.root
    files = [
        InputFile(
            relative_path(project.manifest_path, root),
            sha256_file(project.manifest_path),
            "manifest",
        )
    ]
    if project.narrative is not None:
        files.append(
            InputFile(
                relative_path(project.narrative, root), sha256_file(project.narrative), "narrative"
            )
        )
    for spec, data in zip(project.datasets, datasets):
        files.append(InputFile(relative_path(spec.path, root), data.sha256, "data"))
        if spec.narrative is not None:
            files.append(
                InputFile(
                    relative_path(spec.narrative, root), sha256_file(spec.narrative), "narrative"
                )
            )
    return ProjectFiles(
        inputs=tuple(files),
        narrative=_read_text(project.narrative),
        dataset_paths={spec.name: relative_path(spec.path, root) for spec in project.datasets},
        dataset_narratives={spec.name: _read_text(spec.narrative) for spec in project.datasets},
    )
