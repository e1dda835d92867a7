"""Speed of an induced prior's vertex weights: all quadrature nodes at once vs one node at a time
(issue 9).

An induced prior with a random p(+) integrates each interval of PC(+) with a fixed Gauss-Legendre
rule over p(+) (``InducedPrior.vertex_weights``). The loop this replaced called
``interval_weights`` once per node (128 calls per prior per replicate set); it is kept here, from
public functions only, as the reference. Both run interleaved in one process on the same intervals
(the vertex intervals of 1000 bootstrap replicates' hulls), and the weights are compared (bit for
bit until session 13; since the rule is summed once per end point, the largest absolute difference).

    python benchmarks/induced_weights_speed.py
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy import special

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ccreport.analysis.bootstrap import chunk_sizes, cumulative, multinomial_counts, path_layout  # noqa: E402
from ccreport.analysis.hull_costs import vertex_intervals  # noqa: E402
from ccreport.analysis.hulls import replicate_hulls  # noqa: E402
from ccreport.analysis.priors import INDUCED_NODES, Beta, InducedPrior, LogUniform, interval_weights  # noqa: E402


def node_loop(prior: InducedPrior, lo, hi, nodes: int = INDUCED_NODES):
    """The replaced implementation: one call of ``interval_weights`` per quadrature node."""
    u, weights = np.polynomial.legendre.leggauss(nodes)
    ps = np.clip(
        special.betaincinv(prior.p_positive.a, prior.p_positive.b, (u + 1.0) / 2.0),
        1e-300,
        1.0 - 1e-16,
    )
    with np.errstate(divide="ignore"):
        logit_lo, logit_hi = np.log(lo) - np.log1p(-lo), np.log(hi) - np.log1p(-hi)
    wa, wb = np.zeros(lo.size), np.zeros(lo.size)
    for p, w in zip(ps, weights / 2.0):
        a, b = interval_weights(float(p), prior.cost_ratio, lo, hi, logit_lo, logit_hi)
        wa += w * a
        wb += w * b
    return wa, wb


def intervals(n: int, replicates: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + 1.2 * y
    layout = path_layout(y, s)
    los, his = [], []
    for r in chunk_sizes(replicates, n):
        cp = cumulative(multinomial_counts(rng, layout.n_pos, r))
        cn = cumulative(multinomial_counts(rng, layout.n_neg, r))
        h = replicate_hulls(layout, cp, cn)
        lo, hi = vertex_intervals(h)
        los.append(lo)
        his.append(hi)
    return np.concatenate(los), np.concatenate(his)


CASES = (  # (label, n, replicates, nodes)
    ("a band: n = 1000, 1000 replicates", 1000, 1000, INDUCED_NODES),
    ("a calibration chunk: n = 208, 192 x 100 inner replicates", 208, 19_200, 32),
)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    prior = InducedPrior(
        Beta(3.0, 7.0), LogUniform(1.0, 10.0)
    )  # the example project's induced prior
    print("| intervals of | nodes | one node at a time | all nodes at once | ratio | weights |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for label, n, replicates, nodes in CASES:
        lo, hi = intervals(n, replicates)
        rep = np.zeros(
            lo.size, dtype=np.int64
        )  # the rule does not depend on which curve an interval is in
        t_loop = t_vec = np.inf
        for _ in range(args.repeat):  # interleaved, CPU seconds of this process
            t = time.process_time()
            la, lb = node_loop(prior, lo, hi, nodes)
            t_loop = min(t_loop, time.process_time() - t)
            t = time.process_time()
            va, vb = prior.vertex_weights(lo, hi, rep, nodes)
            t_vec = min(t_vec, time.process_time() - t)
        same = la.tobytes() == va.tobytes() and lb.tobytes() == vb.tobytes()
        diff = max(float(np.max(np.abs(la - va))), float(np.max(np.abs(lb - vb))))
        print(
            f"| {label} ({lo.size:,} intervals) | {nodes} | {t_loop * 1e3:.0f} ms | "
            f"{t_vec * 1e3:.0f} ms "
            f"| {t_loop / t_vec:.1f}x | "
            f"{'identical bit for bit' if same else f'max abs diff {diff:.3g}'} |"
        )


if __name__ == "__main__":
    main()
