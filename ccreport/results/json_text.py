"""JSON text of a JSON-ready value, byte for byte ``json.dumps(value, indent=1, ensure_ascii=False,
allow_nan=False)``, written in chunks and several times faster.

``json`` uses its C encoder only without indentation; with ``indent`` every value goes through the
pure-Python encoder, a generator call per number. results.json is mostly flat lists of numbers
(curves, grids, replicate summaries), so :func:`write_json` encodes each such list in one call of
the C encoder (``[1.5, null, 2]``) and turns its separators into the indented layout (a flat list of
numbers holds ``", "`` only between its items), and a list of such lists (curves' ``[x, y]``
pairs) likewise (:func:`_write_rows`). Everything else follows the pure-Python encoder's
rules: keys of a dict in insertion order, ``": "`` after a key, ``","`` and a line break between
items, one space of indentation per level, ``[]`` and ``{}`` for empty containers, strings escaped
by ``json``'s own ``encode_basestring``.

Accepted values are those of :func:`ccreport.results.convert.clean`: dict (string keys), list,
tuple, str, int, float (finite), bool and None; anything else raises ``TypeError`` and a non-finite
float ``ValueError``, as ``json.dumps`` does.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring

_FLAT = frozenset((int, float, bool, type(None)))
_compact = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode


def write_json(value, write, level: int = 0) -> None:
    """Write the text of ``value`` at indentation ``level`` (its first line unindented, as a member
    of a container at ``level - 1``) by calls of ``write(str)``."""
    if isinstance(value, str):
        write(encode_basestring(value))
    elif isinstance(value, dict):
        if not value:
            write("{}")
            return
        inner = "\n" + " " * (level + 1)
        first = True
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"keys must be str here, not {type(key).__name__}")
            write(("{" if first else ",") + inner + encode_basestring(key) + ": ")
            first = False
            write_json(item, write, level + 1)
        write("\n" + " " * level + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            write("[]")
            return
        inner = "\n" + " " * (level + 1)
        if set(map(type, value)) <= _FLAT:
            write(
                "["
                + inner
                + _compact(list(value))[1:-1].replace(", ", "," + inner)
                + "\n"
                + " " * level
                + "]"
            )
            return
        if type(value[0]) in (list, tuple) and _write_rows(value, write, level):
            return
        first = True
        for item in value:
            write(("[" if first else ",") + inner)
            first = False
            write_json(item, write, level + 1)
        write("\n" + " " * level + "]")
    elif value is None or isinstance(value, (bool, int, float)):
        write(_compact(value))
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _write_rows(value, write, level: int) -> bool:
    """A list of non-empty flat lists of numbers (a curve's ``[x, y]`` pairs) in one call of the C
    encoder; False (nothing written) for any other list. In the compact text such a list is
    ``[[a, b], [c, d]]``: it opens and closes with a row, has no quotes or braces, and every ``[``
    but the first opens a row right after ``"], "`` closed the one before."""
    try:
        text = _compact(value)
    except (TypeError, ValueError):
        return False
    rows = text[1:-1]
    joins = rows.count("], [")
    if (
        not (rows.startswith("[") and rows.endswith("]"))
        or '"' in rows
        or "{" in rows
        or "[]" in rows
        or rows.count("[") != joins + 1
        or rows.count("]") != joins + 1
    ):
        return False
    outer, inner = "\n" + " " * (level + 1), "\n" + " " * (level + 2)
    body = (
        rows[1:-1]
        .replace("], [", "\0")
        .replace(", ", "," + inner)
        .replace("\0", outer + "]," + outer + "[" + inner)
    )
    write("[" + outer + "[" + inner + body + outer + "]" + "\n" + " " * level + "]")
    return True


def dumps(value) -> str:
    """The whole text of ``value`` as one string
    (``json.dumps(value, indent=1, ensure_ascii=False)``)."""
    parts: list[str] = []
    write_json(value, parts.append)
    return "".join(parts)
