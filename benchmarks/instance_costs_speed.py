"""ROCIV points + ROCIV hull + AUCIV + the instance-cost envelope for 10^6 instances, against
sklearn.

Goal (issue 13): at most 1.5x the time of ``sklearn.metrics.roc_curve(y, s, sample_weight=c)`` on
the same arrays (sklearn gives the ROCIV points only: no hull, area or envelope). Both are timed in
this one run, interleaved, best of several repeats, so machine load affects both.

    python benchmarks/instance_costs_speed.py [--n 1000000] [--repeats 7]
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import best_time

from ccreport.analysis.instance_costs import analyse_instance_costs
from ccreport.analysis.priors import UniformPrior

PRIORS = {"uniform": UniformPrior()}


def ccreport_pipeline(y, s, c):
    """ROCIV, hull, AUCIV, IV envelope, own_pc, min total cost, expected cost, operating range."""
    return analyse_instance_costs(y, s, c, PRIORS)


def weighted_roc_curve(y, s, c):
    from sklearn.metrics import roc_curve

    return roc_curve(y, s, sample_weight=c)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    rng = np.random.default_rng(2006)
    y = rng.random(args.n) < 0.3
    c = np.round(rng.lognormal(7.5, 1.0, args.n), 2)  # loan-like amounts, skewed
    cases = {
        "continuous binormal scores": rng.normal(np.where(y, 1.0, 0.0), 1.0),
        "scores rounded to 3 decimals (ties)": np.round(rng.normal(np.where(y, 1.0, 0.0), 1.0), 3),
    }
    print(f"n = {args.n:,}, best of {args.repeats}")
    for name, s in cases.items():
        ccreport_pipeline(y, s, c), weighted_roc_curve(y, s, c)  # warm up
        ours = best_time(ccreport_pipeline, y, s, c, repeats=args.repeats)
        theirs = best_time(weighted_roc_curve, y, s, c, repeats=args.repeats)
        result = ccreport_pipeline(y, s, c)
        print(
            f"{name}: ccreport rociv+hull+auciv+envelope {ours * 1e3:.1f} ms, "
            f"sklearn roc_curve(sample_weight) {theirs * 1e3:.1f} ms, ratio {ours / theirs:.2f}x "
            f"(goal <= 1.5x); ROCIV points {result.rociv.thresholds.size}, envelope vertices "
            f"{result.envelope.pc.size}"
        )


if __name__ == "__main__":
    main()
