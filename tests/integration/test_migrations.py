"""Schema migrations: a database made by choice-portal 0.1.0 upgrades in place with nothing
lost, a new one is made at head, and processes starting together migrate once.

`tests/fixtures/choice-0.1.0.db` was made by 0.1.0's own code; its rows are listed in
`choice-0.1.0.json` (see `tests/fixtures/make_v0_database.py`).
"""

from __future__ import annotations

import json
import multiprocessing
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine

from choice.core.config import Settings
from choice.store import Store
from choice.store.engine import make_engine
from choice.store.schema import (
    HEAD,
    SchemaError,
    alembic_config,
    current,
    head,
    upgrade,
    upgrade_url,
)
from choice.store.tables import METADATA
from tests.portal_process import PortalProcess

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
V0_DATABASE = FIXTURES / "choice-0.1.0.db"
V0_ROWS: dict[str, Any] = json.loads((FIXTURES / "choice-0.1.0.json").read_text())
TABLES = ("interaction", "audit_event", "preference")


LATER_COLUMNS = {"interaction": {"member_id"}, "participant": {"member_id"}}
"""Columns later releases added to the fixtures' tables (empty on an upgraded database):
left out where rows are compared with the fixtures'."""


def read_tables(path: Path, tables: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        conn.row_factory = sqlite3.Row
        return {table: [{name: value for name, value in dict(row).items()
                         if name not in LATER_COLUMNS.get(table, ())}
                        for row in conn.execute(f"SELECT * FROM {table} ORDER BY 1")]
                for table in tables}


def rows(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Every row, read the way the fixture script read them."""
    return read_tables(path, TABLES)


def kept_rows(path: Path) -> dict[str, list[dict[str, Any]]]:
    """`rows`, without the reminders a started portal may add at once: the fixture's pending
    question was asked long ago, so its "nobody opened it" reminder is due at start."""
    found = rows(path)
    found["audit_event"] = [e for e in found["audit_event"] if e["kind"] != "reminder_sent"]
    return found


def version_in(path: Path) -> list[str]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")]


def schema_of(path: Path) -> set[tuple[str, str]]:
    """The tables and indexes as SQLite stores their DDL (the version table left out)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return {(name, sql) for name, sql in conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL "
            "AND name != 'alembic_version'")}


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


@pytest.fixture
def v0_copy(isolated_env: Path) -> Path:
    isolated_env.mkdir(parents=True, exist_ok=True)
    copy = isolated_env / "choice.db"
    shutil.copyfile(V0_DATABASE, copy)
    return copy


@pytest.fixture
def engine(tmp_path: Path) -> Any:
    made = make_engine(sqlite_url(tmp_path / "fresh.db"))
    yield made
    made.dispose()


# -- 0.1.0's database --------------------------------------------------------------------

@pytest.mark.slow
def test_a_0_1_0_database_keeps_every_row_and_its_pending_question_can_be_answered(
        v0_copy: Path) -> None:
    assert rows(v0_copy) == {table: V0_ROWS[table] for table in TABLES}  # the fixture is intact
    # The fixture's answered questions are from 2026: retention must not be what is tested.
    portal = PortalProcess(v0_copy.parent, CHOICE_RETENTION_DAYS="36500").start()
    try:
        assert version_in(v0_copy) == [head()]
        assert kept_rows(v0_copy) == {table: V0_ROWS[table] for table in TABLES}
        client = portal.client()
        listed = {row["interaction_id"] for row in client.list("all", 50)["interactions"]}
        assert listed == {row["id"] for row in V0_ROWS["interaction"]}
        status, result = client.request(
            "POST", f"/api/interactions/{V0_ROWS['answer']}/response", {"selected_ids": ["lite"]})
        assert status == 200, result
        assert (result["status"], result["selected_ids"]) == ("submitted", ["lite"])
        assert client.poll(V0_ROWS["answer"], wait=0)["selected_labels"] == ["SQLite"]
    finally:
        portal.stop()
    after = rows(v0_copy)
    answered = next(r for r in after["interaction"] if r["id"] == V0_ROWS["answer"])
    assert answered["status"] == "submitted"
    assert [r for r in after["interaction"] if r["id"] != V0_ROWS["answer"]] == \
        [r for r in V0_ROWS["interaction"] if r["id"] != V0_ROWS["answer"]]
    assert after["audit_event"][:len(V0_ROWS["audit_event"])] == V0_ROWS["audit_event"]
    # The fixture's pending question was asked long ago: a portal that starts on it may send
    # its "nobody opened it" reminder before the answer lands (audited as `reminder_sent`).
    added = [e["kind"] for e in after["audit_event"][len(V0_ROWS["audit_event"]):]]
    assert [kind for kind in added if kind != "reminder_sent"] == ["answered"]
    assert after["preference"] == V0_ROWS["preference"]


def test_a_0_1_0_database_is_stamped_not_recreated(v0_copy: Path, tmp_path: Path) -> None:
    done = upgrade_url(sqlite_url(v0_copy))
    assert (done.before, done.after, done.stamped) == (None, head(), True)
    assert rows(v0_copy) == {table: V0_ROWS[table] for table in TABLES}
    fresh = tmp_path / "fresh.db"
    migrated = make_engine(sqlite_url(fresh))
    with migrated.begin() as conn:  # every revision from an empty file
        command.upgrade(alembic_config(conn), "head")
    migrated.dispose()
    assert schema_of(v0_copy) == schema_of(fresh)  # 0.1.0's tables are the baseline exactly


def test_tables_that_are_not_0_1_0s_are_refused_and_left_alone(v0_copy: Path) -> None:
    with sqlite3.connect(v0_copy) as conn:
        conn.execute("ALTER TABLE preference ADD COLUMN note TEXT")
    before = schema_of(v0_copy)
    with pytest.raises(SchemaError, match="table preference has unknown note") as refused:
        upgrade_url(sqlite_url(v0_copy))
    assert "CHOICE_DB_URL" in str(refused.value)
    assert schema_of(v0_copy) == before
    assert current(sqlite_url(v0_copy)).revision is None


def test_a_database_from_a_newer_version_is_refused_with_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    upgrade_url(sqlite_url(path))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    with pytest.raises(SchemaError, match="'9999_from_the_future' is unknown") as refused:
        Store(sqlite_url(path)).open()
    assert "Upgrade choice-portal" in str(refused.value)
    assert version_in(path) == ["9999_from_the_future"]


# -- fresh databases, and doing it twice ----------------------------------------------------

def test_a_fresh_data_dir_is_created_at_head(isolated_env: Path) -> None:
    settings = Settings.from_env()
    settings.prepare_data_dir()
    Store(settings.db_url).open().close()
    assert version_in(isolated_env / "choice.db") == [head()]
    assert current(settings.db_url).describe().endswith(f"{head()} (head)")


def test_a_second_upgrade_changes_nothing(engine: Engine) -> None:
    first = upgrade(engine)
    assert (first.before, first.after) == (None, head())
    with engine.connect() as conn:
        data_version = conn.exec_driver_sql("PRAGMA data_version").scalar()
        second = upgrade(engine)
        # data_version moves when another connection commits a change to the file
        assert conn.exec_driver_sql("PRAGMA data_version").scalar() == data_version
    assert (second.before, second.after, second.stamped) == (head(), head(), False)


def test_head_is_the_newest_revision_on_disk() -> None:
    assert head() == HEAD, "set HEAD in choice/store/schema.py to the new revision"


def test_a_database_at_head_opens_without_alembic_or_postgresql(engine: Engine) -> None:
    upgrade(engine)
    url = str(engine.url)
    probe = ("import sys; from choice.store import Store; Store(sys.argv[1]).open().close(); "
             "print(sorted(m for m in sys.modules if m.startswith(('alembic', "
             "'sqlalchemy.dialects.postgresql'))))")
    loaded = subprocess.run([sys.executable, "-c", probe, url], capture_output=True, text=True,
                            check=True, timeout=60).stdout
    # ~10 MB of the portal's memory saved at every start, ~3 MB without PostgreSQL's dialect
    # on SQLite
    assert loaded.strip() == "[]"


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_the_tables_match_what_the_migrations_make(
        store: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Columns, types (`compare_type`), keys and indexes: what `tables.py` declares is what
    every revision run in turn makes, on each store."""
    url = (request.getfixturevalue("pg_cluster").new_database(migrated=False)
           if store == "postgresql" else sqlite_url(tmp_path / "migrated.db"))
    engine = make_engine(url)
    try:
        with engine.begin() as conn:  # every revision, as a database of an older release takes them
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), METADATA)
    finally:
        engine.dispose()
    assert differences == [], "tables.py and the migrations differ: add a revision " \
        "(scripts/new-migration)"


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_a_new_database_is_made_at_head_without_the_revisions(
        store: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """A database the portal never touched gets `tables.py`'s tables and the version at head
    in one step, without loading Alembic; they are what the revisions make (the test above)."""
    url = (request.getfixturevalue("pg_cluster").new_database(migrated=False)
           if store == "postgresql" else sqlite_url(tmp_path / "new.db"))
    probe = ("import sys; from choice.store.schema import upgrade_url; d = upgrade_url(sys.argv[1]); "
             "print(d.before, d.after, sorted(m for m in sys.modules if m.startswith('alembic')))")
    made = subprocess.run([sys.executable, "-c", probe, url], capture_output=True, text=True,
                          check=True, timeout=60).stdout
    assert made.strip() == f"None {head()} []"
    fresh = make_engine(url)
    try:
        with fresh.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), METADATA) == []
            assert MigrationContext.configure(conn).get_current_revision() == head()
        assert upgrade(fresh).before == head()  # and it is at head for the next start
    finally:
        fresh.dispose()


def _upgrade_in_child(url: str, start: Any, outcomes: Any) -> None:
    start.wait()
    try:
        done = upgrade_url(url)
        outcomes.put(("ok", done.before))
    except Exception as error:  # reported to the parent, which fails the test with it
        outcomes.put(("error", repr(error)))


@pytest.mark.slow
def test_processes_migrating_a_fresh_file_at_once_migrate_it_once(tmp_path: Path) -> None:
    """Forked after the imports, so each round costs what the race costs, not start-up."""
    fork = multiprocessing.get_context("fork")
    for round_ in range(10):
        path = tmp_path / f"race-{round_}.db"
        start, outcomes = fork.Barrier(4), fork.Queue()
        children = [fork.Process(target=_upgrade_in_child, args=(sqlite_url(path), start, outcomes))
                    for _ in range(4)]
        for child in children:
            child.start()
        results = sorted((outcomes.get(timeout=60) for _ in children), key=str)
        for child in children:
            child.join(timeout=10)
        assert [kind for kind, _ in results] == ["ok"] * 4, results
        assert sorted(str(before) for _, before in results) == [head()] * 3 + ["None"], results
        assert version_in(path) == [head()]


# -- the operator's commands ------------------------------------------------------------------

def choice_db(action: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "choice.cli", "db", action],
                          capture_output=True, text=True, timeout=60)


def test_choice_db_current_and_upgrade_say_where_the_database_stands(v0_copy: Path) -> None:
    before = choice_db("current")
    assert before.returncode == 0 and "no schema version (made by choice-portal 0.1.0)" \
        in before.stdout
    upgraded = choice_db("upgrade")
    assert upgraded.returncode == 0
    assert "recognised as choice-portal 0.1.0's, stamped 0001" in upgraded.stdout
    again = choice_db("upgrade")
    assert again.stdout.strip().endswith(f"already at {head()} (head), nothing to do")
    assert choice_db("current").stdout.strip().endswith(f": {head()} (head)")
    assert rows(v0_copy) == {table: V0_ROWS[table] for table in TABLES}


def test_choice_db_current_creates_nothing(isolated_env: Path) -> None:
    shown = choice_db("current")
    assert shown.returncode == 0 and "no database yet" in shown.stdout
    assert not isolated_env.exists()


def test_choice_db_names_a_newer_revision_and_fails(v0_copy: Path) -> None:
    upgrade_url(sqlite_url(v0_copy))
    with sqlite3.connect(v0_copy) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'abcdef'")
    for action in ("current", "upgrade"):
        shown = choice_db(action)
        assert shown.returncode == 1
        assert "'abcdef' is unknown" in shown.stdout + shown.stderr
        assert "Traceback" not in shown.stderr


# -- 0002: the team tables, on a database the previous release made -------------------------

def _at_0001(path: Path) -> None:
    """What the release before team mode leaves: 0.1.0's rows, stamped 0001 by Alembic."""
    from alembic import command

    shutil.copyfile(V0_DATABASE, path)
    engine = make_engine(sqlite_url(path))
    try:
        with engine.begin() as conn:
            command.stamp(alembic_config(conn), "0001")
    finally:
        engine.dispose()


def test_0002_adds_the_team_tables_and_keeps_every_row(isolated_env: Path) -> None:
    isolated_env.mkdir(parents=True, exist_ok=True)
    path = isolated_env / "choice.db"
    _at_0001(path)
    assert version_in(path) == ["0001"]
    done = upgrade_url(sqlite_url(path))
    assert (done.before, done.after) == ("0001", head())
    assert rows(path) == {table: V0_ROWS[table] for table in TABLES}
    with sqlite3.connect(path) as conn:
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"widening", "participant", "comment", "vote", "outbox"} <= tables


@pytest.mark.slow
def test_a_pending_question_of_the_previous_release_can_be_widened(isolated_env: Path) -> None:
    isolated_env.mkdir(parents=True, exist_ok=True)
    _at_0001(isolated_env / "choice.db")
    portal = PortalProcess(isolated_env, CHOICE_RETENTION_DAYS="36500").start()
    try:
        client = portal.client()
        status, invited = client.request(
            "POST", f"/api/interactions/{V0_ROWS['answer']}/widen",
            {"audience": ["Alice"], "mode": "continue"})
        assert status == 201, invited
        secret = invited["participants"][0]["link"].rsplit("/d/", 1)[1]
        status, _ = client.request("POST", f"/api/d/{secret}/comments", {"text": "SQLite."})
        assert status == 201
        assert client.poll(V0_ROWS["answer"], wait=0)["status"] == "widened"
    finally:
        portal.stop()
    assert version_in(isolated_env / "choice.db") == [head()]


# -- 0003: the decision table, on a database with a widened discussion ------------------------

TEAM_TABLES = ("widening", "participant", "comment", "vote")
SECRETS = {"Alice": "A" * 32, "Bob": "B" * 32}
"""Shaped like `new_secret()`'s (24 random bytes, url-safe base64)."""


def _at_0002_with_a_widened_discussion(path: Path) -> None:
    """What the team-mode release leaves: 0.1.0's pending question widened to Alice and Bob,
    who commented and voted, with 0002's four reserved widening columns filled in (0003
    drops them; nothing ever wrote them, but a hand-edited database might have)."""
    from alembic import command

    from choice.team.links import secret_hash

    _at_0001(path)
    engine = make_engine(sqlite_url(path))
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0002")
    finally:
        engine.dispose()
    iid, at = V0_ROWS["answer"], 1_795_770_100.0
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE interaction SET status = 'widened' WHERE id = ?", (iid,))
        conn.execute("INSERT INTO audit_event (interaction_id, kind, actor, at, detail_json) "
                     "VALUES (?, 'widened', 'human:web', ?, '{\"mode\": \"block\"}')", (iid, at))
        conn.execute(
            "INSERT INTO widening (interaction_id, mode, note, widened_at, widened_by, "
            "last_activity_at, reminded_at, summary_text, summary_source, rationale, "
            "deferred_at) VALUES (?, 'block', 'Which would you run?', ?, 'human:web', ?, "
            "NULL, 'reserved', 'manual', 'never written', NULL)", (iid, at, at + 20))
        for n, (name, secret) in enumerate(SECRETS.items()):
            conn.execute(
                "INSERT INTO participant (id, interaction_id, name, handle, email, secret_hash, "
                "invited_at, opened_at, revoked_at) VALUES (?, ?, ?, NULL, NULL, ?, ?, ?, NULL)",
                (f"p{n}", iid, name, secret_hash(secret), at, at + 5))
        conn.executemany(
            "INSERT INTO comment (interaction_id, participant_id, author, text, at) "
            "VALUES (?, ?, ?, ?, ?)",
            [(iid, "p0", "Alice", "PostgreSQL: we need replication.", at + 10),
             (iid, None, "Owner", "Agreed, with a migration plan.", at + 15),
             (iid, "p1", "Bob", "SQLite is enough for now.", at + 20)])
        conn.executemany(
            "INSERT INTO vote (participant_id, interaction_id, option_ids_json, at) "
            "VALUES (?, ?, ?, ?)",
            [("p0", iid, '["pg"]', at + 11), ("p1", iid, '["lite"]', at + 21)])


def _discussion_at(path: Path, revision: str) -> None:
    """0.1.0's rows with a widened discussion (see `_at_0002_with_a_widened_discussion`),
    brought to `revision`: what the release before a newer revision left."""
    from alembic import command

    _at_0002_with_a_widened_discussion(path)
    engine = make_engine(sqlite_url(path))
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), revision)
    finally:
        engine.dispose()


