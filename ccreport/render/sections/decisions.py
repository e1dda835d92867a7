"""The decision box, the threshold tables and the selection criteria of a dataset.

* ``decisions``: for every point prior and every criterion, what to deploy (classifier and
  threshold), over which cut-offs and operating conditions that choice holds, its rates, its
  expected cost with its interval, and the runner-up with its verdict: two tables
  (``datasets.<d>.decisions``), each number in one cell, and one line per decision
  (:func:`decision_lines`: what to deploy and the one number that goes with it, shared with the
  summary that opens the report); the prices table gives each criterion's cost per condition.
* ``thresholds``: per classifier, on which PC(+) interval which threshold is optimal (D&H 2006
  section 5.1.2: the lower envelope's segments), ties noted.
* ``selection``: each criterion's choice per classifier, and the out-of-fold (honest) areas and
  optimism (section 5.2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...results import DatasetResult
from .. import tables as tb
from ..findings import p_holm_ref
from ..page_names import dataset_page_slug
from .base import Section


def threshold_text(t) -> str:
    """A threshold as read by a person: +inf (None) flags nobody."""
    if t is None or (isinstance(t, float) and math.isinf(t) and t > 0):
        return "above every score (flag nobody)"
    if isinstance(t, float) and math.isinf(t):
        return "any (flag everyone)"
    return f"{t:.6g}"


def rate(x) -> str:
    return tb.DASH if x is None else f"{100 * x:.1f}%"


def money(x, unit: str) -> str:
    return f"{x:,.3f} {unit}".strip()


def short_threshold(t) -> str:
    """A threshold in a table cell: the number, ``∞`` for +inf or None (above every score: flag
    nobody), ``−∞`` for -inf (flag everyone); the table note says what the signs mean."""
    if t is None:
        return "\u221e"
    return bound_text(float(t))


WARNING = "\u26a0"
KIND_WORDS = {
    "neyman_pearson": "Neyman-Pearson",
    "workforce": "workforce",
    "performance_independent": "threshold from PC(+)",
}
CAPPED_RATE = {"false_alarm": "FPR", "flagged": "flagged"}


@dataclass
class SummaryLine:
    """One decision read out: ``head`` (the situation or criterion), ``text`` (what to deploy and
    the one number that goes with it, without a closing full stop), ``warning`` (a ⚠ that belongs
    to that number, or "") and ``table``: the key of the decision table whose row holds every other
    number of it."""

    head: str
    text: str
    warning: str = ""
    table: str = ""


def trivial_choice(row) -> str | None:
    """ "nobody" or "everyone" when a prior decision's threshold flags nobody or every case, else
    None."""
    if row.threshold is None or (row.fpr == 0.0 and row.tpr == 0.0):
        return "nobody"
    if row.fpr == 1.0 and row.tpr == 1.0:
        return "everyone"
    return None


def zero_width_text(row) -> str:
    """Why a prior decision's cost interval has zero width (a trivial choice), or "" when it has
    not."""
    iv = row.expected_cost_interval
    who = trivial_choice(row)
    if iv is None or iv[0] != iv[1] or who is None:
        return ""
    cost = "PC(+)" if who == "nobody" else "1 \u2212 PC(+)"
    return (
        f"zero width: flagging {who} costs exactly {cost} on every resample, so the bootstrap has "
        f"nothing to vary; the uncertainty is in whether flagging {who} stays the cheapest choice"
    )


def few_scores_warning(d: DatasetResult, classifier: str | None) -> str:
    """The under-coverage warning of a classifier whose band is known to cover less than its level,
    in the words every other place quotes (:attr:`ccreport.results.Band.coverage_warning`), or
    ""."""
    c = d.classifiers.get(classifier) if classifier is not None else None
    warning = None if c is None or c.band is None else c.band.coverage_warning
    return f"Caution, {classifier}: {warning}" if warning else ""


def runner_up_verdict(d: DatasetResult, name: str, row) -> str:
    """The runner-up of a point prior's decision in words: ``tied, p_adj = 0.892`` or
    ``significantly dearer, p_adj = 0.012`` (the step-down adjusted p-value of the paired
    expected-cost difference, whose estimate, interval and unadjusted p the pairwise differences
    table gives), ``not compared`` (the pair is not among the compared ones) or ``no adjusted
    test``."""
    r = row.runner_up or {}
    if "significant" in r:
        ref = p_holm_ref(d, row.classifier, r["classifier"], name)
        word = "significantly dearer" if r["significant"] else "tied"
        return word + (f", {ref.text}" if ref is not None else "")
    if "difference" not in r:
        return "not compared"
    return "no adjusted test"


def prior_line(d: DatasetResult, name: str, row) -> SummaryLine:
    """A point prior's decision in one line: what to deploy, its expected cost with the
    classifier's bootstrap interval (per case in units where the prior gives costs, else
    normalized, D&H 2006 Eq. 6) and whether the runner-up is tied."""
    head = f"Under {name} (PC(+) = {row.pc:.3f})"
    who = trivial_choice(row)
    if who is not None:
        what = (
            f"flag {'no case' if who == 'nobody' else 'every case'} "
            f"as {d.positive_label} (a trivial classifier)"
        )
    else:
        what = f"deploy {row.classifier} at threshold {threshold_text(row.threshold)}"
    iv = row.expected_cost_interval
    if row.cost_per_case is not None:
        c = row.cost_per_case
        cost = f"{money(c['value'], c['unit'])} per case"
        if "interval" in c:
            cost += f" [{c['interval'][0]:,.3f}, {c['interval'][1]:,.3f}]"
    else:
        cost = f"expected normalized cost {row.expected_cost:.4f}"
        if iv is not None:
            cost += f" {tb.interval(iv[0], iv[1], tb.COST_DIGITS)}"
    r = row.runner_up
    # said before the cost: a p_adj after the cost interval would read as that interval's
    if r and "significant" in r:
        ref = p_holm_ref(d, row.classifier, r["classifier"], name)
        word = "significantly cheaper than" if r["significant"] else "tied with"
        p_adj = f", {ref.text}" if ref is not None else ""
        what += f" ({word} the runner-up {r['classifier']}{p_adj})"
    elif r:
        what += f" (runner-up {r['classifier']}: {runner_up_verdict(d, name, row)})"
    if row.ties:
        what += f" (equally cheap: {', '.join(row.ties)})"
    text = f"{what}: {cost}"
    return SummaryLine(head, text, few_scores_warning(d, row.classifier), "decisions")


def criterion_line(d: DatasetResult, name: str, row) -> SummaryLine:
    """A criterion's decision in one line: what to deploy and the share of positives it catches
    (Neyman-Pearson, workforce) or its expected normalized cost under the uniform prior (a
    threshold set from PC(+)), with the ⚠ of a cap that may be passed on new data."""
    head = f"{name} ({KIND_WORDS[row.kind]})"
    if row.classifier is None:
        return SummaryLine(head, row.note, table="decision_criteria")
    if row.kind == "performance_independent":
        text = (
            f"{row.classifier}, threshold set from PC(+) alone: expected normalized cost "
            f"{row.expected_cost:.4f} under the uniform prior"
        )
        return SummaryLine(head, text, table="decision_criteria")
    rule = (
        "two thresholds mixed at random"
        if row.mix is not None
        else f"threshold {threshold_text(row.threshold)}"
    )
    text = f"{row.classifier}, {rule}: catches {rate(row.tpr)} of the {d.positive_label} cases"
    if row.ties:
        text += f"; exactly as good: {', '.join(row.ties)}"
    c = row.constraint or {}
    warning = ""
    if c.get("exceeds"):
        what = "false-alarm rate" if c["rate"] == "false_alarm" else "share flagged"
        warning = f"the {what} may pass its cap of {rate(c['cap'])} on new data"
    if criterion_interval(d, name, row.classifier):
        warning = "; ".join(w for w in (warning, few_scores_warning(d, row.classifier)) if w)
    return SummaryLine(head, text, warning, "decision_criteria")


def decision_lines(d: DatasetResult) -> list[SummaryLine]:
    """The dataset's decisions read out, one line each: point priors first, then criteria."""
    if d.decisions is None:
        return []
    return [prior_line(d, n, r) for n, r in d.decisions.priors.items()] + [
        criterion_line(d, n, r) for n, r in d.decisions.criteria.items()
    ]


