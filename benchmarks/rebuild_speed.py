"""Rebuild speed with the task cache (issue 8, item 7): cold build, no-change rebuild, one-dataset
change.

    PYTHONPATH=. python benchmarks/rebuild_speed.py [PROJECT_DIR] [--pdf]

Copies the project (default: the example) to a scratch folder, then times, in one process, the
function ``ccreport build`` runs (``ccreport.commands.build.build`` with the cache beside the
manifest):

1. cold: an empty cache;
2. no change: the same inputs again (goal: under 1 s; nothing is written);
3. narrative changed: pages (and the PDF) rewritten, tasks and figures from the cache;
4. one dataset changed: one score of the first dataset's first scoring classifier nudged, so only
   that dataset's tasks reading that column are recomputed; figures and pages are redrawn.

Also prints how many tasks were found in the cache and how many were run.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import tempfile
import time
from pathlib import Path

from ccreport.tasks import cache

build_module = importlib.import_module("ccreport.commands.build")
EXAMPLE = Path(__file__).resolve().parent.parent / "example_project"


def nudge_first_score(project: Path) -> str:
    """Change one score of the first dataset's first scoring classifier; return its name."""
    from ccreport.project.manifest import load_project

    spec = load_project(project)
    data = spec.datasets[0]
    column = next(c.scores for c in spec.classifiers if c.scores is not None)
    lines = data.path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    at = header.index(column)
    cells = lines[1].split(",")
    cells[at] = repr(float(cells[at]) + 1e-3)
    lines[1] = ",".join(cells)
    data.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return data.name


def append_to_narrative(project: Path) -> str:
    """Add a sentence to the project's narrative (pages and PDF change, results do not)."""
    from ccreport.project.manifest import load_project

    path = load_project(project).narrative
    path.write_text(path.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    return path.name


def timed_build(project: Path, pdf: bool, counts: dict) -> float:
    original = cache.using

    def counting(folder):  # record the Cache of this build to report hits and misses
        manager = original(folder)

        class Wrapper:
            def __enter__(self):
                c = manager.__enter__()
                counts["cache"] = c
                return c

            def __exit__(self, *exc):
                return manager.__exit__(*exc)

        return Wrapper()

    cache.using = counting
    try:
        started = time.perf_counter()
        build_module.build(project, pdf=pdf, cache_dir=project / cache.DEFAULT_FOLDER)
        return time.perf_counter() - started
    finally:
        cache.using = original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", nargs="?", default=str(EXAMPLE))
    parser.add_argument(
        "--pdf", action="store_true", help="also typeset report.pdf (default: --no-pdf)"
    )
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="ccreport-rebuild-"))
    try:
        project = scratch / "project"
        shutil.copytree(args.project, project, ignore=shutil.ignore_patterns("site", ".ccreport-*"))
        rows = []
        cases = (
            ("cold build (empty cache)", None),
            ("no change", None),
            ("narrative changed", append_to_narrative),
            ("one dataset changed", nudge_first_score),
        )
        for label, change in cases:
            note = change(project) if change else ""
            counts = {}
            seconds = timed_build(project, args.pdf, counts)
            c = counts.get("cache")
            tasks = f"{c.hits} cached, {c.misses} run" if c else "no tasks (nothing changed)"
            rows.append((label + (f" ({note})" if note else ""), seconds, tasks))
        print("| case | wall time | tasks |")
        print("| --- | --- | --- |")
        for label, seconds, tasks in rows:
            print(f"| {label} | {seconds:.2f} s | {tasks} |")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
