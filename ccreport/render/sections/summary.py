"""The dataset page's summary: AUC, operating range and expected costs with ranks
(D&H 2006 sections 3-4.2).

Under each prior the table has the best trivial classifier's expected cost as its last row (the
baseline, :mod:`ccreport.render.ranking`); a classifier no cheaper than it is marked
:data:`~ccreport.render.tables.NOT_BETTER_MARK`; equal costs share one rank; the star follows
:func:`ccreport.render.ranking.dataset_verdict` (significantly cheaper than the runner-up, step-down
adjusted), otherwise the cheapest says whom it is tied with.
"""

from __future__ import annotations

from ...results import DatasetResult
from .. import ranking
from .. import tables as tb
from ..page_names import dataset_page_slug
from .base import Section

STAR_RULE = (
    "step-down adjusted p-value (p_adj) of the paired "
    "expected-cost difference at most 1 \u2212 confidence"
)


def cost_cell(value, trivial, note: str = "") -> tb.Cell:
    """An expected-cost cell: the value, its note, and the trivial mark when it is no better than
    ``trivial``."""
    if ranking.no_better_than_trivial(value, trivial):
        note = f"{note} {tb.NOT_BETTER_MARK}".strip()
    return tb.num(value, tb.COST_DIGITS, note=note)


def summary_table(d: DatasetResult, priors: list[str]) -> tb.Table:
    trivial = {p: d.trivial_expected_cost.get(p) for p in priors}
    has_trivial = any(v is not None for v in trivial.values())
    note = (
        f"Rank in parentheses (1 = cheapest; equal costs share a rank); {tb.BEST_MARK} and bold: "
        "the cheapest under that prior, given only when it is significantly cheaper than the "
        f"runner-up ({STAR_RULE}); otherwise the cheapest says whom it is tied with. Mean rank "
        "averages the ranks over the priors."
    )
    if has_trivial:
        note += (
            " Last row: the best trivial classifier (at each PC(+) the cheaper of always "
            "negative and always positive), expected cost E[min(PC(+), 1 \u2212 PC(+))] under "
            f"the prior; {tb.NOT_BETTER_MARK}: no cheaper than it. A star needs a cost below it."
        )
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-summary",
        f"Classifiers on {d.name}: AUC, operating range (the PC(+) "
        "interval where the classifier beats both trivial classifiers) "
        "and expected normalized cost under each prior, with its rank.",
        ["Classifier", "Kind", "AUC", "Operating range"]
        + [f"E[cost] {p}" for p in priors]
        + ["Mean rank"],
        note=note,
        compact=len(priors) > 3,
    )
    by_prior = {
        p: ranking.ranks({n: c.expected_cost.get(p) for n, c in d.classifiers.items()})
        for p in priors
    }
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
            cell = cost_cell(
                c.expected_cost.get(p), trivial[p], "" if rank is None else f"({rank})"
            )
            prior_cells[p].append(cell)
            row.append(cell)
        mine = [by_prior[p][name] for p in priors if name in by_prior[p]]
        row.append(tb.num(sum(mine) / len(mine) if mine else None, 1))
        t.rows.append(row)
    for p, cells in prior_cells.items():
        tb.mark_verdict(dict(zip(d.classifiers, cells)), ranking.dataset_verdict(d, p))
    if has_trivial:
        t.rows.append(
            [
                tb.text(tb.TRIVIAL_NAME),
                tb.text("trivial"),
                tb.num(0.5, tb.AUC_DIGITS),
                tb.interval_cell([]),
            ]
            + [tb.num(trivial[p], tb.COST_DIGITS) for p in priors]
            + [tb.num(None, 1)]
        )
    return t


SECTION = Section(
    "summary", "Summary", "Summary", tables=lambda d, priors: {"summary": summary_table(d, priors)}
)
