"""Findings in words: sentences generated from the typed Results, each quoted number a link to its
table.

A :class:`Finding` is a sentence made of plain text and :class:`Ref` parts. A Ref is one number or
name the sentence quotes: the text printed, where the value is in ``results.json`` (``path``, keys
and list indexes), how it was got from there (``kind``) and the table showing it (``href``, a page
and a table id). The template ``findings.html`` prints the text and links each Ref to its table;
``tests/render/test_findings.py`` looks every Ref up in ``results.json``, so a sentence cannot
disagree with its table. Nothing here is free text: every sentence is one of the templates below,
filled from Results.

What is found (per dataset, :func:`dataset_findings`):

* **cheapest**: which classifier is cheapest on which PC(+) intervals: the runs of the dataset
  hybrid (the lower envelope over every classifier and threshold, D&H 2006 section 5.1.2) with one
  classifier;
* **significance**: where the cheapest is significantly cheaper than *every* other classifier: the
  intersection of its run with each pair's family-wise ``significant`` intervals (a
  studentized max-statistic band over the whole PC(+) range, never the pointwise band); the
  classifiers it is nowhere separated from there, and those it was not compared with;
* **trivial**: classifiers with no operating range (never below min(PC(+), 1 - PC(+)), D&H 2006
  section 3) and, per prior, those no cheaper than the best trivial classifier E[min(PC, 1 - PC)];
* **priors**: the cheapest under each prior, starred or tied
  (:func:`ccreport.render.ranking.verdict`), and whether the priors change it;
* **trust**: what the fold average (each fold's own envelope) and the out-of-fold selection
  (thresholds chosen on the other folds, D&H 2006 section 5.2) say about the optimism of the
  in-sample curves;
* **quote**: the one number to quote (:func:`quote`): the cheapest classifier's in-sample expected
  cost with its optimism-corrected bootstrap interval, under the dataset's point prior if it has
  one, else its first prior (why: the methods page, "Which number to quote").

The decision at each point prior is not a finding: the summary that opens the report and the
decision box's table say it (:mod:`ccreport.render.decision_summary`), each number once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..results import DatasetResult, Results, dataset_priors
from . import ranking
from . import tables as tb
from .page_names import dataset_link, dataset_page_slug

INDEX_PAGE = "index.html"
PC_TOL = 1e-12  # PC(+) intervals narrower than this are points, not intervals


@dataclass(frozen=True)
class Ref:
    """One number or name quoted by a finding.

    ``kind`` says how ``text`` follows from ``results.json`` at ``path``: ``name`` (the last key of
    the path, which exists), ``cost`` (the value at :data:`~ccreport.render.tables.COST_DIGITS`),
    ``pc`` (at :data:`~ccreport.render.tables.PC_DIGITS`), ``p`` (a step-down adjusted p-value
    (p_adj) at 3 decimals; "p_adj <= x" when its raw p-value is at the bootstrap's
    floor 1 / (R + 1)), ``interval`` (an interval ``[lo, hi]`` or ``{lo, hi}`` at PC digits),
    ``run`` (hybrid segments ``path[-2]`` to ``path[-1]``, all of classifier ``value[2]``, joined),
    ``within`` (an interval inside every interval in ``within``, its ends among theirs), ``trivial``
    (E[min(PC(+), 1 - PC(+))] under the prior at ``path``), ``threshold`` (a decision's threshold, 6
    significant digits).
    """

    text: str
    kind: str
    path: tuple = ()
    href: str = ""
    value: Any = None
    within: tuple = ()


@dataclass(frozen=True)
class Finding:
    """One sentence: ``parts`` are plain strings and :class:`Ref` s, in reading order; ``warnings``:
    ``(classifier, band)`` of each classifier whose interval the sentence quotes from a band that
    states it under-covers (:attr:`ccreport.results.Band.coverage_warning`), printed after the
    sentence by the ``coverage_warning`` macro of macros.html wherever the sentence is shown."""

    topic: str
    parts: tuple
    warnings: tuple = ()

    @property
    def refs(self) -> list[Ref]:
        return [p for p in self.parts if isinstance(p, Ref)]

    @property
    def text(self) -> str:
        return "".join(p.text if isinstance(p, Ref) else p for p in self.parts)


@dataclass
class DatasetFindings:
    """The findings of one dataset, the quote, and the table of cheapest classifiers by PC(+)."""

    name: str
    href: str
    quote: Finding
    findings: list[Finding] = field(default_factory=list)
    cheapest: tb.Table | None = None

    def topic(self, *topics: str) -> list[Finding]:
        return [f for f in self.findings if f.topic in topics]


# --- where numbers are --------------------------------------------------------------------------


def table_href(d: DatasetResult, key: str) -> str:
    """The link to table ``<dataset page>-<key>`` on the dataset's page."""
    return f"{dataset_link(d.name)}#table-{dataset_page_slug(d.name)}-{key}"


