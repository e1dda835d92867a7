"""Speed and memory of the stratified bootstrap band (issue 4), each as a ratio measured in one run.

(i)   the bare numpy floor: drawing the stratified resample counts of 1000 replicates and taking
      their cumulative sums in the presorted order (the same chunks and the same drawing code as the
      band);
(ii)  the band of one scoring classifier: 1000 replicates of its lower envelope (exact hulls), the
      optimism-corrected replicates, the pointwise and the simultaneous band;
(iii) R pROC ``ci.se`` (stratified bootstrap of sensitivity at 21 specificities), same n and
      replicates;
(iv)  peak memory of (ii) at n = 10^6, in a fresh subprocess (ru_maxrss, whole process).

    PYTHONPATH=. python benchmarks/bootstrap_speed.py [--n 100000] [--replicates 1000]
        [--repeat 3] [--write]

Timings take the best of ``--repeat`` interleaved runs (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ccreport.analysis import bands, bootstrap, memo  # noqa: E402
from ccreport.analysis import calibration as cb  # noqa: E402


def data(n, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.5
    return y, rng.normal(size=n) + y


def floor(y, s, replicates, seed):
    """Counts and cumulative sums only: what any stratified bootstrap of a ROC path must do."""
    rng = np.random.default_rng(seed)
    layout = bootstrap.path_layout(y, s)
    total = 0
    for reps in bootstrap.chunk_sizes(replicates, y.size):
        cp = bootstrap.cumulative(bootstrap.multinomial_counts(rng, layout.n_pos, reps))
        cn = bootstrap.cumulative(bootstrap.multinomial_counts(rng, layout.n_neg, reps))
        total += int(cp[0, -1] + cn[0, -1])
    return total


def band(y, s, replicates, seed, priors=None):
    """As a report computes it: the replicates of the dataset's one resampling (``pairs_task``; for
    one classifier the procedure of ``bootstrap_scores``, timed here) read at the levels
    ``classifier_task`` calibrates; at n > 10,000 the default ``calibration = "auto"`` does not
    calibrate (``ccreport.analysis.calibration``)."""
    rng = np.random.default_rng(seed)
    rep = bootstrap.bootstrap_scores(rng, y, s, replicates, priors)
    if cb.wanted("auto", y.size):
        cal = cb.calibrate(rng, rep.layout, 0.9, priors, rep.grid)
    else:
        cal = cb.nominal(0.9, rep.grid.size)
    lo, hi = cb.calibrated_band(rep.values, cal)
    slo, shi = bands.simultaneous_band(rep.values, 0.9, scale=cal.sup_scale)
    return lo, hi, slo, shi


def timed(function, *args):
    """Wall seconds of one call, with ccreport's memos emptied first (no memo hit)."""
    memo.clear()
    t = time.perf_counter()
    function(*args)
    return time.perf_counter() - t


R_SCRIPT = r"""
suppressMessages(library(pROC))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
r <- roc(d$y, d$s, quiet = TRUE, direction = "<")
t <- system.time(ci.se(r, specificities = seq(0, 1, 0.05), boot.n = as.integer(args[2]),
                       boot.stratified = TRUE, progress = "none"))
cat(t[["elapsed"]], "\n")
"""


def proc_seconds(y, s, replicates):
    """Wall time of pROC ci.se in Rscript (data passed through a CSV; the time excludes reading
    it)."""
    if shutil.which("Rscript") is None:
        return None, "Rscript not found"
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "d.csv"
        np.savetxt(
            csv,
            np.column_stack((y.astype(int), s)),
            delimiter=",",
            header="y,s",
            comments="",
            fmt=["%d", "%.17g"],
        )
        script = Path(tmp) / "ci.R"
        script.write_text(R_SCRIPT)
        out = subprocess.run(
            ["Rscript", str(script), str(csv), str(replicates)], capture_output=True, text=True
        )
        if out.returncode != 0:
            return None, out.stderr.strip().splitlines()[-1] if out.stderr else "Rscript failed"
        version = subprocess.run(
            [
                "Rscript",
                "-e",
                'cat(R.version.string, "/ pROC", as.character(packageVersion("pROC")))',
            ],
            capture_output=True,
            text=True,
        ).stdout.strip()
        return float(out.stdout.split()[-1]), version


