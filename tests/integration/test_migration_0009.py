"""Revision 0009 (JSON columns) on a database the previous release made: every row and every
JSON value comes through, on SQLite and on PostgreSQL, and the portal then works on it.

`tests/fixtures/choice-0008.db` was made by the portal at revision 0008 (commit 23f88f5),
with rows in every table; its rows are listed in `choice-0008.json` (see
`tests/fixtures/make_0008_database.py`). On SQLite the test upgrades a copy of the file; on
PostgreSQL it brings a new database to 0008 with the revisions, writes the same rows into it
as that release stored them (JSON as text), and upgrades that.
"""

from __future__ import annotations

import base64
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Boolean, Engine, Table, select, text

from choice.contract import Submission
from choice.core.actors import Actor
from choice.core.config import Settings
from choice.store.engine import make_engine
from choice.store.json_type import StoredJSON
from choice.store.schema import alembic_config, head, upgrade_url
from choice.store.tables import METADATA
from tests.running import built

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
V8_DATABASE = FIXTURES / "choice-0008.db"
V8: dict[str, Any] = json.loads((FIXTURES / "choice-0008.json").read_text())
TABLES = [table.name for table in METADATA.sorted_tables if table.name in V8]
"""The tables 0008 had (later revisions add others, which hold nothing of the fixture's)."""
T0 = 1_795_942_800.0
"""The fixture's clock; the portal below runs an hour later (nothing it left is due then)."""



def stored(value: Any) -> Any:
    """A value as the fixture lists it, as the database holds it (bytes were base64)."""
    return base64.b64decode(value["base64"]) if isinstance(value, dict) else value


def json_columns(table: Table) -> list[str]:
    return [column.name for column in table.columns if isinstance(column.type, StoredJSON)]


def key_of(table: Table, row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(row[column.name] for column in table.primary_key.columns)


def expected_rows(table: Table) -> list[dict[str, Any]]:
    """The fixture's rows of `table` as a read now gives them: JSON text as its value."""
    found = []
    for row in V8[table.name]:
        values = {name: stored(value) for name, value in row.items()}
        for name in json_columns(table):
            values[name] = None if values[name] is None else json.loads(values[name])
        found.append(values)
    return sorted(found, key=lambda row: key_of(table, row))


def read_rows(engine: Engine, table: Table) -> list[dict[str, Any]]:
    """The rows of `table`, in the columns 0008 had (later revisions add others)."""
    known = {name for row in V8[table.name] for name in row} or {c.name for c in table.columns}
    with engine.connect() as conn:
        found = [dict(m) for m in conn.execute(
            select(*[c for c in table.columns if c.name in known])).mappings()]
    return sorted(found, key=lambda row: key_of(table, row))


def as_json(rows: list[dict[str, Any]], table: Table) -> list[list[str]]:
    """Each row's JSON values written out: key order and int/float/bool must match too."""
    return [[json.dumps(row[name], ensure_ascii=False) for name in json_columns(table)]
            for row in rows]


def sqlite_dump(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Every row, as the fixture script read them (in the columns 0008 had: later revisions
    add others)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        conn.row_factory = sqlite3.Row
        return {table: [{k: {"base64": base64.b64encode(v).decode()} if isinstance(v, bytes)
                         else v for k, v in dict(row).items()
                         if not V8[table] or k in V8[table][0]}
                        for row in conn.execute(f"SELECT * FROM {table} ORDER BY rowid")]
                for table in TABLES}


def at_0008(url: str, data_dir: Path) -> None:
    """The previous release's database: the fixture file, or (PostgreSQL) the revisions up to
    0008 and the fixture's rows written as that release stored them."""
    if url.startswith("sqlite"):
        data_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(V8_DATABASE, data_dir / "choice.db")
        assert sqlite_dump(data_dir / "choice.db") == {t: V8[t] for t in TABLES}  # intact
        return
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0008")
            for name in TABLES:
                flags = {c.name for c in METADATA.tables[name].columns
                         if isinstance(c.type, Boolean)}  # SQLite's 0 and 1
                rows = [{k: bool(v) if k in flags else stored(v) for k, v in row.items()}
                        for row in V8[name]]
                columns = ", ".join(rows[0])
                conn.execute(text(f"INSERT INTO {name} ({columns}) VALUES "
                                  f"({', '.join(':' + c for c in rows[0])})"), rows)
            for name in ("audit_event", "comment", "outbox"):  # serial ids go on from there
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                  f"(SELECT max(id) FROM {name}))"))
    finally:
        engine.dispose()


