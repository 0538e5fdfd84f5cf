"""`POST /api/agent-waiting` (what `choice hook` sends from Claude Code's Notification hook):
every open page hears that an agent waits at its own prompt; a bad body is refused naming
the field, and only the agent's token may send it."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from tests.api.test_team_pages import agent, owner

Client = TestClient[Litestar]
NOTICE = {"message": "Claude is waiting for your input", "agent": "Claude Code",
          "project": "billing", "waiting_for": "input"}


def test_every_open_page_hears_that_an_agent_waits(anonymous: Client) -> None:
    with anonymous.websocket_connect("/ws/portal", headers=owner(anonymous)) as socket:
        told = anonymous.post("/api/agent-waiting", json=NOTICE, headers=agent())
        assert told.status_code == 202, told.text
        assert socket.receive_json(timeout=10) == {"type": "agent_waiting", **NOTICE}


def test_a_notice_text_is_sent_as_text_and_its_bidi_closed(anonymous: Client) -> None:
    with anonymous.websocket_connect("/ws/portal", headers=owner(anonymous)) as socket:
        anonymous.post("/api/agent-waiting", headers=agent(),
                       json={**NOTICE, "message": "<b>x</b> \u202eevil", "waiting_for": "permission"})
        heard = socket.receive_json(timeout=10)
    assert heard["message"] == "<b>x</b> \u202eevil\u202c" and heard["waiting_for"] == "permission"


def test_a_bad_notice_is_refused_naming_the_field_and_the_token_is_needed(anonymous: Client) -> None:
    for body, field in (({"agent": "x"}, "message"), ({**NOTICE, "waiting_for": "lunch"},
                                                      "waiting_for"),
                        ({**NOTICE, "message": "x" * 501}, "message")):
        refused = anonymous.post("/api/agent-waiting", json=body, headers=agent())
        assert refused.status_code == 422, body
        assert [e["field"] for e in refused.json()["errors"]] == [field]
    assert anonymous.post("/api/agent-waiting", json=NOTICE).status_code == 401


MOVED_ON = {"conversation_id": "5f3c", "event": "tool_done", "agent": "Claude Code",
            "tool": "Bash", "tool_input_sha256": "ab" * 32}


def test_a_bad_moved_on_notice_is_refused_naming_the_field_and_changes_nothing(
        anonymous: Client) -> None:
    asked = anonymous.post("/api/interactions", headers=agent(), json={
        "title": "Allow Bash: x", "prompt": "x", "options": [{"id": "allow", "label": "Allow"}],
        "context": {"conversation_id": "5f3c", "agent": "Claude Code", "tool": "Bash",
                    "tool_input_sha256": "ab" * 32}})
    iid = asked.json()["interaction_id"]
    for body, field in (({**MOVED_ON, "event": "lunch"}, "event"),
                        ({"event": "turn_over"}, "conversation_id"),
                        ({**MOVED_ON, "conversation_id": ""}, "conversation_id"),
                        ({**MOVED_ON, "colour": "red"}, "colour"),
                        ({**MOVED_ON, "seconds_ago": -1}, "seconds_ago")):
        refused = anonymous.post("/api/agent-moved-on", json=body, headers=agent())
        assert refused.status_code == 422, body
        assert [e["field"] for e in refused.json()["errors"]] == [field]
    assert anonymous.post("/api/agent-moved-on", json=MOVED_ON).status_code == 401
    assert anonymous.get(f"/api/interactions/{iid}", headers=agent()).json()["status"] == "pending"
    # a notice of an event from before the question was asked (a hook run in the
    # background, late) leaves it alone: it is the agent's next question
    late = anonymous.post("/api/agent-moved-on", json={**MOVED_ON, "seconds_ago": 60},
                          headers=agent())
    assert late.status_code == 200 and late.json() == {"withdrawn": []}
    told = anonymous.post("/api/agent-moved-on", json=MOVED_ON, headers=agent())
    assert told.status_code == 200 and told.json() == {"withdrawn": [iid]}
