"""The decision box, the threshold tables and the selection criteria of a dataset.

* ``decisions``: for every point prior and every criterion, what to deploy (classifier and
  threshold), over which cut-offs and operating conditions that choice holds, its rates, its
  expected cost with its interval, and the runner-up with the paired test: a table, and the same
  read out in sentences (every number in them is the table's, which is ``datasets.<d>.decisions``).
* ``thresholds``: per classifier, on which PC(+) interval which threshold is optimal (D&H 2006
  section 5.1.2: the lower envelope's segments), ties noted.
* ``selection``: each criterion's choice per classifier, and the out-of-fold (honest) areas and
  optimism (section 5.2).
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from ...results import DatasetResult
from .. import ranking
from .. import tables as tb
from ..page_names import dataset_page_slug
from .base import Section
from .comparisons import holm_text


def threshold_text(t) -> str:
    """A threshold as read by a person: +inf (None) flags nobody."""
    if t is None or (isinstance(t, float) and math.isinf(t) and t > 0):
        return "above every score (flag nobody)"
    if isinstance(t, float) and math.isinf(t):
        return "any (flag everyone)"
    return f"{t:.6g}"


def cutoffs_text(iv) -> str:
    """Cut-offs in (lo, hi] that flag the same evaluated cases."""
    if iv is None:
        return tb.DASH
    lo, hi = iv
    if hi is None or math.isinf(hi):
        return f"above {lo:.6g}"
    if lo is None or math.isinf(lo):
        return f"at most {hi:.6g}"
    return f"above {lo:.6g} up to {hi:.6g}"


def rate(x) -> str:
    return tb.DASH if x is None else f"{100 * x:.1f}%"


def money(x, unit: str) -> str:
    return f"{x:,.3f} {unit}".strip()


def prior_rows(d: DatasetResult, t: tb.Table) -> None:
    for name, row in d.decisions.priors.items():
        ec = row.expected_cost
        iv = row.expected_cost_interval
        ec_cell = tb.num(
            ec, tb.COST_DIGITS, note="" if iv is None else tb.interval(iv[0], iv[1], tb.COST_DIGITS)
        )
        r = row.runner_up or {}
        r_note = ""
        if "difference" in r:
            r_note = f"diff {r['difference']:+.4f}"
            if "difference_interval" in r:
                lo, hi = r["difference_interval"]
                r_note += (
                    f" {tb.interval(lo, hi, tb.COST_DIGITS)} unadjusted, "
                    f"{runner_up_p_text(d, row, r)}"
                )
        per_case = row.cost_per_case
        pc_cell = tb.text(tb.DASH)
        if per_case is not None:
            note = "" if "interval" not in per_case else tb.interval(*per_case["interval"], 3)
            pc_cell = tb.num(per_case["value"], 3, note=f"{per_case['unit']} {note}".strip())
        t.rows.append(
            [
                tb.text(f"{name} (PC(+) = {row.pc:.3f})"),
                tb.text(row.classifier),
                tb.text(threshold_text(row.threshold)),
                tb.text(cutoffs_text(row.threshold_interval)),
                tb.interval_cell([row.pc_interval]),
                tb.text(rate(row.tpr)),
                tb.text(rate(row.fpr)),
                ec_cell,
                pc_cell,
                tb.text(r.get("classifier", tb.DASH), note=r_note),
            ]
        )
        t.sentences.append(prior_sentence(d, name, row))


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


def runner_up_p_text(d: DatasetResult, row, r: dict) -> str:
    """``p=0.043, p_adj=0.303`` of the choice against its runner-up, printed as the differences
    table prints them (:func:`.comparisons.holm_text`: a p at its floor as the
    fraction 1/(R + 1))."""
    m = ranking.comparison(d, row.classifier, r["classifier"])
    replicates = None if m is None or m.difference_band is None else m.difference_band.replicates
    return holm_text(SimpleNamespace(p_value=r["p_value"], p_holm=r.get("p_holm")), replicates)


def prior_sentence(d: DatasetResult, name: str, row) -> str:
    pos, neg = d.positive_label, d.negative_label
    s = (
        f"Under {name} (PC(+) = {row.pc:.3f}), deploy {row.classifier} and flag a case as {pos} "
        f"when its score is at least {threshold_text(row.threshold)}"
        if row.threshold is not None
        else f"Under {name} (PC(+) = {row.pc:.3f}), flag no case as {pos}"
    )
    if row.threshold is not None:
        s += f" (any cut-off {cutoffs_text(row.threshold_interval)} flags the same cases here)"
    s += (
        f". It catches {rate(row.tpr)} of the {pos} cases and flags {rate(row.fpr)} of the {neg} "
        f"ones. This choice stays the cheapest while PC(+) lies in [{row.pc_interval[0]:.3f}, "
        f"{row.pc_interval[1]:.3f}]. Expected normalized cost {row.expected_cost:.4f}"
    )
    if row.expected_cost_interval is not None:
        s += f" ({tb.interval(*row.expected_cost_interval, tb.COST_DIGITS)} bootstrap interval"
        why = zero_width_text(row)
        s += f"; {why})" if why else ")"
    if row.cost_per_case is not None:
        c = row.cost_per_case
        s += (
            f", that is {money(c['value'], c['unit'])} per case on average (a missed {pos} case "
            f"costs {c['cost_fn']:g} and a flagged {neg} case {c['cost_fp']:g}, in {c['unit']})"
        )
        if "interval" in c:
            s += (
                f", between {money(c['interval'][0], c['unit'])} and "
                f"{money(c['interval'][1], c['unit'])}"
            )
    s += "."
    r = row.runner_up
    if r:
        s += f" Next best: {r['classifier']} (expected cost {r['expected_cost']:.4f}"
        if "difference_interval" in r:
            lo, hi = r["difference_interval"]
            significant = r.get("significant", hi < 0 or lo > 0)
            verdict = (
                "the difference is significant"
                if significant
                else "the data cannot tell the two apart"
            )
            s += (
                f"; difference {r['difference']:+.4f}, unadjusted interval "
                f"{tb.interval(lo, hi, tb.COST_DIGITS)}, {runner_up_p_text(d, row, r)}: {verdict}"
            )
        elif (
            "difference" not in r
        ):  # the pair is not among the compared ones ([project] comparisons)
            s += "; no paired test: the two are not a compared pair"
        s += ")."
    c = d.classifiers.get(row.classifier) if row.classifier is not None else None
    if (
        row.expected_cost_interval is not None
        and c is not None
        and c.band is not None
        and c.band.coverage_warning
    ):
        # macros.html coverage_warning
        s += f" Caution, {row.classifier}: {c.band.coverage_warning} (the band table)."
    if row.ties:
        s += f" Equally cheap: {', '.join(row.ties)}."
    if row.note:
        s += f" ({row.note}.)"
    return s


KIND_WORDS = {
    "neyman_pearson": "Neyman-Pearson",
    "workforce": "workforce",
    "performance_independent": "threshold from PC(+)",
}


BASIS_WORDS = {
    "randomised": (
        "at its randomised optimum (two thresholds mixed at random so the constraint is met "
        "exactly)"
    ),
    "single_threshold": "at its best single threshold",
}
RATE_WORDS = {"false_alarm": "false-alarm rate", "flagged": "share of cases flagged"}


def rule_text(t, pos: str = "positive") -> str:
    """One threshold's rule: flag a case when its score is at least t (None: flag nobody)."""
    return (
        "flag nobody" if t is None else f"flag a case as {pos} when its score is at least {t:.6g}"
    )


