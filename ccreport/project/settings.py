"""What the analyses compute with: one frozen :class:`AnalysisSettings`, defined once.

Each setting is one field: its default, its allowed values (a :class:`Bound` for a number, a tuple
of choices for a string) and its one-line documentation live in the field's metadata. From this one
declaration come

* the manifest's ``[project]`` keys for the analyses, their reading, validation and defaults, and
  their rows in the manifest's documentation (:mod:`ccreport.project.manifest`);
* the ``settings`` object of ``results.json`` (:meth:`AnalysisSettings.to_dict`; the seed is written
  at the top level of ``results.json``, beside it);
* what every task of the battery receives, whole (:mod:`ccreport.tasks.battery`).

How to run (``workers``) is not a setting of the analyses: the results do not depend on it, so it
stays out of this record (the manifest's ``workers`` and ``ccreport build -j``).

A task that draws random numbers takes its generator from :func:`task_rng`: the project seed and
the task's stable key (its names), so a result depends neither on task order, nor on the number of
worker processes, nor on which tasks ran before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, fields

import numpy as np


@dataclass(frozen=True)
class Bound:
    """What a number must be: its description for messages and the test it must pass."""

    text: str
    accepts: Callable[[float], bool]
    integer: bool = False


OPEN_PROBABILITY = Bound("a number strictly between 0 and 1", lambda x: 0 < x < 1)
MAX_SEED = 2**64 - 1
MAX_BOOTSTRAP = 20_000  # a band keeps replicates x grid points in memory: 160 MB at 1001 points
SEED = Bound("an integer from 0 to 2**64 - 1", lambda x: 0 <= x <= MAX_SEED, integer=True)
REPLICATES = Bound(
    f"an integer from 500 to {MAX_BOOTSTRAP}", lambda x: 500 <= x <= MAX_BOOTSTRAP, integer=True
)

BANDS = ("pointwise", "simultaneous", "both")
CALIBRATIONS = ("auto", "double", "off")
THRESHOLD_AXES = ("pc", "cost_proportion", "both")  # which axis the threshold-choice figures draw
# the allowed values of a list of ranges
RANGES = "a list of [low, high] pairs with 0 <= low < high <= 1"
COMPARISON_RULES = ("auto", "all", "best")  # the keyword forms of ``comparisons``
COMPARISONS = (
    '"auto", "all", "best", { baseline = "<classifier>" } or a list of [a, b] pairs of '
    "classifier names"
)  # the allowed values of ``comparisons``, for messages and the manifest's documentation


@dataclass(frozen=True)
class Comparisons:
    """Which pairs of classifiers are compared (``[project] comparisons``;
    :mod:`ccreport.tasks.comparisons`).

    ``rule``: "auto", "all", "best" (the keyword forms), "baseline" (``baseline`` against every
    other classifier) or "pairs" (the explicit ``pairs``, each (a, b) in the order given).
    """

    rule: str = "auto"
    baseline: str | None = None
    pairs: tuple[tuple[str, str], ...] = ()

    def to_dict(self):
        """The manifest's own form: a keyword, ``{"baseline": name}`` or a list of [a, b] pairs."""
        if self.rule == "baseline":
            return {"baseline": self.baseline}
        if self.rule == "pairs":
            return [list(p) for p in self.pairs]
        return self.rule


def _setting(
    default,
    doc: str,
    *,
    bound: Bound | None = None,
    choices: tuple[str, ...] | None = None,
    ranges: bool = False,
    comparisons: bool = False,
):
    """One setting: a number (``bound``), a string (``choices``), a list of [low, high] ranges
    (``ranges``) or a choice of pairs (``comparisons``: a :class:`Comparisons`)."""
    return field(
        default=default,
        metadata={
            "doc": doc,
            "bound": bound,
            "choices": choices,
            "ranges": ranges,
            "comparisons": comparisons,
        },
    )


@dataclass(frozen=True)
class AnalysisSettings:
    """The manifest's settings of the analyses (``[project]`` keys of the same names)."""

    seed: int = _setting(2006, "seeds every resampling task.", bound=SEED)
    confidence: float = _setting(
        0.9, "confidence level of bootstrap intervals and bands.", bound=OPEN_PROBABILITY
    )
    bootstrap: int = _setting(
        1000,
        "bootstrap replicates (fewer leave the 5% tails of a 90% band to a handful of replicates).",
        bound=REPLICATES,
    )
    band: str = _setting("pointwise", "which confidence bands of the cost curves.", choices=BANDS)
    calibration: str = _setting(
        "auto",
        'double-bootstrap calibration of a scoring classifier\'s band ("auto": while n <= 10,000; '
        ":mod:`ccreport.analysis.calibration`).",
        choices=CALIBRATIONS,
    )
    partial_ranges: tuple[tuple[float, float], ...] = _setting(
        (),
        "ranges of x over which each threshold-choice curve's partial area is reported, on each "
        "axis's own x (Hernández-Orallo, Flach & Ferri 2013 section 8), e.g. [[0.1, 0.5], [0.5, "
        "0.9]].",
        ranges=True,
    )
    threshold_axis: str = _setting(
        "pc",
        'which axis the threshold-choice figures draw: "pc" (PC(+), the cost curves\' axis), '
        '"cost_proportion" (the 2013 paper\'s) or both; results.json always has both.',
        choices=THRESHOLD_AXES,
    )
    comparisons: Comparisons = _setting(
        Comparisons(),
        "which pairs of classifiers are compared (pair figures, tables, paired tests, Holm "
        'families): "all" pairs, "best" (every other classifier against the dataset\'s best: '
        "lowest in-sample expected cost under its first prior, ties to the first declared), a "
        'baseline against every other, or the listed pairs; "auto" is "all" while a dataset has at '
        'most 8 classifiers, else "best".',
        comparisons=True,
    )

    def to_dict(self) -> dict:
        """The ``settings`` object of results.json: every setting but the seed
        (written beside it)."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "seed"}
        out["partial_ranges"] = [list(r) for r in self.partial_ranges]
        out["comparisons"] = self.comparisons.to_dict()
        return out


SETTINGS = fields(AnalysisSettings)  # in declaration order
SETTING_KEYS = tuple(f.name for f in SETTINGS)


def describe_setting(f) -> str:
    """One documentation line for a setting: type, allowed values, default, what it does."""
    bound, choices = f.metadata["bound"], f.metadata["choices"]
    if f.metadata.get("ranges"):
        allowed, default = RANGES, "none"
    elif f.metadata.get("comparisons"):
        allowed, default = COMPARISONS, f'"{f.default.rule}"'
    else:
        allowed = bound.text if bound is not None else ", ".join(f'"{c}"' for c in choices)
        default = f'"{f.default}"' if isinstance(f.default, str) else f"{f.default}"
    return f"optional, {allowed}, default {default}: {f.metadata['doc']}"


def task_rng(seed: int, *key: str) -> np.random.Generator:
    """A generator for one task, from the project seed and the task's stable key (its names)."""
    digest = hashlib.sha256("\x1f".join(key).encode()).digest()
    spawn_key = tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=spawn_key))
