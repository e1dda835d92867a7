"""The figure stage's speedups (ccreport.speedups.figure_caches) are entered only through
ccreport.speedups.active: CCREPORT_SPEEDUPS=0 or another matplotlib turns them off, and the SVG
files and the index are the same bytes either way."""

from __future__ import annotations

import logging

import matplotlib
import pytest
from matplotlib.text import Text
from site_fixtures import synthetic_results

from ccreport.render.figure_files import write_figures
from ccreport.render.figure_saving import can_save_both
from ccreport.speedups import figure_caches


def _files(folder, suffix):
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob(f"*{suffix}"))
    }


@pytest.mark.slow
def test_speedups_off_write_the_same_files_and_index(tmp_path, monkeypatch):
    """Both ways each figure's SVG and PDF are drawn in one walk (figure_saving); the SVG files
    are the same bytes."""
    results = synthetic_results(("a1", "b1"))
    on, off = tmp_path / "on", tmp_path / "off"
    monkeypatch.delenv("CCREPORT_SPEEDUPS", raising=False)
    walks = [can_save_both()]
    index_on = write_figures(results, on, workers=1, focus=False)
    monkeypatch.setenv("CCREPORT_SPEEDUPS", "0")
    walks.append(can_save_both())
    layout = Text.__dict__["_get_layout"]
    index_off = write_figures(results, off, workers=1, focus=False)
    assert Text.__dict__["_get_layout"] is layout  # nothing left patched
    assert walks == [True, True]
    assert index_off == index_on
    assert _files(off, ".svg") == _files(on, ".svg") and len(_files(on, ".svg")) == len(index_on)
    assert set(_files(off, ".pdf")) == set(_files(on, ".pdf"))  # font subsets shared or not


def test_the_speedups_are_off_while_the_switch_says_so(monkeypatch):
    monkeypatch.setenv("CCREPORT_SPEEDUPS", "0")
    original = Text._get_layout
    with (
        figure_caches.shared_work(),
        figure_caches.tick_updates(),
    ):
        assert Text._get_layout is original
    monkeypatch.setenv("CCREPORT_SPEEDUPS", "1")
    with figure_caches.shared_work():
        assert Text._get_layout is not original
    assert Text._get_layout is original


def test_another_matplotlib_turns_them_off_with_a_debug_note(monkeypatch, caplog):
    monkeypatch.delenv("CCREPORT_SPEEDUPS", raising=False)
    monkeypatch.setattr(figure_caches, "WRITTEN_FOR", ("2.0",))
    original = Text._get_layout
    with caplog.at_level(logging.DEBUG, logger="ccreport.speedups"):
        with figure_caches.shared_work():
            assert Text._get_layout is original
    notes = [r.getMessage() for r in caplog.records if r.name == "ccreport.speedups"]
    assert any(
        "speedup figure_caches is off" in n and matplotlib.__version__ in n for n in notes
    ), notes
