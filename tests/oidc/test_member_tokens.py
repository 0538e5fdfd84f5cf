"""Team mode's personal agent tokens, end to end: members signed in through a real OpenID
provider (`provider.py`) make, use, list and revoke tokens on a real portal on a real port,
driven with httpx.

One portal and one provider for the module; each test signs in its own members.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.oidc.provider import OidcProvider, callback_url, team_portal
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow

QUESTION = {"title": "Pick", "prompt": "Which one?", "timeout_seconds": 600,
            "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}
SIGNED_IN = itertools.count()
"""Each member signed in is new: `ann-3@example.com`."""
CROSS_SITE = {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("tokens")) as both:
        yield both


@pytest.fixture
def portal(team: tuple[OidcProvider, PortalProcess]) -> PortalProcess:
    return team[1]


class Member:
    """A member's browser, signed in through the provider: its session does the calls."""

    def __init__(self, portal: PortalProcess, client: httpx.Client) -> None:
        self.portal, self.client = portal, client

    def url(self, path: str) -> str:
        return f"{self.portal.base_url}{path}"

    def make(self, name: str, **headers: str) -> httpx.Response:
        return self.client.post(self.url("/api/tokens"), json={"name": name}, headers=headers)

    def tokens(self) -> list[dict[str, Any]]:
        listed = self.client.get(self.url("/api/tokens"))
        assert listed.status_code == 200, listed.text
        return list(listed.json()["tokens"])

    def revoke(self, token_id: str, **headers: str) -> httpx.Response:
        return self.client.delete(self.url(f"/api/tokens/{token_id}"), headers=headers)


@pytest.fixture
def member(team: tuple[OidcProvider, PortalProcess]) -> Iterator[Any]:
    """Sign a new member in: `member("ann")` is ann@example.com's browser."""
    provider, portal = team
    clients: list[httpx.Client] = []

    def signed_in(handle: str) -> Member:
        handle = f"{handle}-{next(SIGNED_IN)}"
        email = f"{handle}@example.com"
        provider.set_account(handle, email, handle.title())
        client = httpx.Client(timeout=20)
        clients.append(client)
        login = client.get(f"{portal.base_url}/login")
        assert client.get(callback_url(client, login, email)).status_code == 303
        return Member(portal, client)

    yield signed_in
    for client in clients:
        client.close()


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def as_agent(portal: PortalProcess, method: str, path: str, secret: str,
             **options: Any) -> httpx.Response:
    """A request from an agent: no cookie, only the token."""
    return httpx.request(method, f"{portal.base_url}{path}", headers=bearer(secret),
                         timeout=20, **options)


def test_a_token_asks_and_lists_for_its_member_until_revoked_then_gets_exactly_401(
        portal: PortalProcess, member: Any) -> None:
    ann = member("ann")
    made = ann.make("laptop claude code")
    assert made.status_code == 201
    token = made.json()
    assert set(token) == {"id", "name", "token", "created_at"}
    assert token["name"] == "laptop claude code" and token["token"].startswith("chp_")
    assert len(token["token"]) >= 4 + 43  # the prefix and 256 random bits

    me = as_agent(portal, "GET", "/api/me", token["token"])
    assert me.status_code == 200 and me.json()["email"].startswith("ann-")
    asked = as_agent(portal, "POST", "/api/interactions", token["token"], json=QUESTION)
    assert asked.status_code == 201, asked.text
    listed = as_agent(portal, "GET", "/api/interactions", token["token"])
    assert listed.status_code == 200
    assert asked.json()["interaction_id"] in [i["interaction_id"]
                                              for i in listed.json()["interactions"]]

    shown = ann.client.get(ann.url("/api/tokens"))
    assert token["token"] not in shown.text
    assert shown.json() == {"tokens": [{"id": token["id"], "name": "laptop claude code",
                                        "created_at": token["created_at"],
                                        "last_used_at": shown.json()["tokens"][0]["last_used_at"]}]}
    assert shown.json()["tokens"][0]["last_used_at"] is not None

    assert ann.revoke(token["id"]).status_code == 204
    for method, path in [("GET", "/api/me"), ("GET", "/api/interactions"),
                         ("GET", "/api/tokens"), ("POST", "/api/interactions")]:
        refused = as_agent(portal, method, path, token["token"],
                           json=QUESTION if method == "POST" else None)
        assert refused.status_code == 401, (method, path)
    assert "/settings/tokens" in refused.json()["errors"][0]["message"]
    assert ann.client.get(ann.url("/api/me")).status_code == 200  # the session lives on
    assert ann.tokens() == []


def test_a_member_token_manages_its_members_tokens_without_a_browser(
        portal: PortalProcess, member: Any) -> None:
    bo = member("bo")
    first = bo.make("ci").json()
    second = as_agent(portal, "POST", "/api/tokens", first["token"], json={"name": "second"})
    assert second.status_code == 201
    mine = as_agent(portal, "GET", "/api/tokens", first["token"]).json()["tokens"]
    assert [t["name"] for t in mine] == ["ci", "second"]
    gone = as_agent(portal, "DELETE", f"/api/tokens/{second.json()['id']}", first["token"])
    assert gone.status_code == 204
    assert as_agent(portal, "GET", "/api/me", second.json()["token"]).status_code == 401
    assert [t["name"] for t in bo.tokens()] == ["ci"]


