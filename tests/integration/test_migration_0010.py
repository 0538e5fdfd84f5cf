"""Revision 0010 (team mode's members, sign-in attempts, a session's member, a participant's
member) on a database the previous release made: every row stays as it was, the sessions
and participants it kept are the owner's and guests' (no member), and the portal then signs
the owner in as before in local mode; switched to team mode, an owner's session signs nobody
in.

The previous release's database is `tests/fixtures/choice-0008.db` brought to 0009 by that
release's revisions (0009 changes nothing on disk on SQLite: see its docstring).
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from litestar.testing import TestClient

from choice.portal import create_app
from choice.store.engine import make_engine
from choice.store.schema import alembic_config, head, upgrade_url
from tests.portal_process import free_port
from tests.sign_in import client_cookie

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BASE_URL = "http://127.0.0.1:8765"


def dump(path: Path) -> dict[str, list[dict[str, Any]]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        conn.row_factory = sqlite3.Row
        names = [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'alembic_version'")]
        return {name: [dict(row) for row in conn.execute(f"SELECT * FROM {name} ORDER BY rowid")]
                for name in names}


def at_0009(data_dir: Path) -> Path:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "choice.db"
    shutil.copyfile(FIXTURES / "choice-0008.db", path)
    engine = make_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0009")
    finally:
        engine.dispose()
    return path


def test_0010_keeps_every_row_and_the_old_sessions_are_the_owners(
        isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = at_0009(isolated_env)
    before = dump(path)
    assert before["browser_session"], "the fixture must hold a session to carry over"

    done = upgrade_url(f"sqlite:///{path}")
    assert (done.before, done.after) == ("0009", head())
    after = dump(path)
    assert after["member"] == [] and after["sign_in_attempt"] == []
    assert after["member_token"] == []
    assert after["member_preference"] == []  # each member starts from the defaults
    assert before["interaction"], "the fixture must hold questions to carry over"
    assert before["participant"], "the fixture must hold participants to carry over"
    for table in ("browser_session", "interaction", "participant"):
        assert [row.pop("member_id") for row in after[table]] == [None] * len(before[table])
    assert {name: after[name] for name in before} == before

    with TestClient(create_app(), base_url=BASE_URL) as web:  # local mode: as before
        owner = client_cookie(web, (isolated_env / "token").read_text().strip())
        assert web.get("/", headers=owner).status_code == 200
        assert web.get("/api/me", headers=owner).status_code == 404  # no team routes

    for name, value in {"CHOICE_AUTH": "oidc",
                        "CHOICE_OIDC_ISSUER": f"http://127.0.0.1:{free_port()}",
                        "CHOICE_OIDC_CLIENT_ID": "portal", "CHOICE_OIDC_CLIENT_SECRET": "s",
                        "CHOICE_PUBLIC_URL": BASE_URL}.items():
        monkeypatch.setenv(name, value)
    with TestClient(create_app(), base_url=BASE_URL) as web:  # team mode: nobody
        assert web.get("/api/me", headers=owner).status_code == 401
        page = web.get("/", headers=owner, follow_redirects=False)
        assert page.status_code == 303 and page.headers["location"].startswith("/login")
