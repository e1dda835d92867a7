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

from . import __version__
from .battery import Settings, analyse_classifier, analyse_pair, make_prior, pairs, prior_result, run_tasks
from .loaders import Dataset, load_project_data, sha256_file
from .manifest import Project, load_project, manifest_path_of
from .results import DatasetResult, InputFile, Results, results_to_json
from .uncertainty import uncertainty_extras

LIBRARIES = ("numpy", "scipy", "matplotlib", "jinja2", "markdown", "weasyprint")


def library_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _read_text(path: Path | None) -> str | None:
    return None if path is None else path.read_text(encoding="utf-8")


def settings_for(project: Project, workers: int | None = None) -> Settings:
    chosen = workers if workers is not None else (project.workers or 1)
    return Settings(
        seed=project.seed,
        confidence=project.confidence,
        bootstrap=project.bootstrap,
        band=project.band,
        calibration=project.calibration,
        workers=max(1, int(chosen)),
    )


def _input_files(project: Project, datasets: list[Dataset]) -> tuple[InputFile, ...]:
    files = [InputFile(_relative(project.manifest_path, project.root), sha256_file(project.manifest_path), "manifest")]
    if project.narrative is not None:
        files.append(InputFile(_relative(project.narrative, project.root), sha256_file(project.narrative), "narrative"))
    for spec, data in zip(project.datasets, datasets):
        files.append(InputFile(_relative(spec.path, project.root), data.sha256, "data"))
        if spec.narrative is not None:
            files.append(InputFile(_relative(spec.narrative, project.root), sha256_file(spec.narrative), "narrative"))
    return tuple(files)


def compute_results(project: Project, datasets: list[Dataset], settings: Settings) -> Results:
    """Run the whole battery on loaded data. Pure: no files are written."""
    priors = {spec.name: make_prior(spec) for spec in project.priors}
    applicable = {d.name: {s.name: priors[s.name] for s in project.priors if s.applies_to(d.name)} for d in datasets}
    tasks, owners = [], []
    for data in datasets:
        for spec in project.classifiers:
            scores = data.scores.get(spec.name)
            predictions = data.predictions.get(spec.name)
            if scores is None and predictions is None:
                continue
            tasks.append((spec.name, data.labels, scores, predictions, applicable[data.name]))
            owners.append(data.name)
    analysed = run_tasks(analyse_classifier, tasks, settings.workers)
    by_dataset = {d.name: {c.name: c for o, c in zip(owners, analysed) if o == d.name} for d in datasets}
    extras = uncertainty_extras(datasets, by_dataset, applicable, settings)  # bands, significance, folds

    dataset_results = {}
    for spec, data in zip(project.datasets, datasets):
        classifiers = {
            n: dataclasses.replace(c, **extras.get((data.name, n), {})) for n, c in by_dataset[data.name].items()
        }
        comparisons = {}
        for a, b in pairs(list(classifiers)):
            m = dataclasses.replace(analyse_pair(classifiers[a], classifiers[b]), **extras.get((data.name, a, b), {}))
            comparisons[m.key] = m
        dataset_results[data.name] = DatasetResult(
            name=data.name,
            path=_relative(spec.path, project.root),
            sha256=data.sha256,
            n_pos=data.n_pos,
            n_neg=data.n_neg,
            positive_label=data.positive_label,
            negative_label=data.negative_label,
            n_folds=None if data.folds is None else len(data.fold_names),
            classifiers=classifiers,
            comparisons=comparisons,
            priors=tuple(applicable[data.name]),
            narrative_markdown=_read_text(spec.narrative),
        )
    return Results(
        title=project.title,
        seed=project.seed,
        generator=f"ccreport {__version__}",
        versions=library_versions(),
        settings={
            "confidence": settings.confidence,
            "bootstrap": settings.bootstrap,
            "band": settings.band,
            "calibration": settings.calibration,
        },
        inputs=_input_files(project, datasets),
        priors={spec.name: prior_result(spec.name, priors[spec.name], spec.params) for spec in project.priors},
        datasets=dataset_results,
        manifest_text=project.manifest_text,
        narrative_markdown=_read_text(project.narrative),
    )


def output_folder(project: str | Path, out_dir: str | Path | None = None) -> Path:
    """Where a build writes: ``out_dir`` if given, else ``site`` beside the manifest.

    ``project`` is what :func:`load_project` accepts: a project folder or its ``ccreport.toml``.
    """
    if out_dir is not None:
        return Path(out_dir)
    return manifest_path_of(project).parent / "site"


def write_output(results: Results, project: Project, staging: Path, pdf: bool = True) -> None:
    """Everything a build writes, into ``staging``: results.json, figures, the site, report.pdf."""
    (staging / "results.json").write_text(results_to_json(results), encoding="utf-8")
    from .render.figure_files import write_figures
    from .render.site import render_site

    figures = write_figures(results, staging)
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
    results = compute_results(project, datasets, settings_for(project, workers))
    target = output_folder(project.manifest_path, out_dir).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".ccreport-build-", dir=target.parent))
    staging.chmod(_folder_mode())  # mkdtemp makes it private; a site folder is served to others
    try:
        write_output(results, project, staging, pdf=pdf)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    swap_into_place(staging, target)
    return results