def classifier_path(d: DatasetResult, name: str, *rest) -> tuple:
    return ("datasets", d.name, "classifiers", name, *rest)


def name_ref(d: DatasetResult, name: str, href: str = "") -> Ref:
    return Ref(name, "name", classifier_path(d, name), href or table_href(d, "summary"), name)


def cost_ref(value: float, path: tuple, href: str) -> Ref:
    return Ref(tb.cost(value), "cost", path, href, float(value))


def expected_cost_ref(d: DatasetResult, name: str, prior: str, href: str = "") -> Ref:
    c = d.classifiers[name]
    return cost_ref(
        c.expected_cost[prior],
        classifier_path(d, name, "expected_cost", prior),
        href or table_href(d, "summary"),
    )


def interval_ref(
    lo: float, hi: float, kind: str, path: tuple, href: str, within: tuple = ()
) -> Ref:
    return Ref(tb.interval(lo, hi), kind, path, href, (float(lo), float(hi)), within)


def p_holm_ref(d: DatasetResult, a: str, b: str, prior: str) -> Ref | None:
    """The step-down adjusted p-value (p_adj) of a vs b under ``prior`` (either order), or None
    without one."""
    m = ranking.comparison(d, a, b)
    iv = None if m is None else (m.expected_cost_difference_interval or {}).get(prior)
    if iv is None or iv.p_holm is None:
        return None
    replicates = None if m.difference_band is None else m.difference_band.replicates
    floor = None if not replicates else 1.0 / (replicates + 1)
    at_floor = (
        floor is not None
        and iv.p_value is not None
        and iv.p_value <= floor * (1 + ranking.TIE_RTOL)
    )
    shown = math.ceil(iv.p_holm * 1000 - 1e-9) / 1000 if at_floor else iv.p_holm
    text = (
        f"p_adj\u00a0\u2264\u00a0{shown:.3f}"
        if at_floor and iv.p_holm < 1
        else f"p_adj\u00a0=\u00a0{tb.fmt(iv.p_holm, 3)}"
    )
    path = (
        "datasets",
        d.name,
        "comparisons",
        m.key,
        "expected_cost_difference_interval",
        prior,
        "p_holm",
    )
    return Ref(text, "p", path, table_href(d, "differences"), float(iv.p_holm))


def names_list(refs: list) -> list:
    """``a``, ``a and b``, ``a, b and c`` as parts."""
    out: list = []
    for i, r in enumerate(refs):
        if i:
            out.append(" and " if i == len(refs) - 1 else ", ")
        out.append(r)
    return out


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


# --- intervals ------------------------------------------------------------------------------------


def runs(d: DatasetResult) -> list[tuple[str, int, int, float, float]]:
    """``(classifier, first, last, lo, hi)`` of each run of the dataset hybrid's segments
    (results.json ``hybrid.segments``) with one classifier, touching end to end; [] without a
    hybrid."""
    if d.hybrid is None:
        return []
    segments = d.hybrid.hybrid.segments()
    out: list[list] = []
    for k, s in enumerate(segments):
        if out and out[-1][0] == s["classifier"] and out[-1][4] == s["low"]:
            out[-1][2], out[-1][4] = k, s["high"]
        else:
            out.append([s["classifier"], k, k, s["low"], s["high"]])
    return [tuple(r) for r in out]


def intersect(a: list[tuple], b: list[tuple]) -> list[tuple]:
    """Intersection of two sorted lists of closed intervals ``(lo, hi, *tag)``; each result carries
    the tags of both as ``(lo, hi, tags_a + tags_b)``; pieces narrower than :data:`PC_TOL` are
    dropped."""
    out = []
    for x in a:
        for y in b:
            lo, hi = max(x[0], y[0]), min(x[1], y[1])
            if hi - lo > PC_TOL:
                out.append((lo, hi, tuple(x[2]) + tuple(y[2])))
    return sorted(out)


