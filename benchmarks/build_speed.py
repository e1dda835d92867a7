"""Time of building the example project, HTML and PDF, phase by phase (issue 3: < 30 s; issue 9:
< 15 s).

    PYTHONPATH=. python benchmarks/build_speed.py [PROJECT_DIR] [--repeats 1] [--no-pdf]

Each phase is the function ``ccreport build`` calls, run in the same order into a scratch folder
with one worker (as ``-j 1``) and one BLAS thread (as a build), the collector handled as the
``ccreport`` command handles it (frozen and paused over the output stages, their garbage left to
the exit). Not included: the interpreter's start and ccreport's imports (about 0.5 CPU s of the
command; matplotlib's and WeasyPrint's imports fall in the first run's figure and PDF phases).
Printed per phase: wall seconds and this process's CPU seconds (``time.process_time``: user
+ system, the figure to quote on a shared machine); the analyses also per task kind (CPU seconds of
all tasks of that kind).
"""

from __future__ import annotations

import argparse
import collections
import os
import tempfile
import time
from pathlib import Path

import ccreport.tasks.executors as executors
from ccreport.commands.build import compute_results
from ccreport.project.loaders import load_project_data
from ccreport.project.manifest import load_project
from ccreport.project.project_files import read_project_files
from ccreport.render.figure_files import write_figures
from ccreport.render.site import render_site
from ccreport.results import write_results_json
from ccreport.tasks.executors import SerialExecutor

try:  # the output stages' collector freeze (ccreport/runtime/collector.py; older trees have none)
    from ccreport.runtime.collector import long_lived_frozen
except ImportError:  # pragma: no cover - comparing with an older tree
    import contextlib

    long_lived_frozen = contextlib.nullcontext

try:  # the output stages' collector pause, and the command's garbage left to its exit (session 11)
    from ccreport.runtime.collector import collector_paused, leave_garbage_to_exit
except ImportError:  # pragma: no cover - comparing with an older tree
    import contextlib

    collector_paused = contextlib.nullcontext

    def leave_garbage_to_exit():
        pass


# one BLAS thread, as a build runs (ccreport/runtime/threads.py; older trees have no such module)
try:
    from ccreport.runtime.threads import one_blas_thread
except ImportError:  # pragma: no cover - comparing with an older tree
    import contextlib

    one_blas_thread = contextlib.nullcontext

EXAMPLE = Path(__file__).resolve().parent.parent / "example_project"


def _timed_tasks(by_kind: dict):
    """Wrap the executors' run_task so each task's CPU seconds add up under its kind."""
    original = executors.run_task

    def run_task(task):
        started = time.process_time()
        try:
            return original(task)
        finally:
            by_kind[task.key[0]] += time.process_time() - started

    executors.run_task = run_task
    return original


def one_build(project_dir: Path, pdf: bool = True) -> tuple[dict, dict]:
    """(phase -> (wall s, cpu s), task kind -> cpu s) of one build."""
    phases = {}
    by_kind = collections.defaultdict(float)
    clock = (time.perf_counter(), time.process_time())

    def lap(name):
        nonlocal clock
        now = (time.perf_counter(), time.process_time())
        phases[name] = (now[0] - clock[0], now[1] - clock[1])
        clock = now

    original = _timed_tasks(by_kind)
    try:
        with one_blas_thread():
            project = load_project(project_dir)
            datasets = load_project_data(project)
            lap("manifest + data")
            results = compute_results(
                project, datasets, read_project_files(project, datasets), SerialExecutor()
            )
            lap("analyses")
            out = Path(tempfile.mkdtemp(prefix="ccreport-bench-"))
            write_results_json(results, out / "results.json")
            lap("results.json")
            with long_lived_frozen(), collector_paused():  # as ccreport.commands.build.write_output
                figures = write_figures(results, out, workers=1)
                lap(f"figures ({len(figures)} x svg+pdf)")
                site = render_site(results, project, out, figures, pdf=pdf)
                lap("site")
                if pdf:
                    from ccreport.render.pdf import render_pdf

                    render_pdf(site, out, project)
                    lap("report.pdf")
    finally:
        executors.run_task = original
    phases["total"] = tuple(sum(p[i] for p in phases.values()) for i in (0, 1))
    return phases, dict(by_kind)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("project", nargs="?", default=str(EXAMPLE))
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument(
        "--no-pdf", action="store_true", help="skip report.pdf (as ccreport build --no-pdf)"
    )
    args = parser.parse_args()
    import ccreport

    leave_garbage_to_exit()  # a one-shot process, as the ccreport command (ccreport.cli.run)
    print(f"{ccreport.__file__}: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    runs = [one_build(Path(args.project), pdf=not args.no_pdf) for _ in range(args.repeats)]
    print(f"{'phase':34s} {'wall s (best)':>14s} {'cpu s (best)':>13s}")
    for name in runs[0][0]:
        wall = min(r[0][name][0] for r in runs)
        cpu = min(r[0][name][1] for r in runs)
        print(f"{name:34s} {wall:14.2f} {cpu:13.2f}")
    print("analyses by task kind (cpu s, best):")
    for kind in sorted(runs[0][1], key=lambda k: -runs[0][1][k]):
        print(f"  {kind:32s} {min(r[1][kind] for r in runs):13.2f}")
    best = min(r[0]["total"][1] for r in runs)
    print(
        "goal (issue 9): total < 15 CPU s with one worker -> "
        f"{'met' if best < 15 else 'NOT met'} ({best:.1f} s)"
    )


if __name__ == "__main__":
    main()