def team_rows(path: Path) -> dict[str, list[dict[str, Any]]]:
    return read_tables(path, (*TABLES, *TEAM_TABLES))


async def test_0003_keeps_a_widened_discussion_which_can_then_be_reviewed_and_resolved(
        isolated_env: Path) -> None:
    from choice.decision.models import CandidateBody, ResolveBody
    from choice.team.models import CommentBody, VoteBody
    from tests.integration.test_service import Portal

    isolated_env.mkdir(parents=True, exist_ok=True)
    path = isolated_env / "choice.db"
    _at_0002_with_a_widened_discussion(path)
    before = team_rows(path)
    assert version_in(path) == ["0002"] and before["widening"][0]["summary_text"] == "reserved"

    done = upgrade_url(sqlite_url(path))
    assert (done.before, done.after) == ("0002", head())
    after = team_rows(path)
    dropped = ("summary_text", "summary_source", "rationale", "deferred_at")
    assert after["widening"] == [{k: v for k, v in row.items() if k not in dropped}
                                 for row in before["widening"]]
    assert {t: after[t] for t in after if t != "widening"} == \
        {t: before[t] for t in before if t != "widening"}
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM decision").fetchone() == (0,)

    portal = Portal(isolated_env, CHOICE_RETENTION_DAYS="36500")
    service = await portal.start()
    try:
        iid = V0_ROWS["answer"]
        review = await service.decision.review(iid)
        assert review.state == "not_requested" and review.discussion_fetch is not None
        assert review.discussion_fetch.participants == ["Alice", "Bob"]
        assert review.discussion_fetch.messages == [
            "[Alice] PostgreSQL: we need replication.", "[Owner] Agreed, with a migration plan.",
            "[Bob] SQLite is enough for now."]
        bob = await service.team.participant(SECRETS["Bob"])  # the old links still work
        await service.team.comment(iid, CommentBody(text="Fine, PostgreSQL."), bob)
        await service.team.vote(bob, VoteBody(option_ids=["pg"]))

        assert (await service.decision.request_review(iid)).state == "awaiting_candidate"
        await service.decision.submit_candidate(iid, CandidateBody(
            candidate_summary="Alice, Bob and the owner settle on PostgreSQL.",
            candidate_answer="PostgreSQL, with a migration plan."))
        row = await service.decision.resolve(iid, ResolveBody(
            final_answer="PostgreSQL, with a migration plan.", selected_ids=["pg"]))
    finally:
        await portal.stop()
    result = (row.result_json or {})
    assert (row.status, result["selected_ids"], result["decided_by"]) == ("submitted", ["pg"],
                                                                          "owner")
    assert result["summary_json"]["source"] == "discussion_extraction"
    assert result["participants"] == ["Alice", "Bob"]
    assert {v["option_id"]: sorted(v["voters"]) for v in result["votes"]} == {
        "pg": ["Alice", "Bob"], "lite": []}  # Bob changed his vote after the upgrade
    final = team_rows(path)
    assert final["comment"][:3] == before["comment"]  # nothing written before was touched
    assert final["audit_event"][:len(before["audit_event"])] == before["audit_event"]


