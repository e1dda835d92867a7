"""The decision box: what to deploy, at which threshold, and how sure we are.

Derived from a dataset's assembled results (no new resampling): for every point prior and every
selection criterion, the classifier and threshold to deploy and the figures that back the choice.

* **Point prior** at PC(+) = x: the dataset hybrid (the lower envelope over every classifier's
  thresholds, D&H 2006 section 5.1.2) gives the cheapest classifier and threshold at x and the
  PC(+) interval on which that choice stays the cheapest. At a switch point (two choices equally
  cheap) the one flagging fewer cases is taken and the other named in ``ties``. Its expected
  normalized cost is the classifier's ``expected_cost`` under the prior (its envelope at x), with
  the classifier's bootstrap ``expected_cost_interval`` when computed. The runner-up is the other
  classifier with the lowest expected cost; the paired test is the pair comparison's
  ``expected_cost_difference_interval`` (chosen minus runner-up) and p-value, when computed.
  With costs in units (``cost_fn``, ``cost_fp``) the expected cost per case is
  ``nec (p cost_fn + (1 - p) cost_fp)`` (the normalizer of D&H 2006 Eq. 5), p = the prior's
  ``p_positive`` or the dataset's class mix.
* **Constrained criterion** (Neyman-Pearson, workforce, and any criterion whose choice has a
  randomised and a single-threshold operating point): every classifier is ranked on ONE basis,
  the criterion's objective (most TPR) at its constraint at the randomised optimum
  (``compared_on`` = "randomised": the hull at the constraint, D&H 2006 s. 5.1.3-5.1.4, reached
  by mixing two adjacent hull vertices), ties to fewer false positives, then manifest order
  (:func:`ccreport.analysis.selection.rank_constrained`). The chosen classifier is the first of
  that ranking and the runner-up the second; ``ranking`` lists every classifier with the rates
  it was ranked on. ``threshold``, ``fpr``, ``tpr``, ``flagged`` and ``at_priors`` are the
  deployed randomised optimum's (``threshold`` its first threshold; ``mix`` its two thresholds
  and weight when it mixes). ``single_threshold``: the same ranking on the other basis (one
  threshold, no randomising): its winner, threshold and rates. ``constraint``: the constrained
  rate with its exact binomial interval, in-sample and held out, and whether it may pass the cap
  (:func:`constraint_check`); ``price``: its cost beside the unconstrained optimum and the
  trivial classifiers (:func:`price`). The bootstrap intervals of the criteria (hybrid band)
  are of the randomised optimum, the deployed rule.
* **Performance-independent criterion**: the classifier whose rule gives the smallest area
  (expected NEC under the uniform prior); the runner-up the next by the same measure.
  ``at_priors``: the choice's threshold and cost at each point prior.
* ``flagged_share``: the share of cases the deployed choice flags, ``p TPR + (1 - p) FPR`` with p
  the prior's ``p_positive`` (costs in units) or the data's share of positives.

A threshold t (a distinct score) stands for every cut-off in (next lower score, t]: on the
evaluated data they all flag the same cases (``threshold_interval``).
"""

from __future__ import annotations

import numpy as np

from ..analysis.binomial import clopper_pearson, one_sided_level
from ..analysis.priors import PointPrior
from ..analysis.selection import BASES, operating_point, rank_constrained
from ..results import Decision, DecisionsResult, NotApplicable


def threshold_interval(thresholds: np.ndarray, t: float) -> tuple[float, float]:
    """``(lo, t)``: cut-offs in (lo, t] flag the same cases as t (lo = the next lower distinct
    score, -inf below the lowest; t = +inf is the all-negative threshold)."""
    k = int(np.searchsorted(-thresholds, -t, side="left"))
    lo = float(thresholds[k + 1]) if k + 1 < thresholds.size else -np.inf
    return (lo, float(t))


def vertex_at(table, pc: float) -> tuple[int, list[int]]:
    """The hull vertex of ``table`` (an analysis Hybrid) optimal at ``pc`` flagging fewest cases,
    and the other vertices equally optimal there."""
    inside = np.flatnonzero((table.low <= pc) & (pc <= table.high))
    return int(inside[0]), [int(i) for i in inside[1:]]