def prior_rows(d: DatasetResult, t: tb.Table, unit_in_header: bool = False) -> None:
    """One row per point prior (``datasets.<d>.decisions.priors``); the notes that apply to one
    row (a zero-width interval, a band that under-covers) go to the table note. The cost per case
    names its unit unless the header does (``unit_in_header``: every row has the same)."""
    for name, row in d.decisions.priors.items():
        iv = row.expected_cost_interval
        per_case = row.cost_per_case
        pc_cell = tb.text(tb.DASH)
        if per_case is not None:
            note = (
                "" if "interval" not in per_case else nowrap(tb.interval(*per_case["interval"], 3))
            )
            unit = "" if unit_in_header else per_case["unit"]
            pc_cell = tb.num(per_case["value"], 3, note=f"{unit} {note}".strip())
        deploy_note = [f"equally cheap: {', '.join(row.ties)}"] if row.ties else []
        warning = few_scores_warning(d, row.classifier)
        if warning:
            deploy_note.append(WARNING)
            t.note += f" {WARNING} {warning} (the band table)."
        why = zero_width_text(row)
        if why:
            t.note += f" {name}: the cost interval has {why}."
        if row.note:
            t.note += f" {name}: {row.note}."
        low = None if row.threshold_interval is None else row.threshold_interval[0]
        r = row.runner_up or {}
        t.rows.append(
            [
                tb.text(name, note=f"PC(+) = {row.pc:.3f}"),
                tb.text(row.classifier, note="; ".join(deploy_note)),
                tb.text(
                    r.get("classifier", tb.DASH),
                    note=runner_up_verdict(d, name, row) if r else "",
                ),
                tb.text(threshold_text(row.threshold)),
                tb.text(tb.DASH if row.threshold_interval is None else short_threshold(low)),
                tb.interval_cell([row.pc_interval]),
                tb.text(rate(row.tpr)),
                tb.text(rate(row.fpr)),
                tb.text(rate(row.flagged_share)),
                tb.num(
                    row.expected_cost,
                    tb.COST_DIGITS,
                    note="" if iv is None else nowrap(tb.interval(iv[0], iv[1], tb.COST_DIGITS)),
                ),
                pc_cell,
            ]
        )
        t.sentences.append(prior_line(d, name, row))