def stored_text(engine: Engine, table: Table) -> list[list[str | None]]:
    """The JSON columns' text as the database keeps it, in key order."""
    names = json_columns(table)
    casts = ", ".join(f"{n}::text" if engine.dialect.name == "postgresql" else n for n in names)
    order = ", ".join(c.name for c in table.primary_key.columns)
    with engine.connect() as conn:
        return [list(row) for row in conn.execute(
            text(f"SELECT {casts} FROM {table.name} ORDER BY {order}"))]


async def test_every_row_and_json_value_comes_through_and_the_pending_question_is_answered(
        backend: str, isolated_env: Path, request: pytest.FixtureRequest) -> None:
    url = (request.getfixturevalue("pg_cluster").new_database(migrated=False)
           if backend == "postgresql" else f"sqlite:///{isolated_env / 'choice.db'}")
    at_0008(url, isolated_env)

    done = upgrade_url(url)
    assert (done.before, done.after) == ("0008", head())
    engine = make_engine(url)
    try:
        for name in TABLES:
            table = METADATA.tables[name]
            found, expected = read_rows(engine, table), expected_rows(table)
            assert found == expected, name
            assert as_json(found, table) == as_json(expected, table), name
            if json_columns(table):  # the text itself is kept as the old release wrote it
                order = sorted(V8[name], key=lambda row: key_of(table, row))
                assert stored_text(engine, table) == [
                    [row[n] for n in json_columns(table)] for row in order], name
    finally:
        engine.dispose()
    if url.startswith("sqlite"):  # nothing changed on disk but the version
        assert sqlite_dump(isolated_env / "choice.db") == {t: V8[t] for t in TABLES}

    settings = Settings.from_env({"CHOICE_DATA_DIR": str(isolated_env), "CHOICE_DB_URL": url,
                                  "CHOICE_RETENTION_DAYS": "36500"})
    running = built(settings, clock=lambda: T0 + 3600)
    await running.start()
    await running.scans.stop()  # reminders: none are due an hour on; no scan races the answer
    try:
        prefs = await running.preferences()
        assert (prefs.timeout_seconds, prefs.language, prefs.show_placeholder,
                prefs.hidden_options, [m.name for m in prefs.team]) == (
            900, None, False, ["Later"], ["Alice", "Bob"])
        draft = await running.drafts.get(V8["drafted"])
        assert draft["draft"]["selected_ids"] == ["lint", "tests"]
        assert draft["draft"]["option_annotations"] == {"tests": "“all” of them"}
        review = await running.decision.review(V8["widened"])
        assert review.candidate_selected_ids == ["pg"]
        discussion = await running.team.discussion(V8["widened"])
        assert {t.option_id: t.voters for t in discussion.tally()} == {
            "pg": ["Alice"], "lite": ["Bob"], "later": ["Bob"]}

        row = await running.submit(V8["answer"], Submission(selected_ids=["lite"]),
                                   "web", Actor.owner("web"))
        result = row.result_json or {}
        assert (row.status, result["selected_labels"]) == ("submitted", ["SQLite"])
        assert (await running.get(V8["answer"])).result_json == result
    finally:
        await running.stop()
        running.store.close()

    engine = make_engine(url)
    try:
        for name in TABLES:  # the answer changed its own row and added its events, no more
            table = METADATA.tables[name]
            found = read_rows(engine, table)
            if name == "interaction":
                found = [r for r in found if r["id"] != V8["answer"]]
                expected = [r for r in expected_rows(table) if r["id"] != V8["answer"]]
            elif name == "audit_event":
                added = [(e["interaction_id"], e["kind"]) for e in found[len(V8[name]):]]
                assert added == [(V8["answer"], "answered")]
                found, expected = found[:len(V8[name])], expected_rows(table)
            else:
                expected = expected_rows(table)
            assert found == expected, name
    finally:
        engine.dispose()
