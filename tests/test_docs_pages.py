"""The README is a front door and docs/ holds the reference: the README stays short, every relative
link of README.md and docs/*.md leads to a file (and heading) that exists, and docs/manifest.md
documents every key the manifest accepts, read from `ccreport check`'s own list of valid keys."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor of a markdown heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text, in_code, found = page.read_text(encoding="utf-8"), False, set()
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found


def test_readme_is_at_most_200_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; the reference belongs in docs/"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(page):
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(
                f"{target}: no file {file.relative_to(ROOT) if ROOT in file.parents else file}"
            )
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(f"{target}: no heading #{fragment} in {file.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


MANIFEST_WITH_UNKNOWN_KEYS = """\
zqxjkv = 1
[project]
title = "t"
zqxjkv = 1
[[datasets]]
name = "d"
path = "d.csv"
label = "y"
positive = "1"
costs = { fn = 1, fp = 1, zqxjkv = 1 }
zqxjkv = 1
[[classifiers]]
name = "s"
scores = "s"
zqxjkv = 1
[[priors]]
name = "u"
distribution = "uniform"
zqxjkv = 1
[[priors]]
name = "b"
distribution = "beta"
a = 2
b = 8
zqxjkv = 1
[[priors]]
name = "p"
distribution = "point"
pc = 0.5
zqxjkv = 1
[[priors]]
name = "i"
distribution = "induced"
p_positive = { distribution = "point", value = 0.3, zqxjkv = 1 }
cost_ratio = { distribution = "loguniform", low = 1, high = 10, zqxjkv = 1 }
zqxjkv = 1
[[criteria]]
name = "np"
kind = "neyman_pearson"
max_fpr = 0.1
zqxjkv = 1
[[criteria]]
name = "w"
kind = "workforce"
capacity = 1
zqxjkv = 1
[[criteria]]
name = "pi"
kind = "performance_independent"
zqxjkv = 1
[[criteria]]
name = "pb"
kind = "parameter_based"
members = { s = 0.5 }
zqxjkv = 1
"""


def test_manifest_page_documents_every_key(tmp_path):
    """Each table of the manifest gets an unknown key; `check` answers with the keys it accepts
    there, and each of those must appear in docs/manifest.md as `key = ...`, `key`, a table header
    [key] or [[key]], or in a comment's list of keys such as `point (value)` or `uniform (low,
    high)`."""
    (tmp_path / "ccreport.toml").write_text(MANIFEST_WITH_UNKNOWN_KEYS, encoding="utf-8")
    (tmp_path / "d.csv").write_text("y,s\n1,0.9\n0,0.1\n", encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    run = subprocess.run(
        [sys.executable, "-m", "ccreport", "check", str(tmp_path), "-o", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    lists = re.findall(r"unknown key 'zqxjkv'; expected one of ([^\n]+)", run.stdout + run.stderr)
    assert len(lists) >= 14, run.stdout + run.stderr  # every table above answered with its keys
    keys = {key.strip() for found in lists for key in found.split(",")}
    page = (ROOT / "docs" / "manifest.md").read_text(encoding="utf-8")
    forms = r"(^|[\s{{,]){k}\s*=|`{k}`|\[{k}\]|\({k}[,)]|, {k}\)"
    missing = sorted(k for k in keys if not re.search(forms.format(k=re.escape(k)), page, re.M))
    assert not missing, f"docs/manifest.md does not document: {', '.join(missing)}"
