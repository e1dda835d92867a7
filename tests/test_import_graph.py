"""ccreport's modules import each other without a circle, and its top level stays small.

The graph is built with :mod:`ast` from every ``import`` statement of ccreport/ - at module level
and inside functions alike, since a function-level import that closes a circle only hides it - so
the layering (commands -> tasks -> analysis, results -> figures -> render) can be read off the
code."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ccreport"
MAX_TOP_MODULES = 12


def module_name(path: Path) -> str:
    parts = ["ccreport", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, modules: set[str]) -> set[str]:
    """The ccreport modules ``path`` imports; ``from package import name`` counts the submodule
    ``package.name`` when it is one, else the package itself."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets = [
                f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # import a.b.c of a module a.b's attribute
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imported_modules(p, modules) for p in paths}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph`` as a list of modules (first == last), or None (depth-first
    search)."""
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_import_graph_has_no_circle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_find_cycle_sees_a_circle_and_a_function_level_import(tmp_path):
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    graph = import_graph()  # a lazy import inside a function is an edge too
    assert "ccreport.commands.build" in graph["ccreport.cli"]


def test_at_most_twelve_modules_at_the_top():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top
