"""One whole ``ccreport build`` of the issue-9 large project, CPU seconds and peak memory per phase.

    python benchmarks/large_phases.py --n 10000000 --classifiers 2 [--format csv|parquet]
        [--bootstrap 0] [--pdf] [--workers 1] [--profile FILE] [--folder /tmp/ccreport-large]
        [--keep]

Writes the project of ``benchmarks/make_large_project.py`` into ``FOLDER/n<N>-k<K>-<format>``
(reused when present), then runs :func:`ccreport.commands.build.build` on it in this process (no
task cache), timing each of the build's own phases (``ccreport.runtime.progress.phase``: reading the
manifest and data, analysing, writing results.json, drawing figures, writing pages, typesetting
report.pdf) by CPU seconds of this process and its children (user + system, ``resource.getrusage``)
and by its peak resident memory (``/proc/self/status`` VmRSS sampled every 20 ms; the figure pool's
children are not in it). Prints one JSON line: per phase CPU s, wall s and peak RSS; the whole
build's; the size of results.json, of the Parquet side files and of report.pdf.

``--bootstrap 0`` measures the build without any replicate analysis: the project's settings get
``bootstrap = 0`` (the manifest accepts 500 or more; every replicate task does nothing at 0), so
what is left is the exact pipeline (load, ROC, hulls, envelopes, expected costs, selection and
hybrid, threshold-choice and instance-cost point curves, results.json, figures, pages, PDF).
``--profile FILE`` writes a cProfile of the whole build (this process only).
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import json
import os
import resource
import shutil
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import importlib  # noqa: E402

from make_large_project import write_project  # noqa: E402

build_module = importlib.import_module(
    "ccreport.commands.build"
)  # the module (ccreport.commands.build is also a function)
from ccreport.runtime import progress  # noqa: E402


def cpu_seconds() -> float:
    me, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Phases:
    """The build's phases as they start: CPU s, wall s and peak RSS of each."""

    def __init__(self):
        self.rows: list[dict] = []
        self.lock = threading.Lock()
        self.running = True
        self.start("starting")
        self.sampler = threading.Thread(target=self.sample, daemon=True)
        self.sampler.start()

    def start(self, name: str) -> None:
        with self.lock:
            now, cpu = time.perf_counter(), cpu_seconds()
            if self.rows:
                last = self.rows[-1]
                last["cpu_s"], last["wall_s"] = (
                    round(cpu - last.pop("cpu0"), 1),
                    round(now - last.pop("wall0"), 1),
                )
            if name:
                self.rows.append(
                    {"phase": name, "cpu0": cpu, "wall0": now, "peak_rss_mb": rss_mb()}
                )

    def sample(self) -> None:
        while self.running:
            with self.lock:
                if self.rows and "cpu0" in self.rows[-1]:
                    self.rows[-1]["peak_rss_mb"] = max(self.rows[-1]["peak_rss_mb"], rss_mb())
            time.sleep(0.02)

    def stop(self) -> list[dict]:
        self.start("")
        self.running = False
        for row in self.rows:
            row["peak_rss_mb"] = round(row["peak_rss_mb"])
        return self.rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--classifiers", type=int, default=3)
    parser.add_argument("--format", choices=("csv", "parquet"), default="parquet")
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=None,
        help="replicates (0: none); default: the manifest's 500",
    )
    parser.add_argument("--pdf", action="store_true", help="also typeset report.pdf")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--profile", type=Path, default=None)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/ccreport-large"))
    parser.add_argument("--keep", action="store_true", help="keep the project and the output")
    args = parser.parse_args()
    project = args.folder / f"n{args.n}-k{args.classifiers}-{args.format}"
    if not (project / "ccreport.toml").is_file():
        write_project(project, args.n, args.classifiers, args.format)
    out = project / "site"

    if args.bootstrap is not None:  # below the manifest's bound: set on the loaded project
        load = build_module.load_project

        def load_project(folder):
            p = load(folder)
            return dataclasses.replace(
                p, settings=dataclasses.replace(p.settings, bootstrap=args.bootstrap)
            )

        build_module.load_project = load_project
    phases = Phases()
    progress.phase = phases.start
    profiler = cProfile.Profile() if args.profile else None
    wall, cpu = time.perf_counter(), cpu_seconds()
    if profiler:
        profiler.enable()
    build_module.build(project, out, workers=args.workers, pdf=args.pdf, force=True)
    if profiler:
        profiler.disable()
        profiler.dump_stats(args.profile)
    total = {
        "cpu_s": round(cpu_seconds() - cpu, 1),
        "wall_s": round(time.perf_counter() - wall, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }
    rows = phases.stop()
    side = list((out / "curves").rglob("*.parquet")) if (out / "curves").is_dir() else []
    print(
        json.dumps(
            {
                "n": args.n,
                "classifiers": args.classifiers,
                "format": args.format,
                "bootstrap": args.bootstrap,
                "workers": args.workers,
                "pdf": args.pdf,
                "load_average": os.getloadavg(),
                "phases": rows,
                "total": total,
                "results_json_mb": round((out / "results.json").stat().st_size / 2**20, 2),
                "side_files": len(side),
                "side_files_mb": round(sum(p.stat().st_size for p in side) / 2**20, 1),
                "pdf_mb": round((out / "report.pdf").stat().st_size / 2**20, 2)
                if args.pdf
                else None,
            },
            indent=1,
        )
    )
    if not args.keep:
        shutil.rmtree(project)


if __name__ == "__main__":
    main()
