"""Why percentile intervals of the expected cost miss below with few distinct scores (issue 33).

    PYTHONPATH=. nice -n 10 python benchmarks/interval_why.py [--datasets 300]

For scores with K distinct values (``interval_matrix.binned``: binormal d' = 1 cut into K equally
likely bins, n = 200, half positives) each data set's 1000 optimism-corrected replicates of the
expected cost under the uniform prior (:func:`~ccreport.analysis.bootstrap.bootstrap_scores`, no
calibration) give the 90% percentile interval. Printed per K: how often the population value (the
area under the true ROC points' envelope) lies below / above it; the correlation, over data sets,
between the estimate's error (estimate - truth) and the replicates' sd; and the mean replicate sd in
the data sets where the truth fell below the interval against the others. With few values a data
set whose estimate lies high has a *smaller* bootstrap sd (its cost lines are used over a narrower
PC(+) range), so its interval is narrowest exactly when it is furthest above the truth: the
misses are one-sided although the mean correction is about right. Studentizing (dividing each
replicate's deviation by its own sd, :func:`~ccreport.analysis.calibration.studentized_interval`)
removes that dependence; its misses are printed alongside.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy.special import ndtr

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interval_matrix import PRIORS, D, envelope_area, mixture_cuts

from ccreport.analysis import calibration as cb
from ccreport.analysis.bootstrap import bootstrap_scores


def one_k(k: int, n: int, datasets: int, seed: int = 35) -> dict:
    rng = np.random.default_rng([seed, k, n])
    cuts = mixture_cuts(k)
    tpr = np.concatenate(([1.0], ndtr(D - cuts), [0.0]))
    fpr = np.concatenate(([1.0], ndtr(-cuts), [0.0]))
    truth = envelope_area(fpr, 1.0 - tpr)
    err, sd, below, above, t_below, t_above = [], [], [], [], [], []
    for _ in range(datasets):
        y = np.zeros(n, dtype=bool)
        y[: n // 2] = True
        s = np.searchsorted(cuts, rng.normal(size=n) + D * y).astype(float)
        rep = bootstrap_scores(rng, y, s, 1000, PRIORS)
        est, values = rep.expected_estimate["uniform"], rep.expected["uniform"]
        lo, hi = np.quantile(values, [0.05, 0.95])
        tlo, thi = cb.studentized_interval(
            values,
            est,
            rep.expected_sd["uniform"],
            rep.expected_sd_estimate["uniform"],
            (0.05, 0.95),
        )
        err.append(est - truth)
        sd.append(values.std())
        below.append(truth < lo)
        above.append(truth > hi)
        t_below.append(truth < tlo)
        t_above.append(truth > thi)
    err, sd, below = np.array(err), np.array(sd), np.array(below)
    return {
        "below": below.mean(),
        "above": np.mean(above),
        "corr": float(np.corrcoef(err, sd)[0, 1]),
        "sd_missed": sd[below].mean() if below.any() else float("nan"),
        "sd_other": sd[~below].mean(),
        "t_below": np.mean(t_below),
        "t_above": np.mean(t_above),
        "datasets": datasets,
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", type=int, default=300)
    ap.add_argument("--n", type=int, default=200)
    args = ap.parse_args(argv)
    print(
        "| K | data sets | percentile: truth below / above (%) | corr(estimate - truth, "
        "replicate sd) "
        "| replicate sd where the truth fell below / elsewhere | studentized: below / above (%) |"
    )
    print("| ---: | ---: | --- | ---: | --- | --- |")
    for k in (2, 5, 40, 1000):
        r = one_k(k, args.n, args.datasets)
        print(
            f"| {k} | {r['datasets']} | {100 * r['below']:.1f} / {100 * r['above']:.1f} | "
            f"{r['corr']:+.2f} "
            f"| {r['sd_missed']:.4f} / {r['sd_other']:.4f} | {100 * r['t_below']:.1f} / "
            f"{100 * r['t_above']:.1f} |"
        )


if __name__ == "__main__":
    main()
