"""Which threshold of which classifier is optimal where: threshold tables and the dataset hybrid.

Drummond & Holte 2006, section 3.1 and section 5.1.2 (cost-minimizing selection): the lower
envelope of a set of cost lines is the dual of the ROC convex hull of their points. Hull vertex k
(a threshold of some classifier) is optimal on the PC(+) interval between the envelope vertices
dual to its two incident hull edges; the edge from vertex k to k+1 with rate differences
``dF, dT`` is the envelope vertex ``pc = dF / (dF + dT)`` (Eq. 3, slope S = dT / dF, pc = 1/(1+S)),
where the two thresholds tie, together with every other ROC point lying on that edge.

The *dataset hybrid* is the same construction over the ROC points of all classifiers evaluated
on the same instances (Provost & Fawcett 2001; D&H 2006 section 5): the hull of their union,
each vertex labelled by classifier and threshold. All arithmetic on points is in counts, so
"lies on the hull" is an exact integer test.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from ..envelope import Envelope, envelope_from_hull
from ..roc import RocCurve, hull_indices
from .pruning import near_hull


def union_hull(fp, tp, owner, n_pos: int, n_neg: int) -> np.ndarray:
    """Indices of the convex-hull vertices of a set of ROC points in counts, from (0,0) to (N,P).

    The set must contain (0, 0) and (n_neg, n_pos). Points are ordered by (fp, tp, owner), each
    tp raised to the running maximum (which adds only points under the hull), and the hull of
    that monotone path is taken. Where several points coincide with a vertex, the one with the
    smallest ``owner`` is returned (the first classifier in the caller's order).
    """
    fp, tp, owner = np.asarray(fp, float), np.asarray(tp, float), np.asarray(owner)
    order = np.lexsort((owner, tp, fp))
    f, t = fp[order], tp[order]
    raised = np.maximum.accumulate(t)
    path = RocCurve(tp=raised, fp=f, thresholds=np.zeros(f.size), n_pos=n_pos, n_neg=n_neg)
    h = hull_indices(path)
    new = np.ones(f.size, bool)
    new[1:] = (f[1:] != f[:-1]) | (t[1:] != t[:-1])
    first_of_run = np.maximum.accumulate(np.where(new, np.arange(f.size), 0))
    v = first_of_run[h]
    if not np.array_equal(t[v], raised[h]):  # a hull vertex is never a raised point
        raise AssertionError("union_hull: a hull vertex is not one of the points")
    return order[v]


def edge_pc(fp, tp, n_pos, n_neg) -> np.ndarray:
    """PC(+) of the envelope vertex dual to each hull edge: ``dF / (dF + dT)`` (D&H 2006, Eq. 3).

    Takes the hull in counts: ``pc = dfp P / (dfp P + dtp N)`` is a ratio of exact integers
    rounded once, so equal rationals (the same switch point seen from two folds) give equal
    floats. 0 for a vertical edge (dF = 0), 1 for a horizontal one (dT = 0); increasing.
    """
    num = np.diff(fp) * float(n_pos)
    return num / (num + np.diff(tp) * float(n_neg))


@dataclass(frozen=True)
class Tie:
    """ROC points that are all optimal at one PC(+): ``members`` are ``(classifier, threshold,
    fpr, tpr)`` ordered by predicted positives (fewest first)."""

    pc: float
    members: tuple[tuple[str, float, float, float], ...]


@dataclass(frozen=True, eq=False)
class Hybrid:
    """Cost-minimizing selection over the thresholds of one or several classifiers.

    Per hull vertex (from (0, 0) to (1, 1)): ``classifier`` (index into ``names``),
    ``threshold``, rates ``fpr``/``tpr`` and the closed PC(+) interval ``[low, high]`` on which it
    is optimal (zero width for a vertex optimal only at pc = 0 or 1). ``ties``: at each envelope
    vertex, every ROC point optimal there. ``envelope`` is the lower envelope (with
    ``hull_thresholds``). Coinciding points of different classifiers are labelled with the first.
    """

    names: tuple[str, ...]
    classifier: np.ndarray
    threshold: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    low: np.ndarray
    high: np.ndarray
    ties: tuple[Tie, ...]
    envelope: Envelope

    def segments(self) -> list[dict]:
        """Envelope segments of positive width: ``{low, high, classifier, threshold}``."""
        wide = np.flatnonzero(self.high > self.low)
        return [
            {
                "low": float(self.low[k]),
                "high": float(self.high[k]),
                "classifier": self.names[self.classifier[k]],
                "threshold": float(self.threshold[k]),
            }
            for k in wide
        ]

    def to_dict(self) -> dict:
        """``{segments, lower_envelope}`` as in results.json (+inf thresholds stay floats)."""
        return {
            "segments": self.segments(),
            "lower_envelope": np.column_stack([self.envelope.pc, self.envelope.nec]).tolist(),
        }


def dataset_hybrid(rocs: Mapping[str, RocCurve], keeps=None) -> Hybrid:
    """The cost-minimizing hybrid of several classifiers scored on the same instances.

    The lower envelope over all their thresholds (D&H 2006 section 5.1.2), each segment labelled
    by classifier and threshold, with the ties at its vertices. One classifier gives its
    threshold table. All curves must have the same class counts (same instances).
    ``keeps`` (optional): each curve's :func:`ccreport.analysis.roc.hull_indices`, if known.
    """
    names = tuple(rocs)
    if not names:
        raise ValueError("dataset_hybrid needs at least one classifier")
    curves = [rocs[n] for n in names]
    n_pos, n_neg = curves[0].n_pos, curves[0].n_neg
    for name, roc in zip(names, curves):
        if (roc.n_pos, roc.n_neg) != (n_pos, n_neg):
            raise ValueError(
                f"classifier {name!r} has {roc.n_pos} positives and {roc.n_neg} negatives, "
                f"{names[0]!r} has {n_pos} and {n_neg}: a hybrid needs the same instances"
            )
    keeps = [hull_indices(roc) for roc in curves] if keeps is None else list(keeps)
    fp = np.concatenate([roc.fp[k] for roc, k in zip(curves, keeps)])
    tp = np.concatenate([roc.tp[k] for roc, k in zip(curves, keeps)])
    thr = np.concatenate([roc.thresholds[k] for roc, k in zip(curves, keeps)])
    owner = np.concatenate([np.full(k.size, c) for c, k in enumerate(keeps)])
    v = union_hull(fp, tp, owner, n_pos, n_neg)
    h_fp, h_tp = fp[v], tp[v]
    fpr, tpr = h_fp / n_neg, h_tp / n_pos
    pcs = edge_pc(h_fp, h_tp, n_pos, n_neg)
    env = replace(envelope_from_hull(fpr, tpr), hull_thresholds=thr[v])
    ties = _ties(curves, names, h_fp, h_tp, pcs)
    return Hybrid(
        names=names,
        classifier=owner[v],
        threshold=thr[v],
        fpr=fpr,
        tpr=tpr,
        low=np.concatenate(([0.0], pcs)),
        high=np.concatenate((pcs, [1.0])),
        ties=ties,
        envelope=env,
    )


def threshold_table(roc: RocCurve, name: str = "", keep=None) -> Hybrid:
    """Per hull vertex of one classifier: its threshold and the PC(+) interval where it is
    optimal."""
    return dataset_hybrid({name: roc}, None if keep is None else [keep])


def _ties(curves, names, h_fp, h_tp, pcs) -> tuple[Tie, ...]:
    """Every ROC point on each hull edge (exact test in counts), grouped by edge.

    The trivial points (0, 0) and (N, P) are taken from the first classifier only. Only points
    that may lie on the hull (:func:`.pruning.near_hull`) are tested.
    """
    n_pos, n_neg = curves[0].n_pos, curves[0].n_neg
    parts = []
    for c, roc in enumerate(curves):
        idx = near_hull(roc.fp, roc.tp, h_fp, h_tp)  # the others are strictly under the hull
        if c > 0:
            idx = idx[(idx > 0) & (idx < roc.fp.size - 1)]
        parts.append((roc.fp[idx], roc.tp[idx], roc.thresholds[idx], np.full(idx.size, c)))
    fp, tp, thr, owner = (np.concatenate(p) for p in zip(*parts))
    last_edge = h_fp.size - 2
    # the edge (e, e+1) with h_fp[e] < fp <= h_fp[e+1]; fp = 0 belongs to edge 0
    e = np.clip(np.searchsorted(h_fp, fp, side="left") - 1, 0, last_edge)
    cross = (fp - h_fp[e]) * (h_tp[e + 1] - h_tp[e]) - (tp - h_tp[e]) * (h_fp[e + 1] - h_fp[e])
    on = cross == 0.0
    # a point at vertex v (v < last) also belongs to the edge starting there
    v = np.clip(np.searchsorted(h_fp, fp, side="left"), 0, h_fp.size - 1)
    at_vertex = np.full(fp.size, -1)
    for shift in (0, 1):  # fp = 0 may be at vertex 0 or at the top of a vertical first edge
        w = np.clip(v + shift, 0, h_fp.size - 1)
        hit = (h_fp[w] == fp) & (h_tp[w] == tp) & (at_vertex < 0)
        at_vertex[hit] = w[hit]
    extra = on & (at_vertex >= 0) & (at_vertex <= last_edge) & (at_vertex != e)
    point = np.concatenate((np.flatnonzero(on), np.flatnonzero(extra)))
    edge = np.concatenate((e[on], at_vertex[extra]))
    order = np.lexsort((owner[point], tp[point] + fp[point], edge))
    point, edge = point[order], edge[order]
    bounds = np.flatnonzero(np.diff(edge)) + 1
    ties = []
    for group in np.split(np.arange(point.size), bounds):
        if group.size < 2:
            continue
        p = point[group]
        members = tuple(
            (names[int(owner[i])], float(thr[i]), float(fp[i] / n_neg), float(tp[i] / n_pos))
            for i in p
        )
        ties.append(Tie(pc=float(pcs[edge[group[0]]]), members=members))
    return tuple(ties)
