"""report.pdf's HTML tree from the standard library's tokenizer (ccreport.render.html_tree): the tree
tinyhtml5 builds, or None (and WeasyPrint parses) when the document leaves plain HTML."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ccreport.render.html_tree import parsed_html, plain_html_tree

tinyhtml5 = pytest.importorskip("tinyhtml5")


def _shape(element):
    """A tree as nested tuples: tag, attributes, text, tail, children (comments by their tag function)."""
    return (element.tag, dict(element.attrib), element.text, element.tail, [_shape(c) for c in element])


def _as_tinyhtml5(text: str):
    return _shape(tinyhtml5.parse(text, namespace_html_elements=False))


def _document(body: str, head: str = "<title>t</title>") -> str:
    return f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n{head}\n</head>\n<body>\n{body}\n</body>\n</html>\n'


def _agrees_with_tinyhtml5(text: str, plain: bool = False) -> None:
    """The tree of ``text`` is tinyhtml5's, or None (never None when ``plain``)."""
    root = plain_html_tree(text)
    assert root is not None or not plain
    if root is not None:
        assert _shape(root) == _as_tinyhtml5(text)


def _report_html(results, tmp_path, theme=None):
    import types

    from ccreport.render.pdf import report_html
    from ccreport.render.site import render_site
    from ccreport.results import results_to_json

    from site_fixtures import fake_figure_index

    (tmp_path / "results.json").write_text(results_to_json(results))
    project = None if theme is None else types.SimpleNamespace(root=tmp_path, theme=theme)
    site = render_site(results, project, tmp_path, fake_figure_index(results, tmp_path), pdf=True)
    return report_html(site, 1_790_000_000, attachments=True)


def test_the_example_report_is_plain_and_parsed_as_tinyhtml5_parses_it(tmp_path):
    from site_fixtures import example_results

    _agrees_with_tinyhtml5(_report_html(example_results(), tmp_path), plain=True)


def test_a_report_with_markup_in_its_names_is_parsed_as_tinyhtml5_parses_it(tmp_path):
    from site_fixtures import synthetic_results

    results = synthetic_results(("<script>alert(1)</script>", 'a&b "q"'), title="<b>Title</b> & co")
    _agrees_with_tinyhtml5(_report_html(results, tmp_path), plain=True)


@pytest.mark.parametrize(
    "body",
    [
        "<p>a &amp; b &lt;c&gt; &#8722; &#x2212; &nbsp;&middot; a & b</p>",
        "<pre>\nkept\n</pre><pre>\n\nsecond kept</pre>",
        '<p class="x" class="y" hidden title="&quot;q&quot;">first class wins</p>',
        "<table>\n<colgroup><col><col></colgroup>\n<thead><tr><th>a</th></tr></thead>\n<tbody>\n<tr><td>1<br>2</td></tr>\n</tbody>\n</table>",
        "<ul>\n<li>a<ul><li>b</li></ul></li>\n</ul><dl><dt>t</dt><dd>d</dd></dl>",
        "<div><!-- a comment --><em>e<strong>s</strong></em><img src=\"x.svg\" alt=\"\"/></div>",
        "<h2>a</h2><figure><img src=\"a.svg\"><figcaption>c</figcaption></figure>",
    ],
)
def test_plain_documents_give_tinyhtml5s_tree(body):
    _agrees_with_tinyhtml5(_document(body), plain=True)


def test_whitespace_around_the_structure_goes_where_html5_puts_it():
    text = "\n<!DOCTYPE html>\r\n<html>\n  <head>\n<title>t</title></head>\n \n<body><p>x</p></body>\n \n</html>\n\n"
    root = plain_html_tree(text)
    assert root is not None and _shape(root) == _as_tinyhtml5(text)
    assert root[1][-1].tail == "\n \n\n\n"  # after </body> and </html>: the end of the body


@pytest.mark.parametrize(
    "text",
    [
        "<html><head></head><body><p>x</p></body></html>",  # no doctype: quirks mode
        _document("<p>a<div>b</div></p>"),  # <div> closes the <p>
        _document("<p>a</p></p>"),  # a stray end tag makes an empty <p>
        _document("<b><i>x</b></i>"),  # misnested: the adoption agency
        _document("<li>x</li>"),  # a list item outside a list
        _document("<table><tr><td>x</td></tr></table>"),  # an implied <tbody>
        _document("<table><tbody>text<tr><td>x</td></tr></tbody></table>"),  # fostered text
        _document("<table><col></table>"),  # an implied <colgroup>
        _document("<table><tbody><div>x</div></tbody></table>"),  # a fostered element
        _document("<a href='a'><a href='b'>x</a></a>"),  # nested links
        _document("<h2><h3>x</h3></h2>"),  # a heading closes a heading
        _document("<svg viewBox='0 0 1 1'></svg>"),  # foreign content
        _document("<div/>x"),  # the slash of a non-void element is ignored
        _document("<p>a &amp b</p>"),  # a reference without its semicolon
        _document("<p>&notareference;</p>"),  # an unknown name
        _document("<!-- a -- b -->"),  # "--" inside a comment
        _document("<p>a < b</p>"),  # a "<" that starts no tag
        _document("<p title=x>unquoted</p>"),  # an unquoted attribute
        _document("<p>x</p>").replace("</body>", ""),  # no </body>
        _document("<textarea>\nx</textarea>"),  # raw text parsed differently
        _document("<p>a\0b</p>"),  # NUL
        _document("x", head="<title>t</title><div>y</div>"),  # a <div> ends the head
    ],
)
def test_documents_outside_plain_html_are_left_to_tinyhtml5(text):
    assert plain_html_tree(text) is None