MEMORY_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
import numpy as np
from ccreport.analysis import bands, bootstrap
n, reps = {n}, {reps}
rng = np.random.default_rng(0)
y = rng.random(n) < 0.5
s = rng.normal(size=n) + y
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
rep = bootstrap.bootstrap_scores(np.random.default_rng(1), y, s, reps)
lo, hi = bands.pointwise_band(rep.values, 0.9)
seconds = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"peak_mb": peak / 1024, "before_mb": base / 1024, "seconds": seconds}}))
"""


def peak_memory(n, replicates):
    code = MEMORY_CHILD.format(root=str(ROOT), n=n, reps=replicates)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--memory-n", type=int, default=1_000_000)
    ap.add_argument("--no-r", action="store_true")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)
    y, s = data(args.n)
    floor_t, band_t = [], []
    for k in range(args.repeat):  # interleaved, best of each
        floor_t.append(timed(floor, y, s, args.replicates, k))
        band_t.append(timed(band, y, s, args.replicates, k))
    f, b = min(floor_t), min(band_t)
    print(f"floor {f:.3f} s   band {b:.3f} s   ratio {b / f:.2f}", flush=True)
    r_t, r_version = (None, "skipped") if args.no_r else proc_seconds(y, s, args.replicates)
    if r_t is not None:
        print(f"pROC ci.se {r_t:.2f} s   ours {b:.3f} s   speed-up {r_t / b:.1f}x", flush=True)
    mem = peak_memory(args.memory_n, args.replicates)
    print(
        f"n={args.memory_n}: peak RSS {mem['peak_mb']:.0f} MB (before the bootstrap "
        f"{mem['before_mb']:.0f} MB), {mem['seconds']:.1f} s",
        flush=True,
    )
    load = (
        Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else ["?"]
    )
    body = "\n".join(
        [
            f"`PYTHONPATH=. python benchmarks/bootstrap_speed.py` on {platform.machine()}, "
            f"Python {platform.python_version()}, "
            f"numpy {np.__version__}, one process; binormal scores, n = {args.n:,}, "
            f"{args.replicates} replicates, "
            f"best of {args.repeat} interleaved runs (load average at the end: {' '.join(load)}).",
            "",
            "| what | seconds | ratio |",
            "| --- | ---: | ---: |",
            "| (i) bare numpy floor: stratified resample counts + cumulative sums in the "
            f"presorted order | {f:.3f} | 1 |",
            "| (ii) our band: exact replicate envelopes, optimism correction, pointwise + "
            f"simultaneous band | {b:.3f} | {b / f:.2f}x the floor (goal <= 2) |",
            (
                f"| (iii) R pROC `ci.se` (21 specificities, stratified, {r_version}) | "
                f"{r_t:.2f} | ours is {r_t / b:.1f}x faster (goal >= 20) |"
                if r_t is not None
                else f"| (iii) R pROC `ci.se` | not run ({r_version}) | |"
            ),
            f"| (iv) peak RSS of the whole process at n = {args.memory_n:,}, "
            f"{args.replicates} replicates (goal < 1 GB) | "
            f"{mem['seconds']:.1f} | {mem['peak_mb']:.0f} MB ({mem['before_mb']:.0f} MB "
            "before the bootstrap) |",
        ]
    )
    print(body)
    if args.write:
        sys.path.insert(0, str(Path(__file__).parent))
        from validity import write_section

        write_section(Path(__file__).with_name("README.md"), "Bootstrap speed and memory", body)


if __name__ == "__main__":
    main()
