"""The report quotes measured coverage figures from one place,
:mod:`ccreport.analysis.measured_coverage`: no text that states a band's or the methods page's
coverage carries a figure of its own."""

import re
from pathlib import Path

import pytest

from ccreport.analysis import measured_coverage as mc
from ccreport.analysis.selection import hybrid_bands
from ccreport.render.methods_page import interval_coverage
from ccreport.tasks import bands_task

ROOT = Path(__file__).resolve().parents[2]
DECIMAL_PERCENT = re.compile(r"\d+\.\d+ ?%|\d+(\.\d+)?[-–]\d+(\.\d+)?%")


@pytest.mark.parametrize(
    "path",
    [
        "templates/methods.html",
        "ccreport/tasks/bands_task.py",
        "ccreport/analysis/selection/hybrid_bands.py",
    ],
)
def test_no_measured_figure_is_written_outside_the_one_source(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    assert DECIMAL_PERCENT.search(text) is None, DECIMAL_PERCENT.search(text).group(0)


def test_the_band_targets_quote_the_source():
    assert mc.span(mc.CONTINUOUS_OPTIMAL) in bands_task.TARGET_SCORES
    assert mc.span(mc.FIVE_ROUNDED_SELECTED) in bands_task.TARGET_FEW_SCORES
    assert mc.span(mc.HYBRID_CALIBRATED) in hybrid_bands.TARGET_CALIBRATED
    assert mc.span(mc.HYBRID_UNCALIBRATED) in hybrid_bands.TARGET_UNCALIBRATED


def test_methods_page_figures_are_the_sources():
    found = interval_coverage()
    assert found["five_at_01"] == f"{mc.FIVE_AT_01_SELECTED:.1f}%"
    assert found["five_at_01_others_n"] == str(mc.FIVE_AT_01_PICKED - mc.FIVE_AT_01_FP0)
    assert found["hybrid"] == mc.span(mc.HYBRID_CALIBRATED, "–")


def test_span_and_pct():
    assert mc.span((88.3, 99.0)) == "88.3-99.0%"
    assert mc.span((90.0, 100.0), "–") == "90.0–100%"
    assert mc.span((94.0, 94.0)) == "94.0%"
    assert mc.pct(100.0) == "100"


def test_pairs_are_ordered_and_within_0_100():
    for name in dir(mc):
        value = getattr(mc, name)
        if name.isupper() and isinstance(value, tuple) and name not in ("MC_SE",):
            if name.endswith("EXPECTED"):
                continue  # (coverage, share above)
            assert 0.0 <= value[0] <= value[1] <= 100.0, name
