"""What the methods page says about this project: its Limitations and its probability-threshold
rules.

Both are generated from the project's :class:`~ccreport.results.Results`, not fixed text, so a
project without folds gets no sentence on pooled folds and a project whose classifiers all have many
distinct scores gets no few-scores warning.

:func:`limitations` - what the report's numbers do not account for, one :class:`Limitation` per
kind:

* ``fixed_models``: every bootstrap resamples the evaluation instances with the classifiers' scores
  held fixed (D&H 2006 section 4.6 conditions on the test confusion matrix in the same way): no
  interval contains the variability of training a model on another sample.
* ``pooled_folds`` (datasets with a fold column only): the out-of-fold scores of the k fold models
  are pooled into one ROC curve and one lower envelope per classifier (pooling, D&H 2006
  section 4.5), which describes none of the k models, nor one refitted on all the data.
* ``selection`` (datasets with at least two classifiers and a cheapest one): the headline classifier
  is the cheapest of k on the instances its interval comes from; its interval does not include that
  choice. The size of the bias is bounded by the worst case of k equally good classifiers with
  independent estimates of equal standard error s: the cheapest estimate then lies on average
  ``e(k) s`` below the common true cost, with ``e(k) = E[max of k iid N(0, 1)]``
  (:func:`expected_max_normal`); ``s`` is read from the quoted interval as its width over
  ``2 z_{(1 + confidence)/2}``. For normal estimates, real differences make the bias smaller (each
  estimate is at least the smallest true cost plus its own error) and so does positive correlation
  (the same instances; Slepian's inequality), so this is the size not to exceed, not an estimate.
* ``few_scores``: the classifiers whose band states the measured under-coverage for few distinct
  scores (:data:`ccreport.tasks.bands_task.TARGET_SCORES` followed by an addition), named with their
  number of distinct scores and the band's own words.
* ``not_covered``: what no interval covers: a deployment population whose within-class score
  distributions differ from the data's (D&H 2006 section 6, after Webb & Ting 2005), the class-level
  cost model (D&H 2006 section 6 and Appendix A; datasets with instance costs named), the priors
  over PC(+) taken as given, label errors, thresholds chosen on these same data
  (D&H 2006 section 5.2).

:func:`probability_rules` - for each dataset with a threshold-from-PC(+) criterion, the classifiers'
areas under the score-driven rule of Hernandez-Orallo, Flach & Ferri 2013 (section 3: positive iff
``s >= 1 - x``) and under the criterion's rule (``bayes_prior``: positive iff
``s >= pi (1 - x) / (pi (1 - x) + (1 - pi) x)``), beside the optimal area and the positives' share
pi. Both trust the scores as probabilities; they differ in the class mix at which they read them:
the score-driven threshold is Bayes-optimal for posteriors calibrated at balanced classes, the
``bayes_prior`` one for posteriors calibrated at pi (on the cost-proportion axis of the 2013 paper
``bayes_prior`` is its score-driven rule ``T(c) = c``, carried to PC(+)). They coincide when
pi = 1/2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr, ndtri

from ..analysis import measured_coverage as mc
from ..results import Results
from ..tasks.bands_task import TARGET_SCORES
from . import tables as tb
from .findings import quote_prior

BAYES_PRIOR = "bayes_prior"


@dataclass(frozen=True)
class Limitation:
    """One limitation: ``key`` (stable, for tests and anchors), a short ``title`` and its
    sentences."""

    key: str
    title: str
    text: str


@dataclass(frozen=True)
class RuleRow:
    """One classifier's areas under two probability-threshold rules on one dataset (PC(+) axis)."""

    dataset: str
    classifier: str
    pi: float  # positives' share of the data
    criterion: str  # the threshold-from-PC(+) criterion's name
    rule: str
    prior: float | None  # the rule's pi (bayes_prior)
    score_driven: float  # HFF 2013's score-driven area on the PC(+) axis
    rule_area: float
    optimal: float


