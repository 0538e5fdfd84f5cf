"""Team mode: the audit names the member behind the owner's and the agent's acts on a
question (widening, the owner's comment, a deadline change, cancelling, withdrawing through
the member's agent token), with the actor strings as they always were; an invitation still
names the member invited, and a participant's acts are not given the owner's name. A real
portal in team mode, a real OpenID provider, members signed in through it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.oidc.provider import QUESTION, Member, OidcProvider, team_portal
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow

ANN, BOB = "ann@example.com", "bob@example.com"


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("audit-members")) as both:
        provider, _ = both
        provider.set_account("ann", ANN, "Ann")
        provider.set_account("bob", BOB, "Bob")
        yield both


def events(member: Member, iid: str) -> list[dict[str, Any]]:
    listed = member.call("GET", f"/api/interactions/{iid}/events")
    assert listed.status_code == 200, listed.text
    return list(listed.json()["events"])


def of_kind(trail: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = [event for event in trail if event["kind"] == kind]
    assert len(found) == 1, (kind, [event["kind"] for event in trail])
    return found[0]


def test_the_owners_widen_comment_deadline_and_cancel_name_the_member(
        team: tuple[OidcProvider, PortalProcess]) -> None:
    ann, bob = Member(team[1], ANN), Member(team[1], BOB)
    iid = ann.ask("Ann's question for the audit")
    widened = ann.call("POST", f"/api/interactions/{iid}/widen", json={"members": [BOB]})
    assert widened.status_code == 201, widened.text
    assert bob.call("POST", f"/api/widened/{iid}/comments",
                    json={"text": "Bob's view"}).status_code == 201
    assert ann.call("POST", f"/api/interactions/{iid}/comments",
                    json={"text": "Ann's reply"}).status_code == 201
    moved = ann.call("PATCH", f"/api/interactions/{iid}", json={"timeout_seconds": 7200})
    assert moved.status_code == 200, moved.text
    assert ann.call("POST", f"/api/interactions/{iid}/cancel", json={}).status_code == 200

    trail = events(ann, iid)
    for kind, actor in [("widened", "human:owner"), ("deadline_changed", "human:api"),
                        ("cancelled", "human:api")]:
        event = of_kind(trail, kind)
        assert (event["actor"], event["detail"]["member"]) == (actor, ANN), event
    comments = [e for e in trail if e["kind"] == "comment_added"]
    assert [(e["actor"], e["detail"].get("member")) for e in comments] == [
        (comments[0]["actor"], BOB), ("human:owner", ANN)]
    assert comments[0]["actor"].startswith("participant:")  # Bob's own, as Bob
    assert of_kind(trail, "participant_invited")["detail"]["member"] == BOB


def test_an_agents_withdraw_names_the_member_whose_token_it_holds(
        team: tuple[OidcProvider, PortalProcess]) -> None:
    ann = Member(team[1], ANN)
    made = ann.call("POST", "/api/tokens", json={"name": "audit agent"})
    assert made.status_code == 201, made.text
    agent = {"Authorization": f"Bearer {made.json()['token']}"}
    base = team[1].base_url
    asked = httpx.post(f"{base}/api/interactions", headers=agent, timeout=20,
                       json={**QUESTION, "title": "Asked and taken back"})
    assert asked.status_code == 201, asked.text
    iid = asked.json()["interaction_id"]
    withdrawn = httpx.post(f"{base}/api/interactions/{iid}/withdraw", headers=agent,
                           timeout=20, json={"reason": "found it in the docs"})
    assert withdrawn.status_code == 200, withdrawn.text

    trail = events(ann, iid)
    event = of_kind(trail, "withdrawn")
    assert (event["actor"], event["detail"]["member"]) == ("agent:api", ANN), event
    assert of_kind(trail, "created")["detail"]["member"] == ANN
