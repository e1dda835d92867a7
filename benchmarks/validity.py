"""Bootstrap validity by simulation: coverage of the cost-curve bands on binormal data.

Binormal data with known true curves (negatives N(0, 1), positives N(d', 1)); for each simulated data
set we build the bands exactly as a report does (``ccreport.analysis.bootstrap`` and ``bands``) and check whether
they cover two targets (issue 4):

(a) the true cost of the classifier *as selected on the data*: at each PC(+) the sample's lower
    envelope picks a hull vertex, i.e. a score threshold; its true cost there is
    ``pc Phi(t - d') + (1 - pc) (1 - Phi(t))`` (D&H 2006 section 5.2: thresholds fixed);
(b) the true optimal cost curve, ``min_t`` of the same, at ``t* = d'/2 + ln((1 - pc)/pc) / d'``.

Pointwise coverage is read at PC(+) = 0.3, 0.5, 0.7; simultaneous coverage over the whole grid.
The report's band is the optimism-corrected band, double-bootstrap calibrated when
``calibration.wanted("auto", n)`` (as a report with the default ``calibration = "auto"``).

    PYTHONPATH=. python benchmarks/validity.py [--sizes 200 1000] [--datasets 200] [--replicates 1000] [--write]

``--write`` replaces the section "Bootstrap validity" of benchmarks/README.md with the table.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy.special import ndtr

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ccreport.analysis import calibration as cb  # noqa: E402
from ccreport.analysis import bands  # noqa: E402
from ccreport.analysis import bootstrap  # noqa: E402
from ccreport.analysis import hull_costs  # noqa: E402
from ccreport.analysis.roc import roc_points  # noqa: E402

POINTS = (0.3, 0.5, 0.7)
METHODS = ("report", "optimism", "percentile", "basic", "fixed")
SIMULTANEOUS = ("report", "optimism", "basic")


def true_cost(t, pc, d):
    """True normalized expected cost of the rule 'positive iff score >= t' at PC(+) = pc."""
    return pc * ndtr(t - d) + (1.0 - pc) * (1.0 - ndtr(t))


def true_optimal(pc, d):
    pc = np.asarray(pc, dtype=float)
    out = np.minimum(pc, 1.0 - pc)
    inner = (pc > 0) & (pc < 1)
    p = pc[inner]
    t = d / 2.0 + np.log((1.0 - p) / p) / d
    out[inner] = true_cost(t, p, d)
    return out


def one_dataset(rng, n, d, prevalence, replicates, level, grid):
    y = rng.random(n) < prevalence
    while y.all() or not y.any():
        y = rng.random(n) < prevalence
    s = rng.normal(size=n) + d * y
    res = bootstrap.bootstrap_scores(rng, y, s, replicates, grid=grid)
    layout = res.layout
    roc = roc_points(y, s)
    sample = bootstrap.sample_hull(layout)
    switches = hull_costs.switches(sample)
    vertex = np.searchsorted(switches, grid, side="left")
    thresholds = roc.thresholds[layout.hull[vertex]]
    thresholds = np.where(layout.hull[vertex] == layout.n_points - 1, -np.inf, thresholds)  # all positive
    # +inf (all negative) costs pc and -inf (all positive) 1 - pc: true_cost handles both
    target_a = true_cost(thresholds, grid, d)
    target_b = true_optimal(grid, d)
    fixed = bootstrap.bootstrap_scores(rng, y, s, replicates, grid=grid, selection="fixed")
    if cb.wanted("auto", n):
        cal = cb.calibrate(rng, res.layout, level, grid=grid)
    else:
        cal = cb.nominal(level, grid.size)
    pointwise = {
        "report": cb.calibrated_band(res.values, cal),
        "optimism": bands.pointwise_band(res.values, level),
        "percentile": bands.pointwise_band(res.raw, level),
        "basic": bands.basic_interval(res.raw, res.estimate, level),
        "fixed": bands.pointwise_band(fixed.raw, level),
    }
    simultaneous = {
        "report": bands.simultaneous_band(res.values, level, scale=cal.sup_scale),
        "optimism": bands.simultaneous_band(res.values, level),
        "basic": bands.simultaneous_band(res.raw, level, center=2 * res.estimate - res.raw.mean(axis=0)),
    }
    tol = 1e-12
    out = {}
    for name, (lo, hi) in pointwise.items():
        out[("a", name)] = (lo - tol <= target_a) & (target_a <= hi + tol)
        out[("b", name)] = (lo - tol <= target_b) & (target_b <= hi + tol)
    inner = (grid > 0) & (grid < 1)  # at PC(+) = 0 and 1 every curve is a trivial classifier's 0
    for name, (lo, hi) in simultaneous.items():
        ok_a = (lo - tol <= target_a) & (target_a <= hi + tol)
        ok_b = (lo - tol <= target_b) & (target_b <= hi + tol)
        out[("sim_a", name)] = bool(np.all(ok_a[inner]))
        out[("sim_b", name)] = bool(np.all(ok_b[inner]))
    lo, hi = pointwise["report"]
    out[("a_above", "report")] = target_a > hi + tol
    out[("a_below", "report")] = target_a < lo - tol
    out["bias"] = res.estimate - target_b
    out["width"] = hi - lo
    return out


def simulate(n, datasets, replicates=1000, level=0.9, d=1.0, prevalence=0.5, seed=2006):
    """Coverage table for one sample size: {target: {method: coverage at each of POINTS (or overall)}}."""
    grid = hull_costs.GRID
    at = np.array([int(np.argmin(np.abs(grid - p))) for p in POINTS])
    rng = np.random.default_rng([seed, n])
    acc = {}
    bias = np.zeros(grid.size)
    width = np.zeros(grid.size)
    for _ in range(datasets):
        out = one_dataset(rng, n, d, prevalence, replicates, level, grid)
        bias += out.pop("bias")
        width += out.pop("width")
        for key, value in out.items():
            if key[0].startswith("sim"):
                acc[key] = acc.get(key, 0) + int(value)
            else:
                acc[key] = acc.get(key, 0) + value[at].astype(int)
    table = {key: np.asarray(v, dtype=float) / datasets for key, v in acc.items()}
    table["mean_bias"] = bias[at] / datasets
    table["mean_width"] = width[at] / datasets
    return table


def format_table(results, datasets, replicates, level, d, prevalence, seconds) -> str:
    lines = [
        f"Binormal data, d' = {d}, p(+) = {prevalence}; {datasets} simulated data sets per n, "
        f"{replicates} replicates, {level:.0%} bands; coverage at PC(+) = 0.3 / 0.5 / 0.7, and over the whole open grid 0 < PC(+) < 1 for the simultaneous bands "
        f"({seconds:.0f} s in all). Monte Carlo standard error of a 90% coverage over {datasets} data sets: "
        f"{100 * np.sqrt(0.09 / datasets):.1f} points.",
        "",
        "| n | band | (a) selected classifier's true cost | (b) true optimal curve |",
        "| ---: | --- | --- | --- |",
    ]
    names = {
        "report": "**pointwise, optimism-corrected, calibrated (the report's band)**",
        "optimism": "pointwise, optimism-corrected, not calibrated",
        "percentile": "pointwise percentile of the replicate envelopes",
        "basic": "pointwise basic (reflected) of the replicate envelopes",
        "fixed": "pointwise percentile, sample's thresholds fixed",
    }
    for n, table in results.items():
        for m in METHODS:
            a = " / ".join(f"{100 * v:.0f}%" for v in table[("a", m)])
            b = " / ".join(f"{100 * v:.0f}%" for v in table[("b", m)])
            lines.append(f"| {n} | {names[m]} | {a} | {b} |")
        sim_names = {
            "report": "**simultaneous sup-norm, optimism-corrected, calibrated (the report's)**",
            "optimism": "simultaneous sup-norm, optimism-corrected, not calibrated",
            "basic": "simultaneous sup-norm, basic-centred",
        }
        for m, label in sim_names.items():
            lines.append(
                f"| {n} | {label} (whole curve) | {100 * table[('sim_a', m)]:.0f}% | {100 * table[('sim_b', m)]:.0f}% |"
            )
    lines.append("")
    lines.append(
        "Where the report's band misses target (a) (nominal 5% each side), the mean optimism of the empirical "
        "envelope (estimate minus true optimal cost) and the mean width of the report's pointwise band, at "
        "PC(+) = 0.3 / 0.5 / 0.7:"
    )
    lines.append("")
    lines.append("| n | calibrated | (a) above the band | (a) below the band | envelope minus true optimum | band width |")
    lines.append("| ---: | --- | --- | --- | --- | --- |")
    for n, table in results.items():
        pct = lambda key: " / ".join(f"{100 * v:.1f}%" for v in table[(key, "report")])  # noqa: E731
        b = " / ".join(f"{v:+.4f}" for v in table["mean_bias"])
        w = " / ".join(f"{v:.4f}" for v in table["mean_width"])
        lines.append(f"| {n} | {'yes' if cb.wanted('auto', n) else 'no'} | {pct('a_above')} | {pct('a_below')} | {b} | {w} |")
    return "\n".join(lines)


def write_section(path: Path, title: str, body: str) -> None:
    """Replace (or append) the ``## title`` section of a markdown file, leaving the others alone."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    head = f"## {title}"
    start = text.find(head)
    section = f"{head}\n\n{body.strip()}\n"
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        nxt = text.find("\n## ", start + len(head))
        text = text[:start] + section + ("" if nxt < 0 else text[nxt:])
    path.write_text(text, encoding="utf-8")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[200, 1000, 10000])
    ap.add_argument("--datasets", type=int, default=200)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--level", type=float, default=0.9)
    ap.add_argument("--d", type=float, default=1.0)
    ap.add_argument("--prevalence", type=float, default=0.5)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    results = {}
    for n in args.sizes:
        results[n] = simulate(n, args.datasets, args.replicates, args.level, args.d, args.prevalence)
        print(f"n={n} done at {time.perf_counter() - t0:.0f} s", flush=True)
    body = format_table(results, args.datasets, args.replicates, args.level, args.d, args.prevalence, time.perf_counter() - t0)
    print(body)
    if args.write:
        write_section(Path(__file__).with_name("README.md"), "Bootstrap validity", body)
    return results


if __name__ == "__main__":
    main()