def significant_for(d: DatasetResult, winner: str, other: str) -> list[tuple] | None:
    """The family-wise significant intervals where ``winner`` is cheaper than ``other``, each tagged
    with its results.json path; None when the pair was not compared or has no family-wise test."""
    m = ranking.comparison(d, winner, other)
    if m is None or m.significant is None:
        return None
    return [
        (s.lo, s.hi, (("datasets", d.name, "comparisons", m.key, "significant", k),))
        for k, s in enumerate(m.significant)
        if s.better == winner
    ]


# --- the sentences --------------------------------------------------------------------------------


def cheapest_findings(d: DatasetResult, level: str) -> tuple[list[Finding], tb.Table | None]:
    """Who is cheapest where (hybrid runs), and where that is significant against every other
    classifier."""
    found = runs(d)
    if not found:
        return [], None
    slug = dataset_page_slug(d.name)
    t = tb.Table(
        f"{slug}-cheapest",
        f"Cheapest classifier by PC(+) on {d.name} (in sample: the dataset hybrid, the lower "
        "envelope over every classifier and threshold), and where it is significantly cheaper "
        f"than every other classifier (family-wise {level}).",
        [
            "PC(+) interval",
            "Cheapest",
            "Significantly cheaper than every other on",
            "Not separated from",
        ],
        note="Significant: inside a family-wise significant interval (the studentized "
        "max-statistic band over the whole PC(+) range) of the cheapest against each of the "
        "others. Not separated from: the classifiers it is nowhere significantly cheaper "
        "than on that interval; \u201cnot compared\u201d: no test for that pair.",
        compact=True,
    )
    href = table_href(d, "cheapest")
    others_all = list(d.classifiers)
    by_name: dict[str, list] = {}
    for name, first, last, lo, hi in found:
        by_name.setdefault(name, []).append(
            (lo, hi, (("datasets", d.name, "hybrid", "segments", first, last),))
        )
    sig_of: dict[str, list[tuple]] = {}
    loose_of: dict[str, dict[str, str]] = {}
    tested = any(m.significant is not None for m in d.comparisons.values())
    for name, own in by_name.items():
        region, loose = (list(own) if len(others_all) > 1 else []), {}
        for other in others_all:
            if other == name:
                continue
            s = significant_for(d, name, other)
            if s is None:
                loose[other] = "not compared"
                region = []
                continue
            if not intersect(own, s):
                loose[other] = "not separated"
            region = intersect(region, s)
        sig_of[name], loose_of[name] = region, loose
    for name, _first, _last, lo, hi in found:
        mine = [r for r in sig_of[name] if r[0] >= lo - PC_TOL and r[1] <= hi + PC_TOL]
        parts = [tb.interval(r[0], r[1]) for r in mine]
        loose = []
        for other in others_all:
            s = significant_for(d, name, other) if other != name else None
            if other != name and (s is None or not intersect([(lo, hi, ())], s)):
                loose.append(other if s is not None else f"{other} (not compared)")
        t.rows.append(
            [
                tb.interval_cell([(lo, hi)]),
                tb.text(name),
                tb.Cell(
                    ", ".join(parts) or tb.DASH, [[r[0], r[1]] for r in mine], parts=parts or None
                ),
                tb.text(", ".join(loose) or tb.DASH),
            ]
        )
    sentences = []
    for name, own in by_name.items():
        parts: list = [name_ref(d, name, href), " is cheapest on "]
        parts += names_list(
            [interval_ref(lo, hi, "run", tags[0], href, within=()) for lo, hi, tags in own]
        )
        parts.append(" of PC(+) (in sample)")
        if len(others_all) < 2:
            parts.append(", the only classifier of the dataset.")
            sentences.append(Finding("cheapest", tuple(parts)))
            continue
        if not tested:
            parts.append(
                "; no family-wise test was run (bootstrap = 0), so nothing is called significant."
            )
            sentences.append(Finding("cheapest", tuple(parts)))
            continue
        region = sig_of[name]
        others = len(others_all) - 1
        if region:
            parts.append(
                "; it is significantly cheaper than every "
                f"other classifier (family-wise {level}) on "
            )
            parts += names_list(
                [interval_ref(lo, hi, "within", (), href, within=tags) for lo, hi, tags in region]
            )
        elif others:
            parts.append(
                "; nowhere there is it significantly cheaper than "
                f"all {plural(others, 'other')} (family-wise {level})"
            )
        loose = loose_of[name]
        apart = [n for n, why in loose.items() if why == "not separated"]
        unknown = [n for n, why in loose.items() if why == "not compared"]
        if apart:
            parts += [
                "; on "
                + ("that interval" if len(own) == 1 else "those intervals")
                + " it is nowhere separated from "
            ]
            parts += names_list([name_ref(d, n, href) for n in apart])
        if unknown:
            parts += ["; it was not compared with "] + names_list(
                [name_ref(d, n, href) for n in unknown]
            )
        parts.append(".")
        sentences.append(Finding("cheapest", tuple(parts)))
    return sentences, t


