"""The decision first: one block per dataset, opening report.pdf (after the title) and index.html.

Read from each dataset's decision box (:mod:`ccreport.tasks.decisions`, ``datasets.<d>.decisions``
in results.json), nothing recomputed: one line per point prior and per criterion, each the answer
and the one number that goes with it (:func:`ccreport.render.sections.decisions.decision_lines`):
at a point prior, the classifier and threshold to deploy, its expected cost in the project's units
(else normalized) with the classifier's canonical ``expected_cost_interval`` and whether the
runner-up is tied (the family-wise verdict: "significantly cheaper than" when the step-down
adjusted p-value is at most 1 - confidence, else "tied with"); under a constrained criterion, the
classifier, its rule and the share of positives it catches, with the ⚠ of a cap that may be passed
on new data; under a threshold set from PC(+), its expected cost under the uniform prior. Every
other number of a decision (rates, ranges, the constrained rate's exact intervals, the runner-up's
rates, the constraint's price) is in the decision tables each line names, and said there only. A
number whose interval is known to under-cover (the band's ``coverage_warning``: a classifier with
few distinct scores) carries that warning beside it. For a dataset with instance costs, which
analysis the decision follows and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..results import DatasetResult, Results
from .catalogue import Catalogue
from .page_names import dataset_page_slug
from .sections.decisions import TABLE_KEYS, SummaryLine, decision_lines, few_scores_warning

__all__ = ["DatasetSummary", "SummaryLine", "decision_summary", "few_scores_warning"]


@dataclass
class DatasetSummary:
    """A dataset's decisions: ``lines`` and ``tables``, table key -> ``(number, href, anchor)`` of
    the decision tables the lines refer to (``href`` on the site, ``anchor`` inside report.pdf)."""

    name: str
    href: str
    lines: list[SummaryLine] = field(default_factory=list)
    instance_note: str = ""
    tables: dict[str, tuple[int, str, str]] = field(default_factory=dict)


def instance_note(d: DatasetResult) -> str:
    """Which analysis the decision follows where instance costs are given, and why."""
    found = {n: c for n, c in d.classifiers.items() if c.instance_costs is not None}
    if not found or d.decisions is None:
        return ""
    unit = next(iter(found.values())).instance_costs.unit or ""
    totals = {n: c.instance_costs.min_total for n, c in found.items()}
    cheapest = min(totals, key=totals.get)
    chosen = sorted({r.classifier for r in d.decisions.priors.values() if r.classifier})
    follows = (
        "the point priors' class-level costs" if d.decisions.priors else "the selection criteria"
    )
    text = (
        f"Instance costs ({unit}): with each case's own cost, {cheapest} is the cheapest on these "
        f"cases ({totals[cheapest]:,.0f} {unit} in total at its best threshold)"
    )
    others = [n for n in chosen if n != cheapest]
    if others:
        n = others[0]
        text += f" against {totals.get(n, float('nan')):,.0f} {unit} for {n}"
        m = d.comparisons.get(f"{cheapest} vs {n}") or d.comparisons.get(f"{n} vs {cheapest}")
        ivs = m.instance_costs.intervals if m is not None and m.instance_costs is not None else None
        if ivs is not None:
            diff = ivs.min_total_cost_difference
            sign = 1 if m.a == cheapest else -1
            lo, hi = sorted((sign * diff.lower, sign * diff.upper))
            verdict = "holds 0: the two cannot be told apart" if lo <= 0 <= hi else "excludes 0"
            text += (
                f" (unadjusted paired {100 * ivs.level:g}% interval of the difference: "
                f"[{lo:,.0f}, {hi:,.0f}] {unit}, which {verdict})"
            )
    text += (
        f". The decisions above follow {follows}, the costs declared "
        "for deployment; the instance-cost totals price these same "
        "cases by their own amounts, with the threshold chosen on them"
    )
    if not others and chosen:
        text += ", and name the same classifier"
    return text + "."


def decision_summary(results: Results, catalogue: Catalogue | None = None) -> list[DatasetSummary]:
    """Per dataset with a decision box, its lines (point priors first, then criteria) and, with
    the report's ``catalogue``, the number and address of each decision table they refer to."""
    out = []
    numbered = {} if catalogue is None else {e.key: e for e in catalogue.tables}
    for d in results.datasets.values():
        if d.decisions is None:
            continue
        slug = dataset_page_slug(d.name)
        s = DatasetSummary(d.name, f"{slug}.html#{slug}-decisions")
        s.lines = decision_lines(d)
        for line in s.lines:
            key = f"{slug}-{TABLE_KEYS[line.table]}"
            if key in numbered:
                e = numbered[key]
                s.tables[line.table] = (e.number, f"{e.page}.html#{e.anchor}", e.anchor)
        s.instance_note = instance_note(d)
        out.append(s)
    return out
