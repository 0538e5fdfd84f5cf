"""Team mode's routes in-process, where no provider is needed: the provider unreachable at
the first `/login` (a page, never a redirect), a callback no sign-in waits for, `/api/me`
without a session, a local-mode session that signs nobody in; and local mode without any
of team mode's routes.

The sign-in itself, against a real provider, is tests/oidc/test_team_sign_in.py.
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


@pytest.mark.parametrize(("language", "says"), [
    ("en", "The sign-in service cannot be reached just now."),
    ("zh-CN", "暂时无法连接登录服务"),
])
def test_the_provider_down_at_login_gets_a_page_in_the_browsers_language(
        team: TestClient[Litestar], language: str, says: str) -> None:
    page = team.get("/login", headers={"Accept-Language": language}, follow_redirects=False)
    assert page.status_code == 503 and "location" not in page.headers
    assert "text/html" in page.headers["content-type"] and says in page.text


@pytest.mark.parametrize("query", ["", "?code=abc", "?state=abc&code=abc", "?error=access_denied"])
def test_a_callback_no_sign_in_waits_for_is_refused_without_a_session(
        team: TestClient[Litestar], query: str) -> None:
    page = team.get(f"/auth/callback{query}", follow_redirects=False)
    assert page.status_code in (400, 403) and "location" not in page.headers
    assert not any(c.startswith("choice_session=") and not c.startswith("choice_session=;")
                   and 'choice_session=""' not in c for c in page.headers.get_list("set-cookie"))


def test_api_me_without_a_member_session_is_401_and_healthz_is_open(
        team: TestClient[Litestar]) -> None:
    assert team.get("/api/me").status_code == 401
    assert team.get("/api/me", headers={"Authorization": f"Bearer {token()}"}).status_code == 401
    assert team.get("/healthz").status_code == 200


def test_a_page_without_a_session_goes_through_login_and_back(team: TestClient[Litestar]) -> None:
    page = team.get("/settings", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/login?next=/settings"


def test_team_mode_ignores_the_tokens_sign_in_and_the_owners_old_session(
        team: TestClient[Litestar]) -> None:
    """A session the owner made in local mode signs nobody in once the portal is a team's."""
    by_token = team.get(f"/login?token={token()}", follow_redirects=False)
    assert by_token.status_code == 503  # straight to the (unreachable) provider
    assert team.post("/login", data={"token": token()}).status_code == 405


def test_local_mode_has_none_of_team_modes_routes(anonymous: TestClient[Litestar]) -> None:
    assert anonymous.get("/api/me").status_code == 404
    assert anonymous.get("/auth/callback?state=a&code=b").status_code == 404
    signed_in = client_cookie(anonymous, token())
    assert anonymous.get("/", headers=signed_in).status_code == 200
