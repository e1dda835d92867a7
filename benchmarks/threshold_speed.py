"""All seven threshold-choice curves and their areas for 10^6 scores, against sklearn's roc_curve.

Goal (issue 12): at most 1.5x the time of ``sklearn.metrics.roc_curve`` on the same array. Ours is
timed from the raw arrays (the one sort included): ``threshold_choice`` on both axes with two
partial ranges, i.e. ROC points, hull, and the optimal, Brier, rate-driven, perfect-ranker, Kendall,
skull and Kendall-skull curves with their exact areas and partial areas. Both are timed in this one
run, interleaved, best of several repeats. Also reported, not part of the goal: turning every curve
into drawing points (``to_dict``'s polylines), and the vectorised replicate areas.

    python benchmarks/threshold_speed.py [--n 1000000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from timing import best_time

from ccreport.analysis.bootstrap import cumulative, multinomial_counts, path_layout
from ccreport.analysis.roc import roc_points
from ccreport.analysis.threshold_choice import threshold_choice
from ccreport.analysis.threshold_replicates import replicate_areas

RANGES = ((0.1, 0.5), (0.5, 0.9))


def ours(y, s):
    return threshold_choice(y, s, partial_ranges=RANGES)


def polylines(tc):
    return sum(
        m.curve.polyline()[0].size
        for by in tc.methods.values()
        for m in by.values()
        if m.curve is not None
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--replicate-n", type=int, default=10_000)
    args = parser.parse_args()
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(2013)
    y = rng.random(args.n) < 0.3
    latent = rng.normal(np.where(y, 1.0, 0.0), 1.0)
    probabilities = 1.0 / (1.0 + np.exp(-latent))  # in (0, 1): the Brier curve applies
    cases = {
        "continuous probability scores": probabilities,
        "probabilities rounded to 3 decimals (ties)": np.round(probabilities, 3),
    }
    print(f"n = {args.n:,}, best of {args.repeats}")
    for name, s in cases.items():
        ours(y, s), roc_curve(y, s)  # warm up
        t_ours, t_sk = [], []
        for _ in range(args.repeats):  # interleaved
            t_ours.append(best_time(ours, y, s, repeats=1))
            t_sk.append(best_time(roc_curve, y, s, repeats=1))
        a, b = min(t_ours), min(t_sk)
        tc = ours(y, s)
        t_roc = best_time(roc_points, y, s, repeats=args.repeats)
        started = time.perf_counter()
        points = polylines(tc)
        t_draw = time.perf_counter() - started
        print(
            f"{name}: ccreport 7 curves x 2 axes + areas + partial areas {a * 1e3:.1f} ms "
            f"(of which roc_points {t_roc * 1e3:.1f} ms), sklearn roc_curve {b * 1e3:.1f} ms, "
            f"ratio {a / b:.2f}x (goal <= 1.5x); drawing points for all 14 curves "
            f"{t_draw * 1e3:.0f} ms "
            f"({points:,} points)"
        )

    n = args.replicate_n
    yr = y[:n]
    sr = np.round(probabilities[:n], 3)
    layout = path_layout(yr, sr)
    roc = roc_points(yr, sr)
    reps = args.replicates
    cp = cumulative(multinomial_counts(rng, layout.n_pos, reps))
    cn = cumulative(multinomial_counts(rng, layout.n_neg, reps))
    tp, fp = cp[:, layout.pos_at], cn[:, layout.neg_at]

    def replicate_run():
        return replicate_areas(tp, fp, scores=roc.thresholds[1:], partial_ranges=RANGES)

    replicate_run()
    t_rep = best_time(replicate_run, repeats=3)
    print(
        f"replicate areas: n = {n:,} ({roc.thresholds.size - 1:,} distinct scores), {reps} "
        "replicates, "
        f"every area + 2 partial areas x 7 methods x 2 axes: {t_rep * 1e3:.0f} ms "
        f"({t_rep / reps * 1e6:.0f} us per replicate)"
    )


if __name__ == "__main__":
    main()
