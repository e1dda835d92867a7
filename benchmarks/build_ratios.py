"""Whole-process builds of the example under several configurations, interleaved, as ratios.

    python benchmarks/build_ratios.py --repeats 3 \\
        --run "new-off=/work/wt/x:-j 1:CCREPORT_SPEEDUPS=0" --run "old=/tmp/old-tree:-j 1" \\
        --ratio new-off/old

Each ``--run`` is ``LABEL=TREE[:ARGS[:ENV=VALUE,...]]``: ``python -m ccreport build`` of TREE's
example project, run in TREE with ``PYTHONPATH=TREE`` (so that TREE's ccreport is imported), with
``--no-cache -q`` and ARGS, into a scratch folder, with a fixed ``SOURCE_DATE_EPOCH``.
One repetition runs every configuration once, in the order given, so
load from other work on the machine falls on all of them alike; each ``--ratio A/B`` is formed per
repetition. Printed: per configuration and per ratio, min / median / max of the CPU seconds (user +
system of the build and every process it started, ``resource.getrusage(RUSAGE_CHILDREN)``) and of
the wall seconds.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def parse_run(text: str) -> tuple[str, Path, list[str], dict]:
    label, _, rest = text.partition("=")
    tree, _, rest = rest.partition(":")
    args, _, env = rest.partition(":")
    extra = dict(item.split("=", 1) for item in env.split(",") if item)
    return label, Path(tree), args.split(), extra


def one_build(tree: Path, args: list[str], env: dict, out: Path) -> tuple[float, float]:
    """(CPU s, wall s) of one whole-process build."""
    environment = {**os.environ, "PYTHONPATH": str(tree), "SOURCE_DATE_EPOCH": "1700000000"}
    environment.update(env)
    command = [sys.executable, "-m", "ccreport", "build", str(tree / "example_project")]
    command += ["-o", str(out), "--no-cache", "-q", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    # cwd=tree: ``python -m`` puts the working folder first on sys.path, before PYTHONPATH
    subprocess.run(command, env=environment, cwd=tree, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--run", action="append", required=True)
    parser.add_argument("--ratio", action="append", default=[])
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    runs = [parse_run(r) for r in options.run]
    seen: dict[str, list[tuple[float, float]]] = {label: [] for label, *_ in runs}
    scratch = Path(tempfile.mkdtemp(prefix="ccreport-ratios-"))
    print(f"{os.cpu_count()} cores, load average at start {os.getloadavg()[0]:.2f}", flush=True)
    for repeat in range(options.repeats):
        for label, tree, args, env in runs:
            cpu, wall = one_build(tree, args, env, scratch / f"{label}-{repeat}")
            seen[label].append((cpu, wall))
            print(f"  {repeat} {label:12s} cpu {cpu:7.2f} s  wall {wall:7.2f} s", flush=True)
    print(f"load average at end {os.getloadavg()[0]:.2f}")
    print(f"{'configuration':24s} {'CPU s min/median/max':>24s} {'wall s min/median/max':>24s}")
    for label, values in seen.items():
        cpu, wall = [v[0] for v in values], [v[1] for v in values]
        print(f"{label:24s} {spread(cpu):>24s} {spread(wall):>24s}")
    for ratio in options.ratio:
        a, b = ratio.split("/")
        cpu = [x[0] / y[0] for x, y in zip(seen[a], seen[b], strict=True)]
        wall = [x[1] / y[1] for x, y in zip(seen[a], seen[b], strict=True)]
        print(f"{ratio:24s} {spread(cpu):>24s} {spread(wall):>24s}")


if __name__ == "__main__":
    main()
