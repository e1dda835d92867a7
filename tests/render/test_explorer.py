"""The operating-condition explorer (ccreport/render/explorer.py, themes/default/explorer.js).

Expected values are computed here from results.json alone, by brute force over every ROC point
of every classifier (the cheapest point at PC(+) = x, ties to the fewest cases flagged, then
manifest order; its optimality range solved from all pairwise inequalities), never from the
explorer's own data. The browser tests drive Debian's Chromium with Playwright (tests/browser.py).
"""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader
from site_fixtures import example_build, example_results, write_tiny_project

from ccreport.render.explorer import ROC_DRAWN, drawn_roc, explorer_data, script_json
from tests.browser import browser  # noqa: F401  (the Chromium fixture)

SHOTS = Path("/tmp/explorer-shots")
PAGE_BUDGET = 150 * 1024  # bytes the explorer may add to a dataset page (issue 35)
TOL = 1e-12


# --- the expected answers, from results.json ---------------------------------------------------


def results_json() -> dict:
    return json.loads((example_build() / "results.json").read_text())


def roc_table(dataset: dict):
    """Every ROC point of every classifier: (member index, point index, fpr, tpr)."""
    rows = []
    for i, c in enumerate(dataset["classifiers"].values()):
        assert len(c["roc_points"]) == len(c["thresholds"]) < 2000  # not thinned: aligned
        for j, (f, t) in enumerate(c["roc_points"]):
            rows.append((i, j, f, t))
    a = np.array(rows, dtype=float)
    return a[:, 0].astype(int), a[:, 1].astype(int), a[:, 2], a[:, 3]


def optimal_range(fpr, tpr, f, t) -> tuple[float, float]:
    """PC(+) range where (f, t) costs no more than every point: x dT <= (1 - x) dF for each
    other point (dT, dF its differences), i.e. x (dT + dF) <= dF."""
    d_t, d_f = tpr - t, fpr - f
    s = d_t + d_f
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = d_f / s
    high = min(1.0, float(np.min(bound[s > 0], initial=1.0)))
    low = max(0.0, float(np.max(bound[s < 0], initial=0.0)))
    return low, high


def best_point(dataset: dict, x: float, members=None, pick=None):
    """The cheapest ROC point at x: among the points within TOL of the least cost, the one
    flagging fewest cases, then the first in manifest order (the rule at a switch point). Within
    1e-7 of a switch point but not on it, float rounding may favour either side: there ``pick``
    (classifier index, fpr, tpr) is accepted when it is one of those points."""
    member, index, fpr, tpr = roc_table(dataset)
    keep = np.ones(member.size, bool) if members is None else np.isin(member, members)
    cost = x * (1 - tpr) + (1 - x) * fpr
    best = cost[keep].min()
    n_pos, n_neg = dataset["n_pos"], dataset["n_neg"]
    flagged = n_pos * tpr + n_neg * fpr
    candidates = sorted(
        np.flatnonzero(keep & (cost <= best + TOL)), key=lambda c: (round(flagged[c], 9), member[c])
    )
    k = candidates[0]
    switches = np.array([s["low"] for s in dataset["hybrid"]["segments"][1:]])
    gap = np.min(np.abs(switches - x), initial=1.0)
    if pick is not None and 0 < gap <= 1e-7:
        found = [c for c in candidates if (member[c], fpr[c], tpr[c]) == tuple(pick)]
        k = found[0] if found else k
    return int(member[k]), int(index[k]), float(fpr[k]), float(tpr[k]), float(cost[k])


