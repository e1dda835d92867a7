"""CPU cost of one resampling per dataset (issue 9 item 1): k scoring classifiers, all pairs.

``bootstrap_dataset`` (every classifier on the same 1000 replicates) + ``dataset_inference``
(family-wise test, pointwise band, p-values and Holm for all k (k - 1) / 2 pairs and 2 priors),
against the previous design's cost of one paired bootstrap per pair (``bootstrap_pair``, timed on
a few pairs and multiplied out). Optionally the double-bootstrap scale of every pair
(``calibrate_pairs``, 200 x 100). CPU seconds (``time.process_time``), one process.

    PYTHONPATH=. python benchmarks/pairs_speed.py [--k 32] [--n 1000] [--calibrate]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ccreport.analysis.pair_calibration import calibrate_pairs  # noqa: E402
from ccreport.analysis.paired_bootstrap import bootstrap_dataset, bootstrap_pair  # noqa: E402
from ccreport.analysis.priors import BetaPrior, UniformPrior  # noqa: E402
from ccreport.analysis.significance import dataset_inference  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--k", type=int, default=32)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--calibrate", action="store_true")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(1)
    y = rng.random(args.n) < 0.5
    scores = {
        f"c{i:02d}": rng.normal(size=args.n) + rng.uniform(0.5, 2.0) * y for i in range(args.k)
    }
    priors = {"uniform": UniformPrior(), "beta": BetaPrior(2.0, 5.0)}
    pairs = list(itertools.combinations(scores, 2))
    t0 = time.process_time()
    reps = bootstrap_dataset(np.random.default_rng(2), y, scores, None, args.replicates, priors)
    t1 = time.process_time()
    dataset_inference(reps, pairs, 0.9)
    t2 = time.process_time()
    few = pairs[:3]
    for a, b in few:
        bootstrap_pair(
            np.random.default_rng(3),
            y,
            a_scores=scores[a],
            b_scores=scores[b],
            replicates=args.replicates,
            priors=priors,
        )
    t3 = time.process_time()
    print(f"k = {args.k}, n = {args.n}, {len(pairs)} pairs, {args.replicates} replicates")
    print(f"bootstrap_dataset (all classifiers): {t1 - t0:.2f} CPU s")
    print(f"dataset_inference (all pairs, 2 priors, Holm): {t2 - t1:.2f} CPU s")
    print(f"one resampling per dataset, total: {t2 - t0:.2f} CPU s")
    print(
        f"previous design, a paired bootstrap per pair: {(t3 - t2) / len(few):.2f} CPU s per pair, "
        f"{(t3 - t2) / len(few) * len(pairs):.0f} CPU s for all pairs (extrapolated from "
        f"{len(few)})"
    )
    if args.calibrate:
        t4 = time.process_time()
        calibrate_pairs(np.random.default_rng(4), y, scores, None, pairs, 0.9)
        print(f"calibrate_pairs (200 x 100, all pairs): {time.process_time() - t4:.2f} CPU s")


if __name__ == "__main__":
    main()
