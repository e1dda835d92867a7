"""How many worker processes a build starts when it is not told: one per core, capped
(ccreport.tasks.executors.default_workers), and a count someone asked for still wins."""

from __future__ import annotations

import importlib
import json
import os

import pytest
from site_fixtures import write_tiny_project

from ccreport.cli import main
from ccreport.tasks import executors

build_module = importlib.import_module(
    "ccreport.commands.build"
)  # the module (ccreport.commands.build is also the function)


@pytest.mark.parametrize(
    "cores, expected", [(1, 1), (2, 2), (6, 6), (8, 8), (64, executors.DEFAULT_WORKERS_CAP)]
)
def test_default_workers_are_the_cores_up_to_the_cap(monkeypatch, cores, expected):
    monkeypatch.setattr(executors, "machine_cores", lambda: cores)
    assert executors.default_workers() == expected


def test_machine_cores_are_the_cores_this_process_may_use(monkeypatch):
    if hasattr(os, "process_cpu_count"):
        assert executors.machine_cores() == max(1, os.process_cpu_count() or 1)
    else:
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3, 5}, raising=False)
        assert executors.machine_cores() == 3
        monkeypatch.delattr(os, "sched_getaffinity")
        monkeypatch.setattr(os, "cpu_count", lambda: None)
        assert executors.machine_cores() == 1


def test_a_build_without_a_count_uses_the_default_quietly(tmp_path, monkeypatch, capsys):
    """No -j and no manifest ``workers``: default_workers() requested (clamped to the tasks and
    cores without a note); -j 1 and the manifest's count still win."""
    monkeypatch.setattr(executors, "machine_cores", lambda: 64)
    monkeypatch.setattr(build_module, "machine_cores", lambda: 64)
    project = write_tiny_project(tmp_path / "p")
    monkeypatch.chdir(project)
    assert main(["build", ".", "--no-pdf", "-q", "--no-cache", "-o", str(tmp_path / "a")]) == 0
    assert "clamped" not in capsys.readouterr().err
    invocation = json.loads((tmp_path / "a" / "invocation.json").read_text())
    assert invocation["workers"]["requested"] == executors.DEFAULT_WORKERS_CAP
    assert 1 < invocation["workers"]["started"] <= executors.DEFAULT_WORKERS_CAP
    assert (
        main(["build", ".", "--no-pdf", "-q", "--no-cache", "-j", "1", "-o", str(tmp_path / "b")])
        == 0
    )
    assert json.loads((tmp_path / "b" / "invocation.json").read_text())["workers"] == {
        "requested": 1,
        "started": 1,
    }
    assert (tmp_path / "a" / "results.json").read_bytes() == (
        tmp_path / "b" / "results.json"
    ).read_bytes()