def units(spec, class_mix: float) -> dict | None:
    """``{cost_fn, cost_fp, unit, p_positive, scale}`` of a point prior with costs in units."""
    fn, fp = spec.param("cost_fn"), spec.param("cost_fp")
    if fn is None or fp is None:
        return None
    p = spec.param("p_positive", class_mix)
    return {
        "cost_fn": fn,
        "cost_fp": fp,
        "unit": spec.param("unit", ""),
        "p_positive": p,
        "scale": p * fn + (1.0 - p) * fp,
    }


def paired_test(d, chosen: str, other: str, prior: str) -> dict:
    """The pair comparison's expected-cost difference, chosen minus other, under ``prior``."""
    m = d.comparisons.get(f"{chosen} vs {other}") or d.comparisons.get(f"{other} vs {chosen}")
    sign = 1.0 if m is not None and m.a == chosen else -1.0
    out = {}
    if m is None:
        return out
    out["difference"] = sign * m.expected_cost_difference[prior]
    found = (m.expected_cost_difference_interval or {}).get(prior)
    if found is not None:
        lo, hi = sign * found.lower, sign * found.upper
        out["difference_interval"] = [min(lo, hi), max(lo, hi)]
        out["p_value"] = found.p_value
        if found.p_holm is not None and m.difference_band is not None:
            # the word "significant" follows the step-down adjusted p (p_holm) over the dataset's
            # pairs and priors
            out["p_holm"] = found.p_holm
            out["significant"] = bool(found.p_holm <= 1.0 - float(m.difference_band.level) + 1e-12)
    return out


def prior_decision(d, name: str, pc: float, cost: dict | None) -> Decision:
    hybrid = d.hybrid.hybrid
    k, tied = vertex_at(hybrid, pc)
    chosen = hybrid.names[hybrid.classifier[k]]
    c = d.classifiers[chosen]
    threshold = float(hybrid.threshold[k])
    ranked = sorted(
        (x.expected_cost[name], i, x.name) for i, x in enumerate(d.classifiers.values())
    )
    best = ranked[0][0]
    ties = tuple(n for e, _, n in ranked if e == best and n != chosen)
    tie_notes = [
        f"{hybrid.names[hybrid.classifier[i]]} at threshold {hybrid.threshold[i]:.6g}" for i in tied
    ]
    interval = (c.expected_cost_interval or {}).get(name)
    runner = next(((e, n) for e, _, n in ranked if n != chosen), None)
    runner_up = None
    if runner is not None:
        r = d.classifiers[runner[1]]
        rk, _ = vertex_at(r.selection.table, pc)
        runner_up = {
            "classifier": r.name,
            "threshold": _finite(r.selection.table.threshold[rk]),
            "expected_cost": runner[0],
            **paired_test(d, chosen, r.name, name),
        }
    per_case = None
    p = cost["p_positive"] if cost is not None else d.n_pos / (d.n_pos + d.n_neg)
    share = float(p * hybrid.tpr[k] + (1.0 - p) * hybrid.fpr[k])
    if cost is not None:
        s = cost["scale"]
        per_case = {
            "value": c.expected_cost[name] * s,
            "unit": cost["unit"],
            "cost_fn": cost["cost_fn"],
            "cost_fp": cost["cost_fp"],
            "p_positive": cost["p_positive"],
        }
        if interval is not None:
            per_case["interval"] = [interval.lower * s, interval.upper * s]
    return Decision(
        basis="prior",
        kind="point",
        classifier=chosen,
        threshold=_finite(threshold),
        threshold_interval=threshold_interval(c.selection.thresholds, threshold),
        fpr=float(hybrid.fpr[k]),
        tpr=float(hybrid.tpr[k]),
        pc=pc,
        pc_interval=(float(hybrid.low[k]), float(hybrid.high[k])),
        expected_cost=c.expected_cost[name],
        expected_cost_interval=None if interval is None else (interval.lower, interval.upper),
        runner_up=runner_up,
        cost_per_case=per_case,
        ties=ties,
        flagged_share=share,
        note="; ".join(f"equally cheap at this PC(+): {t}" for t in tie_notes),
    )


COMPARED_ON = BASES[
    0
]  # every constrained criterion ranks all classifiers at their randomised optimum


