"""Bootstrap validity by simulation: coverage of the cost-curve bands on binormal data.

Binormal data with known true curves (negatives N(0, 1), positives N(d', 1)); for each simulated
data set we build the bands exactly as a report does (``ccreport.analysis.bootstrap`` and ``bands``)
and check whether they cover two targets (issue 4):

(a) the true cost of the classifier *as selected on the data*: at each PC(+) the sample's lower
    envelope picks a hull vertex, i.e. a score threshold; its true cost there is
    ``pc Phi(t - d') + (1 - pc) (1 - Phi(t))`` (D&H 2006 section 5.2: thresholds fixed);
(b) the true optimal cost curve, ``min_t`` of the same, at ``t* = d'/2 + ln((1 - pc)/pc) / d'``.

Pointwise coverage is read at PC(+) = 0.3, 0.5, 0.7; simultaneous coverage over the whole grid.
The report's band ("report") is the one a report prints (:func:`report_band`): optimism-corrected,
studentized (bootstrap-t) with the upper level double-bootstrap calibrated when
``calibration.wanted("auto", n)`` (as a report with the default ``calibration = "auto"``);
"optimism" is the percentile band of the same corrected replicates, uncalibrated.

    PYTHONPATH=. python benchmarks/validity.py [--sizes 200 1000] [--datasets 200]
        [--replicates 1000] [--write]

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

from ccreport.analysis import (  # noqa: E402
    bands,  # noqa: E402
    bootstrap,
    hull_costs,  # noqa: E402
    paired_bootstrap,
)
from ccreport.analysis import calibration as cb  # noqa: E402
from ccreport.analysis.roc import roc_points  # noqa: E402
from ccreport.tasks import bands_task  # noqa: E402

POINTS = (0.3, 0.5, 0.7)
METHODS = ("report", "optimism", "percentile", "basic", "fixed")
SIMULTANEOUS = ("report", "optimism", "basic")


def report_band(rep, cal):
    """The pointwise band a report prints for replicates ``rep`` at the levels ``cal``: studentized
    for a scoring classifier (with the basic-bootstrap lower end for few distinct scores and the
    binomial upper bound), percentiles for a crisp one
    (:func:`ccreport.tasks.bands_task.interval_fields`)."""
    return bands_task.interval_fields(bands_task.band_replicates(rep), cal, {})["band"]


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


def one_dataset(rng, n, d, prevalence, replicates, level, grid, max_groups=None, data_rng=None):
    """Coverage indicators of one simulated data set. ``max_groups``: the replicates' score-group
    bound (default the library's); ``data_rng``: draw the data from this generator (default
    ``rng``)."""
    data_rng = rng if data_rng is None else data_rng
    y = data_rng.random(n) < prevalence
    while y.all() or not y.any():
        y = data_rng.random(n) < prevalence
    s = data_rng.normal(size=n) + d * y
    groups = {} if max_groups is None else {"max_groups": max_groups}
    # the report's band: the dataset's one resampling (issue 9 item 1; for one classifier the same
    # procedure as bootstrap_scores, tests/analysis/test_resampling.py), calibrated from another
    # generator
    res = paired_bootstrap.bootstrap_dataset(
        rng, y, {"s": s}, replicates=replicates, grid=grid, **groups
    ).classifiers["s"]
    layout = res.layout.fine if res.layout.grouped else res.layout  # the sample's exact selection
    roc = roc_points(y, s)
    sample = bootstrap.sample_hull(layout)
    switches = hull_costs.switches(sample)
    vertex = np.searchsorted(switches, grid, side="left")
    thresholds = roc.thresholds[layout.hull[vertex]]
    thresholds = np.where(
        layout.hull[vertex] == layout.n_points - 1, -np.inf, thresholds
    )  # all positive
    # +inf (all negative) costs pc and -inf (all positive) 1 - pc: true_cost handles both
    target_a = true_cost(thresholds, grid, d)
    target_b = true_optimal(grid, d)
    fixed = bootstrap.bootstrap_scores(
        rng, y, s, replicates, grid=grid, selection="fixed", **groups
    )
    if cb.wanted("auto", n):
        cal = cb.calibrate(rng, res.layout, level, grid=grid)
    else:
        cal = cb.nominal(level, grid.size)
    pointwise = {
        "report": report_band(res, cal),
        "optimism": bands.pointwise_band(res.values, level),
        "percentile": bands.pointwise_band(res.raw, level),
        "basic": bands.basic_interval(res.raw, res.estimate, level),
        "fixed": bands.pointwise_band(fixed.raw, level),
    }
    simultaneous = {
        "report": bands.simultaneous_band(res.values, level, scale=cal.sup_scale),
        "optimism": bands.simultaneous_band(res.values, level),
        "basic": bands.simultaneous_band(
            res.raw, level, center=2 * res.estimate - res.raw.mean(axis=0)
        ),
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
    out[("a_above", "optimism")] = (
        target_a > pointwise["optimism"][1] + tol
    )  # the same band uncalibrated
    out["bias"] = res.estimate - target_b
    out["width"] = hi - lo
    return out


def simulate(n, datasets, replicates=1000, level=0.9, d=1.0, prevalence=0.5, seed=2006):
    """Coverage table for one sample size: {target: {method: coverage at each of POINTS (or
    overall)}}."""
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


def grouping_check(
    n, datasets, groups, replicates=1000, level=0.9, d=1.0, prevalence=0.5, seed=2009
):
    """Paired coverage of the report's band with exact replicates and with replicates on at most
    ``groups`` score groups (issue 9): the same data sets and the same generator seed for both.
    Returns {"exact"|"grouped"|"difference": {target: (coverage at POINTS, MC standard error)}}."""
    grid = hull_costs.GRID
    at = np.array([int(np.argmin(np.abs(grid - p))) for p in POINTS])
    keys = [
        ("a", "report"),
        ("b", "report"),
        ("sim_a", "report"),
        ("sim_b", "report"),
        ("a", "optimism"),
    ]
    found = {"exact": {k: [] for k in keys}, "grouped": {k: [] for k in keys}}
    for i in range(datasets):
        for name, b in (("exact", 10**9), ("grouped", groups)):
            out = one_dataset(
                np.random.default_rng([seed, n, i, 1]),
                n,
                d,
                prevalence,
                replicates,
                level,
                grid,
                max_groups=b,
                data_rng=np.random.default_rng([seed, n, i]),
            )
            for k in keys:
                v = out[k]
                found[name][k].append(np.atleast_1d(v)[at] if np.ndim(v) else np.array([float(v)]))
        if (i + 1) % 10 == 0:
            print(f"  {i + 1} data sets", file=sys.stderr, flush=True)
    table = {}
    for name in ("exact", "grouped"):
        table[name] = {k: np.array(v, dtype=float) for k, v in found[name].items()}
    table["difference"] = {k: table["grouped"][k] - table["exact"][k] for k in keys}
    return {
        name: {k: (v.mean(axis=0), v.std(axis=0, ddof=1) / np.sqrt(datasets)) for k, v in t.items()}
        for name, t in table.items()
    }


def format_table(results, datasets, replicates, level, d, prevalence, seconds) -> str:
    lines = [
        f"Binormal data, d' = {d}, p(+) = {prevalence}; {datasets} simulated data sets per n, "
        f"{replicates} replicates, {level:.0%} bands; coverage at PC(+) = 0.3 / 0.5 / 0.7, "
        "and over the whole open grid 0 < PC(+) < 1 for the simultaneous bands "
        f"({seconds:.0f} s in all). Monte Carlo standard error of a 90% coverage over "
        f"{datasets} data sets: "
        f"{100 * np.sqrt(0.09 / datasets):.1f} points.",
        "",
        "| n | band | (a) selected classifier's true cost | (b) true optimal curve |",
        "| ---: | --- | --- | --- |",
    ]
    names = {
        "report": "**pointwise, optimism-corrected, studentized, calibrated (the report's band)**",
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
                f"| {n} | {label} (whole curve) | {100 * table[('sim_a', m)]:.0f}% | "
                f"{100 * table[('sim_b', m)]:.0f}% |"
            )
    lines.append("")
    lines.append(
        "Where the report's band misses target (a) (nominal 5% each side), the mean optimism "
        "of the empirical "
        "envelope (estimate minus true optimal cost) and the mean width of the report's "
        "pointwise band, at "
        "PC(+) = 0.3 / 0.5 / 0.7:"
    )
    lines.append("")
    lines.append(
        "| n | calibrated | (a) above the band | (a) below the band | envelope minus true "
        "optimum | band width |"
    )
    lines.append("| ---: | --- | --- | --- | --- | --- |")
    for n, table in results.items():

        def pct(key, table=table):
            return " / ".join(f"{100 * v:.1f}%" for v in table[(key, "report")])

        b = " / ".join(f"{v:+.4f}" for v in table["mean_bias"])
        w = " / ".join(f"{v:.4f}" for v in table["mean_width"])
        lines.append(
            f"| {n} | {'yes' if cb.wanted('auto', n) else 'no'} | {pct('a_above')} | "
            f"{pct('a_below')} | {b} | {w} |"
        )
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


# --- the settings matrix of issue 10 item 5 -------------------------------------------------------

# name -> (p(+), positives' mean, positives' sd, rounded to 5 values, crisp); negatives are N(0, 1)
SETTINGS = {
    "balanced": (0.5, 1.0, 1.0, False, False),
    "imbalanced": (0.1, 1.0, 1.0, False, False),
    "unequal_variances": (0.5, 1.5, 2.0, False, False),
    "five_values": (0.5, 1.0, 1.0, True, False),
    "crisp": (0.5, 2.0, 1.0, False, True),
}
MATRIX_POINTS = (0.2, 0.3, 0.5, 0.7, 0.8)
END_POINTS = (0.05, 0.1, 0.9, 0.95)  # near PC(+) = 0 and 1 (issue 10 item 4)
# crisp: binormal d' = 2 labelled positive iff score >= 1 (cost line 0.159, range 0.16-0.84)
CRISP_THRESHOLD = 1.0


def setting_cost(t, pc, setting: str):
    """True cost of 'positive iff underlying score >= t' in a setting (t = +-inf: the trivial
    ones)."""
    _, mu, sd, _, _ = SETTINGS[setting]
    return pc * ndtr((t - mu) / sd) + (1.0 - pc) * (1.0 - ndtr(t))


def setting_data(rng, setting: str, n: int):
    """(labels, scores or predictions) of one simulated data set of a setting."""
    prevalence, mu, sd, rounded, crisp = SETTINGS[setting]
    y = rng.random(n) < prevalence
    while y.all() or not y.any():
        y = rng.random(n) < prevalence
    s = np.where(y, mu + sd * rng.normal(size=n), rng.normal(size=n))
    if rounded:
        s = np.clip(
            np.round(s), -1.0, 3.0
        )  # 5 distinct values; "score >= k" is "underlying >= k - 1/2"
    if crisp:
        return y, s >= CRISP_THRESHOLD
    return y, s


def matrix_dataset(rng, setting: str, n: int, replicates: int, level: float, grid, reference=None):
    """Coverage of target (a) by the report's band of one classifier in one simulated data set:
    per grid point (covered, above, below) of the pointwise band, and whole-curve coverage of the
    simultaneous band.

    ``reference`` (outer, inner): also calibrate the same band with these numbers of replicates and
    report its coverage under ``ref_*`` keys, a paired comparison on the same data and band
    replicates; both calibrations then draw from their own child generators (``rng.spawn``), so the
    data sets do not depend on how many replicates either calibration draws."""
    y, data = setting_data(rng, setting, n)
    crisp = SETTINGS[setting][4]
    if crisp:
        res = bootstrap.bootstrap_crisp(rng, y, data, replicates, grid=grid)
        cal = cb.nominal(level, grid.size)
        tp, fp = np.count_nonzero(data & y), np.count_nonzero(data & ~y)
        line = (1 - tp / y.sum()) * grid + fp / (~y).sum() * (1 - grid)
        trivial = np.minimum(grid, 1 - grid)
        selected = (
            line < trivial
        )  # the sample's selection: its line where it beats the trivial ones
        target_a = np.where(selected, setting_cost(CRISP_THRESHOLD, grid, setting), trivial)
    else:
        res = bootstrap.bootstrap_scores(rng, y, data, replicates, grid=grid)
        layout = res.layout
        roc = roc_points(y, data)
        switches = hull_costs.switches(bootstrap.sample_hull(layout))
        vertex = layout.hull[np.searchsorted(switches, grid, side="left")]
        thresholds = roc.thresholds[vertex]
        if SETTINGS[setting][3]:
            thresholds = thresholds - 0.5
        thresholds = np.where(vertex == layout.n_points - 1, -np.inf, thresholds)  # all positive
        target_a = setting_cost(thresholds, grid, setting)
        if reference is None:
            cal = (
                cb.calibrate(rng, layout, level, grid=grid)
                if cb.wanted("auto", n)
                else cb.nominal(level, grid.size)
            )
        else:
            own, other = rng.spawn(2)
            cal = (
                cb.calibrate(own, layout, level, grid=grid)
                if cb.wanted("auto", n)
                else cb.nominal(level, grid.size)
            )
            ref = cb.calibrate(
                other, layout, level, grid=grid, outer=reference[0], inner=reference[1]
            )
    out = _coverage(res, cal, target_a, level, grid)
    if reference is not None:
        ref = ref if not crisp else cal
        out.update({"ref_" + k: v for k, v in _coverage(res, ref, target_a, level, grid).items()})
    return out


def _coverage(res, cal, target_a, level, grid):
    lo, hi = report_band(res, cal)
    slo, shi = bands.simultaneous_band(res.values, level, scale=cal.sup_scale)
    tol = 1e-12
    inner = (grid > 0) & (grid < 1)
    return {
        "covered": (lo - tol <= target_a) & (target_a <= hi + tol),
        "above": target_a > hi + tol,
        "below": target_a < lo - tol,
        "simultaneous": bool(np.all(((slo - tol <= target_a) & (target_a <= shi + tol))[inner])),
        "upper": cal.upper,
        "sup_scale": cal.sup_scale,
    }


def matrix(
    settings, sizes, datasets, replicates=1000, level=0.9, seed=2010, out=None, reference=None
):
    """Run the matrix; one JSON line per (setting, n, data set) to ``out`` when given."""
    import json

    grid = hull_costs.GRID
    at = [int(np.argmin(np.abs(grid - p))) for p in MATRIX_POINTS]
    ends = [int(np.argmin(np.abs(grid - p))) for p in END_POINTS]
    rows = []
    for setting in settings:
        for n in sizes:
            rng = np.random.default_rng([seed, n, list(SETTINGS).index(setting)])
            for i in range(datasets):
                r = matrix_dataset(rng, setting, n, replicates, level, grid, reference)
                row = {"setting": setting, "n": n, "i": i}
                for pre in ("", "ref_") if reference else ("",):
                    row[pre + "simultaneous"] = r[pre + "simultaneous"]
                    row.update(
                        {
                            pre + k: r[pre + k][at].astype(int).tolist()
                            for k in ("covered", "above", "below")
                        }
                    )
                    row[pre + "covered_ends"] = r[pre + "covered"][ends].astype(int).tolist()
                    row[pre + "upper"] = np.round(r[pre + "upper"][at], 5).tolist()
                    row[pre + "sup_scale"] = round(float(r[pre + "sup_scale"]), 5)
                rows.append(row)
                if out:
                    with open(out, "a", encoding="utf-8") as fh:
                        fh.write(json.dumps(row) + "\n")
    return rows


def matrix_table(rows) -> str:
    """Coverage (%) with Monte-Carlo standard errors, per setting and n."""
    groups = {}
    for r in rows:
        groups.setdefault((r["setting"], r["n"]), []).append(r)
    pts = " / ".join(str(p) for p in MATRIX_POINTS)
    lines = [
        f"| setting | n | data sets | pointwise coverage of (a) at PC(+) = {pts} (%) | above "
        "/ below the band, pooled (%) "
        "| simultaneous, whole curve (%) |",
        "| --- | ---: | ---: | --- | --- | --- |",
    ]

    def pct(v):
        v = np.asarray(v, dtype=float)
        p = v.mean()
        return f"{100 * p:.1f} ± {100 * np.sqrt(p * (1 - p) / v.size):.1f}"

    for (setting, n), rs in sorted(
        groups.items(), key=lambda kv: (list(SETTINGS).index(kv[0][0]), kv[0][1])
    ):
        cov = np.array([r["covered"] for r in rs])
        above = np.array([r["above"] for r in rs]).mean()
        below = np.array([r["below"] for r in rs]).mean()
        cells = " / ".join(pct(cov[:, j]) for j in range(cov.shape[1]))
        lines.append(
            f"| {setting} | {n} | {len(rs)} | {cells} | {100 * above:.1f} / {100 * below:.1f} "
            f"| {pct([r['simultaneous'] for r in rs])} |"
        )
    with_ends = [(k, [r for r in rs if "covered_ends" in r]) for k, rs in groups.items()]
    with_ends = [(k, rs) for k, rs in with_ends if rs]
    if with_ends:
        pts = " / ".join(str(p) for p in END_POINTS)
        lines += [
            "",
            f"| setting | n | data sets | pointwise coverage of (a) at PC(+) = {pts} (%) |",
            "| --- | ---: | ---: | --- |",
        ]
        for (setting, n), rs in sorted(
            with_ends, key=lambda kv: (list(SETTINGS).index(kv[0][0]), kv[0][1])
        ):
            cov = np.array([r["covered_ends"] for r in rs])
            lines.append(
                f"| {setting} | {n} | {len(rs)} | "
                f"{' / '.join(pct(cov[:, j]) for j in range(cov.shape[1]))} |"
            )
    return "\n".join(lines)


def reference_table(rows) -> str:
    """Paired comparison of the calibration in use with the ``--reference`` one on the same data
    sets: coverage of each, their difference and its Monte-Carlo standard error (the sd of the
    per-data-set differences / sqrt(data sets)), and the mean calibrated upper level, at each of
    MATRIX_POINTS."""
    groups = {}
    for r in rows:
        groups.setdefault((r["setting"], r["n"]), []).append(r)
    pts = " / ".join(str(p) for p in MATRIX_POINTS)
    lines = [
        (
            "| setting | n | data sets | coverage, reference / in use / difference ± SE, at "
            f"PC(+) = {pts} (points) "
            "| simultaneous, difference ± SE | mean upper level, reference / in use, at PC(+) "
            "= 0.5 |"
        ),
        "| --- | ---: | ---: | --- | --- | --- |",
    ]

    def diff(a, b):
        d = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
        return (
            f"{100 * d.mean():+.1f} ± {100 * d.std(ddof=1) / np.sqrt(d.size):.1f}"
            if d.size > 1
            else f"{100 * d.mean():+.1f}"
        )

    mid = MATRIX_POINTS.index(0.5)
    for (setting, n), rs in sorted(
        groups.items(), key=lambda kv: (list(SETTINGS).index(kv[0][0]), kv[0][1])
    ):
        new, ref = np.array([r["covered"] for r in rs]), np.array([r["ref_covered"] for r in rs])
        cells = " / ".join(
            f"{100 * ref[:, j].mean():.1f} / {100 * new[:, j].mean():.1f} / "
            f"{diff(ref[:, j], new[:, j])}"
            for j in range(new.shape[1])
        )
        sim = diff([r["ref_simultaneous"] for r in rs], [r["simultaneous"] for r in rs])
        up = (
            f"{np.mean([r['ref_upper'][mid] for r in rs]):.4f} / "
            f"{np.mean([r['upper'][mid] for r in rs]):.4f}"
        )
        lines.append(f"| {setting} | {n} | {len(rs)} | {cells} | {sim} | {up} |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[200, 1000, 10000])
    ap.add_argument("--datasets", type=int, default=200)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--level", type=float, default=0.9)
    ap.add_argument("--d", type=float, default=1.0)
    ap.add_argument("--prevalence", type=float, default=0.5)
    ap.add_argument("--write", action="store_true")
    ap.add_argument(
        "--seed", type=int, default=2010, help="matrix: seed of the simulated data sets"
    )
    ap.add_argument(
        "--matrix",
        nargs="+",
        choices=list(SETTINGS),
        help="run the settings matrix (issue 10) instead",
    )
    ap.add_argument("--out", help="matrix: append one JSON line per data set to this file")
    ap.add_argument(
        "--summary", nargs="+", help="matrix: print the table of these JSON-lines files"
    )
    ap.add_argument(
        "--reference",
        type=int,
        nargs=2,
        metavar=("OUTER", "INNER"),
        help="matrix: also calibrate each band with OUTER x INNER replicates (paired comparison)",
    )
    ap.add_argument(
        "--groups",
        type=int,
        help="paired check of replicates on at most this many score groups (issue 9)",
    )
    args = ap.parse_args(argv)
    if args.groups:
        for n in args.sizes:
            t0 = time.process_time()
            res = grouping_check(
                n, args.datasets, args.groups, args.replicates, args.level, args.d, args.prevalence
            )
            print(
                f"n = {n}, {args.datasets} data sets, B = {args.groups}, {args.replicates} "
                "replicates "
                f"({time.process_time() - t0:.0f} CPU s)"
            )
            for name, t in res.items():
                for k, (mean, se) in t.items():
                    print(
                        f"  {name:10s} {k[0]:6s} {k[1]:9s} "
                        + " / ".join(f"{100 * m:.1f} +- {100 * e:.1f}" for m, e in zip(mean, se))
                    )
        return None
    if args.summary:
        import json

        rows = [
            json.loads(line)
            for f in args.summary
            for line in Path(f).read_text().splitlines()
            if line.strip()
        ]
        print(matrix_table(rows))
        if any("ref_covered" in r for r in rows):
            print("\n" + reference_table([r for r in rows if "ref_covered" in r]))
        return rows
    if args.matrix:
        rows = matrix(
            args.matrix,
            args.sizes,
            args.datasets,
            args.replicates,
            args.level,
            args.seed,
            args.out,
            args.reference,
        )
        print(matrix_table(rows))
        if args.reference:
            print("\n" + reference_table(rows))
        return rows
    t0 = time.perf_counter()
    results = {}
    for n in args.sizes:
        results[n] = simulate(
            n, args.datasets, args.replicates, args.level, args.d, args.prevalence
        )
        print(f"n={n} done at {time.perf_counter() - t0:.0f} s", flush=True)
    body = format_table(
        results,
        args.datasets,
        args.replicates,
        args.level,
        args.d,
        args.prevalence,
        time.perf_counter() - t0,
    )
    print(body)
    if args.write:
        write_section(Path(__file__).with_name("README.md"), "Bootstrap validity", body)
    return results


if __name__ == "__main__":
    main()
