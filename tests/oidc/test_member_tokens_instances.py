"""Team mode on two portal processes sharing one PostgreSQL database: a member's agent token
made on one works on the other, and once revoked on either it is refused (exactly 401) at
once on both. Members sign in through a real OpenID provider on instance A."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.oidc.provider import OidcProvider, callback_url, team_instances
from tests.pg_cluster import Cluster
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def instances(tmp_path_factory: pytest.TempPathFactory, pg_cluster: Cluster
              ) -> Iterator[tuple[OidcProvider, PortalProcess, PortalProcess]]:
    """The provider, and instances A and B: one database, one data dir, A's public URL."""
    with team_instances(tmp_path_factory.mktemp("token-instances"), pg_cluster.new_database()) as three:
        yield three


def me(portal: PortalProcess, secret: str) -> int:
    return httpx.get(f"{portal.base_url}/api/me", timeout=20,
                     headers={"Authorization": f"Bearer {secret}"}).status_code


@pytest.mark.parametrize("revoked_on", ["a", "b"])
def test_a_token_revoked_on_one_instance_is_refused_at_once_on_the_other(
        instances: tuple[OidcProvider, PortalProcess, PortalProcess], revoked_on: str) -> None:
    provider, a, b = instances
    email = f"ann-{revoked_on}@example.com"
    provider.set_account(f"ann-{revoked_on}", email, "Ann")
    with httpx.Client(timeout=20) as browser:
        login = browser.get(f"{a.base_url}/login")
        assert browser.get(callback_url(browser, login, email)).status_code == 303
        made = browser.post(f"{a.base_url}/api/tokens", json={"name": "agent"}).json()
        assert me(a, made["token"]) == 200 and me(b, made["token"]) == 200
        by = {"a": a, "b": b}[revoked_on]
        revoked = httpx.delete(f"{by.base_url}/api/tokens/{made['id']}", timeout=20,
                               headers={"Authorization": f"Bearer {made['token']}"})
        assert revoked.status_code == 204
        assert me(a, made["token"]) == 401 and me(b, made["token"]) == 401
        assert browser.get(f"{a.base_url}/api/me").status_code == 200  # still signed in
