"""Every selection result for one classifier or one dataset, shaped as results.json wants it.

Criteria are declared by small frozen records (what a manifest's ``[[criteria]]`` entry
becomes); :func:`select_classifier` evaluates them on a :class:`RocCurve`, :func:`select_scores`
does the same from labels and scores with a single sort shared by the in-sample curve and the
out-of-fold procedure, and :func:`select_dataset` builds the dataset hybrid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from ..envelope import Envelope, envelope_from_hull
from ..roc import RocCurve, hull_indices, roc_from_sorted
from .criteria import NeymanPearsonChoice, WorkforceChoice, neyman_pearson, workforce
from .hull import Hybrid, dataset_hybrid, threshold_table
from .independent import RULES, IndependentSelection, performance_independent
from .out_of_fold import OutOfFold, fold_index, out_of_fold, out_of_fold_presorted, sorted_by_score
from .pruning import roc_hull_indices


@dataclass(frozen=True)
class NeymanPearson:
    """``kind = "neyman_pearson"``: the best TPR at FPR <= ``max_fpr`` (D&H 2006 s. 5.1.3)."""

    max_fpr: float


@dataclass(frozen=True)
class Workforce:
    """``kind = "workforce"``: at most ``capacity`` cases flagged, or ``capacity_share`` of them.

    ``n_pos``/``n_neg``: the batch the workforce faces (default: the evaluated data's counts).
    """

    capacity: float | None = None
    capacity_share: float | None = None
    n_pos: float | None = None
    n_neg: float | None = None


@dataclass(frozen=True)
class PerformanceIndependent:
    """``kind = "performance_independent"``: threshold from PC(+) alone by ``rule``."""

    rule: str = "bayes_prior"
    prior: float | None = None

    def __post_init__(self):
        if self.rule not in RULES:
            raise ValueError(f"unknown rule {self.rule!r}; expected one of {RULES}")


Criterion = NeymanPearson | Workforce | PerformanceIndependent
Choice = NeymanPearsonChoice | WorkforceChoice | IndependentSelection


@dataclass(frozen=True, eq=False)
class ClassifierSelection:
    """Thresholds, threshold table, criteria and (with folds) the out-of-fold curve of a
    classifier."""

    roc: RocCurve
    envelope: Envelope
    table: Hybrid
    criteria: dict[str, Choice]
    out_of_fold: OutOfFold | None = None

    def to_dict(self) -> dict:
        """``thresholds``, ``criteria.<name>`` and (with folds) ``out_of_fold`` of results.json."""
        d = {
            "thresholds": self.roc.thresholds.tolist(),
            "criteria": {name: c.to_dict() for name, c in self.criteria.items()},
        }
        if self.out_of_fold is not None:
            d["out_of_fold"] = self.out_of_fold.to_dict()
        return d


def select_classifier(
    roc: RocCurve,
    criteria: Mapping[str, Criterion],
    envelope: Envelope | None = None,
    oof: OutOfFold | None = None,
    name: str = "",
    keep=None,
) -> ClassifierSelection:
    """Evaluate every criterion on one classifier's ROC points.

    With ``oof`` (from :func:`out_of_fold` on this classifier), Neyman-Pearson and workforce
    choices also carry their held-out rates. ``keep``: the curve's hull indices, if known.
    """
    keep = hull_indices(roc) if keep is None else keep
    if envelope is None:
        envelope = envelope_from_hull(roc.fp[keep] / roc.n_neg, roc.tp[keep] / roc.n_pos)
    choices: dict[str, Choice] = {}
    for key, c in criteria.items():
        if isinstance(c, NeymanPearson):
            choice = neyman_pearson(roc, c.max_fpr, keep=keep)
            if oof is not None:
                choice = replace(choice, out_of_fold=oof.neyman_pearson(c.max_fpr))
        elif isinstance(c, Workforce):
            choice = workforce(roc, c.capacity, c.capacity_share, c.n_pos, c.n_neg, keep=keep)
            if oof is not None:
                share = choice.capacity / (choice.n_pos + choice.n_neg)
                choice = replace(choice, out_of_fold=oof.workforce(capacity_share=share))
        elif isinstance(c, PerformanceIndependent):
            choice = performance_independent(roc, c.rule, c.prior, envelope=envelope)
        else:
            raise TypeError(f"criterion {key!r}: unknown criterion {c!r}")
        choices[key] = choice
    return ClassifierSelection(
        roc=roc,
        envelope=envelope,
        table=threshold_table(roc, name, keep),
        criteria=choices,
        out_of_fold=oof,
    )


def select_scores(
    y_true, scores, criteria: Mapping[str, Criterion], folds=None, name: str = ""
) -> ClassifierSelection:
    """:func:`select_classifier` from labels and scores, with one sort for everything.

    With ``folds`` (one label per row) the out-of-fold curve and held-out criterion rates too.
    """
    y = np.asarray(y_true).astype(bool)
    s = np.asarray(scores, dtype=float)
    if s.shape != y.shape or y.ndim != 1:
        raise ValueError(f"scores has shape {s.shape}, y_true has shape {y.shape}")
    if not np.all(np.isfinite(s)):
        raise ValueError("scores must be finite")
    if y.all() or not y.any():
        raise ValueError("selection needs both classes: y_true has only one class")
    labels, fold = fold_index(folds) if folds is not None else (None, None)
    if fold is not None and fold.shape != y.shape:
        raise ValueError(f"folds has shape {fold.shape}, y_true has shape {y.shape}")
    s_sorted, y_sorted, fold_sorted = sorted_by_score(y, s, fold)
    roc = roc_from_sorted(y_sorted, s_sorted)
    keep = roc_hull_indices(roc)  # no repeated points: the same as hull_indices
    env = envelope_from_hull(roc.fp[keep] / roc.n_neg, roc.tp[keep] / roc.n_pos)
    oof = None
    if folds is not None:
        columns = [(s_sorted, y_sorted, fold_sorted)]
        oof = out_of_fold_presorted((name,), columns, labels, in_sample_area=env.area, rocs=[roc])
    return select_classifier(roc, criteria, envelope=env, oof=oof, name=name, keep=keep)


@dataclass(frozen=True, eq=False)
class DatasetSelection:
    """The dataset hybrid and (with folds) its out-of-fold version."""

    hybrid: Hybrid
    out_of_fold: OutOfFold | None = None

    def to_dict(self) -> dict:
        """``hybrid`` of results.json: ``segments``, ``lower_envelope`` and ``out_of_fold``."""
        d = self.hybrid.to_dict()
        if self.out_of_fold is not None:
            d["out_of_fold"] = self.out_of_fold.to_dict()
        return d


def select_dataset(rocs: Mapping[str, RocCurve], y_true=None, scores=None, folds=None):
    """The dataset hybrid over ``rocs``; with ``y_true``, ``scores`` (name -> scores, the same
    classifiers) and ``folds``, also its out-of-fold version (selection among all of them)."""
    hybrid = dataset_hybrid(rocs)
    oof = None
    if folds is not None:
        if y_true is None or scores is None:
            raise ValueError("the out-of-fold hybrid needs y_true and the scores")
        oof = out_of_fold(y_true, scores, folds, in_sample_area=hybrid.envelope.area)
    return DatasetSelection(hybrid=hybrid, out_of_fold=oof)