# -- 0004: redeemed sign-in codes, on the previous release's database --------------------------

async def test_0004_keeps_everything_and_a_sign_in_link_works_once(isolated_env: Path) -> None:
    from choice.store.login_codes import spend_login_code
    from tests.unit.test_login_codes import TOKEN

    isolated_env.mkdir(parents=True, exist_ok=True)
    path = isolated_env / "choice.db"
    _discussion_at(path, "0003")  # what the previous release left
    before = team_rows(path)

    done = upgrade_url(sqlite_url(path))
    assert (done.before, done.after) == ("0003", head()) and team_rows(path) == before

    engine = make_engine(sqlite_url(path))
    try:
        from choice.web.security.auth import LoginCodes

        async def spend(nonce: str, expires: float) -> bool:
            return spend_login_code(engine, nonce, expires, 1_800_000_000.0)

        codes = LoginCodes(TOKEN, spend, clock=lambda: 1_800_000_000.0)
        code = codes.issue()
        assert await codes.redeem(code) and not await codes.redeem(code)
    finally:
        engine.dispose()
    assert team_rows(path) == before


def test_a_postgresql_url_without_its_driver_says_which_extra_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if `[postgres]` was not installed
    url = "postgresql+psycopg://choice:pw@127.0.0.1:1/choice"
    for attempt in (upgrade_url, current):
        with pytest.raises(SchemaError, match=r"pip install 'choice-portal\[postgres\]'"):
            attempt(url)


