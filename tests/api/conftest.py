"""API tests run the real app in-process through Litestar's TestClient (lifespan included).
The JSON API's modules run once on SQLite and once on PostgreSQL (`pytestmark =
pytest.mark.usefixtures("backend")`: it sets `CHOICE_DB_URL` before the app is made); the
pages' modules render the same rows whichever store holds them, on SQLite. Every test's
data dir starts with a copy of a database migrated once per worker (`migrated_database`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from choice.core.config import Settings
from choice.core.token import read_token
from choice.portal import create_app
from tests.sign_in import client_cookie

BASE_URL = "http://127.0.0.1:8765"


@pytest.fixture(autouse=True)
def _migrated(migrated_database: object) -> None:
    """Every API test starts on a copy of the migrated template (see tests/conftest.py)."""


@pytest.fixture
def app() -> Litestar:
    return create_app()


@pytest.fixture
def anonymous(app: Litestar) -> Iterator[TestClient[Litestar]]:
    with TestClient(app, base_url=BASE_URL) as client:
        yield client


def token() -> str:
    """The API token of the portal in this test's data dir (the app creates it)."""
    found = read_token(Settings.from_env().token_path)
    assert found, "create the app first: it makes the token"
    return found


def agent() -> dict[str, str]:
    """The agent's credentials: the API token as a bearer."""
    return {"Authorization": f"Bearer {token()}"}


def owner(client: Any) -> dict[str, str]:
    """The owner's signed-in browser: the session cookie, sent by hand so the client keeps
    none."""
    return client_cookie(client, token())


@pytest.fixture
def client(anonymous: TestClient[Litestar], app: Litestar) -> TestClient[Litestar]:
    anonymous.headers["Authorization"] = f"Bearer {token()}"
    return anonymous


def ask(**overrides: Any) -> dict[str, Any]:
    """A valid single-choice request; keyword arguments replace fields."""
    request: dict[str, Any] = {
        "title": "Pick a database",
        "prompt": "The service needs a store; both fit.",
        "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}],
    }
    request.update(overrides)
    return request