def nowrap(interval: str) -> str:
    """An interval ``[a, b]`` that never wraps inside (a no-break space after its comma)."""
    return interval.replace(", ", ",\u00a0")


def count_text(s: dict) -> str:
    """``70/700``, or ``4.85/97`` for a randomised rule's expected count."""
    count = float(s["count"])
    shown = f"{count:.0f}" if count.is_integer() else f"{count:.2f}"
    return f"{shown}/{s['n']:.0f}"


def pct_interval(iv) -> str:
    return f"[{100 * iv[0]:.1f}%,\u00a0{100 * iv[1]:.1f}%]"


def constraint_cells(c: dict | None) -> list[tb.Cell]:
    """The constrained rate's count, its exact interval and its held-out rate with interval; ⚠
    beside the number that passes the cap (the held-out rate, else the interval's upper end)."""
    if not c or "in_sample" not in c:
        return [tb.text(tb.DASH, note=(c or {}).get("note", ""))] + [tb.text(tb.DASH)] * 2
    s_in, h = c["in_sample"], c.get("held_out")
    held_over = h is not None and h["estimate"] > c["cap"] + 1e-12
    mark = f"\u00a0{WARNING}" if c.get("exceeds") else ""
    interval = pct_interval(s_in["interval"]) + ("" if held_over else mark)
    held = (
        tb.text(tb.DASH)
        if h is None
        else tb.text(
            rate(h["estimate"]) + (mark if held_over else ""), note=pct_interval(h["interval"])
        )
    )
    return [tb.text(count_text(s_in)), tb.Cell(interval, interval.replace("\u00a0", " ")), held]


def flagged_share(d: DatasetResult, tpr: float, fpr: float) -> float:
    """The share of the evaluated cases a rule with these rates flags: (P TPR + N FPR) / (P + N)."""
    return (d.n_pos * tpr + d.n_neg * fpr) / (d.n_pos + d.n_neg)


def criterion_rows(d: DatasetResult, t: tb.Table) -> None:
    """One row per criterion (``datasets.<d>.decisions.criteria``) and, under a randomised
    choice, the best single threshold (``single_threshold``) in a row of its own."""
    for name, row in d.decisions.criteria.items():
        t.sentences.append(criterion_line(d, name, row))
        if row.classifier is None:
            t.rows.append([tb.text(name), tb.text(tb.DASH, note=row.note)] + [tb.text(tb.DASH)] * 8)
            continue
        r = row.runner_up or {}
        if row.kind == "performance_independent":
            at = row.at_priors or {}
            t.rows.append(
                [
                    tb.text(name),
                    tb.text(row.classifier, note=f"area\u00a0{row.expected_cost:.4f}"),
                    tb.text(
                        "from PC(+)",
                        note="; ".join(
                            f"{short_threshold(v['threshold'])} at {p}" for p, v in at.items()
                        ),
                    ),
                ]
                + [tb.text(tb.DASH)] * 6
                + [
                    tb.text(
                        r.get("classifier", tb.DASH),
                        note=f"area\u00a0{r['expected_cost']:.4f}" if "expected_cost" in r else "",
                    )
                ]
            )
            continue
        c = row.constraint or {}
        cap = (
            f"{CAPPED_RATE[c['rate']]} \u2264 {rate(c['cap'])}"
            if "cap" in c and c.get("rate") in CAPPED_RATE
            else ""
        )
        if row.mix is not None:
            a, b = (short_threshold(x) for x in row.mix["thresholds"])
            w = 100 * row.mix["weight_first"]
            threshold = tb.Cell(
                f"{a}\u00a0/\u00a0{b}",
                f"{a} ({w:.1f}%) / {b} ({100 - w:.1f}%)",
                note=f"{w:.1f}%\u00a0/\u00a0{100 - w:.1f}%",
            )
        else:
            threshold = tb.text(short_threshold(row.threshold))
        t.rows.append(
            [
                tb.text(name, note=cap),
                tb.text(
                    row.classifier,
                    note=f"exactly as good: {', '.join(row.ties)}" if row.ties else "",
                ),
                threshold,
                tb.text(rate(row.tpr)),
                tb.text(rate(row.fpr)),
                tb.text(rate(row.flagged_share)),
            ]
            + constraint_cells(c)
            + [
                tb.text(
                    r.get("classifier", tb.DASH),
                    note="" if not r else f"{rate(r['tpr'])}\u00a0/\u00a0{rate(r['fpr'])}",
                )
            ]
        )
        st = row.single_threshold
        if st and row.mix is not None:
            t.rows.append(
                [
                    tb.Cell(name, f"{name} (one threshold)", note="one threshold"),
                    tb.text(st["classifier"]),
                    tb.text(short_threshold(st["threshold"])),
                    tb.text(rate(st["tpr"])),
                    tb.text(rate(st["fpr"])),
                    tb.text(rate(flagged_share(d, st["tpr"], st["fpr"]))),
                ]
                + constraint_cells(st.get("constraint"))
                + [tb.text(tb.DASH)]
            )


