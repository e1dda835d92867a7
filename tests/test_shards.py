"""The shards plugin (tests/shards.py): the split is a partition, balanced within the
longest-processing-time bound of the best split (checked by brute force), deterministic, keeps the
files sharing the example build together; empty shards exit 0; durations are recorded."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import shards
from hypothesis import given, settings
from hypothesis import strategies as st

TESTS = Path(__file__).resolve().parent


def test_split_known_answer():
    # heaviest first, each to the lightest shard: a->1 (5), b->2 (4), c->2 (7), d->1 (8), e->2 (10)
    weights = {"a": 5.0, "b": 4.0, "c": 3.0, "d": 3.0, "e": 3.0}
    assert shards.split(weights, 2) == [["a", "d"], ["b", "c", "e"]]
    assert shards.split(weights, 1) == [["a", "b", "c", "d", "e"]]
    assert shards.split(weights, 6)[5] == []  # more shards than units: some are empty


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(0, 50), min_size=0, max_size=6),
    st.integers(1, 3),
)
def test_split_is_a_partition_within_the_lpt_bound(loads, n):
    weights = {f"u{i}": float(w) for i, w in enumerate(loads)}
    parts = shards.split(weights, n)
    assert len(parts) == n
    assert sorted(itertools.chain.from_iterable(parts)) == sorted(weights)
    largest = max(sum(weights[u] for u in part) for part in parts)
    best = min(  # brute force over every assignment of units to shards
        (
            max(sum(w for w, s in zip(weights.values(), assign) if s == k) for k in range(n))
            for assign in itertools.product(range(n), repeat=len(weights))
        ),
        default=0.0,
    )
    assert largest <= (4 / 3 - 1 / (3 * n)) * best + 1e-9  # Graham's bound for this rule
    reordered = dict(reversed(list(weights.items())))
    assert shards.split(reordered, n) == parts  # the order the files come in does not matter


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0", "-1/2", ""])
def test_parse_shard_refuses(text):
    with pytest.raises(pytest.UsageError, match="--shard: expected I/N"):
        shards.parse_shard(text)


def test_parse_shard():
    assert shards.parse_shard("2/3") == (2, 3)


FILES = {
    "test_a.py": "def test_1(): pass\ndef test_2(): pass\n",
    "test_b.py": "def test_1(): pass\n",
    "test_c.py": "import pytest\n@pytest.mark.parametrize('i', range(4))\ndef test_p(i): pass\n",
    "test_d.py": "from helpers import example_build\ndef test_1(): assert example_build()\n",
    "test_e.py": "from helpers import example_build\ndef test_1(): assert example_build()\n",
    "helpers.py": "def example_build():\n    return True\n",
}


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(TESTS), str(folder)]),
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",  # a bare pytest: starts in a fraction of the time
    }
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "shards", "-q", "-p", "no:cacheprovider", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def passed(out: str) -> set[str]:
    return {line.split(" ", 1)[1] for line in out.splitlines() if line.startswith("PASSED ")}


@pytest.fixture
def suite(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    durations = {"test_a.py": 10, "test_b.py": 1, "test_c.py": 4, "test_d.py": 3, "test_e.py": 3}
    (tmp_path / "durations.json").write_text(json.dumps(durations))
    return tmp_path


def test_shards_run_every_test_once_and_keep_the_example_files_together(suite):
    everything = run_pytest(suite, "-rA")
    assert everything.returncode == 0, everything.stdout
    assert len(passed(everything.stdout)) == 9
    seen = []
    for i in (1, 2, 3):
        done = run_pytest(
            suite, "-rA", f"--shard={i}/3", f"--durations-file={suite}/durations.json"
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"shard {i}/3:" in done.stdout
        seen.append(passed(done.stdout))
    assert sorted(itertools.chain.from_iterable(seen)) == sorted(passed(everything.stdout))
    # units: a (10), d+e (6), c (4), b (1): a | d+e | c then b onto the lighter of d+e and c
    files = [{nodeid.split("::")[0] for nodeid in shard} for shard in seen]
    assert files == [{"test_a.py"}, {"test_d.py", "test_e.py"}, {"test_b.py", "test_c.py"}]


def test_an_empty_shard_exits_0_but_an_empty_collection_exits_5(suite):
    done = run_pytest(suite, "test_b.py", "--shard=2/2", f"--durations-file={suite}/durations.json")
    assert done.returncode == 0, done.stdout
    assert "1 deselected" in done.stdout
    done = run_pytest(suite, "-k", "nothing_matches", "--shard=1/2")
    assert done.returncode == 5, done.stdout


def test_a_bad_shard_is_a_usage_error(suite):
    done = run_pytest(suite, "--shard=3/2")
    assert done.returncode == 4
    assert "--shard: expected I/N with 1 <= I <= N, got '3/2'" in done.stderr


def test_record_durations_merges_this_runs_files(suite):
    path = suite / "durations.json"
    done = run_pytest(
        suite, "test_a.py", "test_c.py", "--record-durations", f"--durations-file={path}"
    )
    assert done.returncode == 0, done.stdout
    times = json.loads(path.read_text())
    assert list(times) == sorted(times)  # sorted, so a re-recording diffs well
    assert times["test_b.py"] == 1 and times["test_d.py"] == 3  # not run: kept
    assert times["test_a.py"] < 10 and times["test_c.py"] < 4  # run: this run's (tiny) times


def test_every_test_file_imports_site_fixtures_by_one_name():
    """``tests.site_fixtures`` would be a second module with its own example build, twice the
    time, and outside the shard unit of the files sharing it."""
    pattern = re.compile(r"^\s*(?:from|import)\s+tests\.site_fixtures\b", re.MULTILINE)
    offenders = [
        path.relative_to(TESTS).as_posix()
        for path in sorted(TESTS.rglob("*.py"))
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