def expected_max_normal(k: int) -> float:
    """``E[max(Z_1, ..., Z_k)]`` for k independent standard normals:
    ``int x k phi(x) Phi(x)^(k-1) dx``.

    Exact to about 1e-10 by the trapezoid rule on [-12, 12] (the integrand is smooth and its tails
    below 1e-30 there). 0 for k = 1; 1/sqrt(pi) for k = 2; 3/(2 sqrt(pi)) for k = 3.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    x = np.linspace(-12.0, 12.0, 24001)
    density = k * np.exp(-0.5 * x * x) / np.sqrt(2.0 * np.pi) * ndtr(x) ** (k - 1)
    y = x * density
    return float(np.sum(y[1:] + y[:-1]) * 0.5 * (x[1] - x[0]))


def _names(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _distinct_scores(c) -> int:
    """Distinct scores of a scoring classifier: its ROC points (one per distinct score) less the
    origin."""
    return int(np.asarray(c.roc_fpr).size) - 1


def few_scores_note(c) -> str | None:
    """The band's own statement of its under-coverage with few distinct scores, or None."""
    target = getattr(c.band, "target", None) if c.band is not None else None
    if (
        c.kind != "scores"
        or not target
        or not target.startswith(TARGET_SCORES)
        or len(target) == len(TARGET_SCORES)
    ):
        return None
    return target[len(TARGET_SCORES) :].lstrip("; ").strip()


def _fixed_models(results: Results) -> Limitation:
    b = int(results.settings.bootstrap)
    if b <= 0:
        text = (
            "No bootstrap was run (bootstrap = 0): no number of this report has an interval, "
            "band or p-value, so nothing says how much any of them would move on other data."
        )
    else:
        text = (
            f"Every interval, band and p-value comes from {b} resamples of the evaluation "
            "instances with each classifier's scores held fixed: the fitted models are taken as "
            "given and never refitted, as Drummond and Holte condition on the test confusion "
            "matrix [1, §4.6]. So no interval contains the variability of training: a model "
            "fitted to another sample of the same size would score the cases differently, and "
            "its cost curve could lie outside the band."
        )
    return Limitation("fixed_models", "Fixed models", text)


def _pooled_folds(results: Results) -> Limitation | None:
    folded = [d for d in results.datasets.values() if d.n_folds]
    if not folded:
        return None
    parts = [f"{d.name} ({d.n_folds} folds)" for d in folded]
    text = (
        f"On {_names(parts)} the fold column declares cross-validation folds, so the scores are "
        "out-of-fold scores: each case was scored by the model fitted without its fold, and the "
        "scores of all the fold models are pooled into one ROC curve and one lower envelope per "
        "classifier (pooling, one of the two methods of Swets and Pickett that D&H discuss [1, "
        "§4.5]). The pooled curve is the curve of none of the fold models, nor of a model "
        "refitted on all the data, and its thresholds are applied to scores of models that may "
        "be scaled differently from each other. The fold-average tables give the other way, the "
        "cost curves averaged vertically [1, §4.5]."
    )
    return Limitation("pooled_folds", "Pooled out-of-fold scores", text)


def _selection(results: Results) -> Limitation | None:
    conf = float(results.settings.confidence)
    z = float(ndtri(0.5 + conf / 2.0))
    sentences = []
    for d in results.datasets.values():
        prior = quote_prior(results, d)
        costs = {n: c.expected_cost.get(prior) for n, c in d.classifiers.items()} if prior else {}
        costs = {n: v for n, v in costs.items() if v is not None and np.isfinite(v)}
        k = len(costs)
        if k < 2:
            continue
        best = min(costs, key=lambda n: (costs[n], n))
        e_k = expected_max_normal(k)
        s = f"On {d.name}, {best} is the cheapest of {k} under {prior}"
        iv = (d.classifiers[best].expected_cost_interval or {}).get(prior)
        if iv is not None and np.isfinite(iv.upper - iv.lower):
            se = (iv.upper - iv.lower) / (2.0 * z)
            s += (
                f"; with its standard error s ≈ {tb.cost(se)} (its "
                f"{100 * conf:g}% interval's width over {2.0 * z:.3f}), the "
                f"worst case is e({k}) s = {e_k:.3f} s ≈ {tb.cost(e_k * se)}"
            )
        sentences.append(s + ".")
    if not sentences:
        return None
    text = (
        "The classifier a dataset's findings quote is the cheapest of the k "
        "classifiers on the same instances its interval comes from, and that interval "
        "is the interval of the classifier once chosen: it does not include the "
        "choice, so it is optimistic. With normal estimates of a common standard "
        "error s, the bias is largest when all k are equally good and their estimates "
        "independent: the cheapest estimate then lies on average e(k) s below the "
        "common true cost, e(k) the mean of the largest of k standard normals. "
        + " ".join(sentences)
        + " Estimates from the same instances are positively correlated, "
        "and real differences between the classifiers separate them; both "
        "make the bias smaller than this worst case. The paired tests "
        "against the runner-up say whether the choice itself is supported."
    )
    return Limitation("selection", "Best-of-k selection", text)