def criterion_interval(d: DatasetResult, name: str, classifier: str | None) -> dict:
    """prior -> {estimate, lower, upper}: the bootstrap interval of ``classifier``'s choice under
    criterion ``name``, {} when not computed."""
    if d.hybrid_band is None or classifier is None:
        return {}
    return d.hybrid_band.criterion_intervals(name, classifier) or {}


# each decision table's key after the dataset's slug, by its name in :func:`decision_tables`' dict
TABLE_KEYS = {"decisions": "decisions", "decision_criteria": "criterion-decisions"}


def decision_tables(d: DatasetResult, priors: list[str]) -> dict:
    if d.decisions is None:
        return {}
    slug = dataset_page_slug(d.name)
    out = {}
    if d.decisions.priors:
        units = {r.cost_per_case["unit"] for r in d.decisions.priors.values() if r.cost_per_case}
        one_unit = len(units) == 1 and all(r.cost_per_case for r in d.decisions.priors.values())
        t = tb.Table(
            f"{slug}-{TABLE_KEYS['decisions']}",
            f"What to deploy on {d.name} at each point operating condition: the cheapest "
            "classifier (the dataset hybrid) and the runner-up, the threshold, the PC(+) range "
            "where the choice stays the cheapest, its rates and its expected cost.",
            [
                "Situation",
                "Deploy",
                "Runner-up",
                "Threshold",
                "Same cases above",
                "Optimal for PC(+)",
                "TPR",
                "FPR",
                "Flagged",
                "E[cost]",
                f"Per case ({next(iter(units))})" if one_unit else "Per case",
            ],
            note="Positive iff score \u2265 threshold; any cut-off from \u201csame cases "
            "above\u201d up to it flags the same cases. Flagged: share of all cases. E[cost]: "
            "normalized expected cost (D&H 2006 Eq. 6) with the classifier's bootstrap interval; "
            "per case: the same in the prior's unit. Runner-up: tied or significantly dearer by "
            "the adjusted p-value (p_adj) of the paired difference (the differences table). "
            "Chosen on the same data (optimistic).",
            compact=True,
        )
        prior_rows(d, t, one_unit)
        out["decisions"] = t
    if d.decisions.criteria:
        t = tb.Table(
            f"{slug}-{TABLE_KEYS['decision_criteria']}",
            f"What to deploy on {d.name} under each selection criterion: every classifier "
            "compared at its randomised optimum (the most TPR meeting the constraint exactly); "
            "the best, its threshold(s) and rates, the constrained rate's count with its exact "
            "interval and held-out value, and the runner-up of the same ranking.",
            [
                "Criterion",
                "Deploy",
                "Threshold",
                "TPR",
                "FPR",
                "Flagged",
                "Count",
                "Exact interval",
                "Held out",
                "Runner-up",
            ],
            note="Neyman-Pearson caps the FPR, workforce the share of cases flagged; count: "
            "false alarms among the negatives, or cases flagged (a randomised rule's expected "
            "count). Two thresholds: a randomised rule, the first for the share of cases under it "
            "(drawn at random), the second for the rest; \u221e: flag nobody. One threshold: the "
            "best single threshold over every classifier. Exact interval: two-sided "
            "Clopper-Pearson at the report's confidence, each end a one-sided bound at "
            f"(1 + confidence) / 2; held out: chosen on the other folds. {WARNING}: above the cap, "
            "which new data may pass. Runner-up: its TPR / FPR. Area: expected normalized cost "
            "under the uniform prior. "
            "Costs: the prices table. Chosen on the same data (optimistic).",
            compact=True,
        )
        criterion_rows(d, t)
        out["decision_criteria"] = t
        prices = price_table(d)
        if prices is not None:
            out["decision_prices"] = prices
    segments = hybrid_segment_table(d)
    if segments is not None:
        out["hybrid_segments"] = segments
    return out


