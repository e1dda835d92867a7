"""Exact (Clopper-Pearson) binomial confidence intervals for a rate estimated as k of n.

Clopper & Pearson (1934): the two-sided interval at level ``1 - a`` has ends

    lower = B(a/2; k, n - k + 1)          (0 when k = 0)
    upper = B(1 - a/2; k + 1, n - k)      (1 when k = n)

where ``B(q; a, b)`` is the q-quantile of the Beta(a, b) distribution. Each end is also a
one-sided bound at level ``1 - a/2``: the upper end of the two-sided 90% interval is the
one-sided 95% upper bound. The interval is conservative: its coverage is at least its level for
every true rate (it is the inversion of the two one-sided exact binomial tests).

For a non-integer ``k`` (the expected count of a randomised rule, a weighted mix of two
thresholds) the same formulas are evaluated at that ``k``: they are continuous and increasing in
``k`` and agree with the exact interval at the integers; such an interval is labelled as made at
an expected count wherever it is shown.
"""

from __future__ import annotations

from scipy import special


def clopper_pearson(k, n, level: float) -> tuple[float, float]:
    """Two-sided exact interval ``(lower, upper)`` at ``level`` for a rate of ``k`` in ``n``
    (0 <= k <= n, n > 0; ``k`` may be fractional, see the module docstring)."""
    k, n, level = float(k), float(n), float(level)
    if not (n > 0 and 0.0 <= k <= n and 0.0 < level < 1.0):
        raise ValueError(
            f"clopper_pearson needs 0 <= k <= n, n > 0 and a level in (0, 1): k={k}, n={n}, "
            f"level={level}"
        )
    tail = (1.0 - level) / 2.0
    lower = 0.0 if k == 0 else float(special.betaincinv(k, n - k + 1.0, tail))
    upper = 1.0 if k == n else float(special.betaincinv(k + 1.0, n - k, 1.0 - tail))
    return lower, upper


def one_sided_level(level: float) -> float:
    """The one-sided level of each end of a two-sided interval at ``level``: ``(1 + level) / 2``."""
    return (1.0 + float(level)) / 2.0