# -- 0005: drafts, on the previous release's database -------------------------------------------

def test_0005_keeps_everything_and_a_draft_is_stored_and_goes_with_its_answer(
        isolated_env: Path) -> None:
    from choice.store.drafts import load_draft, save_draft
    from choice.store.repository import Completed, Repository

    isolated_env.mkdir(parents=True, exist_ok=True)
    path = isolated_env / "choice.db"
    _discussion_at(path, "0004")  # what the previous release left
    before = team_rows(path)

    done = upgrade_url(sqlite_url(path))
    assert (done.before, done.after) == ("0004", head()) and team_rows(path) == before

    repo = Repository(make_engine(sqlite_url(path)))
    try:
        open_ids = [found_id for found_id, _ in repo.deadlines()]
        assert open_ids, "the 0002 database has an open question"
        save_draft(repo, open_ids[0], {"custom_input": "half"}, 1.0, "web")
        assert load_draft(repo, open_ids[0]) is not None
        repo.complete(open_ids[0], lambda row: Completed("cancelled", {}, 2.0))
        assert load_draft(repo, open_ids[0]) is None
    finally:
        repo.close()
        repo.engine.dispose()


# -- 0006: the candidate's options, on the previous release's database -----------------------

async def test_0006_keeps_a_candidate_in_review_and_a_new_one_may_propose_options(
        isolated_env: Path) -> None:
    from choice.decision.models import CandidateBody, ResolveBody
    from tests.integration.test_service import Portal

    isolated_env.mkdir(parents=True, exist_ok=True)
    path = isolated_env / "choice.db"
    _discussion_at(path, "0005")  # what the previous release left, with a review under way
    iid = V0_ROWS["answer"]
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO decision (interaction_id, review_requested_at, "
                     "candidate_summary, candidate_answer, candidate_source_hint, candidate_at) "
                     "VALUES (?, 1.0, 'They settle on PostgreSQL.', 'PostgreSQL', "
                     "'discussion_extraction', 2.0)", (iid,))
    before = team_rows(path)

    done = upgrade_url(sqlite_url(path))
    assert (done.before, done.after) == ("0005", head())
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        conn.row_factory = sqlite3.Row
        [decision] = [dict(r) for r in conn.execute("SELECT * FROM decision")]
    assert decision["candidate_selected_ids_json"] is None  # the old candidate named none
    assert decision["candidate_answer"] == "PostgreSQL" and team_rows(path) == before

    portal = Portal(isolated_env, CHOICE_RETENTION_DAYS="36500")
    service = await portal.start()
    try:
        review = await service.decision.review(iid)
        assert (review.state, review.candidate_selected_ids) == ("candidate_ready", [])
        await service.decision.request_review(iid)
        review = await service.decision.submit_candidate(iid, CandidateBody(
            candidate_summary="PostgreSQL it is.", candidate_answer="PostgreSQL",
            selected_ids=["pg"]))
        assert review.candidate_selected_ids == ["pg"]
        row = await service.decision.resolve(iid, ResolveBody(final_answer="PostgreSQL",
                                                              selected_ids=["pg"]))
    finally:
        await portal.stop()
    result = (row.result_json or {})
    assert (result["selected_ids"], result["summary_json"]["source"]) == (
        ["pg"], "discussion_extraction")


