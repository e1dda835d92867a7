"""ccreport.render.pdf_styles: pseudo-element styles made on demand, the ::before and ::after boxes found
empty without their styles, shared styles' cascades reused and uncascaded values computed directly give
WeasyPrint's own computed values, anchors and PDF bytes, and the patches restore WeasyPrint.

Each document is rendered with and without the patch and compared three ways: the PDF's bytes, every
property of every element's style and of each of its pseudo-element styles (read through ``style_for``
after the document is laid out, the patched one making what it had not made), and the anchors
WeasyPrint's target collector holds, in order, once the styles are made and once the PDF is written.
Two deliberately wrong variants fail them: a style made with the root element as its parent (inherited
values wrong: the PDF bytes and the values differ), and styles whose cascade declares an ``anchor``
deferred too (that anchor collected only when the box building asks for the style, after a
``target-counter`` looked it up: the collected anchors differ; WeasyPrint 70 stores no target for a
pseudo-element, so the PDF of that case does not change). Two wrong tests for an empty ::before or
::after fail the PDF comparison: every deferred one taken for empty, and one taken for empty without
looking for a ``content`` in its cascade (generated content lost); and one for the reused cascades:
an element's pseudo-element cascades taken from the element whose style it shares without comparing the
pseudo-element types of their matched rules (a ``::before`` lost).
"""

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("weasyprint")

from weasyprint.css import properties as css_properties  # noqa: E402

from ccreport.render import pdf_styles  # noqa: E402
from ccreport.render.pdf_styles import (  # noqa: E402
    empty_pseudo_boxes_skipped,
    pseudo_styles_on_demand,
    shared_cascades_reused,
)

PSEUDO_TYPES = (
    "before", "after", "marker", "first-letter", "first-line", "footnote-call", "footnote-marker",
    "note-call", "note-marker", "note-callback",
)
HEAD = (
    "@page{size:300pt 260pt;margin:20pt;@bottom-center{content:counter(page)}} "
    "body{font-family:DejaVu Sans;font-size:9pt} *,*::before,*::after{box-sizing:border-box}"
)

# Each case asks for pseudo-element styles a different way: generated content with counters, quotes,
# attr() and var(); list markers (outside, inside, their own content, none); first letter and line;
# footnotes (their call and marker); pseudo-elements of table parts (whose margins and paddings
# StyleFor.__call__ zeroes), of hidden elements (never asked for) and of the root; inheritance from an
# element with its own style attribute; a pseudo-element anchor a link before it points to.
CASES = {
    "generated": (
        "body{counter-reset:c} h2{counter-increment:c} h2::before{content:counter(c) '. ';color:#a00}"
        "h2::after{content:' (' attr(data-x) ')';font-style:italic} q::before{content:open-quote}",
        "<h2 data-x='one'>A</h2><p>text <q>quoted <q>inner</q></q></p><h2 data-x='two'>B</h2><h2>C</h2>",
    ),
    "variables": (
        ":root{--gap:4pt;--mark:'*'} p::before{content:var(--mark);margin-right:var(--gap)} "
        "p.big::after{content:var(--missing, '!');font-size:var(--size, 2em)}",
        "<p>a</p><p class='big'>b</p><p style='--mark:\"#\"'>c</p>",
    ),
    "markers": (
        "ol li::marker{color:#0a0} ul.in{list-style-position:inside} ul.own{list-style-position:inside} ul.own li::marker{content:'> '}"
        "ul.none{list-style:none}",
        "<ol><li>one</li><li>two</li></ol><ul class='in'><li>in</li></ul><ul class='own'><li>own</li>"
        "<li>own again</li></ul><ul class='none'><li>none</li></ul>",
    ),
    "first letter and line": (
        "p::first-letter{font-size:200%;color:#00a} p::first-line{font-weight:bold} div::first-letter{float:left}",
        "<p>First paragraph with a long line that wraps on to the next line of the page.</p>"
        "<div>Div text</div><p>Second</p>",
    ),
    "footnotes": (
        ".fn{float:footnote} .fn::footnote-call{color:#a00} .fn::footnote-marker{font-weight:bold}",
        "<p>Text<span class='fn'>a note</span> and more<span class='fn'>another</span>.</p>",
    ),
    "tables": (
        "table{border-collapse:collapse} td::before{content:'>';padding:3pt} tr::after{content:'row'} "
        "th::before{content:attr(data-label)} table::before{content:'T'}",
        "<table><tr><th data-label='h'>head</th><td>a</td></tr><tr><td>b</td><td>c</td></tr></table>",
    ),
    "hidden": (
        ".gone{display:none} .gone::before{content:'never'} span::after{content:'+'}",
        "<div class='gone'><span>x</span></div><p><span>y</span> <span>z</span></p>",
    ),
    "root and inheritance": (
        "html::before{content:'root'} html::after{content:'end'} div::before{content:'in ';color:inherit}",
        "<div style='color:#080;font-size:12pt'>green</div><div>plain</div>",
    ),
    # ::before and ::after declaring what before_after_to_box reads, but no content (WeasyPrint's path), a
    # colour only (no box, the style never made), content through a variable, and content none
    "declared without content": (
        ":root{--c:'v'} p::before{display:block} p::after{float:left;position:absolute} div::before{color:#a00}"
        " div::after{content:none} span::before{content:var(--c)} span::after{display:var(--none, inline)}",
        "<p>p</p><div>div</div><p><span>span</span></p>",
    ),
    # elements whose style WeasyPrint shares: one rule matching one as a pseudo-element and another as
    # itself (the same rules, other pseudo-element types: WeasyPrint shares the style, the cascades differ),
    # siblings with an anchored pseudo-element, with ids, and rows of alike cells
    "shared styles": (
        "div .x::before, div span.y{color:#a00;content:'*'} li::before{-weasy-anchor:'dup';content:'>'}"
        " td::after{content:'.'} td.n{text-align:right}",
        "<div><span class='y'>y</span><span class='x'>x</span><span class='y'>y2</span><span class='x'>x2</span>"
        "</div><ul><li>a</li><li>b</li><li id='c'>c</li></ul><table>" + "<tr><td>k</td><td class='n'>1</td></tr>" * 6
        + "</table>",
    ),
    # no box for the root: WeasyPrint builds again through a style_for of its own (root_style_for)
    "hidden root": (
        "html{display:none} html::before{content:'root'} p::after{content:'p'}",
        "<p>text</p>",
    ),
    "pseudo anchor": (
        "a::after{content:' p. ' target-counter(attr(href), page)} h3::before{-weasy-anchor:'here';content:'>'}"
        " h3{break-before:page}",
        "<p id='top'><a href='#here'>there</a></p><h3>Heading</h3><p id='end'><a href='#here'>again</a></p>",
    ),
}


