"""Two crisp classifiers' family-wise test: which process to studentize by (issue 10, third pass).

A crisp classifier's curve is its cost line clipped by the trivial classifiers,
``T = min(fnr pc + fpr (1 - pc), pc, 1 - pc)``, and a pair is judged on ``d = T_a - T_b``. This
script compares, on the same simulated data sets and the same paired replicates (the 3-D confusion
matrix's 4-cell multinomial per class, D&H 2006 section 4.7, as ``bootstrap_dataset`` draws it for
two crisp classifiers), the family-wise test over the claim family (``significance.claim_family``)
studentized and calibrated by:

* ``envelope``: d's own replicates (the build before this pass);
* ``envelope_quarter``: the same with the quarter-lattice-step continuity allowance added to |d|
  (the build of the second pass);
* ``lines``: the bare cost lines' difference, claims read off the lines (not a test of d: a line may
  be below another where both classifiers are the trivial ones);
* ``build``: d judged against the lines' band (``significance.family_wise`` with
  ``reference=crisp_reference``, the build now).

Settings (``SPECS``; binormal scores, negatives N(0, 1), positives N(d', 1), labelled positive at
the threshold; p(+) = 0.5; ``--rho`` the share of noise variance the two scorers have in common):
``null`` both d' = 2 at 1 (identical curves); ``partial`` d' = 2 at 1 against d' = 1 at 0.5 (a is
better inside its operating range, the curves are equal outside it); ``alt_small`` d' = 2.2 at 1.1
against d' = 2 at 1. Per variant: the share of data sets with any claim (confidence 0.8 / 0.9 /
0.95), with a false claim at 0.9 (a claimed PC(+) where the true difference is 0 or of the other
sign), with a true claim at 0.9.

    PYTHONPATH=. python benchmarks/crisp_pairs.py --spec null --rho 0.5 --n 1000 \
        --datasets 1000 --seed 3
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy.stats import norm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ccreport.analysis import significance as sg  # noqa: E402
from ccreport.analysis.bands import studentizing_sd  # noqa: E402
from ccreport.analysis.hull_costs import GRID  # noqa: E402

TRIVIAL = np.minimum(GRID, 1 - GRID)
SPECS = {
    "null": (2, 1, 2, 1),
    "partial": (2, 1, 1, 0.5),
    "alt_small": (2.2, 1.1, 2, 1),
}  # d'_a, thr_a, d'_b, thr_b
VARIANTS = ("envelope", "envelope_quarter", "lines", "build")
LEVELS = (0.8, 0.9, 0.95)
QUARTER = (
    0.25  # the second pass's allowance: a quarter of the lattice step pc / n_pos + (1 - pc) / n_neg
)


def true_curve(dprime: float, threshold: float) -> np.ndarray:
    fnr, fpr = norm.cdf(threshold - dprime), norm.sf(threshold)
    return np.minimum(GRID * fnr + (1 - GRID) * fpr, TRIVIAL)


def curves(fnr, fpr):
    """(envelopes, lines) on the grid of rates (R,)."""
    line = np.multiply.outer(fnr, GRID) + np.multiply.outer(fpr, 1 - GRID)
    return np.minimum(line, TRIVIAL), line


def claims(ref_star, ref, judge, family, level, allowance=0.0) -> np.ndarray:
    """Grid points where |judge| (+ allowance where judge != 0) exceeds c s, s and c from ref's
    replicates."""
    sd = np.where(family, studentizing_sd(ref_star.std(axis=0, ddof=1)), 0.0)
    live = sd > 0
    if not live.any():
        return np.zeros(GRID.size, bool)
    c = np.quantile((np.abs(ref_star - ref)[:, live] / sd[live]).max(axis=1), level)
    return live & (np.abs(judge) + np.where(judge != 0, allowance, 0.0) > c * sd)


def one(rng, spec: str, rho: float, n: int, truth: np.ndarray, replicates: int) -> dict:
    y = rng.random(n) < 0.5
    common = rng.normal(size=n)
    noise_a, noise_b = (
        np.sqrt(rho) * common + np.sqrt(1 - rho) * rng.normal(size=n) for _ in range(2)
    )
    da, ta, db, tb = SPECS[spec]
    pa, pb = noise_a + da * y >= ta, noise_b + db * y >= tb
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    cells, draws = {}, {}
    for cls, m in ((True, n_pos), (False, n_neg)):
        k = y == cls
        cells[cls] = np.array(
            [
                np.count_nonzero(k & (pa == i) & (pb == j))
                for i in (True, False)
                for j in (True, False)
            ],
            float,
        )
        draws[cls] = rng.multinomial(
            m, cells[cls] / m, size=replicates
        )  # columns (1,1) (1,0) (0,1) (0,0)

    def rates(cp, cn):
        return (
            1 - (cp[..., 0] + cp[..., 1]) / n_pos,
            (cn[..., 0] + cn[..., 1]) / n_neg,
            1 - (cp[..., 0] + cp[..., 2]) / n_pos,
            (cn[..., 0] + cn[..., 2]) / n_neg,
        )

    s, r = rates(cells[True], cells[False]), rates(draws[True], draws[False])
    ta_, la = (v[0] for v in curves(np.array([s[0]]), np.array([s[1]])))
    tb_, lb = (v[0] for v in curves(np.array([s[2]]), np.array([s[3]])))
    ra, rla = curves(r[0], r[1])
    rb, rlb = curves(r[2], r[3])
    d, d_star, line, line_star = ta_ - tb_, ra - rb, la - lb, rla - rlb
    family = sg.claim_family(ta_, tb_, GRID)
    quarter = QUARTER * (GRID / n_pos + (1 - GRID) / n_neg)
    sign_truth = np.sign(np.round(truth, 12))
    out = {}
    for level in LEVELS:
        fw = sg.family_wise(d_star, d, level, GRID, family=family, reference=(line_star, line))
        masks = {
            "envelope": claims(d_star, d, d, family, level),
            "envelope_quarter": claims(d_star, d, d, family, level, quarter),
            "lines": claims(line_star, line, line, family, level),
            "build": (fw.upper > fw.lower)
            & ((fw.lower > 0) | (fw.upper < 0)),  # as its `significant`: where s > 0
        }
        for name, m in masks.items():
            judged = line if name == "lines" else d
            out[f"{name}_any_{level}"] = bool(m.any())
            out[f"{name}_false_{level}"] = bool((m & (np.sign(judged) != sign_truth)).any())
            out[f"{name}_true_{level}"] = bool(
                (m & (np.sign(judged) == sign_truth) & (sign_truth != 0)).any()
            )
    return out


def fmt(values) -> str:
    p = float(np.mean(values))
    return f"{100 * p:.1f} ± {100 * np.sqrt(p * (1 - p) / len(values)):.1f}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spec", choices=sorted(SPECS), default="null")
    ap.add_argument("--rho", type=float, default=0.0)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--datasets", type=int, default=1000)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    rng = np.random.default_rng([args.seed, args.n, int(args.rho * 10)])
    truth = true_curve(*SPECS[args.spec][:2]) - true_curve(*SPECS[args.spec][2:])
    rows = [
        one(rng, args.spec, args.rho, args.n, truth, args.replicates) for _ in range(args.datasets)
    ]
    print(
        f"| {args.spec} | {args.rho} | {args.n} | {args.datasets} | variant | any claim, 0.8 "
        "/ 0.9 / 0.95 (%) | false claim, 0.9 (%) | true claim, 0.9 (%) |"
    )
    for v in VARIANTS:
        anys = " / ".join(fmt([r[f"{v}_any_{lv}"] for r in rows]) for lv in LEVELS)
        print(
            f"| | | | | {v} | {anys} | {fmt([r[f'{v}_false_0.9'] for r in rows])} | "
            f"{fmt([r[f'{v}_true_0.9'] for r in rows])} |"
        )
    return rows


if __name__ == "__main__":
    main()