def deploy_text(row, pos: str = "positive") -> str:
    """The deployed rule of a criterion row: one threshold, or the randomised mix of two."""
    m = row.mix
    if m is None:
        return rule_text(row.threshold, pos)
    a, b = m["thresholds"]
    w = m["weight_first"]
    return (
        f"{rule_text(a, pos)} for {100 * w:.1f}% of cases "
        f"(drawn at random), {rule_text(b, pos)} for the rest"
    )


def threshold_cell(row) -> str:
    """A criterion row's threshold column: one threshold, or ``a (w%) / b (1 - w%)``."""
    m = row.mix
    if m is None:
        return threshold_text(row.threshold)
    a, b = m["thresholds"]
    w = m["weight_first"]
    return f"{threshold_text(a)} ({100 * w:.1f}%) / {threshold_text(b)} ({100 * (1 - w):.1f}%)"


def pct_interval(iv) -> str:
    return f"[{100 * iv[0]:.1f}%, {100 * iv[1]:.1f}%]"


def constraint_text(c: dict | None, with_level: bool = True) -> str:
    """A constrained rate with its exact interval, held-out rate and the warning."""
    if not c or "in_sample" not in c:
        return (c or {}).get("note", "")
    s_in = c["in_sample"]
    count = (
        f"{s_in['count']:.0f}"
        if float(s_in["count"]).is_integer()
        else f"{s_in['count']:.2f} expected"
    )
    text = f"{rate(s_in['estimate'])} ({count} of {s_in['n']:.0f}) {pct_interval(s_in['interval'])}"
    if "held_out" in c:
        h = c["held_out"]
        text += f"; held out {rate(h['estimate'])} {pct_interval(h['interval'])}"
    if c.get("exceeds"):
        text += f"; {WARNING} may pass the {rate(c['cap'])} cap"
    return text