def criterion_decision(
    d,
    name: str,
    points: dict[str, float],
    costs: dict[str, dict | None],
    level: float | None = None,
) -> Decision | None:
    """The decision row of criterion ``name``: performance-independent rules by their area;
    constrained criteria (Neyman-Pearson, workforce, any criterion whose choice has a randomised
    and a single-threshold operating point) by :func:`constrained_decision`."""
    choices = {
        c.name: c.selection.criteria[name]
        for c in d.classifiers.values()
        if c.selection is not None and name in c.selection.criteria
    }
    usable = {n: ch for n, ch in choices.items() if not isinstance(ch, NotApplicable)}
    if not usable:
        reasons = {n: ch.reason for n, ch in choices.items()}
        first = next(iter(reasons.values()), "no classifier")
        return Decision(
            basis="criterion",
            kind="performance_independent",
            classifier=None,
            threshold=None,
            threshold_interval=None,
            fpr=None,
            tpr=None,
            note=f"not applicable: {first}",
        )
    sample = next(iter(usable.values()))
    if not hasattr(sample, "area"):
        return constrained_decision(d, name, usable, points, costs, level)
    order = list(usable)
    ranked = sorted(order, key=lambda n: (usable[n].area, order.index(n)))
    chosen = ranked[0]
    ch = usable[chosen]
    at = {}
    for p, x in points.items():
        k = int(ch.curve.piece_at(x))
        t = float(ch.curve.threshold[k])
        at[p] = {"threshold": _finite(t), "expected_cost": float(ch.curve(x))}
        _with_units(at[p], costs.get(p))
    runner = ranked[1] if len(ranked) > 1 else None
    return Decision(
        basis="criterion",
        kind="performance_independent",
        classifier=chosen,
        threshold=None,
        threshold_interval=None,
        fpr=None,
        tpr=None,
        expected_cost=ch.area,
        runner_up=None
        if runner is None
        else {"classifier": runner, "expected_cost": usable[runner].area},
        at_priors=at or None,
        note=f"rule {ch.rule}: the threshold follows PC(+); expected_cost is the area (uniform "
        "prior)",
    )


def constrained_decision(
    d,
    name: str,
    usable: dict,
    points: dict[str, float],
    costs: dict[str, dict | None],
    level: float | None = None,
) -> Decision:
    """A constrained criterion's decision: every classifier ranked on one basis
    (:data:`COMPARED_ON`, the randomised optimum: the criterion's objective, most TPR, at its
    constraint, D&H 2006 s. 5.1.3-5.1.4) by :func:`ccreport.analysis.selection.rank_constrained`;
    the chosen one is the first, the runner-up the second of that same ranking, and ``ranking``
    lists all with the rates they were ranked on. ``single_threshold`` is the same ranking on the
    other basis (one threshold, no randomising): its winner, threshold and rates. ``constraint`` and
    ``price``: see :func:`constraint_check` and :func:`price`."""
    ranked = rank_constrained(usable, COMPARED_ON)
    chosen = ranked[0]
    ch = usable[chosen]
    kind = "workforce" if hasattr(ch, "flagged") else "neyman_pearson"
    thresholds = d.classifiers[chosen].selection.thresholds
    mixed = ch.mix.weight_first < 1.0
    first = float(ch.mix.thresholds[0])
    share_p = d.n_pos / (d.n_pos + d.n_neg)

    def rates(n, basis):
        f, t = operating_point(usable[n], basis)
        row = {"classifier": n, "fpr": float(f), "tpr": float(t)}
        if kind == "workforce":
            c = usable[n]
            row["flagged"] = float(c.n_pos * t + c.n_neg * f)
        return row

    ranking = [rates(n, COMPARED_ON) for n in ranked]
    key = (round(ch.tpr, 12), round(ch.fpr, 12))
    ties = tuple(
        r["classifier"] for r in ranking[1:] if (round(r["tpr"], 12), round(r["fpr"], 12)) == key
    )
    at = {}
    for p, x in points.items():
        at[p] = {"expected_cost": ch.fpr * (1.0 - x) + (1.0 - ch.tpr) * x}
        _with_units(at[p], costs.get(p))
    other = BASES[1]
    s_name = rank_constrained(usable, other)[0]
    s_ch = usable[s_name]
    s_t = float(s_ch.deterministic_threshold)
    single = {
        **rates(s_name, other),
        "threshold": _finite(s_t),
        "threshold_interval": list(
            threshold_interval(d.classifiers[s_name].selection.thresholds, s_t)
        ),
        "at_priors": {
            p: _with_units(
                {
                    "expected_cost": s_ch.deterministic_fpr * (1.0 - x)
                    + (1.0 - s_ch.deterministic_tpr) * x
                },
                costs.get(p),
            )
            for p, x in points.items()
        }
        or None,
    }
    check = None
    if level is not None:
        check = constraint_check(d, kind, ch, level)
        single["constraint"] = constraint_check(d, kind, s_ch, level, basis=other)
    return Decision(
        basis="criterion",
        kind=kind,
        classifier=chosen,
        threshold=_finite(first),
        threshold_interval=threshold_interval(thresholds, first),
        fpr=float(ch.fpr),
        tpr=float(ch.tpr),
        mix={
            "thresholds": [_finite(t) for t in ch.mix.thresholds],
            "weight_first": ch.mix.weight_first,
            "points": [list(x) for x in ch.mix.points],
        }
        if mixed
        else None,
        flagged=None if kind != "workforce" else float(ch.flagged),
        flagged_share=float(share_p * ch.tpr + (1.0 - share_p) * ch.fpr),
        runner_up=ranking[1] if len(ranking) > 1 else None,
        at_priors=at or None,
        ties=ties,
        compared_on=COMPARED_ON,
        ranking=ranking,
        single_threshold=single,
        constraint=check,
        price=price(d, ch.fpr, ch.tpr, points, costs),
    )


