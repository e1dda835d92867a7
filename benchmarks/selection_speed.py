"""All selection criteria + the out-of-fold curve for one classifier at n = 10^6, against sklearn.

Goal (issue 11): at most 3x the time of ``sklearn.metrics.roc_curve`` on the same array. Timed in
one run, interleaved (ours, then sklearn, per repeat); the ratio is taken per repeat and its median
reported, in wall time (``perf_counter``) and in CPU time of this process (``process_time``, less
sensitive to other processes on a shared machine), with the medians of the times themselves.
ccreport's side is ``select_scores``: one sort, the ROC points with thresholds, hull, envelope,
threshold table with ties, Neyman-Pearson (mixture + deterministic, held-out FPR), workforce
(held-out too), the bayes_prior performance-independent hybrid, and the out-of-fold curve with 5
folds.

    PYTHONPATH=. python benchmarks/selection_speed.py [--n 1000000] [--repeats 7] [--folds 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ccreport.analysis import memo
from ccreport.analysis.selection import (
    NeymanPearson,
    PerformanceIndependent,
    Workforce,
    select_scores,
)

CRITERIA = {
    "fpr-5%": NeymanPearson(0.05),
    "desk": Workforce(capacity_share=0.1),
    "costs": PerformanceIndependent("bayes_prior"),
}


def timed(function, *args) -> tuple[float, float]:
    """(wall, cpu) seconds of one call, with ccreport's memos emptied first (no memo hit)."""
    memo.clear()
    wall, cpu = time.perf_counter(), time.process_time()
    function(*args)
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--folds", type=int, default=5)
    args = parser.parse_args()
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(2006)
    y = rng.random(args.n) < 0.3
    folds = rng.integers(0, args.folds, args.n)
    p = 1.0 / (1.0 + np.exp(-rng.normal(np.where(y, 1.0, 0.0), 1.0)))
    cases = {
        "continuous probabilities": p,
        "probabilities rounded to 3 decimals (ties)": p.round(3),
    }
    print(f"n = {args.n:,}, {args.folds} folds, medians of {args.repeats} interleaved repeats")
    for name, s in cases.items():

        def ours(s=s):
            return select_scores(y, s, CRITERIA, folds=folds)

        ours(), roc_curve(y, s)  # warm up
        runs = np.array([timed(ours) + timed(roc_curve, y, s) for _ in range(args.repeats)])
        wall, cpu = runs[:, 0] / runs[:, 2], runs[:, 1] / runs[:, 3]
        ms = np.median(runs, axis=0) * 1e3
        sel = ours()
        print(
            f"{name}: ccreport all criteria + out-of-fold {ms[0]:.0f} ms wall / {ms[1]:.0f} "
            "ms cpu, "
            f"sklearn roc_curve {ms[2]:.0f} ms wall / {ms[3]:.0f} ms cpu; median ratio "
            f"{np.median(wall):.2f}x wall (range {wall.min():.2f}-{wall.max():.2f}), "
            f"{np.median(cpu):.2f}x cpu (range {cpu.min():.2f}-{cpu.max():.2f}) (goal <= 3x); "
            f"hull vertices {sel.table.fpr.size}, out-of-fold pieces "
            f"{sel.out_of_fold.curve.low.size}, "
            f"optimism {sel.out_of_fold.optimism:.2e}"
        )


if __name__ == "__main__":
    main()