def test_use_is_noted_now_and_then_not_on_every_request(
        portal: PortalProcess, member: Any) -> None:
    cy = member("cy")
    token = cy.make("agent").json()
    assert cy.tokens()[0]["last_used_at"] is None
    as_agent(portal, "GET", "/api/me", token["token"])
    first_use = cy.tokens()[0]["last_used_at"]
    assert first_use is not None
    as_agent(portal, "GET", "/api/me", token["token"])
    assert cy.tokens()[0]["last_used_at"] == first_use  # within minutes: not written again


def test_another_members_token_is_404_like_an_unknown_one_and_stays_untouched(
        portal: PortalProcess, member: Any) -> None:
    ann, eve = member("ann"), member("eve")
    anns = ann.make("ann's agent").json()
    eves = eve.make("eve's agent").json()
    theirs, unknown = eve.revoke(anns["id"]), eve.revoke("0123456789abcdef")
    assert theirs.status_code == unknown.status_code == 404
    assert theirs.json() == {"errors": [
        {**unknown.json()["errors"][0],
         "message": unknown.json()["errors"][0]["message"].replace("0123456789abcdef",
                                                                   anns["id"])}]}
    assert as_agent(portal, "GET", "/api/me", anns["token"]).status_code == 200
    by_token = as_agent(portal, "DELETE", f"/api/tokens/{anns['id']}", eves["token"])
    assert by_token.status_code == 404
    assert [t["id"] for t in ann.tokens()] == [anns["id"]]
    assert [t["id"] for t in eve.tokens()] == [eves["id"]]


def test_the_data_dirs_token_is_no_api_credential_in_team_mode(portal: PortalProcess) -> None:
    for path in ("/api/interactions", "/api/me", "/api/tokens", "/api/settings"):
        refused = as_agent(portal, "GET", path, portal.token)
        assert refused.status_code == 401, path
    assert "choice token" not in refused.json()["errors"][0]["message"]
    assert as_agent(portal, "POST", "/api/interactions", portal.token,
                    json=QUESTION).status_code == 401


def test_cross_site_writes_with_the_session_cookie_are_refused_and_change_nothing(
        portal: PortalProcess, member: Any) -> None:
    dee = member("dee")
    kept = dee.make("kept").json()
    assert dee.make("planted", **CROSS_SITE).status_code == 403
    assert dee.revoke(kept["id"], **CROSS_SITE).status_code == 403
    assert dee.revoke(kept["id"], Origin="http://evil.example").status_code == 403
    assert [t["name"] for t in dee.tokens()] == ["kept"]
    assert as_agent(portal, "GET", "/api/me", kept["token"]).status_code == 200


@pytest.mark.parametrize(("body", "code"), [
    ({"name": ""}, "too_short"),
    ({"name": "   "}, "blank"),
    ({"name": "x" * 101}, "too_long"),
    ({"name": "two\nlines"}, "invalid_characters"),
    ({"name": "invoice\u202etxt.exe"}, "invalid_characters"),
    ({"name": 7}, "invalid_type"),
    ({}, "required"),
])
def test_a_bad_name_is_422_with_the_field_and_makes_nothing(
        portal: PortalProcess, member: Any, body: dict[str, Any], code: str) -> None:
    fay = member("fay")
    refused = fay.client.post(fay.url("/api/tokens"), json=body)
    assert refused.status_code == 422
    error = refused.json()["errors"][0]
    assert error["field"] == "name" and error["code"] == code and error["message"]
    assert fay.tokens() == []


def test_a_member_holds_at_most_fifty_live_tokens(portal: PortalProcess, member: Any) -> None:
    gil = member("gil")
    made = [gil.make(f"agent {n}").json() for n in range(50)]
    over = gil.make("one too many")
    assert over.status_code == 409
    assert over.json()["errors"][0]["code"] == "too_many_tokens"
    assert "revoke" in over.json()["errors"][0]["message"]
    assert len(gil.tokens()) == 50
    assert gil.revoke(made[0]["id"]).status_code == 204
    assert gil.make("one too many").status_code == 201


def test_a_removed_members_tokens_are_refused_at_once(
        portal: PortalProcess, member: Any) -> None:
    hal = member("hal")
    token = hal.make("agent").json()
    assert as_agent(portal, "GET", "/api/me", token["token"]).status_code == 200
    with sqlite3.connect(portal.data_dir / "choice.db") as db:
        db.execute("DELETE FROM member WHERE id = (SELECT member_id FROM member_token "
                   "WHERE id = ?)", (token["id"],))
    assert as_agent(portal, "GET", "/api/me", token["token"]).status_code == 401


@pytest.mark.parametrize("given", ["chp_" + "A" * 43, "not-a-token", "chp_"])
def test_an_unknown_token_is_exactly_401(portal: PortalProcess, given: str) -> None:
    refused = as_agent(portal, "GET", "/api/interactions", given)
    assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
