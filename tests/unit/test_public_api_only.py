"""The portal stands on its dependencies' public ground: no import of a third-party module or
name that starts with `_`, no `_attribute` read on a third-party name, no assignment to a
third-party module's attribute (a monkeypatch), and no subclass of a third-party class that
its library does not document for subclassing.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "choice"

DOCUMENTED_BASES = {
    "msgspec.Struct", "pydantic.BaseModel", "sqlmodel.SQLModel", "sqlalchemy.TypeDecorator",
    "litestar.Controller", "litestar.plugins.InitPlugin", "litestar.plugins.OpenAPISchemaPlugin",
    "litestar.response.Template", "litestar.plugins.htmx.HTMXTemplate",
    "litestar.exceptions.HTTPException", "litestar.exceptions.NotAuthorizedException",
    "jinja2.FileSystemBytecodeCache",
    # Litestar's OpenAPI guide, "Customizing Operation class": subclass it for a route
    # whose request body is parsed by hand, and pass it as the handler's `operation_class`.
    "litestar.openapi.spec.Operation",
    "litestar.middleware.authentication.AbstractAuthenticationMiddleware",
}
"""Classes their libraries tell users to subclass (a struct, a model, a table, a column type,
a controller, a plugin, a response, an exception, Jinja's bytecode cache, an OpenAPI
operation, an authentication middleware)."""



def third_party(module: str) -> bool:
    top = module.split(".")[0]
    return top not in ("choice", "__future__") and top not in sys.stdlib_module_names


def uses_in(path: Path) -> list[str]:
    """What `path` does with its third-party imports that public ground does not allow."""
    tree = ast.parse(path.read_text(), str(path))
    imported: dict[str, str] = {}  # local name -> the third-party dotted name it stands for
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and third_party(node.module):
            if any(part.startswith("_") for part in node.module.split(".")):
                found.append(f"import from private module {node.module}")
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"import of private name {node.module}.{alias.name}")
                imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if third_party(alias.name):
                    if any(part.startswith("_") for part in alias.name.split(".")):
                        found.append(f"import of private module {alias.name}")
                    local = alias.asname or alias.name.split(".")[0]
                    imported[local] = alias.name if alias.asname else local
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                dotted = ast.unparse(base.value if isinstance(base, ast.Subscript) else base)
                head, _, rest = dotted.partition(".")
                if head in imported:
                    full = imported[head] + (f".{rest}" if rest else "")
                    if full not in DOCUMENTED_BASES:
                        found.append(f"subclass {node.name} of {full}")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__") and _root(node) in imported:
            found.append(f"private attribute {ast.unparse(node)}")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and _root(target) in imported:
                    found.append(f"assignment to {ast.unparse(target)}")
    return found


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def every_use() -> set[tuple[str, str]]:
    return {(str(path.relative_to(ROOT)), use) for path in sorted(PACKAGE.rglob("*.py"))
            for use in uses_in(path)}


def test_the_portal_uses_no_private_part_of_a_dependency() -> None:
    assert every_use() == set()


@pytest.mark.parametrize(("source", "use"), [
    ("from litestar._signature import X\n", "import from private module litestar._signature"),
    ("from litestar import _x\n", "import of private name litestar._x"),
    ("import uvicorn\nuvicorn.server._state\n", "private attribute uvicorn.server._state"),
    ("import mcp.server as s\ns.configure_logging = print\n", "assignment to s.configure_logging"),
    ("from litestar import Litestar\nclass L(Litestar): pass\n", "subclass L of litestar.Litestar"),
    ("from msgspec import Struct\nclass S(Struct, frozen=True): pass\n", None),
    ("import json\njson._default_encoder\n", None),  # the standard library is not checked here
])
def test_the_check_sees_each_kind_of_use(tmp_path: Path, source: str, use: str | None) -> None:
    path = tmp_path / "module.py"
    path.write_text(source)
    assert uses_in(path) == ([use] if use else [])