def expected(dataset: dict, x: float, p: float, point: str | None = None, pick=None) -> dict:
    """The decision at PC(+) = x from results.json (class mix p for the flagged share; ``point``:
    the point prior at x; ``pick``: see :func:`best_point`)."""
    names = list(dataset["classifiers"])
    member, index, fpr, tpr = roc_table(dataset)
    m, j, f, t, cost = best_point(dataset, x, pick=pick)
    c = dataset["classifiers"][names[m]]
    thresholds = c["thresholds"]
    band = c.get("band")
    interval = None
    if point is not None:
        interval = c["expected_cost_interval"][point]
    elif band is not None:
        interval = [
            np.interp(x, band["pc"], band["lower"]),
            np.interp(x, band["pc"], band["upper"]),
        ]
    envelopes = []
    for i, n in enumerate(names):
        e = np.array(dataset["classifiers"][n]["lower_envelope"])
        envelopes.append(np.inf if i == m else float(np.interp(x, e[:, 0], e[:, 1])))
    r = int(np.argmin(envelopes))
    rm, rj, *_ = best_point(dataset, x, members=[r])
    regions = None
    for pair in dataset["comparisons"].values():
        if {pair["a"], pair["b"]} == {names[m], names[r]} and "significant" in pair:
            regions = pair["significant"]
    hits = [g for g in regions or [] if g["lo"] <= x <= g["hi"]]
    pairs = []
    for pair in dataset["comparisons"].values():
        if names[m] in (pair["a"], pair["b"]):
            other = pair["b"] if pair["a"] == names[m] else pair["a"]
            pairs += [
                {"classifier": other, "better": g["better"]}
                for g in pair.get("significant", [])
                if g["lo"] <= x <= g["hi"]
            ]
    hybrid = np.array(dataset["hybrid"]["lower_envelope"])
    return {
        "classifier": names[m],
        "threshold": thresholds[j],
        "threshold_low": thresholds[j + 1] if j + 1 < len(thresholds) else None,
        "fpr": f,
        "tpr": t,
        "flagged_share": p * t + (1 - p) * f,
        "expected_cost": cost,
        "hybrid_envelope": float(np.interp(x, hybrid[:, 0], hybrid[:, 1])),
        "interval": interval,
        "pc_interval": optimal_range(fpr, tpr, f, t),
        "runner_up": names[r],
        "runner_costs": sorted(envelopes)[:2],
        "runner_threshold": dataset["classifiers"][names[r]]["thresholds"][rj],
        "runner_cost": envelopes[r],
        "tested": regions is not None,
        "significant": bool(hits),
        "better": hits[0]["better"] if hits else None,
        "significant_pairs": sorted(pairs, key=lambda w: w["classifier"]),
    }


def choose(data: dict, x: float) -> int:
    """The explorer's rule on its own data: first hybrid vertex whose [low, high] holds x."""
    h = data["hybrid"]
    return next(k for k in range(len(h["low"])) if h["low"][k] <= x <= h["high"][k])


# --- (a) the extraction ---------------------------------------------------------------------------


def test_extraction_matches_a_brute_force_over_the_roc_points():
    results, stored = example_results(), results_json()
    for name, d in results.datasets.items():
        data = explorer_data(results, d)
        dataset = stored["datasets"][name]
        names = [c["name"] for c in data["classifiers"]]
        assert names == list(dataset["classifiers"])
        xs = np.concatenate([np.linspace(0, 1, 401), data["hybrid"]["low"]])
        for x in xs:
            k = choose(data, x)
            h = data["hybrid"]
            pick = (h["member"][k], h["fpr"][k], h["tpr"][k])
            want = expected(dataset, x, data["class_mix"], pick=pick)
            assert names[h["member"][k]] == want["classifier"], (name, x)
            assert h["threshold"][k] == want["threshold"]
            assert h["threshold_low"][k] == want["threshold_low"]
            assert (h["fpr"][k], h["tpr"][k]) == (want["fpr"], want["tpr"])
            cost = x * (1 - h["tpr"][k]) + (1 - x) * h["fpr"][k]
            assert cost == pytest.approx(want["expected_cost"], abs=TOL)
            assert cost == pytest.approx(want["hybrid_envelope"], abs=1e-9)
            assert (h["low"][k], h["high"][k]) == pytest.approx(want["pc_interval"], abs=1e-9)


