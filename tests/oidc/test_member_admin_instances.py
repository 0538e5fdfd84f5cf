"""Team mode on two portal processes sharing one PostgreSQL database: an admin who ends a
member's access on one instance has that member's sessions and agent tokens refused
(exactly 401) at once on the other too, and the admin's own left alone. Members sign in
through a real OpenID provider on instance A."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing

import httpx
import pytest

from tests.oidc.provider import ADMIN, OidcProvider, callback_url, team_instances
from tests.pg_cluster import Cluster
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def instances(tmp_path_factory: pytest.TempPathFactory, pg_cluster: Cluster
              ) -> Iterator[tuple[OidcProvider, PortalProcess, PortalProcess]]:
    """The provider, and instances A and B: one database, one data dir, A's public URL."""
    with team_instances(tmp_path_factory.mktemp("admin-instances"), pg_cluster.new_database(),
                        CHOICE_OIDC_ADMINS=ADMIN) as three:
        yield three


def signed_in(provider: OidcProvider, portal: PortalProcess, sub: str, email: str
              ) -> httpx.Client:
    provider.set_account(sub, email, sub.title())
    browser = httpx.Client(timeout=20, headers={"Origin": portal.base_url})
    login = browser.get(f"{portal.base_url}/login")
    assert browser.get(callback_url(browser, login, email)).status_code == 303
    return browser


def me(portal: PortalProcess, browser: httpx.Client | None = None,
       secret: str | None = None) -> int:
    """`/api/me` on `portal` with the browser's session cookie, or with the token."""
    if secret is not None:
        return httpx.get(f"{portal.base_url}/api/me", timeout=20,
                         headers={"Authorization": f"Bearer {secret}"}).status_code
    assert browser is not None
    cookie = browser.cookies["choice_session"]
    return httpx.get(f"{portal.base_url}/api/me", timeout=20,
                     headers={"Cookie": f"choice_session={cookie}"}).status_code


@pytest.mark.parametrize("ended_on", ["a", "b"])
def test_ending_a_members_access_on_one_instance_refuses_them_at_once_on_the_other(
        instances: tuple[OidcProvider, PortalProcess, PortalProcess], ended_on: str) -> None:
    provider, a, b = instances
    email = f"ann-{ended_on}@example.com"
    with closing(signed_in(provider, a, f"ann-{ended_on}", email)) as ann, \
            closing(signed_in(provider, a, "the-admin", ADMIN)) as admin:
        token = ann.post(f"{a.base_url}/api/tokens", json={"name": "agent"}).json()["token"]
        admins = admin.post(f"{a.base_url}/api/tokens", json={"name": "mine"}).json()["token"]
        for portal in (a, b):
            assert me(portal, ann) == me(portal, secret=token) == 200
        by = {"a": a, "b": b}[ended_on]
        cookie = {"Cookie": f"choice_session={admin.cookies['choice_session']}",
                  "Origin": a.base_url}
        listed = httpx.get(f"{by.base_url}/api/members", headers=cookie, timeout=20).json()
        ann_id = next(m["id"] for m in listed["members"] if m["email"] == email)
        ended = httpx.post(f"{by.base_url}/api/members/{ann_id}/revoke", headers=cookie,
                           timeout=20)
        assert ended.status_code == 200 and ended.json()["tokens_revoked"] == 1
        for portal in (a, b):
            assert me(portal, ann) == me(portal, secret=token) == 401
            assert me(portal, admin) == me(portal, secret=admins) == 200
