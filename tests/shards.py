"""Split the suite into shards by file, so ``./run test`` can run it in several processes.

``python -m pytest --shard=I/N`` runs shard I (1-based) of N: a deterministic split of the
collected test files, balanced by the per-file times recorded in ``tests/durations.json``.
The N shards together run every collected test exactly once, whatever other arguments narrow the
collection (``-m``, ``-k``, paths), as long as every shard gets the same ones.

The split: each file is one unit, except that the files calling
:func:`site_fixtures.example_build` (the example project built once per process, the suite's
largest shared cost) form a single unit, so only one process builds the example. Units are
weighed by their recorded seconds (a file not yet recorded weighs the median of the recorded
files) and assigned heaviest first, each to the shard with the least weight so far (ties: the
lower shard, then the unit's name): the longest-processing-time rule, whose largest shard is
within 4/3 of the best split's. Within a shard the tests keep their collection order.

A shard left with nothing to run (every collected test went to the others) exits 0, not pytest's
5 ("no tests collected"); a collection that is empty before the split still exits 5.

``--record-durations`` adds up each file's setup, call and teardown times of this run and writes
them into ``tests/durations.json`` (or ``--durations-file``; files not run here keep their
recorded time). Record on a run of the whole suite on a quiet machine, sharded or not, and commit
the file; a stale file only makes the split less even, never drops or repeats a test.
"""

from __future__ import annotations

import fcntl
import json
import re
import statistics
import tempfile
from collections import defaultdict
from pathlib import Path

import pytest

DURATIONS = Path(__file__).resolve().parent / "durations.json"
EXAMPLE_UNIT = "<files sharing the example build>"
SHARD = re.compile(r"^(\d+)/(\d+)$")
SHARD_OF = pytest.StashKey[tuple[int, int]]()
DROPPED = pytest.StashKey[int]()
HEADER = pytest.StashKey[str]()


def pytest_addoption(parser):
    group = parser.getgroup("shards", "splitting the suite between processes (tests/shards.py)")
    group.addoption(
        "--shard",
        metavar="I/N",
        help="run only shard I of N (1-based), a split of the test files balanced by "
        "tests/durations.json",
    )
    group.addoption(
        "--record-durations",
        action="store_true",
        help="write each file's total test time of this run into the durations file",
    )
    group.addoption(
        "--durations-file",
        metavar="PATH",
        default=str(DURATIONS),
        help="the recorded times --shard reads and --record-durations writes "
        "(default: tests/durations.json)",
    )


def parse_shard(text: str) -> tuple[int, int]:
    """``"I/N"`` -> (I, N) with 1 <= I <= N; a pytest usage error naming the option otherwise."""
    match = SHARD.match(text.strip())
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise pytest.UsageError(f"--shard: expected I/N with 1 <= I <= N, got {text!r}")
    return int(match[1]), int(match[2])


def file_of(nodeid: str) -> str:
    """The test file of a node id, as a path relative to the rootdir (``tests/x/test_y.py``)."""
    return nodeid.split("::", 1)[0]


def split(units: dict[str, float], n: int) -> list[list[str]]:
    """Units (name -> weight) into ``n`` lists by the longest-processing-time rule (module
    docstring); deterministic for given weights."""
    shards: list[list[str]] = [[] for _ in range(n)]
    totals = [0.0] * n
    for name in sorted(units, key=lambda u: (-units[u], u)):
        lightest = min(range(n), key=lambda i: (totals[i], i))
        shards[lightest].append(name)
        totals[lightest] += units[name]
    return shards


def recorded(path: Path) -> dict[str, float]:
    """The recorded seconds per file ({} when the file is missing or not JSON)."""
    try:
        return {str(k): float(v) for k, v in json.loads(path.read_text()).items()}
    except (OSError, ValueError):
        return {}


def uses_example_build(item) -> bool:
    """Whether the item's module calls the example build of site_fixtures (it imports it)."""
    module = getattr(item, "module", None)
    return module is not None and "example_build" in vars(module)


def units_of(items, times: dict[str, float]) -> tuple[dict[str, float], dict[str, str]]:
    """(unit -> weight, file -> unit) for the collected items (module docstring)."""
    unit_of = {
        file_of(item.nodeid): EXAMPLE_UNIT if uses_example_build(item) else file_of(item.nodeid)
        for item in items
    }
    default = statistics.median(times.values()) if times else 1.0
    weights: dict[str, float] = defaultdict(float)
    for name, unit in unit_of.items():
        weights[unit] += times.get(name, default)
    return dict(weights), unit_of


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    if SHARD_OF not in config.stash:
        return
    index, n = config.stash[SHARD_OF]
    weights, unit_of = units_of(items, recorded(Path(config.getoption("durations_file"))))
    mine = set(split(weights, n)[index - 1])
    kept = [item for item in items if unit_of[file_of(item.nodeid)] in mine]
    dropped = [item for item in items if unit_of[file_of(item.nodeid)] not in mine]
    config.stash[DROPPED] = len(dropped)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
    files = sorted({file_of(item.nodeid) for item in kept})
    seconds = sum(weights[unit] for unit in mine)
    config.stash[HEADER] = (
        f"shard {index}/{n}: {len(kept)} of {len(kept) + len(dropped)} tests, "
        f"{len(files)} files, {seconds:.0f} s recorded"
    )


def pytest_report_collectionfinish(config, start_path, items):
    return config.stash.get(HEADER, None)


def pytest_configure(config):
    if config.getoption("shard"):
        config.stash[SHARD_OF] = parse_shard(config.getoption("shard"))
    if config.getoption("record_durations"):
        path = Path(config.getoption("durations_file"))
        config.pluginmanager.register(Recorder(path), "shards-recorder")


def pytest_sessionfinish(session, exitstatus):
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and session.config.stash.get(DROPPED, 0):
        session.exitstatus = pytest.ExitCode.OK  # the other shards have the tests


class Recorder:
    """Adds up each file's setup, call and teardown times; writes them when the session ends."""

    def __init__(self, path: Path):
        self.path = path
        self.times: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report):
        self.times[file_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self):
        if self.times:
            write_durations(self.times, self.path)


def write_durations(times: dict[str, float], path: Path) -> None:
    """Merge ``times`` into ``path`` under a lock (shards may finish together)."""
    lock_path = Path(tempfile.gettempdir()) / "ccreport-test-durations.lock"
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        merged = {**recorded(path), **{name: round(t, 1) for name, t in times.items()}}
        path.write_text(json.dumps(dict(sorted(merged.items())), indent=1) + "\n")
