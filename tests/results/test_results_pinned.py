"""results.json pinned byte for byte: two small projects against files made at an earlier commit.

The fixtures in ``tests/fixtures/`` were written by the build as it stood before the results became
typed and the battery got its one plan (issue 17); any change to the analyses' numbers, to the JSON
keys or their order, or to the number formatting fails here. ``versions`` and ``generator`` are
blanked on both sides (they name the installed libraries). If a change to the numbers is intended,
regenerate the fixtures and say why in the commit.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from site_fixtures import write_tiny_project

from ccreport.commands.build import compute_results
from ccreport.project.loaders import load_project_data
from ccreport.project.manifest import load_project
from ccreport.project.project_files import read_project_files
from ccreport.results import results_to_json

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

CASES = {
    "tiny_both": dict(folds=3, settings='bootstrap = 500\nband = "both"\nconfidence = 0.8'),
    "tiny_simultaneous": dict(
        settings='bootstrap = 500\nband = "simultaneous"\ncalibration = "off"'
    ),
}


def results_json(root: Path) -> str:
    project = load_project(root)
    data = load_project_data(project)
    results = compute_results(project, data, read_project_files(project, data))
    return results_to_json(dataclasses.replace(results, versions={}, generator="ccreport"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_json_is_pinned(tmp_path, name):
    root = write_tiny_project(tmp_path / name, **CASES[name])
    expected = (FIXTURES / f"{name}.results.json").read_text(encoding="utf-8")
    assert results_json(root) == expected