def price_table(d: DatasetResult) -> tb.Table | None:
    """What each criterion's choice costs at each condition (``datasets.<d>.decisions.criteria.
    <c>.price``, and ``at_priors`` of a threshold set from PC(+)) with its bootstrap interval,
    beside the unconstrained optimum and the trivial classifiers; per case in units where the
    prior gives them."""
    rows = [(n, r) for n, r in d.decisions.criteria.items() if r.price or r.at_priors]
    if not rows:
        return None
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-decision-prices",
        f"The price of each criterion on {d.name}: the expected cost of its choice, with its "
        "bootstrap interval, beside the cheapest choice without constraint (the dataset hybrid "
        "at the same PC(+)) and the two trivial classifiers.",
        [
            "Criterion",
            "Condition",
            "Criterion's choice",
            "Interval",
            "Unconstrained optimum",
            "Flag nobody",
            "Flag everyone",
            "Unit",
        ],
        note="Per case in the prior's unit where it gives costs (normalized expected cost = "
        "cost per case / (flag nobody + flag everyone)), else normalized expected cost "
        "(D&H 2006 Eq. 6); without a point prior, equal costs at the class mix (normalized "
        "expected cost = error rate). Interval: the choice re-made on every bootstrap "
        "replicate (optimism-corrected).",
        compact=True,
    )
    for name, row in rows:
        ivs = criterion_interval(d, name, row.classifier)
        if row.price:
            for p, v in row.price.items():
                units = "cost_per_case" in v
                src = v["cost_per_case"] if units else v
                digits = 3 if units else tb.COST_DIGITS
                scale = src["flag_nobody"] + src["flag_everyone"]  # 1 when normalized
                t.rows.append(
                    [tb.text(name), tb.text(f"{p} (PC(+) = {v['pc']:.3f})")]
                    + [
                        tb.num(src["constrained"], digits),
                        price_interval(ivs.get(p), scale, digits),
                    ]
                    + [
                        tb.num(src[k], digits)
                        for k in ("unconstrained", "flag_nobody", "flag_everyone")
                    ]
                    + [tb.text(v.get("unit", "normalized"))]
                )
            continue
        for p, v in row.at_priors.items():
            prior = d.decisions.priors.get(p)
            units = "cost_per_case" in v
            value = v["cost_per_case"] if units else v["expected_cost"]
            scale = value / v["expected_cost"] if units and v["expected_cost"] else 1.0
            digits = 3 if units else tb.COST_DIGITS
            best = (
                None
                if prior is None
                else (prior.cost_per_case["value"] if units else prior.expected_cost)
            )
            condition = p if prior is None else f"{p} (PC(+) = {prior.pc:.3f})"
            t.rows.append(
                [tb.text(name), tb.text(condition), tb.num(value, digits)]
                + [price_interval(ivs.get(p), scale, digits), tb.num(best, digits)]
                + [tb.text(tb.DASH)] * 2
                + [tb.text(v.get("unit", "normalized"))]
            )
    if all(r[3].text == tb.DASH for r in t.rows):  # no bootstrap of the choices: no column
        t.columns.remove("Interval")
        t.rows = [r[:3] + r[4:] for r in t.rows]
        t.caption = t.caption.replace(", with its bootstrap interval,", "")
        t.note = t.note.rsplit(" Interval:", 1)[0]
    return t


def price_interval(iv: dict | None, scale: float, digits: int) -> tb.Cell:
    """A criterion choice's bootstrap interval (normalized, ``{lower, upper}``) in the row's unit:
    times ``scale``, the cost of flagging nobody plus that of flagging everyone (1 normalized)."""
    if iv is None:
        return tb.text(tb.DASH)
    return _interval_cell(iv["lower"] * scale, iv["upper"] * scale, digits)