def test_classifier_tables_give_their_lower_envelopes():
    results, stored = example_results(), results_json()
    for name, d in results.datasets.items():
        data = explorer_data(results, d)
        for c in data["classifiers"]:
            e = np.array(stored["datasets"][name]["classifiers"][c["name"]]["lower_envelope"])
            t = c["table"]
            for x in np.linspace(0, 1, 201):
                k = next(i for i in range(len(t["low"])) if t["low"][i] <= x <= t["high"][i])
                cost = x * (1 - t["tpr"][k]) + (1 - x) * t["fpr"][k]
                assert cost == pytest.approx(np.interp(x, e[:, 0], e[:, 1]), abs=1e-9)
            band = stored["datasets"][name]["classifiers"][c["name"]]["band"]
            assert c["band"] == {k: band[k] for k in ("pc", "lower", "upper")}


def test_point_priors_reproduce_the_decision_box():
    """At a point prior's PC(+) the explorer's rule gives the decision box's row exactly."""
    results, stored = example_results(), results_json()
    seen = 0
    for name, d in results.datasets.items():
        data = explorer_data(results, d)
        names = [c["name"] for c in data["classifiers"]]
        for point in data["points"]:
            row = stored["datasets"][name]["decisions"]["priors"][point["name"]]
            k = choose(data, point["pc"])
            h = data["hybrid"]
            ci = h["member"][k]
            assert names[ci] == row["classifier"]
            assert [h["threshold_low"][k], h["threshold"][k]] == row["threshold_interval"]
            assert (h["fpr"][k], h["tpr"][k]) == (row["fpr"], row["tpr"])
            assert [h["low"][k], h["high"][k]] == row["pc_interval"]
            assert point["intervals"][ci] == row["expected_cost_interval"]
            p = point["p_positive"]
            assert p * h["tpr"][k] + (1 - p) * h["fpr"][k] == pytest.approx(row["flagged_share"])
            scale = p * point["cost_fn"] + (1 - p) * point["cost_fp"]
            assert row["cost_per_case"]["interval"] == pytest.approx(
                [v * scale for v in point["intervals"][ci]], abs=TOL
            )
            seen += 1
    assert seen >= 1


def test_script_json_cannot_close_its_element():
    data = {"name": "</script><script>alert(1)</script><!--", "x": 0.1 + 0.2}
    text = str(script_json(data))
    assert "<" not in text and ">" not in text and "&" not in text.replace("\\u0026", "")
    assert json.loads(text) == data  # the exact double back


def test_drawn_roc_is_bounded_and_keeps_the_hull():
    class Many:
        rng = np.random.default_rng(0)
        roc_fpr = np.sort(np.r_[0, rng.random(5000), 1])
        roc_tpr = np.sort(np.r_[0, rng.random(5000), 1])
        hull_fpr = np.array([0.0, 0.1234567, 1.0])
        hull_tpr = np.array([0.0, 0.7654321, 1.0])

    drawn = drawn_roc(Many)
    assert len(drawn) <= ROC_DRAWN + 3 and drawn[0] == [0, 0] and drawn[-1] == [1, 1]
    assert [0.1235, 0.7654] in drawn


def test_explorer_is_on_the_site_only():
    site = example_build()
    for page in site.glob("dataset-*.html"):
        html = page.read_text()
        assert html.count('data-role="explorer-data"') == 1
        assert re.search(r'<section class="explorer"[^>]*\bhidden\b', html)  # shown by the script
    assert 'data-role="explorer-data"' not in (site / "index.html").read_text()
    text = "".join(p.extract_text() for p in PdfReader(site / "report.pdf").pages)
    assert "Explore operating conditions" not in text and "explorer" not in text.lower()


def explorer_bytes(page: Path) -> int:
    """What the explorer adds to a dataset page: its block, its data and its two assets."""
    html = page.read_text(encoding="utf-8")
    start = html.index('<section class="explorer"')
    end = html.index("</script>", html.index('src="assets/explorer.js"')) + len("</script>")
    assets = page.parent / "assets"
    block = len(html[start:end].encode("utf-8"))
    return (
        block + (assets / "explorer.js").stat().st_size + (assets / "explorer.css").stat().st_size
    )


