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
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

_lock = threading.Lock()
_users = 0
_original = None  # ParentBox.page_values as WeasyPrint defines it, while patched


def in_flow_or_floated(child) -> bool:
    """Whether ``ParentBox.page_values`` looks at this child (in normal flow, or floated)."""
    return child.is_in_normal_flow() or child.is_floated()


def edge_value(box, side: int, fast):
    """``box.page_values()[side]`` (0: start, 1: end), following only the first (last) child in flow
    or floated of each box whose ``page_values`` is ``fast`` (ParentBox's, patched)."""
    chain = []
    while box is not None and getattr(type(box), "page_values", None) is fast:  # not a placeholder's box
        chain.append(box)
        children = box.children if side == 0 else reversed(box.children)
        box = next((child for child in children if in_flow_or_floated(child)), None)
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
    global _users, _original
    try:
        from weasyprint.formatting_structure import boxes

        parent_box, box_class = boxes.ParentBox, boxes.Box
        defined = parent_box.__dict__["page_values"]
    except (ImportError, AttributeError, KeyError):  # pragma: no cover - another WeasyPrint: nothing patched
        yield
        return
    with _lock:
        patch = _users > 0 or own_value_follows_parent_box(parent_box, box_class)
        if patch:
            if _users == 0:
                _original = defined
                parent_box.page_values = ends_page_values
            _users += 1
    try:
        yield
    finally:
        if patch:
            with _lock:
                _users -= 1
                if _users == 0:
                    parent_box.page_values = _original
