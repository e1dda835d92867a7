"""Ranking expected costs honestly: ties by a relative tolerance, the trivial baseline, the star.

Costs computed along different paths differ in the last bits (on German credit, tree and
tree_crisp both cost exactly the trivial 0.3182 under ``german-5to1``, as 0.31818181818181823 and
0.3181818181818183), so two costs within a relative :data:`TIE_RTOL` of each other are the same
cost: they share one (competition) rank and are both lowest if either is.

The baseline of an expected-cost table is the best trivial classifier, always choosing the
cheaper of "always negative" and "always positive" at each PC(+): its expected cost is
E[min(PC(+), 1 - PC(+))] under the prior (D&H 2006 section 4.2;
:func:`ccreport.battery.trivial_expected_cost`). A classifier whose expected cost is not below
it (up to the tolerance) is *no better than trivial*.

Which cost gets the star is decided by :func:`starred` alone, so that the rule can become
"significantly cheaper than the runner-up" once the report has family-wise adjusted tests.
"""

from __future__ import annotations

import math

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
    """Whether ``value`` is not below the best trivial classifier's expected cost (up to the tolerance)."""
    return usable(value) and usable(trivial) and (float(value) >= float(trivial) or same_cost(float(value), float(trivial)))


def starred(values: dict[str, float | None], trivial: float | None = None) -> set[str]:
    """The classifiers starred as the cheapest under one prior: the rule of the report, in one place.

    Today: the lowest expected cost (ties all starred), and only when it is below the best trivial
    classifier's (a classifier no better than always choosing the cheaper trivial classifier is not
    "the best"). Intended next (issue 10/14): only when significantly cheaper than the runner-up.
    """
    best = lowest(values)
    if any(no_better_than_trivial(values[k], trivial) for k in best):
        return set()
    return best