def test_page_weight_within_budget():
    for page in example_build().glob("dataset-*.html"):
        assert explorer_bytes(page) <= PAGE_BUDGET, page.name


# --- (b) in a real browser ---------------------------------------------------------------------


def conditions(dataset: dict, points: list[dict]) -> list[tuple[str, dict]]:
    """Twelve conditions: the ends, a crossover, a switch point of the hybrid, a condition inside
    a family-wise significant region of the choice and its runner-up, the point priors, and
    evenly spread ones; each as (how it is set, values)."""
    out = [("pc", {"pc": 0.0}), ("pc", {"pc": 1.0})]
    crossover = next(x for pair in dataset["comparisons"].values() for x in pair["crossovers"])
    out.append(("pc", {"pc": crossover}))
    out.append(("pc", {"pc": dataset["hybrid"]["segments"][1]["low"]}))
    for x in np.linspace(0.01, 0.99, 99):
        if expected(dataset, float(x), 0.5)["significant_pairs"]:
            out.append(("pc", {"pc": float(x)}))
            break
    for point in points:
        if point["cost_fn"] is not None:
            out.append(("units", {"p": point["p_positive"], "fn": point["cost_fn"]}))
        out.append(("fragment", {"p": point["p_positive"], "ratio": ratio_of(point)}))
    out.append(("prior", {"p": 0.05, "ratio": 8.0}))
    spread = iter([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95])
    while len(out) < 12:
        out.append(("pc", {"pc": next(spread)}))
    return out


def ratio_of(point: dict) -> float:
    if point["cost_fn"] is not None and point["cost_fp"]:
        return point["cost_fn"] / point["cost_fp"]
    p, x = point["p_positive"], point["pc"]
    return x * (1 - p) / (p * (1 - x))


def set_condition(page, slug: str, how: str, v: dict, url: str):
    if how == "pc":
        page.fill(f"#{slug}-x-pc", repr(v["pc"]))
    elif how == "prior":
        page.fill(f"#{slug}-x-prior", repr(v["p"]))
        page.fill(f"#{slug}-x-ratio", repr(v["ratio"]))
    elif how == "units":
        page.fill(f"#{slug}-x-prior", repr(v["p"]))
        page.fill(f"#{slug}-x-cfn", repr(v["fn"]))
    else:
        page.goto(f"{url}#prior={v['p']!r}&ratio={v['ratio']!r}")
        page.wait_for_selector("[data-explorer]:not([hidden])")


def panel(page) -> dict:
    return json.loads(page.get_attribute("[data-role=decision]", "data-decision"))


def check(dec: dict, dataset: dict, points: list[dict]):
    x, p = dec["pc"], dec["p_positive"]
    point = next((q for q in points if abs(q["pc"] - x) <= 1e-9), None)
    pick = (dec["classifier_index"], dec["fpr"], dec["tpr"])
    want = expected(dataset, x, p, None if point is None else point["name"], pick=pick)
    where = f"PC(+) = {x!r}"
    assert dec["classifier"] == want["classifier"], where
    assert dec["threshold"] == want["threshold"], where
    assert dec["threshold_interval"] == [want["threshold_low"], want["threshold"]], where
    assert (dec["fpr"], dec["tpr"]) == (want["fpr"], want["tpr"]), where
    assert dec["flagged_share"] == pytest.approx(want["flagged_share"], abs=TOL), where
    assert dec["expected_cost"] == pytest.approx(want["expected_cost"], abs=TOL), where
    assert dec["expected_cost_interval"] == pytest.approx(want["interval"], abs=TOL), where
    assert dec["pc_interval"] == pytest.approx(want["pc_interval"], abs=1e-9), where
    ru = dec["runner_up"]
    close = want["runner_costs"][1] - want["runner_costs"][0] <= TOL
    assert ru["classifier"] == want["runner_up"] or close, where
    if ru["classifier"] == want["runner_up"]:
        assert ru["threshold"] == want["runner_threshold"], where
        assert ru["expected_cost"] == pytest.approx(want["runner_cost"], abs=TOL), where
        sig = dec["significance"]
        assert (sig["tested"], sig["significant"], sig["better"]) == (
            want["tested"],
            want["significant"],
            want["better"],
        ), where
    got = [{"classifier": w["classifier"], "better": w["better"]} for w in dec["significant_pairs"]]
    assert sorted(got, key=lambda w: w["classifier"]) == want["significant_pairs"], where
    if point is not None:
        row = dataset["decisions"]["priors"][point["name"]]
        assert dec["expected_cost_interval"] == row["expected_cost_interval"]
        assert dec["classifier"] == row["classifier"] and dec["threshold"] == row["threshold"]
        if row.get("cost_per_case") and abs(p - point["p_positive"]) <= 1e-12:
            assert dec["cost_per_case"]["value"] == pytest.approx(row["cost_per_case"]["value"])
            assert dec["cost_per_case"]["interval"] == pytest.approx(
                row["cost_per_case"]["interval"]
            )
    return want


