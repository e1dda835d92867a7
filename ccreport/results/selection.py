"""Result records of the selection criteria, hybrids and the decision box (D&H 2006 section 5)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .convert import dicts

CURVE_POINTS = 1001  # a hybrid curve with more vertices is written on a grid of this many PC(+)


def bounded_curve(curve) -> list[list[float]]:
    """``[[pc, nec], ...]`` of a hybrid curve (an object with ``curve()`` and ``__call__``): every
    vertex when there are at most :data:`CURVE_POINTS`, else its values on an even PC(+) grid (for
    drawing; areas stay exact, computed from the pieces)."""
    vertices = curve.curve()
    if len(vertices) <= CURVE_POINTS:
        return vertices
    grid = np.linspace(0.0, 1.0, CURVE_POINTS)
    return np.column_stack([grid, curve(grid)]).tolist()


@dataclass(frozen=True, eq=False)
class NotApplicable:
    """A criterion that cannot be evaluated for a classifier, and why."""

    reason: str

    def to_dict(self) -> dict:
        return {"not_applicable": self.reason}


@dataclass(frozen=True, eq=False)
class SelectionResult:
    """Thresholds, threshold table, selection criteria and out-of-fold curve of one classifier.

    ``thresholds`` align with the ROC points (+inf first); ``table`` is the classifier's
    :class:`ccreport.analysis.selection.Hybrid` (per hull vertex: threshold and the PC(+) interval
    where it is optimal, ties); ``criteria``: criterion name -> a choice of
    :mod:`ccreport.analysis.selection` (each with ``to_dict``) or :class:`NotApplicable`;
    ``out_of_fold``: an :class:`ccreport.analysis.selection.OutOfFold` (with folds) or None.
    """

    thresholds: np.ndarray
    table: Any
    criteria: dict[str, Any]
    out_of_fold: Any | None = None

    def to_dict(self) -> dict:
        """``thresholds``, ``criteria`` and (with folds) ``out_of_fold`` of the classifier."""
        out = {
            "thresholds": self.thresholds,
            "criteria": {k: _choice_dict(v) for k, v in self.criteria.items()},
        }
        if self.out_of_fold is not None:
            out["out_of_fold"] = _out_of_fold_dict(self.out_of_fold)
        return out


def _choice_dict(choice) -> dict:
    d = choice.to_dict()
    if "curve" in d:
        d["curve"] = bounded_curve(choice.curve)
    return d


def _out_of_fold_dict(oof) -> dict:
    return {"area": oof.area, "optimism": oof.optimism, "curve": bounded_curve(oof.curve)}


@dataclass(frozen=True, eq=False)
class HybridResult:
    """The dataset hybrid: the cost-minimizing selection among all classifiers and thresholds.

    ``hybrid`` is a :class:`ccreport.analysis.selection.Hybrid` (segments labelled by classifier
    and threshold, ties, the lower envelope); ``out_of_fold`` (with folds) its honest version.
    """

    hybrid: Any
    out_of_fold: Any | None = None
    families: dict[str, Any] = field(
        default_factory=dict
    )  # parameter-based families: FamilyResult | NotApplicable

    def to_dict(self) -> dict:
        out = self.hybrid.to_dict()
        if self.out_of_fold is not None:
            out["out_of_fold"] = _out_of_fold_dict(self.out_of_fold)
        if self.families:
            out["families"] = {k: v.to_dict() for k, v in self.families.items()}
        return out


@dataclass(frozen=True, eq=False)
class FamilyResult:
    """A declared parameter-based family (D&H 2000 s. 2.3) on one dataset: ``selection`` is the
    :class:`ccreport.analysis.selection.IndependentSelection` of its nearest-training-condition
    hybrid, ``members`` the (classifier, training PC(+)) pairs as declared.

    JSON (``datasets.<d>.hybrid.families.<name>``): ``rule`` "parameter_based", ``area``,
    ``excess``, ``curve``, ``segments`` ``[{low, high, classifier}]`` and ``members``
    ``{classifier: training PC(+)}``.
    """

    selection: Any
    members: tuple[tuple[str, float], ...]

    def to_dict(self) -> dict:
        d = _choice_dict(self.selection)
        d["members"] = {n: float(t) for n, t in self.members}
        return d


@dataclass(frozen=True, eq=False)
class Decision:
    """One line of the decision box: what to deploy under one point prior or one criterion.

    ``threshold`` (None: +inf, flag nobody) with ``threshold_interval`` ``[lo, hi]``: every cut-off
    in (lo, hi] flags the same evaluated cases; ``pc_interval``: the PC(+) range over which the
    choice stays the cheapest; ``mix``: for a randomised criterion choice ``{thresholds,
    weight_first}``; ``runner_up``: the next-best other classifier, with the paired bootstrap test
    against it where one was computed; ``at_priors``: for a criterion, prior -> its cost there;
    ``cost_per_case``: ``{value, interval, unit, cost_fn, cost_fp, p_positive}`` for a prior
    with costs in units. ``ties``: other classifiers exactly as good. ``flagged_share``: the share
    of cases the deployed choice flags. Constrained criteria
    (:func:`ccreport.tasks.decisions.constrained_decision`): ``compared_on`` (the one basis every
    classifier was ranked on), ``ranking`` (every classifier, best first, with the rates it was
    ranked on), ``single_threshold`` (the ranking's winner on the other basis), ``constraint`` (the
    constrained rate with exact binomial intervals) and ``price`` (its cost beside the unconstrained
    optimum and the trivial classifiers).
    """

    basis: str  # "prior" or "criterion"
    kind: str  # point | neyman_pearson | workforce | performance_independent
    classifier: str | None
    threshold: float | None
    threshold_interval: tuple[float, float] | None
    fpr: float | None
    tpr: float | None
    pc: float | None = None
    pc_interval: tuple[float, float] | None = None
    expected_cost: float | None = None
    expected_cost_interval: tuple[float, float] | None = None
    mix: dict | None = None
    flagged: float | None = None
    runner_up: dict | None = None
    cost_per_case: dict | None = None
    at_priors: dict | None = None
    ties: tuple[str, ...] = ()
    note: str = ""
    flagged_share: float | None = None
    compared_on: str | None = None
    ranking: list | None = None
    single_threshold: dict | None = None
    constraint: dict | None = None
    price: dict | None = None

    def to_dict(self) -> dict:
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None or (f.name in ("ties", "note") and not value):
                continue
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, eq=False)
class DecisionsResult:
    """The decision box of a dataset: point prior name -> Decision, criterion name -> Decision."""

    priors: dict[str, Decision]
    criteria: dict[str, Decision]

    def to_dict(self) -> dict:
        return {"priors": dicts(self.priors), "criteria": dicts(self.criteria)}


@dataclass(frozen=True, eq=False)
class HybridBand:
    """The dataset hybrid's band, expected-cost intervals, criterion intervals and paired tests:
    ``inference`` is a :class:`ccreport.analysis.selection.hybrid_bands.HybridInference`.

    JSON (``datasets.<d>.hybrid.band``): ``level``, ``replicates``, ``method``, ``target``,
    ``kind`` ("pointwise"), ``pc``, ``estimate``, ``lower``, ``upper``, ``expected_cost_interval``
    (prior -> {estimate, lower, upper}), ``tests`` ([{a, b, prior, estimate, lower, upper,
    p_value}, ...]); the criteria intervals go beside the criterion results
    (:meth:`criterion_intervals`).
    """

    level: float
    replicates: int
    method: str
    target: str
    inference: Any

    def to_dict(self) -> dict:
        inf = self.inference
        return {
            "level": self.level,
            "replicates": self.replicates,
            "method": self.method,
            "target": self.target,
            "kind": "pointwise",
            "pc": inf.grid,
            "estimate": inf.estimate,
            "lower": inf.lower,
            "upper": inf.upper,
            "expected_cost_interval": {p: i.to_dict() for p, i in inf.expected.items()},
            "tests": [
                {k: v for k, v in t.items() if k != "interval"} | t["interval"].to_dict()
                for t in inf.tests
            ],
        }

    def criterion_intervals(self, criterion: str, who: str) -> dict | None:
        """prior -> {estimate, lower, upper} of ``who``'s (a classifier, or "dataset") choice."""
        found = self.inference.criteria.get(criterion, {}).get(who)
        return None if found is None else {p: i.to_dict() for p, i in found.items()}
