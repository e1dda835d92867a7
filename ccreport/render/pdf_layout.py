"""What WeasyPrint's layout of report.pdf costs, cut without changing what it lays out.

* :func:`page_values_from_the_ends`: WeasyPrint names the page a box starts and ends on (CSS
  ``page``, for named pages) by ``ParentBox.page_values``: the box's own value, or that of its
  first and last child in flow or floated, recursively. It builds the list of *all* such children
  to take its first and last, and asks each of those two for *both* its values, so every ask walks
  every child of every box on the first and last edges of the tree (132,000 ``is_in_normal_flow``
  calls for the example: the block layout asks for each pair of siblings it places, the chapters'
  sections of hundreds of children among them). While the context is active the start value is
  found by scanning for the first such child from the start, down the first edge only, and the
  end value by scanning from the end, down the last edge only: the same child at each step, so
  the same values.
* :func:`percentages_inlined`: ``resolve_percentages`` sets a box's used margins, paddings, widths,
  heights and borders from its style (25,000 calls for the example, each going through 14 calls of
  ``resolve_one_percentage`` and ``percentage``). While the context is active the same assignments
  are made in one function, plain lengths and percentages computed inline as ``percentage``
  computes them and anything else (``calc()`` and other math) handed to ``percentage`` itself.
"""

from __future__ import annotations

import importlib
import sys
from contextlib import contextmanager
from math import inf

from .shared_patch import SharedPatch

_page_values_patch = SharedPatch()
_percentages_patch = SharedPatch()


def in_flow_or_floated(child) -> bool:
    """Whether ``ParentBox.page_values`` looks at this child (in normal flow, or floated)."""
    return child.is_in_normal_flow() or child.is_floated()


def edge_value(box, side: int, fast):
    """``box.page_values()[side]`` (0: start, 1: end), following only the first (last) child in flow
    or floated of each box whose ``page_values`` is ``fast`` (ParentBox's, patched)."""
    chain = []
    while box is not None and getattr(type(box), "page_values", None) is fast:  # not a placeholder's box
        chain.append(box)
        for child in box.children if side == 0 else reversed(box.children):
            if in_flow_or_floated(child):
                box = child
                break
        else:
            box = None
    value = None if box is None else box.page_values()[side]  # a leaf, a table: its own method
    for parent in reversed(chain):
        value = value or parent.style["page"]  # ParentBox's `child value or own value`
    return value


def ends_page_values(self):
    """``ParentBox.page_values`` (WeasyPrint 70), each value found from its own end."""
    return edge_value(self, 0, ends_page_values), edge_value(self, 1, ends_page_values)


def own_value_follows_parent_box(parent_box, box_class) -> bool:
    """Whether, for every subclass of ParentBox, ``super().page_values()`` inside ParentBox's method
    is ``Box.page_values`` (the box's own ``style['page']`` twice), as the patch assumes."""
    stack = [parent_box]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        mro = cls.__mro__
        after = mro[mro.index(parent_box) + 1:]
        owner = next(c for c in after if "page_values" in c.__dict__)
        if owner is not box_class:
            return False
    return True


@contextmanager
def page_values_from_the_ends():
    """While active, ``ParentBox.page_values`` finds the start value down the first edge of the box
    tree and the end value down the last one (module docstring): for each box, its first (last)
    child that is in normal flow or floated is the one WeasyPrint's list of them starts (ends)
    with, and WeasyPrint's start (end) value depends only on that child's start (end) value and the
    box's own ``style['page']``. A box whose class defines its own ``page_values`` (tables) is asked
    through it. If WeasyPrint's classes are not as this assumes, nothing is patched."""
    try:
        from weasyprint.formatting_structure import boxes

        parent_box, box_class = boxes.ParentBox, boxes.Box
        parent_box.__dict__["page_values"]  # ParentBox defines it (else KeyError: nothing patched)
    except (ImportError, AttributeError, KeyError):  # pragma: no cover - another WeasyPrint: nothing patched
        yield
        return

    with _page_values_patch.attribute_set(
        parent_box, "page_values", ends_page_values, when=lambda: own_value_follows_parent_box(parent_box, box_class)
    ):
        yield


# The modules of WeasyPrint 70 that call resolve_percentages (imported before patching, so that none
# binds the patched function by importing it while the context is active)
_PERCENT_USERS = ("absolute", "block", "column", "flex", "float", "grid", "inline", "page", "percent", "table")
_BORDER_WIDTHS = tuple(f"border_{side}_width" for side in ("top", "right", "bottom", "left"))


