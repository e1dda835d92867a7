"""Coverage of the instance-cost intervals with binned replicate thresholds vs all thresholds (issue
9).

    PYTHONPATH=. python benchmarks/instance_cost_coverage.py [--sims 300] [--n 4000]
        [--replicates 200] [--bins 64,256]

Population: binormal scores (negatives N(0, 1), positives N(1, 1), 35% positives), each instance's
cost Gamma(2, 50) independent of its score and class. Then the population ROCIV is the binormal ROC
(costs independent of the score cancel in the cost-weighted rates), so the true instance-cost
envelope over PC_iv(+) is ``min_t x FNR(t) + (1 - x) FPR(t)``, the true AUCIV Phi(1 / sqrt 2) and
the true expected cost under the uniform prior the envelope's integral. Each simulation draws one
sample of n instances (continuous scores: n distinct) and runs ``bootstrap_instance_costs`` on the
SAME generator state with all thresholds (``bins`` = n) and with each forced bin count, so the
coverages are paired; prints each interval's coverage with its Monte-Carlo standard error and the
standard error of the paired difference (from the discordant simulations).
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np
from scipy.integrate import trapezoid
from scipy.stats import norm

from ccreport.analysis import priors as pr
from ccreport.analysis.bands import percentile_interval, pointwise_band
from ccreport.analysis.hull_costs import GRID
from ccreport.analysis.instance_cost_bootstrap import bootstrap_instance_costs

MU, P_POS = 1.0, 0.35
POINTS = (30, 50, 70)  # grid indices: PC_iv(+) 0.3, 0.5, 0.7


def truth():
    t = np.linspace(-8, 9, 200_001)
    fnr, fpr = norm.cdf(t - MU), norm.sf(t)
    env = np.array([np.min(x * fnr + (1 - x) * fpr) for x in GRID])
    fine = np.linspace(0, 1, 2001)
    env_fine = np.array([np.min(x * fnr + (1 - x) * fpr) for x in fine])
    return env, float(norm.cdf(MU / np.sqrt(2))), float(trapezoid(env_fine, fine))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sims", type=int, default=300)
    parser.add_argument("--n", type=int, default=4000)
    parser.add_argument("--replicates", type=int, default=200)
    parser.add_argument("--bins", default="64,256")
    parser.add_argument("--level", type=float, default=0.95)
    args = parser.parse_args()
    variants = [args.n] + [int(b) for b in args.bins.split(",")]
    env, auc, expected = truth()
    priors = {"uniform": pr.UniformPrior(0.0, 1.0)}
    hits = {
        v: {k: [] for k in ("band_0.3", "band_0.5", "band_0.7", "band_all", "auciv", "expected")}
        for v in variants
    }
    start = time.process_time()
    for sim in range(args.sims):
        rng = np.random.default_rng([2026, sim])
        y = rng.random(args.n) < P_POS
        s = rng.normal(size=args.n) + MU * y
        c = rng.gamma(2.0, 50.0, args.n)
        for v in variants:
            r = bootstrap_instance_costs(
                np.random.default_rng([7, sim]), y, s, c, args.replicates, priors, bins=v
            )
            lo, hi = pointwise_band(r.values, args.level)
            inside = (lo <= env + 1e-12) & (env <= hi + 1e-12)
            for name, k in zip(("band_0.3", "band_0.5", "band_0.7"), POINTS):
                hits[v][name].append(bool(inside[k]))
            hits[v]["band_all"].append(float(inside[1:-1].mean()))
            a_lo, a_hi = percentile_interval(r.auciv, args.level)
            hits[v]["auciv"].append(bool(a_lo <= auc <= a_hi))
            e_lo, e_hi = percentile_interval(r.expected["uniform"], args.level)
            hits[v]["expected"].append(bool(e_lo <= expected <= e_hi))
    out = {
        "sims": args.sims,
        "n": args.n,
        "replicates": args.replicates,
        "level": args.level,
        "cpu_s": round(time.process_time() - start, 1),
        "load": os.getloadavg()[0],
        "coverage": {},
    }
    base = hits[args.n]
    for v in variants:
        label = "all thresholds" if v == args.n else f"bins={v}"
        row = {}
        for name, h in hits[v].items():
            h = np.asarray(h, dtype=float)
            se = float(h.std(ddof=1) / np.sqrt(h.size))
            entry = {"coverage": round(float(h.mean()), 4), "mc_se": round(se, 4)}
            if v != args.n:
                d = h - np.asarray(base[name], dtype=float)
                entry["difference"] = round(float(d.mean()), 4)
                entry["difference_se"] = round(float(d.std(ddof=1) / np.sqrt(d.size)), 4)
            row[name] = entry
        out["coverage"][label] = row
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
