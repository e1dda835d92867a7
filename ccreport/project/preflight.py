"""``ccreport check``: everything a build could reject for reasons of input, without building.

:func:`preflight` runs, collecting every problem it can before raising one UserInputError:

1. the manifest (:func:`ccreport.project.manifest.load_project`: keys, limits, theme names,
   narratives that must exist and be UTF-8);
2. the data (:func:`ccreport.project.loaders.load_project_data`: columns, classes, values, folds of
   which at least one holds both classes);
3. the environment's ``SOURCE_DATE_EPOCH`` (:func:`ccreport.runtime.build_date.parse_epoch`), which
   the build reads;
4. the output folder (:func:`ccreport.runtime.output_folder.check_output`: never an input, a file or
   a folder ccreport did not write);
5. the project's own templates (``templates/`` or a project theme's ``templates/``): rendered
   once on the project's own data - the analyses with :data:`REHEARSAL_BOOTSTRAP` replicates and
   no calibration, so the results have the same shape as a build's, and the figure index a build
   would make (nothing drawn) - into a temporary folder that is removed. Shipped templates are
   tested with ccreport and skipped.

File names cannot collide and cannot be too long (:mod:`ccreport.project.naming`), so names need no
check beyond the manifest's.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

from ..errors import UserInputError
from ..paths import theme_dir
from ..runtime.build_date import build_date
from ..runtime.output_folder import check_output, output_folder
from .loaders import load_project_data
from .manifest import Project, load_project

REHEARSAL_BOOTSTRAP = 20


def has_own_templates(project: Project) -> bool:
    """Whether the project brings templates: its ``templates/`` or its own theme's."""
    if (project.root / "templates").is_dir():
        return True
    theme = theme_dir(project.theme, project.root)
    return theme.resolve().is_relative_to(project.root.resolve()) and (theme / "templates").is_dir()


def rehearse_templates(project: Project, datasets) -> None:
    """Render every page and the PDF's HTML with the project's templates on its own data."""
    from ..commands.build import compute_results
    from ..render.figure_files import planned_figures
    from ..render.pdf import report_html
    from ..render.site import render_site
    from .project_files import read_project_files

    rehearsal = replace(
        project,
        settings=replace(project.settings, bootstrap=REHEARSAL_BOOTSTRAP, calibration="off"),
    )
    results = compute_results(rehearsal, datasets, read_project_files(rehearsal, datasets))
    folder = Path(tempfile.mkdtemp(prefix="ccreport-check-"))
    try:
        figures = planned_figures(results)
        site = render_site(results, project, folder, figures, pdf=True)
        for part in ("front", "chapters"):  # report.pdf's two documents
            report_html(site, 0, attachments=True, part=part)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def preflight(project_dir, out_dir=None, force: bool = False) -> tuple[Project, list]:
    """Check a project as a build would (module docstring); returns the project and its data."""
    project = load_project(project_dir)
    problems = []
    datasets = None
    try:
        build_date(project.build_date)  # SOURCE_DATE_EPOCH, as the build reads it
    except UserInputError as error:
        problems += error.problems
    try:
        datasets = load_project_data(project)
    except UserInputError as error:
        problems += error.problems
    try:
        check_output(project, output_folder(project.manifest_path, out_dir), force=force)
    except UserInputError as error:
        problems += error.problems
    if problems:
        raise UserInputError(problems)
    if has_own_templates(project):
        rehearse_templates(project, datasets)
    return project, datasets
