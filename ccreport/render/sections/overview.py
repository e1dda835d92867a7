"""The tables of the index page: the priors, and every classifier's expected cost by dataset.

A dataset's class counts, positive class and folds are said once, at the head of its own page
(its chapter in report.pdf), not again here."""

from __future__ import annotations

from ...results import Results, classifier_names, dataset_priors
from .. import ranking
from .. import tables as tb
from ..page_names import dataset_link
from .summary import STAR_RULE, cost_cell


def priors_table(results: Results) -> tb.Table:
    t = tb.Table(
        "index-priors",
        "Priors: the distributions over the operating condition "
        "PC(+) under which expected costs are reported.",
        ["Prior", "Kind", "Description", "Datasets"],
    )
    used = prior_datasets(results)
    for p in results.priors.values():
        names = used.get(p.name) or []
        shown = "all" if len(names) == len(results.datasets) else (", ".join(names) or tb.DASH)
        t.rows.append(
            [tb.text(p.name), tb.text(p.kind), tb.text(p.description), tb.Cell(shown, names)]
        )
    return t


def prior_datasets(results: Results) -> dict[str, list[str]]:
    return {
        p: [d.name for d in results.datasets.values() if p in dataset_priors(results, d)]
        for p in results.priors
    }


def cross_dataset_table(results: Results) -> tb.Table:
    names = classifier_names(results)
    t = tb.Table(
        "index-expected-cost",
        "Expected normalized cost of each classifier's lower envelope under each "
        "prior, by dataset, beside the best trivial classifier's (the bar to beat).",
        ["Dataset", "Prior"] + names + [tb.TRIVIAL_NAME],
        note=f"{tb.BEST_MARK} and bold: the lowest cost in the row, given only when below the "
        "best trivial classifier's and significantly cheaper than the runner-up on that dataset "
        f"({STAR_RULE}); otherwise the cheapest says whom it is tied with. "
        f"{tb.NOT_BETTER_MARK}: no cheaper than the best trivial classifier (at each PC(+) the "
        "cheaper of always negative and always positive). Costs at "
        f"{tb.COST_DIGITS} decimals; the CSV file has full precision, names the cheapest "
        "classifier (best) and says whether it is starred (best_significant).",
        compact=len(names) > 4,
        lead_columns=2,
    )
    best_names, significant = [], []
    for d in results.datasets.values():
        for p in dataset_priors(results, d):
            trivial = d.trivial_expected_cost.get(p)
            row = [tb.text(d.name, href=dataset_link(d.name)), tb.text(p)]
            cells = []
            for name in names:
                c = d.classifiers.get(name)
                cells.append(cost_cell(None if c is None else c.expected_cost.get(p), trivial))
            values = {n: c.value for n, c in zip(names, cells) if n in d.classifiers}
            v = ranking.dataset_verdict(d, p, values, trivial)
            tb.mark_verdict(dict(zip(names, cells)), v)
            best_names.append(
                tb.TRIVIAL_NAME if v.reason == "trivial" or not v.best else " ".join(v.best)
            )
            significant.append(v.starred)
            t.rows.append(row + cells + [tb.num(trivial, tb.COST_DIGITS)])
    t.extra_csv["best"] = best_names
    t.extra_csv["best_significant"] = significant
    return t
