"""``build``: manifest -> data -> battery -> Results -> output folder, swapped in only on success.

The output is written to a fresh temporary folder beside the target and renamed into place at the
end, so a failed build (bad input, a template error, a crash) leaves the previous output untouched.
"""

from __future__ import annotations

import errno
import hashlib
import os
import platform
import shutil
import tempfile
from dataclasses import replace
from importlib import metadata
from pathlib import Path

from . import __version__, cache, progress
from .battery import Settings, analyse_classifier, analyse_pair, make_prior, pairs, prior_result, run_tasks
from .loaders import Dataset, load_project_data, sha256_file
from .errors import Problem, UserInputError
from .manifest import MAX_WORKERS, Project, display_path, load_project
from .output_folder import RETIRED_PREFIX, check_output, finish_staging, make_staging, output_folder, output_key_of, remove_stale_staging
from .paths import templates_dir, themes_dir
from .results import DatasetResult, InputFile, Results, results_to_json
from .uncertainty import uncertainty_extras, with_extra

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
        classifiers = {n: with_extra(c, extras.get((data.name, n), {})) for n, c in by_dataset[data.name].items()}
        comparisons = {}
        for a, b in pairs(list(classifiers)):
            m = with_extra(analyse_pair(classifiers[a], classifiers[b]), extras.get((data.name, a, b), {}))
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
        priors={spec.name: cache.cached_call(prior_result, spec.name, priors[spec.name], spec.params) for spec in project.priors},
        datasets=dataset_results,
        manifest_text=project.manifest_text,
        narrative_markdown=_read_text(project.narrative),
    )


def write_output(results: Results, project: Project, staging: Path, pdf: bool = True, results_json: str | None = None) -> None:
    """Everything a build writes, into ``staging``: results.json, figures, the site, report.pdf."""
    (staging / "results.json").write_text(results_to_json(results) if results_json is None else results_json, encoding="utf-8")
    from .render.figure_files import write_figures
    from .render.site import render_site

    progress.phase("drawing figures")
    figures = cache.cached_folder(figures_key(results), staging, "figures", lambda: write_figures(results, staging))
    progress.phase("writing pages")
    site = render_site(results, project, staging, figures, pdf=pdf)
    if pdf:
        from .render.pdf import render_pdf

        progress.phase("typesetting report.pdf")
        render_pdf(site, staging, project.manifest_path)


def swap_into_place(staging: Path, target: Path) -> None:
    """Replace ``target`` by ``staging`` with renames, so a reader never sees half an output."""
    if target.exists():
        retired = Path(tempfile.mkdtemp(prefix=RETIRED_PREFIX, dir=target.parent))
        os.replace(target, retired / "previous")
        os.replace(staging, target)
        shutil.rmtree(retired, ignore_errors=True)
    else:
        os.replace(staging, target)


def build(
    project_dir: str | Path = ".",
    out_dir: str | Path | None = None,
    workers: int | None = None,
    pdf: bool = True,
    force: bool = False,
    cache_dir: str | Path | None = None,
) -> Results:
    """Build a project: validate, analyse, write results.json and the report into ``out_dir``.

    Raises :class:`ccreport.errors.UserInputError` on bad input, and on an output folder a build
    must not replace (:func:`ccreport.output_folder.check_output`; ``force`` allows replacing an
    existing folder that is not a ccreport output), with the previous output untouched. Staging
    folders of builds that were killed are removed first. ``cache_dir``: a folder for the task
    cache (:mod:`ccreport.cache`; None: no cache). Notes (workers clamped to the tasks and cores)
    and phases go to :mod:`ccreport.progress`.
    """
    progress.phase("reading the manifest and data")
    project = load_project(project_dir)
    target = check_output(project, output_folder(project.manifest_path, out_dir), force=force)
    datasets = load_project_data(project)
    settings = settings_for(project, workers)
    n_tasks = count_tasks(datasets, project)
    clamped = clamp_workers(settings.workers, n_tasks)
    if clamped != settings.workers:
        progress.note(f"{settings.workers} workers clamped to {clamped} ({n_tasks} tasks, {available_cores()} cores)")
    created = [p for p in (target, *target.parents) if not p.exists()][1:]  # parents a build makes
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_staging(target.parent, target)
        staging = make_staging(target)
    except OSError as error:
        _remove_empty(created)
        raise environment_error(error, target) from None
    try:
        progress.phase("analysing")
        with cache.using(None if cache_dir is None else Path(cache_dir)):
            results = compute_results(project, datasets, replace(settings, workers=clamped))
            results_json = results_to_json(results)
            key = output_key(results_json, project, pdf)
            if cache_dir is not None and output_key_of(target) == key:
                shutil.rmtree(staging)
                return results  # the output on disk is what these inputs give: nothing to write
            try:
                write_output(results, project, staging, pdf=pdf, results_json=results_json)
                finish_staging(staging, key)
                swap_into_place(staging, target)
            except OSError as error:
                raise environment_error(error, target) from error
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        _remove_empty(created)
        raise
    return results


def figures_key(results: Results) -> str:
    """What the figures are drawn from: results.json without the narratives, the manifest's text
    and the input hashes (figures never read them), so a changed narrative reuses the figures."""
    drawn = replace(
        results,
        inputs=(),
        manifest_text="",
        narrative_markdown=None,
        datasets={name: replace(d, narrative_markdown=None) for name, d in results.datasets.items()},
    )
    return results_to_json(drawn)


def _files_under(folder: Path):
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []


def output_key(results_json: str, project: Project, pdf: bool) -> str:
    """SHA-256 of everything the output is a function of: results.json (every number, the
    manifest, the input hashes, library versions), the narratives, the templates and themes
    (shipped and the project's), ccreport's source, SOURCE_DATE_EPOCH and whether there is a PDF.
    Equal keys give byte-identical outputs, so a rebuild with an equal key writes nothing."""
    h = hashlib.sha256()
    for part in (cache.source_hash(), results_json, os.environ.get("SOURCE_DATE_EPOCH", ""), f"pdf={pdf}"):
        h.update(part.encode() + b"\0")
    narratives = [project.narrative] + [spec.narrative for spec in project.datasets]
    folders = [templates_dir(), themes_dir(), project.root / "templates", project.root / "themes"]
    for path in [p for p in narratives if p is not None] + [f for folder in folders for f in _files_under(folder)]:
        h.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def count_tasks(datasets: list[Dataset], project: Project) -> int:
    """Parallel tasks of the battery: one per classifier evaluation, one per pair (the uncertainty)."""
    total = 0
    for data in datasets:
        k = sum(1 for spec in project.classifiers if spec.name in data.scores or spec.name in data.predictions)
        total += k + k * (k - 1) // 2
    return max(1, total)


def clamp_workers(requested: int, n_tasks: int) -> int:
    """Workers actually started: at most the task count, the machine's cores and MAX_WORKERS."""
    return max(1, min(requested, n_tasks, available_cores(), MAX_WORKERS))


def _remove_empty(folders: list[Path]) -> None:
    """Remove the folders a failed build made for its output, innermost first, if still empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return


def environment_error(error: OSError, target: Path) -> UserInputError:
    """An OSError while writing the output (not writable, read-only, disk full, under a file) as
    one line naming the path and the reason."""
    where = error.filename or target
    reason = error.strerror or str(error)
    if error.errno in (errno.EEXIST, errno.ENOTDIR):
        reason = f"{reason}: a parent of {display_path(target)} is a file, not a folder"
    return UserInputError(Problem(display_path(where), "output folder (-o)", f"cannot write the output: {reason}"))