@pytest.mark.parametrize("name", ["sonar", "german_credit"])
def test_browser_panel_equals_results_json(browser, name):  # noqa: F811
    site = example_build()
    stored = results_json()
    dataset = stored["datasets"][name]
    data = explorer_data(example_results(), example_results().datasets[name])
    slug = f"dataset-{name}"
    url = (site / f"{slug}.html").as_uri()
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("[data-explorer]:not([hidden])")
    checked = conditions(dataset, data["points"])
    assert len(checked) >= 12
    kinds = set()
    for how, values in checked:
        set_condition(page, slug, how, values, url)
        dec = panel(page)
        if how == "pc":
            assert dec["pc"] == values["pc"]
        want = check(dec, dataset, data["points"])
        kinds.add("significant" if want["significant_pairs"] else "not significant")
        text = page.inner_text("[data-role=decision]")
        assert want["classifier"] in text
        # the fragment restores the view: a fresh page at the same address shows the same panel
        fresh = browser.new_page(viewport={"width": 1400, "height": 1000})
        fresh.goto(page.url)
        fresh.wait_for_selector("[data-explorer]:not([hidden])")
        assert panel(fresh) == dec, page.url
        fresh.close()
    assert kinds == {"significant", "not significant"}
    assert not errors
    page.close()


def test_browser_keyboard_fragment_and_frame_time(browser, capsys):  # noqa: F811
    site = example_build()
    url = (site / "dataset-sonar.html").as_uri()
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(url + "#pc=0.23")
    page.wait_for_selector("[data-explorer]:not([hidden])")
    assert panel(page)["pc"] == 0.23
    assert not page.locator("[data-role=units]").is_visible()  # sonar: no costs in units
    assert page.input_value("#dataset-sonar-x-pc") == "0.23"
    page.focus("#dataset-sonar-x-pc-range")
    page.keyboard.press("ArrowRight")
    assert panel(page)["pc"] == pytest.approx(0.231)
    assert page.evaluate("location.hash") == "#pc=0.231"
    page.fill("#dataset-sonar-x-prior", "0.05")
    page.fill("#dataset-sonar-x-ratio", "8")
    assert page.evaluate("location.hash") == "#prior=0.05&ratio=8"
    assert panel(page)["pc"] == pytest.approx(0.05 * 8 / (0.05 * 8 + 0.95), abs=TOL)
    labelled = page.evaluate(
        """() => [...document.querySelectorAll('[data-explorer] input')].every(i =>
             i.getAttribute('aria-label') || document.querySelector(`label[for="${i.id}"]`))"""
    )
    assert labelled
    timings = page.evaluate(
        """async () => {
          const slider = document.querySelector('#dataset-sonar-x-pc-range');
          const panel = document.querySelector('[data-role=decision]');
          const out = [];
          for (let i = 0; i < 40; i++) {
            const value = (0.02 + 0.024 * i).toFixed(3);
            out.push(await new Promise(resolve => {
              const t0 = performance.now();
              slider.value = value;
              slider.dispatchEvent(new Event('input', {bubbles: true}));
              const handled = performance.now() - t0;
              requestAnimationFrame(() => resolve({handled, frame: performance.now() - t0,
                shown: JSON.parse(panel.getAttribute('data-decision')).pc === Number(value)}));
            }));
          }
          return out;
        }"""
    )
    handled = [t["handled"] for t in timings]
    frame = [t["frame"] for t in timings]
    assert all(t["shown"] for t in timings)  # drawn before the next frame
    # the handler's time is printed, not asserted: a timed unit test fails on a loaded machine
    # (21.9 ms median beside the other test shard, 3.4 ms alone); speed goals are benchmarks'
    SHOTS.mkdir(parents=True, exist_ok=True)
    figures = {
        "handler_ms_median": statistics.median(handled),
        "handler_ms_max": max(handled),
        "to_next_frame_ms_median": statistics.median(frame),
        "moves": len(timings),
    }
    (SHOTS / "timing.json").write_text(json.dumps(figures, indent=1))
    with capsys.disabled():
        print("\nexplorer slider move:", figures)
    page.close()


