"""CPU seconds to load one dataset: the line-by-line CSV reader, Arrow's CSV reader, and Parquet
(issue 9).

    python benchmarks/load_speed.py [--sizes 1000000 10000000] [--folder /tmp/ccreport-load]

Each size writes (once, kept in the folder) a binormal dataset with a label column ("pos"/"neg",
30% positives) and 2 classifiers' scores rounded to 10 decimals, as CSV and as Parquet (snappy),
then loads it with ``ccreport.project.loaders.load_dataset`` three ways, each in a fresh process,
and reports the process's CPU seconds (user + system, all threads) and wall seconds of the load
alone (the SHA-256 of the file included). Goal: the Parquet load at least 5x faster, in CPU seconds,
than the line-by-line CSV reader.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
from ccreport.project import loaders
from ccreport.project.manifest import ClassifierSpec, DatasetSpec
if {slow!r}:
    # the line-by-line reader only (the reader before Arrow)
    loaders.read_csv_fast = lambda *args: None
spec = DatasetSpec(name="x", path=Path({path!r}), label="label", positive="pos")
classifiers = [ClassifierSpec("a", scores="a"), ClassifierSpec("b", scores="b")]
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
c0, w0 = cpu(), time.perf_counter()
data = loaders.load_dataset(spec, classifiers)
print(json.dumps(
    {{"cpu": cpu() - c0, "wall": time.perf_counter() - w0, "n": int(data.labels.size)}}
))
"""


def write_data(n: int, folder: Path) -> tuple[Path, Path]:
    import pyarrow as pa
    import pyarrow.csv as arrow_csv
    import pyarrow.parquet as pq

    csv_path, parquet_path = folder / f"scores-{n}.csv", folder / f"scores-{n}.parquet"
    if csv_path.exists() and parquet_path.exists():
        return csv_path, parquet_path
    rng = np.random.default_rng(n)
    positive = rng.random(n) < 0.3
    table = pa.table(
        {
            "label": np.where(positive, "pos", "neg"),
            "a": rng.normal(positive * 1.0, 1.0).round(10),
            "b": rng.normal(positive * 0.5, 1.0).round(10),
        }
    )
    arrow_csv.write_csv(table, csv_path, arrow_csv.WriteOptions(quoting_style="none"))
    pq.write_table(table, parquet_path)
    return csv_path, parquet_path


def load(path: Path, slow: bool) -> dict:
    code = CHILD.format(root=str(ROOT), path=str(path), slow=slow)
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**6, 10**7])
    parser.add_argument("--folder", default="/tmp/ccreport-load")
    args = parser.parse_args()
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    print("| n | file | reader | CPU s | wall s | CPU vs line-by-line CSV |")
    print("| ---: | --- | --- | ---: | ---: | ---: |")
    for n in args.sizes:
        csv_path, parquet_path = write_data(n, folder)
        runs = [
            ("CSV", csv_path, "line by line (before)", True),
            ("CSV", csv_path, "Arrow, multi-threaded", False),
            ("Parquet", parquet_path, "Arrow, multi-threaded", False),
        ]
        base = None
        for kind, path, reader, slow in runs:
            measured = load(path, slow)
            assert measured["n"] == n
            base = base or measured["cpu"]
            size = path.stat().st_size / 1e6
            print(
                f"| {n:.0e} | {kind} ({size:.0f} MB) | {reader} | {measured['cpu']:.2f} | "
                f"{measured['wall']:.2f} | "
                f"{base / measured['cpu']:.1f}x |",
                flush=True,
            )


if __name__ == "__main__":
    main()
