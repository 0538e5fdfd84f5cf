"""What a portal's start leaves unimported: each of these is loaded on first use, or never,
and each cost start-up time and memory when it was loaded at every start."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

NOT_AT_START = {
    "mcp": "the MCP SDK: on the first /mcp request",
    "mcp_types": "the MCP wire types: with the SDK",
    "alembic": "migrations: only when a database is behind",
    "sqlalchemy.dialects.postgresql": "PostgreSQL's dialect, on SQLite",
    "psycopg": "the PostgreSQL driver, on SQLite",
    "markdown_it": "Markdown: on the first page",
    "jinja2": "Jinja and the pages' environment: on the first page (~15 ms)",
    "babel": "Babel: the catalogs are read without it",
    "choice.webhooks": "the webhook feature: only with CHOICE_WEBHOOK_URL",
    "platformdirs": "the default data dir: only without CHOICE_DATA_DIR",
}

LIGHT = "imported by `choice mcp`, `choice ask` or `choice answer`, which load no msgspec"
DATACLASSES_AT_START = {
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
"""The only dataclasses a start makes: making one costs ~0.5 ms (its methods are compiled
from source), a `msgspec.Struct` ~0.1 ms; the ~80 a start made cost ~35 ms of it."""

PROBE = """
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


def started(tmp_path: Path) -> dict[str, list[str]]:
    """What a new portal's build loaded (`modules`) and which dataclasses it made."""
    env = {"CHOICE_DATA_DIR": str(tmp_path / "data"), "PATH": "/usr/bin:/bin"}
    return json.loads(subprocess.run([sys.executable, "-c", PROBE], capture_output=True,
                                     text=True, check=True, timeout=120, env=env).stdout)


def test_a_new_portal_is_built_without_what_it_loads_later(tmp_path: Path) -> None:
    loaded = started(tmp_path)["modules"]
    assert "choice.web.app" in loaded and "litestar" in loaded  # the probe built the app
    imported = {name: why for name, why in NOT_AT_START.items()
                if any(module == name or module.startswith(name + ".") for module in loaded)}
    assert imported == {}


def test_a_start_makes_no_dataclass_but_the_listed_ones(tmp_path: Path) -> None:
    """A record, a view or a service object a start makes is a `msgspec.Struct`, unless a
    light command needs it too."""
    assert set(started(tmp_path)["dataclasses"]) == set(DATACLASSES_AT_START)


FIRST_PAGE = """
import json, mimetypes, sys
from litestar.testing import TestClient
from choice.core.config import Settings
from choice.portal import create_app
token = None
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


def test_the_first_page_of_a_plain_question_reads_no_parser_nor_mime_table(
        tmp_path: Path) -> None:
    env = {"CHOICE_DATA_DIR": str(tmp_path / "data"), "PATH": "/usr/bin:/bin"}
    shown = json.loads(subprocess.run([sys.executable, "-c", FIRST_PAGE], capture_output=True,
                                      text=True, check=True, timeout=120, env=env).stdout)
    assert (shown["status"], shown["type"]) == (200, "text/html; charset=utf-8")
    assert "jinja2" in shown["modules"]  # the page was rendered
    assert not shown["mime_table_read"]  # each page response says it is HTML
    assert not [name for name in shown["modules"] if name.split(".")[0] in ("markdown_it", "babel")]
