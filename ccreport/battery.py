"""The analysis battery: which analyses run for which dataset, classifier and pair, and running them.

Every task is a pure function of arrays. Tasks that draw random numbers get a generator derived from
the project seed and the task's stable key (``task_rng``), so results do not depend on task order,
worker count or which tasks ran before: the same inputs and seed give the same Results.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from .analysis import priors as pr
from .analysis.envelope import Envelope, compare, lower_envelope, operating_range
from .analysis.roc import auc, crisp_roc, roc_points
from .cache import cached_map, done
from .interrupts import ignore_interrupts
from .results import ClassifierResult, ComparisonResult, PriorResult

PRIOR_GRID = np.linspace(0.0, 1.0, 401)


@dataclass(frozen=True)
class Settings:
    """What the manifest asks of the uncertainty analyses, and how many worker processes to use."""

    seed: int = 2006
    confidence: float = 0.9
    bootstrap: int = 1000
    band: str = "pointwise"
    calibration: str = "auto"
    workers: int = 1


def task_rng(seed: int, *key: str) -> np.random.Generator:
    """A generator for one task, from the project seed and the task's stable key (its names)."""
    digest = hashlib.sha256("\x1f".join(key).encode()).digest()
    spawn_key = tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=spawn_key))


# --- priors -----------------------------------------------------------------------------------


def _ratio_or_p(spec):
    params = dict(spec)
    kind = params["distribution"]
    if kind == "point":
        return pr.Fixed(float(params["value"]))
    if kind == "beta":
        return pr.Beta(float(params["a"]), float(params["b"]))
    if kind == "loguniform":
        return pr.LogUniform(float(params["low"]), float(params["high"]))
    return pr.Uniform(float(params["low"]), float(params["high"]))


def make_prior(spec) -> pr.Prior:
    """The analysis object for a validated manifest PriorSpec."""
    kind = spec.distribution
    if kind == "uniform":
        return pr.UniformPrior(float(spec.param("low", 0.0)), float(spec.param("high", 1.0)))
    if kind == "beta":
        return pr.BetaPrior(float(spec.param("a")), float(spec.param("b")))
    if kind == "point":
        return pr.PointPrior(float(spec.param("pc")))
    if kind == "induced":
        return pr.InducedPrior(
            _ratio_or_p(spec.param("p_positive")), _ratio_or_p(spec.param("cost_ratio"))
        )
    raise ValueError(f"unknown prior distribution {kind!r}")


def _plain(value):
    if isinstance(value, tuple) and all(isinstance(v, tuple) and len(v) == 2 for v in value):
        return {k: _plain(v) for k, v in value}
    return value


def prior_result(name: str, prior: pr.Prior, params) -> PriorResult:
    density = prior.density(PRIOR_GRID)
    return PriorResult(
        name=name,
        kind=prior.kind,
        params=_plain(tuple(params)),
        description=prior.describe(),
        grid=PRIOR_GRID,
        density=None if density is None else np.asarray(density, dtype=float),
        point=prior.pc if isinstance(prior, pr.PointPrior) else None,
    )


# --- per classifier and per pair ----------------------------------------------------------------


def analyse_classifier(
    name: str, labels: np.ndarray, scores: np.ndarray | None, predictions: np.ndarray | None, priors: dict
) -> ClassifierResult:
    """ROC points, hull, AUC, lower envelope, operating range and expected costs of one classifier."""
    roc = roc_points(labels, scores) if scores is not None else crisp_roc(labels, predictions)
    env = lower_envelope(roc)
    cost_line = None
    if scores is None:
        fpr, tpr = roc.fpr[1], roc.tpr[1]
        cost_line = (float(fpr), float(1.0 - tpr))
    return ClassifierResult(
        name=name,
        kind="scores" if scores is not None else "crisp",
        auc=auc(roc),
        roc_fpr=roc.fpr,
        roc_tpr=roc.tpr,
        hull_fpr=env.hull_fpr,
        hull_tpr=env.hull_tpr,
        envelope_pc=env.pc,
        envelope_nec=env.nec,
        operating_range=operating_range(env),
        expected_cost={p: prior.expected(env.pc, env.nec) for p, prior in priors.items()},
        cost_line=cost_line,
    )


def envelope_of(c: ClassifierResult) -> Envelope:
    return Envelope(pc=c.envelope_pc, nec=c.envelope_nec, hull_fpr=c.hull_fpr, hull_tpr=c.hull_tpr)


def analyse_pair(a: ClassifierResult, b: ClassifierResult) -> ComparisonResult:
    """Crossovers, where each is better, and the largest difference (D&H 2006, sections 4.3-4.4)."""
    m = compare(envelope_of(a), envelope_of(b))
    comparison = {f.name: getattr(m, f.name) for f in dataclasses.fields(m)}
    return ComparisonResult(
        a=a.name,
        b=b.name,
        expected_cost_difference={p: a.expected_cost[p] - b.expected_cost[p] for p in a.expected_cost},
        **comparison,
    )


def pairs(names):
    """Every unordered pair of classifier names, in manifest order."""
    return list(itertools.combinations(names, 2))


def run_tasks(function, argument_tuples, workers: int):
    """Run ``function(*args)`` for each tuple, in order; in worker processes when workers > 1.

    When a build has a task cache active (:mod:`ccreport.cache`), results found there are reused
    and only the other tasks run.
    """
    return cached_map(function, argument_tuples, lambda todo: _run_all(function, todo, workers))


def _run_all(function, argument_tuples, workers: int):
    if workers <= 1 or len(argument_tuples) <= 1:
        return [done(function(*args)) for args in argument_tuples]
    pool = ProcessPoolExecutor(max_workers=min(workers, len(argument_tuples)), initializer=ignore_interrupts)
    try:
        return [done(r) for r in pool.map(function, *zip(*argument_tuples))]
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # Ctrl-C: tasks not started are dropped
