"""Issue 12 wiring: settings, the threshold-choice task, its intervals and paired differences, figures, section."""

from __future__ import annotations

import pytest

from ccreport.errors import UserInputError
from ccreport.manifest import load_project
from ccreport.settings import AnalysisSettings

MINIMAL = """[project]
title = "t"
{extra}

[[datasets]]
name = "d"
path = "d.csv"
label = "y"
positive = "1"

[[classifiers]]
name = "a"
scores = "a"
"""


def _manifest(tmp_path, extra: str):
    (tmp_path / "d.csv").write_text("y,a\n1,0.9\n0,0.1\n", encoding="utf-8")
    (tmp_path / "ccreport.toml").write_text(MINIMAL.format(extra=extra), encoding="utf-8")
    return tmp_path


def test_settings_defaults_and_read_values(tmp_path):
    assert AnalysisSettings().partial_ranges == () and AnalysisSettings().threshold_axis == "pc"
    p = load_project(_manifest(tmp_path, 'partial_ranges = [[0.1, 0.5], [0, 1]]\nthreshold_axis = "both"'))
    assert p.settings.partial_ranges == ((0.1, 0.5), (0.0, 1.0))
    assert p.settings.threshold_axis == "both"
    assert p.settings.to_dict()["partial_ranges"] == [[0.1, 0.5], [0.0, 1.0]]


@pytest.mark.parametrize(
    "extra, message",
    [
        ("partial_ranges = [[0.5, 0.1]]", "ccreport.toml:3: project.partial_ranges: entry 1: expected 0 <= low < high <= 1, got [0.5, 0.1]"),
        ("partial_ranges = [[0.2, 0.2]]", "entry 1: expected 0 <= low < high <= 1, got [0.2, 0.2]"),
        ("partial_ranges = [[-0.1, 0.5]]", "entry 1: expected 0 <= low < high <= 1, got [-0.1, 0.5]"),
        ("partial_ranges = [[0.1, 0.5], [0.2]]", "entry 2: expected a pair [low, high] of numbers, got [0.2]"),
        ('partial_ranges = [[0.1, "x"]]', 'entry 1: expected a pair [low, high] of numbers, got [0.1, "x" (a string)]'),
        ("partial_ranges = 0.5", "project.partial_ranges: expected a list of [low, high] pairs with 0 <= low < high <= 1, got 0.5"),
        ('threshold_axis = "cost"', 'ccreport.toml:3: project.threshold_axis: expected one of "pc", "cost_proportion", "both", got "cost"'),
    ],
)
def test_settings_validation_messages(tmp_path, extra, message):
    with pytest.raises(UserInputError) as err:
        load_project(_manifest(tmp_path, extra))
    assert message in str(err.value)
