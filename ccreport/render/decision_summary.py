"""The decision first: one block per dataset, opening report.pdf (after the title) and index.html.

Read from each dataset's decision box (:mod:`ccreport.tasks.decisions`, ``datasets.<d>.decisions``
in results.json), nothing recomputed: at each point prior, the recommended classifier and threshold,
its expected cost in the project's units (else normalized) with the classifier's canonical
``expected_cost_interval``, the PC(+) range where it stays the cheapest, the share of cases it
flags and whether the runner-up is tied (the family-wise verdict: "significantly cheaper than"
when the step-down adjusted p-value is at most 1 - confidence, else "tied with", the words of
:mod:`ccreport.render.ranking`); for each constrained criterion, the choice on its one basis,
its rates, its constrained rate with the exact interval and the cap warning, and its price; for a
dataset with instance costs, which analysis the decision follows and why. A number whose interval
is known to under-cover (the band's ``coverage_warning``: a classifier with few distinct scores)
carries that warning beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..results import DatasetResult, Results
from ..tasks.decisions import EQUAL_COSTS
from . import tables as tb
from .findings import p_holm_ref
from .page_names import dataset_page_slug
from .sections.decisions import (
    KIND_WORDS,
    constraint_text,
    criterion_interval,
    rate,
    threshold_text,
    trivial_choice,
    zero_width_text,
)


@dataclass
class SummaryLine:
    """One decision: ``head`` (the situation), ``text`` (what to do and how sure), ``warning``."""

    head: str
    text: str
    warning: str = ""


@dataclass
class DatasetSummary:
    name: str
    href: str
    lines: list[SummaryLine] = field(default_factory=list)
    instance_note: str = ""


def few_scores_warning(d: DatasetResult, classifier: str) -> str:
    """The under-coverage warning of a classifier whose band is known to cover less than its level,
    in the words every other place quotes (:attr:`ccreport.results.Band.coverage_warning`), or
    ""."""
    c = d.classifiers.get(classifier)
    warning = None if c is None or c.band is None else c.band.coverage_warning
    return f"Caution, {classifier}: {warning}" if warning else ""


def money(x: float, unit: str) -> str:
    return f"{x:,.3f} {unit}".strip()


def short_rule(row) -> str:
    """``threshold t`` or ``threshold a for w% of cases (drawn at random), b for the rest``."""

    def one(t):
        return "flag nobody" if t is None else f"threshold {t:.6g}"

    m = row.mix
    if m is None:
        return one(row.threshold)
    a, b = m["thresholds"]
    return (
        f"{one(a)} for {100 * m['weight_first']:.1f}% of "
        f"cases (drawn at random), {one(b)} for the rest"
    )


def price_words(price: dict, intervals: dict | None = None) -> str:
    """The constrained choice's cost against the unconstrained optimum and the best trivial one;
    ``intervals``: prior -> {lower, upper} of the choice's normalized expected cost (the criteria's
    bootstrap, :func:`ccreport.render.sections.decisions.criterion_interval`), shown in the same
    units."""
    parts = []
    for p, v in price.items():
        units = "cost_per_case" in v
        src, fmt = (
            (v["cost_per_case"], lambda x, v=v: money(x, v["unit"]))
            if units
            else (v, lambda x: f"{x:.4f}")
        )
        trivial = (
            "flagging nobody" if src["flag_nobody"] <= src["flag_everyone"] else "flagging everyone"
        )
        where = (
            f"under {p}"
            if p != EQUAL_COSTS
            else f"with equal costs at the class mix (PC(+) = {v['pc']:.3f})"
        )
        cost = fmt(src["constrained"]) + (" per case" if units else "")
        iv = (intervals or {}).get(p)
        if iv is not None:
            scale = (
                src["flag_nobody"] + src["flag_everyone"]
            )  # normalized: pc + (1 - pc) = 1; in units: the scale
            digits = 3 if units else tb.COST_DIGITS
            cost += f" {tb.interval(iv['lower'] * scale, iv['upper'] * scale, digits)}"
        parts.append(
            f"{where} it costs {cost} against {fmt(src['unconstrained'])} unconstrained and "
            f"{fmt(min(src['flag_nobody'], src['flag_everyone']))} {trivial}"
        )
    return "; ".join(parts)


def prior_line(d: DatasetResult, name: str, row) -> SummaryLine:
    head = f"Under {name} (PC(+) = {row.pc:.3f})"
    who = trivial_choice(row)
    if who is not None:
        what = (
            f"flag {'no case' if who == 'nobody' else 'every case'} "
            f"as {d.positive_label} (a trivial classifier)"
        )
    else:
        what = (
            f"deploy {row.classifier}, flagging a case as {d.positive_label} when its score is at "
            f"least {threshold_text(row.threshold)}"
        )
    iv = row.expected_cost_interval
    if row.cost_per_case is not None:
        c = row.cost_per_case
        cost = f"expected cost {money(c['value'], c['unit'])} per case"
        if "interval" in c:
            cost += f" [{c['interval'][0]:,.3f}, {c['interval'][1]:,.3f}]"
    else:
        cost = f"expected normalized cost {row.expected_cost:.4f}"
        if iv is not None:
            cost += f" {tb.interval(iv[0], iv[1], tb.COST_DIGITS)}"
    text = (
        f"{what}: {cost}; stays the cheapest for PC(+) in [{row.pc_interval[0]:.3f}, "
        f"{row.pc_interval[1]:.3f}]; flags {rate(row.flagged_share)} of cases"
    )
    why = zero_width_text(row)
    if why:
        text += f" (the interval has {why})"
    r = row.runner_up
    if r:
        ref = p_holm_ref(d, row.classifier, r["classifier"], name)
        adj = f", {ref.text}" if ref is not None else ""
        if "significant" in r:
            word = "significantly cheaper than" if r["significant"] else "tied with"
            text += f"; {word} the runner-up {r['classifier']}{adj}"
        elif "difference" not in r:
            text += f"; runner-up {r['classifier']}, not tested against it"
        else:
            text += f"; runner-up {r['classifier']} (no adjusted test)"
    if row.ties:
        text += f"; equally cheap: {', '.join(row.ties)}"
    return SummaryLine(head, text + ".", few_scores_warning(d, row.classifier))


def criterion_line(d: DatasetResult, name: str, row) -> SummaryLine:
    head = f"{name} ({KIND_WORDS[row.kind]})"
    if row.classifier is None:
        return SummaryLine(head, f"{row.note}.")
    if row.kind == "performance_independent":
        text = (
            f"{row.classifier}, threshold set from PC(+) alone; expected normalized cost "
            f"{row.expected_cost:.4f} under the uniform prior"
        )
        if row.runner_up:
            text += (
                f"; runner-up {row.runner_up['classifier']} ({row.runner_up['expected_cost']:.4f})"
            )
        return SummaryLine(head, text + ".")
    text = (
        f"{row.classifier}, {short_rule(row)}: TPR {rate(row.tpr)}, FPR {rate(row.fpr)}, "
        f"flags {rate(row.flagged_share)} of cases"
    )
    c = row.constraint or {}
    warning = ""
    if "in_sample" in c:
        what = "false-alarm rate" if c["rate"] == "false_alarm" else "share flagged"
        text += f"; {what} {constraint_text({**c, 'exceeds': False})}"
        if c.get("exceeds"):
            warning = f"the {what} may pass its cap of {rate(c['cap'])} on new data"
    ivs = {
        p: iv
        for p, iv in criterion_interval(d, name, row.classifier).items()
        if p in (row.price or {})
    }
    if row.price:
        text += f"; {price_words(row.price, ivs)}"
    if ivs:
        few = few_scores_warning(d, row.classifier)
        warning = "; ".join(w for w in (warning, few) if w)
    if row.runner_up:
        r = row.runner_up
        text += (
            f"; runner-up on the same basis {r['classifier']} "
            f"(TPR {rate(r['tpr'])}, FPR {rate(r['fpr'])})"
        )
    if row.ties:
        text += f"; exactly as good: {', '.join(row.ties)}"
    return SummaryLine(head, text + ".", warning)


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


def decision_summary(results: Results) -> list[DatasetSummary]:
    """Per dataset with a decision box, its lines (point priors first, then criteria)."""
    out = []
    for d in results.datasets.values():
        if d.decisions is None:
            continue
        s = DatasetSummary(
            d.name, f"{dataset_page_slug(d.name)}.html#{dataset_page_slug(d.name)}-decisions"
        )
        s.lines += [prior_line(d, n, r) for n, r in d.decisions.priors.items()]
        s.lines += [criterion_line(d, n, r) for n, r in d.decisions.criteria.items()]
        s.instance_note = instance_note(d)
        out.append(s)
    return out
