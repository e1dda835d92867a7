"""Project narratives (markdown) to HTML, safe to put into a page.

Raw HTML in a narrative is escaped, not passed through, so a narrative cannot inject scripts or
pull resources from another host; links to outside hosts are shown as text with the address, so
the site makes no outside reference at all. The result is wrapped in ``Markup`` so the templates'
autoescaping leaves it alone.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

import markdown
from markdown.treeprocessors import Treeprocessor
from markupsafe import Markup

EXTENSIONS = ["tables", "fenced_code", "sane_lists", "smarty"]
_OUTSIDE = re.compile(r"^[a-z][a-z0-9+.-]*:|^//", re.IGNORECASE)


class _OfflineLinks(Treeprocessor):
    """Outside links become plain text "label (address)"; outside images become their alt text."""

    def run(self, root: etree.Element) -> None:
        for parent in root.iter():
            for i, child in enumerate(list(parent)):
                if child.tag == "a" and _OUTSIDE.match(child.get("href", "")):
                    child.tag = "span"
                    child.set("class", "outside-link")
                    address = child.attrib.pop("href")
                    child.attrib.pop("title", None)
                    label = "".join(child.itertext())
                    if label.strip() != address:
                        child.tail = f" ({address})" + (child.tail or "")
                elif child.tag == "img" and _OUTSIDE.match(child.get("src", "")):
                    replacement = etree.Element("span", {"class": "outside-image"})
                    replacement.text = f"[image: {child.get('alt', '')}]"
                    replacement.tail = child.tail
                    parent.remove(child)
                    parent.insert(i, replacement)


def _converter(heading_offset: int) -> markdown.Markdown:
    md = markdown.Markdown(extensions=EXTENSIONS, output_format="html")
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.treeprocessors.register(_OfflineLinks(md), "offline_links", 1)
    if heading_offset:
        md.treeprocessors.register(_ShiftHeadings(md, heading_offset), "shift_headings", 2)
    return md


class _ShiftHeadings(Treeprocessor):
    def __init__(self, md, offset: int):
        super().__init__(md)
        self.offset = offset

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            if re.fullmatch(r"h[1-6]", element.tag):
                element.tag = f"h{min(6, int(element.tag[1]) + self.offset)}"


def render_markdown(text: str | None, heading_offset: int = 1) -> Markup:
    """HTML of a narrative; headings shifted down by ``heading_offset`` (a page already has an
    h1)."""
    if not text:
        return Markup("")
    return Markup(_converter(heading_offset).convert(text))


def strip_leading_title(text: str | None, title: str) -> str | None:
    """Drop a narrative's first ``# heading`` when it just repeats the page title."""
    if not text:
        return text
    lines = text.lstrip().splitlines()
    if lines and lines[0].startswith("# ") and lines[0][2:].strip() == title.strip():
        return "\n".join(lines[1:]).lstrip("\n")
    return text
