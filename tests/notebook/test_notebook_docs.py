"""Every python code block of docs/notebook.md runs, in order, in one namespace."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "notebook.md"


def code_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_docs_notebook_examples_run(tmp_path):
    pytest.importorskip("pandas")
    pytest.importorskip("sklearn")
    blocks = code_blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 6
    namespace: dict = {}
    cwd = os.getcwd()
    os.chdir(tmp_path)  # the examples save PNG files
    try:
        for k, block in enumerate(blocks):
            exec(compile(block, f"{DOC.name} block {k + 1}", "exec"), namespace)
    finally:
        os.chdir(cwd)
    for png in ("three-costs.png", "kendall.png", "lr-methods.png", "rociv.png", "iv-cost.png"):
        assert (tmp_path / png).is_file(), png
