"""Result records of the threshold choice methods (Hernandez-Orallo, Flach & Ferri 2013)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .convert import dicts, interval_list, list_of_dicts


@dataclass(frozen=True, eq=False)
class PartialAreaResult:
    """``int_low^high`` of one threshold-choice curve, its bootstrap interval and (Kendall curves)
    its partial AOC."""

    low: float
    high: float
    area: float | None
    interval: tuple[float, float] | None = None
    aoc: float | None = None

    def to_dict(self) -> dict:
        out = {
            "low": self.low,
            "high": self.high,
            "area": self.area,
            "interval": interval_list(self.interval),
        }
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
    # where ``interval`` comes from when the quantity has its canonical interval elsewhere
    # (:func:`with_canonical_intervals`): a results.json path relative to the classifier
    interval_source: str | None = None

    def to_dict(self) -> dict:
        out = {
            "area": self.area,
            "interval": interval_list(self.interval),
            "partial": list_of_dicts(self.partial),
            "curve": self.curve,
        }
        if self.not_applicable is not None:
            out["not_applicable"] = self.not_applicable
        if self.interval_source is not None:
            out["interval_source"] = self.interval_source
        return out


@dataclass(frozen=True, eq=False)
class ThresholdChoiceResult:
    """Every threshold choice method of one classifier: ``methods[axis][method]``.

    A crisp classifier has the one method ``score_fixed`` (its cost line) on each axis and a
    ``note``. ``shown_axes``: the axes the pages show (the manifest's ``threshold_axis``;
    results.json has both).
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
    """A paired bootstrap comparison of one area between two classifiers: a - b, interval,
    p-value."""

    difference: float
    interval: tuple[float, float]
    p_value: float

    def to_dict(self) -> dict:
        return {
            "difference": self.difference,
            "interval": list(self.interval),
            "p_value": self.p_value,
        }


@dataclass(frozen=True, eq=False)
class ThresholdChoiceComparison:
    """Paired differences of threshold-choice areas of two scoring classifiers on the same resampled
    instances: ``differences[axis][name]`` with name ``kendall`` (Kendall area a - b: ranking
    quality) and ``skull_minus_optimal`` ((skull - optimal) of a minus that of b: what calibrating
    the scores would gain)."""

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


# the area of the optimal curve on the pc axis and an expected cost under a uniform prior on [0, 1]
# are one integral (D&H 2006 section 4.2: the expected cost under the uniform prior is the area
# under the lower envelope); computed twice they agree to rounding
SAME_AREA_ATOL = 1e-9


def with_canonical_intervals(
    threshold_choice: ThresholdChoiceResult | None,
    expected_cost: dict,
    expected_cost_interval: dict | None,
    uniform_priors,
) -> ThresholdChoiceResult | None:
    """The threshold-choice result with the ``optimal`` area on the ``pc`` axis given its canonical
    interval.

    That area is int_0^1 of the lower envelope over PC(+), the classifier's expected cost under a
    uniform prior on [0, 1] (D&H 2006 section 4.2). The expected-cost interval is the canonical one
    (optimism-corrected and calibrated, :mod:`ccreport.tasks.bands_task`); the threshold-choice
    task's own percentile interval of the same area (the replicates' in-sample areas, not corrected)
    is replaced by it, and ``interval_source`` names where it comes from
    (``expected_cost_interval.<prior>``), so every page and results.json show the one interval.
    ``uniform_priors``: the names of the dataset's priors that are uniform on [0, 1], in manifest
    order (the first with an interval is used). Unchanged without such a prior, without an interval,
    or when the two areas differ by more than :data:`SAME_AREA_ATOL` (then they are not the same
    quantity). A crisp classifier's ``score_fixed`` (its single cost line, never switching to a
    trivial classifier) is another quantity and keeps its own interval.
    """
    if threshold_choice is None or not expected_cost_interval:
        return threshold_choice
    optimal = threshold_choice.methods.get("pc", {}).get("optimal")
    if optimal is None or optimal.area is None:
        return threshold_choice
    for prior in uniform_priors:
        iv = expected_cost_interval.get(prior)
        cost = expected_cost.get(prior)
        if iv is None or cost is None or abs(float(cost) - float(optimal.area)) > SAME_AREA_ATOL:
            continue
        canonical = replace(
            optimal,
            interval=(float(iv.lower), float(iv.upper)),
            interval_source=f"expected_cost_interval.{prior}",
        )
        methods = {axis: dict(by_method) for axis, by_method in threshold_choice.methods.items()}
        methods["pc"]["optimal"] = canonical
        return replace(threshold_choice, methods=methods)
    return threshold_choice


def uniform_on_unit(prior) -> bool:
    """Whether a prior over PC(+) (:class:`ccreport.analysis.priors.Prior`) is uniform on [0, 1]:
    ``uniform`` on [0, 1], or Beta(1, 1)."""
    kind = getattr(prior, "kind", None)
    if kind == "uniform":
        return (float(prior.low), float(prior.high)) == (0.0, 1.0)
    return kind == "beta" and float(prior.a) == 1.0 and float(prior.b) == 1.0


def canonical_classifiers(classifiers: dict, priors: dict) -> dict:
    """Every classifier of a dataset with :func:`with_canonical_intervals` applied; ``priors``: the
    dataset's priors, name -> :class:`~ccreport.analysis.priors.Prior`."""
    uniform = [name for name, prior in priors.items() if uniform_on_unit(prior)]
    out = {}
    for name, c in classifiers.items():
        tc = with_canonical_intervals(
            c.threshold_choice, c.expected_cost, c.expected_cost_interval, uniform
        )
        out[name] = c if tc is c.threshold_choice else replace(c, threshold_choice=tc)
    return out
