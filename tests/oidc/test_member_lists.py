"""Team mode: each member's question list, as their page shows it, follows their own
questions and those widened to them, and only those, while other members' lists change.
A real portal in team mode, a real OpenID provider, members signed in with httpx.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.oidc.provider import Member, OidcProvider, team_portal
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("lists"), members=("ann", "bob")) as both:
        yield both


def front_page(member: Member) -> str:
    page = member.call("GET", "/")
    assert page.status_code == 200, page.text[:300]
    return page.text


def page_of(member: Member, interaction_id: str) -> str:
    page = member.call("GET", f"/choice/{interaction_id}")
    assert page.status_code == 200, page.text[:300]
    return page.text


def test_each_members_list_page_shows_their_change_at_once_and_no_one_elses(
        ann: Member, bob: Member) -> None:
    bobs = bob.ask("Bob asks his own")
    assert "Bob asks his own" in front_page(bob)
    assert "Bob asks his own" not in front_page(ann)

    first = ann.ask("Ann asks first")
    assert "Ann asks first" in front_page(ann)
    assert "Ann asks again" not in page_of(ann, first)
    ann.ask("Ann asks again")
    assert "Ann asks again" in page_of(ann, first)  # the same page, its list changed
    bobs_page = front_page(bob)
    assert "Ann asks first" not in bobs_page and "Bob asks his own" in bobs_page

    widened = ann.ask("Ann widens this one to Bob")
    assert "Ann widens this one to Bob" not in front_page(bob)
    reply = ann.call("POST", f"/api/interactions/{widened}/widen",
                     json={"members": ["bob@example.com"]})
    assert reply.status_code == 201, reply.text
    bobs_page = front_page(bob)
    assert f'href="/widened/{widened}"' in bobs_page and "Ann widens this one to Bob" in bobs_page

    # Ann decides it: it leaves the list of questions widened to Bob, and Bob's own is kept.
    decided = ann.call("POST", f"/api/interactions/{widened}/response",
                       json={"selected_ids": ["pg"]})
    assert decided.status_code == 200, decided.text
    bobs_page = front_page(bob)
    assert f'href="/widened/{widened}"' not in bobs_page
    assert f"/choice/{bobs}" in bobs_page

    # Bob answers his own: his list shows it answered, Ann's is as it was.
    answered = bob.call("POST", f"/api/interactions/{bobs}/response", json={"selected_ids": ["pg"]})
    assert answered.status_code == 200, answered.text
    assert "Bob asks his own" not in front_page(ann)
    assert "Ann asks first" in front_page(ann)
