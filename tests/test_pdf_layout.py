"""ccreport.render.pdf_layout: the layout cost cuts give WeasyPrint's own values and PDF bytes, and restore it."""

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("weasyprint")

from ccreport.render import pdf_layout  # noqa: E402
from ccreport.render.pdf_layout import page_values_from_the_ends  # noqa: E402

# Named pages of other sizes, so that a page name WeasyPrint gets wrong moves a page break or a page's size
PAGES = "@page{size:240pt 200pt} @page a{size:300pt 180pt} @page b{size:200pt 260pt} @page c{size:260pt 220pt}"

# Each case puts the value that decides a page name where one of the scan's rules is needed: the first or last
# child in flow, a floated child counting, absolutely positioned, fixed and running ones not, nesting, tables
# (their own value), children without a name of their own (`auto`: the parent's), and empty boxes.
NAMED_CASES = {
    "nested first": "<p>x</p><section><div><div style='page:a'><p>deep</p></div><p>y</p></div></section><p>z</p>",
    "nested last": "<p>x</p><section><div><p>y</p><div style='page:b'><p>deep</p></div></div></section><p>z</p>",
    "floated first": "<p>x</p><div><div style='float:left;page:a'>floated</div><p>text</p></div><p>z</p>",
    "floated last": "<p>x</p><div><p>text</p><div style='float:right;page:b'>floated</div></div><p>z</p>",
    "absolute first": "<p>x</p><div style='page:c'><div style='position:absolute;page:a'>abs</div><p>text</p></div><p>z</p>",
    "absolute last": "<p>x</p><div style='page:c'><p>text</p><div style='position:absolute;page:b'>abs</div></div><p>z</p>",
    "fixed and running": (
        "<div style='page:a'><div style='position:fixed;page:b'>fixed</div><p>text</p>"
        "<div style='position:running(head);page:c'>head</div></div><p>z</p>"
    ),
    "only absolute": "<p>x</p><div style='page:b'><div style='position:absolute;page:a'>abs</div></div><p>z</p>",
    "auto children": "<div style='page:a'><div><p>inherits a</p></div></div><div><div style='page:b'>b</div><div>auto</div></div>",
    "table": (
        "<p>x</p><div><table style='page:a'><tr><td><div style='page:b'>cell</div></td></tr></table></div>"
        "<div style='page:c'><table><tr><td style='page:b'>cell</td></tr></table></div><p>z</p>"
    ),
    "empty boxes": "<div style='page:a'></div><div></div><div style='page:b'><div></div></div><p>z</p>",
    "long section": "<section>" + "<p>para</p>" * 40 + "<div style='page:a'>named</div>" + "<p>para</p>" * 10 + "</section><p>z</p>",
    # a name going back to the root's ('') breaks no page, so a box can end on another name than it starts with
    "end unlike start": "<section><div style='page:a'>a</div><p>back</p></section><div style='page:a'>a again</div>",
    "start unlike end": "<div style='page:a'>a</div><section><p style='page:b'>b</p><div style='page:a'>a</div></section>",
    "inline children": "<p>x</p><div><span style='page:a'>inline</span> text <b>bold</b></div><div style='page:b'>b</div>",
}


def _html(body: str) -> str:
    return (
        f"<html><head><style>{PAGES} body{{font-family:DejaVu Sans;font-size:9pt}} "
        f"@page{{@top-center{{content:element(head)}}}}</style></head><body>{body}</body></html>"
    )


def _pdf(body: str, patched: bool) -> bytes:
    from ccreport.render.weasyprint_import import import_weasyprint

    weasyprint = import_weasyprint()
    with page_values_from_the_ends() if patched else contextlib.nullcontext():
        return weasyprint.HTML(string=_html(body)).write_pdf(pdf_identifier=b"test")


def _all_page_values(body: str, patched: bool) -> list:
    """Every laid-out box's ``page_values()``, in tree order (the document laid out without the patch)."""
    import weasyprint

    document = weasyprint.HTML(string=_html(body)).render()
    with page_values_from_the_ends() if patched else contextlib.nullcontext():
        return [
            (type(box).__name__, box.page_values())
            for page in document.pages for box in page._page_box.descendants(placeholders=True)
        ]


@pytest.mark.parametrize("case", sorted(NAMED_CASES))
def test_page_values_from_the_ends_draw_the_same_pdf(case):
    body = NAMED_CASES[case]
    assert _pdf(body, patched=True) == _pdf(body, patched=False)
    assert _all_page_values(body, patched=True) == _all_page_values(body, patched=False)


def test_the_cases_use_named_pages():
    import pypdf
    import io

    sizes = set()
    for body in NAMED_CASES.values():
        reader = pypdf.PdfReader(io.BytesIO(_pdf(body, patched=True)))
        sizes.update((float(p.mediabox.width), float(p.mediabox.height)) for p in reader.pages)
    assert len(sizes) == 4  # every @page rule's size is used


