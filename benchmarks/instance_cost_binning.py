"""Binned vs all thresholds in the instance-cost bootstrap: CPU seconds and how far the intervals
move.

    PYTHONPATH=. python benchmarks/instance_cost_binning.py [--n 1000000] [--replicates 100]
        [--bins 4096,1024]

One classifier, binormal scores (positives shifted by 1, 30% positives) rounded to 6 decimals (so
about as many distinct scores as instances), Gamma(2, 50) costs, the uniform prior. Runs
``bootstrap_instance_costs`` on the same generator state with all thresholds and with each bin
count and prints, per bin count, the CPU seconds (``time.process_time``) and the largest change of
the band's edges, of the AUCIV, expected-cost and least-total-cost interval ends, each also as a
share of that interval's (or the band's median) width.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from ccreport.analysis import priors as pr
from ccreport.analysis.bands import percentile_interval, pointwise_band
from ccreport.analysis.instance_cost_bootstrap import bootstrap_instance_costs


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--replicates", type=int, default=100)
    parser.add_argument("--bins", default="4096,1024")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    y = rng.random(args.n) < 0.3
    s = np.round(rng.normal(size=args.n) + 1.0 * y, 6)
    c = rng.gamma(2.0, 50.0, args.n)
    priors = {"uniform": pr.UniformPrior(0.0, 1.0)}
    runs = {}
    for bins in [args.n + 1] + [int(b) for b in args.bins.split(",")]:
        start = time.process_time()
        r = bootstrap_instance_costs(
            np.random.default_rng(5), y, s, c, args.replicates, priors, bins=bins
        )
        runs[bins] = (time.process_time() - start, r)
    cpu0, r0 = runs.pop(args.n + 1)
    lo0, hi0 = pointwise_band(r0.values, 0.95)
    out = {
        "n": args.n,
        "distinct_scores": int(np.unique(s).size),
        "replicates": args.replicates,
        "load": os.getloadavg()[0],
        "all_thresholds_cpu_s": round(cpu0, 2),
        "binned": {},
    }

    def moved(a, b):
        (a_lo, a_hi), (b_lo, b_hi) = percentile_interval(a, 0.95), percentile_interval(b, 0.95)
        shift = max(abs(a_lo - b_lo), abs(a_hi - b_hi))
        return {
            "largest_end_change": float(shift),
            "share_of_width": round(float(shift / (b_hi - b_lo)), 4),
        }

    for bins, (cpu, r) in runs.items():
        lo, hi = pointwise_band(r.values, 0.95)
        edge = np.maximum(np.abs(lo - lo0), np.abs(hi - hi0))[1:-1]
        width = (hi0 - lo0)[1:-1]
        out["binned"][bins] = {
            "cpu_s": round(cpu, 2),
            "kept_thresholds": r.binned,
            "band_edge_change_max": float(edge.max()),
            "band_edge_change_share_of_width": {
                "max": round(float((edge / width).max()), 4),
                "median": round(float(np.median(edge / width)), 4),
                "max_over_median_width": round(float(edge.max() / np.median(width)), 4),
            },
            "auciv": moved(r.auciv, r0.auciv),
            "expected_uniform": moved(r.expected["uniform"], r0.expected["uniform"]),
            "min_total_cost": moved(r.min_total_cost, r0.min_total_cost),
        }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
