"""CPU seconds per task kind of the issue-9 large project (one process, serial), with an optional
cProfile.

    python benchmarks/task_profile.py --n 1000000 [--classifiers 3] [--profile FILE]
        [--kinds uncertainty,...]
    python benchmarks/task_profile.py --project example_project --kinds uncertainty,pairs

Writes the project of ``benchmarks/make_large_project.py`` into /tmp (reused when present), loads
it, plans the tasks exactly as :func:`ccreport.commands.build.compute_results` does and runs them
one by one in this process with one BLAS thread, timing each with ``time.process_time``; prints the
CPU seconds per task kind (and the load) and the peak RSS. ``--profile FILE``: also a cProfile of
the task runs (``python -c "import pstats;
pstats.Stats('FILE').sort_stats('cumulative').print_stats(40)"``).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import importlib  # noqa: E402

from make_large_project import write_project  # noqa: E402

build = importlib.import_module("ccreport.commands.build")
from ccreport.project.loaders import load_project_data  # noqa: E402
from ccreport.project.manifest import load_project  # noqa: E402
from ccreport.runtime.threads import one_blas_thread  # noqa: E402
from ccreport.tasks.battery import plan, run_task  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--classifiers", type=int, default=3)
    parser.add_argument("--format", choices=("csv", "parquet"), default="parquet")
    parser.add_argument(
        "--kinds", default="", help="comma-separated task kinds to run (default: all)"
    )
    parser.add_argument("--profile", type=Path, default=None)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/ccreport-large"))
    parser.add_argument(
        "--project",
        type=Path,
        default=None,
        help="time this project instead (e.g. example_project)",
    )
    args = parser.parse_args()
    project_dir = args.project or args.folder / f"n{args.n}-k{args.classifiers}-{args.format}"
    if args.project is None and not (project_dir / "ccreport.toml").is_file():
        write_project(project_dir, args.n, args.classifiers, args.format)
    start = time.process_time()
    project = load_project(project_dir)
    datasets = load_project_data(project)
    seconds = {"load": time.process_time() - start}
    settings = project.settings
    mix = {d.name: d.n_pos / (d.n_pos + d.n_neg) for d in datasets}
    applicable = {
        d.name: {
            s.name: build.make_prior(s, mix[d.name]) for s in project.priors if s.applies_to(d.name)
        }
        for d in datasets
    }
    criteria = {
        d.name: {c.name: build.make_criterion(c) for c in project.criteria if c.applies_to(d.name)}
        for d in datasets
    }
    names = [c.name for c in project.classifiers]
    chosen = {
        d.name: build.choose_comparisons(settings.comparisons, d, names, applicable[d.name])
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
    wanted = set(filter(None, args.kinds.split(",")))
    per_kind: dict[str, float] = defaultdict(float)
    profiler = cProfile.Profile() if args.profile else None
    with one_blas_thread():
        for task in tasks:
            kind = task.key[0]
            if wanted and kind not in wanted:
                continue
            start = time.process_time()
            if profiler:
                profiler.enable()
            run_task(task)
            if profiler:
                profiler.disable()
            per_kind[kind] += time.process_time() - start
            print(
                f"{'/'.join(task.key)}: {time.process_time() - start:.2f} CPU s",
                file=sys.stderr,
                flush=True,
            )
    if profiler:
        profiler.dump_stats(args.profile)
    seconds.update(per_kind)
    print(
        json.dumps(
            {
                "n": args.n,
                "classifiers": args.classifiers,
                "format": args.format,
                "cpu_s": {k: round(v, 2) for k, v in seconds.items()},
                "tasks_cpu_s": round(sum(per_kind.values()), 1),
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            }
        )
    )


if __name__ == "__main__":
    main()
