"""No private name (leading underscore) is used across modules (DESIGN: small modules, public
seams).

Scans every module of the package, the tests and the benchmarks for ``from m import _name``,
imports of private modules (``from scipy.optimize._pava_pybind import ...``), ``alias._name`` and
``alias.attr._name`` where ``alias`` was bound by an import, ``getattr``/``setattr``/``hasattr``/
``delattr`` of such an alias with a private name as a literal, and ``importlib.import_module`` of a
literal private module path. Whatever another module needs is public in its home. A library's
private name is used only by the speedups (``ccreport/speedups/``, behind ``CCREPORT_SPEEDUPS``):
ALLOWED names files there and the tests of them, nowhere else.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("ccreport", "tests", "benchmarks")

# (file, private name) -> why it is allowed. An entry that no longer occurs fails the test, so the
# list only shrinks.
ALLOWED = {
    (
        "ccreport/speedups/figure_caches.py",
        "_backend_pdf_ps",
    ): "matplotlib's private PDF font-subsetting helper, "
    "behind one guarded context manager (shared_font_programs) that patches nothing if it is "
    "missing",
    (
        "ccreport/speedups/figure_caches.py",
        "Text._get_layout",
    ): "matplotlib's text layout, memoised across the "
    "renderers of one write_figures call behind one guarded context manager (shared_text_layouts)",
    ("ccreport/speedups/figure_caches.py", "_text_helpers"): "matplotlib's glyph layout, memoised "
    "while RendererPdf.draw_text draws plain text, behind one guarded context manager "
    "(shared_pdf_glyph_layouts)",
    (
        "tests/speedups/test_figure_caches.py",
        "Text._get_layout",
    ): "counts the text layouts matplotlib computes, to test "
    "that shared_text_layouts computes each once",
    (
        "ccreport/speedups/figure_caches.py",
        "Axis._update_ticks",
    ): "matplotlib's tick update, its last result per "
    "axis remembered while one figure is laid out and saved, behind one guarded context manager "
    "(remembered_tick_updates)",
    (
        "tests/speedups/test_figure_caches.py",
        "Axis._update_ticks",
    ): "counts the tick updates matplotlib runs, to test that remembered_tick_updates runs fewer",
    (
        "tests/speedups/test_figure_speedups.py",
        "Text._get_layout",
    ): "checks that matplotlib's text layout is patched only "
    "while the figure speedups are on, and restored after",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(source: str) -> list[tuple[int, str]]:
    """(line, name) of every private name this module takes from another module."""
    tree = ast.parse(source)
    bound: set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if any(_private(part) for part in a.name.split(".")):
                    found.append((node.lineno, a.name))
                bound.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if any(_private(part) for part in module.split(".")):
                found.append((node.lineno, module))
            for a in node.names:
                if _private(a.name):
                    found.append((node.lineno, a.name))
                bound.add(a.asname or a.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            root, chain = node.value, [node.attr]
            while isinstance(root, ast.Attribute):
                chain.append(root.attr)
                root = root.value
            if isinstance(root, ast.Name) and root.id in bound:
                # the name as written from its last link: Text._get_layout, atexit._run_exitfuncs
                prefix = chain[1] if len(chain) > 1 else root.id
                found.append((node.lineno, f"{prefix}.{node.attr}"))
        elif isinstance(node, ast.Call) and node.args:
            called = _called(node)
            builtin = isinstance(
                node.func, ast.Name
            )  # the builtins, not e.g. pytest's monkeypatch.setattr
            if (
                builtin
                and called in {"getattr", "setattr", "hasattr", "delattr"}
                and len(node.args) >= 2
            ):
                target, name = node.args[0], node.args[1]
                if (
                    isinstance(name, ast.Constant)
                    and isinstance(name.value, str)
                    and _private(name.value)
                ):
                    if isinstance(target, ast.Name) and target.id in bound:
                        found.append((node.lineno, f"{target.id}.{name.value}"))
            elif called == "import_module":
                name = node.args[0]
                if isinstance(name, ast.Constant) and isinstance(name.value, str):
                    if any(_private(part) for part in name.value.split(".")):
                        found.append((node.lineno, name.value))
    return sorted(found)


def _called(call: ast.Call) -> str | None:
    """The called function's own name: ``getattr`` for ``getattr(...)``, ``import_module`` for
    ``importlib.import_module(...)``."""
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _scan() -> dict[tuple[str, str], list[int]]:
    uses: dict[tuple[str, str], list[int]] = {}
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for line, name in private_uses(path.read_text(encoding="utf-8")):
                uses.setdefault((rel, name), []).append(line)
    return uses


def test_no_private_name_crosses_a_module():
    uses = _scan()
    bad = {key: lines for key, lines in uses.items() if key not in ALLOWED}
    assert not bad, (
        "private names used across modules (make them public in their home module): "
        + ", ".join(f"{path}:{lines[0]} {name}" for (path, name), lines in sorted(bad.items()))
    )
    stale = set(ALLOWED) - set(uses)
    assert not stale, (
        f"allowed private uses that no longer occur (remove them from ALLOWED): {sorted(stale)}"
    )


def speedup_test(path: str) -> bool:
    """A test module of a speedup (it imports ``ccreport.speedups``): it may count the library calls
    the speedup saves."""
    return path.startswith("tests/") and "ccreport.speedups" in (ROOT / path).read_text(
        encoding="utf-8"
    )


def test_only_the_speedups_use_a_private_name():
    """A library's private name belongs in ccreport/speedups/ (behind CCREPORT_SPEEDUPS) and its
    tests, not in the build's own code."""
    outside = sorted(
        {
            path
            for path, _ in ALLOWED
            if not (path.startswith("ccreport/speedups/") or speedup_test(path))
        }
    )
    assert not outside, (
        "private names allowed outside ccreport/speedups/ (move the code there or use a "
        f"public API): {outside}"
    )


def test_the_scanner_finds_each_form():
    source = (
        "from x import _a, b\n"
        "from .y import c as _c\n"
        "from z._kernel import k\n"
        "import p._q\n"
        "from ccreport.analysis import calibration as cb\n"
        "cb._world(1)\n"
        "cb.__name__\n"
        "local = object()\n"
        "local._fine\n"
        "def f(self):\n"
        "    return self._own\n"
        "import atexit, importlib\n"
        "from matplotlib import text\n"
        "getattr(atexit, '_run_exitfuncs', None)\n"
        "text.Text._get_layout = None\n"
        "importlib.import_module('scipy.integrate._quadpack')\n"
        "getattr(local, '_fine')\n"
    )
    assert private_uses(source) == [
        (1, "_a"),
        (3, "z._kernel"),
        (4, "p._q"),
        (6, "cb._world"),
        (14, "atexit._run_exitfuncs"),
        (15, "Text._get_layout"),
        (16, "scipy.integrate._quadpack"),
    ]
