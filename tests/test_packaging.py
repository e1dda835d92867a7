"""The wheel ships every package of the source tree: pyproject.toml lists packages by hand
(templates/ and themes/ are mapped into ccreport/), so a new subpackage must be added there, or a
non-editable install lacks it (ccreport.notebook once did)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_of_the_tree_is_in_pyproject():
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(tool["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "ccreport").rglob("__init__.py")}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert {"ccreport.templates", "ccreport.themes"} <= listed
