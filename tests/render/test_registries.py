"""Figures and page sections that register (issue 17): a new kind or section is found, not wired
in."""

from __future__ import annotations

import re
import types

from matplotlib.figure import Figure
from site_fixtures import parse_page, synthetic_results

from ccreport.figures import FigureSpec, specs
from ccreport.figures.registry import REGISTRY, register
from ccreport.render.figure_files import write_figures
from ccreport.render.sections import DATASET_SECTIONS
from ccreport.render.site import build_pages, figures_from_index, render_site


def _tiny_figure(subject) -> Figure:
    fig = Figure(figsize=(2, 1.5))
    fig.add_subplot().plot([0, 1], [0, len(subject.dataset.classifiers)])
    return fig


EXTRA = FigureSpec(
    kind="extra-test",
    scope="dataset",
    key="{dataset}/extra",
    stem="{dataset_slug}/extra",
    draw=_tiny_figure,
    caption=lambda s: f"Extra figure of {s.dataset.name}.",
    alt=lambda s: "Extra alt.",
    section="focus",
    order=5,
)


def test_every_registered_kind_is_in_one_section_and_has_a_unique_key():
    kinds = specs()
    assert [s.kind for s in kinds] == [
        "priors",
        "hybrid",
        "cost",
        "kendall",
        "roc",
        "cost-rescaled",
        "criteria",
        "family",
        "rociv",
        "iv-cost",
        "focus",
        "threshold-methods",
        "diff",
    ]
    sections = {s.id for s in DATASET_SECTIONS} | {"overview"}
    assert all(s.section in sections for s in kinds)
    assert len({s.key for s in kinds}) == len(kinds)


def test_a_registered_figure_is_written_and_placed_on_its_page(tmp_path, monkeypatch):
    monkeypatch.setitem(REGISTRY, EXTRA.kind, EXTRA)
    results = synthetic_results(("a1", "b1"))
    index = write_figures(
        results, tmp_path, formats=("svg",), workers=1, focus=False, rescaled=False
    )
    assert (
        index["d1/extra"]["svg"] == "figures/d1/extra.svg"
        and (tmp_path / "figures/d1/extra.svg").is_file()
    )
    assert index["d1/extra"]["caption"] == "Extra figure of d1."
    page = next(
        p for p in build_pages(results, figures_from_index(index)) if p.template == "dataset.html"
    )
    focus = next(s for s in page.data["sections"] if s.id == "focus")
    assert [f.key for f in focus.figures] == ["d1/extra"] and focus.figures[0].scope == "dataset"
    assert list(page.figures)[:2] == ["d1/cost", "d1/roc"]


def test_a_registered_figure_is_numbered_where_its_section_places_it(tmp_path, monkeypatch):
    """The catalogue numbers by page, section and registered order: a new kind needs no numbering
    code."""
    monkeypatch.setitem(REGISTRY, EXTRA.kind, EXTRA)
    results = synthetic_results(("a1", "b1"))
    index = write_figures(
        results, tmp_path, formats=("svg",), workers=1, focus=True, rescaled=False
    )
    site = render_site(results, None, tmp_path, index, pdf=False)
    figures = site.catalogue.figures
    assert [e.number for e in figures] == list(range(1, len(figures) + 1))
    keys = [e.key for e in figures]
    assert keys.index("d1/roc") < keys.index("d1/extra") < keys.index("d1/focus")
    html = (tmp_path / "dataset-d1.html").read_text()
    extra = next(e for e in figures if e.key == "d1/extra")
    assert (
        f'id="{extra.anchor}"' in html
        and f"Figure {extra.number}.</span> Extra figure of d1." in html
    )


def test_register_refuses_an_unknown_scope_and_a_second_kind_of_the_same_name(monkeypatch):
    import dataclasses

    import pytest

    monkeypatch.setitem(REGISTRY, EXTRA.kind, EXTRA)
    with pytest.raises(ValueError, match="unknown scope"):
        register(dataclasses.replace(EXTRA, kind="x-test", scope="galaxy"))
    with pytest.raises(ValueError, match="twice"):
        register(dataclasses.replace(EXTRA, order=6))


def test_page_contents_list_the_sections_with_something_to_show(tmp_path):
    results = synthetic_results(("a1", "b1"))
    render_site(results, None, tmp_path, {}, pdf=False)
    html = (tmp_path / "dataset-d1.html").read_text()
    toc = html[
        html.index('<nav class="page-toc"') : html.index(
            "</nav>", html.index('<nav class="page-toc"')
        )
    ]
    # a section folded into the appendix is linked by its <details class="appendix"> part
    assert '#dataset-d1-summary">Summary' in toc
    assert re.search(r'#dataset-d1-(appendix-)?comparisons">Pairwise comparisons', toc)
    assert "-uncertainty" not in toc and "-figures" not in toc and "-focus" not in toc


def test_a_project_overrides_one_section_through_its_templates_folder(tmp_path):
    root = tmp_path / "project"
    (root / "templates" / "sections").mkdir(parents=True)
    (root / "templates" / "sections" / "summary.html").write_text(
        '<h2 id="{{ page.slug }}-{{ section.id }}">Our own summary</h2>\n'
        '<p class="ours">{{ section.tables | length }} table</p>\n'
    )
    results = synthetic_results(("a1", "b1"))
    out = tmp_path / "site"
    render_site(results, types.SimpleNamespace(root=root, theme="default"), out, {}, pdf=False)
    html = (out / "dataset-d1.html").read_text()
    assert "Our own summary" in html and '<p class="ours">1 table</p>' in html
    page = parse_page(out / "dataset-d1.html")
    assert (
        "table-dataset-d1-summary" not in page.tables
        and "table-dataset-d1-comparisons" in page.tables
    )
