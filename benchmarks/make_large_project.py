"""Write a synthetic large project (manifest + data) into a folder, for the issue-9 acceptance runs.

    python benchmarks/make_large_project.py FOLDER --n 1000000 --classifiers 3
        [--format csv|parquet] [--bootstrap 500] [--folds 10] [--costs] [--seed 9]

The data: ``n`` rows, a ``label`` column (``pos``/``neg``, 30% positives), a ``fold`` column
(``--folds`` > 0), an ``amount`` column (``--costs``: a missed positive costs its amount, a false
alarm a fixed 50), and one binormal score column per classifier (positives shifted by 0.5, 1.0,
1.5, ... standard deviations; scores rounded to 6 decimals, so there are ties as in real model
output). The manifest asks for every analysis: a bootstrap band and intervals, the folds, threshold
choice with two partial ranges, three priors (uniform, beta, a point prior with costs) and two
criteria (Neyman-Pearson and workforce). Nothing is committed: the folder is made on the fly (in
/tmp).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np


def write_project(
    folder: Path,
    n: int,
    classifiers: int,
    fmt: str = "csv",
    bootstrap: int = 500,
    folds: int = 10,
    costs: bool = True,
    seed: int = 9,
) -> Path:
    import pyarrow as pa
    import pyarrow.csv as arrow_csv
    import pyarrow.parquet as pq

    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    positive = rng.random(n) < 0.3
    columns = {"label": pa.array(np.where(positive, "pos", "neg"))}
    if folds:
        columns["fold"] = pa.array(rng.integers(1, folds + 1, n))
    if costs:
        columns["amount"] = pa.array(np.round(rng.lognormal(6.0, 1.0, n), 2))
    names = [f"model{i + 1}" for i in range(classifiers)]
    for i, name in enumerate(names):
        columns[name] = pa.array(np.round(rng.normal(0.0, 1.0, n) + 0.5 * (i + 1) * positive, 6))
    table = pa.table(columns)
    data = folder / "data" / f"large.{fmt}"
    data.parent.mkdir(exist_ok=True)
    if fmt == "parquet":
        pq.write_table(table, data)
    else:
        arrow_csv.write_csv(table, data)
    fold_line = 'fold = "fold"\n' if folds else ""
    cost_line = 'costs = { fn = "amount", fp = 50, unit = "EUR" }\n' if costs else ""
    manifest = (
        f"""[project]
title = "Synthetic, n = {n}"
seed = 9
bootstrap = {bootstrap}
partial_ranges = [[0.1, 0.5], [0.5, 0.9]]

[[datasets]]
name = "large"
path = "data/large.{fmt}"
label = "label"
positive = "pos"
{fold_line}{cost_line}
"""
        + "".join(f'[[classifiers]]\nname = "{c}"\nscores = "{c}"\n\n' for c in names)
        + """[[priors]]
name = "uniform"
distribution = "uniform"

[[priors]]
name = "sceptic"
distribution = "beta"
a = 2
b = 8

[[priors]]
name = "costs-5to1"
distribution = "point"
p_positive = 0.3
cost_fn = 5
cost_fp = 1

[[criteria]]
name = "fpr-10pct"
kind = "neyman_pearson"
max_fpr = 0.1

[[criteria]]
name = "review-5pct"
kind = "workforce"
capacity = """
        + str(max(1, n // 20))
        + "\n"
    )
    (folder / "ccreport.toml").write_text(manifest, encoding="utf-8")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--classifiers", type=int, default=3)
    parser.add_argument("--format", choices=("csv", "parquet"), default="csv")
    parser.add_argument("--bootstrap", type=int, default=500)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--no-costs", action="store_true")
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args()
    write_project(
        args.folder,
        args.n,
        args.classifiers,
        args.format,
        args.bootstrap,
        args.folds,
        not args.no_costs,
        args.seed,
    )
    print(args.folder)


if __name__ == "__main__":
    main()
