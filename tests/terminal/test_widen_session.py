"""The widen flow's decisions that a real terminal cannot provoke on demand, with a stand-in
client: the portal refusing the widen call, a reminder from the portal's scheduler (and the
activity that makes it stale), what the live stream forwards, and Ctrl+C at a plain prompt."""

from __future__ import annotations

import io
import json
import queue
from typing import Any

import pytest

from choice.client.portal_client import PortalError, PortalUnreachable
from choice.contract.clock import iso, now
from choice.contract.validation import validate_request
from choice.core.i18n import translator
from choice.terminal.keys import Effect
from choice.terminal.live import Live, LiveEvent
from choice.terminal.plain.lines import run_widen
from choice.terminal.question import Question
from choice.terminal.screens.panels import waiting_reminder
from choice.terminal.screens.team_screen import team_lines
from choice.terminal.session.session import Session
from choice.terminal.stages.press import press

REQUEST = validate_request({
    "title": "Pick", "prompt": "Which?",
    "options": [{"id": "a", "label": "Alpha"}, {"id": "b", "label": "Beta"}]}).request


def team_reply() -> dict[str, Any]:
    """`GET .../team` as the portal answers it now (times from the clock at the call)."""
    return {
        "status": "widened", "mode": "block", "widened_at": iso(now()),
        "expires_at": iso(now() + 900),
        "participants": [{"name": "Ann", "opened_at": iso(now()), "revoked": False},
                         {"name": "Gone", "opened_at": None, "revoked": True}],
        "comments": [{"author": "Ann", "text": "Beta\x1b[2J, clearly\u202e"}], "comment_count": 1,
        "tally": [{"option_id": "b", "voters": ["Ann"]}]}


class StandIn:
    """The calls a widening session makes; `refusal` makes the widen call fail."""

    def __init__(self, refusal: Exception | None = None) -> None:
        self.refusal = refusal
        self.widened: list[tuple[Any, str]] = []

    def settings(self) -> dict[str, Any]:
        return {"team": [{"name": "Ann"}, {"name": "Bo"}]}

    def widen(self, interaction_id: str, audience: list[str] | None, mode: str) -> Any:
        if self.refusal is not None:
            raise self.refusal
        self.widened.append((audience, mode))
        return {"mode": mode, "expires_at": iso(now() + 900), "warnings": [],
                "participants": [{"name": "Ann", "link": "http://127.0.0.1:8765/d/" + "s" * 32}]}

    def team(self, interaction_id: str) -> dict[str, Any]:
        return team_reply()

    def call(self, method: str, path: str) -> dict[str, Any]:
        assert (method, path) == ("GET", "/api/interactions/i-1/discussion")
        return {"thread_url": "http://127.0.0.1:8765/choice/i-1"}


def session(client: StandIn) -> Session:
    question = Question.from_detail({
        "interaction_id": "i-1", "request": REQUEST.model_dump(mode="json"),
        "created_at": iso(now()), "expires_at": iso(now() + 300), "status": "pending"})
    return Session(client, question, {})  # type: ignore[arg-type]


def widen_to_ann(answering: Session, mode_key: str = "b") -> None:
    answering.apply(Effect("widen_open"))
    assert answering.state.stage == "widen"
    for key in "Ann":
        press(answering.state, key)
    press(answering.state, "enter")
    press(answering.state, mode_key)
    [effect] = answering.state.effects
    answering.state.effects.clear()
    answering.apply(effect)


@pytest.mark.parametrize("refusal, said", [
    (PortalError(409, {"errors": [{"field": "interaction_id", "code": "already_widened",
                                   "message": "this question is already widened"}]}),
     "Widen failed: this question is already widened"),
    (PortalUnreachable("gone"), "Widen failed: The portal does not answer"),
])
def test_a_refused_widen_says_why_and_returns_to_the_question(
        refusal: Exception, said: str) -> None:
    answering = session(StandIn(refusal))
    widen_to_ann(answering)
    assert answering.state.message.startswith(said)
    assert (answering.state.stage, answering.state.widen, answering.state.team) == (
        "choose", None, None)
    assert answering.state.can_widen  # nothing changed: `w` still offered