def constraint_check(d, kind: str, ch, level: float, basis: str = COMPARED_ON) -> dict:
    """The constrained rate of a choice with its exact binomial interval, in-sample and held out.

    Neyman-Pearson constrains the false-alarm rate (false positives among the ``n_neg``
    negatives) to ``max_fpr``; workforce the share of cases flagged to ``W / (P + N)``.
    ``in_sample``: ``{estimate, count, n, interval}``: the two-sided Clopper-Pearson interval at
    ``level`` (:func:`ccreport.analysis.binomial.clopper_pearson`; each end a one-sided bound at
    ``(1 + level) / 2``). A randomised optimum flags each case independently with its mixed
    probability, so on new cases its count is binomial with the mixed rate; on the evaluated cases
    ``count`` is its expected count ``w k_1 + (1 - w) k_2`` and the interval is the
    Clopper-Pearson formula at that count (``randomised``: true). ``held_out`` (randomised basis
    only) (with folds): the out-of-fold rate of the criterion re-chosen on
    the other folds (:mod:`ccreport.analysis.selection.out_of_fold`), its interval made at its
    expected count. ``exceeds``: the interval's upper end or the held-out rate is above the cap;
    ``zero_count``: the constrained count is 0 in-sample (the interval is [0, upper], not
    zero-width). Workforce with a batch whose class counts differ from the data's: no interval (the
    flagged share of that batch is not a binomial rate of the evaluated cases).
    """
    n_pos, n_neg = float(d.n_pos), float(d.n_neg)
    if kind == "neyman_pearson":
        rate, cap, n = "false_alarm", float(ch.max_fpr), n_neg
        counts = (
            [p[0] * n_neg for p in ch.mix.points]
            if basis == COMPARED_ON
            else [ch.deterministic_fpr * n_neg] * 2
        )
        held = None if ch.out_of_fold is None else ch.out_of_fold[0] * n_neg
    else:
        rate, n = "flagged", n_pos + n_neg
        cap = float(ch.capacity / (ch.n_pos + ch.n_neg))
        pts = (
            ch.mix.points
            if basis == COMPARED_ON
            else [(ch.deterministic_fpr, ch.deterministic_tpr)] * 2
        )
        counts = [t * n_pos + f * n_neg for f, t in pts]
        held = None if ch.out_of_fold is None else ch.out_of_fold[2]
    out = {
        "rate": rate,
        "cap": cap,
        "level": float(level),
        "one_sided_level": one_sided_level(level),
        "method": "clopper_pearson",
    }
    if rate == "flagged" and (ch.n_pos, ch.n_neg) != (n_pos, n_neg):
        out["note"] = (
            "the workforce batch's class counts differ from the data's: no binomial interval"
        )
        return out
    counts = [float(np.round(c, 9)) for c in counts]  # integers up to the rounding of count / n * n
    w = ch.mix.weight_first if basis == COMPARED_ON else 1.0
    count = w * counts[0] + (1.0 - w) * counts[1]
    lo, hi = clopper_pearson(count, n, level)
    out["in_sample"] = {
        "estimate": count / n,
        "count": count,
        "n": n,
        "interval": [lo, hi],
        "randomised": counts[0] != counts[1],
    }
    exceeds = hi > cap + 1e-12
    if held is not None and basis == COMPARED_ON:  # the folds re-choose the randomised optimum only
        held = float(np.clip(held, 0.0, n))
        out["held_out"] = {
            "estimate": held / n,
            "count": held,
            "n": n,
            "interval": list(clopper_pearson(held, n, level)),
        }
        exceeds = exceeds or held / n > cap + 1e-12
    out["exceeds"] = bool(exceeds)
    out["zero_count"] = bool(max(counts) == 0)
    return out


