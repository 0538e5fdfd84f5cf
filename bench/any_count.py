"""How loose the package's types are: how many `Any` its annotations carry, at the core's
boundaries and overall, and how many functions return `dict[str, Any]`.

    python bench/any_count.py            # the counts, and where the core's boundary has them
    python bench/any_count.py --list     # also every function returning dict[str, Any]

The core's boundary is what another layer can call: the public functions, and the public
methods of public classes, of `choice/core/` (the extension protocol, `core/extension.py`,
is among them), with their parameters and return values, and the public fields of its
public classes. Overall counts every annotation under `choice/` (parameters, returns,
annotated fields and variables). A string annotation is parsed and counted the same way.
Nothing is asserted: it prints, and exits 0.
"""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "choice" / "core"


@dataclass
class Counts:
    """What one walk over some modules found."""

    any_in_annotations: int = 0
    dict_any_returns: list[str] = field(default_factory=list)
    boundary_any: int = 0
    boundary_places: list[str] = field(default_factory=list)
    boundary_dict_any_returns: int = 0


def any_in(annotation: ast.expr | None) -> int:
    """How many times `Any` (or `typing.Any`) is named inside one annotation."""
    if annotation is None:
        return 0
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return 0
    found = 0
    for node in ast.walk(annotation):
        named = node.id if isinstance(node, ast.Name) else (
            node.attr if isinstance(node, ast.Attribute) else None)
        found += named == "Any"
    return found


def is_dict_str_any(annotation: ast.expr | None) -> bool:
    """Whether an annotation is `dict[str, Any]` (bare or `| None`)."""
    if annotation is None:
        return False
    text = ast.unparse(annotation).replace(" ", "").strip("'\"")
    return text in {"dict[str,Any]", "dict[str,Any]|None", "Dict[str,Any]"}


def signature_annotations(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.expr | None]:
    arguments = function.args
    for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                     arguments.vararg, arguments.kwarg]:
        if argument is not None:
            yield argument.annotation
    yield function.returns


def functions_of(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, bool]]:
    """Every function and method with its qualified name, and whether it is public (a
    public name, at module level or in a public class at module level)."""
    def walk(node: ast.AST, prefix: str, public: bool) -> Iterator[
            tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                dunder = child.name.startswith("__") and child.name.endswith("__")
                yield name, child, public and (dunder or not child.name.startswith("_"))
                yield from walk(child, f"{name}.<locals>.", False)
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.",
                                public and not child.name.startswith("_"))
            elif isinstance(child, (ast.If, ast.Try, ast.With)):
                yield from walk(child, prefix, public)
    yield from walk(tree, "", True)


def public_fields(tree: ast.Module) -> Iterator[tuple[str, ast.AnnAssign]]:
    """Annotated fields of public classes at module level."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                        and not item.target.id.startswith("_")):
                    yield f"{node.name}.{item.target.id}", item


def count(folder: Path) -> Counts:
    counts = Counts()
    for path in sorted(folder.rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        tree = ast.parse(path.read_text(), filename=str(path))
        at_core = path.is_relative_to(CORE)
        for node in ast.walk(tree):
            if isinstance(node, ast.AnnAssign):
                counts.any_in_annotations += any_in(node.annotation)
        for name, function, public in functions_of(tree):
            in_signature = sum(any_in(annotation) for annotation in signature_annotations(function))
            counts.any_in_annotations += in_signature
            returns_dict_any = is_dict_str_any(function.returns)
            if returns_dict_any:
                counts.dict_any_returns.append(f"{module}.{name}")
            if at_core and public:
                counts.boundary_any += in_signature
                counts.boundary_dict_any_returns += returns_dict_any
                if in_signature:
                    counts.boundary_places.append(f"{in_signature}  {module}.{name}")
        if at_core:
            for name, item in public_fields(tree):
                found = any_in(item.annotation)
                counts.boundary_any += found
                if found:
                    counts.boundary_places.append(f"{found}  {module}.{name}")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true",
                        help="list every function that returns dict[str, Any]")
    arguments = parser.parse_args()
    counts = count(ROOT / "choice")
    print(f"choice/: {counts.any_in_annotations} Any in annotations; "
          f"{len(counts.dict_any_returns)} functions return dict[str, Any]")
    print(f"core boundary (public API of choice/core, extension protocol included): "
          f"{counts.boundary_any} Any; {counts.boundary_dict_any_returns} return dict[str, Any]")
    for place in counts.boundary_places:
        print(f"  {place}")
    if arguments.list:
        print("\nFunctions returning dict[str, Any]:")
        for name in counts.dict_any_returns:
            print(f"  {name}")


if __name__ == "__main__":
    main()
