"""report.pdf's HTML parsed by the standard library's tokenizer, into the tree WeasyPrint's parser builds.

WeasyPrint parses its input with tinyhtml5, a pure-Python HTML5 parser that reads the document
character by character: 0.34 CPU s for the example's 350 kB report, a tenth of what the whole
report costs to lay out. The report is HTML that ccreport's templates wrote, with every element
closed and nested, and for such "plain" HTML the HTML5 tree-construction algorithm does nothing but
open and close elements: no end tag is implied, nothing is moved, nothing is re-parented. Python's
``html.parser`` (regular expressions over the whole text, about 0.04 s here) then gives the same
events, and :func:`plain_html_tree` builds from them the very tree tinyhtml5 builds
(``xml.etree.ElementTree`` elements: tags, attributes, text and tails, comments), with HTML5's few
rules that still apply to plain HTML: whitespace before ``<head>`` is dropped, whitespace after
``</body>`` and ``</html>`` goes to the end of the body, a newline right after ``<pre>`` is dropped,
an attribute without a value is ``""``, the first of two equal attribute names wins, CR LF is LF.

Anything outside that subset makes :func:`plain_html_tree` answer None, and the caller parses with
tinyhtml5 as WeasyPrint would: a missing doctype (quirks mode), an end tag that does not close the
current element (implied end tags, misnesting, the adoption agency), a block that would close an
open ``<p>``, a list item outside a list, a table part outside its table part (implied ``<tbody>``,
foster parenting), text directly inside table structure, nested links, headings or buttons,
foreign content (``<svg>``, ``<math>``), raw-text and form elements whose parsing is special, a
``<`` that does not start a tag or comment, a character reference that is not complete (``&`` then a
known name or a number, then ``;``), comments containing ``--``, NUL characters, an unquoted or
malformed attribute. Equal trees are tested on every report the test suite builds and on random
documents (tests/test_html_tree.py).
"""

from __future__ import annotations

import html.entities
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from urllib.parse import urljoin

HTML_WHITESPACE = "\t\n\f\r "
VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# start tags that close an open <p> (HTML5 "in body": close a p element in button scope)
CLOSES_P = frozenset(
    "address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer "
    "header hgroup main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre listing form plaintext "
    "table hr xmp li dd dt".split()
)
HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
# whose tree construction is more than "open an element" (raw text, forms, foreign content, frames,
# implied structure, renamed tags): never plain
SPECIAL = frozenset(
    "html head body title base basefont bgsound script noscript template textarea listing plaintext xmp "
    "iframe noembed noframes frameset frame select option optgroup datalist form input keygen image isindex "
    "svg math nobr applet marquee object rb rp rt rtc menuitem".split()
)
IN_HEAD = frozenset("meta link title base style".split())
# table structure: what each table element may hold directly (anything else is fostered or implied)
TABLE_CHILDREN = {
    "table": frozenset("caption colgroup thead tbody tfoot".split()),
    "thead": frozenset({"tr"}),
    "tbody": frozenset({"tr"}),
    "tfoot": frozenset({"tr"}),
    "tr": frozenset({"td", "th"}),
    "colgroup": frozenset({"col"}),
}
TABLE_PARENT = {
    "caption": {"table"}, "colgroup": {"table"}, "thead": {"table"}, "tbody": {"table"}, "tfoot": {"table"},
    "tr": {"thead", "tbody", "tfoot"}, "td": {"tr"}, "th": {"tr"}, "col": {"colgroup"},
    "li": {"ul", "ol", "menu"}, "dd": {"dl"}, "dt": {"dl"},
}

_START_TAG = re.compile(
    r"<[A-Za-z][A-Za-z0-9-]*"
    r"""(?:[\t\n\f\r ]+[A-Za-z_:][A-Za-z0-9_:.-]*(?:=(?:"[^"]*"|'[^']*'))?)*"""
    r"[\t\n\f\r ]*/?>\Z"
)
_LT = re.compile(r"<(?![A-Za-z]|/[A-Za-z]|!--|!DOCTYPE html>)")
_AMPERSAND = re.compile(r"&(?!#[0-9]+;|#[xX][0-9a-fA-F]+;|[A-Za-z][A-Za-z0-9]*;|[\t\n\f\r <&])")
_NAMED = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
_COMMENT = re.compile(r"<!--(.*?)-->", re.S)


class _NotPlain(Exception):
    """The document leaves plain HTML (module docstring): tinyhtml5 must build its tree."""


def _whitespace(data: str) -> bool:
    return not data.strip(HTML_WHITESPACE)


def _append_text(parent: ET.Element, data: str) -> None:
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + data
    else:
        parent.text = (parent.text or "") + data