WARNING = "\u26a0"


def interval_words(c: dict) -> str:
    """Which interval a constraint cell shows: two-sided Clopper-Pearson at the report's level."""
    return (
        f"{100 * c['level']:g}% two-sided exact (Clopper-Pearson) binomial interval; its upper "
        f"end is a one-sided {100 * c['one_sided_level']:g}% upper bound"
    )


def price_text(price: dict | None) -> str:
    """``condition: constrained vs unconstrained, flag nobody, flag everyone`` in units when
    given."""
    parts = []
    for p, v in (price or {}).items():
        if "cost_per_case" in v:
            u, c = v["unit"], v["cost_per_case"]
            f = lambda x, u=u: money(x, u)  # noqa: E731
        else:
            c = v
            f = lambda x: f"{x:.4f}"  # noqa: E731
        parts.append(
            f"{p}: {f(c['constrained'])} against {f(c['unconstrained'])} unconstrained, "
            f"{f(c['flag_nobody'])} flagging nobody, {f(c['flag_everyone'])} flagging everyone"
        )
    return "; ".join(parts)


def criterion_rows(d: DatasetResult, t: tb.Table) -> None:
    for name, row in d.decisions.criteria.items():
        if row.classifier is None:
            t.rows.append([tb.text(name), tb.text(tb.DASH, note=row.note)] + [tb.text(tb.DASH)] * 6)
            t.sentences.append(f"{name}: {row.note}.")
            continue
        ivs = criterion_interval(d, name, row.classifier)
        r = row.runner_up or {}
        if row.kind == "performance_independent":
            t.rows.append(
                [
                    tb.text(f"{name} ({KIND_WORDS[row.kind]})"),
                    tb.text(row.classifier),
                    tb.text("follows PC(+)"),
                    tb.text(tb.DASH),
                    tb.text(tb.DASH),
                    tb.text(tb.DASH),
                    tb.text(cost_text(row.at_priors, ivs) or f"area {row.expected_cost:.4f}"),
                    tb.text(r.get("classifier", tb.DASH)),
                ]
            )
        else:
            t.rows.append(
                [
                    tb.text(f"{name} ({KIND_WORDS[row.kind]})"),
                    tb.text(row.classifier),
                    tb.text(threshold_cell(row), note="randomised" if row.mix is not None else ""),
                    tb.text(rate(row.tpr)),
                    tb.text(rate(row.fpr)),
                    tb.text(constraint_text(row.constraint)),
                    tb.text(cost_text(row.at_priors, ivs) or tb.DASH),
                    tb.text(
                        r.get("classifier", tb.DASH),
                        note="" if not r else f"TPR {rate(r['tpr'])}, FPR {rate(r['fpr'])}",
                    ),
                ]
            )
        t.sentences.append(criterion_sentence(d, name, row))


def cost_text(at_priors: dict | None, ivs: dict) -> str:
    """``prior: cost [interval] = money/case; ...`` of a criterion row's ``at_priors``."""
    return "; ".join(
        f"{p}: {v['expected_cost']:.4f}"
        + (f" {tb.interval(ivs[p]['lower'], ivs[p]['upper'], 4)}" if p in ivs else "")
        + (f" = {money(v['cost_per_case'], v['unit'])}/case" if "cost_per_case" in v else "")
        for p, v in (at_priors or {}).items()
    )


