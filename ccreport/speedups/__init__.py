"""Speedups that need a library's internals: one switch, and each turns itself off when its library
changes.

The build's own code uses libraries through their public APIs only. What is here replaces a private
piece of a library for speed alone: the output it gives is the output the build gives without it
(results.json and every HTML page byte-identical; tests build both ways).

Contract of every speedup module in this package:

* its module docstring's first line says what it replaces and what it saves (measurements are in
  benchmarks/README.md);
* it is entered through :func:`active`, which is false when ``CCREPORT_SPEEDUPS=0`` is set in the
  environment, or when the installed version of the library it patches is not one it was written
  against (a debug note on the ``ccreport.speedups`` logger says which and why);
* it patches nothing on import.
"""

from __future__ import annotations

import logging
import os
from functools import cache
from importlib import metadata

log = logging.getLogger("ccreport.speedups")

SWITCH = "CCREPORT_SPEEDUPS"


def enabled() -> bool:
    """False when the environment turns every speedup off (``CCREPORT_SPEEDUPS=0``, ``off``, ``no``
    or ``false``); read at each call, so a test or a notebook can switch it."""
    return os.environ.get(SWITCH, "1").strip().lower() not in {"0", "off", "no", "false"}


@cache
def _installed(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def version_prefix(version: str, parts: int) -> tuple[str, ...]:
    """The first ``parts`` dot-separated fields of ``version`` ("70.0.1", 2 -> ("70", "0"))."""
    return tuple(version.split(".")[:parts])


def active(name: str, distribution: str, written_for: tuple[str, ...]) -> bool:
    """Whether speedup ``name`` may run: speedups are enabled and the installed ``distribution``
    starts with one of the versions in ``written_for`` (each "MAJOR" or "MAJOR.MINOR"); when it may
    not, a debug note says why, once per process and speedup."""
    if not enabled():
        return False
    installed = _installed(distribution)
    fits = installed is not None and any(
        version_prefix(installed, v.count(".") + 1) == tuple(v.split(".")) for v in written_for
    )
    if not fits:
        _note_off(name, distribution, installed, written_for)
    return fits


@cache
def _note_off(
    name: str, distribution: str, installed: str | None, written_for: tuple[str, ...]
) -> None:
    log.debug(
        "speedup %s is off: written for %s %s, installed %s",
        name,
        distribution,
        " or ".join(written_for),
        installed or "none",
    )
