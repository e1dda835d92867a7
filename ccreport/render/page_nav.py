"""Moving around a site page: its table of contents, read from the page's own rendered content, and
the intrinsic size of a figure's SVG (the ``width``/``height`` of its ``<img>``).

The contents are whatever the page shows, in page order, so they cannot disagree with it: each
``<h2 id=...>`` outside a folded part is a section entry (its text is the entry's), and each
``<details class="appendix" id=...>`` is an appendix entry titled by its ``<summary>``. Headings
inside a ``<details>`` belong to that part and are not listed. A heading inside an element that
carries the ``hidden`` attribute (the explorer, shown only once its script has run) is listed as
``hidden``: its contents line is hidden too, and the script that shows the part shows the line.
A page of templates that a project overrides gets the contents of what it renders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

SVG_HEAD_BYTES = 4096  # the <svg ...> start tag of a matplotlib SVG is within its first lines
PX_PER_PT = 96 / 72  # CSS: 1pt = 1/72 in, 1px = 1/96 in

_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*(pt|px)?\s*$")
_VOID = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()
)  # elements with no end tag: a ``hidden`` one hides nothing but itself
_SVG_TAG = re.compile(rb"<svg\b[^>]*>", re.S)
_ATTRIBUTE = re.compile(rb"""\b(width|height|viewBox)\s*=\s*["']([^"']*)["']""")


@dataclass(frozen=True)
class ContentsEntry:
    """One line of a page's contents: the fragment it links to, its text, and whether it opens a
    folded appendix part (``<details class="appendix">``) rather than a body section."""

    href: str
    text: str
    appendix: bool = False
    hidden: bool = False


class _ContentsReader(HTMLParser):
    """Collects :class:`ContentsEntry` items while parsing (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.entries: list[ContentsEntry] = []
        self._details_depth = 0  # <details> elements open around the parser's position
        self._heading: tuple[str, list[str]] | None = None  # an <h2>'s id and text so far
        self._summary: tuple[str, list[str]] | None = None  # an appendix's id and summary text
        self._pending_appendix: str | None = None  # an appendix whose <summary> is still to come
        self._summary_open = False
        self._hidden_tag: str | None = None  # the open element that carries ``hidden``
        self._hidden_depth = 0  # elements of that name open inside it, itself included

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        if tag not in _VOID:
            if self._hidden_tag is None and "hidden" in attributes:
                self._hidden_tag, self._hidden_depth = tag, 1
            elif tag == self._hidden_tag:
                self._hidden_depth += 1
        if tag == "details":
            self._details_depth += 1
            if (
                self._details_depth == 1
                and "appendix" in attributes.get("class", "").split()
                and attributes.get("id")
            ):
                self._pending_appendix = attributes["id"]
        elif tag == "summary" and self._pending_appendix is not None:
            self._summary = (self._pending_appendix, [])
            self._pending_appendix = None
        elif tag == "h2" and self._details_depth == 0 and attributes.get("id"):
            self._heading = (attributes["id"], [])

    def handle_endtag(self, tag: str) -> None:
        if tag == self._hidden_tag:
            self._hidden_depth -= 1
            if self._hidden_depth == 0:
                self._hidden_tag = None
        if tag == "details":
            self._details_depth = max(0, self._details_depth - 1)
            self._pending_appendix = None
        elif tag == "summary" and self._summary is not None:
            self._add(self._summary, appendix=True)
            self._summary = None
        elif tag == "h2" and self._heading is not None:
            self._add(self._heading, appendix=False)
            self._heading = None

    def handle_data(self, data: str) -> None:
        for open_item in (self._heading, self._summary):
            if open_item is not None:
                open_item[1].append(data)

    def _add(self, item: tuple[str, list[str]], appendix: bool) -> None:
        text = " ".join("".join(item[1]).split())
        if text:
            hidden = self._hidden_tag is not None
            self.entries.append(ContentsEntry("#" + item[0], text, appendix, hidden))


def page_contents(html: str) -> list[ContentsEntry]:
    """The contents of a page's rendered main content ``html``, in page order: its ``<h2 id>``
    sections outside any ``<details>``, and its ``<details class="appendix" id>`` parts titled by
    their ``<summary>`` (entries with no text are left out)."""
    reader = _ContentsReader()
    reader.feed(str(html))
    reader.close()
    return reader.entries


def _length_px(value: bytes) -> float | None:
    match = _LENGTH.match(value.decode("ascii", "replace"))
    if match is None:
        return None
    number = float(match.group(1))
    return number * PX_PER_PT if match.group(2) == "pt" else number


def svg_size(path: Path) -> tuple[int, int] | None:
    """The CSS pixel size (at 96 px per inch) of the SVG at ``path`` from its root element's
    ``width``/``height`` (``pt`` or ``px``), else from its ``viewBox`` (user units taken as px);
    ``None`` when the file is missing or states no positive size. An ``<img>`` given this size
    reserves its box before the file loads, so a lazily loaded figure does not move the page."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(SVG_HEAD_BYTES)
    except OSError:
        return None
    tag = _SVG_TAG.search(head)
    if tag is None:
        return None
    attributes = dict(_ATTRIBUTE.findall(tag.group(0)))
    width = _length_px(attributes.get(b"width", b""))
    height = _length_px(attributes.get(b"height", b""))
    if (width is None or height is None) and b"viewBox" in attributes:
        box = attributes[b"viewBox"].replace(b",", b" ").split()
        if len(box) == 4:
            try:
                width, height = float(box[2]), float(box[3])
            except ValueError:
                return None
    if width is None or height is None or width <= 0 or height <= 0:
        return None
    return max(1, round(width)), max(1, round(height))
