"""The speedups' switch and version guard (ccreport.speedups), and the heap speedup behind it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ccreport import speedups


@pytest.mark.parametrize(
    "value, on",
    [("1", True), ("0", False), ("off", False), (" No ", False), ("false", False), ("yes", True)],
)
def test_the_switch(monkeypatch, value, on):
    monkeypatch.setenv(speedups.SWITCH, value)
    assert speedups.enabled() is on


def test_active_needs_the_switch_and_a_version_it_was_written_for(monkeypatch, caplog):
    import numpy

    major, minor = numpy.__version__.split(".")[:2]
    monkeypatch.delenv(speedups.SWITCH, raising=False)
    assert speedups.active("t1", "numpy", (f"{major}.{minor}",))
    assert speedups.active("t2", "numpy", ("0", major))
    with caplog.at_level("DEBUG", logger="ccreport.speedups"):
        assert not speedups.active("t3", "numpy", (f"{major}.{int(minor) + 1}",))
        assert not speedups.active("t4", "no-such-distribution-ccreport", ("1",))
    assert "speedup t3 is off: written for numpy" in caplog.text and "installed none" in caplog.text
    monkeypatch.setenv(speedups.SWITCH, "0")
    assert not speedups.active("t1", "numpy", (f"{major}.{minor}",))


def _heap_set(switch: str) -> str:
    code = (
        "from ccreport.speedups.heap import glibc, keep_freed_memory\n"
        "print(keep_freed_memory(), glibc() is not None)"
    )
    import os

    env = {**os.environ, speedups.SWITCH: switch}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()


def test_the_heap_thresholds_are_set_only_with_speedups_on():
    """Off: nothing is set. On: set wherever the C library is glibc."""
    assert _heap_set("0")[0] == "False"
    on, glibc = _heap_set("1")
    assert on == glibc
