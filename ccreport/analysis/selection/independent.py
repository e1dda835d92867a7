"""Performance-independent selection: the threshold or the classifier set from the condition alone.

Drummond & Holte 2006 section 5.1.1-5.1.2 (Figs. 21-22) and Drummond & Holte 2000 section 2.3
("parameter-based" selection). The hybrid cost curve is the selected classifier's cost line on
each piece of PC(+); it is an unbiased estimate (nothing was chosen by looking at the labels),
and its ``excess`` over the lower envelope is "the additional cost of using this selection
procedure over the optimal one" (D&H 2000).

(b) One classifier with probability scores and a threshold-choice function T: at x = PC(+)
predict + iff ``s >= T(x)``. Rules (spec, ambiguity A1):

* ``literal``: ``T(x) = x`` (D&H 2006 Fig. 22 as printed: "if PC(+) = 0.2 the threshold is set
  to 0.2"); predicts more positives as positives matter less.
* ``score_driven``: ``T(x) = 1 - x``, Bayes-optimal for scores calibrated at a balanced prior
  (Hernandez-Orallo, Flach & Ferri 2013's score-driven method).
* ``bayes_prior`` (default): ``T(x) = pi (1 - x) / (pi (1 - x) + (1 - pi) x)``, Bayes-optimal for
  scores calibrated at class prior pi (default P / (P + N)); pi = 1/2 is ``score_driven``.

The curve switches lines where T(x) crosses a distinct score u, at ``x = T^-1(u)`` (``u``,
``1 - u``, and the same formula as T for ``bayes_prior``, which is its own inverse).

(a) A family of classifiers with training conditions tau_i in PC(+) units: use the one with the
nearest tau, switching at midpoints of consecutive taus (D&H 2000 section 2.3); a midpoint
belongs to the larger tau. ``tau = 1 / (1 + R)`` for a probability-cost ratio R (D&H 2000),
or :func:`ccreport.analysis.conditions.probability_cost` for a training prior and cost ratio.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..envelope import Envelope, lower_envelope
from ..roc import RocCurve
from .curves import HybridCurve

RULES = ("bayes_prior", "score_driven", "literal")


def check_rule(rule: str) -> str:
    if rule not in RULES:
        raise ValueError(f"unknown performance-independent rule {rule!r}; expected one of {RULES}")
    return rule


def threshold_for(rule: str, pc, prior: float = 0.5):
    """T(x): the score threshold the rule sets at PC(+) = pc (vectorised)."""
    x = np.asarray(pc, dtype=float)
    if check_rule(rule) == "literal":
        return x
    if rule == "score_driven":
        return 1.0 - x
    return prior * (1.0 - x) / (prior * (1.0 - x) + (1.0 - prior) * x)


def switch_point(rule: str, score, prior: float = 0.5):
    """The PC(+) at which the rule's threshold equals ``score``: T^-1(score)."""
    u = np.asarray(score, dtype=float)
    if check_rule(rule) == "literal":
        return u
    if rule == "score_driven":
        return 1.0 - u
    return prior * (1.0 - u) / (prior * (1.0 - u) + (1.0 - prior) * u)


def tau_from_ratio(ratio):
    """Training condition in PC(+) units from D&H 2000's probability-cost ratio R: 1 / (1 + R)."""
    return 1.0 / (1.0 + np.asarray(ratio, dtype=float))


@dataclass(frozen=True, eq=False)
class IndependentSelection:
    """A performance-independent hybrid: its curve, exact area and excess over the envelope.

    ``rule`` is one of :data:`RULES` or ``"parameter_based"``; ``prior`` is pi of
    ``bayes_prior``; ``members`` names the family of a parameter-based selection.
    """

    rule: str
    curve: HybridCurve
    area: float
    excess: float
    envelope: Envelope
    prior: float | None = None
    members: tuple[str, ...] | None = None

    def to_dict(self) -> dict:
        d = {
            "rule": self.rule,
            "area": self.area,
            "excess": self.excess,
            "curve": self.curve.curve(),
        }
        if self.members is not None:
            c = self.curve
            d["segments"] = [
                {"low": float(lo), "high": float(hi), "classifier": m}
                for lo, hi, m in zip(c.low, c.high, c.member)
            ]
        return d