def trivial_findings(d: DatasetResult, priors: list[str]) -> list[Finding]:
    out = []
    summary = table_href(d, "summary")
    never = [n for n, c in d.classifiers.items() if c.operating_range is None]
    if never:
        out.append(
            Finding(
                "trivial",
                tuple(
                    names_list(
                        [
                            Ref(n, "name", classifier_path(d, n, "operating_range"), summary, None)
                            for n in never
                        ]
                    )
                    + [
                        " never "
                        + ("beats" if len(never) == 1 else "beat")
                        + " the trivial classifiers: "
                        + ("its" if len(never) == 1 else "their")
                        + " lower envelope is nowhere below min(PC(+), 1 \u2212 "
                        "PC(+)) (no operating range), so always predicting "
                        "one class is at least as good at every PC(+)."
                    ]
                ),
            )
        )
    else:
        narrowest = min(
            d.classifiers,
            key=lambda n: d.classifiers[n].operating_range[1] - d.classifiers[n].operating_range[0],
        )
        lo, hi = d.classifiers[narrowest].operating_range
        out.append(
            Finding(
                "trivial",
                (
                    "Every classifier beats the trivial classifiers "
                    "somewhere; the narrowest operating range is ",
                    name_ref(d, narrowest),
                    "\u2019s ",
                    interval_ref(
                        lo,
                        hi,
                        "interval",
                        classifier_path(d, narrowest, "operating_range"),
                        summary,
                    ),
                    ".",
                ),
            )
        )
    for p in priors:
        trivial = d.trivial_expected_cost.get(p)
        if trivial is None:
            continue
        worse = [
            n
            for n, c in d.classifiers.items()
            if ranking.no_better_than_trivial(c.expected_cost.get(p), trivial)
        ]
        if not worse:
            continue
        every = len(worse) == len(d.classifiers)
        out.append(
            Finding(
                "trivial",
                tuple(
                    [f"Under {p}, " + ("no classifier is" if every else "")]
                    + (
                        []
                        if every
                        else names_list([name_ref(d, n) for n in worse])
                        + [" " + ("is" if len(worse) == 1 else "are")]
                    )
                    + [
                        (" cheaper" if every else " no cheaper")
                        + " than the best trivial classifier (expected cost ",
                        Ref(tb.cost(trivial), "trivial", ("priors", p), summary, float(trivial)),
                        ").",
                    ]
                ),
            )
        )
    return out


def verdict_parts(d: DatasetResult, p: str, v: ranking.Verdict, href: str = "") -> list:
    """``logreg (0.1819, significantly cheaper than naive_bayes, p_adj ≤ 0.002)`` or
    ``... tied with ...``."""
    if not v.best:
        return ["no classifier has a cost"]
    if v.reason == "trivial":
        return ["no classifier is cheaper than the best trivial classifier"]
    first = v.best[0]
    parts: list = [name_ref(d, first, href), " (", expected_cost_ref(d, first, p, href)]
    if v.reason == "equal":
        parts += [", equal to "] + names_list([name_ref(d, n, href) for n in v.best[1:]])
    elif v.reason == "alone":
        pass
    elif v.reason == "not compared":
        parts += [", not tested against "] + names_list([name_ref(d, n, href) for n in v.tied_with])
    else:
        word = ", significantly cheaper than " if v.starred else ", tied with "
        shown = v.runners_up if v.starred else v.tied_with
        parts.append(word)
        for i, n in enumerate(shown):
            if i:
                parts.append(" and ")
            parts.append(name_ref(d, n, href))
            holm = p_holm_ref(d, first, n, p)
            if holm is not None:
                parts += [", ", holm]
    parts.append(")")
    return parts


