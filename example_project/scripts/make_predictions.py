"""Out-of-fold predictions of several classifiers on Sonar and German credit.

Regenerates ``data/sonar_predictions.csv`` and ``data/german_credit_predictions.csv``
from the raw UCI files in ``data/raw/``. Run from anywhere::

    python example_project/scripts/make_predictions.py

Every source of randomness is fixed, so the outputs are byte-identical across runs
(scores are written with 6 significant digits, which also absorbs last-bit
floating-point differences between machines).

Each dataset gets stratified 10-fold cross-validation
(``StratifiedKFold(n_splits=10, shuffle=True, random_state=2006)``); every row's
prediction comes from the model trained on the other nine folds. Score columns are
the predicted probability of the positive class (higher = more positive);
``tree_crisp`` holds crisp predicted labels (values of the ``Class`` column).
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

SEED = 2006
HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"
RAW = DATA / "raw"

DATASETS = [
    # name, raw file, positive class, extra columns copied through to the output
    ("sonar", "sonar.csv", "M", []),
    ("german_credit", "german_credit.csv", "Bad", ["Amount"]),
]

SCORERS = ["logreg", "naive_bayes", "tree", "knn", "stump"]
CRISP = ["tree_crisp"]


def make_scorer(name: str):
    """A fresh, unfitted model for a score column."""
    if name == "logreg":
        return make_pipeline(StandardScaler(), LogisticRegression(max_iter=10000))
    if name == "naive_bayes":
        return GaussianNB()
    if name == "tree":
        return DecisionTreeClassifier(min_samples_leaf=5, random_state=SEED)
    if name == "knn":
        return make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=7))
    if name == "stump":
        # Holte's 1R-style one-rule classifier: a single split on the best attribute.
        return DecisionTreeClassifier(max_depth=1, random_state=SEED)
    raise ValueError(name)


def make_crisp(name: str):
    """A fresh, unfitted model for a crisp-label column."""
    if name == "tree_crisp":
        return DecisionTreeClassifier(random_state=SEED)  # unpruned
    raise ValueError(name)


def read_raw(path: Path):
    with path.open(newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        rows = list(reader)
    ci = header.index("Class")
    labels = np.array([r[ci] for r in rows])
    feature_cols = [j for j in range(len(header)) if j != ci]
    X = np.array([[float(r[j]) for j in feature_cols] for r in rows])
    columns = {h: [r[j] for r in rows] for j, h in enumerate(header)}
    return X, labels, columns


def fmt(x: float) -> str:
    s = format(float(x), ".6g")
    return "0" if s == "-0" else s


def run(name: str, filename: str, positive: str, extra: list[str]) -> Path:
    X, labels, columns = read_raw(RAW / filename)
    y = (labels == positive).astype(int)
    n = len(y)
    fold = np.zeros(n, dtype=int)
    scores = {c: np.full(n, np.nan) for c in SCORERS}
    crisp = {c: np.empty(n, dtype=object) for c in CRISP}

    skf = StratifiedKFold(n_splits=10, shuffle=True, random_state=SEED)
    for k, (train, test) in enumerate(skf.split(X, y), start=1):
        fold[test] = k
        for c in SCORERS:
            model = make_scorer(c).fit(X[train], y[train])
            pos = list(model.classes_).index(1)
            scores[c][test] = model.predict_proba(X[test])[:, pos]
        for c in CRISP:
            model = make_crisp(c).fit(X[train], labels[train])
            crisp[c][test] = model.predict(X[test])

    assert (fold > 0).all()
    assert all(np.isfinite(s).all() for s in scores.values())

    out = DATA / f"{name}_predictions.csv"
    header = ["id", "Class", "fold", *extra, *SCORERS, *CRISP]
    with out.open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        for i in range(n):
            w.writerow(
                [i, labels[i], fold[i]]
                + [columns[e][i] for e in extra]
                + [fmt(scores[c][i]) for c in SCORERS]
                + [crisp[c][i] for c in CRISP]
            )
    return out


def main() -> None:
    for spec in DATASETS:
        print(run(*spec).relative_to(HERE.parent))


if __name__ == "__main__":
    main()