def _few_scores(results: Results) -> Limitation:
    found: dict[str, list[str]] = {}
    for d in results.datasets.values():
        for name, c in d.classifiers.items():
            note = few_scores_note(c)
            if note is not None:
                found.setdefault(note, []).append(
                    f"{name} on {d.name} ({_distinct_scores(c)} distinct scores)"
                )
    if not found:
        text = (
            "No classifier of this report has the few distinct scores with which the bands are "
            "known to cover less than their level (benchmarks/README.md, validity matrix)."
        )
    else:
        text = " ".join(f"{_names(names)}: {note}." for note, names in found.items())
        text += (
            " Every interval of these classifiers (bands, expected costs, differences) shares "
            "that shortfall, wherever it is quoted."
        )
    return Limitation("few_scores", "Few distinct scores", text)


def _not_covered(results: Results) -> Limitation:
    text = (
        "Beyond training variability, no interval covers: a deployment population whose cases "
        "differ from these data other than in the class mix and costs (cost curves and ROC "
        "curves represent every class distribution only for changes of the class priors that "
        "leave the within-class score distributions unchanged [1, §6]); errors in the labels; "
        "the choice of the priors over PC(+), which are taken as given; and, for thresholds "
        "chosen on these same cases, their cost on fresh data (the lower envelope is an "
        "optimistic estimate of a hybrid built by an empirical selection criterion [1, §5.2]; "
        "the bands target the cost of the thresholds as selected here)."
    )
    text += (
        " The cost curves take a misclassification to cost the same for every case of a class, "
        "the costs adding up [1, §6 and Appendix A]."
    )
    iv = [
        d.name
        for d in results.datasets.values()
        if any(c.instance_costs is not None for c in d.classifiers.values())
    ]
    if iv:
        text += (
            f" The instance-cost analyses of {_names(iv)} drop that assumption and take the "
            "declared costs as exact and known for every case [3, §3]."
        )
    return Limitation("not_covered", "What the bootstrap does not cover", text)


def limitations(results: Results) -> list[Limitation]:
    """The Limitations of this report (module docstring), in reading order."""
    found = [
        _fixed_models(results),
        _pooled_folds(results),
        _selection(results),
        _few_scores(results),
        _not_covered(results),
    ]
    return [x for x in found if x is not None]


def probability_rules(results: Results) -> list[RuleRow]:
    """Score-driven vs each threshold-from-PC(+) criterion's rule, per dataset and scoring
    classifier (PC(+) axis)."""
    rows = []
    for d in results.datasets.values():
        pi = d.n_pos / (d.n_pos + d.n_neg)
        for name, c in d.classifiers.items():
            tc = c.threshold_choice
            if tc is None or c.selection is None or "pc" not in tc.methods:
                continue
            sd = tc.methods["pc"].get("score_driven")
            opt = tc.methods["pc"].get("optimal")
            if sd is None or sd.area is None or opt is None or opt.area is None:
                continue
            for crit, choice in c.selection.criteria.items():
                rule = getattr(choice, "rule", None)
                area = getattr(choice, "area", None)
                if rule is None or area is None or rule == "parameter_based":
                    continue
                rows.append(
                    RuleRow(
                        d.name,
                        name,
                        pi,
                        crit,
                        rule,
                        getattr(choice, "prior", None),
                        float(sd.area),
                        float(area),
                        float(opt.area),
                    )
                )
    return rows


