"""Ranking expected costs honestly: ties by a relative tolerance, the trivial baseline, the star.

Costs computed along different paths differ in the last bits (on German credit, tree and
tree_crisp both cost exactly the trivial 0.3182 under ``german-5to1``, as 0.31818181818181823 and
0.3181818181818183), so two costs within a relative :data:`TIE_RTOL` of each other are the same
cost: they share one (competition) rank and are both lowest if either is.

The baseline of an expected-cost table is the best trivial classifier, always choosing the
cheaper of "always negative" and "always positive" at each PC(+): its expected cost is
E[min(PC(+), 1 - PC(+))] under the prior (D&H 2006 section 4.2;
:func:`ccreport.tasks.battery.trivial_expected_cost`). A classifier whose expected cost is not below
it (up to the tolerance) is *no better than trivial*.

Which cost gets the star is decided by :func:`verdict` alone (:func:`starred` is its set form): the
lowest cost is starred only when it is below the baseline AND significantly cheaper than the
runner-up, "significantly" as the methods page defines it: the step-down adjusted p-value (p_adj)
(``p_holm``, over every pair and prior of the dataset) of the paired expected-cost difference, best
minus runner-up, is at most 1 - confidence. Otherwise the best is "tied with" the runner-up(s) it is
not separated from: equal costs, a difference the test cannot tell from 0, or a pair that was not
compared (no test).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

TIE_RTOL = 1e-9


def same_cost(a: float, b: float) -> bool:
    """Whether two costs are equal up to a relative :data:`TIE_RTOL` (exact for zeros)."""
    return a == b or abs(a - b) <= TIE_RTOL * max(abs(a), abs(b))


def usable(value) -> bool:
    return value is not None and math.isfinite(float(value))


def ranks(values: dict[str, float | None]) -> dict[str, int]:
    """Competition ranks, 1 = lowest; costs equal up to :data:`TIE_RTOL` share the better rank.

    Sorted ascending, a value joins the tie group of the value before it when it is the same cost
    as the group's first (lowest) value; each group's rank is 1 + the number of values below it.
    Missing (None, NaN) values get no rank.
    """
    ordered = sorted((float(v), k) for k, v in values.items() if usable(v))
    out: dict[str, int] = {}
    group_first = None
    group_rank = 0
    for i, (v, k) in enumerate(ordered):
        if group_first is None or not same_cost(group_first, v):
            group_first, group_rank = v, i + 1
        out[k] = group_rank
    return out


def lowest(values: dict[str, float | None]) -> set[str]:
    """The names whose cost is the lowest (ties up to :data:`TIE_RTOL` included)."""
    return {k for k, r in ranks(values).items() if r == 1}


def no_better_than_trivial(value: float | None, trivial: float | None) -> bool:
    """Whether ``value`` is not below the best trivial classifier's expected cost
    (up to the tolerance)."""
    return (
        usable(value)
        and usable(trivial)
        and (float(value) >= float(trivial) or same_cost(float(value), float(trivial)))
    )


@dataclass(frozen=True)
class Verdict:
    """The cheapest classifier(s) under one prior and whether the report may star it.

    ``best``: the lowest cost(s) (ties up to :data:`TIE_RTOL` included; empty: no usable cost);
    ``runners_up``: the next-lowest cost(s); ``p_adjusted``: runner-up -> the adjusted p-value of
    best minus it (None: not compared); ``tied_with``: the names the best is not separated from;
    ``reason``: "significant", "alone" (no other cost), "equal", "not significant", "not compared",
    "trivial" (no cheaper than the best trivial classifier) or "none".
    """

    best: tuple[str, ...] = ()
    starred: bool = False
    runners_up: tuple[str, ...] = ()
    p_adjusted: dict = field(default_factory=dict)
    tied_with: tuple[str, ...] = ()
    reason: str = "none"


def verdict(
    values: dict[str, float | None],
    trivial: float | None = None,
    p_adjusted: Callable[[str, str], float | None] | None = None,
    alpha: float | None = None,
) -> Verdict:
    """Which cost is the cheapest, and whether it is significantly cheaper than the runner-up.

    The lowest cost(s) of ``values`` (:func:`lowest`). No star when it is no better than
    ``trivial``; when two or more costs are equally lowest ("equal"); or when for some runner-up
    (the next-lowest cost group) ``p_adjusted(best, runner_up)`` is None ("not compared") or above
    ``alpha`` ("not significant"). A lone usable cost below the baseline is starred ("alone").
    Without ``p_adjusted`` or ``alpha`` (no paired test was run) nothing is significant: the best is
    "not compared".
    """
    found = ranks(values)
    best = tuple(k for k in values if found.get(k) == 1)
    if not best:
        return Verdict()
    if any(no_better_than_trivial(values[k], trivial) for k in best):
        return Verdict(best=best, reason="trivial")
    if len(best) > 1:
        return Verdict(best=best, tied_with=best[1:], reason="equal")
    second = min((r for r in found.values() if r > 1), default=None)
    runners = tuple(k for k in values if second is not None and found.get(k) == second)
    if not runners:
        return Verdict(best=best, starred=True, reason="alone")
    (b,) = best
    ps = {r: (None if p_adjusted is None or alpha is None else p_adjusted(b, r)) for r in runners}
    untested = tuple(r for r, p in ps.items() if p is None)
    if untested:
        return Verdict(
            best=best, runners_up=runners, p_adjusted=ps, tied_with=untested, reason="not compared"
        )
    close = tuple(r for r, p in ps.items() if p > alpha + 1e-12)
    if close:
        return Verdict(
            best=best, runners_up=runners, p_adjusted=ps, tied_with=close, reason="not significant"
        )
    return Verdict(best=best, starred=True, runners_up=runners, p_adjusted=ps, reason="significant")


def starred(
    values: dict[str, float | None],
    trivial: float | None = None,
    p_adjusted: Callable[[str, str], float | None] | None = None,
    alpha: float | None = None,
) -> set[str]:
    """The classifiers starred as the cheapest under one prior: :func:`verdict`'s best when
    starred."""
    v = verdict(values, trivial, p_adjusted, alpha)
    return set(v.best) if v.starred else set()


def comparison(d, a: str, b: str):
    """The comparison of ``a`` and ``b`` on dataset result ``d`` in either order
    (None: not compared)."""
    return d.comparisons.get(f"{a} vs {b}") or d.comparisons.get(f"{b} vs {a}")


def holm_p(d, prior: str) -> Callable[[str, str], float | None]:
    """``p(a, b)``: the step-down adjusted p-value (p_adj) of E[a] - E[b] under ``prior`` on dataset
    ``d`` (results.json ``comparisons.<a vs b>.expected_cost_difference_interval.<prior>.p_holm``);
    None when the pair was not compared or has no adjusted test."""

    def p(a: str, b: str) -> float | None:
        m = comparison(d, a, b)
        iv = None if m is None else (m.expected_cost_difference_interval or {}).get(prior)
        return None if iv is None or iv.p_holm is None else float(iv.p_holm)

    return p


def alpha_of(d) -> float | None:
    """1 - the confidence level of the dataset's paired tests (None: no test was run)."""
    for m in d.comparisons.values():
        for part in (m.family_wise, m.difference_band):
            if part is not None and part.level is not None:
                return 1.0 - float(part.level)
    return None


def dataset_verdict(
    d, prior: str, values: dict[str, float | None] | None = None, trivial: float | None = None
) -> Verdict:
    """:func:`verdict` of the expected costs of dataset ``d`` under ``prior`` with its step-down
    adjusted tests.

    ``values``: the costs to rank (default: every classifier's ``expected_cost[prior]``);
    ``trivial``: the baseline (default: ``d.trivial_expected_cost[prior]``).
    """
    if values is None:
        values = {n: c.expected_cost.get(prior) for n, c in d.classifiers.items()}
    if trivial is None:
        trivial = d.trivial_expected_cost.get(prior)
    return verdict(values, trivial, holm_p(d, prior), alpha_of(d))
