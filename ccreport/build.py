"""``build``: manifest -> data -> battery -> Results -> output folder, swapped in only on success.

The output is written to a fresh temporary folder beside the target and renamed into place at the
end, so a failed build (bad input, a template error, a crash) leaves the previous output untouched.
"""

from __future__ import annotations

import dataclasses
import os
import platform
import shutil
import tempfile
from importlib import metadata
from pathlib import Path

from .battery import assemble, make_criterion, make_prior, plan, prior_result
from .decisions import decisions_for
from .executors import Executor, SerialExecutor, executor_for
from .loaders import Dataset, load_project_data
from .manifest import Project, load_project, manifest_path_of
from .project_files import ProjectFiles, read_project_files
from .results import DatasetResult, Results, results_to_json
from .version import __version__

LIBRARIES = ("numpy", "scipy", "matplotlib", "jinja2", "markdown", "weasyprint")


def library_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def workers_for(project: Project, workers: int | None = None) -> int:
    """How many processes run the tasks: the command line's ``-j``, else the manifest's, else 1."""
    chosen = workers if workers is not None else (project.workers or 1)
    return max(1, int(chosen))


def compute_results(
    project: Project, datasets: list[Dataset], files: ProjectFiles, executor: Executor | None = None
) -> Results:
    """Run the whole battery on loaded data: plan -> run -> assemble. Pure: reads and writes no file.

    ``files``: the project's files as :func:`ccreport.project_files.read_project_files` read them;
    ``executor``: how to run the tasks (default: in this process, one after another).
    """
    settings = project.settings
    mix = {d.name: d.n_pos / (d.n_pos + d.n_neg) for d in datasets}
    applicable = {d.name: {s.name: make_prior(s, mix[d.name]) for s in project.priors if s.applies_to(d.name)} for d in datasets}
    priors = {spec.name: make_prior(spec, mix.get((spec.datasets or ("",))[0])) for spec in project.priors}
    criteria = {d.name: {c.name: make_criterion(c) for c in project.criteria if c.applies_to(d.name)} for d in datasets}
    tasks = plan(datasets, [c.name for c in project.classifiers], applicable, settings, criteria_by_dataset=criteria)
    outputs = (executor or SerialExecutor()).map(tasks)
    assembled = assemble(tasks, outputs)

    dataset_results = {}
    for data in datasets:
        found = assembled.get(data.name)
        dataset_results[data.name] = DatasetResult(
            name=data.name,
            path=files.dataset_paths[data.name],
            sha256=data.sha256,
            n_pos=data.n_pos,
            n_neg=data.n_neg,
            positive_label=data.positive_label,
            negative_label=data.negative_label,
            n_folds=None if data.folds is None else len(data.fold_names),
            classifiers=found.classifiers if found else {},
            comparisons=found.comparisons if found else {},
            priors=tuple(applicable[data.name]),
            narrative_markdown=files.dataset_narratives[data.name],
            **(found.fields if found else {}),
        )
        dataset_results[data.name] = dataclasses.replace(
            dataset_results[data.name],
            decisions=decisions_for(dataset_results[data.name], applicable[data.name], project.priors),
        )
    return Results(
        title=project.title,
        generator=f"ccreport {__version__}",
        versions=library_versions(),
        settings=settings,
        inputs=files.inputs,
        priors={spec.name: prior_result(spec.name, priors[spec.name], spec.params) for spec in project.priors},
        datasets=dataset_results,
        manifest_text=project.manifest_text,
        narrative_markdown=files.narrative,
    )


def output_folder(project: str | Path, out_dir: str | Path | None = None) -> Path:
    """Where a build writes: ``out_dir`` if given, else ``site`` beside the manifest.

    ``project`` is what :func:`load_project` accepts: a project folder or its ``ccreport.toml``.
    """
    if out_dir is not None:
        return Path(out_dir)
    return manifest_path_of(project).parent / "site"


def write_output(results: Results, project: Project, staging: Path, pdf: bool = True, workers: int | None = None) -> None:
    """Everything a build writes, into ``staging``: results.json, figures, the site, report.pdf.

    ``workers``: processes for the figures (None: their own default); 1 draws them in this process.
    """
    (staging / "results.json").write_text(results_to_json(results), encoding="utf-8")
    from .render.figure_files import write_figures
    from .render.site import render_site

    figures = write_figures(results, staging, workers=workers)
    site = render_site(results, project, staging, figures, pdf=pdf)
    if pdf:
        from .render.pdf import render_pdf

        render_pdf(site, staging, project.manifest_path)


def _folder_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o777 & ~umask


def swap_into_place(staging: Path, target: Path) -> None:
    """Replace ``target`` by ``staging`` with renames, so a reader never sees half an output."""
    if target.exists():
        retired = Path(tempfile.mkdtemp(prefix=".ccreport-old-", dir=target.parent))
        os.replace(target, retired / "previous")
        os.replace(staging, target)
        shutil.rmtree(retired, ignore_errors=True)
    else:
        os.replace(staging, target)


def build(project_dir: str | Path = ".", out_dir: str | Path | None = None, workers: int | None = None, pdf: bool = True) -> Results:
    """Build a project: validate, analyse, write results.json and the report into ``out_dir``.

    Raises :class:`ccreport.errors.UserInputError` on bad input, with the previous output untouched.
    """
    project = load_project(project_dir)
    datasets = load_project_data(project)
    chosen = workers_for(project, workers)
    results = compute_results(project, datasets, read_project_files(project, datasets), executor_for(chosen))
    target = output_folder(project.manifest_path, out_dir).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".ccreport-build-", dir=target.parent))
    staging.chmod(_folder_mode())  # mkdtemp makes it private; a site folder is served to others
    try:
        given = workers is not None or project.workers is not None
        write_output(results, project, staging, pdf=pdf, workers=chosen if given else None)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    swap_into_place(staging, target)
    return results
