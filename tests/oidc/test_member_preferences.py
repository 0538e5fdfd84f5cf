"""Team mode: each member's saved preferences are their own. Members signed in through a real
OpenID provider (`provider.py`) change theirs through `/api/settings` (with their browser
session or their agent token) and the settings page; another member's stay as they were,
each member's pages speak their own saved language, a question their agent asks starts from
their default time, and on two instances sharing one PostgreSQL database a change made on
one is what the other reads."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest

from tests.oidc.provider import Member, OidcProvider, callback_url, team_instances, team_portal
from tests.pg_cluster import Cluster
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow

QUESTION = {"title": "Pick", "prompt": "Which one?",
            "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("member-preferences"),
                     members=("ann", "bob", "cat")) as both:
        yield both


def settings_of(member: Member, **headers: str) -> dict[str, Any]:
    read = member.call("GET", "/api/settings", headers=headers)
    assert read.status_code == 200, read.text
    return dict(read.json())


def page_language(member: Member) -> str:
    page = member.call("GET", "/settings")
    assert page.status_code == 200, page.text[:300]
    return page.text.split('<html lang="', 1)[1].split('"', 1)[0]


def test_a_members_change_is_theirs_and_not_anothers(ann: Member, bob: Member) -> None:
    bob_before = settings_of(bob)
    changed = ann.call("PUT", "/api/settings", json={"timeout_seconds": 900, "sound": False})
    assert changed.status_code == 200, changed.text
    assert (changed.json()["timeout_seconds"], changed.json()["sound"]) == (900, False)
    assert (settings_of(ann)["timeout_seconds"], settings_of(ann)["sound"]) == (900, False)
    assert settings_of(bob) == bob_before


def test_each_members_pages_speak_their_own_saved_language(ann: Member, bob: Member) -> None:
    assert ann.call("PUT", "/api/settings", json={"language": "en"}).status_code == 200
    saved = bob.call("POST", "/settings", data={"language": "zh", "next": "/settings"})
    assert saved.status_code in (200, 303), saved.text[:300]
    assert settings_of(bob)["language"] == "zh"
    assert settings_of(ann)["language"] == "en"
    assert page_language(bob) == "zh"
    assert page_language(ann) == "en"


def test_a_members_token_reads_and_writes_that_members_preferences(
        ann: Member, cat: Member) -> None:
    made = cat.call("POST", "/api/tokens", json={"name": "cat's agent"})
    assert made.status_code == 201, made.text
    agent = {"Authorization": f"Bearer {made.json()['token']}"}
    ann_before = settings_of(ann)
    changed = httpx.put(f"{cat.portal.base_url}/api/settings", json={"timeout_seconds": 1200},
                        headers=agent, timeout=20)
    assert changed.status_code == 200, changed.text
    assert settings_of(cat)["timeout_seconds"] == 1200  # the browser session sees it
    assert settings_of(ann) == ann_before

    asked = httpx.post(f"{cat.portal.base_url}/api/interactions", json=QUESTION,
                       headers=agent, timeout=20)
    assert asked.status_code == 201, asked.text
    listed = cat.call("GET", "/api/interactions").json()["interactions"]
    row = next(r for r in listed if r["interaction_id"] == asked.json()["interaction_id"])
    lasts = datetime.fromisoformat(row["expires_at"]) - datetime.fromisoformat(row["created_at"])
    assert round(lasts.total_seconds()) == 1200  # cat's default time, not the portal's


def test_without_a_member_the_settings_answer_401(team: tuple[OidcProvider, PortalProcess]
                                                  ) -> None:
    portal = team[1]
    assert httpx.get(f"{portal.base_url}/api/settings", timeout=20).status_code == 401
    refused = httpx.put(f"{portal.base_url}/api/settings", json={"language": "zh"}, timeout=20,
                        headers={"Authorization": "Bearer not-a-token"})
    assert refused.status_code == 401


@pytest.fixture(scope="module")
def instances(tmp_path_factory: pytest.TempPathFactory, pg_cluster: Cluster
              ) -> Iterator[tuple[OidcProvider, PortalProcess, PortalProcess]]:
    with team_instances(tmp_path_factory.mktemp("preference-instances"),
                        pg_cluster.new_database()) as three:
        yield three


def test_a_change_on_one_instance_is_what_the_other_reads(
        instances: tuple[OidcProvider, PortalProcess, PortalProcess]) -> None:
    provider, a, b = instances
    provider.set_account("dan", "dan@example.com", "Dan")
    with httpx.Client(timeout=20, headers={"Origin": a.base_url}) as browser:
        login = browser.get(f"{a.base_url}/login")
        assert browser.get(callback_url(browser, login, "dan@example.com")).status_code == 303
        for language, writer, reader in (("zh", a, b), ("en", b, a)):
            # (the browser's Origin is the public URL, A's, behind any proxy)
            assert browser.put(f"{writer.base_url}/api/settings",
                               json={"language": language}).status_code == 200
            assert browser.get(f"{reader.base_url}/api/settings").json()["language"] == language
            page = browser.get(f"{reader.base_url}/settings")
            assert f'<html lang="{language}">' in page.text
        # A question asked on A (Dan's language now en), Dan's change to zh made on A: the
        # terminal reading it from B shows it in zh.
        asked = browser.post(f"{a.base_url}/api/interactions", json=QUESTION)
        assert asked.status_code == 201, asked.text
        assert browser.put(f"{a.base_url}/api/settings",
                           json={"language": "zh"}).status_code == 200
        detail = browser.get(f"{b.base_url}/api/interactions/{asked.json()['interaction_id']}"
                             "/detail")
        assert detail.json()["language"] == "zh"


def test_what_a_members_agent_and_terminal_read_speaks_the_members_language(
        bob: Member) -> None:
    assert bob.call("PUT", "/api/settings", json={"language": "zh"}).status_code == 200
    made = bob.call("POST", "/api/tokens", json={"name": "agent"})
    assert made.status_code == 201, made.text
    agent = {"Authorization": f"Bearer {made.json()['token']}"}
    asked = bob.call("POST", "/api/interactions", json=QUESTION, headers=agent)
    assert asked.status_code == 201, asked.text
    iid = asked.json()["interaction_id"]
    detail = bob.call("GET", f"/api/interactions/{iid}/detail", headers=agent)
    assert detail.json()["language"] == "zh"  # what his terminal shows the question in
    answered = bob.call("POST", f"/api/interactions/{iid}/response", json={"selected_ids": ["a"]})
    assert answered.status_code == 200, answered.text
    result = bob.call("GET", f"/api/interactions/{iid}", headers=agent).json()
    assert any("\u4e00" <= char <= "\u9fff" for char in result["summary"]), result["summary"]
