"""What report.pdf of the example weighs and what typesetting it costs (issue 15).

``PYTHONPATH=. python benchmarks/pdf_speed.py [PROJECT] [--repeats N]`` builds PROJECT (default
``example_project``) into a scratch folder with one worker and a task cache, once to fill the cache
and then N more times (default 1; ``--keep DIR`` copies the last output to DIR); each build's PDF
stage (:func:`ccreport.render.pdf.render_pdf`: WeasyPrint layout, figures, attachments) is timed in
CPU seconds of this process (user + system, ``time.process_time``) and in wall seconds. Prints the
PDF's size, its pages, the figures and tables it numbers, and the least CPU time of the timed runs.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ccreport.render.pdf as pdf_module
from ccreport.commands.build import build


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", nargs="?", default="example_project")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument(
        "--keep", help="copy the last build's output folder here (to look at the PDF)"
    )
    args = parser.parse_args()
    os.environ.setdefault("SOURCE_DATE_EPOCH", "1700000000")
    timings: list[tuple[float, float]] = []
    original = pdf_module.render_pdf

    def timed(*a, **k):
        cpu, wall = time.process_time(), time.perf_counter()
        out = original(*a, **k)
        timings.append((time.process_time() - cpu, time.perf_counter() - wall))
        return out

    pdf_module.render_pdf = timed
    with tempfile.TemporaryDirectory(prefix="ccreport-pdf-bench-") as scratch:
        cache = Path(scratch) / "cache"
        for run in range(1 + args.repeats):
            out = Path(scratch) / f"out{run}"
            build(args.project, out, workers=1, cache_dir=cache)
        if args.keep:
            shutil.copytree(out, args.keep, dirs_exist_ok=True)
        pdf = out / "report.pdf"
        size = pdf.stat().st_size
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
        pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
        figures = len(set(re.findall(r"Figure (\d+)\.", text)))
        tables = len(set(re.findall(r"Table (\d+)\.", text)))
    cpu = min(t[0] for t in timings[1:])
    wall = min(t[1] for t in timings[1:])
    print(f"report.pdf: {size / 1e6:.2f} MB, {pages} pages, {figures} figures, {tables} tables")
    print(
        f"PDF stage: {cpu:.1f} CPU s (user+sys, least of {args.repeats}), {wall:.1f} s wall; "
        f"first build {timings[0][0]:.1f} CPU s"
    )


if __name__ == "__main__":
    sys.exit(main())
