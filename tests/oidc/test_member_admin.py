"""Team mode's admins, end to end: members and admins signed in through a real OpenID
provider (`provider.py`) on a real portal on a real port, driven with httpx. An admin lists
the members (never a secret) and ends one member's access (their sessions and tokens are
refused at once, the admin's own untouched); a member, and an agent token, get 403; an
admin still gets 404 on another member's question; an admin comes from the `groups` claim
too, and stops being one at the next sign-in without the group. Sign-out and a session
that ran out end a member's session.

One portal and one provider for the module; each test signs in its own members.
"""

from __future__ import annotations

import itertools
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.oidc.provider import ADMIN, OidcProvider, callback_url, team_portal
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow

ADMIN_GROUP = "choice-admins"
QUESTION = {"title": "Which store?", "prompt": "Ann's private context.",
            "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]}
SIGNED_IN = itertools.count()
CROSS_SITE = {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}
MEMBER_FIELDS = {"id", "email", "name", "admin", "created_at", "last_sign_in_at", "sessions",
                 "tokens"}


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("admin"),
                     CHOICE_OIDC_ADMIN_GROUPS=f"other-group,{ADMIN_GROUP}") as both:
        yield both


@pytest.fixture
def portal(team: tuple[OidcProvider, PortalProcess]) -> PortalProcess:
    return team[1]


class Browser:
    """One signed-in browser of a member: its session cookie does the calls (writes carry
    the portal's Origin, as the pages' own do)."""

    def __init__(self, portal: PortalProcess, email: str) -> None:
        self.portal, self.email = portal, email
        self.client = httpx.Client(timeout=20, headers={"Origin": portal.base_url})
        login = self.client.get(f"{portal.base_url}/login")
        assert self.client.get(callback_url(self.client, login, email)).status_code == 303
        self.cookie = self.client.cookies["choice_session"]

    def call(self, method: str, path: str, **options: Any) -> httpx.Response:
        return self.client.request(method, f"{self.portal.base_url}{path}", **options)

    def me(self) -> httpx.Response:
        return self.call("GET", "/api/me")

    def make_token(self) -> dict[str, Any]:
        made = self.call("POST", "/api/tokens", json={"name": "agent"})
        assert made.status_code == 201, made.text
        return dict(made.json())

    def members(self) -> dict[str, dict[str, Any]]:
        listed = self.call("GET", "/api/members")
        assert listed.status_code == 200, listed.text
        return {m["email"]: m for m in listed.json()["members"]}


@pytest.fixture
def sign_in(team: tuple[OidcProvider, PortalProcess]) -> Iterator[Any]:
    """`sign_in("ann")`: a new account ann-N@example.com, signed in in a new browser;
    `sign_in(email=ADMIN)`: that account (made if new) in a new browser."""
    provider, portal = team
    browsers: list[Browser] = []

    def signed_in(handle: str = "", email: str | None = None,
                  groups: list[str] | None = None) -> Browser:
        if email is None:
            handle = f"{handle}-{next(SIGNED_IN)}"
            email = f"{handle}@example.com"
            provider.set_account(handle, email, handle.title(), groups=groups)
        elif email == ADMIN:
            provider.set_account("the-admin", ADMIN, "The Admin")
        browser = Browser(portal, email)
        browsers.append(browser)
        return browser

    yield signed_in
    for browser in browsers:
        browser.client.close()


def with_token(portal: PortalProcess, method: str, path: str, secret: str,
               **options: Any) -> httpx.Response:
    return httpx.request(method, f"{portal.base_url}{path}", timeout=20,
                         headers={"Authorization": f"Bearer {secret}"}, **options)


def member_id(admin: Browser, email: str) -> str:
    return str(admin.members()[email]["id"])


def test_a_member_gets_403_and_changes_nothing(sign_in: Any) -> None:
    ann, bob, admin = sign_in("ann"), sign_in("bob"), sign_in(email=ADMIN)
    bob_token = bob.make_token()
    for method, path in [("GET", "/api/members"),
                         ("POST", f"/api/members/{member_id(admin, bob.email)}/revoke")]:
        refused = ann.call(method, path)
        assert refused.status_code == 403, (method, path)
        error = refused.json()["errors"][0]
        assert error["code"] == "forbidden" and "CHOICE_OIDC_ADMINS" in error["message"]
    assert bob.me().status_code == 200
    assert with_token(bob.portal, "GET", "/api/me", bob_token["token"]).status_code == 200
    page = ann.call("GET", "/settings/members")
    assert page.status_code == 403 and "text/html" in page.headers["content-type"]
    assert 'data-testid="member-list"' not in page.text
    assert 'data-testid="members-link"' not in ann.call("GET", "/settings").text


