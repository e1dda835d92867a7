"""The dataset page's pairwise comparisons: crossovers, where each is cheaper, expected-cost
differences (D&H 2006 sections 4.3-4.4 and 4.7), family-wise significance and step-down adjusted
p-values (results.json ``p_holm``)."""

from __future__ import annotations

import math

from ...results import ComparisonResult, DatasetResult
from .. import tables as tb
from ..page_names import dataset_page_slug
from .base import Section, confidence_text


def comparison_table(d: DatasetResult) -> tb.Table:
    """One row per pair: crossovers, where each is cheaper, the largest difference (D&H 2006
    sections 4.3-4.4) and, with paired bands, the PC(+) intervals where the family-wise band of
    A - B excludes 0 (they do not depend on the prior, so they are here, not in the differences
    table's rows per prior)."""
    has_significance = any(m.significant is not None for m in d.comparisons.values())
    note = (
        "Intervals of PC(+) at 3 decimals; outside them the two envelopes are equal "
        "(both trivial, or identical). A negative difference means A is cheaper."
    )
    if has_significance:
        note += (
            " Significantly cheaper: PC(+) intervals where the family-wise band of A \u2212 B "
            "(studentized max-statistic over the whole PC(+) range) excludes 0, so the chance of "
            f"any false interval in a row is at most 1 \u2212 {confidence_text(d) or 'the level'}."
        )
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-comparisons",
        f"Pairwise comparisons on {d.name}: where the lower envelopes "
        "cross, the PC(+) intervals where each classifier is cheaper, "
        "and the largest difference in normalized expected cost.",
        [
            "A",
            "B",
            "Crossovers (PC(+))",
            "A cheaper on",
            "B cheaper on",
            "Largest |A \u2212 B| at PC(+)",
            "A \u2212 B there",
        ]
        + (["Significantly cheaper on (family-wise)"] if has_significance else []),
        note=note,
        compact=True,
        lead_columns=2,
    )
    for m in d.comparisons.values():
        t.rows.append(
            [
                tb.text(m.a),
                tb.text(m.b),
                tb.Cell(
                    ", ".join(tb.pc(x) for x in m.crossovers) or tb.DASH,
                    list(m.crossovers),
                    parts=[tb.pc(x) for x in m.crossovers] or None,
                ),
                tb.interval_cell(m.a_better),
                tb.interval_cell(m.b_better),
                tb.num(m.max_difference[0], tb.PC_DIGITS),
                tb.num(m.max_difference[1], tb.COST_DIGITS),
            ]
            + ([_significant_cell(m)] if has_significance else [])
        )
    return t


def _significant_cell(m: ComparisonResult) -> tb.Cell:
    sig = m.significant or ()
    parts = [f"{tb.interval(s.lo, s.hi)} {s.better}".strip() for s in sig]
    return tb.Cell(
        ", ".join(parts) or tb.DASH, [[s.lo, s.hi, s.better] for s in sig], parts=parts or None
    )


def holm_text(iv, replicates: int | None) -> str:
    """``p=0.012, p_adj=0.047`` of an expected-cost difference; a p at its floor 1 / (R + 1) is
    printed as a bound (:func:`ccreport.render.tables.p_value_text`), and so is the adjusted p then
    (no replicate reached the statistic, so the step-down count is a bound too)."""
    if iv.p_value is None:
        return ""
    raw = tb.p_value_text(iv.p_value, replicates, floor_count=1)
    if iv.p_holm is None:
        return raw
    bound = raw.startswith("p\u00a0")
    holm = "p_adj"
    shown = math.ceil(iv.p_holm * 1000 - 1e-9) / 1000  # a bound stays true when rounded up
    return (
        raw
        + ", "
        + (
            f"{holm}\u00a0\u2264\u00a0{shown:.3f}"
            if bound and iv.p_holm < 1
            else f"{holm}={tb.fmt(iv.p_holm, 3)}"
        )
    )


def _difference_cell(m: ComparisonResult, prior: str) -> tb.Cell:
    band = m.difference_band
    replicates = None if band is None else band.replicates
    value = m.expected_cost_difference.get(prior)
    cell = tb.num(value, tb.COST_DIGITS)
    interval = (m.expected_cost_difference_interval or {}).get(prior)
    if interval is not None:
        lo, hi = interval.lower, interval.upper
        # the interval is each pair's own (unadjusted); the mark and p_adj are adjusted over every
        # pair and prior
        cell.note = (
            f"[{tb.cost(lo)},\u00a0{tb.cost(hi)}]"
            + (" unadjusted" if interval.p_holm is not None else "")
            + (", " + holm_text(interval, replicates) if interval.p_value is not None else "")
        )
        if interval.p_holm is not None and band is not None:
            # marks and words use the step-down adjusted p-value over every pair and prior
            cell.best = interval.p_holm <= 1 - float(band.level) + 1e-12
            cell.mark, cell.mark_label = (
                tb.SIGNIFICANT_MARK,
                f"adjusted p \u2264 {1 - float(band.level):.2g}",
            )
        else:
            cell.best = lo is not None and hi is not None and (lo > 0 or hi < 0)
            cell.mark, cell.mark_label = tb.SIGNIFICANT_MARK, "interval excludes 0"
    return cell


def differences_table(d: DatasetResult, priors: list[str]) -> tb.Table:
    """The expected-cost differences E[A] - E[B] (D&H 2006 section 4.7) in long form: one row per
    pair and prior, narrow enough for a portrait page however many priors there are; every row
    names its pair (a row read alone, by a reader or a checker, says what it is about). Where the
    difference is significant over PC(+) is in :func:`comparison_table`."""
    has_intervals = any(
        m.expected_cost_difference_interval is not None for m in d.comparisons.values()
    )
    note = (
        "Difference of expected normalized costs, one row per pair and prior; negative: A is "
        "cheaper under that prior."
    )
    if has_intervals:
        note += (
            f" In brackets: the paired bootstrap {confidence_text(d)} interval of that one "
            "difference (unadjusted: it may exclude 0 where the adjusted test does not), its "
            "p-value p and p_adj, the p-value adjusted over every pair and prior of this dataset "
            "(Westfall & Young step-down max-T) (\u201cp \u2264 1/(R + 1)\u201d, with R the "
            "replicates: no replicate was as far from the estimate as 0, the smallest p-value "
            f"the bootstrap can show); {tb.SIGNIFICANT_MARK} and bold: p_adj \u2264 1 \u2212 "
            "confidence, the only mark of significance here."
        )
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-differences",
        f"Differences in expected cost between each pair on {d.name}, under each prior.",
        ["A", "B", "Prior", "E[A] \u2212 E[B]"],
        note=note,
        compact=True,
        lead_columns=2,
    )
    for m in d.comparisons.values():
        for p in priors:
            t.rows.append([tb.text(m.a), tb.text(m.b), tb.text(p), _difference_cell(m, p)])
    return t


def comparison_tables(d: DatasetResult, priors: list[str]) -> dict:
    return {"comparisons": comparison_table(d), "differences": differences_table(d, priors)}


SECTION = Section(
    "comparisons", "Pairwise comparisons", "Pairwise comparisons", tables=comparison_tables
)
