"""Synthetic ``Results`` for tests of figures and pages (no files, no manifest).

``synthetic_results()`` builds a Results from binormal scores through the real battery
(``analyse_classifier`` / ``analyse_pair`` / ``prior_result``), so every array has the shape and
the invariants a real build gives. Options add the uncertainty extras of the contract (bands,
fold averages, difference bands, significant regions); their numbers come from a small stratified
bootstrap and from per-fold envelopes of the synthetic data, so they are plausible but they are
NOT the analyses of ``ccreport.analysis.bootstrap``: use them to exercise drawing code only.

    from tests.synthetic import synthetic_results
    results = synthetic_results()                       # 2 datasets x 5 classifiers, 4 priors
    results = synthetic_results(datasets=("one",), bands=True, folds=True)
"""

from __future__ import annotations

import dataclasses
import hashlib

import numpy as np
from scipy.integrate import trapezoid

from ccreport.analysis.priors import BetaPrior, PointPrior, UniformPrior
from ccreport.project.settings import AnalysisSettings
from ccreport.results import (
    Band,
    ClassifierResult,
    ComparisonResult,
    DatasetResult,
    DifferenceBand,
    FoldAverageResult,
    Results,
    SignificantRegion,
    SimultaneousBand,
)
from ccreport.tasks.battery import analyse_classifier, analyse_pair, pairs, prior_result

# name -> (binormal separation d', spread ratio of positives, crisp?)
CLASSIFIERS = {
    "logreg": (1.6, 1.0, False),
    "naive_bayes": (1.2, 1.6, False),
    "tree": (1.1, 0.7, False),
    "knn": (1.3, 1.2, False),
    "stump": (0.7, 1.0, False),
    "tree_crisp": (1.0, 1.0, True),
}
WORSE_THAN_TRIVIAL = "inverted"  # scores that rank backwards: no operating range at all
GRID = np.linspace(0.0, 1.0, 201)


def binormal(rng, n, d=1.0, prevalence=0.5):
    """Labels (both classes present) and binormal scores: negatives N(0, 1), positives N(d, 1)."""
    y = rng.random(n) < prevalence
    y[:2] = [True, False]
    return y, rng.normal(size=n) + d * y


def default_priors() -> dict:
    return {
        "uniform": (UniformPrior(), {"distribution": "uniform"}),
        "sceptic": (BetaPrior(2, 8), {"distribution": "beta", "a": 2, "b": 8}),
        "german-5to1": (PointPrior(0.68), {"distribution": "point", "pc": 0.68}),
        "around-5to1": (BetaPrior(13.6, 6.4), {"distribution": "beta", "a": 13.6, "b": 6.4}),
    }


def _seed(*key) -> int:
    return int.from_bytes(hashlib.sha256("/".join(map(str, key)).encode()).digest()[:4], "little")


def _scores(rng, labels, d, spread, n_levels=None):
    scores = np.where(
        labels == 1, rng.normal(d, spread, labels.size), rng.normal(0.0, 1.0, labels.size)
    )
    if n_levels:  # a tree gives few distinct scores
        scores = np.round(scores * n_levels) / n_levels
    return scores


def _on_grid(c: ClassifierResult):
    return np.interp(GRID, c.envelope_pc, c.envelope_nec)


def _bootstrap_band(name, labels, scores, predictions, level=0.9, replicates=60, seed=0):
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(labels == 1), np.flatnonzero(labels == 0)
    curves = []
    for _ in range(replicates):
        idx = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
        c = analyse_classifier(
            name,
            labels[idx],
            None if scores is None else scores[idx],
            None if predictions is None else predictions[idx],
            {},
        )
        curves.append(_on_grid(c))
    curves = np.array(curves)
    alpha = (1 - level) / 2
    lower, upper = np.quantile(curves, [alpha, 1 - alpha], axis=0)
    widen = 0.6 * (upper - lower)
    return Band(
        level=level,
        replicates=replicates,
        method="synthetic stratified bootstrap (test data)",
        target="lower envelope",
        pc=GRID,
        lower=lower,
        upper=upper,
        simultaneous=SimultaneousBand(
            np.clip(lower - widen, 0, None), upper + widen, "synthetic (test data)"
        ),
    )


def _fold_average(name, labels, scores, predictions, n_folds=5, seed=0):
    rng = np.random.default_rng(seed)
    folds = rng.permutation(labels.size) % n_folds
    curves = []
    for k in range(n_folds):
        m = folds == k
        c = analyse_classifier(
            name,
            labels[m],
            None if scores is None else scores[m],
            None if predictions is None else predictions[m],
            {},
        )
        curves.append(_on_grid(c))
    curves = np.array(curves)
    mean = curves.mean(axis=0)
    return FoldAverageResult(
        n_folds=n_folds,
        pc=GRID,
        nec=mean,
        lower=curves.min(axis=0),
        upper=curves.max(axis=0),
        expected_cost={"uniform": float(trapezoid(mean, GRID))},
    )


