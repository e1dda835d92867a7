"""The methods page true to the papers, its Limitations generated per project, the Kendall figures'
label.

Pinned claims (Drummond & Holte 2006 = D&H, Hernandez-Orallo, Flach & Ferri 2013 = HFF):

* NE[C] divides by the expected cost of misclassifying every case (D&H section 3.2, Eq. 5), not by a
  trivial classifier's cost (the normalisation D&H reject, section 3.3);
* the envelope/hull correspondence is stated with HFF's qualification (optimal threshold choice
  only; the hull's rate-driven curve is the convex skull, HFF section 7);
* a Kendall curve is "not itself a cost curve" (HFF section 5): the page says so and the Kendall
  figures' y-axis is not "Normalized expected cost";
* the score-driven rule and the bayes_prior threshold-from-PC(+) rule are explained, and the reason
  they differ (the class mix at which the scores are read) is checked numerically here.
"""

from __future__ import annotations

import dataclasses
import re
from html import unescape

import numpy as np
import pytest
from site_fixtures import example_build, example_results, synthetic_results, write_tiny_project

from ccreport.analysis import threshold_choice as T
from ccreport.analysis.roc import roc_points
from ccreport.analysis.selection.independent import performance_independent
from ccreport.commands.build import build
from ccreport.figures.style import NEC_LABEL
from ccreport.figures.threshold_choice import KENDALL_LABELS, kendall_curves
from ccreport.render.methods_page import expected_max_normal, limitations, probability_rules
from ccreport.tasks.bands_task import FEW_SCORES


def _text(path) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", path.read_text())).split())


@pytest.fixture(scope="module")
def example_methods():
    out = example_build()
    return out, _text(out / "methods.html")


# --- the page's key claims ------------------------------------------------------------------------


def test_normalisation_is_by_the_cost_of_misclassifying_every_case(example_methods):
    _, text = example_methods
    assert "worse trivial classifier" not in text
    assert "the expected cost of a classifier that misclassifies every case (FN = FP = 1)" in text
    assert "[1, §3.2, Eq. 5]" in text
    assert "The divisor is not the cost of a trivial classifier" in text and "[1, §3.3]" in text


def test_envelope_and_hull_correspondence_is_qualified(example_methods):
    out, text = example_methods
    assert "It is the dual of the ROC convex hull" not in text
    assert "twin of the ROC convex hull" not in _text(out / "index.html")
    assert "That correspondence holds only for the optimal threshold choice" in text
    assert "convex skull, which lies on or above the envelope [4, §7, Def. 4]" in text


def test_kendall_curve_is_said_not_to_be_a_cost_curve(example_methods):
    out, text = example_methods
    assert "not itself a cost curve" in text and "[4, §5]" in text
    for svg in out.glob("figures/*/kendall.svg"):
        body = svg.read_text()
        assert f">{NEC_LABEL}</text>" not in body and "Ranking loss" in body, svg


def test_every_threshold_choice_rule_has_its_equation(example_methods):
    _, text = example_methods
    for needle in (
        "[4, Eq. 6]",
        "T(c) = c",
        "s ≥ 1 − x",
        "[4, Def. 1, Eq. 7–8]",
        "[4, Cor. 1]",
        "[4, Lemma 1]",
        "[4, Def. 3]",
        "[4, Thm 2]",
        "[4, §7, Def. 4]",
        "T(x) = π (1 − x) / (π (1 − x) + (1 − π) x)",
        "this rule at π = ½",
    ):
        assert needle in text, needle


def test_the_two_probability_rules_are_tabulated_from_the_results(example_methods):
    out, text = example_methods
    results = example_results()
    rows = probability_rules(results)
    assert rows, "the example has a threshold-from-PC(+) criterion"
    for r in rows:
        c = results.datasets[r.dataset].classifiers[r.classifier]
        assert r.score_driven == c.threshold_choice.methods["pc"]["score_driven"].area
        assert r.rule_area == c.selection.criteria[r.criterion].area
        assert f"{r.score_driven:.4f}" in text and f"{r.rule_area:.4f}" in text
    german = {r.classifier: r for r in rows if r.dataset == "german_credit"}
    assert (
        german["logreg"].rule == "bayes_prior"
        and german["logreg"].rule_area < german["logreg"].score_driven
    )


