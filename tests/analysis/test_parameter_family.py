"""A declared parameter-based family through the build (issue 11 item 3; D&H 2000 s. 2.3; spec row
11)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ccreport.analysis.envelope import lower_envelope
from ccreport.cli import main

MANIFEST = """[project]
title = "Family"
bootstrap = 500

[[datasets]]
name = "d"
path = "data.csv"
label = "label"
positive = "pos"

[[classifiers]]
name = "tree_r11"
predictions = "A"
[[classifiers]]
name = "tree_r5"
predictions = "B"
[[classifiers]]
name = "tree_r1"
predictions = "C"
[[classifiers]]
name = "scorer"
scores = "s"

[[criteria]]
name = "trees"
kind = "parameter_based"
members = { tree_r5 = 0.16666666666666666, tree_r11 = 0.08333333333333333, tree_r1 = 0.5 }
"""


def crisp(tp: int, fp: int) -> np.ndarray:
    p = np.zeros(40, bool)
    p[:tp] = True
    p[20 : 20 + fp] = True
    return p


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Spec row 11's family on 20 positives and 20 negatives: A (0.05, 0.4) trained at 1/12,
    B (0.1, 0.6) at 1/6, C (0.3, 0.85) at 1/2 (members listed out of order in the manifest)."""
    root = tmp_path_factory.mktemp("family")
    y = np.arange(40) < 20
    cols = {"A": crisp(8, 1), "B": crisp(12, 2), "C": crisp(17, 6)}
    s = np.random.default_rng(1).random(40)
    lines = ["label,A,B,C,s"] + [
        ",".join(
            ["pos" if y[i] else "neg"]
            + ["pos" if cols[k][i] else "neg" for k in "ABC"]
            + [f"{s[i]:.4f}"]
        )
        for i in range(40)
    ]
    (root / "data.csv").write_text("\n".join(lines) + "\n")
    (root / "ccreport.toml").write_text(MANIFEST)
    assert main(["build", str(root), "-o", str(root / "site"), "--no-pdf", "-q", "-j", "1"]) == 0
    return json.loads((root / "site" / "results.json").read_text())["datasets"]["d"], root


def test_spec_row11_through_the_build(built):
    d, _ = built
    fam = d["hybrid"]["families"]["trees"]
    assert fam["rule"] == "parameter_based"
    assert fam["area"] == pytest.approx(0.179036, abs=1e-6)
    assert [s["classifier"] for s in fam["segments"]] == ["tree_r11", "tree_r5", "tree_r1"]
    assert [s["low"] for s in fam["segments"]][1:] == pytest.approx([0.125, 1 / 3])
    assert fam["members"] == {
        "tree_r5": pytest.approx(1 / 6),
        "tree_r11": pytest.approx(1 / 12),
        "tree_r1": 0.5,
    }
    env = lower_envelope([0.05, 0.1, 0.3], [0.4, 0.6, 0.85])
    assert fam["excess"] == pytest.approx(fam["area"] - env.area, abs=1e-12)
    # a family is not a per-classifier criterion
    assert all("trees" not in c["criteria"] for c in d["classifiers"].values())


def test_family_against_brute_force(built):
    """The written curve against nearest-tau selection evaluated pointwise, and the area against a
    fine grid."""
    d, _ = built
    fam = d["hybrid"]["families"]["trees"]
    pts = {
        "tree_r11": (0.05, 0.4, 1 / 12),
        "tree_r5": (0.1, 0.6, 1 / 6),
        "tree_r1": (0.3, 0.85, 0.5),
    }
    f, t, tau = (np.array([p[i] for p in pts.values()]) for i in range(3))

    def brute(x):
        dist = np.abs(tau - x)
        near = np.flatnonzero(dist <= dist.min() + 1e-12)
        i = near[np.argmax(tau[near])]
        return (1 - t[i]) * x + f[i] * (1 - x)

    grid = (np.arange(200000) + 0.5) / 200000
    values = np.array([brute(x) for x in grid[::97]])
    curve = np.array(fam["curve"])
    for x, v in zip(grid[::97], values):
        # the curve is written at its vertices: interpolate within the piece holding x
        k = np.searchsorted(curve[:, 0], x, side="right")
        (x0, y0), (x1, y1) = curve[k - 1], curve[k]
        assert y0 + (y1 - y0) * (x - x0) / (x1 - x0) == pytest.approx(v, abs=1e-12)
    dist = np.abs(tau[None, :] - grid[:, None])
    i = np.argmin(dist[:, ::-1], axis=1)
    i = tau.size - 1 - i  # ties to the larger tau (tau is sorted ascending here)
    assert fam["area"] == pytest.approx(np.mean((1 - t[i]) * grid + f[i] * (1 - grid)), abs=1e-6)


def test_family_on_the_page(built):
    _, root = built
    page = (root / "site" / "dataset-d.html").read_text()
    assert "Parameter-based families on d" in page and "figure-d--family" in page
    assert "0.1790" in page
