"""Team mode: retention's count limit (`CHOICE_MAX_SESSIONS`) holds for each member's
questions apart. One member's agents asking a lot push out only that member's oldest
answered questions, never another member's, and never a question still open."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.oidc.provider import QUESTION, Member, OidcProvider, team_portal
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow
LIMIT = 10


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("retention"),
                     CHOICE_MAX_SESSIONS=str(LIMIT)) as both:
        both[0].set_account("ann", "ann@example.com", "Ann")
        both[0].set_account("bob", "bob@example.com", "Bob")
        yield both


def answered(member: Member, title: str) -> str:
    iid = member.ask(title)
    done = member.call("POST", f"/api/interactions/{iid}/response",
                       json={"selected_ids": [QUESTION["options"][0]["id"]]})
    assert done.status_code == 200, done.text
    return iid


def stored(member: Member) -> set[str]:
    listed = member.call("GET", f"/api/interactions?status=all&limit={LIMIT * 5}")
    return {row["interaction_id"] for row in listed.json()["interactions"]}


def test_one_members_agents_never_push_out_anothers_answers(
        team: tuple[OidcProvider, PortalProcess]) -> None:
    portal = team[1]
    ann, bob = Member(portal, "ann@example.com"), Member(portal, "bob@example.com")
    anns = {answered(ann, f"Ann {n}") for n in range(LIMIT)}
    open_one = bob.ask("Bob, still open")
    bobs = [answered(bob, f"Bob {n}") for n in range(LIMIT + 3)]
    assert stored(ann) == anns  # all of Ann's, though the team holds far more than the limit
    kept = stored(bob)
    assert len(kept) == LIMIT and open_one in kept  # an open question never goes
    assert set(bobs[:4]).isdisjoint(kept) and set(bobs[4:]) <= kept  # his oldest answered