def test_kendall_figure_label_is_not_normalized_expected_cost():
    d = example_results().datasets["sonar"]
    fig = kendall_curves(d)
    labels = [ax.get_ylabel() for ax in fig.axes]
    assert labels == [KENDALL_LABELS["pc"]] and NEC_LABEL not in labels
    fig = kendall_curves(d, setting="both")
    assert [ax.get_ylabel() for ax in fig.axes] == [
        KENDALL_LABELS["pc"],
        KENDALL_LABELS["cost_proportion"],
    ]


# --- why score-driven and bayes_prior differ, numerically --------------------------------------


def _calibrated(n=4000, pi=0.3, seed=5):
    """Labels with positive share pi and scores that are exact posteriors P(+|x) at that mix."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) < round(pi * n)  # exactly the share pi
    x = rng.normal(size=n) + 1.2 * y
    lr = np.exp(1.2 * x - 0.72)  # N(1.2, 1) over N(0, 1) likelihood ratio
    s = pi * lr / (pi * lr + (1 - pi))
    return y, np.round(s, 6)


def test_score_driven_is_bayes_prior_at_one_half_and_the_balanced_brier_score():
    y, s = _calibrated()
    roc = roc_points(y, s)
    tc = T.threshold_choice(y, s)
    sd = tc.methods["pc"]["score_driven"].area
    balanced_brier = 0.5 * (np.mean((1 - s[y]) ** 2) + np.mean(s[~y] ** 2))
    assert sd == pytest.approx(balanced_brier, abs=1e-12)
    assert performance_independent(roc, "score_driven").area == pytest.approx(sd, abs=1e-12)
    assert performance_independent(roc, "bayes_prior", prior=0.5).area == pytest.approx(
        sd, abs=1e-12
    )


def test_bayes_prior_is_the_cost_proportion_score_driven_rule_carried_to_pc():
    y, s = _calibrated()
    pi = y.mean()
    roc = roc_points(y, s)
    bp = performance_independent(roc, "bayes_prior")
    cost_curve = T.score_driven_curve(roc.thresholds[1:], roc.fpr, roc.tpr, pi)
    # midpoints between the cost-proportion switch points (the curves jump there)
    knots = np.unique(np.concatenate(([0.0, 1.0], 1.0 - roc.thresholds[1:])))
    c = 0.5 * (knots[1:] + knots[:-1])
    z = T.pc_from_cost_proportion(c, pi)
    scale = 2.0 * (c * pi + (1.0 - c) * (1.0 - pi))  # Q_cost = K(c) NEC (spec section 1.2)
    np.testing.assert_allclose(cost_curve(c), scale * bp.curve(z), atol=1e-12)


def test_with_calibrated_scores_on_unbalanced_data_bayes_prior_is_cheaper():
    y, s = _calibrated(pi=0.3)
    roc = roc_points(y, s)
    sd = performance_independent(roc, "score_driven").area
    bp = performance_independent(roc, "bayes_prior").area
    assert bp < sd
    y, s = _calibrated(pi=0.5)  # balanced: the two rules are one
    roc = roc_points(y, s)
    assert performance_independent(roc, "bayes_prior").area == pytest.approx(
        performance_independent(roc, "score_driven").area, abs=1e-12
    )


# --- e(k), the worst-case selection bias --------------------------------------------------------


def test_expected_max_normal_closed_forms():
    assert expected_max_normal(1) == pytest.approx(0.0, abs=1e-12)
    assert expected_max_normal(2) == pytest.approx(1 / np.sqrt(np.pi), abs=1e-10)
    assert expected_max_normal(3) == pytest.approx(1.5 / np.sqrt(np.pi), abs=1e-10)
    with pytest.raises(ValueError):
        expected_max_normal(0)


def test_selection_bias_worst_case_by_simulation():
    """k = 6 estimates, sd 1, 200,000 draws: Monte Carlo standard error of a mean minimum about
    0.0016.

    Equal means and independence give a bias of -e(6) = -1.2672 (within 5 MC SE); equicorrelation
    0.5 gives -sqrt(0.5) e(6) (smaller), and unequal true means a smaller bias than e(6) too.
    """
    rng = np.random.default_rng(11)
    k, n = 6, 200_000
    e6 = expected_max_normal(k)
    z = rng.normal(size=(n, k))
    mins = z.min(axis=1)
    se = mins.std() / np.sqrt(n)
    assert abs(mins.mean() + e6) < 5 * se
    shared = rng.normal(size=(n, 1))
    corr = np.sqrt(0.5) * shared + np.sqrt(0.5) * z
    assert abs(corr.min(axis=1).mean() + np.sqrt(0.5) * e6) < 5 * se
    means = np.array([0.0, 0.5, 1.0, 1.0, 2.0, 3.0])
    bias = (means + z).min(axis=1).mean() - means.min()
    assert -e6 < bias < 0


# --- Limitations generated per project ---------------------------------------------------------


def test_limitations_of_the_example_name_its_folds_and_few_score_classifiers(example_methods):
    _, text = example_methods
    assert "Limitations" in text
    results = example_results()
    items = {x.key: x.text for x in limitations(results)}
    assert list(items) == ["fixed_models", "pooled_folds", "selection", "few_scores", "not_covered"]
    assert "sonar (10 folds) and german_credit (10 folds)" in items["pooled_folds"]
    assert "knn on sonar (8 distinct scores)" in items["few_scores"]
    assert "cheapest of 6" in items["selection"]
    assert "The instance-cost analyses of german_credit" in items["not_covered"]
    for body in items.values():
        assert body[:60] in text


def _tiny(tmp_path, name, *, folds, few):
    root = write_tiny_project(tmp_path / name, folds=folds, settings="bootstrap = 500")
    if few:  # the weak classifier's scores rounded to a few values: a band known to under-cover
        lines = (root / "data.csv").read_text().splitlines()
        header = lines[0].split(",")
        j = header.index("weak")
        rows = [line.split(",") for line in lines[1:]]
        for row in rows:
            row[j] = str(float(np.clip(np.round(float(row[j])), -2, 2)))
        (root / "data.csv").write_text("\n".join([lines[0]] + [",".join(r) for r in rows]) + "\n")
    return build(root, tmp_path / f"{name}-out", pdf=False)


def test_limitations_differ_between_two_projects(tmp_path):
    folded = _tiny(tmp_path, "folded", folds=5, few=True)
    plain = _tiny(tmp_path, "plain", folds=None, few=False)
    a = {x.key: x.text for x in limitations(folded)}
    b = {x.key: x.text for x in limitations(plain)}
    assert "pooled_folds" in a and "tiny (5 folds)" in a["pooled_folds"]
    assert "pooled_folds" not in b
    weak = folded.datasets["tiny"].classifiers["weak"]
    assert np.asarray(weak.roc_fpr).size - 1 <= FEW_SCORES
    assert "weak on tiny" in a["few_scores"]
    assert "No classifier of this report has the few distinct scores" in b["few_scores"]
    assert "cheapest of 3" in a["selection"] and "cheapest of 3" in b["selection"]
    assert "instance-cost" not in b["not_covered"]
    page = _text(tmp_path / "plain-out" / "methods.html")
    assert "Pooled out-of-fold scores" not in page and "Fixed models" in page
    assert "Pooled out-of-fold scores" in _text(tmp_path / "folded-out" / "methods.html")


def test_limitations_without_bootstrap_say_there_are_no_intervals():
    results = synthetic_results()
    results = dataclasses.replace(
        results, settings=dataclasses.replace(results.settings, bootstrap=0)
    )
    items = {x.key: x.text for x in limitations(results)}
    assert "No bootstrap was run" in items["fixed_models"]
    assert "pooled_folds" not in items