def hybrid_segment_table(d: DatasetResult) -> tb.Table | None:
    """The dataset hybrid's segments, numbered as on the hybrid figure (from PC(+) = 0)."""
    if d.hybrid is None:
        return None
    h = d.hybrid.hybrid
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-hybrid-segments",
        f"Segments of the dataset hybrid on {d.name}, numbered as on the figure: on each PC(+) "
        "interval the classifier and threshold that are cheapest, with their rates.",
        ["#", "PC(+) interval", "Classifier", "Threshold", "FPR", "TPR"],
        note="Positive iff score >= threshold; threshold none: "
        "flag nobody. Narrow segments are numbered here only.",
        compact=True,
    )
    wide = np.flatnonzero(h.high > h.low)
    for number, k in enumerate(wide, start=1):
        t.rows.append(
            [
                tb.text(str(number)),
                tb.interval_cell([(float(h.low[k]), float(h.high[k]))]),
                tb.text(h.names[h.classifier[k]]),
                tb.text(threshold_text(float(h.threshold[k]))),
                tb.num(float(h.fpr[k]), 3),
                tb.num(float(h.tpr[k]), 3),
            ]
        )
    return t


def tie_range(members) -> tuple[float, float, int]:
    """The thresholds equally cheap at one PC(+) as ``(lowest, highest, count)``.

    The members of a :class:`ccreport.analysis.selection.hull.Tie` are the ROC points on one edge
    of the convex hull (D&H 2006 section 5.1.2: at the edge's PC(+) every point on the iso-cost
    line through it has the same normalized expected cost). Their thresholds span the edge's two
    vertices; a threshold between them whose ROC point lies under the edge is not tied, so the
    range says where the tied thresholds are and the count how many there are.
    """
    thresholds = np.array([m[1] for m in members], dtype=float)
    return float(thresholds.min()), float(thresholds.max()), int(thresholds.size)


def bound_text(t: float) -> str:
    """An end of a range of thresholds: the number, or a signed infinity (flag nobody/everyone)."""
    if math.isinf(t):
        return "\u221e" if t > 0 else "\u2212\u221e"
    return f"{t:.6g}"


def tie_cell(tie) -> tb.Cell:
    """The ``Ties`` cell of a threshold table: ``at PC: [lowest, highest] (n tied)``.

    The CSV holds the tie's PC(+), lowest and highest threshold and count in four columns
    (:data:`TIE_CSV_COLUMNS`); the page, the PDF and LaTeX show the range, never every tied score.
    """
    if tie is None:
        return tb.Cell(tb.DASH, ("", "", "", ""))
    low, high, n = tie_range(tie.members)
    # no-break spaces: the range never wraps inside
    shown = f"at {tie.pc:.3f}: [{bound_text(low)},\u00a0{bound_text(high)}] ({n}\u00a0tied)"
    return tb.Cell(shown, (tie.pc, low, high, n))


TIE_CSV_COLUMNS = ("Tie at PC(+)", "Tied thresholds low", "Tied thresholds high", "Tied count")


def threshold_tables(d: DatasetResult, priors: list[str]) -> dict:
    """One table per dataset of every classifier's optimal thresholds (D&H 2006 section 3.3: the
    segments of its lower envelope): a row per threshold, the rows of a classifier together, each
    naming it; ties as a range (:func:`tie_cell`)."""
    rows = []
    for name, c in d.classifiers.items():
        if c.selection is None:
            continue
        h = c.selection.table
        ties = {round(x.pc, 12): x for x in h.ties}
        for k in range(h.threshold.size):
            rows.append(
                [
                    tb.text(name),
                    tb.text(threshold_text(float(h.threshold[k]))),
                    tb.interval_cell([(float(h.low[k]), float(h.high[k]))]),
                    tb.num(float(h.fpr[k]), 3),
                    tb.num(float(h.tpr[k]), 3),
                    tie_cell(ties.get(round(float(h.high[k]), 12))),
                ]
            )
    if not rows:
        return {}
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-thresholds",
        f"Thresholds of each classifier on {d.name}: on which PC(+) interval each threshold is "
        "optimal.",
        ["Classifier", "Threshold", "PC(+) interval", "FPR", "TPR", "Ties"],
        rows=rows,
        note="A zero-width interval: optimal only at that end. Ties: the range of the "
        "thresholds equally cheap at the interval's upper end (the ROC points on one hull "
        "edge) and how many they are; \u221e: above every score (flag nobody).",
        csv_split={"Ties": TIE_CSV_COLUMNS},
    )
    return {"thresholds": t}


