"""Instance-varying costs: the cost-benefit transform, ROCIV, AUCIV and their cost-space dual.

Fawcett 2006, *ROC graphs with instance-varying costs* (PRL 27), and the ccreport spec
``selection_and_instance_costs.md`` section 3:

* section 3 / Figs. 2, 7, 9 (the cost-benefit transform): decisions Y (act) and N (the default);
  rewrite the 2x2 matrix relative to N, so each instance has one non-negative number, the cost of
  the error it can suffer: a positive's false-negative cost ``c(Y, p, x) = C(N|p, x) - C(Y|p, x)``
  (the TP benefit it brings when caught) and a negative's false-positive cost
  ``c(Y, n, x) = C(Y|n, x) - C(N|n, x)``. In manifest terms, with ``fn``/``fp`` the costs of the
  two errors and ``tp``/``tn`` the benefits of the two correct decisions (a benefit is a negative
  cost): positives cost ``fn + tp``, negatives ``fp + tn``. Negative results are errors (F06 §7).
* section 4 / Algorithm 2 (ROCIV): ``FPR_iv(t) = sum_{neg, s >= t} c / N_total`` and
  ``TPR_iv(t) = sum_{pos, s >= t} c / P_total``: the ROC curve of the data with each instance
  replicated in proportion to its cost. A point is emitted only when the score changes, so a run of
  tied scores is one diagonal segment. ROCIV is therefore the ROC curve of cost-weighted counts,
  and the ROC machinery of :mod:`ccreport.analysis.roc` (PAV convex hull, trapezoid area) and
  :mod:`ccreport.analysis.envelope` (the envelope as the dual of the hull, operating range,
  comparisons) applies unchanged to its rates: :meth:`RocivCurve.as_roc` is the bridge.
* section 5 (AUCIV): the area under the ROCIV points, which equals the cost-weighted Mann-Whitney
  statistic ``sum_{i pos, j neg} c_i c_j (1[s_i > s_j] + 1/2 1[s_i = s_j]) / (P_total N_total)``
  (ties count one half, as Algorithm 2's trapezoids do; spec A11).
* the cost-space dual (spec §3.5-3.6, exact): the cost line of a threshold is
  ``NEC_iv(x) = FNR_iv x + FPR_iv (1 - x)`` with ``x = PC_iv(+) = p(+) cbar_p / (p(+) cbar_p +
  p(-) cbar_n)``, the PC(+) that the class-average costs ``cbar_p = P_total / P`` and
  ``cbar_n = N_total / N`` give. It is exact, not a smoothing: the total cost of errors of a
  threshold on the data is ``P_total FNR_iv + N_total FPR_iv``, which is
  ``(P_total + N_total) NEC_iv(own_pc)`` at the data's own condition
  ``own_pc = P_total / (P_total + N_total)``. Iso-performance lines in ROCIV space have slope
  ``N_total / P_total`` (for other class priors, ``p(-) cbar_n / (p(+) cbar_p)``).

Conventions and degenerate inputs: positive iff ``score >= threshold``; the first ROCIV point has
threshold +inf (nothing positive). Both classes are needed and each class's total cost must be
> 0 (else ValueError: a class whose errors cost nothing has no ROCIV rate). Zero-cost instances
are allowed; a run of tied scores holding only zero-cost instances repeats the previous point
(points are kept, one per distinct score, so they align with the thresholds). Constant scores
give the diagonal, AUCIV 1/2 and no operating range. Equal costs within each class give exactly
the ROC curve (the class constants cancel in the rates).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .envelope import Comparison, Envelope, compare, lower_envelope, operating_range
from .roc import RocCurve, auc

CELLS = ("fn", "fp", "tp", "tn")
TIE_RTOL = 1e-10  # totals of errors closer than this fraction of all costs are equal (rounding)


# --- the cost-benefit transform (F06 section 3) --------------------------------------------------


def transformed_costs(labels, fn=0.0, fp=0.0, tp=0.0, tn=0.0) -> np.ndarray:
    """Each instance's cost of its error, before any check: ``fn + tp`` (positives), ``fp + tn``
    (negatives). Each cell is a number or an array with one value per instance.

    ``fn``: cost of missing a positive, C(N|p); ``fp``: cost of flagging a negative, C(Y|n);
    ``tp``: benefit of catching a positive; ``tn``: benefit of clearing a negative (F06 §3: subtract
    the default decision's row, negate the Y-on-negative cell). For the loader, which reports the
    bad cells itself; analyses call :func:`cost_benefit`.
    """
    y = np.asarray(labels).astype(bool)
    cell = {
        name: np.broadcast_to(np.asarray(value, dtype=float), y.shape)
        for name, value in zip(CELLS, (fn, fp, tp, tn))
    }
    return np.where(y, cell["fn"] + cell["tp"], cell["fp"] + cell["tn"])


def cost_benefit(labels, fn=0.0, fp=0.0, tp=0.0, tn=0.0) -> np.ndarray:
    """Per-instance FN costs of positives and FP costs of negatives (F06 §3), checked.

    Examples (F06, at x = $100): credit approval, Y = approve, p = legitimate (Fig. 2):
    ``fn = 20, tp = 0.02 x, fp = x, tn = 20`` give $22 and $120; charity mailing (§6.1):
    ``tp = x - 1, fp = 1`` give $99 and $1. Raises ValueError when a result is negative or not a
    finite number ("costs always be negative and benefits always be positive", F06 §7).
    """
    costs = transformed_costs(labels, fn, fp, tp, tn)
    bad = np.flatnonzero(~(np.isfinite(costs) & (costs >= 0)))
    if bad.size:
        first = int(bad[0])
        raise ValueError(
            f"{bad.size} instance(s) have a cost that is negative or not a finite number after the "
            f"cost-benefit transform (first: instance {first}, cost {costs[first]!r})"
        )
    return costs


# --- ROCIV points (F06 Algorithm 2) --------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class RocivCurve:
    """ROCIV points from (0, 0) to (1, 1): cumulative costs of the instances at or above each
    threshold.

    ``tp_benefit[k]`` sums the costs of the positives with ``score >= thresholds[k]``,
    ``fp_cost[k]`` those of the negatives; ``thresholds[0]`` is +inf. ``p_total``/``n_total``: each
    class's total cost; ``n_pos``/``n_neg``: the class counts.
    """

    tp_benefit: np.ndarray
    fp_cost: np.ndarray
    thresholds: np.ndarray
    p_total: float
    n_total: float
    n_pos: int
    n_neg: int

    @property
    def tpr(self) -> np.ndarray:
        return self.tp_benefit / self.p_total

    @property
    def fpr(self) -> np.ndarray:
        return self.fp_cost / self.n_total

    @property
    def own_pc(self) -> float:
        """The data's own operating condition, PC_iv(+) = P_total / (P_total + N_total)
        (spec §3.6)."""
        return self.p_total / (self.p_total + self.n_total)

    def totals(self) -> np.ndarray:
        """Total cost of errors on the data of each threshold: missed positives' plus flagged
        negatives' costs."""
        return (self.p_total - self.tp_benefit) + self.fp_cost

    def as_roc(self) -> RocCurve:
        """The same curve as a RocCurve (F06 §4: instances replicated in proportion to their cost),
        for the hull, area and envelope of :mod:`ccreport.analysis.roc` and ``envelope``.

        Its "counts" are the cost fractions themselves (class totals 1): the PAV hull shears the
        path by ``x + y``, which in raw costs would lose one class's steps when the class totals
        differ by many orders of magnitude (say 1e-30 against 1); in rates both axes span [0, 1].
        """
        return RocCurve(tp=self.tpr, fp=self.fpr, thresholds=self.thresholds, n_pos=1.0, n_neg=1.0)


def _check(y_true, scores, costs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y = np.asarray(y_true)
    if y.ndim != 1:
        raise ValueError("y_true must be one-dimensional")
    y = y.astype(bool)
    s = np.asarray(scores, dtype=float)
    c = np.broadcast_to(np.asarray(costs, dtype=float), y.shape)
    if s.shape != y.shape:
        raise ValueError(f"scores has shape {s.shape}, y_true has shape {y.shape}")
    if not np.all(np.isfinite(s)):
        raise ValueError("scores must be finite")
    if not np.all(np.isfinite(c) & (c >= 0)):
        raise ValueError("costs must be finite numbers >= 0 (apply cost_benefit first)")
    n_pos = int(np.count_nonzero(y))
    if n_pos == 0 or n_pos == y.size:
        raise ValueError("ROCIV analysis needs both classes: y_true has only one class")
    return y, s, c


def rociv_points(y_true, scores, costs) -> RocivCurve:
    """ROCIV points, ties moving along one diagonal (F06 Algorithm 2, spec §3.3).

    Parameters
    ----------
    y_true : array of bool (True = positive), shape (n,)
    scores : finite floats, shape (n,), higher = more positive (crisp predictions: 0/1)
    costs : floats >= 0, shape (n,) or a scalar: each positive's FN cost, each negative's FP cost

    One sort; a point per distinct score plus the origin (``k + 1`` points for ``k`` distinct
    scores). Class totals are summed in the instances' given order, so every classifier of one
    dataset gets bit-identical totals (and ``own_pc``); the last point is exactly (1, 1).
    """
    y, s, c = _check(y_true, scores, costs)
    p_total = float(np.sum(c[y]))
    n_total = float(np.sum(c[~y]))
    if not (p_total > 0 and n_total > 0):
        empty = "positives'" if not p_total > 0 else "negatives'"
        raise ValueError(f"the {empty} costs sum to 0; ROCIV needs a total cost > 0 in each class")
    order = np.argsort(-s)  # one sort; the order within ties is irrelevant (tied runs are pooled)
    s_sorted = s[order]
    y_sorted = y[order]
    c_sorted = c[order]
    ends = np.append(np.flatnonzero(np.diff(s_sorted)), s.size - 1)
    tp = np.cumsum(np.where(y_sorted, c_sorted, 0.0))[ends]
    fp = np.cumsum(np.where(y_sorted, 0.0, c_sorted))[ends]
    tp[-1], fp[-1] = p_total, n_total  # the same totals whatever the order of summation
    return RocivCurve(
        tp_benefit=np.minimum(np.concatenate(([0.0], tp)), p_total),
        fp_cost=np.minimum(np.concatenate(([0.0], fp)), n_total),
        thresholds=np.concatenate(([np.inf], s_sorted[ends])),
        p_total=p_total,
        n_total=n_total,
        n_pos=int(np.count_nonzero(y)),
        n_neg=int(y.size - np.count_nonzero(y)),
    )


def auciv(curve: RocivCurve) -> float:
    """AUCIV: area under the ROCIV points (F06 §5), = the cost-weighted Mann-Whitney statistic with
    ties counted one half (spec §3.4, A11)."""
    return auc(curve.as_roc())


def iv_envelope(curve: RocivCurve) -> Envelope:
    """The instance-cost lower envelope: dual of the ROCIV convex hull, over x = PC_iv(+)
    (spec §3.6).

    Its hull (``hull_fpr``/``hull_tpr``) is the ROCIV convex hull, trivial points included.
    """
    return lower_envelope(curve.as_roc())


# --- the cost-space dual ------------------------------------------------------------------------


@dataclass(frozen=True)
class MinTotalCost:
    """The threshold with the least total cost of errors on the data, and that total (data's units).

    ``threshold`` is +inf when predicting nothing positive is cheapest. Among equal totals the
    highest threshold (fewest predicted positives) is taken; totals within
    :data:`TIE_RTOL` x (P_total + N_total) of the least count as equal, since totals that are equal
    in exact arithmetic come out of different sums and may differ in the last bits.
    """

    threshold: float
    total: float


def min_total_cost(curve: RocivCurve) -> MinTotalCost:
    """argmin over thresholds of ``sum_{pos missed} c + sum_{neg flagged} c`` (spec §3.6).

    Equals ``(P_total + N_total) * envelope(own_pc)``: at a fixed x the envelope's minimum is
    reached at a hull vertex, i.e. a single threshold.
    """
    totals = curve.totals()
    k = int(np.argmax(totals <= totals.min() + TIE_RTOL * (curve.p_total + curve.n_total)))
    return MinTotalCost(threshold=float(curve.thresholds[k]), total=float(totals[k]))


def _pairs(x, y) -> list[list[float]]:
    return np.column_stack([x, y]).tolist()


def _finite_or_none(value: float):
    return float(value) if np.isfinite(value) else None


@dataclass(frozen=True, eq=False)
class InstanceCostResult:
    """One classifier's instance-cost analysis on one dataset (F06; spec §3).

    ``expected_cost`` maps a prior's name to the expected NEC_iv of the instance-cost envelope with
    the prior read as a distribution over x = PC_iv(+) (the axis of that envelope).
    """

    auciv: float
    rociv: RocivCurve
    envelope: Envelope
    own_pc: float
    min_total_cost: MinTotalCost
    expected_cost: dict[str, float]
    operating_range: tuple[float, float] | None

    def to_dict(self) -> dict:
        """The results.json form: ``instance_costs`` of ``datasets.<d>.classifiers.<c>``.

        ``min_total_cost.threshold`` is null when predicting nothing positive is cheapest (+inf);
        ``operating_range`` is null when no threshold beats both trivial classifiers.
        """
        return {
            "auciv": float(self.auciv),
            "rociv_points": _pairs(self.rociv.fpr, self.rociv.tpr),
            "rociv_hull": _pairs(self.envelope.hull_fpr, self.envelope.hull_tpr),
            "lower_envelope": _pairs(self.envelope.pc, self.envelope.nec),
            "own_pc": float(self.own_pc),
            "min_total_cost": {
                "threshold": _finite_or_none(self.min_total_cost.threshold),
                "total": float(self.min_total_cost.total),
            },
            "expected_cost": {name: float(value) for name, value in self.expected_cost.items()},
            "operating_range": None if self.operating_range is None else list(self.operating_range),
        }


def analyse_instance_costs(y_true, scores, costs, priors: dict | None = None) -> InstanceCostResult:
    """ROCIV, hull, AUCIV and the cost-space dual of one classifier (F06 Alg. 2 and §5; spec §3.6).

    ``priors``: name -> :class:`ccreport.analysis.priors.Prior`, as ``battery.analyse_classifier``
    passes them; each expected cost is ``prior.expected(envelope.pc, envelope.nec)``.
    For a crisp classifier pass its predictions as 0/1 scores.
    """
    curve = rociv_points(y_true, scores, costs)
    env = iv_envelope(curve)
    return InstanceCostResult(
        auciv=auciv(curve),
        rociv=curve,
        envelope=env,
        own_pc=curve.own_pc,
        min_total_cost=min_total_cost(curve),
        expected_cost={
            name: prior.expected(env.pc, env.nec) for name, prior in (priors or {}).items()
        },
        operating_range=operating_range(env),
    )


# --- comparing two classifiers --------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class InstanceCostComparison:
    """Classifier a against b on the same instances and costs (D&H 2006 §4.3-4.4 on the IV
    envelopes).

    Differences are a - b: negative where a is cheaper. ``min_total_cost_difference`` is in the
    data's units.
    """

    comparison: Comparison
    auciv_difference: float
    min_total_cost_difference: float
    expected_cost_difference: dict[str, float]

    def to_dict(self) -> dict:
        m = self.comparison
        return {
            "crossovers": list(m.crossovers),
            "a_better": [list(iv) for iv in m.a_better],
            "b_better": [list(iv) for iv in m.b_better],
            "ties": [list(iv) for iv in m.ties],
            "max_difference": list(m.max_difference),
            "a_max_advantage": list(m.a_max_advantage),
            "b_max_advantage": list(m.b_max_advantage),
            "difference": _pairs(m.difference_pc, m.difference),
            "auciv_difference": float(self.auciv_difference),
            "min_total_cost_difference": float(self.min_total_cost_difference),
            "expected_cost_difference": {
                k: float(v) for k, v in self.expected_cost_difference.items()
            },
        }


def compare_instance_costs(a: InstanceCostResult, b: InstanceCostResult) -> InstanceCostComparison:
    """Where each classifier's instance-cost envelope is lower, crossovers, largest difference
    (:func:`ccreport.analysis.envelope.compare`), and the differences of AUCIV, minimum total cost
    and expected costs. Both must be analyses of the same instances and costs
    (same class totals)."""
    if (a.rociv.p_total, a.rociv.n_total) != (b.rociv.p_total, b.rociv.n_total):
        raise ValueError(
            "instance-cost comparisons need the same instances and costs (class totals differ)"
        )
    return InstanceCostComparison(
        comparison=compare(a.envelope, b.envelope),
        auciv_difference=a.auciv - b.auciv,
        min_total_cost_difference=a.min_total_cost.total - b.min_total_cost.total,
        expected_cost_difference={
            p: a.expected_cost[p] - b.expected_cost[p]
            for p in a.expected_cost
            if p in b.expected_cost
        },
    )


# --- the instance bootstrap, vectorised over replicates -------------------------------------------


@dataclass(frozen=True, eq=False)
class RocivReplicates:
    """ROCIV curves of B bootstrap replicates at the sample's distinct scores (one row each).

    A replicate is a vector of counts, one per instance (how often it was drawn); each instance
    brings its own cost with it, so the replicate's weights are ``counts * costs``. The scores are
    sorted once for all replicates; ``thresholds`` are the sample's (+inf first). A threshold at
    which a replicate has no instance repeats that replicate's previous point, which changes neither
    its hull, nor its area, nor its envelope.
    """

    tp_benefit: (
        np.ndarray
    )  # (B, k + 1) cumulative costs of the drawn positives at or above each threshold
    fp_cost: np.ndarray  # (B, k + 1)
    thresholds: np.ndarray  # (k + 1,)
    p_total: np.ndarray  # (B,)
    n_total: np.ndarray  # (B,)

    @property
    def tpr(self) -> np.ndarray:
        return self.tp_benefit / self.p_total[:, None]

    @property
    def fpr(self) -> np.ndarray:
        return self.fp_cost / self.n_total[:, None]

    @property
    def own_pc(self) -> np.ndarray:
        return self.p_total / (self.p_total + self.n_total)

    def auciv(self) -> np.ndarray:
        """Each replicate's AUCIV (trapezoids, ties one half), shape (B,)."""
        f, t = self.fpr, self.tpr
        return np.sum(np.diff(f, axis=1) * (t[:, 1:] + t[:, :-1]), axis=1) / 2.0

    def min_total_cost(self) -> tuple[np.ndarray, np.ndarray]:
        """Each replicate's cheapest threshold and its total cost of errors (the tie rule of
        :func:`min_total_cost`), shapes (B,) and (B,)."""
        totals = (self.p_total[:, None] - self.tp_benefit) + self.fp_cost
        least = totals.min(axis=1)
        k = np.argmax(totals <= (least + TIE_RTOL * (self.p_total + self.n_total))[:, None], axis=1)
        return self.thresholds[k], totals[np.arange(k.size), k]

    def envelope_on(self, pc, chunk: int = 256) -> np.ndarray:
        """Each replicate's instance-cost envelope at the PC_iv(+) values ``pc``, shape
        (B, len(pc)).

        The envelope at x is the least cost line there, ``min_k FNR_k x + FPR_k (1 - x)`` (the
        trivial lines are the first and last points). A running minimum over chunks of thresholds:
        O(B k G) work and O(B chunk G) memory, for data sets up to some 10^4 distinct scores.
        """
        x = np.asarray(pc, dtype=float)
        fnr, fpr = 1.0 - self.tpr, self.fpr
        best = np.full((fnr.shape[0], x.size), np.inf)
        for start in range(
            0, fnr.shape[1], chunk
        ):  # a loop over chunks of thresholds, not instances
            a, b = fnr[:, start : start + chunk, None], fpr[:, start : start + chunk, None]
            np.minimum(best, np.min(a * x + b * (1.0 - x), axis=1), out=best)
        return best


def rociv_replicates(y_true, scores, costs, counts) -> RocivReplicates:
    """ROCIV curves of bootstrap replicates given by ``counts`` (shape (B, n): how often each
    instance is drawn in each replicate, e.g. multinomial within each class), costs travelling with
    their instances. One sort for all replicates; per run of tied scores the drawn costs are summed
    (``np.add.reduceat``) and accumulated. Raises ValueError if a replicate's drawn positives or
    negatives cost 0 in total. Memory O(B n): pass the replicates in chunks.
    """
    y, s, c = _check(y_true, scores, costs)
    counts = np.asarray(counts)
    if counts.ndim != 2 or counts.shape[1] != y.size:
        raise ValueError(f"counts must have shape (B, {y.size}), got {counts.shape}")
    order = np.argsort(-s)
    s_sorted, y_sorted = s[order], y[order]
    ends = np.append(np.flatnonzero(np.diff(s_sorted)), s.size - 1)
    starts = np.concatenate(([0], ends[:-1] + 1))
    weights = counts[:, order] * c[order]
    zero = np.zeros((counts.shape[0], 1))
    tp = np.concatenate(
        (zero, np.cumsum(np.add.reduceat(weights * y_sorted, starts, axis=1), axis=1)), axis=1
    )
    fp = np.concatenate(
        (zero, np.cumsum(np.add.reduceat(weights * ~y_sorted, starts, axis=1), axis=1)), axis=1
    )
    p_total, n_total = tp[:, -1].copy(), fp[:, -1].copy()
    if not (np.all(p_total > 0) and np.all(n_total > 0)):
        raise ValueError(
            "a replicate's drawn positives or negatives cost 0 in total; ROCIV needs a total > 0 "
            "in each class"
        )
    return RocivReplicates(
        tp_benefit=tp,
        fp_cost=fp,
        thresholds=np.concatenate(([np.inf], s_sorted[ends])),
        p_total=p_total,
        n_total=n_total,
    )
