"""Moving around the site (issue 36, point 5): each page's contents (ccreport.render.page_nav),
lazily loaded figures with their size on the <img>, back to top, folded appendix parts that a link
opens, and the example's pages in a real browser (Chromium driven by Playwright, tests/browser.py)
at 1400 px and at 390 px.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from matplotlib.figure import Figure
from site_fixtures import (
    check_site,
    example_build,
    fake_figure_index,
    parse_page,
    synthetic_results,
)

from ccreport.render.page_nav import ContentsEntry, page_contents, svg_size
from ccreport.render.site import page_context, render_site, render_template
from ccreport.results import results_to_json
from tests.browser import browser  # noqa: F401  (the Chromium fixture)

GERMAN = "dataset-german_credit.html"
HEIGHT_BUDGET = 12_000  # px, the German credit page at 1400 px with its appendix folded (issue 36)
NARROW = 390  # px, a phone

# --- the contents, read from the rendered page -------------------------------------------------


def test_contents_are_the_sections_then_the_appendix_parts_in_page_order():
    html = """
    <p>intro</p><h2 id="p-a">Alpha <em>one</em></h2><h3 id="p-a1">not listed</h3>
    <h2>no id, not listed</h2><h2 id="p-empty"> </h2>
    <details class="appendix" id="p-appendix-b"><summary>Beta &amp; more</summary>
      <span id="p-b"></span><h2 id="p-inside">inside a part: not listed</h2>
      <details><summary>nested, not listed</summary></details>
    </details>
    <details id="p-plain"><summary>a fold that is no appendix part</summary></details>
    <h2 id="p-c">Gamma</h2>
    <details class="x appendix" id="p-appendix-d"><summary>
      Delta
    </summary></details>
    """
    assert page_contents(html) == [
        ContentsEntry("#p-a", "Alpha one"),
        ContentsEntry("#p-appendix-b", "Beta & more", appendix=True),
        ContentsEntry("#p-c", "Gamma"),
        ContentsEntry("#p-appendix-d", "Delta", appendix=True),
    ]
    assert page_contents("") == [] and page_contents("<p>no headings</p>") == []


def test_headings_of_a_hidden_block_are_listed_hidden():
    """A heading inside an element with ``hidden`` (the explorer before its script runs) gets a
    hidden contents line; a hidden void element hides nothing after it."""
    html = """
    <section hidden id="x"><div><section><h2 id="p-x">Explore</h2></section></div></section>
    <input hidden><h2 id="p-y">Shown</h2>
    """
    assert page_contents(html) == [
        ContentsEntry("#p-x", "Explore", hidden=True),
        ContentsEntry("#p-y", "Shown"),
    ]


def test_svg_size_in_css_pixels(tmp_path):
    fig = Figure(figsize=(3.5, 2.0))  # 252 pt x 144 pt: 336 px x 192 px at 96 px per inch
    fig.add_subplot().plot([0, 1], [1, 0])
    fig.savefig(tmp_path / "m.svg")
    assert svg_size(tmp_path / "m.svg") == (336, 192)
    cases = {
        '<svg width="100px" height="50.4px" viewBox="0 0 9 9">': (100, 50),
        '<svg width="30" height="20">': (30, 20),
        "<svg viewBox='0, 0, 120.6, 80'>": (121, 80),
        '<svg width="100%" height="50%" viewBox="0 0 40 30">': (40, 30),
        '<svg width="0pt" height="10pt">': None,
        '<svg width="2em" height="1em">': None,
        "<html>no svg</html>": None,
    }
    for i, (text, size) in enumerate(cases.items()):
        (tmp_path / f"{i}.svg").write_text('<?xml version="1.0"?>\n' + text + "</svg>")
        assert svg_size(tmp_path / f"{i}.svg") == size, text
    assert svg_size(tmp_path / "missing.svg") is None


def _svg_px(path) -> tuple[int, int]:
    """The root's width and height in px by an XML parser (an independent reading)."""
    root = ET.parse(path).getroot()
    return tuple(round(float(root.get(k).removesuffix("pt")) * 4 / 3) for k in ("width", "height"))


def test_pages_have_contents_lazy_sized_figures_and_back_to_top(tmp_path):
    results = synthetic_results(("a1", "b1"))
    site = render_site(results, None, tmp_path, fake_figure_index(results, tmp_path), pdf=False)
    for page in site.pages:
        html = (tmp_path / page.filename).read_text()
        main = html[html.index("<main") :]
        targets = re.findall(r'<h2 id="([^"]+)"|<details class="appendix" id="([^"]+)"', main)
        ids = [heading or part for heading, part in targets]
        nav = html[
            html.index('<nav class="page-toc"') : html.index("</nav>", html.index("page-toc"))
        ]
        assert re.findall(r'href="#([^"]+)"', nav) == ids, page.filename  # all, in page order
        assert '<a class="back-to-top" href="#top">' in html and "assets/site.js" in html
        images = re.findall(r"<img [^>]*>", html)
        assert images or page.slug in ("methods", "provenance"), page.filename
        for tag in images:
            src = re.search(r'src="([^"]+)"', tag).group(1)
            width, height = _svg_px(tmp_path / src)
            assert 'loading="lazy"' in tag and f'width="{width}" height="{height}"' in tag, tag
        printed = render_template(site.env, page.template, page_context(site.context, page, True))
        assert "loading=" not in printed and "page-toc" not in printed  # report.pdf: none of it
    assert (tmp_path / "assets" / "site.js").is_file()
    assert parse_page(tmp_path / "dataset-d1.html").tables  # the page still parses
    (tmp_path / "results.json").write_text(results_to_json(results))  # the footer links it
    check_site(tmp_path)  # every contents link and #top resolve on its page


