"""The dataset page's instance-cost section (Fawcett 2006): what each instance's own cost changes.

Tables: AUC against AUCIV and the least total cost of errors on the data in the data's units, with
the cheapest threshold and intervals; expected costs over PC_iv(+) with intervals. A sentence built
from the numbers says which classifier wins with class-level costs and which with instance costs.
"""

from __future__ import annotations

import numpy as np

from ...results import DatasetResult
from .. import ranking
from .. import tables as tb
from ..page_names import dataset_page_slug
from .base import Section


def _found(d: DatasetResult) -> dict:
    return {n: c for n, c in d.classifiers.items() if c.instance_costs is not None}


def unit_of(d: DatasetResult) -> str:
    found = _found(d)
    unit = next(iter(found.values())).instance_costs.unit if found else None
    return unit or "cost units"


def money(value: float | None, unit: str) -> str:
    return tb.DASH if value is None else f"{value:,.0f} {unit}"


def summary_table(d: DatasetResult, priors: list[str]) -> tb.Table | None:
    found = _found(d)
    if not found:
        return None
    unit = unit_of(d)
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-instance-costs",
        f"AUC against AUCIV, and the least total cost of errors on {d.name} in {unit} (each "
        "instance with its own cost).",
        [
            "Classifier",
            "AUC",
            "AUCIV",
            f"Least total cost ({unit})",
            "At threshold",
            "Operating range (PC_iv)",
        ],
        note=(
            "AUCIV: the area under the ROCIV curve, the chance that a positive ranks "
            "above a negative when each is drawn in proportion to its cost. Least total "
            "cost: the sum of the costs of the errors on these data at the cheapest "
            "score threshold (positive iff score >= threshold; \u2014: predict nothing "
            "positive; a threshold at the lowest score flags every instance). In "
            "brackets: bootstrap intervals, instances resampled with their costs."
        ),
    )
    totals = []
    for name, c in found.items():
        ic = c.instance_costs
        iv = ic.intervals
        auciv = tb.num(ic.auciv, tb.AUC_DIGITS)
        total = tb.Cell(
            money(ic.min_total, unit).replace(f" {unit}", ""), ic.min_total, numeric=True
        )
        if iv is not None:
            auciv.note = f"[{tb.auc(iv.auciv[0])}, {tb.auc(iv.auciv[1])}]"
            total.note = f"[{iv.min_total_cost[0]:,.0f}, {iv.min_total_cost[1]:,.0f}]"
        totals.append(total)
        t.rows.append(
            [
                tb.text(name),
                tb.num(c.auc, tb.AUC_DIGITS),
                auciv,
                total,
                tb.num(ic.min_total_threshold, 4),
                tb.interval_cell([ic.operating_range] if ic.operating_range else []),
            ]
        )
    mark_cheapest(d, dict(zip(found, totals)), lambda ivs: ivs.min_total_cost_difference)
    zero = [
        n
        for n, c in found.items()
        if c.instance_costs.intervals is not None
        and c.instance_costs.intervals.min_total_cost[0]
        == c.instance_costs.intervals.min_total_cost[1]
    ]
    if zero:
        t.note += (
            f" A zero-width interval ({', '.join(zero)}): every replicate's least total cost was "
            "the same: the cheapest choice was one whose total stratified resampling (class "
            "counts kept) cannot change, flagging every instance when each false alarm has one "
            "fixed cost, or none when each miss has."
        )
    t.note += " " + STAR_NOTE
    return t


def expected_table(d: DatasetResult, priors: list[str]) -> tb.Table | None:
    found = _found(d)
    if not found:
        return None
    first = next(iter(found.values())).instance_costs
    used = [p for p in priors if p in first.expected_cost]
    if not used:
        return None
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-instance-expected",
        f"Expected normalized cost on {d.name} with class-level costs (plain) and with instance "
        "costs (iv), each prior read over its own axis.",
        ["Classifier"] + [f"{p} {kind}" for p in used for kind in ("plain", "iv")],
        note="iv: the instance-cost envelope, the prior read as a distribution over PC_iv(+); in "
        "brackets its bootstrap interval.",
        compact=len(used) > 2,
    )
    columns: dict[int, dict[str, tb.Cell]] = {k: {} for k in range(2 * len(used))}
    for name, c in found.items():
        ic = c.instance_costs
        row = [tb.text(name)]
        for k, p in enumerate(used):
            plain = tb.num(c.expected_cost.get(p), tb.COST_DIGITS)
            iv = tb.num(ic.expected_cost.get(p), tb.COST_DIGITS)
            if ic.intervals is not None and p in ic.intervals.expected_cost:
                lo, hi = ic.intervals.expected_cost[p]
                iv.note = f"[{tb.cost(lo)}, {tb.cost(hi)}]"
            columns[2 * k][name] = plain
            columns[2 * k + 1][name] = iv
            row += [plain, iv]
        t.rows.append(row)
    for k, p in enumerate(used):
        # plain: the class-level expected cost, the summary table's verdict (its adjusted test)
        tb.mark_verdict(
            columns[2 * k],
            ranking.dataset_verdict(d, p, {n: c.expected_cost.get(p) for n, c in found.items()}),
        )
        mark_cheapest(d, columns[2 * k + 1], lambda ivs, p=p: ivs.expected_cost_difference.get(p))
    t.note += (
        " Plain columns: \u2605 as in the summary table (the "
        "adjusted test of the class-level expected costs). " + STAR_NOTE
    )
    return t


