"""The dataset page's threshold choice section (Hernández-Orallo, Flach & Ferri 2013): areas,
partial areas and their bootstrap intervals per classifier, and the pairs' paired differences of
areas."""

from __future__ import annotations

import numpy as np

from ...results import DatasetResult
from .. import tables as tb
from ..page_names import dataset_page_slug
from .base import Section

# the methods in the table, in the order of the figure's legend
METHOD_COLUMNS = (
    ("optimal", "Optimal"),
    ("score_driven", "Score-driven"),
    ("rate_driven", "Rate-driven"),
    ("kendall", "Kendall"),
    ("skull", "Skull"),
)
AXIS_TEXT = {
    "pc": "on the PC(+) axis (y = normalized expected cost)",
    "cost_proportion": (
        "on the cost-proportion axis (y = loss with C(FN) + C(FP) = 2, at the data's class mix)"
    ),
}


def shown_axes(d: DatasetResult) -> tuple[str, ...]:
    """The axes the page shows (the manifest's ``threshold_axis``, recorded in each result)."""
    for c in d.classifiers.values():
        if c.threshold_choice is not None:
            return c.threshold_choice.shown_axes
    return ()


def _cell(area, interval) -> tb.Cell:
    cell = tb.num(area, tb.COST_DIGITS)
    if interval is not None:
        cell.note = f"[{tb.cost(interval[0])}, {tb.cost(interval[1])}]"
    return cell


def canonical_source(found: dict, axis: str) -> str | None:
    """The uniform prior whose expected-cost interval the optimal areas show
    (:func:`ccreport.results.threshold_choice.with_canonical_intervals`), or None."""
    for tc in found.values():
        optimal = tc.methods[axis].get("optimal")
        if optimal is not None and optimal.interval_source is not None:
            return optimal.interval_source.removeprefix("expected_cost_interval.")
    return None


def _crisp_optimal(d: DatasetResult, name: str, prior: str | None) -> tb.Cell:
    """A crisp classifier's optimal area on the pc axis: its lower envelope's area, which is its
    expected cost under the uniform prior (with that interval when the scoring classifiers show it),
    else the envelope's area by the trapezoid rule (exact: the envelope is piecewise linear)."""
    c = d.classifiers[name]
    if prior is not None and prior in c.expected_cost:
        iv = (c.expected_cost_interval or {}).get(prior)
        return _cell(c.expected_cost[prior], None if iv is None else (iv.lower, iv.upper))
    pc, nec = np.asarray(c.envelope_pc, dtype=float), np.asarray(c.envelope_nec, dtype=float)
    return _cell(float(np.sum(np.diff(pc) * (nec[1:] + nec[:-1]) / 2)), None)


def area_table(d: DatasetResult, axis: str) -> tb.Table | None:
    """Each classifier's area per method (with its interval). The partial areas over the manifest's
    ranges, Kendall's too, are :func:`partial_table`'s: each number is in one table only."""
    found = {
        n: c.threshold_choice for n, c in d.classifiers.items() if c.threshold_choice is not None
    }
    if not found:
        return None
    # whether the manifest gives partial ranges: the first classifier's curve has them
    first = next(iter(found.values())).methods[axis]
    has_ranges = bool((first.get("kendall") or first.get("score_fixed")).partial)
    # the Kendall partial areas are the partial-areas table's Kendall column: not repeated here
    columns = ["Classifier"] + [label for _, label in METHOD_COLUMNS]
    notes = []
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-threshold-choice-{axis.replace('_', '-')}",
        f"Areas under the threshold choice curves on {d.name} {AXIS_TEXT[axis]}: the expected "
        "cost of each way of choosing thresholds, averaged over a uniform operating condition "
        "(lower is better); Kendall is the rate-driven area minus a perfect ranker's, the loss "
        "due to the ranking alone, a difference of two cost curves rather than the cost of a way "
        "of choosing (Hernández-Orallo, Flach & Ferri 2013, section 5).",
        columns,
        compact=True,
    )
    source = canonical_source(found, axis)
    for name, tc in found.items():
        by_method = tc.methods[axis]
        row = [tb.text(name)]
        if (
            "score_fixed" in by_method
        ):  # crisp: one cost line; its optimal curve is its lower envelope
            line = by_method["score_fixed"]
            row += [_crisp_optimal(d, name, source) if axis == "pc" else tb.text(tb.DASH)]
            row += [tb.text(tb.DASH) for _ in METHOD_COLUMNS[1:]]
            interval = (
                ""
                if line.interval is None
                else (f" [{tb.cost(line.interval[0])}, {tb.cost(line.interval[1])}]")
            )
            notes.append(
                f"{name} is crisp: it has no threshold to choose; the optimal column (PC(+) axis) "
                "is its lower envelope (its cost line where that beats both trivial classifiers, "
                "the cheaper trivial classifier elsewhere), as in the other tables. Its cost "
                "line used at every operating condition, another quantity, has area "
                f"{tb.cost(line.area)}{interval}."
            )
        else:
            for method, _ in METHOD_COLUMNS:
                r = by_method[method]
                row.append(_cell(r.area, r.interval) if r.area is not None else tb.text("n/a"))
                if r.not_applicable is not None:
                    notes.append(f"Score-driven for {name}: {r.not_applicable}.")
        t.rows.append(row)
    first = (
        "In brackets: the bootstrap confidence interval (the "
        "same resampled instances for every classifier). "
        + (
            f"Optimal is each classifier's expected cost under the {source} prior "
            "(uniform on [0, 1]) with its optimism-corrected interval, the same "
            "numbers as the summary and uncertainty tables; the other methods' "
            "intervals are percentile intervals of the replicates' areas."
            if source is not None and axis == "pc"
            else "Percentile intervals of the replicates' areas "
            "(the optimal area's is not optimism-corrected)."
        )
    )
    if (
        source is not None and axis == "pc"
    ):  # the optimal column quotes the expected-cost intervals: their warnings too
        notes += [
            f"Caution, {n}: {c.band.coverage_warning} (the band table)."
            for n, c in d.classifiers.items()
            if n in found and c.band is not None and c.band.coverage_warning
        ]
    t.note = " ".join(
        [first]
        + (
            ["Partial areas over the manifest's ranges, Kendall's among them: the next table."]
            if has_ranges
            else []
        )
        + notes
    )
    return t


