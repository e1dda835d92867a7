"""``ccreport.write_project``: from a notebook to a project folder ``ccreport build`` turns into the
full report (site, PDF, results.json).

The folder holds ``ccreport.toml`` and ``data/<dataset>.csv``, the texts of the in-memory project
that ``evaluate`` ran on (:mod:`ccreport.notebook.project`), so ``ccreport build`` on it gives the
same numbers (and the same results.json, byte for byte, under the same library versions).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import Problem, UserInputError
from ..project.manifest import MANIFEST_NAME, display_path
from ..results import Results
from .evaluate import source_of
from .project import DEFAULT_DATASET, DEFAULT_TITLE, notebook_project


def write_project(
    results_or_y_true,
    folder,
    scores=None,
    *,
    predictions=None,
    pos_label=None,
    priors=None,
    folds=None,
    costs=None,
    title: str = DEFAULT_TITLE,
    dataset: str = DEFAULT_DATASET,
    overwrite: bool = False,
    **settings,
) -> Path:
    """Write a project folder (``ccreport.toml`` and ``data/<dataset>.csv``) and return its path.

    Either ``write_project(results, folder)`` with the Results of :func:`ccreport.evaluate` (its
    arrays, priors and settings), or ``write_project(y_true, folder, scores, ...)`` with
    :func:`ccreport.evaluate`'s arguments, checked the same way. ``folder`` must be new or empty
    (``overwrite=True``: replace the manifest and data file of an existing folder).
    Then ``ccreport build folder`` (or ``ccreport.build(folder)``) makes the report.
    """
    if isinstance(results_or_y_true, Results):
        source = source_of(results_or_y_true)
        if source is None:
            raise UserInputError(
                Problem(
                    "write_project",
                    "results",
                    "these Results do not come from ccreport.evaluate in "
                    "this session (a build's project folder is already "
                    "on disk); expected evaluate's Results, or the arrays",
                )
            )
        extra = {
            k: v
            for k, v in dict(
                scores=scores,
                predictions=predictions,
                pos_label=pos_label,
                priors=priors,
                folds=folds,
                costs=costs,
            ).items()
            if v is not None
        }
        if extra or settings or title != DEFAULT_TITLE or dataset != DEFAULT_DATASET:
            given = next(
                iter(
                    [
                        *extra,
                        *settings,
                        *(["title"] if title != DEFAULT_TITLE else []),
                        *(["dataset"] if dataset != DEFAULT_DATASET else []),
                    ]
                )
            )
            raise UserInputError(
                Problem(
                    "write_project",
                    given,
                    "expected no other arguments with Results (they carry their own)",
                )
            )
    else:
        source = notebook_project(
            "write_project",
            results_or_y_true,
            scores,
            predictions=predictions,
            pos_label=pos_label,
            priors=priors,
            folds=folds,
            costs=costs,
            title=title,
            dataset=dataset,
            **settings,
        )
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise UserInputError(
            Problem(display_path(root), "folder", "expected a folder for the project, got a file")
        )
    if root.is_dir() and any(root.iterdir()) and not overwrite:
        raise UserInputError(
            Problem(
                display_path(root),
                "folder",
                "expected a new or empty folder (overwrite=True "
                "replaces its manifest and data file)",
            )
        )
    data = root / source.data_path
    data.parent.mkdir(parents=True, exist_ok=True)
    data.write_text(source.data_text, encoding="utf-8", newline="")
    (root / MANIFEST_NAME).write_text(source.manifest_text, encoding="utf-8", newline="")
    return root
