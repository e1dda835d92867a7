"""``build``: manifest -> data -> battery -> Results -> output folder, swapped in only on success.

The output is written to a fresh temporary folder beside the target and renamed into place at the
end, so a failed build (bad input, a template error, a crash) leaves the previous output untouched.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import importlib
import json
import os
import platform
import shutil
import sys
import tempfile
from dataclasses import replace
from importlib import metadata
from pathlib import Path

from ..analysis import memo
from ..errors import Problem, UserInputError
from ..paths import templates_dir, theme_figure_style, themes_dir
from ..project.loaders import Dataset, load_project_data
from ..project.manifest import MAX_WORKERS, Project, display_path, load_project
from ..project.project_files import ProjectFiles, read_project_files
from ..results import DatasetResult, Results, results_json_digests, write_results_json
from ..results.threshold_choice import canonical_classifiers
from ..runtime import progress
from ..runtime.build_date import BuildDate, build_date
from ..runtime.collector import collector_paused, long_lived_frozen
from ..runtime.interrupts import interrupts_noticed, raise_if_interrupted
from ..runtime.output_folder import (
    RETIRED_PREFIX,
    check_output,
    finish_staging,
    make_staging,
    output_folder,
    output_key_of,
    remove_stale_staging,
)
from ..runtime.provenance import make_provenance
from ..runtime.threads import one_blas_thread
from ..tasks import cache, comparisons
from ..tasks.battery import (
    assemble,
    make_criterion,
    make_prior,
    plan,
    prior_result,
    trivial_expected_cost,
)
from ..tasks.decisions import decisions_for
from ..tasks.executors import (
    Executor,
    SerialExecutor,
    cluster,
    default_workers,
    executor_for,
    machine_cores,
)
from ..version import __version__

INVOCATION_NAME = (
    "invocation.json"  # command line and workers: not in results.json, which they must not change
)
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
    """How many processes run the tasks: the command line's ``-j``, else the manifest's, else one
    per core (:func:`ccreport.tasks.executors.default_workers`)."""
    chosen = workers if workers is not None else (project.workers or default_workers())
    return max(1, int(chosen))


def choose_comparisons(setting, data: Dataset, names: list[str], priors: dict):
    """The pairs ``data`` compares (:func:`ccreport.tasks.comparisons.choose`): "best" ranks the
    classifiers by in-sample expected cost under the dataset's first prior (each one cached like a
    task)."""
    present = [n for n in names if n in data.scores or n in data.predictions]
    first = next(iter(priors), None)

    def costs() -> list[float]:
        if first is None:  # no prior applies: every classifier ties, the first declared is the best
            return [0.0] * len(present)
        return [
            cache.cached_call(
                comparisons.in_sample_cost,
                data.labels,
                data.scores.get(n),
                data.predictions.get(n),
                priors[first],
            )
            for n in present
        ]

    return comparisons.choose(setting, present, costs, first)


def compute_results(
    project: Project, datasets: list[Dataset], files: ProjectFiles, executor: Executor | None = None
) -> Results:
    """Run the whole battery on loaded data: plan -> run -> assemble. Pure: reads and writes no
    file.

    ``files``: the project's files as :func:`ccreport.project.project_files.read_project_files` read
    them; ``executor``: how to run the tasks (default: in this process, one after another).
    """
    settings = project.settings
    mix = {d.name: d.n_pos / (d.n_pos + d.n_neg) for d in datasets}
    applicable = {
        d.name: {s.name: make_prior(s, mix[d.name]) for s in project.priors if s.applies_to(d.name)}
        for d in datasets
    }
    priors = {
        spec.name: make_prior(spec, mix.get((spec.datasets or ("",))[0])) for spec in project.priors
    }
    criteria = {
        d.name: {c.name: make_criterion(c) for c in project.criteria if c.applies_to(d.name)}
        for d in datasets
    }
    names = [c.name for c in project.classifiers]
    chosen = {
        d.name: choose_comparisons(settings.comparisons, d, names, applicable[d.name])
        for d in datasets
    }
    tasks = plan(
        datasets,
        names,
        applicable,
        settings,
        criteria_by_dataset=criteria,
        pairs_by_dataset={d: c.pairs for d, c in chosen.items()},
    )
    outputs = (executor or SerialExecutor()).map(tasks)
    memo.clear()  # the analyses' per-process memos (ccreport.analysis.memo): not needed past here
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
            # one quantity, one interval: the optimal area on the pc axis is the uniform prior's
            # expected cost
            classifiers=canonical_classifiers(found.classifiers, applicable[data.name])
            if found
            else {},
            comparisons=found.comparisons if found else {},
            priors=tuple(applicable[data.name]),
            narrative_markdown=files.dataset_narratives[data.name],
            trivial_expected_cost={
                p: trivial_expected_cost(prior) for p, prior in applicable[data.name].items()
            },
            comparison_choice=chosen[data.name],
            **(found.fields if found else {}),
        )
        dataset_results[data.name] = replace(
            dataset_results[data.name],
            decisions=decisions_for(
                dataset_results[data.name],
                applicable[data.name],
                project.priors,
                settings.confidence,
            ),
        )
    return Results(
        title=project.title,
        generator=f"ccreport {__version__}",
        versions=library_versions(),
        settings=settings,
        inputs=files.inputs,
        priors={
            spec.name: cache.cached_call(prior_result, spec.name, priors[spec.name], spec.params)
            for spec in project.priors
        },
        datasets=dataset_results,
        manifest_text=project.manifest_text,
        narrative_markdown=files.narrative,
    )


def write_output(
    results: Results,
    project: Project,
    staging: Path,
    pdf: bool = True,
    results_json: str | None = None,
    workers: int | None = None,
    date: BuildDate | None = None,
    invocation: dict | None = None,
    results_written: bool = False,
    figures_digest: str | None = None,
) -> None:
    """Everything a build writes, into ``staging``: results.json (with the Parquet side files of
    its thinned curves, :mod:`ccreport.results.curves`), figures, the site, report.pdf.

    ``results_json``: results.json's text (None: streamed from ``results``); ``results_written``:
    results.json and its side files are already in ``staging``; ``figures_digest``: its
    :attr:`ccreport.results.ResultsDigests.drawn` (None: computed here, :func:`figures_key`).
    ``workers``: processes for the figures (None: their own default); 1 draws them in this process.
    ``date``: the build date (None: the one ``results.provenance`` records); ``invocation``: how
    the build was run, written to :data:`INVOCATION_NAME` (None: no such file).
    """
    if results_json is not None:
        (staging / "results.json").write_text(results_json, encoding="utf-8")
    elif not results_written:
        write_results_json(results, staging / "results.json")
    if invocation is not None:
        (staging / INVOCATION_NAME).write_text(
            json.dumps(invocation, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )

    from ..render.figure_files import figure_index
    from ..render.site import copy_theme, site_model, write_pages

    # ccreport.runtime.collector: what the process holds is frozen, and the output stages' garbage
    # is collected once, after them (or, at the end of the ccreport command, left to the exit)
    with long_lived_frozen(), collector_paused():
        progress.phase("drawing figures")
        figure_style = theme_figure_style(project)
        drawn = figures_key(results) if figures_digest is None else figures_digest
        # the pages and report.pdf from the figures' planned index: report.pdf is laid out here
        # while worker processes draw (waiting only for the figures it has reached), and the pages
        # are written once the figures are (their sizes read from the SVG files), by a worker
        planned = figure_index(results, theme_style=figure_style)
        site = site_model(results, project, staging, planned, pdf=pdf)
        copy_theme(site.theme, staging)
        pages = functools.partial(write_pages, site, staging)
        with start_drawing(results, staging, workers, figure_style, drawn, then=pages) as drawing:
            if pdf:
                from ..render.pdf import render_pdf

                progress.phase("typesetting report.pdf")
                render_pdf(site, staging, project, date, ready=drawing.wait)
            progress.phase("writing pages")
            figures = drawing.result()
        if figures != planned:  # pragma: no cover - an entry that depends on the drawing
            raise RuntimeError("the figures drawn are not the figures planned")


def swap_into_place(staging: Path, target: Path) -> None:
    """Replace ``target`` by ``staging`` with renames, so a reader never sees half an output."""
    if target.exists():
        retired = Path(tempfile.mkdtemp(prefix=RETIRED_PREFIX, dir=target.parent))
        os.replace(target, retired / "previous")
        os.replace(staging, target)
        shutil.rmtree(retired, ignore_errors=True)
    else:
        os.replace(staging, target)


def check_cache_dir(cache_dir: Path, target: Path) -> None:
    """Refuse a task cache inside the output folder (the report would carry its pickles, and a
    build replaces its output folder as a whole) or an output folder inside the cache."""
    folder, out = cache_dir.resolve(), target.resolve()
    if folder == out or folder.is_relative_to(out) or out.is_relative_to(folder):
        where = (
            "is the output folder"
            if folder == out
            else "is inside the output folder"
            if folder.is_relative_to(out)
            else "holds the output folder"
        )
        raise UserInputError(
            Problem(
                display_path(cache_dir),
                "cache folder (--cache-dir)",
                f"expected a folder apart from the output folder {display_path(target)}; this "
                f"one {where}",
            )
        )


def build(
    project_dir: str | Path = ".",
    out_dir: str | Path | None = None,
    workers: int | None = None,
    pdf: bool = True,
    force: bool = False,
    cache_dir: str | Path | None = None,
    command_line: list[str] | None = None,
    date: BuildDate | None = None,
    scheduler: str | None = None,
) -> Results:
    """Build a project: validate, analyse, write results.json and the report into ``out_dir``.

    Raises :class:`ccreport.errors.UserInputError` on bad input, and on an output folder a build
    must not replace (:func:`ccreport.runtime.output_folder.check_output`; ``force`` allows
    replacing an existing folder that is not a ccreport output), with the previous output untouched.
    Staging folders of builds that were killed are removed first. ``cache_dir``: a folder for the
    task cache (:mod:`ccreport.tasks.cache`; None: no cache). Notes (workers clamped to the tasks
    and cores) and phases go to :mod:`ccreport.runtime.progress`. ``command_line``: the arguments
    the build was run with, recorded with the worker count in :data:`INVOCATION_NAME` (None: this
    process's argv). ``date``: the build date (None: by
    :func:`ccreport.runtime.build_date.build_date`; ``ccreport verify`` passes the recorded one).
    ``scheduler``: a Dask scheduler's address to run the tasks on (None: the manifest's
    ``scheduler``, else this machine; :func:`ccreport.tasks.executors.cluster`: one that cannot be
    used is refused with the previous output untouched). The build date and the provenance
    (:func:`ccreport.runtime.provenance.make_provenance`) go into ``results.provenance``.
    """
    progress.phase("reading the manifest and data")
    project = load_project(project_dir)
    date = build_date(project.build_date) if date is None else date
    target = check_output(project, output_folder(project.manifest_path, out_dir), force=force)
    if cache_dir is not None:
        check_cache_dir(Path(cache_dir), target)
    datasets = load_project_data(project)
    chosen = workers_for(project, workers)
    n_tasks = count_tasks(datasets, project)
    clamped = clamp_workers(chosen, n_tasks)
    if clamped != chosen and (
        workers is not None or project.workers is not None
    ):  # a count someone asked for
        progress.note(
            f"{chosen} workers clamped to {clamped} ({n_tasks} tasks, {available_cores()} cores)"
        )
    # the figures' own count (not the battery's task count): the chosen workers on this machine's
    # cores
    figure_workers = (
        min(chosen, available_cores())
        if (workers is not None or project.workers is not None)
        else None
    )
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
        # interrupts_noticed: a Ctrl-C Python drops is still noticed (interrupts.py)
        with (
            interrupts_noticed(),
            cache.using(None if cache_dir is None else Path(cache_dir)),
            one_blas_thread(),
        ):
            files = read_project_files(project, datasets)
            with run_on(
                project, scheduler, clamped, functools.partial(prepare_output, pdf)
            ) as executor:  # a Dask cluster is reached or refused here
                results = compute_results(project, datasets, files, executor)
            raise_if_interrupted()
            results = replace(results, provenance=make_provenance(project, date))
            progress.phase("writing results.json")
            digests = results_json_digests(
                results, staging / "results.json"
            )  # streamed, with its side files
            key = output_key(digests.text if date.fixed else digests.undated, project, pdf, date)
            if cache_dir is not None and output_key_of(target) == key:
                raise_if_interrupted()
                shutil.rmtree(staging)
                return results  # the output on disk is what these inputs give: nothing to write
            try:
                invocation = {
                    "command_line": list(sys.argv if command_line is None else command_line),
                    "workers": {"requested": chosen, "started": clamped},
                    **(
                        {"scheduler": scheduler or project.scheduler}
                        if (scheduler or project.scheduler)
                        else {}
                    ),
                    "manifest": Path(os.path.relpath(project.manifest_path, target)).as_posix(),
                }
                write_output(
                    results,
                    project,
                    staging,
                    pdf=pdf,
                    results_written=True,
                    workers=figure_workers,
                    date=date,
                    invocation=invocation,
                    figures_digest=digests.drawn,
                )
                finish_staging(staging, key)
                raise_if_interrupted()  # the last moment the previous output can be kept
                swap_into_place(staging, target)
            except OSError as error:
                raise environment_error(error, target) from error
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        _remove_empty(created)
        raise
    return results


def run_on(project: Project, scheduler: str | None, workers: int, meanwhile=None):
    """The executor of a build, as a context: the Dask cluster at ``scheduler`` (the command line's,
    else the manifest's), else this machine's ``workers`` processes (``meanwhile``: what this
    process does while they run, :class:`ccreport.tasks.executors.ProcessPoolExecutor`)."""
    if scheduler is not None:
        return cluster(scheduler, "command line", "--scheduler")
    if project.scheduler is not None:
        return cluster(project.scheduler, display_path(project.manifest_path), "project.scheduler")
    return contextlib.nullcontext(executor_for(workers, meanwhile))


OUTPUT_MODULES = ("ccreport.render.site", "ccreport.render.figure_files")
PDF_MODULES = ("ccreport.render.pdf", "weasyprint", "pypdf")


def prepare_output(pdf: bool) -> None:
    """Import the modules the output stages use (:data:`OUTPUT_MODULES`, and with ``pdf``
    :data:`PDF_MODULES`), while the analyses run in worker processes: their imports then leave the
    build's serial part. One that cannot be imported is left to its first use, which reports it."""
    for name in OUTPUT_MODULES + (PDF_MODULES if pdf else ()):
        try:
            importlib.import_module(name)
        except (ImportError, OSError):
            continue


class FigureDrawing:
    """The figures of a build being written (:func:`start_drawing`): :meth:`wait` for one file,
    :meth:`result` for the index of all of them once written (and stored in the active cache)."""

    def __init__(self, runs: list, finish, then=None):
        self._runs = runs
        self._finish = finish
        self._then = then  # when no figure is drawn (all from the cache): called by result()

    def wait(self, path) -> None:
        """Return once the figure file at ``path`` is in the staging folder."""
        for run in self._runs:
            run.wait(path)

    def result(self) -> dict:
        index = {key: entry for found in self._finish().values() for key, entry in found.items()}
        if not self._runs and self._then is not None:
            self._then()
        return index


@contextlib.contextmanager
def start_drawing(
    results: Results,
    staging: Path,
    workers: int | None,
    figure_style: Path | None,
    drawn: str,
    then=None,
):
    """A :class:`FigureDrawing` of the report's figures into ``staging/figures``, from the active
    cache where it holds them: the overview's figures keyed by ``drawn`` (:func:`figures_key`),
    each dataset's by :func:`figures_key` of the results with that dataset alone and the
    classifiers' order (their styles); both with the theme's figure style. So a changed dataset
    redraws its own figures and the overview's, and the others come from the cache. The others
    are drawn by ``workers`` processes (:func:`ccreport.render.figure_files.start_figures`) while
    the context runs; leaving it stops them. ``then``: called once every figure is written (in a
    worker when there are workers; :meth:`FigureDrawing.result` raises what it raised)."""
    from ..figures import classifier_names
    from ..render.figure_files import group_folder, group_of, start_figures

    theme = "" if figure_style is None else "\n" + figure_style.read_text(encoding="utf-8")

    def key_texts() -> dict:
        order = json.dumps(classifier_names(results), ensure_ascii=False)
        keys = {group_folder(None): drawn + theme}
        for name, d in results.datasets.items():
            keys[group_folder(name)] = (
                figures_key(replace(results, datasets={name: d})) + "\n" + order + theme
            )
        return keys

    runs: list = []

    def start(groups):
        run = start_figures(
            results, staging, workers=workers, theme_style=figure_style, groups=groups, then=then
        )
        runs.append(run)

        def finish() -> dict:
            by_group: dict = {}
            for key, entry in run.result().items():
                by_group.setdefault(group_of(entry), {})[key] = entry
            return by_group

        return finish

    try:
        finish = cache.cached_folders_later(key_texts, staging, start)
        yield FigureDrawing(runs, finish, then)
    finally:
        for run in runs:
            run.close()


def figures_key(results: Results) -> str:
    """What the figures are drawn from: the SHA-256 of results.json without the narratives, the
    manifest's text and the input hashes (figures never read them), so a changed narrative reuses
    the figures."""
    drawn = replace(
        results,
        provenance=None,
        inputs=(),
        manifest_text="",
        narrative_markdown=None,
        datasets={
            name: replace(d, narrative_markdown=None) for name, d in results.datasets.items()
        },
    )
    return write_results_json(drawn)


def _files_under(folder: Path):
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []


def undated(results: Results) -> Results:
    """``results`` without its build date: what an output dated by the clock is a function of."""
    if results.provenance is None:
        return results
    return replace(results, provenance=replace(results.provenance, date="", date_source=""))


def output_key(
    results_json: str, project: Project, pdf: bool, date: BuildDate | None = None
) -> str:
    """SHA-256 of everything the output is a function of: results.json (its text or its SHA-256,
    :func:`ccreport.results.write_results_json`; every number, the
    manifest, the input hashes, library versions, provenance), the narratives, the templates and
    themes (shipped and the project's), ccreport's source, the build date and whether there is a
    PDF. Equal keys give byte-identical outputs, so a rebuild with an equal key writes nothing.

    A fixed date (``SOURCE_DATE_EPOCH`` or ``[project] date``) is part of the key, so a new date
    renders again. A date taken from the clock is not (pass ``results_json`` of
    :func:`undated` results): an unchanged rebuild then keeps the output, dated by the build that
    wrote it."""
    h = hashlib.sha256()
    dated = "build time" if date is None or not date.fixed else date.iso
    for part in (cache.source_hash(), results_json, f"date={dated}", f"pdf={pdf}"):
        h.update(part.encode() + b"\0")
    narratives = [project.narrative] + [spec.narrative for spec in project.datasets]
    folders = [templates_dir(), themes_dir(), project.root / "templates", project.root / "themes"]
    for path in [p for p in narratives if p is not None] + [
        f for folder in folders for f in _files_under(folder)
    ]:
        h.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def available_cores() -> int:
    return machine_cores()


def count_tasks(datasets: list[Dataset], project: Project) -> int:
    """Parallel tasks of the battery: one per classifier evaluation, one per pair
    (the uncertainty)."""
    total = 0
    for data in datasets:
        k = sum(
            1
            for spec in project.classifiers
            if spec.name in data.scores or spec.name in data.predictions
        )
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
    return UserInputError(
        Problem(display_path(where), "output folder (-o)", f"cannot write the output: {reason}")
    )