def partial_table(d: DatasetResult, axis: str) -> tb.Table | None:
    """Partial areas of every method over each manifest range (one row per classifier and range)."""
    found = {
        n: c.threshold_choice
        for n, c in d.classifiers.items()
        if c.threshold_choice is not None and "kendall" in c.threshold_choice.methods[axis]
    }
    if not found or not next(iter(found.values())).methods[axis]["kendall"].partial:
        return None
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-partial-areas-{axis.replace('_', '-')}",
        f"Partial areas of the threshold choice curves on {d.name} {AXIS_TEXT[axis]}, over each "
        "range of the manifest's partial_ranges.",
        ["Classifier", "Range"] + [label for _, label in METHOD_COLUMNS],
        note="Integral of each curve over the range (not divided "
        "by its width); in brackets the bootstrap interval.",
        compact=True,
    )
    for name, tc in found.items():
        by_method = tc.methods[axis]
        for k, p in enumerate(by_method["kendall"].partial):
            row = [tb.text(name), tb.text(f"[{p.low:g}, {p.high:g}]")]
            for method, _ in METHOD_COLUMNS:
                q = by_method[method].partial[k]
                row.append(_cell(q.area, q.interval) if q.area is not None else tb.text("n/a"))
            t.rows.append(row)
    return t


def difference_table(d: DatasetResult, axis: str) -> tb.Table | None:
    found = {
        k: m.threshold_choice for k, m in d.comparisons.items() if m.threshold_choice is not None
    }
    if not found:
        return None
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-threshold-differences-{axis.replace('_', '-')}",
        f"Paired differences A − B of threshold choice areas on {d.name} {AXIS_TEXT[axis]}.",
        [
            "Pair (A vs B)",
            "Kendall area A − B",
            "p (unadjusted)",
            "(Skull − optimal) A − B",
            "p (unadjusted)",
        ],
        note="Kendall area difference: which classifier ranks better (negative: A). (Skull − "
        "optimal): how much more A than B would gain by calibrating its scores. In brackets "
        "the paired bootstrap interval; p two-sided, unadjusted: each test on its own, not "
        "adjusted for the other pairs (no star is given here); \u201c\u2264 2/(R + 1)\u201d, "
        "R the replicates: no replicate reached 0, the smallest p the bootstrap can show.",
        compact=True,
    )
    for key, m in found.items():
        k, s = m.differences[axis]["kendall"], m.differences[axis]["skull_minus_optimal"]
        t.rows.append(
            [
                tb.text(key),
                _cell(k.difference, k.interval),
                tb.p_cell(k.p_value, m.replicates),
                _cell(s.difference, s.interval),
                tb.p_cell(s.p_value, m.replicates),
            ]
        )
    return t


def threshold_tables(d: DatasetResult, priors: list[str]) -> dict:
    out = {}
    for axis in shown_axes(d):
        # names unique on the page (a page's tables are one dict over its sections)
        suffix = "" if axis == "pc" else "_cost_proportion"
        out["threshold_areas" + suffix] = area_table(d, axis)
        out["threshold_partial" + suffix] = partial_table(d, axis)
        out["threshold_differences" + suffix] = difference_table(d, axis)
    return out


SECTION = Section(
    "threshold_choice", "Threshold choice methods", "Threshold choice", tables=threshold_tables
)
