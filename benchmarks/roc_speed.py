"""ROC points + convex hull + lower envelope + operating range for 10^6 scores, against sklearn.

Goal (issue 2): at most 1.2x the time of ``sklearn.metrics.roc_curve`` on the same array.
Both are timed in this one run, interleaved, best of several repeats, so machine load affects both.

    python benchmarks/roc_speed.py [--n 1000000] [--repeats 7]
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import best_time

from ccreport.analysis.envelope import lower_envelope, operating_range
from ccreport.analysis.roc import roc_points


def ccreport_pipeline(y, s):
    roc = roc_points(y, s)
    env = lower_envelope(roc)
    return operating_range(env), env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(2006)
    y = rng.random(args.n) < 0.3
    cases = {
        "continuous binormal scores": rng.normal(np.where(y, 1.0, 0.0), 1.0),
        "scores rounded to 3 decimals (ties)": np.round(rng.normal(np.where(y, 1.0, 0.0), 1.0), 3),
    }
    print(f"n = {args.n:,}, best of {args.repeats}")
    for name, s in cases.items():
        ccreport_pipeline(y, s), roc_curve(y, s)  # warm up
        ours = best_time(ccreport_pipeline, y, s, repeats=args.repeats)
        theirs = best_time(roc_curve, y, s, repeats=args.repeats)
        _, env = ccreport_pipeline(y, s)
        print(
            f"{name}: ccreport roc+hull+envelope+range {ours * 1e3:.1f} ms, "
            f"sklearn roc_curve {theirs * 1e3:.1f} ms, ratio {ours / theirs:.2f}x "
            f"(goal <= 1.2x); envelope vertices {env.pc.size}"
        )


if __name__ == "__main__":
    main()