def selection_tables(d: DatasetResult, priors: list[str]) -> dict:
    slug = dataset_page_slug(d.name)
    out = {}
    names = []
    for c in d.classifiers.values():
        for n in c.selection.criteria if c.selection else {}:
            if n not in names:
                names.append(n)
    if names:
        t = tb.Table(
            f"{slug}-criteria",
            f"Selection criteria on {d.name}, per classifier: Neyman-Pearson and "
            "workforce give TPR / FPR of the best (possibly randomised) choice, "
            "with the out-of-fold rates in parentheses; a threshold-from-PC(+) "
            "rule gives its area and its excess over the lower envelope.",
            ["Classifier"] + names,
            compact=len(names) > 2,
        )
        for cname, c in d.classifiers.items():
            row = [tb.text(cname)]
            for n in names:
                ch = c.selection.criteria.get(n) if c.selection else None
                if ch is None:
                    row.append(tb.text(tb.DASH))
                elif hasattr(ch, "reason"):
                    row.append(tb.text("n/a", note="scores not in [0, 1]"))
                elif hasattr(ch, "area"):
                    row.append(tb.num(ch.area, tb.COST_DIGITS, note=f"excess {ch.excess:.4f}"))
                else:
                    note = ""
                    if ch.out_of_fold is not None:
                        note = f"(held out {rate(ch.out_of_fold[1])} / {rate(ch.out_of_fold[0])})"
                    row.append(tb.text(f"{rate(ch.tpr)} / {rate(ch.fpr)}", note=note))
            t.rows.append(row)
        out["criteria_by_classifier"] = t
    rows = [
        (n, None, c.selection.out_of_fold)
        for n, c in d.classifiers.items()
        if c.selection is not None and c.selection.out_of_fold is not None
    ]
    if rows or (d.hybrid is not None and d.hybrid.out_of_fold is not None):
        t = tb.Table(
            f"{slug}-out-of-fold",
            f"Honest evaluation on {d.name} (D&H 2006 section 5.2): thresholds chosen on the "
            "other folds and applied to each held-out fold, pooled. Optimism = out-of-fold area "
            "minus in-sample area (expected cost under the uniform prior).",
            ["Selection", "In-sample area", "Out-of-fold area", "Optimism"],
        )
        for n, _, oof in rows:
            t.rows.append(
                [
                    tb.text(n),
                    tb.num(oof.in_sample_area, tb.COST_DIGITS),
                    tb.num(oof.area, tb.COST_DIGITS),
                    tb.num(oof.optimism, tb.COST_DIGITS),
                ]
            )
        if d.hybrid is not None and d.hybrid.out_of_fold is not None:
            oof = d.hybrid.out_of_fold
            t.rows.append(
                [
                    tb.text("dataset hybrid (all classifiers)"),
                    tb.num(oof.in_sample_area, tb.COST_DIGITS),
                    tb.num(oof.area, tb.COST_DIGITS),
                    tb.num(oof.optimism, tb.COST_DIGITS),
                ]
            )
        out["out_of_fold"] = t
    out.update(hybrid_band_tables(d, priors))
    out.update(family_tables(d))
    return out


def family_tables(d: DatasetResult) -> dict:
    """One table of the declared parameter-based families (D&H 2000 s. 2.3): per member its
    training PC(+), the PC(+) interval where it is used, its rates; the family's exact area and
    excess over the members' lower envelope in the caption. Not-applicable families say why."""
    if d.hybrid is None or not d.hybrid.families:
        return {}
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-families",
        f"Parameter-based families on {d.name} (D&H 2000 section 2.3): the member with the "
        "nearest training condition is used, switching at the midpoints; area = expected "
        "normalized cost under the uniform prior, excess = area minus that of the lower envelope "
        "of the members and the trivial classifiers.",
        [
            "Family",
            "Member",
            "Trained at PC(+)",
            "Used for PC(+)",
            "FPR",
            "TPR",
            "Family area",
            "Excess",
        ],
        note="Members are crisp classifiers. Nothing is chosen "
        "on the labels: the family's curve is unbiased.",
        compact=True,
    )
    for name, fam in d.hybrid.families.items():
        if hasattr(fam, "reason"):
            t.rows.append(
                [tb.text(name), tb.text(tb.DASH, note=f"not applicable: {fam.reason}")]
                + [tb.text(tb.DASH)] * 6
            )
            continue
        cv, tau = fam.selection.curve, dict(fam.members)
        for k, member in enumerate(cv.member):
            first = k == 0
            t.rows.append(
                [
                    tb.text(name if first else ""),
                    tb.text(member),
                    tb.num(tau[member], 4),
                    tb.interval_cell([(float(cv.low[k]), float(cv.high[k]))]),
                    tb.num(float(cv.start[k]), 3),
                    tb.num(1.0 - float(cv.end[k]), 3),
                    tb.num(fam.selection.area, tb.COST_DIGITS) if first else tb.text(""),
                    tb.num(fam.selection.excess, tb.COST_DIGITS) if first else tb.text(""),
                ]
            )
    return {"families": t}


