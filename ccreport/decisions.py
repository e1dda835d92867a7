"""The decision box: what to deploy, at which threshold, and how sure we are (issue 11, item 4).

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
* **Criterion**: Neyman-Pearson and workforce choose the classifier with the most TPR under the
  constraint with one threshold (what can be deployed without randomising; ties: the most TPR
  with mixing, then the fewer false positives, then manifest order). ``threshold``, ``fpr``,
  ``tpr`` (and ``flagged``) are those of one threshold that keeps the constraint on its own (the
  best single threshold for Neyman-Pearson; the mixture's vertex flagging fewer cases for
  workforce); ``at_priors`` the cost of that single threshold at each point prior (its rates are
  the row's ``fpr``/``tpr``); ``mix`` the randomised optimum (two thresholds, ``weight_first``, its
  rates and its own ``at_priors``) when it needs mixing (D&H 2006 s. 5.1.3: a mix of two adjacent
  hull vertices reaches the constraint exactly). The bootstrap intervals of item 6 are of the
  criterion's optimum, i.e. of the mix when there is one; performance-independent
  the classifier whose rule gives the smallest area (expected NEC under the uniform prior). The
  runner-up is the next classifier by the same measure; no paired test exists for criteria yet
  (bands for hybrids are item 6). ``at_priors``: the choice's cost at each point prior.

A threshold t (a distinct score) stands for every cut-off in (next lower score, t]: on the
evaluated data they all flag the same cases (``threshold_interval``).
"""

from __future__ import annotations

import numpy as np

from .analysis.priors import PointPrior
from .results import Decision, DecisionsResult, NotApplicable


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
    return {"cost_fn": fn, "cost_fp": fp, "unit": spec.param("unit", ""), "p_positive": p,
            "scale": p * fn + (1.0 - p) * fp}


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
            # the word "significant" follows the step-down adjusted p (p_holm) over the dataset's pairs and priors (issue 10)
            out["p_holm"] = found.p_holm
            out["significant"] = bool(found.p_holm <= 1.0 - float(m.difference_band.level) + 1e-12)
    return out


def prior_decision(d, name: str, pc: float, cost: dict | None) -> Decision:
    hybrid = d.hybrid.hybrid
    k, tied = vertex_at(hybrid, pc)
    chosen = hybrid.names[hybrid.classifier[k]]
    c = d.classifiers[chosen]
    threshold = float(hybrid.threshold[k])
    ranked = sorted((x.expected_cost[name], i, x.name) for i, x in enumerate(d.classifiers.values()))
    best = ranked[0][0]
    ties = tuple(n for e, _, n in ranked if e == best and n != chosen)
    tie_notes = [f"{hybrid.names[hybrid.classifier[i]]} at threshold {hybrid.threshold[i]:.6g}" for i in tied]
    interval = (c.expected_cost_interval or {}).get(name)
    runner = next(((e, n) for e, _, n in ranked if n != chosen), None)
    runner_up = None
    if runner is not None:
        r = d.classifiers[runner[1]]
        rk, _ = vertex_at(r.selection.table, pc)
        runner_up = {"classifier": r.name, "threshold": _finite(r.selection.table.threshold[rk]),
                     "expected_cost": runner[0], **paired_test(d, chosen, r.name, name)}
    per_case = None
    if cost is not None:
        s = cost["scale"]
        per_case = {"value": c.expected_cost[name] * s, "unit": cost["unit"], "cost_fn": cost["cost_fn"],
                    "cost_fp": cost["cost_fp"], "p_positive": cost["p_positive"]}
        if interval is not None:
            per_case["interval"] = [interval.lower * s, interval.upper * s]
    return Decision(
        basis="prior", kind="point", classifier=chosen, threshold=_finite(threshold),
        threshold_interval=threshold_interval(c.selection.thresholds, threshold),
        fpr=float(hybrid.fpr[k]), tpr=float(hybrid.tpr[k]), pc=pc,
        pc_interval=(float(hybrid.low[k]), float(hybrid.high[k])),
        expected_cost=c.expected_cost[name],
        expected_cost_interval=None if interval is None else (interval.lower, interval.upper),
        runner_up=runner_up, cost_per_case=per_case, ties=ties,
        note="; ".join(f"equally cheap at this PC(+): {t}" for t in tie_notes),
    )


