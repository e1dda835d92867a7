"""Cost of the double-bootstrap calibration of a scoring classifier's band (issue 4).

For n = 200, 1000 and 10,000 binormal instances, the wall-clock time of the band's own stratified
bootstrap (1000 replicates: envelopes, optimism correction, expected costs under three priors) and
of its calibration (``ccreport.analysis.calibration.calibrate``: OUTER x INNER replicates, 200
x 50), best of ``--repeat`` runs, one process.

    PYTHONPATH=. python benchmarks/calibration_speed.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ccreport.analysis import bootstrap  # noqa: E402
from ccreport.analysis import calibration as cb  # noqa: E402
from ccreport.analysis.priors import BetaPrior, PointPrior, UniformPrior  # noqa: E402

PRIORS = {"uniform": UniformPrior(), "beta": BetaPrior(2.0, 5.0), "point": PointPrior(0.3)}


def best_of(repeat, fn):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[200, 1000, 10000])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    print(
        f"| n | band, 1000 replicates | calibration, {cb.OUTER} x {cb.INNER} | calibration / "
        'band | calibrated by "auto" |'
    )
    print("| ---: | ---: | ---: | ---: | --- |")
    for n in args.sizes:
        rng = np.random.default_rng(n)
        y = rng.random(n) < 0.5
        s = rng.normal(size=n) + y
        band = best_of(
            args.repeat,
            lambda rng=rng, y=y, s=s: bootstrap.bootstrap_scores(rng, y, s, 1000, PRIORS),
        )
        layout = bootstrap.path_layout(y, s)
        cal = best_of(
            args.repeat, lambda rng=rng, layout=layout: cb.calibrate(rng, layout, 0.9, PRIORS)
        )
        auto = "yes" if cb.wanted("auto", n) else "no"
        print(f"| {n} | {band:.3f} s | {cal:.3f} s | {cal / band:.1f}x | {auto} |", flush=True)


if __name__ == "__main__":
    main()
