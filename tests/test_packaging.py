"""The wheel ships every file of the package tree: packages are found by setup.py (setuptools'
``find_packages``), not listed, and templates/ and themes/ are mapped into ccreport/ by
``package-dir`` in pyproject.toml, so a new subpackage cannot be left out of a non-editable install
(ccreport.notebook once was)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_pyproject_lists_no_packages_by_hand():
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]
    assert "packages" not in tool, "packages are found by setup.py; a hand-made list goes stale"
    assert tool["package-dir"] == {
        "ccreport": "ccreport",
        "ccreport.templates": "templates",
        "ccreport.themes": "themes",
    }


def test_build_py_copies_every_file_of_the_tree(tmp_path):
    """``setup.py build_py`` (what a wheel is made of) on a copy of the source: every .py file of
    ccreport/, its style and every file of templates/ and themes/, at ccreport/templates|themes."""
    for name in ("ccreport", "templates", "themes"):
        shutil.copytree(
            ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    out = tmp_path / "out"
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "-d", str(out)],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )

    def files(folder: Path, prefix: str) -> set[str]:
        return {
            f"{prefix}{p.relative_to(folder).as_posix()}" for p in folder.rglob("*") if p.is_file()
        }

    expected = (
        files(tmp_path / "ccreport", "ccreport/")
        | files(tmp_path / "templates", "ccreport/templates/")
        | files(tmp_path / "themes", "ccreport/themes/")
    )
    shipped = files(out, "")
    assert expected - shipped == set()
    assert {
        "ccreport/tasks/battery.py",
        "ccreport/templates/base.html",
        "ccreport/ccreport.mplstyle",
    } <= shipped