def test_b_and_c_become_the_widen_call_s_mode_and_the_view_comes_from_the_portal() -> None:
    client = StandIn()
    answering = session(client)
    widen_to_ann(answering, "c")
    assert client.widened == [(["Ann"], "continue")]
    state = answering.state
    assert state.invitation is not None and state.invitation.links[0][0] == "Ann"
    assert state.team is not None and [m.name for m in state.team.members] == ["Ann"]
    assert state.team.votes == {"b": ["Ann"]}
    assert state.team.messages[0].text == "Beta␛, clearly"  # safe before any drawing
    assert not state.can_widen and state.expires_at > now() + 600
    assert state.discussion_url == "http://127.0.0.1:8765/choice/i-1"  # read once, for the reminder line


def test_a_reminder_shows_once_until_a_key_or_new_activity() -> None:
    answering = session(StandIn())
    answering.apply(Effect("widen_open"))
    answering.state.close_widen("")
    answering.follow(LiveEvent("reminder"), answering.state)  # type: ignore[arg-type]
    assert answering.state.reminder is False  # not widened: nothing to remind of
    widen_to_ann(answering)
    answering.follow(LiveEvent("reminder"), answering.state)  # type: ignore[arg-type]
    shown = [text for text, _attr in team_lines(answering.state, 78)]
    assert shown.count("Still waiting on widened discussion.") == 1
    assert not any("Send the links again" in line for line in shown)  # the portal cannot
    assert "Check the discussion (choice open i-1), answer here, or press d to defer." in shown
    answering.follow(LiveEvent("team", change="comment"), answering.state)  # type: ignore[arg-type]
    assert "Still waiting on widened discussion." not in [t for t, _ in team_lines(
        answering.state, 78)]
    answering.follow(LiveEvent("reminder"), answering.state)  # type: ignore[arg-type]
    press(answering.state, "down")
    assert answering.state.reminder is False


def test_the_stream_s_team_kinds_reach_the_ui_for_this_interaction_only() -> None:
    live = Live.__new__(Live)  # no thread: only the parsing
    live.events = queue.Queue()
    for kind, change in [("interaction.widened", {"mode": "block"}),
                         ("discussion.changed", {"change": "vote"}),
                         ("interaction.reminder", {}),
                         ("discussion.changed", {"change": "comment", "interaction_id": "other"}),
                         ("interaction.reminder", {"interaction_id": "other",
                                                   "reason": "discussion_idle"}),
                         ("interaction.reminder", {"interaction_id": "other", "reason": "unopened",
                                                   "title": "Pick\x1b[2J", "seconds_left": 90})]:
        live._take(kind, json.dumps({"interaction_id": "i-1", **change}), "i-1")
    taken = [live.events.get_nowait() for _ in range(live.events.qsize())]
    other = LiveEvent("reminder", change="unopened", other=("other", "Pick\x1b[2J"),
                      seconds_left=90)
    assert taken == [LiveEvent("team", change="widened"), LiveEvent("team", change="vote"),
                     LiveEvent("reminder"), other]  # another's team reminder is not ours
    line = waiting_reminder(other, translator("en"))
    assert line == "Another question still waits: Pick␛ (choice answer other)"  # no control
    last = waiting_reminder(LiveEvent("reminder", change="deadline", seconds_left=59),
                            translator("en"))
    assert last == "59 seconds left to answer."


class Interrupting(io.StringIO):
    """Stdin on which the owner presses Ctrl+C."""

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


def test_ctrl_c_at_the_plain_audience_prompt_cancels() -> None:
    answering = session(StandIn())
    answering.apply(Effect("widen_open"))
    out = io.StringIO()
    assert run_widen(answering.state, Interrupting(), out) is None
    assert out.getvalue().rstrip().endswith("Audience >")