# -- 0007: browser sessions, on the previous release's database --------------------------------

def test_0007_keeps_everything_and_signs_a_browser_in_with_a_stored_session(
        isolated_env: Path) -> None:
    """The previous release's cookie (a fixed HMAC of the token) opens nothing after the
    upgrade: the browser signs in once more, and that session is a row, not the token's."""
    import hashlib
    import hmac

    from litestar.testing import TestClient

    from choice.core.token import ensure_token
    from choice.portal import create_app
    from choice.web.security.sessions import COOKIE
    from tests.sign_in import client_cookie

    isolated_env.mkdir(parents=True, exist_ok=True)
    path = isolated_env / "choice.db"
    _discussion_at(path, "0006")  # what the previous release left
    before = team_rows(path)
    token = ensure_token(isolated_env / "token")
    old_cookie = hmac.new(token.encode(), b"choice browser session v1", hashlib.sha256).hexdigest()

    done = upgrade_url(sqlite_url(path))
    assert (done.before, done.after) == ("0006", head()) and team_rows(path) == before

    with TestClient(create_app(), base_url="http://127.0.0.1:8765") as web:
        assert web.get("/", headers={"Cookie": f"{COOKIE}={old_cookie}"}).status_code == 401
        signed_in = client_cookie(web, token)
        page = web.get(f"/choice/{V0_ROWS['answer']}", headers=signed_in)
        assert page.status_code == 200, page.text
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        stored = [row[0] for row in conn.execute("SELECT id_hash FROM browser_session")]
    value = signed_in["Cookie"].partition("=")[2]
    assert len(stored) == 1 and value not in stored[0] and token not in stored[0]
    after = team_rows(path)  # the portal's start sent its reminders; the team's rows stay
    assert {t: after[t] for t in ("participant", "comment", "vote")} == \
        {t: before[t] for t in ("participant", "comment", "vote")}


