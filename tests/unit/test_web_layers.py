"""choice/web's own layers, read from the source (every import, those inside functions and
under TYPE_CHECKING too): no cycle; `api`, `pages` and `live` import none of each other;
`views` imports none of them; `security` imports nothing else of `choice.web`; and the web
transport names nothing of `choice.mcp`, not even by string (the composition root hands it
the MCP app). How long its modules are is a figure, not a rule: `bench/module_sizes.py`."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import choice.web

WEB = Path(choice.web.__file__).parent
ENTRY_POINTS = ("api", "pages", "live")
MODULE = re.compile(r"choice(\.[a-z_]+)+")


def module_name(path: Path) -> str:
    parts = ("choice", "web", *path.relative_to(WEB).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> Iterator[str]:
    """Every module name `path` imports by statement."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def named(path: Path) -> Iterator[str]:
    """Every string in `path` that names a module (`importlib.import_module("choice...")`,
    in any spelling), but a logger's name."""
    tree = ast.parse(path.read_text())
    loggers = {id(node.args[0]) for node in ast.walk(tree) if isinstance(node, ast.Call)
               and getattr(node.func, "attr", None) == "getLogger" and node.args}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and MODULE.fullmatch(node.value) and id(node) not in loggers:
            yield node.value


def graph() -> dict[str, set[str]]:
    modules = {module_name(path): path for path in WEB.rglob("*.py")}
    return {name: {other for other in imported(path) if other in modules and other != name}
            for name, path in modules.items()}


def part(module: str) -> str:
    """`choice.web.api.team` -> `api`; a module directly in `choice.web` is its own part."""
    return module.split(".")[2] if module.count(".") >= 2 else ""


def test_the_graph_is_read() -> None:
    edges = graph()
    assert "choice.web.views.interactions" in edges["choice.web.views.list_cache"]
    assert len(edges) > 40


def test_no_module_of_choice_web_is_part_of_an_import_cycle() -> None:
    edges = graph()
    cycles = []
    for start in edges:
        seen, todo = set(), list(edges[start])
        while todo:
            current = todo.pop()
            if current == start:
                cycles.append(start)
                break
            if current not in seen:
                seen.add(current)
                todo.extend(edges[current])
    assert cycles == []


def test_api_pages_and_live_import_none_of_each_other() -> None:
    crossing = [(name, other) for name, others in graph().items() for other in others
                if part(name) in ENTRY_POINTS and part(other) in ENTRY_POINTS
                and part(other) != part(name)]
    assert crossing == []


def test_views_import_no_entry_point_and_security_nothing_else_of_the_web() -> None:
    upward = [(name, other) for name, others in graph().items() for other in others
              if (part(name) == "views" and part(other) not in ("views", "security"))
              or (part(name) == "security" and part(other) != "security")]
    assert upward == []


def test_the_web_transport_names_nothing_of_the_mcp_transport() -> None:
    naming = sorted(module_name(path) for path in WEB.rglob("*.py")
                    if any(name == "choice.mcp" or name.startswith("choice.mcp.")
                           for name in (*imported(path), *named(path))))
    assert naming == []