def probability_rules_table(results: Results) -> tb.Table | None:
    """:func:`probability_rules` as the methods page's table (None when no dataset has such a
    criterion)."""
    rows = probability_rules(results)
    if not rows:
        return None
    t = tb.Table(
        "methods-probability-rules",
        "Two rules that read the scores as probabilities, per dataset and "
        "scoring classifier: the score-driven area (flag iff score ≥ 1 − PC(+)) "
        "and the area of each threshold-from-PC(+) criterion's rule, beside the "
        "optimal area (the lower envelope). Areas on the PC(+) axis, uniform "
        "operating condition; π: the positives' share of the data.",
        ["Dataset", "π", "Classifier", "Optimal", "Score-driven", "Criterion", "Rule", "Its area"],
        note="bayes_prior: flag iff score ≥ π(1 − x) / (π(1 − x) + (1 − π)x) "
        "at x = PC(+), with π the rule's prior (by default the positives' "
        "share); score_driven: score ≥ 1 − x; literal: score ≥ x.",
        compact=True,
    )
    for r in rows:
        rule = r.rule if r.prior is None else f"{r.rule}, π = {r.prior:.3f}"
        t.rows.append(
            [
                tb.text(r.dataset),
                tb.num(r.pi, 3),
                tb.text(r.classifier),
                tb.num(r.optimal, tb.COST_DIGITS),
                tb.num(r.score_driven, tb.COST_DIGITS),
                tb.text(r.criterion),
                tb.text(rule),
                tb.num(r.rule_area, tb.COST_DIGITS),
            ]
        )
    return t


def interval_coverage() -> dict[str, str]:
    """The measured coverage figures the methods page quotes about intervals, formatted, all from
    :mod:`ccreport.analysis.measured_coverage` (the one source of such figures)."""
    m = mc
    return {
        "source": m.SOURCE,
        "datasets": str(m.DATASETS),
        "mc_se": f"{m.MC_SE[0]:g}–{m.MC_SE[1]:g}",
        "continuous": m.span(m.CONTINUOUS_SELECTED, "–"),
        "crisp": m.span(m.CRISP_SELECTED, "–"),
        "few": m.span(m.FEW_SELECTED, "–"),
        "five_at_005": m.pct(m.FIVE_ROUNDED_AT_005) + "%",
        "five_at_005_percentile": m.pct(m.FIVE_ROUNDED_AT_005_PERCENTILE) + "%",
        "expected": m.span(m.EXPECTED_POPULATION, "–"),
        "expected_tail": m.pct(m.EXPECTED_TAIL) + "%",
        "trivial_two": m.pct(m.TRIVIAL_TWO) + "%",
        "trivial_five": m.span(m.TRIVIAL_FIVE, "–"),
        "selected_few": m.span(m.SELECTED_FEW_N200, "–"),
        "two_n200_all": m.span(m.TWO_N200_ALL, "–"),
        "two_n200_trivial": m.span(m.TWO_N200_TRIVIAL, "–"),
        "two_n500_all": m.span(m.TWO_N500_ALL, "–"),
        "two_n500_trivial": m.span(m.TWO_N500_TRIVIAL, "–"),
        "two_n500_selected": m.span(m.TWO_N500_SELECTED, "–"),
        "five_at_01": m.pct(m.FIVE_AT_01_SELECTED) + "%",
        "five_at_01_picked": str(m.FIVE_AT_01_PICKED),
        "five_at_01_fp0": str(m.FIVE_AT_01_FP0),
        "five_at_01_others": m.pct(m.FIVE_AT_01_OTHERS) + "%",
        "five_at_01_others_n": str(m.FIVE_AT_01_PICKED - m.FIVE_AT_01_FP0),
        "five_at_01_fpr": f"{m.FIVE_AT_01_TRUE_FPR:.2f}%",
        "jeffreys": f"{m.FIVE_AT_01_JEFFREYS:.1f}%",
        "exact": f"{m.FIVE_AT_01_EXACT:.1f}%",
        "hybrid": m.span(m.HYBRID_CALIBRATED, "–"),
        "hybrid_above": m.pct(m.HYBRID_CALIBRATED_ABOVE) + "%",
        "hybrid_uncalibrated": m.span(m.HYBRID_UNCALIBRATED, "–"),
        "hybrid_uncalibrated_above": m.pct(m.HYBRID_UNCALIBRATED_ABOVE) + "%",
        "hybrid_expected": m.pct(m.HYBRID_EXPECTED[0]) + "%",
        "hybrid_expected_above": m.pct(m.HYBRID_EXPECTED[1]) + "%",
    }