def _difference_extras(m: ComparisonResult, band_a, band_b):
    diff = np.interp(GRID, m.difference_pc, m.difference)
    half = (
        0.5 * np.sqrt((band_a.upper - band_a.lower) ** 2 + (band_b.upper - band_b.lower) ** 2) / 2
    )
    lower, upper = diff - half, diff + half
    significant, start = [], None
    sign = np.where(upper < 0, -1, np.where(lower > 0, 1, 0))
    for i in range(GRID.size + 1):
        s = sign[i] if i < GRID.size else 0
        if start is not None and (i == GRID.size or s != sign[start]):
            significant.append(
                SignificantRegion(
                    float(GRID[start]), float(GRID[i - 1]), m.a if sign[start] < 0 else m.b
                )
            )
            start = None
        if start is None and i < GRID.size and s != 0:
            start = i
    band = DifferenceBand(
        level=0.9, replicates=60, pc=GRID, lower=lower, upper=upper, method="synthetic (test data)"
    )
    return band, tuple(significant)


def synthetic_dataset(
    name: str = "alpha",
    classifiers=("logreg", "naive_bayes", "tree", "stump", "tree_crisp"),
    priors: dict | None = None,
    n_pos: int = 90,
    n_neg: int = 140,
    bands: bool = False,
    folds: bool = False,
    dense: bool = False,
) -> DatasetResult:
    """One dataset of binormal scores. ``dense`` uses thousands of instances (dense ROC curves).

    A classifier named ``WORSE_THAN_TRIVIAL`` ("inverted") ranks backwards: its envelope is the
    trivial one and it has no operating range.
    """
    priors = default_priors() if priors is None else priors
    analysis_priors = {p: prior for p, (prior, _) in priors.items()}
    if dense:
        n_pos, n_neg = 2500, 3500
    rng = np.random.default_rng(_seed(name))
    labels = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    results, band_of = {}, {}
    for cname in classifiers:
        d, spread, crisp = CLASSIFIERS.get(
            cname, (-1.0, 1.0, False) if cname == WORSE_THAN_TRIVIAL else (1.0, 1.0, False)
        )
        scores = _scores(rng, labels, d, spread, n_levels=3 if cname.startswith("tree") else None)
        predictions = None
        if crisp:
            predictions, scores = (scores > 0.5 * d).astype(int), None
        c = analyse_classifier(cname, labels, scores, predictions, analysis_priors)
        if bands:
            band_of[cname] = _bootstrap_band(
                cname, labels, scores, predictions, seed=_seed(name, cname)
            )
            c = dataclasses.replace(c, band=band_of[cname])
        if folds:
            c = dataclasses.replace(
                c,
                fold_average=_fold_average(
                    cname, labels, scores, predictions, seed=_seed(name, cname, "f")
                ),
            )
        results[cname] = c
    comparisons = {}
    for a, b in pairs(list(results)):
        m = analyse_pair(results[a], results[b])
        if bands:
            band, significant = _difference_extras(m, band_of[a], band_of[b])
            m = dataclasses.replace(m, difference_band=band, significant=significant)
        comparisons[m.key] = m
    return DatasetResult(
        name=name,
        path=f"data/{name}.csv",
        sha256="0" * 64,
        n_pos=n_pos,
        n_neg=n_neg,
        positive_label="pos",
        negative_label="neg",
        n_folds=5 if folds else None,
        classifiers=results,
        comparisons=comparisons,
        priors=tuple(priors),
    )


def synthetic_results(
    datasets=("alpha", "beta"),
    classifiers=("logreg", "naive_bayes", "tree", "stump", "tree_crisp"),
    priors: dict | None = None,
    bands: bool = False,
    folds: bool = False,
    dense: bool = False,
    title: str = "Synthetic cost curves",
) -> Results:
    """A whole Results: each name in ``datasets`` is one dataset with the given classifiers."""
    priors = default_priors() if priors is None else priors
    data = {
        d: synthetic_dataset(d, classifiers, priors, bands=bands, folds=folds, dense=dense)
        for d in datasets
    }
    return Results(
        title=title,
        generator="ccreport test",
        versions={},
        settings=AnalysisSettings(seed=2006, confidence=0.9, bootstrap=60, band="pointwise"),
        inputs=(),
        priors={
            p: prior_result(p, prior, tuple(params.items()))
            for p, (prior, params) in priors.items()
        },
        datasets=data,
        manifest_text="",
    )