def prior_findings(d: DatasetResult, priors: list[str]) -> list[Finding]:
    if not priors:
        return []
    verdicts = {p: ranking.dataset_verdict(d, p) for p in priors}
    parts: list = ["Cheapest under each prior: "]
    for i, p in enumerate(priors):
        if i:
            parts.append("; ")
        parts += [f"under {p}, "] + verdict_parts(d, p, verdicts[p])
    parts.append(".")
    out = [Finding("priors", tuple(parts))]
    winners = {
        verdicts[p].best[0] if verdicts[p].best and verdicts[p].reason != "trivial" else None
        for p in priors
    }
    starred = [p for p in priors if verdicts[p].reason == "significant"]
    alone = all(verdicts[p].reason == "alone" for p in priors)
    if len(priors) > 1:
        if len(winners) == 1 and None not in winners:
            (w,) = winners
            text = [
                name_ref(d, w),
                f" is the cheapest under all {len(priors)} priors, "
                "so the choice does not depend on the prior; ",
            ]
        else:
            text = ["The prior changes which classifier is cheapest; "]
        if alone:
            text[-1] = text[-1].removesuffix("; ")
        elif all(verdicts[p].reason in ("not compared", "alone") for p in priors):
            text.append("no paired test of the cheapest against the runner-up was run")
        else:
            text.append(
                (
                    "its expected cost is significantly below the runner-up's (adjusted for all "
                    "pairs and priors) under " + ", ".join(starred)
                )
                if starred
                else "under no prior is the cheapest's expected cost significantly below the "
                "runner-up's (adjusted for all pairs and priors)"
            )
            text.append(
                "; an expected cost averages over PC(+), so this can differ from the family-wise "
                "PC(+) intervals above, which are about single operating conditions"
            )
        text.append(".")
        out.append(Finding("priors", tuple(text)))
    return out


def trust_findings(d: DatasetResult, priors: list[str], level: str) -> list[Finding]:
    """What the fold average and the out-of-fold selection say about the in-sample curves'
    optimism."""
    out = []
    if not priors:
        return out
    p = priors[0]
    folds = {
        n: c.fold_average
        for n, c in d.classifiers.items()
        if c.fold_average is not None and p in c.fold_average.expected_cost
    }
    if folds:
        below = [n for n in folds if folds[n].expected_cost[p] < d.classifiers[n].expected_cost[p]]
        first = next(iter(folds))
        fa = folds[first]
        href = table_href(d, "folds")
        most = 2 * len(below) > len(folds)
        reading = (
            "an envelope fitted to one fold\u2019s cases is more optimistic, not less, so the "
            "fold average is no out-of-sample estimate"
            if most
            else "the folds\u2019 own envelopes do not show more optimism than the pooled one here"
        )
        out.append(
            Finding(
                "trust",
                (
                    f"Under {p} the fold average (each fold\u2019s "
                    "own lower envelope, averaged) is "
                    + ("below" if most else "at or above")
                    + " the pooled in-sample cost for "
                    f"{len(below) if most else len(folds) - len(below)} of "
                    + plural(len(folds), "classifier")
                    + " (",
                    name_ref(d, first, href),
                    ": ",
                    cost_ref(
                        fa.expected_cost[p],
                        classifier_path(d, first, "fold_average", "expected_cost", p),
                        href,
                    ),
                    " against ",
                    expected_cost_ref(d, first, p),
                    f"): {reading}, and its range over the folds "
                    "is a spread, not a confidence interval.",
                ),
            )
        )
    oof = {
        n: c.selection.out_of_fold
        for n, c in d.classifiers.items()
        if c.selection is not None and c.selection.out_of_fold is not None
    }
    if oof:
        href = table_href(d, "out-of-fold")
        worst = max(oof, key=lambda n: oof[n].optimism)
        out.append(
            Finding(
                "trust",
                (
                    "Choosing each threshold on the other folds and "
                    "applying it to the held-out fold (D&H 2006 section "
                    "5.2) raises the uniform-prior expected cost by at most ",
                    cost_ref(
                        oof[worst].optimism,
                        classifier_path(d, worst, "out_of_fold", "optimism"),
                        href,
                    ),
                    " (",
                    name_ref(d, worst, href),
                    ": ",
                    cost_ref(
                        oof[worst].area, classifier_path(d, worst, "out_of_fold", "area"), href
                    ),
                    " out of fold): that is how optimistic the in-sample envelopes are.",
                ),
            )
        )
    intervals = [
        n for n, c in d.classifiers.items() if (c.expected_cost_interval or {}).get(p) is not None
    ]
    if intervals:
        out.append(
            Finding(
                "trust",
                (
                    f"The {level} bootstrap intervals are optimism-corrected (Efron 1983) and "
                    "studentized (bootstrap-t): they cover the cost of each classifier with its "
                    "thresholds selected on these data, which the in-sample estimate "
                    "understates; quote the interval, not the in-sample number alone.",
                ),
            )
        )
    return out


