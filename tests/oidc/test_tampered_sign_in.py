"""Team mode's sign-in against a tampered `nonce` or ID token, and a member's session that
runs out: a real portal (`CHOICE_AUTH=oidc`) and a real OpenID provider (`provider.py`),
driven with httpx as a browser would be.

A tampered nonce is changed (or dropped) in the authorization URL on its way to the
provider, which then signs it into the ID token. A tampered ID token comes from the
provider's token endpoint itself (`OidcProvider.tamper_id_token`): none at all, not a JWS,
a bad signature, a key the provider's JWKS lacks, another audience or issuer, an expired
token, no nonce, `alg: none`, an HMAC under the client secret. Each is refused with the
sign-in page's 403 (the portal cannot tell a misbehaving provider from an injected code or
token, so it refuses; 503 is kept for a provider it cannot reach), with no session, no
member written (an existing member's name and session stay as they were), and the attempt
used up. One portal and one provider for the module; each
case signs in its own account.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import httpx
import pytest

from choice.web.security.sessions import LIFETIME
from tests.oidc.provider import OidcProvider, callback_url, team_portal
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow

SESSION = "choice_session"
ATTEMPT = "choice_sign_in"
MESSAGE = 'data-testid="team-sign-in-message"'


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("tamper")) as both:
        yield both


@pytest.fixture
def provider(team: tuple[OidcProvider, PortalProcess]) -> Iterator[OidcProvider]:
    yield team[0]
    team[0].tamper_id_token(None)  # a failed test leaves the next one a sound provider


@pytest.fixture
def portal(team: tuple[OidcProvider, PortalProcess]) -> PortalProcess:
    return team[1]


def browser() -> httpx.Client:
    """A fresh browser: its own cookies, redirects not followed."""
    return httpx.Client(timeout=20)


def with_query(url: str, **changes: str | None) -> str:
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    for name, value in changes.items():
        if value is None:
            query.pop(name, None)
        else:
            query[name] = value
    return urlunsplit(parts._replace(query=urlencode(query)))


def members(portal: PortalProcess) -> list[str]:
    with sqlite3.connect(f"file:{portal.data_dir / 'choice.db'}?mode=ro", uri=True) as db:
        return [email for (email,) in db.execute("SELECT email FROM member ORDER BY email")]


def me(client: httpx.Client, portal: PortalProcess) -> httpx.Response:
    return client.get(f"{portal.base_url}/api/me")


def assert_used_up(back: str, attempt: str) -> None:
    """The callback, with the attempt cookie the refusal cleared brought back, finds no
    attempt waiting: the refusal took it."""
    again = httpx.get(back, headers={"Cookie": f"{ATTEMPT}={attempt}"}, timeout=20)
    assert again.status_code == 400 and SESSION not in again.cookies


def assert_refused_without_a_session(refused: httpx.Response, client: httpx.Client,
                                     portal: PortalProcess) -> None:
    assert refused.status_code == 403, (refused.status_code, refused.text[:300])
    assert "location" not in refused.headers and MESSAGE in refused.text
    assert 'data-testid="team-sign-in-again"' in refused.text  # a way to start again
    assert not client.cookies.get(SESSION) and me(client, portal).status_code == 401


@pytest.mark.parametrize("nonce", ["changed", "missing"])
def test_a_tampered_or_missing_nonce_is_refused_and_the_attempt_is_used_up(
        provider: OidcProvider, portal: PortalProcess, nonce: str) -> None:
    email = f"nonce-{nonce}@example.com"
    provider.set_account(f"nonce-{nonce}", email, "Nonce")
    before = members(portal)
    with browser() as client:
        login = client.get(f"{portal.base_url}/login")
        sent = login.headers["location"]
        given = parse_qs(urlsplit(sent).query)["nonce"][0]
        tampered = with_query(sent, nonce=None if nonce == "missing" else given[:-2] + "xy")
        back = callback_url(client, httpx.Response(login.status_code,
                                                   headers={"location": tampered}), email)
        attempt = client.cookies[ATTEMPT]
        assert_refused_without_a_session(client.get(back), client, portal)
        assert_used_up(back, attempt)
    assert members(portal) == before


SPOILED = {
    "absent": "no ID token in the token response at all",
    "not_a_jws": "an ID token that is not a JWS",
    "payload": "the payload changed (to the admin's email), the signature kept",
    "foreign_key": "signed by a key the JWKS lacks, under a key id of its own",
    "foreign_key_same_kid": "signed by a key the JWKS lacks, under the real key's id",
    "aud": "made for another client",
    "iss": "from another issuer",
    "expired": "expired an hour ago (properly signed)",
    "no_nonce": "without a nonce (properly signed)",
    "alg_none": "unsigned, alg: none",
    "hs256_client_secret": "HMAC-signed with the client secret",
}


@pytest.mark.parametrize("mode", list(SPOILED), ids=list(SPOILED))
def test_a_spoiled_id_token_is_refused_and_writes_nothing(
        provider: OidcProvider, portal: PortalProcess, mode: str) -> None:
    email = f"spoiled-{mode.replace('_', '-')}@example.com"
    provider.set_account(f"spoiled-{mode}", email, "Spoiled")
    before = members(portal)
    provider.tamper_id_token(mode)
    with browser() as client:
        login = client.get(f"{portal.base_url}/login")
        back = callback_url(client, login, email)
        attempt = client.cookies[ATTEMPT]
        assert_refused_without_a_session(client.get(back), client, portal)
        assert_used_up(back, attempt)
        assert members(portal) == before  # a first sign-in made no member
        provider.tamper_id_token(None)
        login = client.get(f"{portal.base_url}/login")  # the provider remembers the person
        assert client.get(callback_url(client, login, email)).status_code == 303
        assert me(client, portal).json()["email"] == email
    assert members(portal) == sorted([*before, email])


@pytest.mark.parametrize("mode", ["payload", "expired"])
def test_a_spoiled_id_token_leaves_an_existing_member_and_their_session_as_they_were(
        provider: OidcProvider, portal: PortalProcess, mode: str) -> None:
    handle = f"known-{mode}"
    email = f"{handle}@example.com"
    provider.set_account(handle, email, "Known")
    with browser() as client:
        login = client.get(f"{portal.base_url}/login")
        assert client.get(callback_url(client, login, email)).status_code == 303
        session = client.cookies[SESSION]
        provider.set_account(handle, email, "Renamed")
        provider.tamper_id_token(mode)
        login = client.get(f"{portal.base_url}/login")
        refused = client.get(callback_url(client, login, email))
        assert refused.status_code == 403 and MESSAGE in refused.text
        assert client.cookies[SESSION] == session  # no new session was handed out
        assert me(client, portal).json() == {"email": email, "name": "Known", "admin": False}


def test_an_expired_member_session_must_sign_in_again_and_their_token_lives_on(
        provider: OidcProvider, portal: PortalProcess) -> None:
    email = "kim@example.com"
    provider.set_account("kim", email, "Kim")
    with browser() as client:
        login = client.get(f"{portal.base_url}/login")
        assert client.get(callback_url(client, login, email)).status_code == 303
        made = client.post(f"{portal.base_url}/api/tokens", json={"name": "laptop"},
                           headers={"Origin": portal.base_url})
        assert made.status_code == 201, made.text
        agent = {"Authorization": f"Bearer {made.json()['token']}"}
        now = time.time()
        with sqlite3.connect(portal.data_dir / "choice.db") as db:
            ran_out = db.execute(
                "UPDATE browser_session SET last_seen_at = ?, expires_at = ? WHERE member_id "
                "IN (SELECT id FROM member WHERE email = ?)", (now - LIFETIME - 60, now - 60,
                                                               email))
            assert ran_out.rowcount == 1
        assert me(client, portal).status_code == 401
        page = client.get(f"{portal.base_url}/settings")
        assert page.status_code == 303 and page.headers["location"] == "/login?next=/settings"
        assert httpx.get(f"{portal.base_url}/api/me", headers=agent).json()["email"] == email

        login = client.get(f"{portal.base_url}/login", params={"next": "/settings"})
        landed = client.get(callback_url(client, login, email))
        assert landed.status_code == 303 and landed.headers["location"] == "/settings"
        assert me(client, portal).json()["email"] == email

        out = client.post(f"{portal.base_url}/logout", headers={"Origin": portal.base_url})
        assert out.status_code == 303 and me(client, portal).status_code == 401
        assert httpx.get(f"{portal.base_url}/api/me", headers=agent).json()["email"] == email
