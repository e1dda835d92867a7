"""The speedups change no output: the example built with CCREPORT_SPEEDUPS=0 and one worker gives
the same results.json and HTML pages, byte for byte, as the default build (speedups on, one worker
per core). This is CI's build of the example with the speedups off."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "example_project"


def _build(out: Path, *extra: str, speedups: bool) -> None:
    env = {**os.environ, "CCREPORT_SPEEDUPS": "1" if speedups else "0"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ccreport",
            "build",
            str(EXAMPLE),
            "-o",
            str(out),
            "--no-cache",
            "--no-pdf",
            "-q",
            *extra,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr  # no library warning reaches the terminal


def _compared(folder: Path) -> dict[str, bytes]:
    """results.json, every HTML page and every figure SVG, by path inside the output."""
    files = [folder / "results.json", *folder.rglob("*.html"), *folder.rglob("*.svg")]
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(files)}


@pytest.mark.slow
def test_speedups_off_and_one_worker_give_the_default_builds_bytes(tmp_path):
    _build(tmp_path / "default", speedups=True)
    _build(tmp_path / "off", "-j", "1", speedups=False)
    default, off = _compared(tmp_path / "default"), _compared(tmp_path / "off")
    assert sorted(default) == sorted(off)
    assert any(name.endswith(".html") for name in default) and "results.json" in default
    differing = [name for name in default if default[name] != off[name]]
    assert not differing, f"speedups off (-j 1) and the default build differ in: {differing[:10]}"