def criterion_interval(d: DatasetResult, name: str, classifier: str | None) -> dict:
    """prior -> {estimate, lower, upper}: the bootstrap interval of ``classifier``'s choice under
    criterion ``name``, {} when not computed."""
    if d.hybrid_band is None or classifier is None:
        return {}
    return d.hybrid_band.criterion_intervals(name, classifier) or {}


def criterion_sentence(d: DatasetResult, name: str, row) -> str:
    pos, neg = d.positive_label, d.negative_label
    if row.kind == "performance_independent":
        s = (
            f"{name}: setting the threshold from the operating condition alone "
            f"({row.note.split(':')[0]}), {row.classifier} does best, with expected normalized "
            f"cost {row.expected_cost:.4f} over all conditions"
        )
        ivs = criterion_interval(d, name, row.classifier)
        parts = [
            f"at {p} use threshold {threshold_text(v['threshold'])} (cost {v['expected_cost']:.4f}"
            + (f", interval {tb.interval(ivs[p]['lower'], ivs[p]['upper'], 4)}" if p in ivs else "")
            + ")"
            for p, v in (row.at_priors or {}).items()
        ]
        return s + (": " + "; ".join(parts) if parts else "") + "."
    c = row.constraint or {}
    s = (
        f"{name}: every classifier compared {BASIS_WORDS[row.compared_on]}; the best is "
        f"{row.classifier}: {deploy_text(row, pos)}"
    )
    s += (
        f". It catches {rate(row.tpr)} of the {pos} cases "
        f"and flags {rate(row.fpr)} of the {neg} ones"
    )
    if row.flagged is not None:
        s += f" ({row.flagged:.1f} cases flagged in expectation)"
    s += "."
    if row.runner_up:
        r = row.runner_up
        s += (
            f" Runner-up on the same basis: {r['classifier']} "
            f"(TPR {rate(r['tpr'])}, FPR {rate(r['fpr'])})."
        )
    if row.ties:
        s += f" Exactly as good: {', '.join(row.ties)}."
    if "in_sample" in c:
        s += (
            f" Its {RATE_WORDS[c['rate']]} is {constraint_text(c).split(';')[0]} in-sample"
            f" ({interval_words(c)}"
            + (
                "; the rule is randomised: the interval is made at its expected count"
                if c["in_sample"].get("randomised")
                else ""
            )
            + ")"
        )
        if "held_out" in c:
            h = c["held_out"]
            s += (
                f" and {rate(h['estimate'])} {pct_interval(h['interval'])} held out (chosen on "
                "the other folds, interval at the expected count)"
            )
        s += "."
        if c.get("exceeds"):
            s += (
                f" {WARNING} The cap of {rate(c['cap'])} may be exceeded on new data: "
                + (
                    "the held-out rate is above it"
                    if c.get("held_out", {}).get("estimate", 0) > c["cap"] + 1e-12
                    else "the interval's upper end is above it"
                )
                + "."
            )
    elif c.get("note"):
        s += f" ({c['note']}.)"
    ivs = criterion_interval(d, name, row.classifier)
    for p, v in (row.at_priors or {}).items():
        s += f" Under {p} its expected normalized cost is {v['expected_cost']:.4f}"
        if p in ivs:
            s += (
                f" ({100 * d.hybrid_band.level:.0f}% interval "
                f"{tb.interval(ivs[p]['lower'], ivs[p]['upper'], 4)})"
            )
        s += f" ({money(v['cost_per_case'], v['unit'])} per case)." if "cost_per_case" in v else "."
    if row.price:
        units = any("cost_per_case" in v for v in row.price.values())
        s += (
            " Price of the constraint "
            f"({'cost per case' if units else 'normalized expected cost'}): "
            f"{price_text(row.price)}."
        )
    st = row.single_threshold
    if st and row.mix is not None:
        sc = st.get("constraint") or {}
        s += (
            " With one threshold only (no randomising; every classifier compared at its best "
            f"single threshold), the best is {st['classifier']} at "
            f"{threshold_text(st['threshold'])}: TPR {rate(st['tpr'])}, FPR {rate(st['fpr'])}"
        )
        if "in_sample" in sc:
            s += f", {RATE_WORDS[sc['rate']]} {constraint_text(sc, False)}"
        s += "."
    if ivs and any(p in ivs for p in (row.at_priors or {})):
        s += (
            " Chosen on the same data it is evaluated on: the cost interval is "
            "optimism-corrected by re-choosing on every bootstrap replicate."
        )
    else:
        s += " Chosen on the same data it is evaluated on: optimistic (see the held-out rates)."
    return s