def criterion_decision(d, name: str, points: dict[str, float], costs: dict[str, dict | None]) -> Decision | None:
    choices = {c.name: c.selection.criteria[name] for c in d.classifiers.values()
               if c.selection is not None and name in c.selection.criteria}
    usable = {n: ch for n, ch in choices.items() if not isinstance(ch, NotApplicable)}
    if not usable:
        reasons = {n: ch.reason for n, ch in choices.items()}
        first = next(iter(reasons.values()), "no classifier")
        return Decision(basis="criterion", kind="performance_independent", classifier=None, threshold=None,
                        threshold_interval=None, fpr=None, tpr=None, note=f"not applicable: {first}")
    order = list(usable)
    sample = next(iter(usable.values()))
    if hasattr(sample, "area"):  # performance-independent: smallest area
        ranked = sorted(order, key=lambda n: (usable[n].area, order.index(n)))
    else:  # most TPR with one threshold under the constraint, then with mixing, then fewest FP
        ranked = sorted(order, key=lambda n: (-single(usable[n])[2], -usable[n].tpr, usable[n].fpr, order.index(n)))
    chosen = ranked[0]
    ch = usable[chosen]
    thresholds = d.classifiers[chosen].selection.thresholds
    if hasattr(ch, "area"):
        at = {}
        for p, x in points.items():
            k = int(ch.curve.piece_at(x))
            t = float(ch.curve.threshold[k])
            at[p] = {"threshold": _finite(t), "expected_cost": float(ch.curve(x))}
            _with_units(at[p], costs.get(p))
        runner = ranked[1] if len(ranked) > 1 else None
        return Decision(
            basis="criterion", kind="performance_independent", classifier=chosen, threshold=None,
            threshold_interval=None, fpr=None, tpr=None, expected_cost=ch.area,
            runner_up=None if runner is None else {"classifier": runner, "expected_cost": usable[runner].area},
            at_priors=at or None,
            note=f"rule {ch.rule}: the threshold follows PC(+); expected_cost is the area (uniform prior)",
        )
    kind = "workforce" if hasattr(ch, "flagged") else "neyman_pearson"
    mixed = ch.mix.weight_first < 1.0
    first, single_fpr, single_tpr = single(ch)
    at, mix_at = {}, {}
    for p, x in points.items():  # the deployed single threshold's cost; the mix's apart (same rates when unmixed)
        at[p] = {"expected_cost": single_fpr * (1.0 - x) + (1.0 - single_tpr) * x}
        _with_units(at[p], costs.get(p))
        mix_at[p] = {"expected_cost": ch.fpr * (1.0 - x) + (1.0 - ch.tpr) * x}
        _with_units(mix_at[p], costs.get(p))
    runner = ranked[1] if len(ranked) > 1 else None
    runner_up = None
    if runner is not None:
        r = usable[runner]
        runner_up = {"classifier": runner, "fpr": r.fpr, "tpr": r.tpr}
    ties = tuple(n for n in ranked[1:] if usable[n].tpr == ch.tpr and usable[n].fpr == ch.fpr)
    return Decision(
        basis="criterion", kind=kind, classifier=chosen, threshold=_finite(first),
        threshold_interval=threshold_interval(thresholds, first), fpr=float(single_fpr), tpr=float(single_tpr),
        mix={**ch.mix.to_dict(), "fpr": ch.fpr, "tpr": ch.tpr, "at_priors": mix_at or None} if mixed else None,
        flagged=None if kind != "workforce" else float(ch.n_pos * single_tpr + ch.n_neg * single_fpr), runner_up=runner_up, at_priors=at or None, ties=ties,
    )


def single(ch) -> tuple[float, float, float]:
    """``(threshold, fpr, tpr)`` of one threshold that keeps a criterion's constraint on its own:
    Neyman-Pearson's best single threshold; workforce's mixture vertex flagging fewer cases."""
    if hasattr(ch, "deterministic_threshold"):
        return float(ch.deterministic_threshold), ch.deterministic_fpr, ch.deterministic_tpr
    f, t = ch.mix.points[0]
    return float(ch.mix.thresholds[0]), f, t


def _with_units(row: dict, cost: dict | None) -> None:
    if cost is not None:
        row["cost_per_case"] = row["expected_cost"] * cost["scale"]
        row["unit"] = cost["unit"]


def _finite(t) -> float | None:
    t = float(t)
    return t if np.isfinite(t) else None


def decisions_for(d, priors: dict, specs) -> DecisionsResult | None:
    """The decision box of dataset result ``d``: ``priors`` (name -> Prior) that apply to it,
    ``specs`` the manifest's PriorSpecs (for costs in units). None without a hybrid."""
    if d.hybrid is None or not d.classifiers:
        return None
    mix = d.n_pos / (d.n_pos + d.n_neg)
    by_name = {s.name: s for s in specs}
    points = {n: p.pc for n, p in priors.items() if isinstance(p, PointPrior)}
    costs = {n: units(by_name[n], mix) if n in by_name else None for n in points}
    prior_rows = {n: prior_decision(d, n, x, costs[n]) for n, x in points.items()}
    names = []
    for c in d.classifiers.values():
        for n in (c.selection.criteria if c.selection is not None else {}):
            if n not in names:
                names.append(n)
    criterion_rows = {n: criterion_decision(d, n, points, costs) for n in names}
    return DecisionsResult(priors=prior_rows, criteria=criterion_rows)