def inlined_resolve_percentages(percent, dimension, box_class, page_class):
    """WeasyPrint 70's ``percent.resolve_percentages``, written out (see :func:`percentages_inlined`)."""
    percentage, check_math, adjust_box_sizing = percent.percentage, percent.check_math, percent.adjust_box_sizing

    def used(value, style, refer_to):
        """``percentage(value, style, refer_to)``: a length in px or %, 'auto' and None here, the rest there."""
        if type(value) is dimension:
            unit = value.unit
            if unit == "%":
                return refer_to * value.value / 100
            if unit is not None:
                return value.value
        elif value is None or value == "auto":
            return value
        return percentage(value, style, refer_to)

    def resolve_percentages(box, containing_block):
        if isinstance(containing_block, box_class):
            cb_width, cb_height = containing_block.width, containing_block.height
        else:
            cb_width, cb_height = containing_block
        maybe_height = cb_height if isinstance(box, page_class) else cb_width
        style = box.style
        box.margin_left = used(style["margin_left"], style, cb_width)
        box.margin_right = used(style["margin_right"], style, cb_width)
        box.margin_top = used(style["margin_top"], style, maybe_height)
        box.margin_bottom = used(style["margin_bottom"], style, maybe_height)
        box.padding_left = used(style["padding_left"], style, cb_width)
        box.padding_right = used(style["padding_right"], style, cb_width)
        box.padding_top = used(style["padding_top"], style, maybe_height)
        box.padding_bottom = used(style["padding_bottom"], style, maybe_height)
        box.width = used(style["width"], style, cb_width)
        min_width = used(style["min_width"], style, cb_width)
        box.min_width = 0 if min_width == "auto" else min_width  # resolve_one_percentage's rule for min_*
        box.max_width = used(style["max_width"], style, cb_width)
        if cb_height == "auto":
            height = style["height"]
            if height == "auto" or check_math(height) or height.unit == "%":
                box.height = "auto"
            else:
                assert height.unit.lower() == "px"
                box.height = height.value
            min_height = used(style["min_height"], style, 0)
            box.min_height = 0 if min_height == "auto" else min_height
            box.max_height = used(style["max_height"], style, inf)
        else:
            box.height = used(style["height"], style, cb_height)
            min_height = used(style["min_height"], style, cb_height)
            box.min_height = 0 if min_height == "auto" else min_height
            box.max_height = used(style["max_height"], style, cb_height)
        collapse = style["border_collapse"] == "collapse"
        for name in _BORDER_WIDTHS:
            if not (collapse and hasattr(box, name)):  # collapsed borders are resolved by the table layout
                setattr(box, name, style[name])
        if style["box_sizing"] != "content-box":  # content-box: adjust_box_sizing subtracts nothing
            adjust_box_sizing(box, "width")
            adjust_box_sizing(box, "height")

    return resolve_percentages


@contextmanager
def percentages_inlined():
    """While active, every WeasyPrint module's ``resolve_percentages`` is
    :func:`inlined_resolve_percentages` (module docstring): the same attributes set to the same
    values in the same order of style lookups, a min-width or min-height of 'auto' set to 0 as
    ``resolve_one_percentage`` sets it, ``adjust_box_sizing`` called unless the box sizing is
    ``content-box`` (for which it changes nothing)."""
    try:
        modules = [importlib.import_module(f"weasyprint.layout.{name}") for name in _PERCENT_USERS]
        from weasyprint.css.properties import Dimension
        from weasyprint.formatting_structure import boxes
        from weasyprint.layout import percent

        original = percent.resolve_percentages
        fast = inlined_resolve_percentages(percent, Dimension, boxes.Box, boxes.PageBox)
    except (ImportError, AttributeError):  # pragma: no cover - another WeasyPrint: nothing patched
        yield
        return

    def apply():
        users = set(modules) | {m for n, m in list(sys.modules.items()) if n.startswith("weasyprint.")}
        patched = [m for m in users if getattr(m, "resolve_percentages", None) is original]
        for module in patched:
            module.resolve_percentages = fast

        def undo():
            for module in patched:
                module.resolve_percentages = original

        return undo

    with _percentages_patch.applied(apply):
        yield