WRONG = {
    # floated children left out, as the specification's text alone would have it
    "floats skipped": lambda: setattr(pdf_layout, "in_flow_or_floated", lambda child: child.is_in_normal_flow()),
    # out-of-flow children (absolute, fixed, running) counted
    "every child": lambda: setattr(pdf_layout, "in_flow_or_floated", lambda child: True),
    # the end value looked for at the start
    "end from the start": lambda: setattr(pdf_layout, "edge_value", lambda box, side, fast: edge_value(box, 0, fast)),
    "start from the end": lambda: setattr(pdf_layout, "edge_value", lambda box, side, fast: edge_value(box, 1, fast)),
}
edge_value = pdf_layout.edge_value


@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_a_wrong_scan_fails_the_comparison(wrong, monkeypatch):
    monkeypatch.setattr(pdf_layout, "in_flow_or_floated", pdf_layout.in_flow_or_floated)
    monkeypatch.setattr(pdf_layout, "edge_value", pdf_layout.edge_value)
    WRONG[wrong]()
    differs = [case for case, body in NAMED_CASES.items() if _pdf(body, patched=True) != _pdf(body, patched=False)]
    assert differs, wrong


def test_page_values_from_the_ends_patch_and_restore_weasyprint():
    from weasyprint.formatting_structure import boxes

    original = boxes.ParentBox.page_values
    assert pdf_layout.own_value_follows_parent_box(boxes.ParentBox, boxes.Box)  # else nothing would be patched
    with page_values_from_the_ends():
        with page_values_from_the_ends():
            assert boxes.ParentBox.page_values is pdf_layout.ends_page_values
        assert boxes.ParentBox.page_values is pdf_layout.ends_page_values
        assert boxes.TableBox.page_values is not pdf_layout.ends_page_values  # a table's own method stays
    assert boxes.ParentBox.page_values is original


NAMES = st.sampled_from(["", "page:auto;", "page:a;", "page:b;", "page:c;"])
PLACES = st.sampled_from(["", "", "", "float:left;", "float:right;", "position:absolute;", "position:relative;",
                          "display:inline-block;", "display:table;"])
TREES = st.recursive(
    st.sampled_from(["text", "more words here", ""]),
    lambda children: st.tuples(NAMES, PLACES, st.lists(children, max_size=4)),
    max_leaves=14,
)


def _tree_html(tree) -> str:
    if isinstance(tree, str):
        return tree
    name, place, children = tree
    return f"<div style='{name}{place}'>" + "".join(_tree_html(child) for child in children) + "</div>"


@settings(max_examples=30, deadline=None)
@given(st.lists(TREES, min_size=1, max_size=4))
def test_page_values_from_the_ends_equal_weasyprints_for_random_trees(trees):
    body = "".join(_tree_html(tree) for tree in trees)
    assert _all_page_values(body, patched=True) == _all_page_values(body, patched=False)
    assert _pdf(body, patched=True) == _pdf(body, patched=False)


# Styles taking each of inlined_resolve_percentages' paths: lengths and percentages of margins, paddings,
# widths and heights (of a definite and an 'auto' containing block height), calc(), min/max with 'auto' and
# 'none', the box sizings, collapsed and separated table borders, page margins, positioned and floated boxes
PERCENT_CASES = {
    "lengths": "div{margin:3pt 5% 7px 2em;padding:1% 2pt 3% 4px;width:60%;min-width:20pt;max-width:90%}",
    "heights": "div{height:30%;min-height:10%;max-height:80pt} section{height:400pt}",
    "calc": "div{width:calc(50% - 10pt);margin-left:calc(2em + 3%);padding-top:calc(1pt * 3);height:calc(20% + 5pt)}",
    "border-box": "div{box-sizing:border-box;width:50%;height:40pt;padding:5pt;border:3pt solid;min-height:10pt}",
    "padding-box": "div{box-sizing:padding-box;width:40%;padding:2%;border:1pt solid;max-width:none}",
    "tables": "table{border-collapse:collapse;width:80%} td{border:2pt solid;padding:3%;width:30%} th{border:1pt dotted}",
    "separate": "table{border-collapse:separate;border-spacing:2pt;margin:auto} td{border:1pt solid;height:5%}",
    "pages": "@page{size:300pt 420pt;margin:10% 5% 8pt 12pt;padding:2%} div{margin:auto;width:auto}",
    "positioned": "div{position:absolute;left:10%;top:5%;width:30%} p{float:left;width:25%;margin:2%}",
    "inline": "span{display:inline-block;width:20%;padding:1em;margin:0 5%} img{width:10%}",
}
PERCENT_BODY = (
    "<section><div>one <span>inline block</span></div><div>two</div>"
    "<table><tr><th>h</th><td>cell</td></tr><tr><td>a</td><td>b</td></tr></table><p>floated text</p></section>"
    + "<div>more</div>" * 8
)