STAR_NOTE = (
    "Instance-cost columns: ★ only when the cheapest is significantly cheaper than the runner-up "
    "by the step-down adjusted p-value (p_adj) of their paired difference; these differences "
    "have unadjusted paired intervals only (the comparisons' instance-cost intervals), so the "
    "cheapest says whom it was not tested against."
)


def mark_cheapest(d: DatasetResult, cells: dict[str, tb.Cell], pick) -> None:
    """Star the cheapest of ``cells`` (classifier -> cell) as every table does
    (:func:`ranking.verdict`): only when its paired instance-cost difference from each runner-up
    (``pick(intervals)``, an :class:`~ccreport.results.ExpectedCostDifferenceInterval`) has a
    step-down adjusted p-value (``p_holm``) at most 1 - confidence; otherwise the cheapest says whom
    it is tied with or was not tested against."""

    def p_adjusted(a: str, b: str):
        m = ranking.comparison(d, a, b)
        ivs = None if m is None or m.instance_costs is None else m.instance_costs.intervals
        found = None if ivs is None else pick(ivs)
        return None if found is None or found.p_holm is None else float(found.p_holm)

    values = {n: c.value for n, c in cells.items()}
    tb.mark_verdict(cells, ranking.verdict(values, None, p_adjusted, ranking.alpha_of(d)))


def what_changes(d: DatasetResult) -> str | None:
    """A sentence from the numbers: which classifier wins with class-average and with instance
    costs."""
    found = _found(d)
    if len(found) < 1:
        return None
    unit = unit_of(d)
    own = next(iter(found.values())).instance_costs.own_pc
    plain = {
        n: float(
            np.interp(own, np.asarray(c.envelope_pc, float), np.asarray(c.envelope_nec, float))
        )
        for n, c in found.items()
    }
    iv = {n: c.instance_costs.min_total for n, c in found.items()}
    by_auc = max(found, key=lambda n: found[n].auc)
    by_auciv = max(found, key=lambda n: found[n].instance_costs.auciv)
    plain_best, iv_best = min(plain, key=plain.get), min(iv, key=iv.get)
    parts = [f"At this data's own operating condition (PC_iv(+) = {own:.3f}), "]
    if plain_best == iv_best:
        parts.append(
            f"{iv_best} is the cheapest classifier both when every error of a class costs the "
            f"class average and with each instance's own cost ({money(iv[iv_best], unit)} in "
            "total): the amounts do not change the winner there."
        )
    else:
        parts.append(
            "with every error of a class costing the class average the cheapest classifier is "
            f"{plain_best}; with each instance's own cost it is {iv_best}, at "
            f"{money(iv[iv_best], unit)} against {money(iv[plain_best], unit)} for {plain_best}"
        )
        key = (
            f"{iv_best} vs {plain_best}"
            if f"{iv_best} vs {plain_best}" in d.comparisons
            else f"{plain_best} vs {iv_best}"
        )
        m = d.comparisons.get(key)
        ivs = m.instance_costs.intervals if m is not None and m.instance_costs is not None else None
        if ivs is not None:
            diff = ivs.min_total_cost_difference
            sign = 1 if key.startswith(iv_best) else -1
            lo, hi = sorted((sign * diff.lower, sign * diff.upper))
            excl = "excludes" if lo > 0 or hi < 0 else "includes"
            parts.append(
                f" (paired {ivs.level:.0%} interval of the difference {iv_best} \u2212 "
                f"{plain_best}: [{lo:,.0f}, {hi:,.0f}] {unit}, which {excl} 0)"
            )
        parts.append(".")
    parts.append(
        f" By ranking, {by_auc} has the highest AUC and {by_auciv} the highest AUCIV"
        + (" (the same)." if by_auc == by_auciv else ".")
    )
    return "".join(parts)


def left_out(d: DatasetResult) -> tuple[str, ...]:
    found = _found(d)
    return next(iter(found.values())).instance_costs.left_out_priors if found else ()


def instance_cost_tables(d: DatasetResult, priors: list[str]) -> dict:
    return {"iv_summary": summary_table(d, priors), "iv_expected": expected_table(d, priors)}


SECTION = Section("instance_costs", "Instance costs", "Instance costs", tables=instance_cost_tables)
