"""All selection criteria + the out-of-fold curve for one classifier at n = 10^6, against sklearn.

Goal (issue 11): at most 3x the time of ``sklearn.metrics.roc_curve`` on the same array. Timed in
one run, interleaved, best of several repeats. ccreport's side is ``select_scores``: one sort, the
ROC points with thresholds, hull, envelope, threshold table with ties, Neyman-Pearson (mixture +
deterministic, held-out FPR), workforce (held-out too), the bayes_prior performance-independent
hybrid, and the out-of-fold curve with 5 folds.

    python benchmarks/selection_speed.py [--n 1000000] [--repeats 5] [--folds 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

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


def best_time(function, *args, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--folds", type=int, default=5)
    args = parser.parse_args()
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(2006)
    y = rng.random(args.n) < 0.3
    folds = rng.integers(0, args.folds, args.n)
    p = 1.0 / (1.0 + np.exp(-rng.normal(np.where(y, 1.0, 0.0), 1.0)))
    cases = {"continuous probabilities": p, "probabilities rounded to 3 decimals (ties)": p.round(3)}
    print(f"n = {args.n:,}, {args.folds} folds, best of {args.repeats}")
    for name, s in cases.items():

        def ours():
            return select_scores(y, s, CRITERIA, folds=folds)

        ours(), roc_curve(y, s)  # warm up
        t_ours = best_time(ours, repeats=args.repeats)
        t_sk = best_time(roc_curve, y, s, repeats=args.repeats)
        sel = ours()
        print(
            f"{name}: ccreport all criteria + out-of-fold {t_ours * 1e3:.0f} ms, "
            f"sklearn roc_curve {t_sk * 1e3:.0f} ms, ratio {t_ours / t_sk:.2f}x (goal <= 3x); "
            f"hull vertices {sel.table.fpr.size}, out-of-fold pieces {sel.out_of_fold.curve.low.size}, "
            f"optimism {sel.out_of_fold.optimism:.2e}"
        )


if __name__ == "__main__":
    main()
