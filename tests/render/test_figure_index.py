"""A figure's index entry is known before it is drawn (ccreport.render.figure_files.figure_index):
report.pdf is laid out from it while the figures are drawn, so it must be the entry drawing
returns, for every option and theme."""

from __future__ import annotations

import pytest
from site_fixtures import write_tiny_project

from ccreport.commands.build import build
from ccreport.paths import THEME_STYLE_NAME, themes_dir
from ccreport.render.figure_files import figure_index, group_folder, write_figures


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("index")
    return build(write_tiny_project(root / "project", folds=3), root / "out", workers=1, pdf=False)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"focus": True, "rescaled": True},
        {"focus": False, "rescaled": False, "formats": ("svg", "pdf", "png")},
        {"groups": [group_folder("tiny")]},
    ],
)
def test_the_planned_index_is_the_drawn_one(results, tmp_path, options):
    drawn = write_figures(results, tmp_path, workers=1, **options)
    assert drawn and figure_index(results, **options) == drawn
    assert list(figure_index(results, **options)) == list(drawn)  # report order


def test_the_planned_index_is_the_drawn_one_in_a_theme(results, tmp_path):
    style = themes_dir() / "journal" / THEME_STYLE_NAME
    drawn = write_figures(results, tmp_path, workers=2, theme_style=style)
    assert figure_index(results, theme_style=style) == drawn
