"""The task cache (ccreport.tasks.cache), the unchanged-rebuild skip, progress and serve's rebuild
on change."""

import importlib
import io
import shutil
import threading
import time

import pytest
from site_fixtures import write_tiny_project

from ccreport.cli import main
from ccreport.commands.build import compute_results
from ccreport.project.loaders import load_project_data
from ccreport.project.manifest import load_project
from ccreport.project.project_files import read_project_files
from ccreport.results import results_to_json
from ccreport.runtime import progress
from ccreport.tasks import cache

build_module = importlib.import_module("ccreport.commands.build")
FAST = 'bootstrap = 500\ncalibration = "off"'


def snapshot(folder):
    """The output's bytes, without invocation.json (how the build was run: its command line names
    -o)."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "invocation.json"
    }


@pytest.fixture
def two_datasets(tmp_path):
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


def compute(root):
    project = load_project(root)
    datasets = load_project_data(project)
    return compute_results(project, datasets, read_project_files(project, datasets))


def test_warm_cache_reuses_every_task_and_a_changed_dataset_recomputes_only_its_own(
    two_datasets, tmp_path
):
    folder = tmp_path / "cache"
    with cache.using(folder) as cold:
        first = compute(two_datasets)
    assert cold.hits == 0 and cold.misses > 0
    per_dataset = cold.misses // 2
    with cache.using(folder) as warm:
        again = compute(two_datasets)
    assert warm.hits == cold.misses and warm.misses == 0
    assert results_to_json(again) == results_to_json(first)
    data = two_datasets / "other.csv"
    lines = data.read_text().splitlines()
    lines[1] = (
        lines[1].rsplit(",", 1)[0] + ",neg"
        if lines[1].endswith("pos")
        else lines[1].rsplit(",", 1)[0] + ",pos"
    )
    data.write_text("\n".join(lines) + "\n")
    with cache.using(folder) as changed:
        compute(two_datasets)
    # one crisp prediction of 'other' changed: the tasks that read that column (rule's classifier
    # tasks, the pairs (good, rule) and (weak, rule), and the dataset-wide tasks), nothing of 'tiny'
    from ccreport.tasks.battery import TASK_KINDS

    per = {s: sum(k.scope == s for k in TASK_KINDS) for s in ("dataset", "classifier", "pair")}
    expected = per["classifier"] + 2 * per["pair"] + per["dataset"]
    assert changed.misses == expected
    assert changed.hits == cold.misses - expected
    assert per_dataset == 3 * per["classifier"] + 3 * per["pair"] + per["dataset"]


def test_the_key_sees_every_argument():
    from ccreport.project.settings import AnalysisSettings as Settings

    def f(*args):
        return args

    import numpy as np

    a = np.arange(5.0)
    assert cache.task_key(f, (a, Settings())) == cache.task_key(f, (a.copy(), Settings()))
    b = a.copy()
    b[3] = 3.5
    assert cache.task_key(f, (a, Settings())) != cache.task_key(f, (b, Settings()))
    assert cache.task_key(f, (a, Settings(seed=1))) != cache.task_key(f, (a, Settings(seed=2)))


def test_a_broken_entry_is_a_miss(tmp_path):
    c = cache.Cache(tmp_path)
    c.put("ab" + "0" * 62, {"x": 1})
    assert c.get("ab" + "0" * 62) == {"x": 1}
    (tmp_path / "ab" / ("ab" + "0" * 62 + ".pickle")).write_bytes(b"not a pickle")
    assert c.get("ab" + "0" * 62) is not None and c.misses == 1
    assert (tmp_path / ".gitignore").read_text().splitlines()[-1] == "*"


def test_output_is_byte_identical_cold_warm_and_without_cache(two_datasets, tmp_path, monkeypatch):
    monkeypatch.chdir(two_datasets)
    outs = {}
    for name, extra in (("cold", []), ("warm", []), ("none", ["--no-cache"])):
        out = tmp_path / name
        assert main(["build", ".", "-o", str(out), "--no-pdf", "-q", *extra]) == 0
        outs[name] = snapshot(out)
    assert (two_datasets / ".ccreport-cache" / ".gitignore").is_file()
    assert outs["cold"] == outs["warm"] == outs["none"]


def test_unchanged_rebuild_writes_nothing_and_a_narrative_change_rewrites(
    two_datasets, monkeypatch
):
    monkeypatch.chdir(two_datasets)
    assert main(["build", ".", "--no-pdf", "-q"]) == 0
    site = two_datasets / "site"
    before = {p: p.stat().st_mtime_ns for p in site.rglob("*")}
    calls = []
    monkeypatch.setattr(build_module, "write_output", lambda *a, **k: calls.append(a))
    assert main(["build", ".", "--no-pdf", "-q"]) == 0
    assert calls == [] and {p: p.stat().st_mtime_ns for p in site.rglob("*")} == before
    monkeypatch.undo()
    monkeypatch.chdir(two_datasets)
    (two_datasets / "narrative.md").write_text("# Changed\n\nNew words.\n")
    assert main(["build", ".", "--no-pdf", "-q"]) == 0
    assert "New words." in (site / "index.html").read_text()


# --- progress ---------------------------------------------------------------------------------


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_only_on_a_terminal_outside_ci_without_quiet(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    assert progress.wanted(False, Tty())
    assert not progress.wanted(True, Tty())
    assert not progress.wanted(False, io.StringIO())
    monkeypatch.setenv("CI", "true")
    assert not progress.wanted(False, Tty())


def test_no_bars_when_not_a_terminal(two_datasets, capsys, monkeypatch):
    monkeypatch.chdir(two_datasets)
    assert main(["build", ".", "--no-pdf"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "\x1b[" not in captured.out


def test_the_rich_display_runs_phases_and_tasks():
    with progress.showing(True) as shown:
        progress.phase("analysing")
        progress.tasks(3)
        progress.advance(2)
        assert (
            shown.progress.tasks[0].completed == 2
            and shown.progress.tasks[0].description == "analysing"
        )
    progress.advance()  # silent again outside


# --- serve: rebuild on change --------------------------------------------------------------------


def test_serve_watcher_rebuilds_on_a_change_and_ignores_the_output(two_datasets):
    from ccreport.commands.serve import watch_and_rebuild

    site = two_datasets / "site"
    site.mkdir()
    calls = []
    stop = threading.Event()
    thread = threading.Thread(
        target=watch_and_rebuild,
        args=(two_datasets, [site], lambda: calls.append(time.time()), stop),
        daemon=True,
    )
    thread.start()
    time.sleep(1.0)
    (site / "index.html").write_text("output, not an input")
    (two_datasets / ".ccreport-cache").mkdir()
    (two_datasets / ".ccreport-cache" / "x").write_text("cache")
    time.sleep(1.5)
    assert calls == []
    (two_datasets / "narrative.md").write_text("# Edited\n")
    deadline = time.time() + 20
    while not calls and time.time() < deadline:
        time.sleep(0.1)
    stop.set()
    thread.join(timeout=10)
    assert len(calls) >= 1


def test_a_changed_narrative_reuses_the_figures(two_datasets, monkeypatch, tmp_path):
    monkeypatch.chdir(two_datasets)
    assert main(["build", ".", "--no-pdf", "-q"]) == 0
    figure_files = importlib.import_module("ccreport.render.figure_files")
    drawn = []
    original = figure_files.start_figures
    monkeypatch.setattr(
        figure_files, "start_figures", lambda *a, **k: drawn.append(1) or original(*a, **k)
    )
    (two_datasets / "narrative.md").write_text("# Changed\n\nOther words.\n")
    assert main(["build", ".", "--no-pdf", "-q"]) == 0
    assert drawn == []  # the figures came from the cache
    fresh = tmp_path / "fresh"
    assert main(["build", ".", "-o", str(fresh), "--no-pdf", "-q", "--no-cache"]) == 0
    assert drawn == [1]
    assert snapshot(two_datasets / "site") == snapshot(fresh)
