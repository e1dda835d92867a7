"""Validity of the pair inferences by simulation (issue 10): family-wise claims, p-values, power.

Each simulated data set is resampled once
(:func:`ccreport.analysis.paired_bootstrap.bootstrap_dataset`), as a report does, and judged by
:mod:`ccreport.analysis.significance`:

* ``any_fw``: the share of data sets with at least one family-wise significant PC(+) interval (at
  confidence 0.8, 0.9, 0.95); under identical true curves it should be 1 - confidence (two crisp
  classifiers: studentized by their cost lines' difference, as the build; ``any_fw_env_0.9`` the
  envelope difference studentized by itself, as before);
* ``any_pw``: the same from the pointwise 90% band of the band values (what the report used to call
  significant), for reference;
* ``p05``/``p10``: the share of paired expected-cost p-values below 0.05 / 0.10 (uniform prior and a
  point prior at PC(+) = 0.3), and ``old_p``: the previous percentile p-value;
* power: for the alternative, the share where the better classifier (b) is found significantly
  better somewhere (family-wise, 0.9).

Pair settings (``PAIRS``), every one at p(+) = 0.5: ``independent`` two independent binormal d' = 1
scorers; ``correlated`` two scorers sharing half their noise variance (symmetric, so their true
curves are equal); ``crisp`` two independent crisp classifiers (binormal d' = 2 thresholded at 1,
the crisp setting of ``benchmarks/validity.py``); ``correlated_crisp`` the correlated scorers
thresholded; ``alternative`` d' = 1 against d' = 1.5 (independent).

    PYTHONPATH=. python benchmarks/significance.py --settings independent --sizes 200 \
        --datasets 500 [--out FILE.jsonl] [--summary FILE.jsonl ...]

Rows are appended to ``--out`` as JSON lines (one per data set) so a long run can be read as it
goes; ``--summary`` prints the table (rates with Monte-Carlo standard errors) of one or more such
files.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scipy.special import ndtr  # noqa: E402

from ccreport.analysis import significance as sg  # noqa: E402
from ccreport.analysis.bands import (
    bootstrap_p_value,  # noqa: E402
    significant_intervals,  # noqa: E402
)
from ccreport.analysis.hull_costs import GRID  # noqa: E402
from ccreport.analysis.pair_calibration import (  # noqa: E402
    calibrate_pairs,
    fast_double_draws,
    fdb_p_value,
)
from ccreport.analysis.paired_bootstrap import bootstrap_dataset  # noqa: E402
from ccreport.analysis.priors import PointPrior, UniformPrior  # noqa: E402

PAIRS = ("independent", "correlated", "crisp", "correlated_crisp", "alternative")
LEVELS = (0.8, 0.9, 0.95)
PRIORS = {"uniform": UniformPrior(), "point_0.3": PointPrior(0.3)}
RHO = 0.5  # share of the noise variance two correlated scorers have in common


def pair_data(rng, setting: str, n: int):
    """(labels, scores, predictions) of one simulated pair: {"a": ..., "b": ...} in one of the
    two."""
    y = rng.random(n) < 0.5
    while y.all() or not y.any():
        y = rng.random(n) < 0.5
    if setting in ("correlated", "correlated_crisp"):
        common = rng.normal(size=n)
        noise = [np.sqrt(RHO) * common + np.sqrt(1 - RHO) * rng.normal(size=n) for _ in range(2)]
    else:
        noise = [rng.normal(size=n), rng.normal(size=n)]
    if setting == "alternative":
        return y, {"a": noise[0] + 1.0 * y, "b": noise[1] + 1.5 * y}, {}
    if setting in ("crisp", "correlated_crisp"):
        return y, {}, {"a": noise[0] + 2.0 * y >= 1.0, "b": noise[1] + 2.0 * y >= 1.0}
    return y, {"a": noise[0] + 1.0 * y, "b": noise[1] + 1.0 * y}, {}


def one_dataset(
    rng, setting: str, n: int, replicates: int, calibrate: bool = False, fdb: int = 0
) -> dict:
    y, scores, predictions = pair_data(rng, setting, n)
    reps = bootstrap_dataset(rng, y, scores, predictions, replicates, PRIORS, GRID)
    draws = fast_double_draws(rng, y, scores, predictions, PRIORS, fdb, GRID) if fdb else None
    cal = (
        calibrate_pairs(rng, y, scores, predictions, [("a", "b")], 0.9, GRID, PRIORS)[("a", "b")]
        if calibrate
        else None
    )
    ra, rb = reps.classifiers["a"], reps.classifiers["b"]
    raw = reps.difference("a", "b", raw=True)
    est = ra.estimate - rb.estimate
    row = {}
    family = sg.claim_family(ra.estimate, rb.estimate, GRID)
    # as the build: two crisp classifiers are studentized by their cost lines' difference
    # (dataset_inference)
    ref = sg.crisp_reference(ra, rb)
    row["any_fw_all_0.9"] = bool(
        sg.family_wise(raw, est, 0.9, GRID, "a", "b", reference=ref).significant
    )  # every grid point
    # the envelope difference studentized by itself (the build before, for crisp pairs; the same for
    # scorers)
    row["any_fw_env_0.9"] = bool(
        sg.family_wise(raw, est, 0.9, GRID, "a", "b", family=family).significant
    )
    for level in LEVELS:
        fw = sg.family_wise(raw, est, level, GRID, "a", "b", family=family, reference=ref)
        row[f"any_fw_{level}"] = bool(fw.significant)
        row[f"b_better_{level}"] = any(s["better"] == "b" for s in fw.significant)
        row[f"a_better_{level}"] = any(s["better"] == "a" for s in fw.significant)
    if calibrate:
        fw = sg.family_wise(
            raw, est, 0.9, GRID, "a", "b", scale=cal.scale, family=family, reference=ref
        )
        row["scale"] = cal.scale
        row["any_fw_cal_0.9"] = bool(fw.significant)
        row["b_better_cal_0.9"] = any(s["better"] == "b" for s in fw.significant)
    lo, hi = sg.pointwise_difference(reps.difference("a", "b"), 0.9)
    pw = significant_intervals(GRID, lo, hi, "a", "b")
    row["any_pw"] = bool(pw)
    row["b_better_pw"] = any(s["better"] == "b" for s in pw)
    for p in PRIORS:
        d = ra.expected_estimate[p] - rb.expected_estimate[p]
        row[f"p_{p}"] = sg.difference_p_value(reps.expected_difference("a", "b", p, raw=True), d)
        row[f"old_p_{p}"] = bootstrap_p_value(reps.expected_difference("a", "b", p))
        d_star = reps.expected_difference("a", "b", p, raw=True)
        sd = d_star.std(ddof=1)
        row[f"p_norm_{p}"] = float(2 * ndtr(-abs(d) / sd)) if sd > 0 else 1.0
        if draws:
            outer = draws["a"][0][p] - draws["b"][0][p]
            inner = draws["a"][1][p] - draws["b"][1][p]
            row[f"p_fdb_{p}"] = fdb_p_value(outer, inner, d_star, d)
            row[f"p_fdb_own_{p}"] = fdb_p_value(outer, inner, outer, d)
        if calibrate:
            row[f"p_cal_{p}"] = cal.p_value(p, row[f"p_{p}"])
    return row


def run(
    setting: str,
    n: int,
    datasets: int,
    replicates: int,
    seed: int,
    out: Path | None,
    calibrate: bool = False,
    fdb: int = 0,
) -> list[dict]:
    rng = np.random.default_rng([seed, n, PAIRS.index(setting)])
    rows = []
    fh = out.open("a", encoding="utf-8") if out else None
    for i in range(datasets):
        row = {
            "setting": setting,
            "n": n,
            "i": i,
            **one_dataset(rng, setting, n, replicates, calibrate, fdb),
        }
        rows.append(row)
        if fh:
            fh.write(json.dumps(row) + "\n")
            fh.flush()
    if fh:
        fh.close()
    return rows


def rate(values) -> tuple[float, float]:
    """Share and its Monte-Carlo standard error sqrt(p (1 - p) / N)."""
    v = np.asarray(values, dtype=float)
    p = float(v.mean())
    return p, float(np.sqrt(p * (1 - p) / v.size))


def fmt(values) -> str:
    p, se = rate(values)
    return f"{100 * p:.1f} ± {100 * se:.1f}"


def summarize(rows: list[dict]) -> str:
    groups = {}
    for r in rows:
        groups.setdefault((r["setting"], r["n"]), []).append(r)
    lines = [
        "| pair setting | n | data sets | any family-wise significant, conf. 0.8 / 0.9 / 0.95 (%) "
        "| crisp: the envelope difference studentized by itself, 0.9 (%) | any pointwise "
        "significant, 0.9 (old) (%) | p < 0.05, uniform / point 0.3 (%) "
        "| p < 0.10, uniform / point 0.3 (%) | old percentile p < 0.05, uniform (%) |",
        "| --- | ---: | ---: | --- | --- | --- | --- | --- | --- |",
    ]
    for (setting, n), rs in sorted(
        groups.items(), key=lambda kv: (PAIRS.index(kv[0][0]), kv[0][1])
    ):

        def get(k, rs=rs):
            return [r[k] for r in rs]

        fw = " / ".join(fmt(get(f"any_fw_{lv}")) for lv in LEVELS)
        p05 = " / ".join(fmt(np.array(get(f"p_{p}")) < 0.05) for p in PRIORS)
        p10 = " / ".join(fmt(np.array(get(f"p_{p}")) < 0.10) for p in PRIORS)
        all_points = fmt(get("any_fw_env_0.9")) if all("any_fw_env_0.9" in r for r in rs) else "-"
        lines.append(
            f"| {setting} | {n} | {len(rs)} | {fw} | {all_points} | {fmt(get('any_pw'))} | "
            f"{p05} | {p10} "
            f"| {fmt(np.array(get('old_p_uniform')) < 0.05)} |"
        )
    fdb = [(k, rs) for k, rs in groups.items() if all("p_fdb_uniform" in r for r in rs)]
    if fdb:
        lines += [
            "",
            "Candidate p-values on the same data sets (uniform / point 0.3): the plain basic "
            "bootstrap (the build's), "
            "the studentized normal tail 2 Phi(-|d| / sd(d*)), and the fast double bootstrap "
            "(Davidson & MacKinnon 2007; "
            "`pair_calibration.fdb_p_value`, 1000 outer/inner draws):",
            "",
            "| pair setting | n | data sets | basic p < 0.05 (%) | basic p < 0.10 (%) | "
            "normal p < 0.05 (%) | normal p < 0.10 (%) "
            "| FDB p < 0.05 (%) | FDB p < 0.10 (%) |",
            "| --- | ---: | ---: | --- | --- | --- | --- | --- | --- |",
        ]
        for (setting, n), rs in sorted(fdb, key=lambda kv: (PAIRS.index(kv[0][0]), kv[0][1])):
            cells = []
            for m in ("p", "p_norm", "p_fdb"):
                for cut in (0.05, 0.10):
                    cells.append(
                        " / ".join(fmt(np.array([r[f"{m}_{p}"] for r in rs]) < cut) for p in PRIORS)
                    )
            lines.append(f"| {setting} | {n} | {len(rs)} | " + " | ".join(cells) + " |")
    cal = [(k, [r for r in rs if "p_cal_uniform" in r]) for k, rs in groups.items()]
    cal = [(k, rs) for k, rs in cal if rs]
    if cal:
        lines += [
            "",
            "Double-bootstrap calibrated critical value "
            "(:mod:`ccreport.analysis.pair_calibration`, 200 x 100), "
            "confidence 0.9, against the plain one on the same data sets:",
            "",
            "| pair setting | n | data sets | any significant, calibrated (%) | any "
            "significant, plain (%) "
            "| b better somewhere, calibrated (%) | median scale | calibrated p < 0.05, "
            "uniform / point 0.3 (%) "
            "| calibrated p < 0.10, uniform / point 0.3 (%) | plain p < 0.05, uniform / point "
            "0.3 (%) |",
            "| --- | ---: | ---: | --- | --- | --- | ---: | --- | --- | --- |",
        ]
        for (setting, n), rs in sorted(cal, key=lambda kv: (PAIRS.index(kv[0][0]), kv[0][1])):

            def get(k, rs=rs):
                return [r[k] for r in rs]

            lines.append(
                f"| {setting} | {n} | {len(rs)} | {fmt(get('any_fw_cal_0.9'))} | "
                f"{fmt(get('any_fw_0.9'))} "
                f"| {fmt(get('b_better_cal_0.9'))} | {np.median(get('scale')):.3f} "
                f"| {' / '.join(fmt(np.array(get(f'p_cal_{p}')) < 0.05) for p in PRIORS)} "
                f"| {' / '.join(fmt(np.array(get(f'p_cal_{p}')) < 0.10) for p in PRIORS)} "
                f"| {' / '.join(fmt(np.array(get(f'p_{p}')) < 0.05) for p in PRIORS)} |"
            )
    alt = [(k, rs) for k, rs in groups.items() if k[0] == "alternative"]
    if alt:
        lines += [
            "",
            "Power (alternative, d' = 1 against d' = 1.5): share of data sets where the "
            "better classifier "
            "(b) is found significantly better somewhere, and where the worse one (a) is "
            "wrongly found better.",
            "",
            "| n | data sets | b better somewhere, family-wise 0.9 (%) | a better somewhere, "
            "family-wise 0.9 (%) "
            "| b better somewhere, pointwise 0.9 (old) (%) | p < 0.05, uniform (%) |",
            "| ---: | ---: | --- | --- | --- | --- |",
        ]
        for (_setting, n), rs in sorted(alt):

            def get(k, rs=rs):
                return [r[k] for r in rs]

            lines.append(
                f"| {n} | {len(rs)} | {fmt(get('b_better_0.9'))} | {fmt(get('a_better_0.9'))} "
                f"| {fmt(get('b_better_pw'))} | {fmt(np.array(get('p_uniform')) < 0.05)} |"
            )
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--settings", nargs="+", default=list(PAIRS), choices=PAIRS)
    ap.add_argument("--sizes", type=int, nargs="+", default=[200, 1000])
    ap.add_argument("--datasets", type=int, default=500)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2010)
    ap.add_argument("--out", type=Path)
    ap.add_argument(
        "--calibrate",
        action="store_true",
        help="also the double-bootstrap calibrated critical value",
    )
    ap.add_argument(
        "--fdb",
        type=int,
        default=0,
        help="also fast-double-bootstrap p-values from this many outer/inner draws",
    )
    ap.add_argument("--summary", type=Path, nargs="+")
    args = ap.parse_args(argv)
    if args.summary:
        rows = [
            json.loads(line)
            for f in args.summary
            for line in f.read_text().splitlines()
            if line.strip()
        ]
        print(summarize(rows))
        return rows
    t0 = time.perf_counter()
    rows = []
    for setting in args.settings:
        for n in args.sizes:
            rows += run(
                setting,
                n,
                args.datasets,
                args.replicates,
                args.seed,
                args.out,
                args.calibrate,
                args.fdb,
            )
            print(f"{setting} n={n} done at {time.perf_counter() - t0:.0f} s", flush=True)
    print(summarize(rows))
    return rows


if __name__ == "__main__":
    main()