# --- the example in Chromium --------------------------------------------------------------------


@pytest.fixture(scope="module")
def site():
    return example_build()


def _open(browser, site, name, width, height=1000, **options):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    page = context.new_page()
    page.goto((site / name).as_uri(), wait_until="load")
    return context, page


def test_german_credit_page_height_at_1400_px_with_the_appendix_folded(browser, site):  # noqa: F811
    context, page = _open(browser, site, GERMAN, 1400)
    try:
        folded = page.eval_on_selector_all(
            "details.appendix", "ds => ds.filter(d => !d.open).length"
        )
        height = page.evaluate("document.body.scrollHeight")
        assert folded >= 1, "no folded appendix part on the page"
        assert height < HEIGHT_BUDGET, f"{height} px at 1400 px"
    finally:
        context.close()


@pytest.mark.parametrize("opened", [False, True], ids=["folded", "all-parts-open"])
def test_no_page_scrolls_sideways_at_390_px(browser, site, opened):  # noqa: F811
    for name in sorted(p.name for p in site.glob("*.html")):
        context, page = _open(browser, site, name, NARROW, 844)
        try:
            if opened:
                page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            width = page.evaluate(
                "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
            )
            assert width <= NARROW, f"{name}: {width} px wide at {NARROW} px"
            # what is wider (a table) scrolls inside its own box
            for box in page.query_selector_all(".table-scroll"):
                assert box.bounding_box()["width"] <= NARROW
            figures = page.eval_on_selector_all(
                "main img", "is => Math.max(0, ...is.map(i => i.getBoundingClientRect().right))"
            )
            assert figures <= NARROW, f"{name}: a figure reaches {figures} px"
        finally:
            context.close()


def test_contents_stay_in_view_at_1400_px_and_fold_at_390_px(browser, site):  # noqa: F811
    context, page = _open(browser, site, GERMAN, 1400)
    try:
        toc = page.locator("nav.page-toc")
        links = toc.locator("a")
        assert links.count() >= 5 and links.first.is_visible()
        page.evaluate("window.scrollTo(0, 6000)")
        page.wait_for_function("window.scrollY > 5000")
        box = toc.bounding_box()
        assert 0 <= box["y"] and box["y"] + 40 < 1000, box  # still on screen, near its top
        assert links.first.is_visible()
        back = page.locator("a.back-to-top")
        assert back.is_visible()
        back.click()
        page.wait_for_function("window.scrollY === 0")
    finally:
        context.close()
    context, page = _open(browser, site, GERMAN, NARROW, 844)
    try:
        toc = page.locator("nav.page-toc")
        assert toc.bounding_box()["y"] < 300  # at the top
        assert not toc.locator("a").first.is_visible()  # folded
        toc.locator("summary").click()
        assert toc.locator("a").first.is_visible()
    finally:
        context.close()


def test_a_contents_link_opens_its_folded_appendix_part(browser, site):  # noqa: F811
    context, page = _open(browser, site, GERMAN, 1400)
    try:
        entries = page.locator("nav.page-toc .toc-appendix a")
        assert entries.count() >= 1, "no appendix part in the contents"
        for i in range(entries.count()):
            href = entries.nth(i).get_attribute("href")
            part = page.locator(f"details.appendix{href}")
            assert part.count() == 1 and not part.evaluate("d => d.open"), href
            entries.nth(i).click()
            page.wait_for_function("id => document.getElementById(id).open", arg=href[1:])
            top = part.bounding_box()["y"]
            assert -2 <= top < 1000, f"{href}: at {top} px"  # scrolled to it
    finally:
        context.close()


def test_without_javascript_a_link_still_shows_its_appendix_part(browser, site):  # noqa: F811
    context = browser.new_context(
        viewport={"width": 1400, "height": 1000}, java_script_enabled=False
    )
    try:
        page = context.new_page()
        page.goto((site / GERMAN).as_uri())
        part_id = page.eval_on_selector("details.appendix", "d => d.id")
        inside = page.locator(f"#{part_id} :is(p, figure, table)").first
        assert not inside.is_visible()
        page.goto((site / GERMAN).as_uri() + "#" + part_id)
        assert inside.is_visible()
    finally:
        context.close()


def test_figures_load_lazily_without_moving_the_page(browser, site):  # noqa: F811
    context, page = _open(browser, site, GERMAN, 1400)
    try:
        shown = "main img:not(details:not([open]) img)"  # not inside a folded part
        state = page.eval_on_selector_all(
            shown, "is => is.map(i => [i.naturalWidth, i.getBoundingClientRect().height])"
        )
        waiting = [height for natural, height in state if natural == 0]
        assert len(state) >= 3 and waiting, f"all {len(state)} figures loaded at once"
        # a figure not yet loaded already has its box (the <img> width/height), so nothing moves
        assert min(waiting) > 50, waiting
        last = page.locator(shown).last
        last.scroll_into_view_if_needed()
        page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=last.element_handle())
    finally:
        context.close()