def performance_independent(
    roc: RocCurve, rule: str = "bayes_prior", prior: float | None = None, envelope=None
) -> IndependentSelection:
    """The hybrid cost curve of setting a probability threshold from PC(+) alone (D&H 2006 Fig. 22).

    Scores must lie in [0, 1]. ``envelope`` (optional) is the classifier's lower envelope, for
    the excess. Each piece carries the threshold in use (the ROC point's).
    """
    check_rule(rule)
    u = roc.thresholds[1:]  # distinct scores, decreasing
    if u[0] > 1.0 or u[-1] < 0.0:
        raise ValueError(
            f"the {rule} rule needs probability scores in [0, 1]; scores span [{u[-1]}, {u[0]}]"
        )
    pi = roc.n_pos / (roc.n_pos + roc.n_neg) if prior is None else float(prior)
    if rule == "bayes_prior" and not 0.0 < pi < 1.0:
        raise ValueError(f"the bayes_prior rule needs a prior in (0, 1), got {prior!r}")
    x = np.clip(switch_point(rule, u, pi), 0.0, 1.0)
    point = np.arange(u.size + 1)
    if rule == "literal":  # T increases: x in (u_{a+1}, u_a] uses point a; all positive first
        low, high = np.concatenate(([0.0], x[::-1])), np.concatenate((x[::-1], [1.0]))
        point, closed = point[::-1], "right"
    else:  # T decreases: x in [x(u_a), x(u_{a+1})) uses point a
        low, high = np.concatenate(([0.0], x)), np.concatenate((x, [1.0]))
        closed = "left"
    fpr = roc.fp[point] / roc.n_neg
    fnr = 1.0 - roc.tp[point] / roc.n_pos
    curve = HybridCurve(
        low=low, high=high, start=fpr, end=fnr, closed=closed, threshold=roc.thresholds[point]
    )
    env = lower_envelope(roc) if envelope is None else envelope
    return IndependentSelection(
        rule=rule,
        curve=curve,
        area=curve.area,
        excess=curve.area - env.area,
        envelope=env,
        prior=pi if rule == "bayes_prior" else None,
    )


def value_at(roc: RocCurve, rule: str, pc: float, prior: float | None = None, rtol: float = 1e-12):
    """H(pc) evaluated by ``s >= T(pc)`` with a relative tolerance, and the instances tied at T.

    In binary ``1 - 0.9 != 0.1``; a score within ``rtol`` of T(pc) counts as equal (positive).
    Returns ``(nec, threshold, n_tied)``.
    """
    pi = roc.n_pos / (roc.n_pos + roc.n_neg) if prior is None else float(prior)
    t = float(threshold_for(rule, pc, pi))
    u = roc.thresholds[1:]
    tol = rtol * max(1.0, abs(t))
    a = int(np.count_nonzero(u >= t - tol))  # ROC point index: scores >= T are positive
    tied = np.flatnonzero(np.abs(u - t) <= tol)
    n_tied = int(np.sum((np.diff(roc.tp) + np.diff(roc.fp))[tied]))
    fpr, fnr = roc.fp[a] / roc.n_neg, 1.0 - roc.tp[a] / roc.n_pos
    return float(fnr * pc + fpr * (1.0 - pc)), t, n_tied


def parameter_based(fpr, tpr, tau, names=None) -> IndependentSelection:
    """Nearest-training-condition selection over a family of crisp classifiers (D&H 2000 s. 2.3).

    ``fpr``/``tpr``: each member's ROC point on the test data; ``tau``: its training condition in
    PC(+) units, in [0, 1] and distinct. Member i is used on ``[m_{i-1}, m_i)`` with
    ``m_i = (tau_i + tau_{i+1}) / 2`` after sorting by tau (``m_0 = 0``, last piece closed at 1).
    The trivial classifiers are not added; the envelope they are compared with includes them.
    """
    f, t, tau = (np.asarray(a, dtype=float).ravel() for a in (fpr, tpr, tau))
    if not f.size == t.size == tau.size >= 1:
        raise ValueError("fpr, tpr and tau must have the same non-zero length")
    names = tuple(names) if names is not None else tuple(str(i) for i in range(f.size))
    if np.any((tau < 0) | (tau > 1)) or not np.all(np.isfinite(tau)):
        raise ValueError("training conditions tau must lie in [0, 1]")
    order = np.argsort(tau, kind="stable")
    tau_sorted = tau[order]
    same = np.flatnonzero(np.diff(tau_sorted) == 0)
    if same.size:
        a, b = names[order[same[0]]], names[order[same[0] + 1]]
        raise ValueError(f"classifiers {a!r} and {b!r} have the same training condition")
    mid = (tau_sorted[1:] + tau_sorted[:-1]) / 2.0
    curve = HybridCurve(
        low=np.concatenate(([0.0], mid)),
        high=np.concatenate((mid, [1.0])),
        start=f[order],
        end=1.0 - t[order],
        closed="left",
        member=tuple(names[i] for i in order),
    )
    env = lower_envelope(f, t)
    return IndependentSelection(
        rule="parameter_based",
        curve=curve,
        area=curve.area,
        excess=curve.area - env.area,
        envelope=env,
        members=curve.member,
    )
