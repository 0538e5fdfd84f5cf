"""choice/terminal's import graph, read with `ast` (imports under TYPE_CHECKING and inside
functions included): no module imports one that imports it back, and `keys.py` stays a
leaf every stage can use (state, review and settings once imported each other)."""

from __future__ import annotations

import ast
from pathlib import Path

import choice.terminal

PACKAGE = Path(choice.terminal.__file__).parent


def module_name(path: Path) -> str:
    parts = path.with_suffix("").relative_to(PACKAGE.parent.parent).parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports() -> dict[str, set[str]]:
    """Each terminal module -> the terminal modules it imports."""
    modules = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                found |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
            elif isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
        graph[name] = {target for target in found if target in modules and target != name}
    return graph


def reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        here = todo.pop()
        if here not in seen:
            seen.add(here)
            todo.extend(graph[here])
    return seen


def test_no_terminal_module_imports_one_that_imports_it_back() -> None:
    graph = imports()
    assert "choice.terminal.state" in graph and "choice.terminal.stages.review" in graph
    cycles = sorted(name for name in graph if name in reaches(graph, name))
    assert cycles == []


def test_keys_is_a_leaf() -> None:
    assert imports()["choice.terminal.keys"] == set()