def test_an_admin_lists_every_member_with_counts_and_never_a_secret(sign_in: Any) -> None:
    ann, admin = sign_in("ann"), sign_in(email=ADMIN)
    second = Browser(ann.portal, ann.email)  # ann's second browser: two sessions
    token = ann.make_token()
    listed = admin.call("GET", "/api/members")
    assert listed.status_code == 200
    for secret in (token["token"], ann.cookie, second.cookie, admin.cookie):
        assert secret not in listed.text
    rows = {m["email"]: m for m in listed.json()["members"]}
    assert all(set(row) == MEMBER_FIELDS for row in rows.values())
    anns = rows[ann.email]
    assert (anns["name"], anns["admin"], anns["sessions"], anns["tokens"]) == \
        (ann.email.partition("@")[0].title(), False, 2, 1)
    assert anns["created_at"].endswith("Z") and anns["last_sign_in_at"] >= anns["created_at"]
    assert rows[ADMIN]["admin"] is True and rows[ADMIN]["sessions"] >= 1
    assert list(rows) == sorted(rows)  # by email
    second.client.close()


def test_ending_a_members_access_refuses_their_sessions_and_tokens_at_once(
        sign_in: Any) -> None:
    ann, bob, admin = sign_in("ann"), sign_in("bob"), sign_in(email=ADMIN)
    second = Browser(ann.portal, ann.email)
    anns, bobs, admins = ann.make_token(), bob.make_token(), admin.make_token()
    ended = admin.call("POST", f"/api/members/{member_id(admin, ann.email)}/revoke")
    assert ended.status_code == 200
    assert ended.json() == {"sessions_ended": 2, "tokens_revoked": 1}
    portal = admin.portal
    assert ann.me().status_code == second.me().status_code == 401
    assert with_token(portal, "GET", "/api/me", anns["token"]).status_code == 401
    assert ann.call("GET", "/settings").status_code == 303  # back to the sign-in
    assert bob.me().status_code == admin.me().status_code == 200  # untouched
    assert with_token(portal, "GET", "/api/me", bobs["token"]).status_code == 200
    assert with_token(portal, "GET", "/api/me", admins["token"]).status_code == 200
    assert (admin.members()[ann.email]["sessions"], admin.members()[ann.email]["tokens"]) == (0, 0)
    again = Browser(portal, ann.email)  # the provider still lets ann in: a new session works
    assert again.me().json()["email"] == ann.email
    again.client.close()
    second.client.close()


def test_an_unknown_member_is_404_naming_the_field(sign_in: Any) -> None:
    admin = sign_in(email=ADMIN)
    refused = admin.call("POST", "/api/members/0123456789abcdef0123456789abcdef/revoke")
    assert refused.status_code == 404
    assert refused.json()["errors"][0]["field"] == "member_id"
    assert "GET /api/members" in refused.json()["errors"][0]["message"]


def test_an_admins_agent_token_is_no_admin_and_cross_site_posts_are_refused(
        sign_in: Any) -> None:
    ann, admin = sign_in("ann"), sign_in(email=ADMIN)
    token, target = admin.make_token(), member_id(admin, ann.email)
    portal = admin.portal
    listed = with_token(portal, "GET", "/api/members", token["token"])
    assert listed.status_code == 403 and "session" in listed.json()["errors"][0]["message"]
    assert with_token(portal, "POST", f"/api/members/{target}/revoke",
                      token["token"]).status_code == 403
    assert admin.call("POST", f"/api/members/{target}/revoke",
                      headers=CROSS_SITE).status_code == 403
    assert admin.call("POST", f"/settings/members/{target}/revoke",
                      headers=CROSS_SITE).status_code == 403
    assert ann.me().status_code == 200 and admin.members()[ann.email]["sessions"] == 1


