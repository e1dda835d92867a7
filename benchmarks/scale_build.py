"""CPU cost of a whole build with many classifiers (issue 9 acceptance: k = 32, n = 1000, all
pairs).

Writes a project of ``k`` binormal scoring classifiers on one dataset of ``n`` rows (two priors, the
default settings: 1000 replicates, calibration "auto"), then

1. the analyses: ``compute_results`` with the serial executor, CPU seconds of this process, split
   by task kind (each task timed as it runs);
2. the output: ``write_output`` (results.json, figures, pages; ``--pdf`` adds report.pdf), CPU
   seconds of this process and of its children (the figure pool), and the files written.

    PYTHONPATH=. python benchmarks/scale_build.py [--k 32] [--n 1000] [--comparisons all] [--pdf]

``--comparisons`` is the manifest's value as TOML ("all", "best", "auto", '{ baseline = "c00" }').
CPU seconds: ``time.process_time`` and ``resource.getrusage`` (user + sys), one run.
"""

from __future__ import annotations

import argparse
import collections
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ccreport.commands.build import compute_results, write_output  # noqa: E402
from ccreport.project.loaders import load_project_data  # noqa: E402
from ccreport.project.manifest import load_project  # noqa: E402
from ccreport.project.project_files import read_project_files  # noqa: E402
from ccreport.tasks.battery import run_task  # noqa: E402
from ccreport.tasks.cache import cached_map, done  # noqa: E402


def write_project(root: Path, k: int, n: int, comparisons: str) -> Path:
    rng = np.random.default_rng(1)
    y = rng.random(n) < 0.4
    columns = {"label": np.where(y, "pos", "neg")}
    for i in range(k):
        columns[f"c{i:02d}"] = np.round(rng.normal(size=n) + rng.uniform(0.5, 2.0) * y, 4)
    lines = [",".join(columns)] + [",".join(str(v) for v in row) for row in zip(*columns.values())]
    root.mkdir(parents=True, exist_ok=True)
    (root / "data.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    classifiers = "\n".join(
        f'[[classifiers]]\nname = "c{i:02d}"\nscores = "c{i:02d}"\n' for i in range(k)
    )
    (root / "ccreport.toml").write_text(
        f"""[project]
title = "k = {k}, n = {n}"
comparisons = {comparisons}

[[datasets]]
name = "d"
path = "data.csv"
label = "label"
positive = "pos"

{classifiers}
[[priors]]
name = "uniform"
distribution = "uniform"

[[priors]]
name = "sceptic"
distribution = "beta"
a = 2
b = 8
""",
        encoding="utf-8",
    )
    return root


class TimedSerial:
    """The serial executor, timing each task's CPU by kind."""

    def __init__(self):
        self.by_kind = collections.Counter()

    def map(self, tasks):
        def run(todo):
            out = []
            for (task,) in todo:
                started = time.process_time()
                out.append(done(run_task(task)))
                self.by_kind[task.key[0]] += time.process_time() - started
            return out

        return cached_map(run_task, [(t,) for t in tasks], run)


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", type=int, default=32)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--comparisons", default='"all"')
    ap.add_argument("--pdf", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ccreport-scale-") as folder:
        root = write_project(Path(folder) / "project", args.k, args.n, args.comparisons)
        t0, w0 = time.process_time(), time.perf_counter()
        project = load_project(root)
        data = load_project_data(project)
        files = read_project_files(project, data)
        executor = TimedSerial()
        results = compute_results(project, data, files, executor)
        t1, w1 = time.process_time(), time.perf_counter()
        d = results.datasets["d"]
        print(
            f"k = {args.k}, n = {args.n}, comparisons = {args.comparisons}: rule "
            f"{d.comparison_choice.rule}, "
            f"{len(d.comparisons)} pairs"
        )
        print(f"analyses: {t1 - t0:.1f} CPU s ({w1 - w0:.1f} s wall), by task kind:")
        for kind, cpu in executor.by_kind.most_common():
            print(f"  {kind:<20} {cpu:7.1f} CPU s")
        staging = Path(folder) / "site"
        staging.mkdir()
        c0 = children_cpu()
        write_output(results, project, staging, pdf=args.pdf)
        t2, w2 = time.process_time(), time.perf_counter()
        c1 = children_cpu()
        figures = list((staging / "figures").rglob("*.*"))
        pages = list(staging.glob("*.html"))
        size = (staging / "results.json").stat().st_size
        print(
            f"output (results.json, figures, pages{', pdf' if args.pdf else ''}): "
            f"{t2 - t1:.1f} CPU s here + "
            f"{c1 - c0:.1f} CPU s in child processes ({w2 - w1:.1f} s wall)"
        )
        print(
            f"  {len(figures)} figure files, {len(pages)} pages, results.json {size / 1e6:.1f} MB, "
            f"largest page {max(p.stat().st_size for p in pages) / 1e6:.2f} MB"
        )


if __name__ == "__main__":
    main()
