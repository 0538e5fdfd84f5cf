"""What a portal's start loads and makes: the modules a new portal's build imports, the
dataclasses it makes, and what the first page of a plain question loads on top.

    python bench/start_imports.py
    python bench/start_imports.py --all     # also every module the build loaded

Each probe runs in a fresh interpreter from the repository root, with a new data dir and
no `CHOICE_*` variable but that one. Rows:
- the packages that a start is meant to leave for later (each loaded on first use, or
  never), and which of them the build loaded anyway;
- every dataclass of `choice` that exists after the build (a dataclass compiles its
  methods from source when its class is made; a `msgspec.Struct` is made in C), beside the
  ones a start is known to make, and why;
- the first page of a plain question: its status and type, whether Python's MIME table
  was read, and whether a Markdown parser or Babel was loaded for it.
Nothing is asserted: it prints, and exits 0 whatever it finds.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

LATER = {
    "mcp": "the MCP SDK: on the first /mcp request",
    "mcp_types": "the MCP wire types: with the SDK",
    "alembic": "migrations: only when a database is behind",
    "sqlalchemy.dialects.postgresql": "PostgreSQL's dialect, on SQLite",
    "psycopg": "the PostgreSQL driver, on SQLite",
    "markdown_it": "Markdown: on the first page",
    "jinja2": "Jinja and the pages' environment: on the first page",
    "babel": "Babel: the catalogs are read without it",
    "choice.webhooks": "the webhook feature: only with CHOICE_WEBHOOK_URL",
    "platformdirs": "the default data dir: only without CHOICE_DATA_DIR",
}
"""Packages a start is meant to leave unimported, and when they are loaded instead."""

LIGHT = "imported by `choice mcp`, `choice ask` or `choice answer`, which load no msgspec"
KNOWN_DATACLASSES = {
    "choice.core.config.Settings": "the settings: a dataclass read once from the environment",
    "choice.web.api.openapi.OperationWithBody": "extends Litestar's OpenAPI dataclass",
    "choice.core.i18n.Catalog": LIGHT,
    "choice.core.i18n.Translator": LIGHT,
    "choice.core.i18n.PluralRule": LIGHT,
    "choice.core.resources.Resources": LIGHT,
    "choice.core.variables.Variable": LIGHT,
    "choice.core.time_defaults.TimeDefault": LIGHT,
    "choice.core.time_defaults.SeenEvent": LIGHT,
    "choice.contract.attachments.Limits": LIGHT,
    "choice.team.audience.Audience": LIGHT,
}
"""The dataclasses a start is known to make, and why each is one."""

BUILD = """
import dataclasses, json, sys
from choice.portal import create_app
create_app()
made = [f"{module.__name__}.{name}" for module in list(sys.modules.values())
        if module.__name__.startswith("choice")
        for name, value in vars(module).items()
        if isinstance(value, type) and dataclasses.is_dataclass(value)
        and value.__module__ == module.__name__]
print(json.dumps({"modules": sorted(sys.modules), "dataclasses": sorted(made)}))
"""

FIRST_PAGE = """
import json, mimetypes, sys
from litestar.testing import TestClient
from choice.core.config import Settings
from choice.portal import create_app
with TestClient(create_app(), base_url="http://127.0.0.1:8000") as client:
    token = (Settings.from_env().data_dir / "token").read_text().strip()
    created = client.post("/api/interactions", headers={"Authorization": "Bearer " + token},
                          json={"title": "Pick one", "prompt": "Which database (for now)?",
                                "options": [{"id": "a", "label": "SQLite"},
                                            {"id": "b", "label": "PostgreSQL"}]})
    client.get("/login?token=" + token, follow_redirects=False)
    page = client.get("/choice/" + created.json()["interaction_id"])
    print(json.dumps({"status": page.status_code, "type": page.headers["content-type"],
                      "mime_table_read": mimetypes.inited, "modules": sorted(sys.modules)}))
"""


def probe(code: str) -> dict[str, Any]:
    """Run `code` in a fresh interpreter with a new data dir; its JSON output."""
    with tempfile.TemporaryDirectory(prefix="choice-start-imports-") as scratch:
        env = {"CHOICE_DATA_DIR": str(Path(scratch) / "data"), "PATH": "/usr/bin:/bin"}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120, env=env, cwd=ROOT)
    if done.returncode != 0:
        print(f"probe failed ({done.returncode}):\n{done.stderr}", file=sys.stderr)
        return {}
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def loaded(modules: list[str], package: str) -> bool:
    return any(module == package or module.startswith(package + ".") for module in modules)


def report_build(built: dict[str, Any], every_module: bool) -> None:
    modules: list[str] = built["modules"]
    ours = [module for module in modules if module.startswith("choice")]
    print(f"A new portal's build: {len(modules)} modules loaded, {len(ours)} of them choice's.")
    print("\nPackages a start leaves for later:")
    for package, when in LATER.items():
        print(f"  {'LOADED ' if loaded(modules, package) else 'not loaded'}  {package}: {when}")
    made: list[str] = built["dataclasses"]
    print(f"\nDataclasses the build made: {len(made)}")
    for name in made:
        print(f"  {name}: {KNOWN_DATACLASSES.get(name, 'NEW: not among the known ones')}")
    for name in sorted(set(KNOWN_DATACLASSES) - set(made)):
        print(f"  (no longer made) {name}")
    if every_module:
        print("\nEvery module loaded:")
        for module in modules:
            print(f"  {module}")


def report_first_page(shown: dict[str, Any]) -> None:
    modules: list[str] = shown["modules"]
    print(f"\nThe first page of a plain question: {shown['status']} {shown['type']}, "
          f"{len(modules)} modules loaded by then")
    print(f"  Python's MIME table read: {'yes' if shown['mime_table_read'] else 'no'}")
    for package in ("jinja2", "markdown_it", "babel"):
        print(f"  {package}: {'loaded' if loaded(modules, package) else 'not loaded'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true",
                        help="also print every module the build loaded")
    arguments = parser.parse_args()
    built = probe(BUILD)
    if built:
        report_build(built, arguments.all)
    shown = probe(FIRST_PAGE)
    if shown:
        report_first_page(shown)


if __name__ == "__main__":
    main()