def test_an_admin_gets_404_on_another_members_question_like_a_missing_one(
        sign_in: Any) -> None:
    ann, admin = sign_in("ann"), sign_in(email=ADMIN)
    asked = ann.call("POST", "/api/interactions", json=QUESTION)
    assert asked.status_code == 201, asked.text
    anns = asked.json()["interaction_id"]
    missing = "0123456789abcdef"
    for path in ("/api/interactions/{id}", "/api/interactions/{id}/detail", "/choice/{id}"):
        theirs = admin.call("GET", path.format(id=anns))
        unknown = admin.call("GET", path.format(id=missing))
        assert theirs.status_code == unknown.status_code == 404, path
        assert theirs.text.replace(anns, missing) == unknown.text, path
    listed = admin.call("GET", "/api/interactions").json()["interactions"]
    assert anns not in [i["interaction_id"] for i in listed]
    assert QUESTION["prompt"] not in admin.call("GET", "/settings/members").text
    assert ann.call("GET", f"/api/interactions/{anns}").status_code == 200


def test_an_admin_by_group_claim_stops_being_one_at_the_next_sign_in_without_it(
        team: tuple[OidcProvider, PortalProcess], sign_in: Any) -> None:
    provider, _portal = team
    cat = sign_in("cat", groups=["staff", ADMIN_GROUP])
    assert cat.me().json()["admin"] is True
    assert cat.call("GET", "/api/members").status_code == 200
    assert 'data-testid="members-link"' in cat.call("GET", "/settings").text
    sub = cat.email.partition("@")[0]
    provider.set_account(sub, cat.email, sub.title(), groups=["staff"])
    assert cat.me().json()["admin"] is True  # the flag is decided at sign-in
    again = sign_in(email=cat.email)
    assert again.me().json()["admin"] is False
    assert cat.me().json()["admin"] is False  # every session of theirs, at once
    assert cat.call("GET", "/api/members").status_code == 403
    assert again.call("GET", "/settings/members").status_code == 403


def test_a_group_named_by_case_or_as_part_of_another_makes_no_admin(sign_in: Any) -> None:
    dan = sign_in("dan", groups=[ADMIN_GROUP.upper(), f"{ADMIN_GROUP}-readers", "other"])
    assert dan.me().json()["admin"] is False
    assert dan.call("GET", "/api/members").status_code == 403


def test_the_members_page_lists_them_and_ends_one_members_access_behind_a_confirm(
        sign_in: Any) -> None:
    eve, admin = sign_in("eve"), sign_in(email=ADMIN)
    eve.make_token()
    settings = admin.call("GET", "/settings")
    assert 'href="/settings/members"' in settings.text
    page = admin.call("GET", "/settings/members")
    assert page.status_code == 200 and 'data-testid="members-page"' in page.text
    assert eve.email in page.text and eve.cookie not in page.text
    target = member_id(admin, eve.email)
    assert f'hx-post="/settings/members/{target}/revoke"' in page.text
    assert "hx-confirm=" in page.text
    panel = admin.call("POST", f"/settings/members/{target}/revoke",
                       headers={"HX-Request": "true"})
    assert panel.status_code == 200 and 'data-testid="member-ended"' in panel.text
    assert "1 session ended" in panel.text and "1 token revoked" in panel.text
    assert eve.me().status_code == 401
    no_script = admin.call("POST", f"/settings/members/{target}/revoke")
    assert no_script.status_code == 303
    assert no_script.headers["location"] == "/settings/members"


def test_signing_out_ends_that_session_only(sign_in: Any) -> None:
    fay = sign_in("fay")
    other = Browser(fay.portal, fay.email)
    token = fay.make_token()
    out = fay.call("POST", "/logout")
    assert out.status_code == 303
    assert fay.me().status_code == 401
    assert other.me().status_code == 200
    assert with_token(fay.portal, "GET", "/api/me", token["token"]).status_code == 200
    other.client.close()


def test_a_members_session_that_ran_out_is_refused(portal: PortalProcess,
                                                   sign_in: Any) -> None:
    gil = sign_in("gil")
    token = gil.make_token()
    with sqlite3.connect(portal.data_dir / "choice.db") as db:
        ended = db.execute("UPDATE browser_session SET expires_at = ? WHERE member_id = "
                           "(SELECT id FROM member WHERE email = ?)",
                           (time.time() - 1, gil.email)).rowcount
    assert ended == 1
    assert gil.me().status_code == 401
    page = gil.call("GET", "/settings")
    assert page.status_code == 303 and page.headers["location"] == "/login?next=/settings"
    assert with_token(portal, "GET", "/api/me", token["token"]).status_code == 200