def hybrid_band_tables(d: DatasetResult, priors: list[str]) -> dict:
    """The dataset hybrid's expected cost with its interval and the paired tests between hybrids
    (D&H 2006 section 5.2)."""
    if d.hybrid_band is None:
        return {}
    slug = dataset_page_slug(d.name)
    b = d.hybrid_band
    inf = b.inference
    pct = f"{100 * b.level:.0f}%"
    t = tb.Table(
        f"{slug}-hybrid-tests",
        f"The dataset hybrid on {d.name} (the cheapest classifier and threshold at every PC(+)): "
        f"expected normalized cost with its {pct} bootstrap interval, and the paired difference "
        "from the best single classifier (hybrid minus classifier, the same resampled instances).",
        [
            "Prior",
            "Hybrid E[cost]",
            "E[cost] interval",
            "Best single classifier",
            "Difference",
            "Difference interval",
            "p (unadjusted)",
        ],
        note="Intervals are optimism-corrected: classifier and threshold "
        "are re-chosen on every replicate. A difference near 0 means "
        "combining classifiers gains nothing over the best one. " + P_NOTE,
        compact=True,
    )
    crossed = False
    for test in inf.tests:
        if test["a"] != "dataset hybrid":
            continue
        p, iv, e = test["prior"], test["interval"], inf.expected[test["prior"]]
        crossed |= iv.upper > 0
        t.rows.append(
            [
                tb.text(p),
                tb.num(e.estimate, tb.COST_DIGITS),
                _interval_cell(e.lower, e.upper),
                tb.text(test["b"]),
                tb.num(iv.estimate, tb.COST_DIGITS),
                _interval_cell(iv.lower, iv.upper),
                tb.p_cell(iv.p_value, b.replicates),
            ]
        )
    if crossed:
        t.note += " " + HYBRID_BOUND
    out = {"hybrid_tests": t}
    rows = [x for x in inf.tests if "criterion" in x]
    if rows:
        u = tb.Table(
            f"{slug}-independent-tests",
            "Threshold set from PC(+) alone against the classifier's own lower envelope on "
            f"{d.name}: expected normalized cost difference (rule minus envelope) with its {pct} "
            "paired bootstrap interval and p-value.",
            ["Criterion", "Classifier", "Prior", "Difference", "Interval", "p (unadjusted)"],
            note="The rule chooses nothing on the labels (unbiased); "
            "the envelope's replicates are optimism-corrected. " + P_NOTE,
            compact=True,
        )
        for x in rows:
            iv = x["interval"]
            u.rows.append(
                [
                    tb.text(x["criterion"]),
                    tb.text(x["classifier"]),
                    tb.text(x["prior"]),
                    tb.num(iv.estimate, tb.COST_DIGITS),
                    _interval_cell(iv.lower, iv.upper),
                    tb.p_cell(iv.p_value, b.replicates),
                ]
            )
        if any(x["interval"].lower < 0 for x in rows):
            u.note += " " + RULE_BOUND
        out["independent_tests"] = u
    return out


def _interval_cell(lo: float, hi: float, digits: int = 4) -> tb.Cell:
    """An interval at ``digits`` decimals that never wraps inside on the page (a row one line
    high); the CSV keeps the plain text."""
    shown = tb.interval(lo, hi, digits)
    return tb.Cell(nowrap(shown), shown)


P_NOTE = (
    "p: two-sided, each test on its own (unadjusted for the other rows; nothing here is "
    "starred); \u201c\u2264 2/(R + 1)\u201d, R the replicates: no replicate reached 0, the "
    "smallest p the bootstrap can show."
)
# the bounds these differences obey in sample, and why their intervals may cross them
HYBRID_BOUND = (
    "In sample the difference cannot be positive: the hybrid is the lower envelope over "
    "every classifier, at or below each. Its interval is for the difference of the two "
    "selections' costs on new cases (both re-chosen on every replicate, "
    "optimism-corrected), which can be positive: choosing among more classifiers on these "
    "data is more optimistic, so an upper end above 0 says the combination may cost more "
    "than the best single classifier on new data, not that the estimate is wrong."
)
RULE_BOUND = (
    "In sample the difference cannot be negative: the lower envelope takes the cheapest "
    "threshold at every PC(+). Its interval is for the difference of costs on new "
    "cases, where the envelope's thresholds, chosen on these data (optimism-corrected "
    "replicates), may cost more than the rule's, which chooses nothing on the labels: a "
    "lower end below 0 says so, not that the estimate is wrong."
)


DECISIONS = Section("decisions", "Decision box", "Decisions", tables=decision_tables)
THRESHOLDS = Section("thresholds", "Thresholds", "Thresholds", tables=threshold_tables)
SELECTION = Section(
    "selection", "Selection criteria and honest evaluation", "Criteria", tables=selection_tables
)