def _html(case: str) -> str:
    css, body = CASES[case] if case in CASES else case
    return f"<html><head><style>{HEAD} {css}</style></head><body>{body}</body></html>"


PATCH_SETS = {
    "on demand": (pseudo_styles_on_demand, empty_pseudo_boxes_skipped),
    "cascades reused": (pseudo_styles_on_demand, empty_pseudo_boxes_skipped, shared_cascades_reused),
}


@contextlib.contextmanager
def _patched(patches=PATCH_SETS["cascades reused"]):
    with contextlib.ExitStack() as stack:
        for patch in patches:
            stack.enter_context(patch())
        yield


def _render(html: str, patched: bool, patches=PATCH_SETS["cascades reused"]):
    """(PDF bytes, every style's values, the anchors collected once styled and once written) of ``html``."""
    import weasyprint
    import weasyprint.document as document_module

    captured = {}
    original = document_module.get_all_computed_styles

    def capture(*args, **kwargs):
        captured["collector"] = args[8]  # get_all_computed_styles(html, ..., layers, target_collector, forms)
        captured["style_for"] = style_for = original(*args, **kwargs)
        captured["styled"] = list(captured["collector"].target_lookup_items)  # what the box building starts from
        return style_for

    document_module.get_all_computed_styles = capture
    try:
        with _patched(patches) if patched else contextlib.nullcontext():
            source = weasyprint.HTML(string=html)
            pdf = source.write_pdf(pdf_identifier=b"test")
    finally:
        document_module.get_all_computed_styles = original
    anchors = (captured["styled"], list(captured["collector"].target_lookup_items))
    return pdf, _all_values(source, captured["style_for"]), anchors


def _all_values(source, style_for) -> list:
    from weasyprint.css.properties import INITIAL_VALUES

    values = []
    for element in source.etree_element.iter():
        for pseudo_type in (None, *PSEUDO_TYPES):
            style = style_for(element, pseudo_type)
            if style is None:
                values.append((element.tag, pseudo_type, None))
                continue
            values.append((element.tag, pseudo_type, [(name, repr(style[name])) for name in sorted(INITIAL_VALUES)]))
    return values


def _same(html: str) -> bool:
    return _render(html, patched=True) == _render(html, patched=False)


