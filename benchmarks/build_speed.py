"""Wall-clock time of building the example project, HTML and PDF, phase by phase (issue 3: < 30 s).

    python benchmarks/build_speed.py [PROJECT_DIR] [--repeats 3]

Each phase is the function ``ccreport build`` calls, run in the same order into a scratch folder.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from ccreport.build import compute_results, workers_for
from ccreport.executors import executor_for
from ccreport.loaders import load_project_data
from ccreport.manifest import load_project
from ccreport.project_files import read_project_files
from ccreport.render.figure_files import write_figures
from ccreport.render.pdf import render_pdf
from ccreport.render.site import render_site
from ccreport.results import results_to_json

EXAMPLE = Path(__file__).resolve().parent.parent / "example_project"


def one_build(project_dir: Path) -> dict[str, float]:
    phases = {}
    clock = time.perf_counter()

    def lap(name):
        nonlocal clock
        now = time.perf_counter()
        phases[name] = now - clock
        clock = now

    project = load_project(project_dir)
    datasets = load_project_data(project)
    lap("manifest + data")
    results = compute_results(project, datasets, read_project_files(project, datasets), executor_for(workers_for(project)))
    lap("analyses (incl. bootstrap)")
    out = Path(tempfile.mkdtemp(prefix="ccreport-bench-"))
    (out / "results.json").write_text(results_to_json(results), encoding="utf-8")
    figures = write_figures(results, out)
    lap(f"figures ({len(figures)} x svg+pdf)")
    site = render_site(results, project, out, figures, pdf=True)
    lap("site")
    render_pdf(site, out, project)
    lap("report.pdf")
    phases["total"] = sum(phases.values())
    return phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("project", nargs="?", default=str(EXAMPLE))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    runs = [one_build(Path(args.project)) for _ in range(args.repeats)]
    for name in runs[0]:
        times = [r[name] for r in runs]
        print(f"{name:32s} best {min(times):6.2f} s   all {' '.join(f'{t:.2f}' for t in times)}")
    print(f"goal: total < 30 s -> {'met' if min(r['total'] for r in runs) < 30 else 'NOT met'}")


if __name__ == "__main__":
    main()
