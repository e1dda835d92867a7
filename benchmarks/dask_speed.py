"""Speed-up per Dask worker (issue 9 item 6): the battery of a CPU-bound project on a
``distributed.LocalCluster`` of 1 and of 2 single-threaded worker processes.

The project is benchmarks/scale_build.py's (``k`` binormal scoring classifiers, ``n`` rows, default
settings: 1000 replicates, calibrated bands, so each classifier's uncertainty task is CPU-bound).
Each cluster is started and warmed up (one task run) before timing; then ``compute_results`` through
:class:`ccreport.tasks.executors.DaskExecutor` is timed in wall seconds, alternating 1 and 2 workers
``--repeats`` times, and the serial executor in this process once for reference. The results of
every run are compared byte for byte with the serial run.

    PYTHONPATH=. python benchmarks/dask_speed.py [--k 8] [--n 1000] [--repeats 2]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale_build import write_project  # noqa: E402

from ccreport.commands.build import compute_results  # noqa: E402
from ccreport.project.loaders import load_project_data  # noqa: E402
from ccreport.project.manifest import load_project  # noqa: E402
from ccreport.project.project_files import read_project_files  # noqa: E402
from ccreport.results import results_to_json  # noqa: E402
from ccreport.tasks.executors import SerialExecutor, cluster  # noqa: E402


def timed(project, data, files, executor) -> tuple[float, str]:
    started = time.perf_counter()
    results = compute_results(project, data, files, executor)
    elapsed = time.perf_counter() - started
    return elapsed, results_to_json(dataclasses.replace(results, versions={}))


def main(argv=None):
    import distributed

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--k", type=int, default=8)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ccreport-dask-") as folder:
        root = write_project(Path(folder) / "project", args.k, args.n, '"all"')
        project = load_project(root)
        data = load_project_data(project)
        files = read_project_files(project, data)
        serial, expected = timed(project, data, files, SerialExecutor())
        print(f"k = {args.k}, n = {args.n}: serial in this process {serial:.1f} s wall")
        clusters = {
            w: distributed.LocalCluster(
                n_workers=w, threads_per_worker=1, processes=True, dashboard_address=":0"
            )
            for w in (1, 2)
        }
        try:
            times = {1: [], 2: []}
            for _ in range(args.repeats):
                for w, c in clusters.items():
                    with cluster(c.scheduler_address, "benchmark", "scheduler") as executor:
                        elapsed, found = timed(project, data, files, executor)
                    assert found == expected, "a Dask run differs from the serial one"
                    times[w].append(elapsed)
                    print(f"  {w} worker(s): {elapsed:.1f} s wall")
        finally:
            for c in clusters.values():
                c.close()
        one, two = min(times[1]), min(times[2])
        print(
            f"best of {args.repeats}: 1 worker {one:.1f} s, 2 workers {two:.1f} s, speed-up "
            f"{one / two:.2f}x "
            f"(serial {serial:.1f} s); results byte-identical to serial"
        )


if __name__ == "__main__":
    main()