@pytest.mark.parametrize("patches", sorted(PATCH_SETS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_pseudo_styles_on_demand_give_the_same_styles_anchors_and_pdf(case, patches):
    patched, unpatched = _render(_html(case), True, PATCH_SETS[patches]), _render(_html(case), False)
    assert patched[0] == unpatched[0]
    assert patched[1] == unpatched[1]
    assert patched[2] == unpatched[2]


def test_the_cases_defer_and_make_styles():
    """The patch is at work in the cases: styles deferred, some made when asked for, some never."""
    import weasyprint
    import weasyprint.document as document_module

    made = []
    original = document_module.get_all_computed_styles

    def capture(*args, **kwargs):
        style_for = original(*args, **kwargs)
        made.append((style_for, dict(style_for.__dict__[pdf_styles.PENDING])))
        return style_for

    document_module.get_all_computed_styles = capture
    try:
        for patches in ((pseudo_styles_on_demand,), PATCH_SETS["on demand"]):
            with _patched(patches):
                weasyprint.HTML(string=_html("generated")).render()
    finally:
        document_module.get_all_computed_styles = original
    (styles_only, deferred), (both, _) = made
    never = styles_only.__dict__[pdf_styles.PENDING]
    assert len(deferred) > len(never) > 0
    h2 = [element for element, pseudo_type in deferred if element.tag == "h2" and pseudo_type == "before"]
    assert h2 and not any((element, "before") in never for element in h2)  # generated content: made
    skipped = [key for key in both.__dict__[pdf_styles.PENDING] if key[1] in ("before", "after")]
    assert len(skipped) > len([key for key in never if key[1] in ("before", "after")])  # made by one, not both


def _wrong_parent(set_computed, style_for, element, pseudo_type, cascaded, root, base_url, target_collector):
    cascaded_styles = style_for.get_cascaded_styles()
    cascaded_styles[element, pseudo_type] = cascaded
    try:
        set_computed(style_for, element, parent=root, root=root, pseudo_type=pseudo_type, base_url=base_url,
                     target_collector=target_collector)
    finally:
        del cascaded_styles[element, pseudo_type]


WRONG = {
    # made with the root as parent: values inherited from the root, not from the element
    "root as parent": ("make_deferred", _wrong_parent),
    # styles whose cascade declares an anchor deferred too: the anchor collected when first asked for
    "anchors deferred": ("deferrable", lambda cascaded: True),
    # a shared style's cascades reused whatever the pseudo-element types of the matched rules
    "pseudo-element types not compared": ("pseudo_types", lambda matched: ()),
    # every deferred ::before and ::after taken for empty: generated content lost
    "every pseudo-element boxless": ("boxless", lambda cascaded: True),
    # content not looked at, only what is read before it: generated content lost
    "content not looked at": ("boxless", lambda cascaded: not any(n in cascaded for n in ("display", "float", "position"))),
}


@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_a_wrong_deferral_fails_the_comparison(wrong, monkeypatch):
    name, function = WRONG[wrong]
    monkeypatch.setattr(pdf_styles, name, function)
    differs = [case for case in CASES if not _same_or_fails(_html(case))]
    assert differs, wrong


def _same_or_fails(html: str) -> bool:
    """Whether the patched rendering equals the unpatched one (False if it cannot be rendered)."""
    try:
        return _same(html)
    except Exception:  # a wrong variant WeasyPrint cannot lay out
        return False


def test_shared_cascades_reused_copy_weasyprints_init_and_build_fewer_cascades(monkeypatch):
    """WeasyPrint's StyleFor.__init__ is the source the copy was made from (else the cut would patch
    nothing), and the copy weighs fewer declarations for a document of alike siblings."""
    from weasyprint import css

    assert pdf_styles.source_sha256(css.StyleFor.__init__) == pdf_styles.STYLE_FOR_INIT_SHA256
    weighed = []
    precedence = css.declaration_precedence
    monkeypatch.setattr(css, "declaration_precedence", lambda *args: weighed.append(1) or precedence(*args))
    counts = []
    for patches in (PATCH_SETS["on demand"], PATCH_SETS["cascades reused"]):
        weighed.clear()
        _render(_html("shared styles"), True, patches)
        counts.append(len(weighed))
    assert counts[1] < counts[0]


def test_pseudo_styles_on_demand_patch_and_restore_weasyprint():
    from weasyprint import css
    from weasyprint.formatting_structure import build

    original = css.StyleFor.__init__
    boxes = build.before_after_to_box
    with _patched():
        with _patched():
            assert css.StyleFor.__init__ is not original and build.before_after_to_box is not boxes
        assert css.StyleFor.__init__ is not original and build.before_after_to_box is not boxes
    assert css.StyleFor.__init__ is original and build.before_after_to_box is boxes


def test_a_style_for_made_while_patched_makes_its_styles_after():
    """A StyleFor made inside the context and asked outside it still makes its deferred styles."""
    import weasyprint
    import weasyprint.document as document_module

    html = _html("generated")
    kept = {}
    original = document_module.get_all_computed_styles

    def capture(*args, **kwargs):
        kept["style_for"] = original(*args, **kwargs)
        return kept["style_for"]

    document_module.get_all_computed_styles = capture
    try:
        with _patched():
            patched_source = weasyprint.HTML(string=html)
            patched_source.render()
        patched = _all_values(patched_source, kept["style_for"])
        plain_source = weasyprint.HTML(string=html)
        plain_source.render()
        plain = _all_values(plain_source, kept["style_for"])
    finally:
        document_module.get_all_computed_styles = original
    assert patched == plain


CLASSES = st.sampled_from(["", "a", "b", "a b"])
TAGS = st.sampled_from(["div", "p", "span", "li", "em"])
TREES = st.recursive(
    st.sampled_from(["text", "more words", ""]),
    lambda children: st.tuples(TAGS, CLASSES, st.sampled_from(["", "color:#070", "font-size:11pt"]),
                               st.lists(children, max_size=3)),
    max_leaves=10,
)
RULES = st.lists(st.sampled_from([
    ".a::before{content:'A';color:#a00}", ".b::after{content:counter(n);font-size:80%}",
    "li::marker{color:#0a0}", "p::first-letter{font-weight:bold}", "div::before{content:attr(class)}",
    "span::after{content:none}", ".b{counter-increment:n}", ".a::first-line{color:#00a}",
    "p::after{display:block}", "div::after{color:#080}", "span::before{float:left;content:'f'}",
    "em::before{-weasy-anchor:'x';content:'*'}", "li{display:list-item}",
]), max_size=5)


def _tree_html(tree) -> str:
    if isinstance(tree, str):
        return tree
    tag, classes, style, children = tree
    return f"<{tag} class='{classes}' style='{style}'>" + "".join(map(_tree_html, children)) + f"</{tag}>"


@settings(max_examples=25, deadline=None)
@given(st.lists(TREES, min_size=1, max_size=3), RULES)
def test_pseudo_styles_on_demand_equal_weasyprints_for_random_documents(trees, rules):
    assert _same(_html((" ".join(rules), "".join(map(_tree_html, trees)))))


# uncascaded_values_direct: each case leaves properties undeclared where __missing__'s other steps matter:
# logical twins (margin-inline-start and others, in both directions), inherited math functions, custom
# properties, text decorations and pages, computed initial values (border and outline widths, column gap),
# font-relative lengths inherited down, the root's values.
VALUE_CASES = {
    "logical": (
        "p{margin-inline-start:10pt;padding-block-end:5pt;border-inline-end:2pt solid;inline-size:60%;"
        "min-block-size:2em;inset-inline-start:3pt;position:relative} .rtl{direction:rtl}",
        "<p>ltr</p><div class='rtl'><p>rtl</p><p style='margin-left:4pt'>rtl, left</p></div>",
    ),
    "inherited math": (
        "div{text-indent:calc(10% + 1em);letter-spacing:calc(1pt + 0.05em);word-spacing:calc(2pt + 0.1em);"
        "line-height:calc(1em + 2pt);font-size:12pt} span{font-size:8pt}",
        "<div><p>indented text <span>small</span> and more words on the line</p><p>again</p></div>",
    ),
    "custom properties": (
        ":root{--w:140pt;--c:#a00} div{width:var(--w);color:var(--c)} p{--w:60pt;border:1pt solid var(--c)}",
        "<div>outer<p><span>inner</span></p><div>nested</div></div>",
    ),
    "decorations and pages": (
        "div{text-decoration:underline} em{text-decoration:line-through} @page wide{size:400pt 200pt} "
        "section{page:wide}",
        "<div>under <em>through</em></div><section><p>on a wide page</p></section><p>back</p>",
    ),
    "computed initial values": (
        "div{border-style:solid;outline:1pt solid;columns:2;column-rule:1pt solid} p{border-top-style:dashed}"
        " table{border-collapse:collapse} td{border:1pt solid}",
        "<div><p>one</p><p>two</p></div><table><tr><td>a</td><td>b</td></tr></table>",
    ),
}


def _by_place(source, styles: dict) -> dict:
    """Each computed style's keys in insertion order, by the element's place in the tree (or the page type)
    and pseudo-element."""
    places = {element: index for index, element in enumerate(source.etree_element.iter())}
    return {(places.get(element, repr(element)), pseudo_type): list(style) for (element, pseudo_type), style in styles.items()}


def _values_render(html: str, patched: bool):
    """(PDF bytes, every computed style's keys as laid out and written, every box's style items, every
    style's values) of ``html``, with :func:`uncascaded_values_direct` or without."""
    import weasyprint
    import weasyprint.document as document_module

    from ccreport.render.pdf_styles import uncascaded_values_direct

    captured = {}
    original = document_module.get_all_computed_styles

    def capture(*args, **kwargs):
        captured["style_for"] = style_for = original(*args, **kwargs)
        return style_for

    document_module.get_all_computed_styles = capture
    try:
        with uncascaded_values_direct() if patched else contextlib.nullcontext():
            source = weasyprint.HTML(string=html)
            document = source.render()
            pdf = document.write_pdf(pdf_identifier=b"test")
            style_for = captured["style_for"]
            keys = _by_place(source, style_for.get_computed_styles())
            boxes = [
                (type(box).__name__, repr(list(box.style.items())))
                for page in document.pages for box in page._page_box.descendants(placeholders=True)
            ]
            values = _all_values(source, style_for)
    finally:
        document_module.get_all_computed_styles = original
    return pdf, keys, boxes, values


ALL_VALUE_CASES = {**CASES, **VALUE_CASES}


@pytest.mark.parametrize("case", sorted(ALL_VALUE_CASES))
def test_uncascaded_values_direct_give_the_same_styles_and_pdf(case):
    html = _html(ALL_VALUE_CASES[case])
    patched, unpatched = _values_render(html, True), _values_render(html, False)
    for name, mine, theirs in zip(("PDF", "style keys", "box styles", "values"), patched, unpatched):
        assert mine == theirs, name


def _wrongly(**changes):
    real = pdf_styles.direct_missing

    def wrong(original, keys, inherited, initial_values, not_computed, computers, physical, check_math):
        arguments = dict(original=original, keys=keys, inherited=inherited, initial_values=initial_values,
                         not_computed=not_computed, computers=computers, physical=physical, check_math=check_math)
        arguments.update(changes)
        return real(**arguments)

    return wrong


WRONG_VALUES = {
    # physical properties as if no logical twin existed (and the direction not read)
    "logical twins ignored": _wrongly(physical={}),
    # initial values stored as they are, border widths of 'medium' among them
    "initial values not computed": _wrongly(not_computed=frozenset()),
    # every property an inherited one
    "everything inherited": _wrongly(inherited=pdf_styles.direct_keys(css_properties)),
}


@pytest.mark.parametrize("wrong", sorted(WRONG_VALUES))
def test_a_wrong_direct_value_fails_the_comparison(wrong, monkeypatch):
    monkeypatch.setattr(pdf_styles, "direct_missing", WRONG_VALUES[wrong])
    differs = [case for case in VALUE_CASES if _wrong_pdf(_html(VALUE_CASES[case])) != _values_render(_html(VALUE_CASES[case]), False)[0]]
    assert differs, wrong  # the PDF itself differs (or is not written)


def _wrong_pdf(html: str):
    try:
        return _values_render(html, True)[0]
    except Exception as error:  # a wrong value WeasyPrint cannot lay out
        return repr(error)


def test_uncascaded_values_direct_patch_and_restore_weasyprint():
    from weasyprint import css

    from ccreport.render.pdf_styles import uncascaded_values_direct

    original = css.ComputedStyle.__missing__
    with uncascaded_values_direct():
        with uncascaded_values_direct():
            assert css.ComputedStyle.__missing__ is not original
        assert css.ComputedStyle.__missing__ is not original
    assert css.ComputedStyle.__missing__ is original


DECLARATIONS = st.sampled_from([
    "", "direction:rtl", "margin-inline-start:6pt", "padding-block-start:3pt", "border-inline-end:1pt solid",
    "font-size:11pt", "text-indent:calc(5% + 1em)", "--v:4pt", "margin-left:var(--v)", "text-decoration:underline",
    "inline-size:50%", "border-style:solid", "letter-spacing:0.1em", "float:left", "display:inline-block",
])
VALUE_TREES = st.recursive(
    st.sampled_from(["text", "more words", ""]),
    lambda children: st.tuples(TAGS, CLASSES, st.lists(DECLARATIONS, max_size=3).map(";".join),
                               st.lists(children, max_size=3)),
    max_leaves=10,
)


@settings(max_examples=25, deadline=None)
@given(st.lists(VALUE_TREES, min_size=1, max_size=3), RULES)
def test_uncascaded_values_direct_equal_weasyprints_for_random_documents(trees, rules):
    html = _html((" ".join(rules), "".join(map(_tree_html, trees))))
    assert _values_render(html, True) == _values_render(html, False)