# -- 0008: attachments, on the previous release's database ---------------------------------------

def test_0008_keeps_everything_and_a_question_then_shows_its_files(isolated_env: Path) -> None:
    """The release before left 0007; after the upgrade nothing moved, and a question asked
    with a file stores it apart and serves it back byte for byte."""
    import base64

    from litestar.testing import TestClient

    from choice.core.token import ensure_token
    from choice.portal import create_app

    isolated_env.mkdir(parents=True, exist_ok=True)
    path = isolated_env / "choice.db"
    _discussion_at(path, "0007")
    before = team_rows(path)
    token = ensure_token(isolated_env / "token")
    done = upgrade_url(sqlite_url(path))
    assert (done.before, done.after) == ("0007", head())
    assert {t: team_rows(path)[t] for t in ("participant", "comment", "vote")} == \
        {t: before[t] for t in ("participant", "comment", "vote")}
    data = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    with TestClient(create_app(), base_url="http://127.0.0.1:8765") as web:
        agent = {"Authorization": f"Bearer {token}"}
        created = web.post("/api/interactions", headers=agent, json={
            "title": "Which logo?", "prompt": "Two drafts.", "options": [
                {"id": "a", "label": "A"}, {"id": "b", "label": "B"}],
            "attachments": [{"name": "logo.png", "mime_type": "image/png",
                             "data": base64.b64encode(data).decode()}]})
        assert created.status_code == 201, created.text
        iid = created.json()["interaction_id"]
        served = web.get(f"/api/interactions/{iid}/attachments/a1", headers=agent)
        assert served.status_code == 200 and served.content == data
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        request_json = conn.execute("SELECT request_json FROM interaction WHERE id = ?",
                                    (iid,)).fetchone()[0]
        stored = conn.execute("SELECT size, length(data) FROM attachment").fetchall()
    assert stored == [(len(data), len(data))]
    assert base64.b64encode(data).decode() not in request_json  # the bytes are not in the request
