"""Team mode's sign-in, end to end: a real portal (`CHOICE_AUTH=oidc`) on a real port and a
real OpenID provider (`provider.py`), driven with httpx as a browser would be, without one.

One portal and one provider for the module; each test signs in its own accounts. The
provider-down test stops the provider and starts it again on the same port (with a new
signing key: the portal must fetch the keys again).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import httpx
import pytest

from tests.oidc.provider import ADMIN, OidcProvider, callback_url, team_portal
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow

SESSION = "choice_session"


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("team")) as both:
        yield both


@pytest.fixture
def provider(team: tuple[OidcProvider, PortalProcess]) -> OidcProvider:
    return team[0]


@pytest.fixture
def portal(team: tuple[OidcProvider, PortalProcess]) -> PortalProcess:
    return team[1]


def browser() -> httpx.Client:
    """A fresh browser: its own cookies, redirects not followed."""
    return httpx.Client(timeout=20)


def sign_in(client: httpx.Client, portal: PortalProcess, email: str,
            next_path: str = "/") -> httpx.Response:
    """The portal's answer to the provider's redirect back, after signing in as `email`."""
    login = client.get(f"{portal.base_url}/login", params={"next": next_path})
    return client.get(callback_url(client, login, email))


def me(client: httpx.Client, portal: PortalProcess) -> httpx.Response:
    return client.get(f"{portal.base_url}/api/me")


def with_query(url: str, **changes: str | None) -> str:
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    for name, value in changes.items():
        if value is None:
            query.pop(name, None)
        else:
            query[name] = value
    return urlunsplit(parts._replace(query=urlencode(query)))


def members(portal: PortalProcess) -> list[tuple[str, str, bool]]:
    with sqlite3.connect(f"file:{portal.data_dir / 'choice.db'}?mode=ro", uri=True) as db:
        return [(email, name, bool(admin)) for email, name, admin
                in db.execute("SELECT email, name, admin FROM member ORDER BY email")]


def test_login_sends_the_browser_to_the_providers_authorization_endpoint(
        provider: OidcProvider, portal: PortalProcess) -> None:
    with browser() as client:
        reply = client.get(f"{portal.base_url}/login")
        endpoint = httpx.get(f"{provider.issuer}/.well-known/openid-configuration").json()[
            "authorization_endpoint"]
    assert reply.status_code in (302, 303, 307)
    location = urlsplit(reply.headers["location"])
    query = {k: v[0] for k, v in parse_qs(location.query).items()}
    assert urlunsplit(location._replace(query="")) == endpoint
    assert query["response_type"] == "code"
    assert query["redirect_uri"] == f"{portal.base_url}/auth/callback"
    assert "openid" in query["scope"].split()
    assert query["state"] and query["nonce"] and query["code_challenge"]
    assert query["code_challenge_method"] == "S256"


def test_a_member_signs_in_lands_on_next_and_api_me_names_them(
        provider: OidcProvider, portal: PortalProcess) -> None:
    provider.set_account("ann", "ann@example.com", "Ann Lee")
    provider.set_account("boss", ADMIN, "The Admin")
    with browser() as ann, browser() as admin:
        landed = sign_in(ann, portal, "ann@example.com", next_path="/settings")
        assert landed.status_code == 303 and landed.headers["location"] == "/settings"
        assert ann.cookies.get(SESSION)
        assert me(ann, portal).json() == {"email": "ann@example.com", "name": "Ann Lee",
                                          "admin": False}
        assert sign_in(admin, portal, ADMIN).status_code == 303
        assert me(admin, portal).json() == {"email": ADMIN, "name": "The Admin", "admin": True}
    assert ("ann@example.com", "Ann Lee", False) in members(portal)


def test_next_elsewhere_than_a_path_here_lands_on_the_front_page(
        provider: OidcProvider, portal: PortalProcess) -> None:
    provider.set_account("cat", "cat@example.com", "Cat")
    with browser() as client:
        landed = sign_in(client, portal, "cat@example.com", next_path="//evil.example/x")
    assert landed.status_code == 303 and landed.headers["location"] == "/"


def test_without_a_session_api_me_is_401_and_healthz_stays_open(portal: PortalProcess) -> None:
    with browser() as client:
        assert me(client, portal).status_code == 401
        assert client.get(f"{portal.base_url}/healthz").status_code == 200
        page = client.get(f"{portal.base_url}/settings")
    assert page.status_code == 303 and page.headers["location"] == "/login?next=/settings"


@pytest.mark.parametrize("tamper", ["changed", "missing"])
def test_a_tampered_or_missing_state_is_refused_without_a_session(
        provider: OidcProvider, portal: PortalProcess, tamper: str) -> None:
    provider.set_account("dan", "dan@example.com", "Dan")
    with browser() as client:
        login = client.get(f"{portal.base_url}/login")
        back = callback_url(client, login, "dan@example.com")
        state = parse_qs(urlsplit(back).query)["state"][0]
        bad = with_query(back, state=None if tamper == "missing" else state[:-2] + "xy")
        refused = client.get(bad)
        assert 400 <= refused.status_code < 500 and "location" not in refused.headers
        assert not client.cookies.get(SESSION) and me(client, portal).status_code == 401


def test_a_callback_is_good_once_and_only_in_the_browser_that_started_it(
        provider: OidcProvider, portal: PortalProcess) -> None:
    provider.set_account("eve", "eve@example.com", "Eve")
    with browser() as victim, browser() as attacker:
        login = attacker.get(f"{portal.base_url}/login")
        back = callback_url(attacker, login, "eve@example.com")
        planted = victim.get(back)  # the attacker's callback, opened in another browser
        assert planted.status_code == 400 and not victim.cookies.get(SESSION)
    with browser() as client:
        login = client.get(f"{portal.base_url}/login")
        back = callback_url(client, login, "eve@example.com")
        assert client.get(back).status_code == 303
        client.cookies.delete(SESSION)
        assert client.get(back).status_code == 400 and not client.cookies.get(SESSION)


@pytest.mark.parametrize(("email", "verified"), [("mallory@elsewhere.test", True),
                                                 ("frank@example.com", False)])
def test_a_person_the_portal_does_not_let_in_gets_a_page_not_a_loop(
        provider: OidcProvider, portal: PortalProcess, email: str, verified: bool) -> None:
    provider.set_account(email.partition("@")[0], email, "Outsider", email_verified=verified)
    before = members(portal)
    with browser() as client:
        refused = sign_in(client, portal, email)
        assert refused.status_code == 403 and "location" not in refused.headers
        assert "text/html" in refused.headers["content-type"]
        assert 'data-testid="team-sign-in-message"' in refused.text
        assert 'href="/login"' not in refused.text
        assert not client.cookies.get(SESSION) and me(client, portal).status_code == 401
    assert members(portal) == before


def test_the_provider_down_gets_a_clear_page_and_changes_nothing_then_sign_in_works_again(
        provider: OidcProvider, portal: PortalProcess) -> None:
    provider.set_account("gus", "gus@example.com", "Gus")
    with browser() as client:
        assert sign_in(client, portal, "gus@example.com").status_code == 303  # keys known
    with browser() as client:
        login = client.get(f"{portal.base_url}/login")
        back = callback_url(client, login, "gus@example.com")
        provider.stop()
        try:
            before = members(portal)
            down = client.get(back)  # the code cannot be exchanged
            assert down.status_code == 503 and "location" not in down.headers
            assert 'data-testid="team-sign-in-message"' in down.text
            assert not client.cookies.get(SESSION) and members(portal) == before
        finally:
            provider.start()
    with browser() as client:  # a new key: the portal fetches the JWKS again
        assert sign_in(client, portal, "gus@example.com").status_code == 303
        assert me(client, portal).json()["email"] == "gus@example.com"


def test_logout_ends_the_session(provider: OidcProvider, portal: PortalProcess) -> None:
    provider.set_account("hal", "hal@example.com", "Hal")
    with browser() as client:
        sign_in(client, portal, "hal@example.com")
        cookie = {"Cookie": f"{SESSION}={client.cookies.get(SESSION)}"}
        out = httpx.post(f"{portal.base_url}/logout", headers=cookie)
        assert out.status_code == 303 and out.headers["location"] == "/signed-out"
        assert httpx.get(f"{portal.base_url}/api/me", headers=cookie).status_code == 401
        assert httpx.get(f"{portal.base_url}/signed-out").status_code == 200


def test_a_changed_name_claim_shows_at_the_next_sign_in(
        provider: OidcProvider, portal: PortalProcess) -> None:
    provider.set_account("ivy", "ivy@example.com", "Ivy")
    with browser() as client:
        sign_in(client, portal, "ivy@example.com")
        assert me(client, portal).json()["name"] == "Ivy"
        provider.set_account("ivy", "ivy@example.com", "Ivy Chen")
        assert me(client, portal).json()["name"] == "Ivy"  # claims are read at sign-in
        assert sign_in(client, portal, "ivy@example.com").status_code == 303
        assert me(client, portal).json()["name"] == "Ivy Chen"
    assert [m for m in members(portal) if m[0] == "ivy@example.com"] == [
        ("ivy@example.com", "Ivy Chen", False)]


@pytest.mark.parametrize("removed", ["member", "browser_session"])
def test_a_removed_members_session_is_refused_at_once(
        provider: OidcProvider, portal: PortalProcess, removed: str) -> None:
    email = f"jo-{removed}@example.com"
    provider.set_account(f"jo-{removed}", email, "Jo")
    with browser() as client:
        sign_in(client, portal, email)
        assert me(client, portal).status_code == 200
        with sqlite3.connect(portal.data_dir / "choice.db") as db:
            if removed == "member":
                db.execute("DELETE FROM member WHERE email = ?", (email,))
            else:
                db.execute("DELETE FROM browser_session WHERE member_id IN "
                           "(SELECT id FROM member WHERE email = ?)", (email,))
        assert me(client, portal).status_code == 401
        page = client.get(f"{portal.base_url}/")
        assert page.status_code == 303 and page.headers["location"].startswith("/login")


def test_the_start_up_banner_names_the_sign_in_page_and_no_one_time_code(
        portal: PortalProcess) -> None:
    banner = "".join(portal.log)
    assert f"members sign in at {portal.base_url}/login" in banner
    assert "/login?code=" not in banner


def test_team_mode_without_its_settings_stops_with_what_to_set(tmp_path: Path) -> None:
    portal = PortalProcess(tmp_path / "portal", CHOICE_AUTH="oidc",
                           CHOICE_OIDC_ISSUER="http://127.0.0.1:9")
    with pytest.raises(RuntimeError) as stopped:
        portal.start()
    assert "CHOICE_OIDC_CLIENT_ID, CHOICE_OIDC_CLIENT_SECRET, CHOICE_PUBLIC_URL" in str(
        stopped.value)


def test_team_mode_refuses_to_post_every_members_questions_to_one_webhook(
        tmp_path: Path) -> None:
    portal = PortalProcess(tmp_path / "portal", CHOICE_AUTH="oidc",
                           CHOICE_OIDC_ISSUER="http://127.0.0.1:9", CHOICE_OIDC_CLIENT_ID="c",
                           CHOICE_OIDC_CLIENT_SECRET="s",
                           CHOICE_PUBLIC_URL="http://127.0.0.1:9",
                           CHOICE_WEBHOOK_URL="http://127.0.0.1:9/hook",
                           CHOICE_WEBHOOK_CREATED="1")
    with pytest.raises(RuntimeError) as stopped:
        portal.start()
    assert "CHOICE_WEBHOOK_CREATED would post every member's questions" in str(stopped.value)
    assert "Traceback" not in str(stopped.value)