TAGS = ["p", "div", "span", "em", "strong", "a", "b", "i", "ul", "ol", "li", "table", "thead", "tbody", "tr", "td",
        "th", "colgroup", "col", "br", "img", "pre", "h2", "h3", "dl", "dt", "dd", "figure", "code", "sub", "button"]
PIECES = st.one_of(
    st.sampled_from(TAGS).map(lambda t: f"<{t}>"),
    st.sampled_from(TAGS).map(lambda t: f"</{t}>"),
    st.sampled_from(["x", " ", "\n", "a &amp; b", "&lt;", "&nbsp;", "&#960;", "&copy", "& ", "<", "<!-- c -->",
                     '<span class="k" title="a&amp;b">', "<br/>", "<div/>", "\r\n", "\t"]),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=25))
def test_random_documents_give_tinyhtml5s_tree_or_none(pieces):
    """Whatever the markup (misnested, implied, malformed): the tree is tinyhtml5's, or None."""
    _agrees_with_tinyhtml5(_document("".join(pieces)))


VOID_TAGS = {"br", "img", "col"}


@st.composite
def _balanced(draw, depth=0):
    """Balanced markup with any element inside any other (a <div> in a <p>, a <tr> in a <ul>, ...)."""
    if depth >= 3 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(["x", " ", "\n", "a &amp; b", "<br>", "<img src='a'>", "<col>", "<!-- c -->"]))
    tag = draw(st.sampled_from(sorted(set(TAGS) - VOID_TAGS)))
    inner = "".join(draw(st.lists(_balanced(depth + 1), max_size=3)))
    return f"<{tag}>{inner}</{tag}>"


@settings(max_examples=400, deadline=None)
@given(st.lists(_balanced(), max_size=4))
def test_balanced_documents_give_tinyhtml5s_tree_or_none(parts):
    """Every element closed, but nested as HTML5 may not allow: the tree is tinyhtml5's, or None."""
    _agrees_with_tinyhtml5(_document("".join(parts)))


@st.composite
def _nested(draw, depth=0):
    """Well-formed markup: closed, nested as HTML5 allows without implied tags."""
    kind = draw(st.sampled_from(["text", "inline", "block", "list", "table"] if depth < 3 else ["text"]))
    if kind == "text":
        return draw(st.sampled_from(["x", " y ", "\n", "a &amp; b", "&#8722;", ""]))
    inner = "".join(draw(st.lists(_nested(depth + 1), max_size=3)))
    if kind == "inline":
        tag = draw(st.sampled_from(["span", "em", "strong", "code", "sub"]))
        return f"<{tag}>{inner}</{tag}>"
    if kind == "block":
        tag = draw(st.sampled_from(["div", "section", "figure", "blockquote"]))
        return f"<{tag}>{inner}</{tag}>"
    if kind == "list":
        return f"<ul>\n<li>{inner}</li>\n<li>x</li></ul>"
    return f"<table>\n<tbody>\n<tr><td>{inner}</td><th>h</th></tr>\n</tbody></table>"


@settings(max_examples=200, deadline=None)
@given(st.lists(_nested(), max_size=4))
def test_well_formed_documents_are_plain_and_give_tinyhtml5s_tree(parts):
    _agrees_with_tinyhtml5(_document("".join(parts)), plain=True)


def test_the_weasyprint_document_is_the_one_weasyprint_makes(tmp_path):
    """The object :func:`parsed_html` makes from the tree has the attributes ``weasyprint.HTML``
    gives it, with the same values (the same tree, base URL, media type and URL fetcher)."""
    from ccreport.render.weasyprint_import import import_weasyprint

    weasyprint = import_weasyprint()
    text = _document('<p>x</p><img src="a.svg" alt="">')
    fetcher = weasyprint.urls.URLFetcher()
    for base in (str(tmp_path) + "/", "https://example.org/x/"):
        fast = parsed_html(weasyprint, text, base, url_fetcher=fetcher)
        slow = weasyprint.HTML(string=text, base_url=base, url_fetcher=fetcher)
        assert set(vars(fast)) == set(vars(slow))
        assert (fast.base_url, fast.media_type, fast.url_fetcher) == (slow.base_url, slow.media_type, slow.url_fetcher)
        assert _shape(fast.etree_element) == _shape(slow.etree_element)
    with_base = _document("<p>x</p>", head='<base href="sub/">')
    assert parsed_html(weasyprint, with_base, str(tmp_path) + "/").base_url.endswith("/sub/")
