"""The figure stage's cache: a changed dataset redraws its own figures and the overview's, no
others."""

from __future__ import annotations

import importlib
import shutil

from site_fixtures import write_tiny_project

from ccreport.cli import main
from ccreport.render.figure_files import group_folder, group_of

FAST = 'bootstrap = 500\ncalibration = "off"'


def _snapshot(folder):
    """The output's bytes, without invocation.json (its command line names -o)."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "invocation.json"
    }


def _project(tmp_path):
    root = write_tiny_project(tmp_path / "proj", settings=FAST, extra_priors="")
    shutil.copy(root / "data.csv", root / "other.csv")
    manifest = root / "ccreport.toml"
    manifest.write_text(
        manifest.read_text().replace(
            "[[classifiers]]",
            '[[datasets]]\nname = "other"\npath = "other.csv"\nlabel = "label"\n'
            'positive = "pos"\n\n[[classifiers]]',
            1,
        )
    )
    return root


def _flip_one_label(data):
    lines = data.read_text().splitlines()
    head, label = lines[1].rsplit(",", 1)
    lines[1] = head + ("," + ("neg" if label == "pos" else "pos"))
    data.write_text("\n".join(lines) + "\n")


def test_a_changed_dataset_redraws_only_its_own_and_the_overviews_figures(tmp_path, monkeypatch):
    root = _project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["build", ".", "--no-pdf", "-q", "-j", "1"]) == 0
    figure_files = importlib.import_module("ccreport.render.figure_files")
    calls = []
    original = figure_files.start_figures

    def recording(*args, **kwargs):
        run = original(*args, **kwargs)
        calls.append((kwargs.get("groups"), {group_of(entry) for entry in run.result().values()}))
        return run

    monkeypatch.setattr(figure_files, "start_figures", recording)
    assert main(["build", ".", "--no-pdf", "-q", "-j", "1"]) == 0
    assert calls == []  # nothing changed: every figure from the cache
    _flip_one_label(root / "other.csv")
    assert main(["build", ".", "--no-pdf", "-q", "-j", "1"]) == 0
    overview, other, first = group_folder(None), group_folder("other"), group_folder("tiny")
    assert other != first
    assert len(calls) == 1
    asked, drawn = calls[0]
    assert set(asked) == {overview, other} and drawn == {overview, other}
    fresh = tmp_path / "fresh"
    assert main(["build", ".", "-o", str(fresh), "--no-pdf", "-q", "--no-cache", "-j", "1"]) == 0
    assert len(calls) == 2 and calls[1][0] is None and first in calls[1][1]
    assert _snapshot(root / "site") == _snapshot(
        fresh
    )  # the cached figures and index are those drawn afresh
