"""Coverage of the expected-cost interval, the pointwise band and the hybrid band (issue 33).

One command runs every cell and prints (or ``--write``s into benchmarks/README.md) the table:

    PYTHONPATH=. nice -n 10 python benchmarks/interval_matrix.py [--datasets 300]
        [--cells NAME ...] [--write]

Cells (negatives N(0, 1), positives N(d', 1), d' = 1, exactly half positives unless said):

* ``K=k,n=N``: a scoring classifier whose scores take K distinct values: the binormal score cut into
  K bins at the K-quantiles of the (half-half) mixture, so every bin is equally likely; K = 1000
  at n = 200 is the continuous case. Target of the expected-cost interval (uniform prior): the
  population value, the area under the lower envelope of the K + 1 true ROC points' cost lines,
  computed exactly (:func:`envelope_area`); of the band at PC(+) = 0.05, 0.1, 0.3, 0.5, 0.7, 0.9,
  0.95: the true cost of the threshold the sample's envelope selected there (target (a), what the
  band states it covers) and, for reference, the true optimal cost (the lower envelope, target (b)).
* ``five_values``: the project's validity setting: scores rounded to the five values -1..3
  (``benchmarks/validity.py``), n = 200, p(+) = 0.5 drawn per instance.
* ``crisp``: binormal d' = 2 labelled positive at score >= 1, n = 200 (its band: the binomial band
  of the sample's selection, D&H 2006 section 4.6).
* ``hybrid``: the dataset hybrid of three correlated scorers (d' = 0.8, 1.0, 1.2, correlation 0.5),
  n = 200, p(+) = 0.3 (``benchmarks/hybrid_coverage.py``): its band against the true cost of the
  classifier and threshold the sample hybrid selected, and its expected-cost interval under the
  uniform prior against the same integrated.

Each data set is analysed by the functions ``ccreport build`` and ``ccreport.evaluate`` run
(:func:`ccreport.tasks.bands_task.interval_fields` on the replicates of
:func:`~ccreport.analysis.bootstrap.bootstrap_scores` with ``bootstrap = 1000`` and the calibration
of ``calibration = "auto"``; the hybrid through
:func:`~ccreport.analysis.selection.hybrid_bands.hybrid_inference` on
:func:`~ccreport.analysis.paired_bootstrap.bootstrap_dataset`), without building the project files
around them; the previous method (percentiles of the optimism-corrected replicates, upper edge
calibrated) is read off the same replicates for comparison. Monte-Carlo standard error of a coverage
p over N data sets: sqrt(p (1 - p) / N).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy.optimize import brentq
from scipy.special import ndtr
from scipy.stats import norm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ccreport.analysis import calibration as cb
from ccreport.analysis import selection as sel
from ccreport.analysis.bootstrap import bootstrap_crisp, bootstrap_scores, sample_hull
from ccreport.analysis.hull_costs import GRID, switches
from ccreport.analysis.paired_bootstrap import bootstrap_dataset
from ccreport.analysis.path_layout import path_layout
from ccreport.analysis.priors import UniformPrior
from ccreport.analysis.replicate_groups import group_layout
from ccreport.analysis.roc import roc_points
from ccreport.analysis.selection import hybrid_bands as hb
from ccreport.analysis.selection import hybrid_calibration as hc
from ccreport.tasks import bands_task as uncertainty

D = 1.0
LEVEL = 0.9
REPLICATES = 1000  # the build's default ``bootstrap``
POINTS = (
    0.05,
    0.1,
    0.3,
    0.5,
    0.7,
    0.9,
    0.95,
)  # the issue asks for 0.1-0.9; 0.05 and 0.95 show the ends
AT = np.array([int(np.argmin(np.abs(GRID - p))) for p in POINTS])
BINNED = ((1000, 200), (40, 200), (5, 200), (5, 500), (5, 1000), (2, 200), (2, 500))
CELLS = [f"K={k},n={n}" for k, n in BINNED] + ["five_values", "crisp", "hybrid"]
PRIORS = {"uniform": UniformPrior()}
SECTION = "Interval matrix: every cell"


def mixture_cuts(k: int, d: float = D) -> np.ndarray:
    """The K - 1 cut points splitting the half-half binormal mixture into K equally likely bins."""

    def f(x, q):
        return 0.5 * ndtr(x) + 0.5 * ndtr(x - d) - q

    return np.array([brentq(f, -12.0, 12.0, args=(j / k,)) for j in range(1, k)])


def envelope_area(fpr, fnr) -> float:
    """Exact area under the lower envelope of the cost lines ``fpr + (fnr - fpr) pc`` over [0, 1]
    (the expected cost under the uniform prior, D&H 2006 section 3.2), by walking the envelope
    from PC(+) = 0: the current line is left where the first line of smaller slope crosses it, and
    each piece is integrated in closed form. A second method to the library's hull (no hull, only
    the lines), O(K^2) for K lines."""
    a = np.asarray(fpr, dtype=float)
    b = np.asarray(fnr, dtype=float) - a
    order = np.lexsort((b, a))  # lowest at PC(+) = 0, then the smallest slope
    cur, x, total = int(order[0]), 0.0, 0.0
    while x < 1.0:
        steeper_down = b < b[cur]
        with np.errstate(divide="ignore", invalid="ignore"):
            cross = np.where(steeper_down, (a - a[cur]) / (b[cur] - b), np.inf)
        cross = np.where(cross > x, cross, np.where(steeper_down & (cross <= x), x, np.inf))
        nxt = float(np.min(cross)) if cross.size else np.inf
        end = min(nxt, 1.0)
        total += a[cur] * (end - x) + b[cur] * (end * end - x * x) / 2.0
        if end >= 1.0:
            break
        # among the lines crossing there, the one of smallest slope continues
        at = np.flatnonzero(cross == nxt)
        cur, x = int(at[np.argmin(b[at])]), end
    return float(total)


def _selected_index(y, s, thresholds_to_index):
    """Index (into the population's ROC points) of the threshold the sample's envelope selects at
    each grid PC(+), and at each vertex with its switching points (for the integrated target)."""
    roc = roc_points(y, s)
    layout = path_layout(y, s)
    hull = sample_hull(layout)
    vertex = layout.hull
    idx = thresholds_to_index(roc.thresholds[vertex], vertex == 0, vertex == layout.n_points - 1)
    sw = switches(hull)
    return idx[np.searchsorted(sw, GRID, side="left")], idx, np.concatenate(([0.0], sw, [1.0]))


def _covered(truth, lo, hi, tol=1e-12):
    return np.stack([np.asarray(truth < lo - tol), np.asarray(truth > hi + tol)])  # (below, above)


def scoring_dataset(rng, y, s, tpr, fpr, index_of):
    """Misses (below, above) of both methods for one scoring classifier's data set: the
    expected-cost interval vs the population optimum and vs the selected thresholds' true cost, and
    the band at POINTS vs (a) and (b). ``tpr``/``fpr``: the population's ROC points; ``index_of``:
    sample thresholds -> their indices."""
    rep = bootstrap_scores(rng, y, s, REPLICATES, PRIORS)
    n = y.size
    cal = (
        cb.calibrate(rng, group_layout(path_layout(y, s)), LEVEL, PRIORS, GRID)
        if cb.wanted("auto", n)
        else cb.nominal(LEVEL, GRID.size)
    )
    at_grid, at_vertex, ends = _selected_index(y, s, index_of)
    fnr = 1.0 - tpr
    target_a = fnr[at_grid] * GRID + fpr[at_grid] * (1.0 - GRID)
    target_b = np.min(fnr[:, None] * GRID + fpr[:, None] * (1.0 - GRID), axis=0)
    a, b = fpr[at_vertex], fnr[at_vertex] - fpr[at_vertex]
    area_a = float(np.sum(a * np.diff(ends) + b * np.diff(ends**2) / 2.0))
    area_b = envelope_area(fpr, fnr)
    br = uncertainty.band_replicates(rep)
    new = uncertainty.interval_fields(br, cal, PRIORS)
    old_band = cb.calibrated_band(rep.values, cal)
    old_e = cb.calibrated_interval(rep.expected["uniform"], cal.expected_levels("uniform"))
    new_e = new["expected_cost_interval"]["uniform"]
    # where the sample selects a trivial classifier its target, min(PC(+), 1 - PC(+)), is known
    trivial = (at_grid[AT] == 0) | (at_grid[AT] == tpr.size - 1)
    live = np.where(trivial, np.nan, _covered(target_a, *new["band"])[:, AT])
    # a rate of the selected line counted 0 or all of its class: the resampling cannot vary it
    unseen = br.sd_floor[AT] > 0
    seen = np.where(trivial | unseen, np.nan, live)
    return {
        "e_b": {"new": _covered(area_b, new_e[0], new_e[1]), "old": _covered(area_b, *old_e)},
        "e_a": {"new": _covered(area_a, new_e[0], new_e[1]), "old": _covered(area_a, *old_e)},
        "band_a": {
            "new": _covered(target_a, *new["band"])[:, AT],
            "old": _covered(target_a, *old_band)[:, AT],
        },
        "band_b": {
            "new": _covered(target_b, *new["band"])[:, AT],
            "old": _covered(target_b, *old_band)[:, AT],
        },
        "band_a_live": {"new": live},
        "trivial": {"new": np.stack([trivial, np.zeros_like(trivial)])},
        "unseen": {"new": np.stack([unseen, np.zeros_like(unseen)])},
        "band_a_seen": {"new": seen},
    }


def binned(rng, k: int, n: int):
    cuts = mixture_cuts(k)
    tpr = np.concatenate(([1.0], ndtr(D - cuts), [0.0]))  # point j: positive iff bin >= j
    fpr = np.concatenate(([1.0], ndtr(-cuts), [0.0]))
    y = np.zeros(n, dtype=bool)
    y[: n // 2] = True
    s = np.searchsorted(cuts, rng.normal(size=n) + D * y).astype(float)

    def index_of(thr, none_positive, all_positive):
        j = np.where(np.isfinite(thr), thr, 0.0).astype(int)
        return np.where(none_positive, k, np.where(all_positive, 0, j))

    return scoring_dataset(rng, y, s, tpr, fpr, index_of)


def five_values(rng, n: int = 200):
    y = rng.random(n) < 0.5
    while y.all() or not y.any():
        y = rng.random(n) < 0.5
    s = np.clip(np.round(rng.normal(size=n) + D * y), -1.0, 3.0)
    values = np.arange(-1.0, 4.0)  # "score >= v" is "underlying >= v - 1/2"
    cut = np.concatenate(
        ([-np.inf], values[1:] - 0.5, [np.inf])
    )  # point j: positive iff score >= values[j]
    tpr, fpr = ndtr(D - cut), ndtr(-cut)

    def index_of(thr, none_positive, all_positive):
        j = np.searchsorted(values, np.where(np.isfinite(thr), thr, -1.0))
        return np.where(none_positive, values.size, np.where(all_positive, 0, j))

    return scoring_dataset(rng, y, s, tpr, fpr, index_of)


def crisp(rng, n: int = 200, d: float = 2.0, threshold: float = 1.0):
    y = rng.random(n) < 0.5
    while y.all() or not y.any():
        y = rng.random(n) < 0.5
    pred = rng.normal(size=n) + d * y >= threshold
    rep = bootstrap_crisp(rng, y, pred, REPLICATES, PRIORS)
    tp, fp = np.count_nonzero(pred & y), np.count_nonzero(pred & ~y)
    line = (1 - tp / y.sum()) * GRID + fp / (~y).sum() * (1 - GRID)
    trivial = np.minimum(GRID, 1 - GRID)
    true_line = ndtr(threshold - d) * GRID + ndtr(-threshold) * (1 - GRID)
    target_a = np.where(line < trivial, true_line, trivial)
    target_b = np.minimum(true_line, trivial)
    fields = uncertainty.interval_fields(
        uncertainty.band_replicates(rep), cb.nominal(LEVEL, GRID.size), PRIORS
    )
    band = fields["band"]
    return {
        "band_a": {"new": _covered(target_a, *band)[:, AT]},
        "band_b": {"new": _covered(target_b, *band)[:, AT]},
    }


HYBRID_D = (0.8, 1.0, 1.2)


def hybrid(rng, n: int = 200, prevalence: float = 0.3):
    y = rng.random(n) < prevalence
    shared = rng.normal(size=n)
    scores = {
        f"c{i}": d * y + np.sqrt(0.5) * shared + np.sqrt(0.5) * rng.normal(size=n)
        for i, d in enumerate(HYBRID_D)
    }
    found = sel.dataset_hybrid({k: roc_points(y, s) for k, s in scores.items()})
    reps = bootstrap_dataset(rng, y, scores, None, REPLICATES, PRIORS)
    env = found.envelope
    sample_e = {p: pr.expected(env.pc, env.nec) for p, pr in PRIORS.items()}
    cal = (
        hc.calibrate_hybrid(rng, y, scores, None, list(scores), LEVEL, PRIORS)
        if cb.wanted("auto", n)
        else None
    )
    inf = hb.hybrid_inference(reps, list(scores), PRIORS, sample_e, LEVEL, calibration=cal)
    base = hb.hybrid_inference(reps, list(scores), PRIORS, sample_e, LEVEL)
    d = np.array(HYBRID_D)[found.classifier]
    thr = found.threshold
    tpr = np.where(np.isinf(thr), np.where(thr > 0, 0.0, 1.0), norm.sf(thr - d))
    fpr = np.where(np.isinf(thr), np.where(thr > 0, 0.0, 1.0), norm.sf(thr))
    target = np.empty(GRID.size)
    for j, x in enumerate(GRID):
        k = int(np.flatnonzero((found.low <= x) & (x <= found.high))[0])
        target[j] = (1 - tpr[k]) * x + fpr[k] * (1 - x)
    lo, hi = found.low, found.high
    area = float(np.sum(fpr * (hi - lo) + ((1 - tpr) - fpr) * (hi**2 - lo**2) / 2))
    e, e0 = inf.expected["uniform"], base.expected["uniform"]
    return {
        "band_a": {
            "new": _covered(target, inf.lower, inf.upper)[:, AT],
            "uncalibrated": _covered(target, base.lower, base.upper)[:, AT],
        },
        "e_a": {
            "new": _covered(area, e.lower, e.upper),
            "uncalibrated": _covered(area, e0.lower, e0.upper),
        },
    }


def run_cell(cell: str, datasets: int, seed: int = 33):
    rng = np.random.default_rng([seed, CELLS.index(cell)])
    if cell.startswith("K="):
        k, n = (int(part.split("=")[1]) for part in cell.split(","))

        def one():
            return binned(rng, k, n)

    else:
        one = {
            "five_values": lambda: five_values(rng),
            "crisp": lambda: crisp(rng),
            "hybrid": lambda: hybrid(rng),
        }[cell]
    rows = [one() for _ in range(datasets)]
    out = {}
    for target in rows[0]:
        for method in rows[0][target]:
            misses = np.array([r[target][method] for r in rows], dtype=float)  # (N, 2[, points])
            out[(target, method)] = misses
    return out


def summarise(misses: np.ndarray) -> dict:
    """Coverage, below, above (fractions), the coverage's MC standard error and the number of data
    sets counted, per point; NaN misses (a data set not counted at that point) are left out."""
    with np.errstate(invalid="ignore", divide="ignore"):
        count = np.atleast_1d(np.count_nonzero(~np.isnan(misses[:, 0]), axis=0))
        below = np.atleast_1d(np.nansum(misses[:, 0], axis=0)) / count
        above = np.atleast_1d(np.nansum(misses[:, 1], axis=0)) / count
        cov = 1.0 - below - above
        se = np.sqrt(cov * (1 - cov) / count)
    return {"coverage": cov, "below": below, "above": above, "se": se, "count": count}


NAMES = {
    "e_b": "E[cost], uniform prior, vs the population optimum",
    "e_a": "E[cost], uniform prior, vs the selected thresholds' true cost",
    "band_a": "band vs (a) the selected threshold's true cost",
    "band_b": "band vs (b) the true optimal cost",
    "band_a_live": "band vs (a), only data sets whose sample selects a classifier there (n below)",
    "trivial": "share of data sets whose sample selects a trivial classifier there (in 'below')",
    "unseen": "share of data sets whose selected line has a rate counted 0 or n there (in 'below')",
    "band_a_seen": "band vs (a), only data sets selecting a line with no rate counted 0 or n",
}


def summaries(results: dict) -> dict:
    """{cell: {"target|method": summarise(misses) as lists}}: what ``--json`` writes and
    ``--from-json`` reads back."""
    return {
        c: {
            f"{t}|{m}": {k: np.atleast_1d(v).tolist() for k, v in summarise(x).items()}
            for (t, m), x in r.items()
        }
        for c, r in results.items()
    }


def table(found: dict, datasets: int) -> str:
    """The markdown table of :func:`summaries` ``found``."""
    pts = " / ".join(str(p) for p in POINTS)
    lines = [
        f"{datasets} data sets per cell, {REPLICATES} replicates, 90% intervals (5% each side "
        "nominal). Coverage "
        "± Monte-Carlo s.e., truth below / above the interval (%); bands at PC(+) = " + pts + ". "
        "*new*: studentized (bootstrap-t) optimism-corrected intervals, the upper level "
        "calibrated; *old*: "
        "percentiles of the optimism-corrected replicates (8e32f04's method); hybrid "
        "*uncalibrated*: the same band without the fast double bootstrap. Rows 'share ...' give "
        "a share of all data sets (in the 'below' column).",
        "",
        "| cell | quantity | method | coverage ± s.e. (%) | below (%) | above (%) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for cell, rows in found.items():
        for key, s in rows.items():
            target, method = key.split("|")

            def f(v):
                return " / ".join(f"{100 * x:.1f}" for x in np.atleast_1d(v))

            cov = " / ".join(
                f"{100 * c:.1f} ± {100 * e:.1f}"
                for c, e in zip(np.atleast_1d(s["coverage"]), np.atleast_1d(s["se"]))
            )
            if target in ("trivial", "unseen"):
                cov = "-"
            if target in ("band_a_live", "band_a_seen"):
                cov += " (n = " + " / ".join(str(int(c)) for c in s["count"]) + ")"
            lines.append(
                f"| {cell} | {NAMES[target]} | {method} | {cov} | {f(s['below'])} | "
                f"{f(s['above'])} |"
            )
    return "\n".join(lines).replace("nan ± nan", "-").replace("nan", "-")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", type=int, default=300)
    ap.add_argument("--cells", nargs="+", default=CELLS, choices=CELLS)
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--json", help="also write the per-cell miss rates to this JSON file")
    ap.add_argument("--from-json", help="print (or --write) the table of a --json file; no run")
    ap.add_argument(
        "--write", action="store_true", help="replace the section in benchmarks/README.md"
    )
    args = ap.parse_args(argv)
    if args.from_json:
        found = json.loads(Path(args.from_json).read_text())
        text = table(found, args.datasets)
    else:
        results, started = {}, time.process_time()
        for cell in args.cells:
            t0 = time.process_time()
            results[cell] = run_cell(cell, args.datasets, args.seed)
            print(f"{cell}: {time.process_time() - t0:.1f} CPU s", file=sys.stderr, flush=True)
            if args.json:
                Path(args.json).write_text(json.dumps(summaries(results), indent=1))
        text = table(summaries(results), args.datasets)
        text += f"\n\n{time.process_time() - started:.0f} CPU s in all."
    print(text)
    if args.write:
        from validity import write_section

        write_section(Path(__file__).with_name("README.md"), SECTION, text)


if __name__ == "__main__":
    main()
