"""The lists of figures and of tables of report.pdf, split into their columns here.

report.pdf's page 2 lists every numbered figure and table, one line an entry, three columns a list,
under a part heading ("Body", "Appendix") where the part changes. Set as one list with CSS
``columns: 3``, WeasyPrint balances the columns by laying the whole list out again and again, one
column height after another, on every layout of the page (CSS Multi-column Layout, "column-fill:
balance"). The balance is computed here instead, once, and each column is its own list.

A list is a sequence of *rows*, each one line: the part headings and the entries. A part heading
never ends a column (``break-after: avoid``), so it is glued to the entry after it into one unit of
two lines; every other entry is a unit of one line. The columns take the units in order; of all the
splits into at most ``count`` columns, the one chosen has the least tallest column ``H`` (in lines)
and fills each column with as many units as fit in ``H``, the first columns first: how balanced
columns are filled (the balancing height is the least that takes the whole list; each column is
filled up to it before the next starts).
"""

from __future__ import annotations

COLUMNS = 3


def item_rows(entries) -> list[tuple[str | None, object]]:
    """The rows of a list: ``(part, None)`` for a part heading where the part changes (and before
    the first entry), ``(None, entry)`` for each entry; ``entry.part`` names its part."""
    rows: list[tuple[str | None, object]] = []
    previous = object()
    for entry in entries:
        if entry.part != previous:
            rows.append((entry.part, None))
            previous = entry.part
        rows.append((None, entry))
    return rows


def _units(rows) -> list[list]:
    """Rows grouped into units no column break falls inside: a heading with the row after it."""
    units: list[list] = []
    glued = False
    for row in rows:
        if glued:
            units[-1].append(row)
        else:
            units.append([row])
        glued = row[1] is None
    return units


def _fill(sizes: list[int], height: int) -> list[int]:
    """Where each column starts when columns of ``height`` lines take units of ``sizes`` lines in
    order, each as many as fit (a unit taller than ``height`` alone in its column)."""
    starts, used = [0], 0
    for index, size in enumerate(sizes):
        if used and used + size > height:
            starts.append(index)
            used = 0
        used += size
    return starts


def balanced_columns(entries, count: int = COLUMNS) -> list[list[tuple[str | None, object]]]:
    """``entries`` (each with ``.part``) as at most ``count`` columns of rows (:func:`item_rows`),
    the tallest as short as can be, the columns filled in order up to it (the module's text).
    No entries: no columns."""
    if count < 1:
        raise ValueError(f"count must be at least 1, not {count}")
    units = _units(item_rows(entries))
    if not units:
        return []
    sizes = [len(unit) for unit in units]
    total = sum(sizes)
    # the least height whose filling needs at most ``count`` columns: at least the tallest unit
    # and total / count lines, at most the whole list in one column
    height = max(max(sizes), -(-total // count))
    starts = _fill(sizes, height)
    while len(starts) > count:
        height += 1
        starts = _fill(sizes, height)
    starts.append(len(units))
    bounds = list(zip(starts, starts[1:], strict=False))
    return [[row for unit in units[a:b] for row in unit] for a, b in bounds]
