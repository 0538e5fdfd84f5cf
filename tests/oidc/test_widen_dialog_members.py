"""Team mode's widen dialog on the owner's page: it offers the members who have signed in
(never the owner, never anyone else), the owner ticks one and they find the question in
their own list; a member gone meanwhile or the owner's own email get a sentence in the
person's language (English and Chinese), never a 500. A real portal in team mode, a real
OpenID provider, members signed in with httpx.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.oidc.provider import Member, OidcProvider, team_portal
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow
HTMX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("widen-dialog")) as both:
        provider, _ = both
        provider.set_account("ann", "ann@example.com", "Ann Owner")
        provider.set_account("bob", "bob@example.com", "Bob Member")
        provider.set_account("cat", "cat@example.com", "Cat Member")
        provider.set_account("dan", "dan@example.com", "Dan Never")  # never signs in
        yield both


def offered(html: str) -> list[str]:
    return re.findall(r'name="members" value="([^"]+)"', html)


def test_the_dialog_offers_the_members_who_signed_in_but_the_owner(
        ann: Member, bob: Member, cat: Member) -> None:
    iid = ann.ask("Which queue?")
    for headers in ({}, HTMX):  # the page of its own, and the dialog's fragment
        dialog = ann.call("GET", f"/choice/{iid}/widen", headers=headers)
        assert dialog.status_code == 200, dialog.text[:300]
        assert offered(dialog.text) == ["bob@example.com", "cat@example.com"]
        assert "Bob Member" in dialog.text and "Dan Never" not in dialog.text


def test_the_owner_ticks_a_member_who_then_finds_it_in_their_list(
        ann: Member, bob: Member, cat: Member) -> None:
    iid = ann.ask("Which cache?")
    done = ann.call("POST", f"/choice/{iid}/widen", headers=HTMX,
                    data={"names": "", "members": ["bob@example.com"], "mode": "block"})
    assert done.status_code == 200, done.text[:500]
    assert 'data-testid="widen-invited"' in done.text and "Bob Member" in done.text
    assert f"/widened/{iid}" in done.text  # his signed-in page, no secret link
    listed = bob.call("GET", "/api/interactions").json()["widened_to_me"]
    assert iid in {row["interaction_id"] for row in listed}
    # Ticked alone: nobody else was invited, Cat included.
    people = ann.call("GET", f"/api/interactions/{iid}/team").json()["participants"]
    assert [p["name"] for p in people] == ["Bob Member"]
    assert iid not in str(cat.call("GET", "/api/interactions").json())


@pytest.mark.parametrize(("language", "said"), [
    ("en", "A member you ticked is no longer on this server"),
    ("zh-CN", "你勾选的成员已不在此服务器上"),
])
def test_a_member_gone_meanwhile_is_refused_in_the_persons_words(
        ann: Member, bob: Member, language: str, said: str) -> None:
    iid = ann.ask(f"Which log, {language}?")
    refused = ann.call("POST", f"/choice/{iid}/widen",
                       headers={**HTMX, "Accept-Language": language},
                       data={"members": ["bob@example.com", "gone@example.com"]})
    assert refused.status_code == 422, refused.text[:300]
    assert said in refused.text
    assert 'value="bob@example.com" checked' in refused.text  # what was ticked stays ticked
    assert ann.call("GET", f"/api/interactions/{iid}").json()["status"] == "pending"


def test_the_owner_naming_herself_is_told_to_untick_herself(ann: Member) -> None:
    iid = ann.ask("Which owner?")
    refused = ann.call("POST", f"/choice/{iid}/widen", headers=HTMX,
                       data={"members": ["ann@example.com"]})
    assert refused.status_code == 422 and "untick yourself" in refused.text
