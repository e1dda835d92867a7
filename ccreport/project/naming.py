"""Short, injective file-name stems and HTML ids derived from the names in a manifest.

Names of datasets, classifiers and priors are ``[A-Za-z0-9_.-]+`` of any length (manifest.py), but
they become file names, page names and HTML ids, where three things go wrong with the plain name:

* joining names is ambiguous: the pairs (``x``, ``y--vs--z``) and (``x--vs--y``, ``z``) both read
  ``x--vs--y--vs--z``, so one pair would show the other's figure;
* file systems fold case (``A`` and ``a`` on macOS and Windows), reject long names ("File name
  too long" beyond 255 bytes) and give ``.`` and ``..`` a meaning;
* a name may equal a name the report uses itself (a dataset named ``overview``).

So a name is used as it is only when it is *plain*: lower-case letters, digits, ``_``, ``.`` and
``-``, starting with a letter, digit or ``_``, at most :data:`MAX_PLAIN` characters, without
``--`` and not reserved by the caller. Any other name becomes a readable plain prefix, ``--``
and the first :data:`HASH_DIGITS` hex digits of the SHA-256 of the name. A plain stem has no
``--`` and a hashed one exactly one, so the two kinds never meet; two hashed stems meet only on a
48-bit hash collision. Stems of several names (a pair) join plain stems with ``--vs--`` (which
splits back uniquely since plain stems have no ``--``) and otherwise hash the whole tuple.
"""

from __future__ import annotations

import hashlib
import json
import re

MAX_PLAIN = 48
HASH_DIGITS = 12
PAIR_JOIN = "--vs--"
_PLAIN = re.compile(r"[a-z0-9_][a-z0-9_.-]*")


def is_plain(name: str, reserved=()) -> bool:
    """Whether ``name`` can be used unchanged as a file-name stem (see the module docstring)."""
    return (
        bool(_PLAIN.fullmatch(name))
        and len(name) <= MAX_PLAIN
        and "--" not in name
        and name not in reserved
    )


def _readable(text: str) -> str:
    """A plain prefix for a hashed stem: lower case, other characters and runs of '-' as one '-'."""
    s = re.sub(r"[^a-z0-9_.]+", "-", text.lower())
    s = re.sub(r"-+", "-", s).strip("-.")[: MAX_PLAIN - HASH_DIGITS - 2].strip("-.")
    return s or "x"


def _digest(value) -> str:
    return hashlib.sha256(json.dumps(value, ensure_ascii=True).encode()).hexdigest()[:HASH_DIGITS]


def stem(name: str, reserved=()) -> str:
    """The file-name stem of one name: the name itself when plain, else readable prefix + hash.

    ``reserved``: stems the caller uses for its own files (``overview``), never given to a name.
    """
    if is_plain(name, reserved):
        return name
    return f"{_readable(name)}--{_digest(name)}"


def pair_stem(a: str, b: str) -> str:
    """The stem of an ordered pair: ``a--vs--b`` when both are plain, else a hashed stem."""
    if is_plain(a) and is_plain(b):
        return f"{a}{PAIR_JOIN}{b}"
    return f"{_readable(a + '-vs-' + b)}--{_digest([a, b])}"


def html_id(*parts: str) -> str:
    """An HTML id unique per tuple of parts: parts joined by ``-`` when all plain, else hashed."""
    if all(is_plain(p) for p in parts):
        return "-".join(parts) if len(parts) == 1 else "--".join(parts)
    return f"{_readable('-'.join(parts))}--{_digest(list(parts))}"
