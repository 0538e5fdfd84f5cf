"""Team mode's `/api/tokens` in-process, where no provider is needed: documented in `/schema`
under its tag, refused (401, saying how to make a token) without a member's token or session,
and absent from local mode, whose data-dir token keeps working as before.

Making, using and revoking tokens, against a real provider, is tests/oidc/test_member_tokens.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from choice.portal import create_app
from tests.api.conftest import BASE_URL, token
from tests.portal_process import free_port
from tests.sign_in import client_cookie


@pytest.fixture
def team(monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient[Litestar]]:
    """A team-mode portal whose provider is down (nothing listens on its port)."""
    for name, value in {"CHOICE_AUTH": "oidc",
                        "CHOICE_OIDC_ISSUER": f"http://127.0.0.1:{free_port()}",
                        "CHOICE_OIDC_CLIENT_ID": "portal", "CHOICE_OIDC_CLIENT_SECRET": "s",
                        "CHOICE_PUBLIC_URL": BASE_URL}.items():
        monkeypatch.setenv(name, value)
    with TestClient(create_app(), base_url=BASE_URL) as client:
        yield client


def test_the_token_routes_are_documented_under_their_tag(team: TestClient[Litestar]) -> None:
    paths = team.get("/schema/openapi.json").json()["paths"]
    assert set(paths["/api/tokens"]) == {"get", "post"}
    assert set(paths["/api/tokens/{token_id}"]) == {"delete"}
    operations = [*paths["/api/tokens"].values(), *paths["/api/tokens/{token_id}"].values()]
    assert all(op["tags"] == ["tokens"] for op in operations)
    assert "201" in paths["/api/tokens"]["post"]["responses"]
    assert "404" in paths["/api/tokens/{token_id}"]["delete"]["responses"]


@pytest.mark.parametrize(("method", "path"), [("GET", "/api/tokens"), ("POST", "/api/tokens"),
                                              ("DELETE", "/api/tokens/0123456789abcdef"),
                                              ("GET", "/api/interactions")])
@pytest.mark.parametrize("sent", ["nothing", "the data dir's token", "an unknown member token"])
def test_without_a_members_token_or_session_it_is_401_saying_how_to_make_one(
        team: TestClient[Litestar], method: str, path: str, sent: str) -> None:
    headers = {"nothing": {}, "the data dir's token": {"Authorization": f"Bearer {token()}"},
               "an unknown member token": {"Authorization": "Bearer chp_" + "x" * 43}}[sent]
    refused = team.request(method, path, headers=headers,
                           json={"name": "agent"} if method == "POST" else None)
    assert refused.status_code == 401
    message = refused.json()["errors"][0]["message"]
    assert "/settings/tokens" in message and "POST /api/tokens" in message


def test_the_settings_tokens_page_needs_a_signed_in_member(team: TestClient[Litestar]) -> None:
    page = team.get("/settings/tokens", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/login?next=/settings/tokens"


def test_local_mode_has_no_token_routes_and_its_own_token_still_works(
        anonymous: TestClient[Litestar]) -> None:
    agent = {"Authorization": f"Bearer {token()}"}
    assert anonymous.get("/api/tokens", headers=agent).status_code == 404
    assert anonymous.get("/settings/tokens",
                         headers=client_cookie(anonymous, token())).status_code == 404
    assert anonymous.get("/api/interactions", headers=agent).status_code == 200
    assert "/api/tokens" not in anonymous.get("/schema/openapi.json").json()["paths"]
