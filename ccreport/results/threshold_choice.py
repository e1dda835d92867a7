"""Result records of the threshold choice methods (Hernandez-Orallo, Flach & Ferri 2013)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .convert import dicts, interval_list, list_of_dicts


@dataclass(frozen=True, eq=False)
class PartialAreaResult:
    """``int_low^high`` of one threshold-choice curve, its bootstrap interval and (Kendall curves) its partial AOC."""

    low: float
    high: float
    area: float | None
    interval: tuple[float, float] | None = None
    aoc: float | None = None

    def to_dict(self) -> dict:
        out = {"low": self.low, "high": self.high, "area": self.area, "interval": interval_list(self.interval)}
        if self.aoc is not None:
            out["aoc"] = self.aoc
        return out


@dataclass(frozen=True, eq=False)
class ThresholdMethodResult:
    """One threshold choice method on one axis: exact area, interval, partial areas, drawable curve.

    ``curve`` (k, 2) points ``[x, y]`` (None, with ``not_applicable`` saying why, when the method
    does not apply: the Brier curve without probability scores).
    """

    area: float | None
    interval: tuple[float, float] | None
    partial: tuple[PartialAreaResult, ...]
    curve: np.ndarray | None
    not_applicable: str | None = None

    def to_dict(self) -> dict:
        out = {
            "area": self.area,
            "interval": interval_list(self.interval),
            "partial": list_of_dicts(self.partial),
            "curve": self.curve,
        }
        if self.not_applicable is not None:
            out["not_applicable"] = self.not_applicable
        return out


@dataclass(frozen=True, eq=False)
class ThresholdChoiceResult:
    """Every threshold choice method of one classifier: ``methods[axis][method]``.

    A crisp classifier has the one method ``score_fixed`` (its cost line) on each axis and a ``note``.
    ``shown_axes``: the axes the pages show (the manifest's ``threshold_axis``; results.json has both).
    """

    methods: dict[str, dict[str, ThresholdMethodResult]]
    note: str | None = None
    shown_axes: tuple[str, ...] = ("pc",)

    def to_dict(self) -> dict:
        out = {axis: dicts(by_method) for axis, by_method in self.methods.items()}
        if self.note is not None:
            out["note"] = self.note
        return out


@dataclass(frozen=True, eq=False)
class AreaDifference:
    """A paired bootstrap comparison of one area between two classifiers: a - b, interval, p-value."""

    difference: float
    interval: tuple[float, float]
    p_value: float

    def to_dict(self) -> dict:
        return {"difference": self.difference, "interval": list(self.interval), "p_value": self.p_value}


@dataclass(frozen=True, eq=False)
class ThresholdChoiceComparison:
    """Paired differences of threshold-choice areas of two scoring classifiers on the same resampled
    instances: ``differences[axis][name]`` with name ``kendall`` (Kendall area a - b: ranking quality)
    and ``skull_minus_optimal`` ((skull - optimal) of a minus that of b: what calibrating the scores
    would gain)."""

    differences: dict[str, dict[str, AreaDifference]]
    replicates: int
    level: float
    p_value_method: str

    def to_dict(self) -> dict:
        out = {axis: dicts(by_name) for axis, by_name in self.differences.items()}
        out["replicates"] = self.replicates
        out["level"] = self.level
        out["p_value_method"] = self.p_value_method
        return out
