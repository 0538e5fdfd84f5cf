"""The question list's interface badge says where a question is being asked while it is
open and that is not the web (a switch moves it at once; a web one's "Web" on every line
would say nothing), and where it was answered once it is over: the result's `interface`,
not the interface it was asked in."""

from __future__ import annotations

import re
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import agent, ask, owner

Client = TestClient[Litestar]
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def asked(web: Client, **overrides: Any) -> str:
    response = web.post("/api/interactions", json=ask(**overrides), headers=agent())
    assert response.status_code == 201, response.text
    return str(response.json()["interaction_id"])


def badge(web: Client, iid: str, which: str = "all") -> str:
    """The interface badge of the question's line in the list, as the page shows it ("" for
    none)."""
    listed = web.get(f"/partials/interactions?filter={which}", headers=owner(web))
    assert listed.status_code == 200
    line = re.search(rf'data-interaction-id="{iid}".*?</a>', listed.text, re.S)
    assert line is not None, f"{iid} is not in the {which} list"
    found = re.search(r'data-testid="interface-badge">([^<]*)<', line.group(0))
    return found.group(1).strip() if found else ""


def test_a_web_question_answered_in_the_terminal_is_listed_as_answered_there(
        anonymous: Client) -> None:
    iid = asked(anonymous, interface="web")
    assert badge(anonymous, iid) == ""  # open, on the web: no badge
    answered = anonymous.post(f"/api/interactions/{iid}/response", headers=agent(),
                              json={"selected_ids": ["pg"], "interface": "terminal"})
    assert answered.status_code == 200, answered.text
    assert answered.json()["interface"] == "terminal"
    assert badge(anonymous, iid, "completed") == "Terminal"
    assert badge(anonymous, iid, "all") == "Terminal"


def test_a_terminal_question_answered_on_its_page_is_listed_as_answered_on_the_web(
        anonymous: Client) -> None:
    iid = asked(anonymous, interface="terminal")
    assert badge(anonymous, iid) == "Terminal"
    posted = anonymous.post(f"/choice/{iid}/submit", content="selected=lite&action=submit",
                            headers={**FORM, **owner(anonymous)}, follow_redirects=False)
    assert posted.status_code == 303, posted.text
    result = anonymous.get(f"/api/interactions/{iid}", headers=agent()).json()
    assert result["interface"] == "web"
    assert badge(anonymous, iid, "completed") == "Web"


def test_an_open_question_switched_to_the_terminal_is_listed_there_at_once(
        anonymous: Client) -> None:
    iid = asked(anonymous, interface="web")
    assert badge(anonymous, iid, "active") == ""  # rendered, and kept for the next load
    switched = anonymous.post(f"/api/interactions/{iid}/interface", headers=agent(),
                              json={"interface": "terminal"})
    assert switched.status_code == 200, switched.text
    assert badge(anonymous, iid, "active") == "Terminal"


def test_a_tab_is_told_to_refresh_its_list_when_another_question_switches(
        anonymous: Client) -> None:
    iid = asked(anonymous, interface="web")
    with anonymous.websocket_connect("/ws/portal", headers=owner(anonymous)) as socket:
        switched = anonymous.post(f"/api/interactions/{iid}/interface", headers=agent(),
                                  json={"interface": "terminal"})
        assert switched.status_code == 200, switched.text
        assert socket.receive_json(timeout=10) == {"type": "list"}


def test_the_json_list_and_the_stream_say_where_it_was_answered_too(client: Client) -> None:
    """For agents and `choice list` too: the listing's `interface` is where the
    question was answered once it has a result, as the page's badge says."""
    iid = asked(client)
    answered = client.post(f"/api/interactions/{iid}/response",
                           json={"selected_ids": ["pg"], "interface": "terminal"})
    assert answered.status_code == 200 and answered.json()["interface"] == "terminal"
    listed = {row["interaction_id"]: row for row in
              client.get("/api/interactions?status=completed").json()["interactions"]}
    assert listed[iid]["interface"] == "terminal"
    pending = asked(client)
    assert {row["interaction_id"]: row["interface"] for row in client.get(
        "/api/interactions?status=active").json()["interactions"]}[pending] == "web"
