"""The dataset page's summary: AUC, operating range and expected costs with ranks (D&H 2006 sections 3-4.2)."""

from __future__ import annotations

from ...results import DatasetResult
from .. import tables as tb
from ..page_names import dataset_page_slug
from .base import Section


def summary_table(d: DatasetResult, priors: list[str]) -> tb.Table:
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-summary",
        f"Classifiers on {d.name}: AUC, operating range (the PC(+) interval where the classifier beats "
        "both trivial classifiers) and expected normalized cost under each prior, with its rank.",
        ["Classifier", "Kind", "AUC", "Operating range"] + [f"E[cost] {p}" for p in priors] + ["Mean rank"],
        note=f"Rank in parentheses (1 = cheapest); {tb.BEST_MARK} and bold: the cheapest under that prior. "
        "Mean rank averages the ranks over the priors.",
        compact=len(priors) > 3,
    )
    by_prior = {p: tb.ranks({n: c.expected_cost.get(p) for n, c in d.classifiers.items()}) for p in priors}
    prior_cells: dict[str, list[tb.Cell]] = {p: [] for p in priors}
    for name, c in d.classifiers.items():
        row = [
            tb.text(name),
            tb.text(c.kind),
            tb.num(c.auc, tb.AUC_DIGITS),
            tb.interval_cell([] if c.operating_range is None else [c.operating_range]),
        ]
        for p in priors:
            rank = by_prior[p].get(name)
            cell = tb.num(c.expected_cost.get(p), tb.COST_DIGITS, note="" if rank is None else f"({rank})")
            prior_cells[p].append(cell)
            row.append(cell)
        mine = [by_prior[p][name] for p in priors if name in by_prior[p]]
        row.append(tb.num(sum(mine) / len(mine) if mine else None, 1))
        t.rows.append(row)
    for cells in prior_cells.values():
        tb.mark_best(cells)
    return t


SECTION = Section("summary", "Summary", "Summary", tables=lambda d, priors: {"summary": summary_table(d, priors)})