class _TreeBuilder(HTMLParser):
    """html.parser events -> the HTML5 tree of a plain document; raises _NotPlain otherwise."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.phase = "initial"  # initial, doctype, before head, head, after head, body, after body, after html
        self.stack: list[ET.Element] = []
        self.skip_newline = False

    # --- tokens -----------------------------------------------------------------------------------

    def handle_decl(self, decl):
        if self.phase != "initial" or decl != "DOCTYPE html":
            raise _NotPlain("doctype")
        self.phase = "doctype"

    def handle_startendtag(self, tag, attrs):
        if tag not in VOID:  # HTML5 ignores the slash of <div/>: an open element
            raise _NotPlain(f"<{tag}/>")
        self.handle_starttag(tag, attrs)

    def handle_starttag(self, tag, attrs):
        self.skip_newline = False
        if not _START_TAG.match(self.get_starttag_text()):
            raise _NotPlain("attribute syntax")
        attrib = {}
        for name, value in attrs:
            attrib.setdefault(name, "" if value is None else value)
        if self.phase == "doctype" and tag == "html":
            self.stack = [ET.Element("html", attrib)]
            self.phase = "before head"
            return
        if self.phase == "before head" and tag == "head":
            self._open(tag, attrib)
            self.phase = "head"
            return
        if self.phase == "after head" and tag == "body":
            self._open(tag, attrib)
            self.phase = "body"
            return
        if self.phase == "head" and tag in IN_HEAD and self.stack[-1].tag == "head":
            self._open(tag, attrib)
            return
        if self.phase != "body" or tag in SPECIAL:
            raise _NotPlain(f"<{tag}> in {self.phase}")
        parent = self.stack[-1].tag
        open_tags = {e.tag for e in self.stack}
        if parent in TABLE_CHILDREN and tag not in TABLE_CHILDREN[parent]:
            raise _NotPlain(f"<{tag}> in <{parent}>")
        if tag in TABLE_PARENT and parent not in TABLE_PARENT[tag]:
            raise _NotPlain(f"<{tag}> in <{parent}>")
        if (tag in CLOSES_P and "p" in open_tags) or (tag in HEADINGS and parent in HEADINGS) \
                or (tag in ("a", "button") and tag in open_tags):
            raise _NotPlain(f"<{tag}> closes an element")
        self._open(tag, attrib)
        if tag == "pre":
            self.skip_newline = True

    def handle_endtag(self, tag):
        self.skip_newline = False
        top = self.stack[-1].tag if self.stack else None
        if self.phase == "body" and tag == "body" and top == "body":
            self.phase = "after body"  # the body stays open: what follows is added to it
        elif self.phase == "after body" and tag == "html":
            self.phase = "after html"
        elif self.phase in ("head", "body") and tag == top and tag not in VOID and tag not in ("html", "body"):
            self.stack.pop()
            if tag == "head":
                self.phase = "after head"
        else:
            raise _NotPlain(f"</{tag}> in {self.phase}")

    def handle_data(self, data):
        if self.skip_newline and data.startswith("\n"):
            data = data[1:]
        self.skip_newline = False
        if not data:
            return
        if "\0" in data:
            raise _NotPlain("NUL")
        if self.phase in ("initial", "doctype", "before head"):
            if _whitespace(data):
                return
            raise _NotPlain("text before <head>")
        top = self.stack[-1]
        if self.phase == "head" and top.tag == "head" and not _whitespace(data):
            raise _NotPlain("text in <head>")
        if self.phase in ("after head", "after body", "after html") and not _whitespace(data):
            raise _NotPlain(f"text {self.phase}")
        if top.tag in TABLE_CHILDREN and not _whitespace(data):
            raise _NotPlain(f"text in <{top.tag}>")
        _append_text(top, data)

    def handle_comment(self, data):
        self.skip_newline = False
        if self.phase not in ("head", "body"):
            raise _NotPlain(f"comment {self.phase}")
        self.stack[-1].append(ET.Comment(data))

    def handle_pi(self, data):
        raise _NotPlain("processing instruction")

    def unknown_decl(self, data):
        raise _NotPlain("declaration")

    def _open(self, tag, attrib):
        element = ET.SubElement(self.stack[-1], tag, attrib)
        if tag not in VOID:
            self.stack.append(element)


def _plain_source(text: str) -> bool:
    """What the tokens cannot show: every ``<`` starts a tag, an end tag, a comment or the doctype;
    every ``&`` starts a complete character reference (or is a bare ampersand); comments are clean."""
    if _LT.search(text) or _AMPERSAND.search(text):
        return False
    if any(name + ";" not in html.entities.html5 for name in set(_NAMED.findall(text))):
        return False
    comments = _COMMENT.findall(text)
    if text.count("<!--") != len(comments):
        return False
    return not any("--" in c or c.startswith((">", "->")) or c.endswith("-") for c in comments)


def plain_html_tree(text: str) -> ET.Element | None:
    """The root ``<html>`` element tinyhtml5 (``namespace_html_elements=False``) builds from ``text``,
    when ``text`` is plain HTML (module docstring); else None."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # HTML5's input stream preprocessing
    if not _plain_source(text):
        return None
    builder = _TreeBuilder()
    try:
        builder.feed(text)
        builder.close()
    except _NotPlain:
        return None
    if builder.phase not in ("after body", "after html"):
        return None
    return builder.stack[0]


def parsed_html(weasyprint, string: str, base_url: str, **options):
    """``weasyprint.HTML(string=string, base_url=base_url, **options)``, its tree built by
    :func:`plain_html_tree` when the document is plain (else WeasyPrint parses it). The object is
    made as WeasyPrint 70's ``HTML.__init__`` makes it, from the tree (pinned by tests/test_html_tree.py)."""
    root = plain_html_tree(string)
    if root is None or set(options) - {"url_fetcher"}:
        return weasyprint.HTML(string=string, base_url=base_url, **options)
    try:
        import cssselect2

        from weasyprint.urls import URLFetcher, ensure_url
    except ImportError:  # pragma: no cover - another WeasyPrint: its own parser
        return weasyprint.HTML(string=string, base_url=base_url, **options)
    base_url = None if base_url is None else ensure_url(base_url)
    base = next(iter(root.iter("base")), None)  # the document base URL (HTML5): the first <base href>
    href = "" if base is None else base.get("href", "").strip()
    document = weasyprint.HTML.__new__(weasyprint.HTML)
    document.base_url = urljoin(base_url, href) if href else base_url
    document.url_fetcher = options.get("url_fetcher") or URLFetcher()
    document.media_type = "print"
    document.wrapper_element = cssselect2.ElementWrapper.from_html_root(root, content_language=None)
    document.etree_element = document.wrapper_element.etree_element
    return document