def decision_tables(d: DatasetResult, priors: list[str]) -> dict:
    if d.decisions is None:
        return {}
    slug = dataset_page_slug(d.name)
    out = {}
    if d.decisions.priors:
        t = tb.Table(
            f"{slug}-decisions",
            f"What to deploy on {d.name} at each point operating condition: the cheapest "
            "classifier and threshold (the dataset hybrid), the cut-offs that flag the same "
            "cases, the PC(+) range where the choice stays the cheapest, its rates, expected "
            "normalized cost with bootstrap interval, cost per case in units, and the runner-up "
            "with the paired difference (chosen minus runner-up).",
            [
                "Situation",
                "Deploy",
                "Threshold",
                "Same cases for cut-offs",
                "Optimal for PC(+)",
                "TPR",
                "FPR",
                "E[cost]",
                "Cost per case",
                "Runner-up",
            ],
            note="Positive iff score >= threshold. Intervals are bootstrap intervals at the "
            "report's confidence; the thresholds were chosen on the same data (optimistic).",
            compact=True,
        )
        prior_rows(d, t)
        out["decisions"] = t
    if d.decisions.criteria:
        t = tb.Table(
            f"{slug}-criterion-decisions",
            f"What to deploy on {d.name} under each selection criterion: every classifier "
            "compared on one basis, its randomised optimum (the most TPR meeting the constraint "
            "exactly, mixing two thresholds at random where needed); the best, its threshold(s), "
            "its rates, the constrained rate with its exact interval and its held-out value, its "
            "cost at each point prior, and the runner-up of the same ranking.",
            [
                "Criterion",
                "Deploy",
                "Threshold",
                "TPR",
                "FPR",
                "Constrained rate",
                "E[cost] at point priors",
                "Runner-up",
            ],
            note="Neyman-Pearson: most TPR with FPR <= max_fpr, constrained rate = false-alarm "
            "rate; workforce: most TPR with at most the capacity flagged, constrained rate = "
            "share of cases flagged. Rate intervals: two-sided exact (Clopper-Pearson) "
            "binomial intervals at the report's confidence, each end a one-sided bound at "
            f"(1 + confidence) / 2; {WARNING}: the upper end or the held-out rate passes the cap.",
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
    """What each constrained choice costs beside the unconstrained optimum and the trivial
    classifiers (``datasets.<d>.decisions.criteria.<c>.price``), per case in units where the prior
    gives them."""
    rows = [(n, r) for n, r in d.decisions.criteria.items() if r.price]
    if not rows:
        return None
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-decision-prices",
        f"The price of each constraint on {d.name}: the deployed rule's "
        "expected cost beside the cheapest choice without constraint (the "
        "dataset hybrid at the same PC(+)) and the two trivial classifiers.",
        [
            "Criterion",
            "Condition",
            "Constrained",
            "Unconstrained optimum",
            "Flag nobody",
            "Flag everyone",
            "Unit",
        ],
        note="Per case in the prior's unit where it gives costs, else normalized expected cost "
        "(D&H 2006 Eq. 6); without a point prior, equal costs at the class mix (normalized "
        "expected cost = error rate).",
        compact=True,
    )
    for name, row in rows:
        for p, v in row.price.items():
            src = v.get("cost_per_case", v)
            digits = 3 if "cost_per_case" in v else tb.COST_DIGITS
            t.rows.append(
                [tb.text(name), tb.text(f"{p} (PC(+) = {v['pc']:.3f})")]
                + [
                    tb.num(src[k], digits)
                    for k in ("constrained", "unconstrained", "flag_nobody", "flag_everyone")
                ]
                + [tb.text(v.get("unit", "normalized"))]
            )
    return t


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


def _interval_cell(lo: float, hi: float) -> tb.Cell:
    """An interval at 4 decimals that never wraps inside on the page (a row one line high); the
    CSV keeps the plain text."""
    shown = tb.interval(lo, hi, 4)
    return tb.Cell(shown.replace(", ", ",\u00a0"), shown)


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
