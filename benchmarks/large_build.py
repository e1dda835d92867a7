"""The issue-9 acceptance runs: a whole ``ccreport build`` of a synthetic large project, measured.

    python benchmarks/large_build.py --n 1000000 --classifiers 3 [--format csv|parquet] [--pdf]
        [--folder /tmp/ccreport-large] [--keep]

Writes the project with ``benchmarks/make_large_project.py`` into ``FOLDER/n<N>-k<K>-<format>`` (on
the fly, nothing committed; reused when present), then runs ``python -m ccreport build`` on it with
one worker and without the task cache under ``/usr/bin/time -v`` and prints, from that one run: CPU
seconds (user + system, all threads and child processes), wall seconds, peak resident memory, the
size of results.json and of the Parquet side files. Goals (issue 9): 3 classifiers at n = 10^6 under
60 CPU s and 1 GB, results.json under 20 MB; 2 classifiers at n = 10^7 under 5 minutes and 6 GB. The
machine is shared: run one at a time (``nohup ... > log &``).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_large_project import write_project  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def measured(command: list[str]) -> dict:
    """CPU and wall seconds and peak RSS of one command, from GNU time -v."""
    run = subprocess.run(
        ["/usr/bin/time", "-v", *command], capture_output=True, text=True, cwd=ROOT
    )
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{run.stdout[-2000:]}\n{run.stderr[-3000:]}")
    field = lambda name: re.search(rf"{re.escape(name)}: (.+)", run.stderr).group(1).strip()  # noqa: E731
    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
    return {
        "cpu_s": round(
            float(field("User time (seconds)")) + float(field("System time (seconds)")), 1
        ),
        "wall_s": round(sum(float(p) * 60**i for i, p in enumerate(reversed(wall))), 1),
        "peak_rss_mb": round(int(field("Maximum resident set size (kbytes)")) / 1024),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--classifiers", type=int, default=3)
    parser.add_argument("--format", choices=("csv", "parquet"), default="csv")
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--no-costs", action="store_true")
    parser.add_argument(
        "--pdf", action="store_true", help="also typeset report.pdf (default: --no-pdf)"
    )
    parser.add_argument("--folder", type=Path, default=Path("/tmp/ccreport-large"))
    parser.add_argument("--keep", action="store_true", help="keep the project and the output")
    args = parser.parse_args()
    project = (
        args.folder
        / f"n{args.n}-k{args.classifiers}-{args.format}{'-nocosts' if args.no_costs else ''}"
    )
    if not (project / "ccreport.toml").is_file():
        write_project(
            project,
            args.n,
            args.classifiers,
            args.format,
            folds=args.folds,
            costs=not args.no_costs,
        )
    out = project / "site"
    command = [
        sys.executable,
        "-m",
        "ccreport",
        "build",
        str(project),
        "-o",
        str(out),
        "-j",
        "1",
        "--no-cache",
        "-q",
    ]
    result = measured(command + ([] if args.pdf else ["--no-pdf"]))
    side = [p for p in (out / "curves").rglob("*.parquet")] if (out / "curves").is_dir() else []
    result.update(
        n=args.n,
        classifiers=args.classifiers,
        format=args.format,
        pdf=args.pdf,
        results_json_mb=round((out / "results.json").stat().st_size / 2**20, 2),
        side_files=len(side),
        side_files_mb=round(sum(p.stat().st_size for p in side) / 2**20, 1),
        data_mb=round(sum(p.stat().st_size for p in (project / "data").iterdir()) / 2**20, 1),
    )
    print(json.dumps(result))
    if not args.keep:
        shutil.rmtree(project)


if __name__ == "__main__":
    main()
