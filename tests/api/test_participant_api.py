"""A participant's link used without ever loading the page (`GET /api/d/<secret>`, a
comment, a vote; a form posted by a script): every use opens it once, so the owner's team
panel stops saying "Not opened yet" and `participant_opened` is audited once."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import agent, ask, owner

pytestmark = pytest.mark.usefixtures("backend")  # on SQLite and on PostgreSQL

Client = TestClient[Litestar]
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
TEAM = [{"name": "Ann"}, {"name": "Ben"}]


def widened(web: Client) -> tuple[str, dict[str, str]]:
    """A widened question and each participant's secret, by name."""
    assert web.put("/api/settings", json={"team": TEAM}, headers=agent()).status_code == 200
    iid = web.post("/api/interactions", json=ask(), headers=agent()).json()["interaction_id"]
    reply = web.post(f"/api/interactions/{iid}/widen", json={}, headers=agent())
    assert reply.status_code == 201, reply.text
    return iid, {p["name"]: p["link"].rsplit("/d/", 1)[1] for p in reply.json()["participants"]}


def opened_events(web: Client, iid: str) -> list[str]:
    return [e["detail"]["name"] for e in web.get(f"/api/interactions/{iid}/events",
                                                  headers=agent()).json()["events"]
            if e["kind"] == "participant_opened"]


PERSON = re.compile(r'data-testid="invited-name">([^<]*)<'
                    r'.*?data-testid="invited-state">\s*([^<·]*?)\s*[<·]', re.S)


def panel_says(web: Client, iid: str) -> dict[str, str]:
    """What the owner's team panel (`/choice/{id}/team`) says of each person's link."""
    page = web.get(f"/choice/{iid}/team", headers=owner(web))
    assert page.status_code == 200
    return {name: "Not opened yet" if state == "Not opened yet" else state.split(" ", 1)[0]
            for name, state in PERSON.findall(page.text)}


USES: dict[str, Callable[[Client, str], Any]] = {
    "api read": lambda web, secret: web.get(f"/api/d/{secret}"),
    "api comment": lambda web, secret: web.post(f"/api/d/{secret}/comments",
                                                json={"text": "Postgres, we run it already."}),
    "api vote": lambda web, secret: web.put(f"/api/d/{secret}/vote", json={"option_ids": ["pg"]}),
    # a form posted by a script: its redirect back to the page is not followed (that GET
    # would open the link itself)
    "page comment": lambda web, secret: web.post(f"/d/{secret}/comment", content="text=Postgres",
                                                 headers=FORM, follow_redirects=False),
    "page vote": lambda web, secret: web.post(f"/d/{secret}/vote", content="option=pg",
                                              headers=FORM, follow_redirects=False),
}


@pytest.mark.parametrize("use", list(USES))
def test_any_use_of_a_link_opens_it_for_the_owner(anonymous: Client, use: str) -> None:
    iid, secrets = widened(anonymous)
    assert panel_says(anonymous, iid) == {"Ann": "Not opened yet", "Ben": "Not opened yet"}
    assert USES[use](anonymous, secrets["Ann"]).status_code in (200, 201, 303)
    assert panel_says(anonymous, iid) == {"Ann": "Opened", "Ben": "Not opened yet"}
    team = anonymous.get(f"/api/interactions/{iid}/team", headers=agent()).json()
    assert [p["name"] for p in team["participants"] if p["opened_at"]] == ["Ann"]
    assert opened_events(anonymous, iid) == ["Ann"]


def test_a_link_used_many_ways_is_opened_once_before_what_was_done(anonymous: Client) -> None:
    iid, secrets = widened(anonymous)
    for use in ("api comment", "api vote", "api read", "page comment", "page vote"):
        assert USES[use](anonymous, secrets["Ben"]).status_code in (200, 201, 303), use
    events = anonymous.get(f"/api/interactions/{iid}/events", headers=agent()).json()["events"]
    kinds = [e["kind"] for e in events if e["actor"].startswith("participant:")]
    assert kinds[0] == "participant_opened" and kinds.count("participant_opened") == 1
    assert "comment_added" in kinds
    assert opened_events(anonymous, iid) == ["Ben"]


def test_a_refused_secret_opens_nothing(anonymous: Client) -> None:
    iid, _secrets = widened(anonymous)
    forged = "A" * 32
    assert anonymous.post(f"/api/d/{forged}/comments", json={"text": "hi"}).status_code == 404
    assert anonymous.put(f"/api/d/{forged}/vote", json={"option_ids": ["pg"]}).status_code == 404
    assert opened_events(anonymous, iid) == []
