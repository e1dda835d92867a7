"""Coverage of the dataset hybrid's band and of its criteria intervals (issue 11 item 6).

Binormal data: negatives N(0, 1), three correlated scorers with positives N(d_c, 1), d = 0.8, 1.0,
1.2 (shared noise, correlation 0.5), n = 200 at p(+) = 0.3. Each data set is resampled once
(bootstrap_dataset, R replicates) and the hybrid's band read off (hybrid_bands.hybrid_inference).
The truth is the population cost of what the *sample* hybrid selected: at PC(+) = x the selected
classifier c and threshold t have cost (1 - tpr) x + fpr (1 - x) with tpr = 1 - Phi(t - d_c),
fpr = 1 - Phi(t); under the uniform prior, the integral of that over the hybrid's segments.
Neyman-Pearson (max_fpr = 0.1): the population cost, at PC(+) = 0.5, of the dataset choice (the
mixture of two thresholds of the classifier chosen on the sample).

Usage: python3 benchmarks/hybrid_coverage.py [datasets] [replicates]   (defaults 200, 200)
Prints miss rates (truth below / above) with Monte Carlo standard errors.
"""

from __future__ import annotations

import sys

import numpy as np
from scipy.stats import norm

from ccreport.analysis import selection as sel
from ccreport.analysis.paired_bootstrap import bootstrap_dataset
from ccreport.analysis.priors import PointPrior, UniformPrior
from ccreport.analysis.roc import roc_points
from ccreport.analysis.selection import hybrid_bands as hb

D = (0.8, 1.0, 1.2)
N, P_POS, LEVEL, ALPHA = 200, 0.3, 0.9, 0.1
XS = (0.2, 0.3, 0.5, 0.7, 0.8)


def one(rng, replicates):
    y = rng.random(N) < P_POS
    shared = rng.normal(size=N)
    scores = {
        f"c{i}": d * y + np.sqrt(0.5) * shared + np.sqrt(0.5) * rng.normal(size=N)
        for i, d in enumerate(D)
    }
    rocs = {n: roc_points(y, s) for n, s in scores.items()}
    hybrid = sel.dataset_hybrid(rocs)
    priors = {"uniform": UniformPrior(), "half": PointPrior(0.5)}
    readers = {n: {"np": hb.neyman_pearson_reader(ALPHA)} for n in scores}
    reps = bootstrap_dataset(rng, y, scores, None, replicates, priors, readers=readers)
    env = hybrid.envelope
    found = {n: sel.neyman_pearson(r, ALPHA) for n, r in rocs.items()}
    inf = hb.hybrid_inference(
        reps,
        list(scores),
        priors,
        {p: pr.expected(env.pc, env.nec) for p, pr in priors.items()},
        LEVEL,
        {"np": {"sample": {n: (c.fpr, c.tpr) for n, c in found.items()}}},
    )
    d = np.array(D)[hybrid.classifier]
    t = hybrid.threshold
    tpr = np.where(np.isinf(t), 0.0, norm.sf(t - d))
    fpr = np.where(np.isinf(t), 0.0, norm.sf(t))
    out = []
    for x in XS:
        k = int(np.flatnonzero((hybrid.low <= x) & (x <= hybrid.high))[0])
        truth = (1 - tpr[k]) * x + fpr[k] * (1 - x)
        j = int(np.argmin(np.abs(inf.grid - x)))
        out.append((truth < inf.lower[j] - 1e-12, truth > inf.upper[j] + 1e-12))
    lo, hi = hybrid.low, hybrid.high
    true_area = float(np.sum(fpr * (hi - lo) + ((1 - tpr) - fpr) * (hi**2 - lo**2) / 2))
    e = inf.expected["uniform"]
    out.append((true_area < e.lower, true_area > e.upper))
    best = inf.criteria["np"]["dataset_classifier"]
    ch = found[best]
    m = ch.mix
    di = D[int(best[1:])]
    th = np.asarray(m.thresholds, float)
    w = np.array([m.weight_first, 1 - m.weight_first])
    t_tpr = float(np.sum(w * np.where(np.isinf(th), 0.0, norm.sf(th - di))))
    t_fpr = float(np.sum(w * np.where(np.isinf(th), 0.0, norm.sf(th))))
    truth = (1 - t_tpr) * 0.5 + t_fpr * 0.5
    c = inf.criteria["np"]["dataset"]["half"]
    out.append((truth < c.lower, truth > c.upper))
    return out


def main(datasets=200, replicates=200):
    rng = np.random.default_rng(2006)
    rows = np.array(
        [one(rng, replicates) for _ in range(datasets)], dtype=float
    )  # (datasets, cells, 2)
    names = [f"band at PC(+) = {x}" for x in XS] + [
        "E[cost] uniform",
        "Neyman-Pearson choice at PC(+) = 0.5",
    ]
    print(
        f"n = {N}, {datasets} data sets, R = {replicates}, nominal {100 * LEVEL:.0f}% (5% "
        "each side)"
    )
    for name, (below, above) in zip(names, rows.mean(axis=0)):
        se = lambda p: np.sqrt(p * (1 - p) / datasets)  # noqa: E731
        cover = 1 - below - above
        print(
            f"{name:40s} coverage {100 * cover:5.1f} +- {100 * se(cover):.1f}%   truth below "
            f"{100 * below:4.1f}%"
            f"   above {100 * above:4.1f}%"
        )


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
