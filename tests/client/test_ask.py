"""`choice.client.ask` against a real portal process: the human answers over HTTP on
another thread, and the caller gets the typed result (or the deferral, or a clear error)."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest

from choice.client import (
    Client,
    Deferral,
    InvalidRequest,
    PortalNotRunning,
    Result,
    Widening,
    ask,
)
from choice.client.portal_client import PortalClient
from choice.contract import ChoiceRequest, Option, Outcome
from tests.client.human import Human, answers
from tests.portal_process import PortalProcess, free_port

BOUND = 20.0


def question(**extra: Any) -> dict[str, Any]:
    return {"title": f"Which database? {uuid.uuid4().hex[:8]}", "prompt": "For the cache.",
            "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}],
            **extra}


def test_ask_returns_the_humans_answer_as_the_contracts_outcome(portal: PortalProcess) -> None:
    asked = question()
    human = Human(portal.client(), asked["title"], answers({"selected_ids": ["pg"]}))
    result = ask(asked, base_url=portal.base_url, token=portal.token, poll_seconds=5)
    human.join()
    assert isinstance(result, Result) and isinstance(result, Outcome)
    assert result.status == "submitted" and result.action_status == "selected"
    assert result.selected_ids == ["pg"] and result.selected_labels == ["PostgreSQL"]
    assert result.interaction_id == human.interaction_id


def test_several_questions_come_back_typed_by_question_id(portal: PortalProcess) -> None:
    title = f"Several {uuid.uuid4().hex[:8]}"
    questions = [{"id": "db", "header": "Database", "prompt": "Which?",
                  "options": [{"id": "pg", "label": "PostgreSQL"}]},
                 {"id": "why", "prompt": "Why?", "selection_mode": "text_input"}]
    human = Human(portal.client(), title, answers({"answers": {
        "db": {"selected_ids": ["pg"]}, "why": {"custom_input": "we know it"}}}))
    result = ask(title=title, questions=questions, base_url=portal.base_url,
                 token=portal.token)
    human.join()
    assert isinstance(result, Result) and result.answers is not None
    assert result.answers["db"].selected_labels == ["PostgreSQL"]
    assert result.answers["why"].custom_input == "we know it"


def test_keyword_fields_and_contract_models_are_requests_too(portal: PortalProcess) -> None:
    title = f"Keyword fields {uuid.uuid4().hex[:8]}"
    model = ChoiceRequest(title="replaced", prompt="p", options=[Option(id="a", label="A")])
    human = Human(portal.client(), title, answers({"selected_ids": ["a"]}))
    result = ask(model, title=title, base_url=portal.base_url, token=portal.token)
    human.join()
    assert isinstance(result, Result) and result.selected_labels == ["A"]


class CountingClient(Client):
    """Tells the test each time a poll window ended with the question still open."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.polls = 0
        self.second_poll = threading.Event()

    def _poll(self, interaction_id: str) -> dict[str, Any]:
        self.polls += 1
        if self.polls >= 2:
            self.second_poll.set()
        return super()._poll(interaction_id)


def test_ask_polls_through_many_short_windows(portal: PortalProcess) -> None:
    asked = question()
    client = CountingClient(portal.base_url, portal.token, poll_seconds=1)

    def answer_after_two_windows(human: PortalClient, iid: str) -> None:
        assert client.second_poll.wait(BOUND)  # the first windows ended without an answer
        human.respond(iid, {"selected_ids": ["lite"]})

    human = Human(portal.client(), asked["title"], answer_after_two_windows)
    with client:
        result = client.ask(asked)
    human.join()
    assert isinstance(result, Result) and result.selected_ids == ["lite"]
    assert client.polls >= 2


def test_a_widened_question_keeps_waiting_for_the_owners_decision(portal: PortalProcess) -> None:
    asked = question()
    heard: list[Widening] = []
    widened = threading.Event()

    def on_widened(reply: Widening) -> None:
        heard.append(reply)
        widened.set()

    def widen_then_decide(human: PortalClient, iid: str) -> None:
        human.widen(iid, ["Alice", "Bob"], "continue")
        assert widened.wait(BOUND)  # the caller heard it and is still waiting
        human.respond(iid, {"selected_ids": ["pg"]})

    human = Human(portal.client(), asked["title"], widen_then_decide)
    result = ask(asked, base_url=portal.base_url, token=portal.token, poll_seconds=2,
                 on_widened=on_widened)
    human.join()
    assert isinstance(result, Result) and result.selected_ids == ["pg"]
    assert len(heard) == 1 and heard[0].participants == ["Alice", "Bob"]
    assert result.participants == ["Alice", "Bob"]


def test_a_deferral_is_returned_as_a_value_and_the_decision_collected_later(
        portal: PortalProcess) -> None:
    asked = question()
    human = Human(portal.client(), asked["title"],
                  lambda h, iid: h.defer(iid, "waiting for the budget"))
    with Client(portal.base_url, portal.token, poll_seconds=5) as client:
        deferred = client.ask(asked)
        human.join()
        assert isinstance(deferred, Deferral)
        assert deferred.status == "deferred" and deferred.rationale == "waiting for the budget"
        owner = portal.client()
        owner.resume(deferred.interaction_id)
        owner.respond(deferred.interaction_id, {"selected_ids": ["lite"]})
        result = client.collect(deferred.interaction_id)
    assert isinstance(result, Result) and result.selected_ids == ["lite"]


def test_an_invalid_request_raises_with_its_field_errors(portal: PortalProcess) -> None:
    asked = question(options=[{"id": "a", "label": "A"}, {"id": "a", "label": "again"}])
    with pytest.raises(InvalidRequest) as raised:
        ask(asked, base_url=portal.base_url, token=portal.token)
    assert raised.value.status == 422
    assert "options[1].id" in raised.value.fields
    assert "options[1].id" in str(raised.value)
    titles = [row["title"] for row in portal.client().list("all", 100)["interactions"]]
    assert asked["title"] not in titles  # no human saw it


def test_no_portal_says_how_to_start_one() -> None:
    with pytest.raises(PortalNotRunning) as raised:
        ask(question(), base_url=f"http://127.0.0.1:{free_port()}", token="t")
    assert "choice serve" in str(raised.value) and "start_portal=True" in str(raised.value)


def test_the_address_and_token_come_from_the_environment(
        portal: PortalProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHOICE_PORT", str(portal.port))
    monkeypatch.setenv("CHOICE_HOST", "127.0.0.1")
    monkeypatch.setenv("CHOICE_DATA_DIR", str(portal.data_dir))
    asked = question()
    human = Human(portal.client(), asked["title"], answers({"selected_ids": ["pg"]}))
    result = ask(**asked)
    human.join()
    assert isinstance(result, Result) and result.selected_ids == ["pg"]


def test_a_cancel_is_a_result_not_an_exception(portal: PortalProcess) -> None:
    asked = question()
    human = Human(portal.client(), asked["title"], lambda h, iid: h.cancel(iid, "not now"))
    result = ask(asked, base_url=portal.base_url, token=portal.token)
    human.join()
    assert isinstance(result, Result)
    assert result.action_status == "cancelled" and result.global_annotation == "not now"
