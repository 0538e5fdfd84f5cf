"""`/healthz` tells anyone only that a choice portal answers here: no pid, no count of
pending or waiting questions (when the owner is busy is nobody else's business), no store.
Whatever else comes with the request (a wrong token, a participant's link as the token,
the token in the query) is still anyone. The owner's token gets the details, and the
portal's own discovery (`PortalClient.is_portal`, which runs before it has a token) still
finds it.
"""

from __future__ import annotations

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.security.conftest import ask, bearer, send, signed_in
from tests.security.team import widened
from tests.tally import attacks

pytestmark = pytest.mark.slow
ANONYMOUS = {"status": "ok", "portal": "choice"}


@pytest.fixture(scope="module")
def portal(network_portal: PortalProcess) -> PortalProcess:
    return network_portal


def test_healthz_tells_anyone_only_that_a_portal_answers(portal: PortalProcess) -> None:
    ask(portal)  # a pending question: a count there would say so
    (who,) = widened(portal, ["Ann"])
    strangers = {
        "nobody": ({}, ""),
        "a wrong token": ({"Authorization": "Bearer " + "x" * 43}, ""),
        "a participant's link as the token": ({"Authorization": f"Bearer {who.secret}"}, ""),
        "the token in the query": ({}, f"?token={portal.token}"),
        "a forged cookie": ({"Cookie": "choice_session=forged"}, ""),
        "a browser asking for HTML": ({"Accept": "text/html"}, ""),
    }
    with attacks("Anonymous health check") as seen:
        for name, (headers, query) in strangers.items():
            reply = send(portal, "GET", f"/healthz{query}", None, headers)
            seen.refused_if(reply.status == 200 and reply.json() == ANONYMOUS,
                            (name, reply.status, reply.text[:200]))


def test_the_owner_gets_the_details_and_discovery_still_finds_the_portal(
        portal: PortalProcess) -> None:
    for credentials in (bearer(portal), signed_in(portal)):
        details = send(portal, "GET", "/healthz", None, credentials).json()
        assert details["portal"] == "choice" and details["pid"] == portal.process.pid  # type: ignore[union-attr]
        assert {"version", "pending", "waiting", "store"} <= details.keys()
    assert PortalClient(portal.base_url, None).is_portal()
