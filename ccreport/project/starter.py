"""``ccreport new DIR``: a small, working starter project with synthetic data.

The data are binormal scores (a classic ROC model: negatives ~ N(0, 1), positives ~ N(d', 1)) for
two scoring classifiers and one crisp rule, with a fold column, drawn from a fixed seed so every
starter project is the same.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import Problem, UserInputError

MANIFEST = """# ccreport project manifest: every key is documented in docs/manifest.md.
[project]
title = "Starter project: two scoring classifiers and a rule"
seed = 2006
narrative = "narrative.md"

[[datasets]]
name = "synthetic"
path = "data/predictions.csv"
label = "label"
positive = "pos"
fold = "fold"

[[classifiers]]
name = "sharp"
scores = "sharp"

[[classifiers]]
name = "blunt"
scores = "blunt"

[[classifiers]]
name = "rule"
predictions = "rule"

[[priors]]
name = "uniform"
distribution = "uniform"

[[priors]]
name = "mostly-negative"
distribution = "beta"
a = 2
b = 8

[[priors]]
name = "deployment"
distribution = "point"
p_positive = 0.2
cost_ratio = 4
"""

NARRATIVE = """This is a starter project made by `ccreport new`. Replace `data/predictions.csv` \
with your own
classifiers' out-of-fold scores, edit `ccreport.toml`, and run `ccreport build`.

*sharp* and *blunt* are scoring classifiers (higher score = more likely positive); *rule* is a crisp
classifier, a single cost line in cost space.
"""


def starter_rows(seed: int = 2006, n: int = 400) -> list[list[str]]:
    """Rows of the starter CSV: label, fold, sharp, blunt, rule."""
    rng = np.random.default_rng(seed)
    positive = rng.random(n) < 0.35
    sharp = rng.normal(np.where(positive, 1.6, 0.0), 1.0)
    blunt = np.round(rng.normal(np.where(positive, 0.8, 0.0), 1.0), 1)  # rounded: many ties
    rule = sharp + rng.normal(0.0, 0.8, n) > 0.9
    fold = rng.permutation(np.arange(n) % 5) + 1
    rows = [["label", "fold", "sharp", "blunt", "rule"]]
    for i in range(n):
        label = "pos" if positive[i] else "neg"
        rows.append(
            [label, str(fold[i]), f"{sharp[i]:.4f}", f"{blunt[i]:.1f}", "pos" if rule[i] else "neg"]
        )
    return rows


def create_starter(directory: str | Path) -> Path:
    """Write a starter project into ``directory`` (which must not exist or be empty)."""
    root = Path(directory)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise UserInputError(
            Problem(str(root), "DIR", "expected a new or empty folder; this one is not empty")
        )
    (root / "data").mkdir(parents=True, exist_ok=True)
    (root / "ccreport.toml").write_text(MANIFEST, encoding="utf-8")
    (root / "narrative.md").write_text(NARRATIVE, encoding="utf-8")
    text = "\n".join(",".join(row) for row in starter_rows()) + "\n"
    (root / "data" / "predictions.csv").write_text(text, encoding="utf-8")
    return root
