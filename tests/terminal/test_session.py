"""The session's decisions that a real terminal cannot time reliably, with a stand-in
client: an answer that landed before the live stream listened, a lost portal, a 409."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from choice.client.portal_client import PortalError, PortalUnreachable
from choice.contract import Submission
from choice.contract.clock import iso, now, parse_iso
from choice.contract.validation import validate_request
from choice.terminal.keys import Effect
from choice.terminal.live import LiveEvent
from choice.terminal.question import Question
from choice.terminal.session.session import Session

REQUEST = validate_request({
    "title": "Pick", "prompt": "Which?", "selection_mode": "hybrid",
    "options": [{"id": "a", "label": "Alpha"}, {"id": "b", "label": "Beta"}]}).request


class StandIn:
    """The few PortalClient calls a session makes, answering from `detail` or failing."""

    def __init__(self, status: str = "pending", result: dict[str, Any] | None = None,
                 failure: Exception | None = None) -> None:
        self.status, self.result, self.failure = status, result, failure
        self.expires_at = iso(now() + 7200)

    def detail(self, interaction_id: str) -> dict[str, Any]:
        return {"interaction_id": interaction_id, "status": self.status, "result": self.result,
                "expires_at": self.expires_at}

    def respond(self, interaction_id: str, submission: dict[str, Any], *,
                dry_run: bool = False) -> dict[str, Any]:
        self.checked = [*getattr(self, "checked", []), submission] if dry_run else []
        if self.failure is not None:
            raise self.failure
        return {**submission, "status": "pending", "stored": False}


def session(client: StandIn) -> Session:
    question = Question.from_detail({
        "interaction_id": "i-1", "request": REQUEST.model_dump(mode="json"),
        "created_at": iso(now()), "expires_at": iso(now() + 300), "status": "pending"})
    return Session(client, question, {})  # type: ignore[arg-type]


def test_an_answer_given_before_the_stream_listened_is_caught_up_on_connect() -> None:
    client = StandIn("submitted", {"action_status": "selected", "summary": 'Selected "Beta" (b).'})
    ending = session(client).follow(LiveEvent("connected"), SimpleNamespace())  # type: ignore[arg-type]
    assert ending is not None
    assert (ending.line, ending.code) == ('Already finished elsewhere: Selected "Beta" (b).', 0)


def test_a_deadline_moved_before_the_stream_listened_is_caught_up_on_connect() -> None:
    client = StandIn()
    screen = SimpleNamespace(expires_at=0.0)
    assert session(client).follow(LiveEvent("connected"), screen) is None  # type: ignore[arg-type]
    assert screen.expires_at == parse_iso(client.expires_at)


def test_a_lost_portal_keeps_the_ui_open_and_says_so() -> None:
    answering = session(StandIn(failure=PortalUnreachable("gone")))
    assert answering.apply(Effect("submit", Submission(selected_ids=["a"]))) is None
    assert answering.state.message.startswith("The portal does not answer")


def test_a_conflict_ends_with_the_winning_result_and_its_exit_code() -> None:
    body = {"errors": [], "interaction": {"status": "submitted"},
            "result": {"action_status": "custom_input", "summary": 'Typed answer: "x".'}}
    answering = session(StandIn(failure=PortalError(409, body)))
    ending = answering.apply(Effect("submit", Submission(selected_ids=["a"])))
    assert ending is not None
    assert (ending.line, ending.code) == ('Already finished elsewhere: Typed answer: "x".', 0)


def test_the_portal_s_dry_run_refusal_is_explained_and_nothing_is_sent() -> None:
    refusal = {"errors": [{"field": "selected_ids", "code": "too_many",
                           "message": "2 options selected but at most 1 are allowed: deselect some."}]}
    client = StandIn(failure=PortalError(422, refusal))
    answering = session(client)
    answering.state.picked = {"a", "b"}
    answering.state.submit()
    assert answering.state.effects == []
    assert answering.state.message == refusal["errors"][0]["message"]
    assert client.checked[0]["interface"] == "terminal"


def test_a_dry_run_that_finds_the_question_over_leaves_the_verdict_to_the_submit() -> None:
    client = StandIn(failure=PortalError(409, {"errors": []}))
    answering = session(client)
    answering.state.picked = {"a"}
    answering.state.submit()
    [effect] = answering.state.effects
    assert effect.kind == "submit" and effect.payload.selected_ids == ["a"]
