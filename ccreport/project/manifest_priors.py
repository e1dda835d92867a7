"""The ``[[priors]]`` entries of a manifest: each distribution's parameters read and checked
(uniform, beta, point, induced), collected as :class:`~ccreport.project.manifest.PriorSpec`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..analysis.conditions import probability_cost
from .manifest_checks import (
    NON_NEGATIVE,
    POSITIVE,
    PROBABILITY,
    Checker,
    Where,
    unknown_key_message,
)
from .settings import OPEN_PROBABILITY, Bound

PRIOR_PARAMETERS = {
    "uniform": ("low", "high"),
    "beta": ("a", "b"),
    "point": ("pc", "p_positive", "cost_ratio", "cost_fn", "cost_fp", "unit"),
    "induced": ("p_positive", "cost_ratio"),
}


@dataclass(frozen=True)
class PriorSpec:
    """One ``[[priors]]`` entry with validated, normalized parameters (see the module docstring)."""

    name: str
    distribution: str
    params: tuple[tuple[str, object], ...]
    line: int | None = None
    datasets: tuple[str, ...] | None = None  # the datasets it applies to; None: every dataset

    def applies_to(self, dataset: str) -> bool:
        return self.datasets is None or dataset in self.datasets

    def param(self, key: str, default=None):
        """The parameter ``key``, or ``default`` when the prior has none of that name."""
        return dict(self.params).get(key, default)


DEFAULT_PRIOR = PriorSpec("uniform", "uniform", (("high", 1.0), ("low", 0.0)))


Params = tuple[tuple[str, object], ...]


def _normalized(**params) -> Params:
    """Parameters as (key, value) pairs sorted by key, numbers as floats."""
    return tuple(
        sorted(
            (key, float(value) if isinstance(value, (int, float)) else value)
            for key, value in params.items()
        )
    )


def _interval(
    check: Checker,
    table: dict,
    where: Where,
    low_bound: Bound,
    high_bound: Bound,
    low_default=None,
    high_default=None,
) -> Params | None:
    """``low`` and ``high`` with low < high: a uniform or log-uniform range."""
    required_low, required_high = low_default is None, high_default is None
    low = check.number(table, "low", where, low_bound, default=low_default, required=required_low)
    high = check.number(
        table, "high", where, high_bound, default=high_default, required=required_high
    )
    if low is None or high is None:
        return None
    if not low < high:
        key = "high" if "high" in table else "low"
        check.report(where, (key,), f"expected low < high, got low = {low!r}, high = {high!r}")
        return None
    return _normalized(low=low, high=high)


def _beta_params(check: Checker, table: dict, where: Where) -> Params | None:
    a = check.number(table, "a", where, POSITIVE, required=True)
    b = check.number(table, "b", where, POSITIVE, required=True)
    return None if a is None or b is None else _normalized(a=a, b=b)


def _uniform_prior(check: Checker, table: dict, where: Where) -> Params | None:
    return _interval(check, table, where, PROBABILITY, PROBABILITY, 0.0, 1.0)


def _point_prior(check: Checker, table: dict, where: Where) -> Params | None:
    has_pc = "pc" in table
    has_costs = "cost_fn" in table or "cost_fp" in table
    has_conditions = "p_positive" in table or "cost_ratio" in table or has_costs
    if has_pc and has_conditions:
        other = "cost_fn and cost_fp" if has_costs else "p_positive and cost_ratio"
        check.report(where, ("pc",), f"expected either pc, or {other}, not both")
        return None
    if "unit" in table and not has_costs:
        check.report(
            where, ("unit",), "expected unit only with cost_fn and cost_fp (it names their unit)"
        )
        return None
    if has_pc:
        pc = check.number(table, "pc", where, PROBABILITY)
        return None if pc is None else _normalized(pc=pc)
    if not has_conditions:
        check.report(
            where,
            (),
            "expected pc = PC(+), or p_positive = p(+) and cost_ratio = C(-|+)/C(+|-), or "
            "cost_fn and cost_fp",
        )
        return None
    if has_costs:
        return _point_costs(check, table, where)
    p = check.number(table, "p_positive", where, OPEN_PROBABILITY, required=True)
    r = check.number(table, "cost_ratio", where, POSITIVE, required=True)
    if p is None or r is None:
        return None
    return _normalized(pc=float(probability_cost(p, r)), p_positive=p, cost_ratio=r)


def _point_costs(check: Checker, table: dict, where: Where) -> Params | None:
    """A point prior from costs in units: ``cost_fn`` (missing a positive), ``cost_fp`` (flagging a
    negative), optional ``unit`` and ``p_positive`` (default: the dataset's class mix, at build
    time).

    PC(+) = p cost_fn / (p cost_fn + (1 - p) cost_fp) (D&H 2006 section 3.2); ``cost_ratio`` is
    kept as cost_fn / cost_fp, and ``pc`` only when ``p_positive`` is given.
    """
    if "cost_ratio" in table:
        check.report(
            where, ("cost_ratio",), "expected either cost_ratio or cost_fn and cost_fp, not both"
        )
        return None
    fn = check.number(table, "cost_fn", where, POSITIVE, required=True)
    fp = check.number(table, "cost_fp", where, POSITIVE, required=True)
    unit = check.string(table, "unit", where, 'a label for the costs\' unit, such as "EUR"')
    p = check.number(table, "p_positive", where, OPEN_PROBABILITY)
    if (
        fn is None
        or fp is None
        or ("unit" in table and unit is None)
        or ("p_positive" in table and p is None)
    ):
        return None
    ratio = fn / fp
    if not (
        math.isfinite(ratio) and ratio > 0
    ):  # 1e300 / 1e-300 overflows, 1e-300 / 1e300 underflows
        check.report(
            where,
            ("cost_fn",),
            f"expected cost_fn / cost_fp a finite number > 0 in double precision, got {fn!r} / "
            f"{fp!r} = {ratio!r} (the ratio overflows or underflows; give both costs in a unit "
            "of similar size)",
        )
        return None
    params = dict(cost_fn=fn, cost_fp=fp, cost_ratio=ratio)
    if p is not None:
        params.update(p_positive=p, pc=float(probability_cost(p, fn / fp)))
    normalized = _normalized(**params)
    return normalized if unit is None else tuple(sorted(normalized + (("unit", unit),)))


def _point_value(bound: Bound):
    def read(check: Checker, table: dict, where: Where) -> Params | None:
        value = check.number(table, "value", where, bound, required=True)
        return None if value is None else _normalized(value=value)

    return read


P_POSITIVE_DISTRIBUTIONS = {
    "beta": (("a", "b"), _beta_params),
    "uniform": (("low", "high"), _uniform_prior),
    "point": (("value",), _point_value(OPEN_PROBABILITY)),
}
COST_RATIO_DISTRIBUTIONS = {
    "loguniform": (
        ("low", "high"),
        lambda check, table, where: _interval(check, table, where, POSITIVE, POSITIVE),
    ),
    "uniform": (
        ("low", "high"),
        lambda check, table, where: _interval(check, table, where, NON_NEGATIVE, POSITIVE, 0.0),
    ),
    "point": (("value",), _point_value(POSITIVE)),
}


def _induced_component(
    check: Checker, table: dict, key: str, where: Where, distributions: dict, bare: Bound
) -> Params | None:
    """One side of an induced prior: a bare number (a point) or a table naming a distribution."""
    value = table.get(key)
    example = ", ".join(distributions)
    if value is None:
        check.report(
            where,
            (key,),
            f"missing required key; expected {bare.text}, or a table {{ distribution = ... }} "
            f"with one of {example}",
        )
        return None
    if not isinstance(value, dict):
        number = check.number(table, key, where, bare)
        return None if number is None else _normalized(distribution="point", value=number)
    inner = where.inner(key)
    kind = check.choice(value, "distribution", inner, tuple(distributions), required=True)
    allowed = ("distribution",) + (
        distributions[kind][0]
        if kind
        else tuple(k for keys, _ in distributions.values() for k in keys)
    )
    check.unknown_keys(value, tuple(dict.fromkeys(allowed)), inner)
    if kind is None:
        return None
    params = distributions[kind][1](check, value, inner)
    return None if params is None else tuple(sorted(params + (("distribution", kind),)))


def _induced_prior(check: Checker, table: dict, where: Where) -> Params | None:
    p = _induced_component(
        check, table, "p_positive", where, P_POSITIVE_DISTRIBUTIONS, OPEN_PROBABILITY
    )
    r = _induced_component(check, table, "cost_ratio", where, COST_RATIO_DISTRIBUTIONS, POSITIVE)
    return None if p is None or r is None else (("cost_ratio", r), ("p_positive", p))


PRIOR_READERS = {
    "uniform": _uniform_prior,
    "beta": _beta_params,
    "point": _point_prior,
    "induced": _induced_prior,
}


def _check_prior_keys(check: Checker, table: dict, where: Where, distribution: str | None) -> None:
    every_parameter = tuple(dict.fromkeys(k for keys in PRIOR_PARAMETERS.values() for k in keys))
    allowed = ("name", "distribution", "datasets") + (
        PRIOR_PARAMETERS[distribution] if distribution else every_parameter
    )
    for key in table:
        if key in allowed:
            continue
        if key in every_parameter:
            takes = ", ".join(PRIOR_PARAMETERS[distribution])
            check.report(
                where,
                (key,),
                f"'{key}' is not a parameter of a {distribution} prior, which takes {takes}",
            )
        else:
            check.report(where, (key,), unknown_key_message(key, allowed))


def read_prior(
    check: Checker, where: Where, table: dict, taken: dict[str, int]
) -> PriorSpec | None:
    where = where.named(check.name(table, where, taken))
    distribution = check.choice(table, "distribution", where, tuple(PRIOR_READERS), required=True)
    _check_prior_keys(check, table, where, distribution)
    if distribution is None:
        return None
    params = PRIOR_READERS[distribution](check, table, where)
    datasets = _prior_datasets(check, table, where)
    if where.name is None or params is None:
        return None
    if (
        distribution == "point"
        and "pc" not in dict(params)
        and (datasets is None or len(datasets) != 1)
    ):
        check.report(
            where,
            ("datasets",),
            "expected one dataset name: without p_positive, PC(+) follows from cost_fn, cost_fp "
            "and that dataset's class mix",
        )
        return None
    line = check.lines.line_of(where.section, where.index)
    return PriorSpec(where.name, distribution, params, line=line, datasets=datasets)


def _prior_datasets(check: Checker, table: dict, where: Where) -> tuple[str, ...] | None:
    """The optional ``datasets`` list restricting a prior to some datasets (names must exist)."""
    return check.dataset_list(table, where)
