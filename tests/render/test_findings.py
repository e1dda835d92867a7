"""Findings written by the build, the number to quote and the conditional star (issue 14).

The central check, :func:`check_finding`, reads every number and name a finding quotes from its
structured form (:class:`ccreport.render.findings.Ref`) and looks it up in ``results.json``, so a
sentence can never disagree with the table it links to. It runs on the example and on small
projects built for the purpose: one where a classifier never beats the trivial classifiers and the
best is significantly cheaper than the runner-up, one where two classifiers are tied.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from scipy import integrate, stats
from site_fixtures import check_site, example_build, example_results, parse_page, synthetic_results

from ccreport.commands.build import build
from ccreport.render import findings as fd
from ccreport.render import ranking
from ccreport.render import tables as tb
from ccreport.render.sections.overview import cross_dataset_table
from ccreport.render.sections.summary import summary_table
from ccreport.results import ExpectedCostDifferenceInterval

# --- looking a Ref up in results.json -------------------------------------------------------------


def lookup(data: dict, path: tuple):
    node = data
    for key in path:
        node = node[key]
    return node


def as_interval(node) -> tuple[float, float]:
    if isinstance(node, dict):
        return (node["lo"], node["hi"]) if "lo" in node else (node["low"], node["high"])
    lo, hi = node
    return float(lo), float(hi)


def run_interval(data: dict, path: tuple, name: str | None = None) -> tuple[float, float]:
    """The PC(+) interval of hybrid segments ``path[-2]``..``path[-1]``: one classifier, end to
    end."""
    segments = lookup(data, path[:-2])
    first, last = path[-2], path[-1]
    run = segments[first : last + 1]
    assert run, path
    names = {s["classifier"] for s in run}
    assert len(names) == 1 and (name is None or names == {name}), (path, names)
    for x, y in zip(run, run[1:]):
        assert x["high"] == y["low"], path
    return run[0]["low"], run[-1]["high"]


def resolve_interval(data: dict, path: tuple) -> tuple[float, float]:
    if len(path) >= 3 and path[-3] == "segments":
        return run_interval(data, path)
    return as_interval(lookup(data, path))


def trivial_cost(prior: dict) -> float:
    """E[min(PC(+), 1 - PC(+))] under a prior of results.json, integrated here (not the
    battery's)."""
    kind, params = prior["kind"], prior["params"]
    tent = lambda x: min(x, 1 - x)  # noqa: E731
    if kind == "point":
        return tent(params["pc"])
    if kind == "uniform":
        lo, hi = params["low"], params["high"]
        return integrate.quad(tent, lo, hi, points=[0.5])[0] / (hi - lo)
    if kind == "beta":
        density = stats.beta(params["a"], params["b"]).pdf
        return integrate.quad(lambda x: tent(x) * density(x), 0, 1, points=[0.5], limit=200)[0]
    pytest.skip(f"no independent integral for a {kind} prior")


def check_ref(data: dict, ref: fd.Ref) -> None:
    """One quoted number or name against results.json (see fd.Ref for the kinds)."""
    replicates = data["settings"]["bootstrap"]
    if ref.kind == "name":
        assert ref.path[-1] == ref.text or ref.path[-2] == ref.text, ref
        lookup(
            data, ref.path if ref.path[-1] == ref.text else ref.path[:-1]
        )  # the classifier exists
        if ref.path[-1] == "operating_range":  # "never beats the trivial classifiers"
            assert lookup(data, ref.path) is None, ref
    elif ref.kind == "cost":
        value = lookup(data, ref.path)
        assert value == ref.value and ref.text == tb.cost(value), ref
    elif ref.kind == "pc":
        value = lookup(data, ref.path)
        assert value == ref.value and ref.text == tb.pc(value), ref
    elif ref.kind == "threshold":
        value = lookup(data, ref.path)
        assert ref.text == f"{value:.6g}", ref
    elif ref.kind == "p":
        p_holm = lookup(data, ref.path)
        interval = lookup(data, ref.path[:-1])
        number = float(ref.text.replace("\u00a0", " ").split()[-1])
        if "\u2264" in ref.text:  # a bound: only when the raw p is at the floor 1 / (R + 1)
            assert interval["p_value"] <= (1 + 1e-9) / (replicates + 1), ref
            assert p_holm <= number < p_holm + 0.001 + 1e-12, ref
        else:
            assert ref.text.replace("\u00a0", " ").startswith("p_adj = ") and number == round(
                p_holm, 3
            ), ref
    elif ref.kind in ("interval", "cost_interval"):
        lo, hi = as_interval(lookup(data, ref.path))
        digits = tb.COST_DIGITS if ref.kind == "cost_interval" else tb.PC_DIGITS
        assert (lo, hi) == tuple(ref.value) and ref.text == tb.interval(lo, hi, digits), ref
    elif ref.kind == "run":
        lo, hi = run_interval(data, ref.path)
        assert (lo, hi) == tuple(ref.value) and ref.text == tb.interval(lo, hi), ref
    elif ref.kind == "within":
        lo, hi = ref.value
        assert ref.within and ref.text == tb.interval(lo, hi), ref
        ends = []
        for path in ref.within:
            a, b = resolve_interval(data, path)
            assert a - 1e-12 <= lo < hi <= b + 1e-12, (ref, path, a, b)
            ends += [a, b]
        assert lo in ends and hi in ends, ref
        # every significant interval it lies in names the same cheaper classifier: the run's
        winners = {
            lookup(data, path[:-2])[path[-2]]["classifier"]
            for path in ref.within
            if "segments" in path
        }
        for path in ref.within:
            if "significant" in path:
                assert {lookup(data, path)["better"]} == winners, (ref, path)
    elif ref.kind == "trivial":
        prior = lookup(data, ("priors",) + ref.path[1:])
        assert ref.value == pytest.approx(trivial_cost(prior), rel=1e-6, abs=1e-9), ref
        assert ref.text == tb.cost(ref.value), ref
    else:
        raise AssertionError(f"unknown kind {ref.kind}")


def check_finding(data: dict, f: fd.Finding) -> None:
    for ref in f.refs:
        check_ref(data, ref)
    # the sentence is its parts: what the page prints is exactly what was checked
    assert f.text == "".join(p if isinstance(p, str) else p.text for p in f.parts)


def check_all(out: Path, results) -> list[fd.DatasetFindings]:
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    found = fd.report_findings(results)
    for df in found:
        check_finding(data, df.quote)
        for f in df.findings:
            check_finding(data, f)
    return found


# --- small projects built for the purpose ---------------------------------------------------------


def write_project(root: Path, columns: dict, priors: str = "", seed: int = 5, n: int = 120) -> Path:
    """One dataset with the given score columns (name -> scores from labels and rng), bootstrap
    500."""
    root.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n // 2, bool), np.zeros(n - n // 2, bool)]
    table = {"label": np.where(y, "pos", "neg")}
    for name, make in columns.items():
        table[name] = np.round(make(y, rng), 4)
    lines = [",".join(table)] + [",".join(str(v) for v in row) for row in zip(*table.values())]
    (root / "data.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    classifiers = "".join(f'\n[[classifiers]]\nname = "{c}"\nscores = "{c}"\n' for c in columns)
    (root / "ccreport.toml").write_text(
        '[project]\ntitle = "Findings test"\nseed = 11\nbootstrap = 500\n'
        '[[datasets]]\nname = "d"\npath = "data.csv"\nlabel = "label"\npositive = "pos"\n'
        + classifiers
        + '\n[[priors]]\nname = "uniform"\ndistribution = "uniform"\n'
        + priors,
        encoding="utf-8",
    )
    return root


POINT = '\n[[priors]]\nname = "deploy"\ndistribution = "point"\npc = 0.3\n'


def built(root: Path):
    """Build ``root`` (no PDF) beside itself: (output folder, typed Results)."""
    out = root.parent / (root.name + "-site")
    return out, build(root, out, pdf=False)


@pytest.fixture(scope="module")
def separated(tmp_path_factory):
    """A strong classifier, a constant one (never beats the trivial classifiers) and a weak one."""
    root = write_project(
        tmp_path_factory.mktemp("separated") / "proj",
        {
            "strong": lambda y, rng: rng.normal(size=y.size) + 3.0 * y,
            "flat": lambda y, rng: np.zeros(y.size),
            "weak": lambda y, rng: rng.normal(size=y.size) + 0.3 * y,
        },
        POINT,
    )
    return built(root)


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    """Two classifiers whose scores differ by a little noise: the data cannot tell them apart."""

    def twin(k):
        def make(y, rng):
            base = np.random.default_rng(1).normal(size=y.size) + 1.0 * y
            return base + 0.02 * rng.normal(size=y.size) * k

        return make

    root = write_project(
        tmp_path_factory.mktemp("twins") / "proj", {"one": twin(1), "two": twin(2)}
    )
    return built(root)


def test_findings_agree_with_results_json_on_small_projects(separated, twins):
    for out, results in (separated, twins):
        found = check_all(out, results)
        assert found and all(df.findings for df in found)
        check_site(out)  # every number's link resolves to a table on its page


def test_findings_name_the_cheapest_classifier_and_its_interval(separated):
    out, results = separated
    d = results.datasets["d"]
    df = fd.dataset_findings(results, d)
    cheapest = df.topic("cheapest")
    data = json.loads((out / "results.json").read_text())
    segments = data["datasets"]["d"]["hybrid"]["segments"]
    # strong is the cheapest over the whole PC(+) range except where a trivial classifier ties it
    strong = [f for f in cheapest if f.refs[0].text == "strong"]
    assert len(strong) == 1
    runs = [r for r in strong[0].refs if r.kind == "run"]
    assert runs and all(r.value[0] < r.value[1] for r in runs)
    covered = sum(s["high"] - s["low"] for s in segments if s["classifier"] == "strong")
    assert sum(r.value[1] - r.value[0] for r in runs) == pytest.approx(covered)
    # and it is significantly cheaper than both others somewhere (family-wise)
    sig = [r for r in strong[0].refs if r.kind == "within"]
    assert sig, strong[0].text
    assert "significantly cheaper than every other classifier (family-wise 90%)" in strong[0].text
    # the table the intervals link to is on the page, with the same intervals
    page = parse_page(out / "dataset-d.html")
    rows = page.tables["table-dataset-d-cheapest"]
    assert [r[1] for r in rows[1:]] == [c for c, *_ in fd.runs(d)]
    assert all(r.href == "dataset-d.html#table-dataset-d-cheapest" for r in runs + sig)


def test_never_beats_the_trivial_classifiers(separated):
    out, results = separated
    df = fd.dataset_findings(results, results.datasets["d"])
    trivial = df.topic("trivial")
    never = [f for f in trivial if "never beats the trivial classifiers" in f.text]
    assert len(never) == 1 and never[0].refs[0].text == "flat"
    assert never[0].refs[0].path[-1] == "operating_range"
    assert results.datasets["d"].classifiers["flat"].operating_range is None
    # under every prior flat is no cheaper than the baseline, so it is named there too
    for p in ("uniform", "deploy"):
        s = [f for f in trivial if f.text.startswith(f"Under {p}, ")]
        assert s and "flat" in [r.text for r in s[0].refs], p
    page = (out / "dataset-d.html").read_text(encoding="utf-8")
    assert "flat</span> never beats the trivial classifiers" in page


def test_star_when_significant_and_tied_otherwise(separated, twins):
    out, results = separated
    d = results.datasets["d"]
    v = ranking.dataset_verdict(d, "uniform")
    assert v.best == ("strong",) and v.starred and v.reason == "significant"
    assert v.p_adjusted["weak"] <= 0.1
    t = summary_table(d, ["uniform"])
    row = {r[0].text: r for r in t.rows}
    assert row["strong"][4].best and tb.BEST_MARK == row["strong"][4].mark
    assert not any(row[n][4].best for n in ("flat", "weak"))
    # the example's p-value floor: strong vs weak is at the floor of 1 / (R + 1)
    ref = fd.p_holm_ref(d, "strong", "weak", "uniform")
    iv = ranking.comparison(d, "strong", "weak").expected_cost_difference_interval["uniform"]
    if iv.p_value <= 1 / 501 * (1 + 1e-9):
        assert "\u2264" in ref.text
    out2, results2 = twins
    d2 = results2.datasets["d"]
    v2 = ranking.dataset_verdict(d2, "uniform")
    assert not v2.starred and v2.reason == "not significant" and len(v2.tied_with) == 1
    t2 = summary_table(d2, ["uniform"])
    best = next(r for r in t2.rows if r[0].text == v2.best[0])
    assert not best[4].best and f"tied with {v2.tied_with[0]}" in best[4].note
    # the index table and the LaTeX form follow the same rule
    index = cross_dataset_table(results2)
    assert index.extra_csv["best_significant"] == [False]
    # the LaTeX form of the star, looked for in the table body (the caption explains it)
    star = "$^\\star$"
    body = lambda t: t.to_latex().split("\\midrule", 1)[1].split("\\bottomrule", 1)[0]  # noqa: E731
    # whom the cheapest is tied with: a lettered table footnote in LaTeX (test_latex_tables.py)
    assert star not in body(index) and "$^{\\mathrm{a}}$" in body(index)
    assert "tied with" in index.to_latex().split("\\bottomrule", 1)[1]
    assert star in body(cross_dataset_table(results))


def with_p_holm(d, pair: str, prior: str, p_holm: float, p_value: float):
    m = d.comparisons[pair]
    iv = ExpectedCostDifferenceInterval(
        m.expected_cost_difference[prior], -1.0, 1.0, p_value, "test", p_holm, "Holm"
    )
    m = dataclasses.replace(m, expected_cost_difference_interval={prior: iv})
    return dataclasses.replace(d, comparisons={**d.comparisons, pair: m})


def test_conditional_star_on_synthetic_results():
    from ccreport.results import DifferenceBand

    results = synthetic_results(("alpha", "beta", "gamma"))
    d = next(iter(results.datasets.values()))
    costs = {n: c.expected_cost["uniform"] for n, c in d.classifiers.items()}
    order = sorted(costs, key=costs.get)
    best, runner = order[0], order[1]
    pair = next(k for k, m in d.comparisons.items() if {m.a, m.b} == {best, runner})
    band = DifferenceBand(
        level=0.9,
        replicates=999,
        method="test",
        pc=np.zeros(1),
        lower=np.zeros(1),
        upper=np.zeros(1),
    )
    d = dataclasses.replace(
        d,
        comparisons={
            k: dataclasses.replace(m, difference_band=band) for k, m in d.comparisons.items()
        },
    )
    assert ranking.dataset_verdict(d, "uniform").reason == "not compared"  # no adjusted test yet
    significant = with_p_holm(d, pair, "uniform", 0.003, 0.001)
    v = ranking.dataset_verdict(significant, "uniform")
    assert v.starred and v.best == (best,) and v.runners_up == (runner,)
    tied = with_p_holm(d, pair, "uniform", 0.2, 0.05)
    v = ranking.dataset_verdict(tied, "uniform")
    assert not v.starred and v.tied_with == (runner,)
    found = fd.prior_findings(tied, ["uniform"])[0]
    assert (
        f"{best} (" in found.text and f"tied with {runner}, p_adj\u00a0=\u00a00.200" in found.text
    )
    found = fd.prior_findings(significant, ["uniform"])[0]
    # the raw p 0.001 is at the floor 1 / (999 + 1): the adjusted one is printed as a bound
    assert f"significantly cheaper than {runner}, p_adj\u00a0\u2264\u00a00.003" in found.text
    # a pair that was not compared: never "significant", said so
    dropped = dataclasses.replace(
        significant, comparisons={k: m for k, m in significant.comparisons.items() if k != pair}
    )
    v = ranking.dataset_verdict(dropped, "uniform")
    assert v.reason == "not compared" and not v.starred
    assert f"not tested against {runner}" in fd.prior_findings(dropped, ["uniform"])[0].text


def test_example_findings_agree_with_results_json():
    out, results = example_build(), example_results()
    found = check_all(out, results)
    german = next(df for df in found if df.name == "german_credit")
    # under german-5to1 logreg is cheapest but tied with naive_bayes (the p = 0.31): no star
    assert "logreg" in german.quote.text and "german-5to1" in german.quote.text
    assert "not significantly cheaper than" in german.quote.text
    # the decision is the front page's and the decision box's, not restated a third time here
    assert not german.topic("decision")
    page = (out / "dataset-german_credit.html").read_text(encoding="utf-8")
    assert 'id="dataset-german_credit-findings"' in page and 'class="finding-ref"' in page
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'id="index-how-to-read"' in index and index.count('class="quote"') == len(
        results.datasets
    )


def test_no_claim_of_significance_without_a_test_or_a_rival():
    from synthetic import synthetic_results as binormal_results

    lone = binormal_results(datasets=("one",), classifiers=("logreg",), folds=True)
    found = fd.dataset_findings(lone, lone.datasets["one"])
    text = " ".join(f.text for f in [found.quote, *found.findings])
    assert "significantly cheaper" not in text and "tied with" not in text
    assert "1 of 1 classifier (" in text
    untested = binormal_results(datasets=("one",), classifiers=("logreg", "inverted", "stump"))
    found = fd.dataset_findings(untested, untested.datasets["one"])
    assert "it was not tested against stump" in found.quote.text
    assert (
        "no paired test of the cheapest against the runner-up was run"
        in found.topic("priors")[1].text
    )
    never = [f for f in found.topic("trivial") if "never beats" in f.text]
    assert [r.text for r in never[0].refs] == ["inverted"]
