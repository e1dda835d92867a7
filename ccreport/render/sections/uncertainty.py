"""The dataset page's uncertainty: expected-cost intervals, bands and fold averages
(D&H 2006 sections 4.5-4.6)."""

from __future__ import annotations

from ...results import Band, DatasetResult
from .. import tables as tb
from ..page_names import dataset_page_slug
from .base import Section, confidence_text
from .base import widths as band_widths


def interval_table(d: DatasetResult, priors: list[str]) -> tb.Table | None:
    if not any(c.expected_cost_interval is not None for c in d.classifiers.values()):
        return None
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-intervals",
        f"Bootstrap {confidence_text(d)} confidence intervals "
        f"of each classifier's expected cost on {d.name}.",
        ["Classifier"] + [f"E[cost] {p}" for p in priors],
        note="Expected normalized cost, then its bootstrap confidence interval in brackets.",
        compact=len(priors) > 3,
    )
    for name, c in d.classifiers.items():
        ivs = c.expected_cost_interval or {}
        row = [tb.text(name)]
        for p in priors:
            cell = tb.num(c.expected_cost.get(p), tb.COST_DIGITS)
            if ivs.get(p) is not None:
                cell.note = f"[{tb.cost(ivs[p].lower)},\u00a0{tb.cost(ivs[p].upper)}]"
            row.append(cell)
        t.rows.append(row)
    cautions = [
        f"Caution, {n}: {c.band.coverage_warning} (the band table)."
        for n, c in d.classifiers.items()
        if c.expected_cost_interval is not None and c.band is not None and c.band.coverage_warning
    ]
    if cautions:
        t.note += " " + " ".join(cautions)
    return t


def band_table(d: DatasetResult) -> tb.Table | None:
    bands = {n: c.band for n, c in d.classifiers.items() if c.band is not None}
    if not bands:
        return None
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-bands",
        f"Bootstrap confidence bands around the cost curves on {d.name}.",
        [
            "Classifier",
            "Band",
            "Method",
            "Replicates",
            "Level",
            "Calibration",
            "Mean width",
            "Largest width",
        ],
        note=band_note(bands),
        compact=True,
    )
    for name, band in bands.items():
        widths = band_widths(band.lower, band.upper)
        kind = band.type or ("simultaneous" if band.simultaneous is not None else "pointwise")
        t.rows.append(
            [
                tb.text(name),
                tb.text(kind),
                tb.text(band.method or tb.DASH),
                tb.num(band.replicates, 0),
                tb.text(tb.DASH if band.level is None else f"{100 * float(band.level):g}%"),
                tb.text(_calibration_text(band)),
                tb.num(sum(widths) / len(widths) if widths else None, tb.COST_DIGITS),
                tb.num(max(widths) if widths else None, tb.COST_DIGITS),
            ]
        )
    return t


def _calibration_text(band: Band) -> str:
    """What the double bootstrap did to a band: the range of its upper edge's quantile level and,
    with a simultaneous band, the factor on its critical value."""
    cal = band.calibration
    if cal is None:
        return tb.DASH
    levels = [float(v) for v in cal.upper_level]
    lo, hi = 100 * min(levels), 100 * max(levels)
    span = f"{lo:.1f}%" if hi - lo < 0.05 else f"{lo:.1f}–{hi:.1f}%"
    text = f"upper edge at the {span} quantile"
    if band.simultaneous is not None:
        text += f"; sup-norm ×{float(cal.sup_scale):.2f}"
    return text


def band_note(bands: dict) -> str:
    """The band table's note: how the bounds are made and what the bands cover, from the calibrated
    band with the plainest target; a band whose target adds to that one (a classifier with few
    distinct scores: what the band does not cover, with the measured coverage) is named with its
    addition."""
    calibrated = [b for b in bands.values() if b.calibration is not None]
    band = (
        min(calibrated, key=lambda b: len(b.target or ""))
        if calibrated
        else next(iter(bands.values()))
    )
    parts = [
        "Width: upper minus lower bound of normalized "
        "expected cost, over the PC(+) grid of the band."
    ]
    if band.correction:
        parts.append(f"Bounds: {band.correction}.")
    if band.target:
        parts.append(f"What the band covers: {band.target}.")
        additions: dict[str, list[str]] = {}
        for name, other in bands.items():
            if (
                other.target
                and other.target != band.target
                and other.target.startswith(band.target)
            ):
                additions.setdefault(other.target[len(band.target) :].lstrip("; "), []).append(name)
        parts += [f"For {', '.join(names)}: {text}." for text, names in additions.items()]
    return " ".join(parts)


def fold_table(d: DatasetResult, priors: list[str]) -> tb.Table | None:
    folds = {n: c.fold_average for n, c in d.classifiers.items() if c.fold_average is not None}
    if not folds:
        return None
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-folds",
        f"Fold averages on {d.name}: the expected cost of the cost curves averaged vertically "
        "over the folds, with the range over the folds.",
        ["Classifier", "Folds"] + [f"E[cost] {p}" for p in priors],
        note="Each fold's lower envelope is built from its own examples, so a "
        "fold-average cost is not the cost of the pooled curve in the "
        "summary table. \u201crange\u201d: the smallest and largest fold's "
        "expected cost (a spread over the folds, not a confidence interval).",
        compact=len(priors) > 3,
    )
    for name, f in folds.items():
        row = [tb.text(name), tb.num(f.n_folds, 0)]
        for p in priors:
            cell = tb.num(f.expected_cost.get(p), tb.COST_DIGITS)
            per_fold = [v for v in f.fold_expected_cost.get(p) or [] if v is not None]
            if per_fold:
                cell.note = f"range {tb.cost(min(per_fold))}\u2013{tb.cost(max(per_fold))}"
                cell.note_class = "range"
            row.append(cell)
        t.rows.append(row)
    return t


def uncertainty_tables(d: DatasetResult, priors: list[str]) -> dict:
    return {
        "intervals": interval_table(d, priors),
        "bands": band_table(d),
        "folds": fold_table(d, priors),
    }


SECTION = Section("uncertainty", "Uncertainty", "Uncertainty", tables=uncertainty_tables)