def price(
    d, fpr: float, tpr: float, points: dict[str, float], costs: dict[str, dict | None]
) -> dict:
    """What a constrained choice costs beside the unconstrained optimum and the trivial classifiers.

    Per point prior (name -> PC(+) = x): normalized expected cost (D&H 2006 Eq. 6) of the choice,
    ``fpr (1 - x) + (1 - tpr) x``; of the unconstrained optimum, the dataset hybrid's lower
    envelope at x (the cheapest classifier and threshold, no constraint); of the trivial
    classifiers, flagging nobody, x, and flagging everyone, 1 - x; each times the prior's scale
    ``p cost_fn + (1 - p) cost_fp`` when it gives costs in units (``cost_per_case``). Without any
    point prior: one condition, ``"class mix, equal costs"``, at x = the data's share of
    positives, where normalized expected cost is the error rate.
    """
    conditions = dict(points)
    if not conditions:
        conditions = {EQUAL_COSTS: d.n_pos / (d.n_pos + d.n_neg)}
    env = d.hybrid.hybrid.envelope
    out = {}
    for p, x in conditions.items():
        row = {
            "pc": float(x),
            "constrained": float(fpr * (1.0 - x) + (1.0 - tpr) * x),
            "unconstrained": float(env(x)),
            "flag_nobody": float(x),
            "flag_everyone": float(1.0 - x),
        }
        cost = costs.get(p)
        if cost is not None:
            row["unit"] = cost["unit"]
            row["cost_per_case"] = {
                k: row[k] * cost["scale"]
                for k in ("constrained", "unconstrained", "flag_nobody", "flag_everyone")
            }
        out[p] = row
    return out


EQUAL_COSTS = "class mix, equal costs"


def _with_units(row: dict, cost: dict | None) -> dict:
    if cost is not None:
        row["cost_per_case"] = row["expected_cost"] * cost["scale"]
        row["unit"] = cost["unit"]
    return row


def _finite(t) -> float | None:
    t = float(t)
    return t if np.isfinite(t) else None


def decisions_for(d, priors: dict, specs, level: float | None = None) -> DecisionsResult | None:
    """The decision box of dataset result ``d``: ``priors`` (name -> Prior) that apply to it,
    ``specs`` the manifest's PriorSpecs (for costs in units), ``level`` the report's confidence
    (for the constraints' binomial intervals; None: none). None without a hybrid."""
    if d.hybrid is None or not d.classifiers:
        return None
    mix = d.n_pos / (d.n_pos + d.n_neg)
    by_name = {s.name: s for s in specs}
    points = {n: p.pc for n, p in priors.items() if isinstance(p, PointPrior)}
    costs = {n: units(by_name[n], mix) if n in by_name else None for n in points}
    prior_rows = {n: prior_decision(d, n, x, costs[n]) for n, x in points.items()}
    names = []
    for c in d.classifiers.values():
        for n in c.selection.criteria if c.selection is not None else {}:
            if n not in names:
                names.append(n)
    criterion_rows = {n: criterion_decision(d, n, points, costs, level) for n in names}
    return DecisionsResult(priors=prior_rows, criteria=criterion_rows)
