"""The figure stage's speedups (ccreport.speedups.figure_caches, figure_replay) are
entered only through ccreport.speedups.active: CCREPORT_SPEEDUPS=0 or another matplotlib turns them
off, and the SVG files and the index are the same bytes either way."""

from __future__ import annotations

import logging

import matplotlib
import pytest
from matplotlib.text import Text
from site_fixtures import synthetic_results

from ccreport.render.figure_files import write_figures
from ccreport.speedups import figure_caches, figure_replay


def _files(folder, suffix):
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob(f"*{suffix}"))
    }


def _count_replays(monkeypatch) -> list:
    """Records each save that drew the SVG and the PDF in one walk (figure_replay)."""
    replays = []
    original = figure_replay.save_svg_and_pdf
    monkeypatch.setattr(
        figure_replay, "save_svg_and_pdf", lambda *a, **k: replays.append(1) or original(*a, **k)
    )
    return replays


@pytest.mark.slow
def test_speedups_off_write_the_same_svg_files_and_index(tmp_path, monkeypatch):
    results = synthetic_results(("a1", "b1"))
    on, off = tmp_path / "on", tmp_path / "off"
    replays = _count_replays(monkeypatch)
    monkeypatch.delenv("CCREPORT_SPEEDUPS", raising=False)
    index_on = write_figures(results, on, workers=1, focus=False)
    replayed_on = len(replays)
    monkeypatch.setenv("CCREPORT_SPEEDUPS", "0")
    layout = Text.__dict__["_get_layout"]
    index_off = write_figures(results, off, workers=1, focus=False)
    assert Text.__dict__["_get_layout"] is layout  # nothing left patched
    assert replayed_on == len(index_on) > 0 and len(replays) == replayed_on  # off: no replay
    assert index_off == index_on
    assert _files(off, ".svg") == _files(on, ".svg") and len(_files(on, ".svg")) == len(index_on)
    assert set(_files(off, ".pdf")) == set(
        _files(on, ".pdf")
    )  # each figure's PDF, drawn by matplotlib


def test_the_speedups_are_off_while_the_switch_says_so(monkeypatch):
    monkeypatch.setenv("CCREPORT_SPEEDUPS", "0")
    original = Text._get_layout
    with (
        figure_caches.shared_work(),
        figure_caches.tick_updates(),
    ):
        assert Text._get_layout is original
    assert not figure_replay.on()
    monkeypatch.setenv("CCREPORT_SPEEDUPS", "1")
    with figure_caches.shared_work():
        assert Text._get_layout is not original
    assert Text._get_layout is original
    assert figure_replay.on()


def test_another_matplotlib_turns_each_off_with_a_debug_note(monkeypatch, caplog):
    monkeypatch.delenv("CCREPORT_SPEEDUPS", raising=False)
    other = ("2.0",)
    for module in (figure_caches, figure_replay):
        monkeypatch.setattr(module, "WRITTEN_FOR", other)
    original = Text._get_layout
    with caplog.at_level(logging.DEBUG, logger="ccreport.speedups"):
        with figure_caches.shared_work():
            assert Text._get_layout is original
        assert not figure_replay.on()
    notes = [r.getMessage() for r in caplog.records if r.name == "ccreport.speedups"]
    for name in ("figure_caches", "figure_replay"):
        assert any(f"speedup {name} is off" in n and matplotlib.__version__ in n for n in notes), (
            notes
        )
