"""``Results.table``: results as rows for a notebook's DataFrame.

Each function reads a :class:`ccreport.results.core.DatasetResult` ``d`` (or one of its
:class:`~ccreport.results.core.ClassifierResult` ``c``); core imports this module, not the
reverse."""

from __future__ import annotations


def with_interval(c, prior: str) -> str:
    """A classifier's expected cost under a prior, with its bootstrap interval when computed."""
    value = c.expected_cost.get(prior)
    if value is None:
        return ""
    iv = (c.expected_cost_interval or {}).get(prior)
    return f"{value:.4f}" + ("" if iv is None else f" [{iv.lower:.4f}, {iv.upper:.4f}]")


def _expected_cost_rows(d) -> list[dict]:
    rows = []
    for c in d.classifiers.values():
        row = {"dataset": d.name, "classifier": c.name}
        for prior, value in c.expected_cost.items():
            row[prior] = value
            iv = (c.expected_cost_interval or {}).get(prior)
            if iv is not None:
                row[f"{prior} lower"], row[f"{prior} upper"] = iv.lower, iv.upper
        rows.append(row)
    return rows


def _classifier_rows(d) -> list[dict]:
    return [
        {
            "dataset": d.name,
            "classifier": c.name,
            "kind": c.kind,
            "auc": c.auc,
            "range_lo": None if c.operating_range is None else c.operating_range[0],
            "range_hi": None if c.operating_range is None else c.operating_range[1],
        }
        for c in d.classifiers.values()
    ]


def _comparison_rows(d) -> list[dict]:
    rows = []
    for m in d.comparisons.values():
        row = {
            "dataset": d.name,
            "a": m.a,
            "b": m.b,
            "crossovers": tuple(m.crossovers),
            "max_difference_pc": m.max_difference[0],
            "max_difference": m.max_difference[1],
        }
        row.update({f"E[a - b] {p}": v for p, v in m.expected_cost_difference.items()})
        rows.append(row)
    return rows


TABLE_KINDS = {
    "expected_cost": _expected_cost_rows,
    "classifiers": _classifier_rows,
    "comparisons": _comparison_rows,
}