@pytest.mark.parametrize("width", [1400, 390])
def test_browser_screenshots_and_narrow_layout(browser, width):  # noqa: F811
    site = example_build()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name in ("sonar", "german_credit"):
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto((site / f"dataset-{name}.html").as_uri() + "#prior=0.3&ratio=5")
        page.wait_for_selector("[data-explorer]:not([hidden])")
        units = page.locator("[data-role=units]").is_visible()
        assert units == (name == "german_credit")  # its point prior gives costs in units
        overflow = page.evaluate("document.documentElement.scrollWidth")
        assert overflow <= width, (name, overflow)
        page.locator("[data-explorer]").screenshot(path=str(SHOTS / f"{name}-{width}.png"))
        page.close()


def test_without_javascript_the_explorer_stays_hidden(browser):  # noqa: F811
    site = example_build()
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((site / "dataset-sonar.html").as_uri())
    assert not page.locator("[data-explorer]").is_visible()
    assert page.locator("figure img").count() > 0  # the static figures
    toc = page.locator('.page-toc a[href="#dataset-sonar-explorer-title"]')
    assert toc.count() == 1 and not toc.evaluate("a => a.parentNode.hidden === false")
    context.close()


def test_the_contents_line_of_the_explorer_shows_with_it(browser):  # noqa: F811
    site = example_build()
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto((site / "dataset-sonar.html").as_uri())
    page.wait_for_selector("[data-explorer]:not([hidden])")
    toc = page.locator('.page-toc a[href="#dataset-sonar-explorer-title"]')
    assert toc.evaluate("a => a.parentNode.hidden") is False
    assert toc.is_visible()
    page.close()


def test_tiny_project_point_prior_without_costs(browser, tmp_path):  # noqa: F811
    """A point prior given as PC(+) alone: the explorer starts there with that prior's interval,
    hides the unit costs, and reaches both ends at 390 px without a script error."""
    from ccreport.commands.build import build

    root = write_tiny_project(
        tmp_path / "p",
        extra_priors='[[priors]]\nname = "third"\ndistribution = "point"\npc = 0.3\n',
    )
    results = build(root, tmp_path / "site", pdf=False)
    stored = json.loads((tmp_path / "site" / "results.json").read_text())["datasets"]["tiny"]
    data = explorer_data(results, results.datasets["tiny"])
    assert data["points"][0]["cost_fn"] is None and data["points"][0]["pc"] == 0.3
    page = browser.new_page(viewport={"width": 390, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((tmp_path / "site" / "dataset-tiny.html").as_uri())
    page.wait_for_selector("[data-explorer]:not([hidden])")
    dec = panel(page)
    assert dec["pc"] == pytest.approx(0.3, abs=1e-9) and dec["interval_source"] == "prior third"
    check(dec, stored, data["points"])
    assert not page.locator("[data-role=units]").is_visible()
    for x in ("0", "1", "0.5"):
        page.fill("#dataset-tiny-x-pc", x)
        check(panel(page), stored, data["points"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors
    page.close()