def quote_prior(results: Results, d: DatasetResult) -> str | None:
    """The prior of the quote: the dataset's first point prior with a decision, else its first
    prior."""
    priors = list(dataset_priors(results, d))
    if d.decisions is not None:
        for p in d.decisions.priors:
            if p in priors:
                return p
    return priors[0] if priors else None


def quote(results: Results, d: DatasetResult, level: str) -> Finding:
    """The one number to quote for a dataset (see the methods page, "Which number to quote")."""
    p = quote_prior(results, d)
    if p is None:
        return Finding(
            "quote", ("No prior applies to this dataset, so there is no expected cost to quote.",)
        )
    v = ranking.dataset_verdict(d, p)
    href = table_href(d, "intervals")
    if not v.best or v.reason == "trivial":
        trivial = d.trivial_expected_cost.get(p)
        tail = (
            []
            if trivial is None
            else [
                " (expected cost ",
                Ref(
                    tb.cost(trivial),
                    "trivial",
                    ("priors", p),
                    table_href(d, "summary"),
                    float(trivial),
                ),
                ")",
            ]
        )
        return Finding(
            "quote",
            tuple(
                [f"Quote: under {p} no classifier is cheaper than the best trivial classifier"]
                + tail
                + ["."]
            ),
        )
    name = v.best[0]
    c = d.classifiers[name]
    iv = (c.expected_cost_interval or {}).get(p)
    if iv is None:
        href = table_href(d, "summary")
    parts: list = [
        "Quote: ",
        name_ref(d, name, href),
        f" under {p}, expected cost ",
        expected_cost_ref(d, name, p, href),
    ]
    warnings = ()
    if iv is not None:
        parts += [
            f", {level} interval ",
            Ref(
                tb.interval(iv.lower, iv.upper, tb.COST_DIGITS),
                "cost_interval",
                classifier_path(d, name, "expected_cost_interval", p),
                href,
                (iv.lower, iv.upper),
            ),
            " (optimism-corrected, studentized bootstrap; "
            "the point estimate is in sample, so optimistic)",
        ]
        warnings = coverage_warnings(d, [name])
    else:
        parts.append(" (in sample, optimistic; no bootstrap interval was computed)")
    if not v.starred and v.reason != "alone":
        others = v.tied_with or v.best[1:]
        words = (
            "; it was not tested against "
            if v.reason == "not compared"
            else (
                "; it costs the same as "
                if v.reason == "equal"
                else "; it is not significantly cheaper than "
            )
        )
        parts += [words] + names_list([name_ref(d, n) for n in others])
    parts.append(".")
    return Finding("quote", tuple(parts), warnings)


def coverage_warnings(d: DatasetResult, names) -> tuple:
    """``(classifier, band)`` of each of ``names`` whose band states that its intervals under-cover
    (:attr:`ccreport.results.Band.coverage_warning`): the warning travels with every quoted
    interval."""
    out = []
    for n in dict.fromkeys(names):
        c = d.classifiers.get(n)
        if c is not None and c.band is not None and c.band.coverage_warning:
            out.append((n, c.band))
    return tuple(out)


def level_text(results: Results) -> str:
    return f"{100 * float(results.settings.confidence):g}%"


def dataset_findings(results: Results, d: DatasetResult) -> DatasetFindings:
    """Every finding of one dataset (see the module docstring), in reading order."""
    priors = list(dataset_priors(results, d))
    level = level_text(results)
    cheapest, table = cheapest_findings(d, level)
    findings = (
        cheapest
        + prior_findings(d, priors)
        + trivial_findings(d, priors)
        + trust_findings(d, priors, level)
    )
    return DatasetFindings(d.name, dataset_link(d.name), quote(results, d, level), findings, table)


def report_findings(results: Results) -> list[DatasetFindings]:
    """The findings of every dataset, in manifest order (the index page shows the quote, priors and
    trivial ones)."""
    return [dataset_findings(results, d) for d in results.datasets.values()]