@contextlib.contextmanager
def _installed(resolve):
    """``resolve`` as every WeasyPrint module's resolve_percentages, then WeasyPrint's again."""
    from weasyprint.layout import percent

    with pdf_layout.percentages_inlined():  # imports and finds the modules calling it, restores them on exit
        patched = percent.resolve_percentages
        modules = [m for m in _weasyprint_modules() if getattr(m, "resolve_percentages", None) is patched]
        for module in modules:
            module.resolve_percentages = resolve
        try:
            yield
        finally:
            for module in modules:
                module.resolve_percentages = patched


@contextlib.contextmanager
def _both_ways(fast):
    """Every resolve_percentages call made WeasyPrint's way and ``fast``'s from the same box state; yields
    the list of the calls whose boxes then differ (attribute names, types and values)."""
    from weasyprint.layout import percent

    original, differ = percent.resolve_percentages, []

    def both(box, containing_block):
        before, after = dict(box.__dict__), []
        for resolve in (fast, original):
            box.__dict__.clear()
            box.__dict__.update(before)
            resolve(box, containing_block)
            after.append({k: (type(v), repr(v)) for k, v in box.__dict__.items()})
        if after[0] != after[1]:
            differ.append(type(box).__name__)

    with _installed(both):
        yield differ


def _weasyprint_modules():
    import sys

    return [m for n, m in list(sys.modules.items()) if n.startswith("weasyprint.")]


def _fast_resolve_percentages(page_class=None, adjust_box_sizing=None):
    """:func:`pdf_layout.inlined_resolve_percentages`; with ``page_class`` or ``adjust_box_sizing``, a wrong one."""
    import types

    from weasyprint.css.properties import Dimension
    from weasyprint.formatting_structure import boxes
    from weasyprint.layout import percent

    if adjust_box_sizing is not None:
        percent = types.SimpleNamespace(percentage=percent.percentage, check_math=percent.check_math, adjust_box_sizing=adjust_box_sizing)
    return pdf_layout.inlined_resolve_percentages(percent, Dimension, boxes.Box, page_class or boxes.PageBox)


def _percent_html(css: str) -> str:
    return f"<html><head><style>body{{font-family:DejaVu Sans;font-size:9pt}} {css}</style></head><body>{PERCENT_BODY}</body></html>"


def _percent_pdf(css: str, resolve=None) -> bytes:
    import weasyprint

    with _installed(resolve) if resolve is not None else contextlib.nullcontext():
        return weasyprint.HTML(string=_percent_html(css)).write_pdf(pdf_identifier=b"test")


@pytest.mark.parametrize("case", sorted(PERCENT_CASES))
def test_percentages_inlined_draw_the_same_pdf_and_set_the_same_values(case):
    import weasyprint

    css = PERCENT_CASES[case]
    with pdf_layout.percentages_inlined():
        patched = weasyprint.HTML(string=_percent_html(css)).write_pdf(pdf_identifier=b"test")
    assert patched == _percent_pdf(css)
    with _both_ways(_fast_resolve_percentages()) as differ:
        weasyprint.HTML(string=_percent_html(css)).render()
    assert differ == []


WRONG_PERCENTAGES = {
    # a page's vertical margins as a percentage of its width, as for other boxes
    "pages as boxes": ("pages", lambda: _fast_resolve_percentages(page_class=type("NotAPage", (), {}))),
    # box-sizing left out
    "no box sizing": ("border-box", lambda: _fast_resolve_percentages(adjust_box_sizing=lambda box, axis: None)),
}


@pytest.mark.parametrize("wrong", sorted(WRONG_PERCENTAGES))
def test_a_wrong_resolve_percentages_fails_the_comparisons(wrong):
    import weasyprint

    case, make = WRONG_PERCENTAGES[wrong]
    css = PERCENT_CASES[case]
    assert _percent_pdf(css, make()) != _percent_pdf(css)
    with _both_ways(make()) as differ:
        weasyprint.HTML(string=_percent_html(css)).render()
    assert differ


def test_percentages_inlined_patch_every_caller_and_restore_weasyprint():
    from weasyprint.layout import block, flex, percent, table

    original = percent.resolve_percentages
    with pdf_layout.percentages_inlined():
        with pdf_layout.percentages_inlined():
            patched = percent.resolve_percentages
            assert patched is not original
            assert block.resolve_percentages is patched and table.resolve_percentages is patched
        assert flex.percent.resolve_percentages is patched
    assert all(getattr(m, "resolve_percentages", original) is original for m in _weasyprint_modules())
