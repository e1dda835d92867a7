"""Thinned ROC curves in results.json and their Parquet side files (issue 9 item 3).

RDP is checked against a plain recursive implementation on random monotone and non-monotone curves;
its guarantee (every dropped vertex within the tolerance of the kept polyline) by brute force; the
streamed results.json against ``results_to_json`` byte for byte; the side files against the arrays
they hold; and ``ccreport verify`` against a side file edited after the build.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pyarrow.parquet as pq
import pytest
from site_fixtures import write_tiny_project

from ccreport.cli import main
from ccreport.commands.build import build
from ccreport.results import curves, results_to_json, write_results_json
from ccreport.results.curves import rdp_keep, segment_distances


def rdp_recursive(x, y, tolerance):
    """Douglas & Peucker 1973 as usually written: split at the farthest vertex (the first of
    ties)."""
    keep = {0, len(x) - 1}

    def split(i, j):
        if j <= i + 1:
            return
        d = segment_distances(x[i + 1 : j], y[i + 1 : j], x[i], y[i], x[j], y[j])
        k = int(np.argmax(d))
        if d[k] > tolerance:
            keep.add(i + 1 + k)
            split(i, i + 1 + k)
            split(i + 1 + k, j)

    split(0, len(x) - 1)
    return np.array(sorted(keep))


@pytest.mark.parametrize("seed", range(40))
def test_rdp_equals_the_recursive_algorithm(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 400))
    if seed % 2:  # a ROC-like staircase
        x, y = np.cumsum(rng.random(n) < 0.5), np.cumsum(rng.random(n) < 0.6)
        x, y = x / max(x[-1], 1), y / max(y[-1], 1)
    else:  # any polyline, with repeated points
        x, y = np.round(rng.random(n), 1), rng.random(n)
    tolerance = 10 ** rng.uniform(-4, -0.5)
    assert np.array_equal(rdp_keep(x, y, tolerance), rdp_recursive(x, y, tolerance))


def test_every_dropped_vertex_is_within_the_tolerance_of_the_kept_polyline():
    rng = np.random.default_rng(3)
    labels = rng.random(20000) < 0.3
    scores = np.round(rng.normal(size=labels.size) + labels, 3)
    from ccreport.analysis.roc import roc_points

    roc = roc_points(labels, scores)
    keep = rdp_keep(roc.fpr, roc.tpr, 1e-3)
    assert keep[0] == 0 and keep[-1] == roc.fpr.size - 1 and keep.size < roc.fpr.size / 10
    after = np.searchsorted(keep, np.arange(roc.fpr.size))  # the kept vertex at or after each
    a = keep[np.maximum(after - 1, 0)]
    b = keep[np.minimum(after, keep.size - 1)]
    d = segment_distances(roc.fpr, roc.tpr, roc.fpr[a], roc.tpr[a], roc.fpr[b], roc.tpr[b])
    assert d.max() <= 1e-3


def test_forced_and_non_finite_vertices_are_kept():
    x = np.linspace(0, 1, 101)
    y = x.copy()
    y[50] = np.nan
    forced = np.zeros(101, dtype=bool)
    forced[[10, 77]] = True
    keep = rdp_keep(x, y, 1e-3, forced)
    assert set(keep) == {0, 10, 49, 50, 51, 77, 100}
    assert rdp_keep(np.array([0.0, 1.0]), np.array([0.0, 1.0])).tolist() == [0, 1]


@pytest.fixture
def small_limit(monkeypatch):
    """Thin every curve longer than 20 points, so a tiny project has side files."""
    monkeypatch.setattr(curves, "MAX_POINTS", 20)


def _project(tmp_path):
    return write_tiny_project(
        tmp_path / "p", n=400, settings='bootstrap = 500\ncalibration = "off"'
    )


def test_a_thinned_curve_names_its_side_file_which_holds_the_full_arrays(tmp_path, small_limit):
    root = _project(tmp_path)
    out = tmp_path / "site"
    results = build(root, out, pdf=False)
    text = (out / "results.json").read_text(encoding="utf-8")
    assert text == results_to_json(
        results
    )  # streamed to disk = the one-string form, side files or not
    assert write_results_json(results) == hashlib.sha256(text.encode()).hexdigest()
    data = json.loads(text)["datasets"]["tiny"]["classifiers"]["good"]
    c = results.datasets["tiny"].classifiers["good"]
    full = data["roc_points_full"]
    assert (
        full["thinned"] is True
        and full["tolerance"] == curves.TOLERANCE
        and full["method"] == "Ramer-Douglas-Peucker"
    )
    assert (
        full["original_count"]
        == full["rows"]
        == c.roc_fpr.size
        > full["stored_count"]
        == len(data["roc_points"])
    )
    assert full["path"] == "curves/tiny/good/roc.parquet" and full["columns"] == [
        "fpr",
        "tpr",
        "threshold",
    ]
    stored = out / full["path"]
    assert hashlib.sha256(stored.read_bytes()).hexdigest() == full["sha256"]
    table = pq.read_table(stored)
    assert table.num_rows == full["rows"]
    np.testing.assert_array_equal(table["fpr"].to_numpy(), c.roc_fpr)
    np.testing.assert_array_equal(table["threshold"].to_numpy(), c.selection.thresholds)
    keep = np.searchsorted(c.roc_fpr + c.roc_tpr, [p[0] + p[1] for p in data["roc_points"]])
    assert [[float(c.roc_fpr[k]), float(c.roc_tpr[k])] for k in keep] == data["roc_points"]
    assert (
        data["thresholds"][1:] == c.selection.thresholds[keep][1:].tolist()
    )  # the same vertices (+inf is null)
    hull = {tuple(p) for p in data["roc_hull"]}
    assert hull <= {tuple(p) for p in data["roc_points"]}  # every hull vertex kept
    assert "roc_points_full" not in data or len(data["roc_points"]) < 400


def test_small_curves_are_stored_whole_without_side_files(tmp_path):
    root = _project(tmp_path)
    results = build(root, tmp_path / "site", pdf=False)
    data = json.loads((tmp_path / "site" / "results.json").read_text())["datasets"]["tiny"][
        "classifiers"
    ]["good"]
    assert (
        "roc_points_full" not in data
        and len(data["roc_points"]) == results.datasets["tiny"].classifiers["good"].roc_fpr.size
    )
    assert not (tmp_path / "site" / "curves").exists()


def test_verify_checks_the_side_files(tmp_path, small_limit, capsys):
    root = _project(tmp_path)
    out = tmp_path / "site"
    build(root, out, pdf=False)
    assert main(["verify", str(out)]) == 0
    capsys.readouterr()
    side = out / "curves" / "tiny" / "good" / "roc.parquet"
    side.write_bytes(side.read_bytes() + b"x")
    assert main(["verify", str(out)]) == 1
    text = capsys.readouterr().out
    assert (
        "file curves/tiny/good/roc.parquet: sha256" in text and "recorded in results.json" in text
    )
    side.unlink()
    assert main(["verify", str(out)]) == 1
    assert (
        "file curves/tiny/good/roc.parquet: named in results.json, missing from the report"
        in capsys.readouterr().out
    )


def test_figures_draw_the_stored_polyline():
    rng = np.random.default_rng(5)
    labels = rng.random(30000) < 0.4
    from ccreport.analysis.roc import roc_points

    roc = roc_points(labels, np.round(rng.normal(size=labels.size) + labels, 4))
    assert roc.fpr.size > curves.MAX_POINTS
    x, y = curves.drawn(roc.fpr, roc.tpr)
    pairs, record, keep = curves.stored(roc.fpr, roc.tpr, "roc.parquet", ("fpr", "tpr"))
    assert (
        np.column_stack([x, y]).tolist() == pairs
        and record["stored_count"] == x.size < curves.MAX_POINTS
    )
    assert (
        curves.drawn(roc.fpr[:100], roc.tpr[:100])[0] is not None
        and curves.drawn(roc.fpr[:100], roc.tpr[:100])[0].size == 100
    )
