"""The decision box, the threshold tables and the selection criteria of a dataset (issue 11).

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

from ... import naming
from ...results import DatasetResult
from .. import tables as tb
from ..page_names import dataset_page_slug
from .base import Section


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
        ec_cell = tb.num(ec, tb.COST_DIGITS, note="" if iv is None else tb.interval(iv[0], iv[1], tb.COST_DIGITS))
        r = row.runner_up or {}
        r_note = ""
        if "difference" in r:
            r_note = f"diff {r['difference']:+.4f}"
            if "difference_interval" in r:
                lo, hi = r["difference_interval"]
                r_note += f" {tb.interval(lo, hi, tb.COST_DIGITS)}, p = {r['p_value']:.3f}"
                if "p_holm" in r:
                    r_note += f", p_Holm = {r['p_holm']:.3f}"
        per_case = row.cost_per_case
        pc_cell = tb.text(tb.DASH)
        if per_case is not None:
            note = "" if "interval" not in per_case else tb.interval(*per_case["interval"], 3)
            pc_cell = tb.num(per_case["value"], 3, note=f"{per_case['unit']} {note}".strip())
        t.rows.append([
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
        ])
        t.sentences.append(prior_sentence(d, name, row))


def prior_sentence(d: DatasetResult, name: str, row) -> str:
    pos, neg = d.positive_label, d.negative_label
    s = (f"Under {name} (PC(+) = {row.pc:.3f}), deploy {row.classifier} and flag a case as {pos} when its score "
         f"is at least {threshold_text(row.threshold)}" if row.threshold is not None else
         f"Under {name} (PC(+) = {row.pc:.3f}), flag no case as {pos}")
    if row.threshold is not None:
        s += f" (any cut-off {cutoffs_text(row.threshold_interval)} flags the same cases here)"
    s += (f". It catches {rate(row.tpr)} of the {pos} cases and flags {rate(row.fpr)} of the {neg} ones. "
          f"This choice stays the cheapest while PC(+) lies in [{row.pc_interval[0]:.3f}, {row.pc_interval[1]:.3f}]. "
          f"Expected normalized cost {row.expected_cost:.4f}")
    if row.expected_cost_interval is not None:
        s += f" ({tb.interval(*row.expected_cost_interval, tb.COST_DIGITS)} bootstrap interval)"
    if row.cost_per_case is not None:
        c = row.cost_per_case
        s += (f", that is {money(c['value'], c['unit'])} per case on average (a missed {pos} case costs {c['cost_fn']:g} "
              f"and a flagged {neg} case {c['cost_fp']:g}, in {c['unit']})")
        if "interval" in c:
            s += f", between {money(c['interval'][0], c['unit'])} and {money(c['interval'][1], c['unit'])}"
    s += "."
    r = row.runner_up
    if r:
        s += f" Next best: {r['classifier']} (expected cost {r['expected_cost']:.4f}"
        if "difference_interval" in r:
            lo, hi = r["difference_interval"]
            significant = r.get("significant", hi < 0 or lo > 0)
            verdict = ("the difference is significant" if significant else "the data cannot tell the two apart")
            holm = f", Holm-adjusted p = {r['p_holm']:.3f}" if "p_holm" in r else ""
            s += (f"; difference {r['difference']:+.4f}, interval {tb.interval(lo, hi, tb.COST_DIGITS)}, "
                  f"p = {r['p_value']:.3f}{holm}: {verdict}")
        elif "difference" not in r:  # the pair is not among the compared ones ([project] comparisons)
            s += "; no paired test: the two are not a compared pair"
        s += ")."
    if row.ties:
        s += f" Equally cheap: {', '.join(row.ties)}."
    if row.note:
        s += f" ({row.note}.)"
    return s


KIND_WORDS = {"neyman_pearson": "Neyman-Pearson", "workforce": "workforce", "performance_independent": "threshold from PC(+)"}


def criterion_rows(d: DatasetResult, t: tb.Table) -> None:
    for name, row in d.decisions.criteria.items():
        if row.classifier is None:
            t.rows.append([tb.text(name), tb.text(tb.DASH, note=row.note)] + [tb.text(tb.DASH)] * 5)
            t.sentences.append(f"{name}: {row.note}.")
            continue
        costs = "; ".join(
            f"{p}: {v['expected_cost']:.4f}" + (f" = {money(v['cost_per_case'], v['unit'])}/case" if "cost_per_case" in v else "")
            for p, v in (row.at_priors or {}).items())
        r = row.runner_up or {}
        mix = row.mix
        t.rows.append([
            tb.text(f"{name} ({KIND_WORDS[row.kind]})"),
            tb.text(row.classifier),
            tb.text("follows PC(+)" if row.kind == "performance_independent" else threshold_text(row.threshold),
                    note="" if mix is None else f"mix: TPR {rate(mix['tpr'])}, FPR {rate(mix['fpr'])}"),
            tb.text(rate(row.tpr)),
            tb.text(rate(row.fpr)),
            tb.text(costs or (f"area {row.expected_cost:.4f}" if row.expected_cost is not None else tb.DASH)),
            tb.text(r.get("classifier", tb.DASH)),
        ])
        t.sentences.append(criterion_sentence(d, name, row))


def criterion_sentence(d: DatasetResult, name: str, row) -> str:
    pos, neg = d.positive_label, d.negative_label
    if row.kind == "performance_independent":
        s = (f"{name}: setting the threshold from the operating condition alone ({row.note.split(':')[0]}), "
             f"{row.classifier} does best, with expected normalized cost {row.expected_cost:.4f} over all conditions")
        parts = [f"at {p} use threshold {threshold_text(v['threshold'])} (cost {v['expected_cost']:.4f})"
                 for p, v in (row.at_priors or {}).items()]
        return s + (": " + "; ".join(parts) if parts else "") + "."
    s = f"{name}: deploy {row.classifier} with threshold {threshold_text(row.threshold)}"
    s += f"; it catches {rate(row.tpr)} of the {pos} cases and flags {rate(row.fpr)} of the {neg} ones"
    if row.flagged is not None:
        s += f" ({row.flagged:.1f} cases flagged)"
    s += "."
    if row.mix is not None:
        m = row.mix
        s += (f" Alternating at random between thresholds {threshold_text(m['thresholds'][0])} "
              f"({100 * m['weight_first']:.0f}% of cases) and {threshold_text(m['thresholds'][1])} would use the "
              f"limit exactly: TPR {rate(m['tpr'])}, FPR {rate(m['fpr'])}.")
    for p, v in (row.at_priors or {}).items():
        s += f" Under {p} its expected normalized cost is {v['expected_cost']:.4f}"
        s += f" ({money(v['cost_per_case'], v['unit'])} per case)." if "cost_per_case" in v else "."
    if row.runner_up:
        r = row.runner_up
        s += f" Next best: {r['classifier']} (TPR {rate(r['tpr'])}, FPR {rate(r['fpr'])}); no paired test for criteria yet."
    s += " Chosen on the same data it is evaluated on: optimistic (see the out-of-fold rates)."
    return s


def decision_tables(d: DatasetResult, priors: list[str]) -> dict:
    if d.decisions is None:
        return {}
    slug = dataset_page_slug(d.name)
    out = {}
    if d.decisions.priors:
        t = tb.Table(
            f"{slug}-decisions",
            f"What to deploy on {d.name} at each point operating condition: the cheapest classifier and threshold "
            "(the dataset hybrid), the cut-offs that flag the same cases, the PC(+) range where the choice stays "
            "the cheapest, its rates, expected normalized cost with bootstrap interval, cost per case in units, "
            "and the runner-up with the paired difference (chosen minus runner-up).",
            ["Situation", "Deploy", "Threshold", "Same cases for cut-offs", "Optimal for PC(+)", "TPR", "FPR",
             "E[cost]", "Cost per case", "Runner-up"],
            note="Positive iff score >= threshold. Intervals are bootstrap intervals at the report's confidence; "
            "the thresholds were chosen on the same data (optimistic).",
            compact=True,
        )
        prior_rows(d, t)
        out["decisions"] = t
    if d.decisions.criteria:
        t = tb.Table(
            f"{slug}-criterion-decisions",
            f"What to deploy on {d.name} under each selection criterion: the best classifier, a single threshold "
            "that keeps the constraint, its rates, and its cost at each point prior.",
            ["Criterion", "Deploy", "Threshold", "TPR", "FPR", "E[cost] at point priors", "Runner-up"],
            note="Neyman-Pearson: most TPR with FPR <= max_fpr; workforce: most TPR with at most the capacity flagged.",
            compact=True,
        )
        criterion_rows(d, t)
        out["decision_criteria"] = t
    return out


def threshold_tables(d: DatasetResult, priors: list[str]) -> dict:
    slug = dataset_page_slug(d.name)
    out = {}
    for name, c in d.classifiers.items():
        if c.selection is None:
            continue
        h = c.selection.table
        t = tb.Table(
            f"{slug}-thresholds-{naming.stem(name)}",
            f"Thresholds of {name} on {d.name}: on which PC(+) interval each threshold is optimal.",
            ["Threshold", "PC(+) interval", "FPR", "TPR", "Ties"],
            note="A zero-width interval: optimal only at that end. Ties: other thresholds equally cheap at the interval's end.",
        )
        ties = {round(x.pc, 12): x for x in h.ties}
        for k in range(h.threshold.size):
            tie = ties.get(round(float(h.high[k]), 12))
            tie_text = tb.DASH
            if tie is not None:
                tie_text = "at " + f"{tie.pc:.3f}: " + ", ".join(threshold_text(m[1]) for m in tie.members)
            t.rows.append([
                tb.text(threshold_text(float(h.threshold[k]))),
                tb.interval_cell([(float(h.low[k]), float(h.high[k]))]),
                tb.num(float(h.fpr[k]), 3),
                tb.num(float(h.tpr[k]), 3),
                tb.text(tie_text),
            ])
        out[f"thresholds_{name}"] = t
    return out


def selection_tables(d: DatasetResult, priors: list[str]) -> dict:
    slug = dataset_page_slug(d.name)
    out = {}
    names = []
    for c in d.classifiers.values():
        for n in (c.selection.criteria if c.selection else {}):
            if n not in names:
                names.append(n)
    if names:
        t = tb.Table(
            f"{slug}-criteria",
            f"Selection criteria on {d.name}, per classifier: Neyman-Pearson and workforce give TPR / FPR of the "
            "best (possibly randomised) choice, with the out-of-fold rates in parentheses; a threshold-from-PC(+) "
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
    rows = [(n, None, c.selection.out_of_fold)
            for n, c in d.classifiers.items() if c.selection is not None and c.selection.out_of_fold is not None]
    if rows or (d.hybrid is not None and d.hybrid.out_of_fold is not None):
        t = tb.Table(
            f"{slug}-out-of-fold",
            f"Honest evaluation on {d.name} (D&H 2006 section 5.2): thresholds chosen on the other folds and applied "
            "to each held-out fold, pooled. Optimism = out-of-fold area minus in-sample area (expected cost "
            "under the uniform prior).",
            ["Selection", "In-sample area", "Out-of-fold area", "Optimism"],
        )
        for n, _, oof in rows:
            t.rows.append([tb.text(n), tb.num(oof.in_sample_area, tb.COST_DIGITS), tb.num(oof.area, tb.COST_DIGITS),
                           tb.num(oof.optimism, tb.COST_DIGITS)])
        if d.hybrid is not None and d.hybrid.out_of_fold is not None:
            oof = d.hybrid.out_of_fold
            t.rows.append([tb.text("dataset hybrid (all classifiers)"), tb.num(oof.in_sample_area, tb.COST_DIGITS),
                           tb.num(oof.area, tb.COST_DIGITS), tb.num(oof.optimism, tb.COST_DIGITS)])
        out["out_of_fold"] = t
    return out


DECISIONS = Section("decisions", "Decision box", "Decisions", tables=decision_tables)
THRESHOLDS = Section("thresholds", "Thresholds", "Thresholds", tables=threshold_tables)
SELECTION = Section("selection", "Selection criteria and honest evaluation", "Criteria", tables=selection_tables)
