"""LangChain's human-in-the-loop decisions: a tool call reviewed by a human on a real portal
comes back as `{"type": "approve" | "edit" | "reject" | "respond", ...}`, field for field
as `HumanInTheLoopMiddleware` reads them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from choice.client import Client, Deferral, Result
from choice.client.langchain_hitl import (
    NoDecision,
    decision_from,
    hitl_response,
    review_tool_call,
    tool_call_request,
)
from choice.client.portal_client import PortalClient
from tests.client.human import Human, answers, question_id
from tests.portal_process import PortalProcess

ACTION = {"name": "send_email", "args": {"to": "ann@example.com", "subject": "Hi"},
          "description": "Tool execution requires approval"}


def reviewed(portal: PortalProcess, submission: dict[str, Any],
             allowed: list[str] | None = None, **action: Any) -> dict[str, Any]:
    """Ask about a tool call (its title made unique) while the human sends `submission`."""
    call = {**ACTION, **action}
    title = tool_call_request(call)["title"]
    human = Human(portal.client(), title, answers(submission))
    with Client(portal.base_url, portal.token, poll_seconds=5) as client:
        decision = review_tool_call(call, allowed or ["approve", "edit", "reject", "respond"],
                                    client=client)
    human.join()
    return decision


def test_approve(portal: PortalProcess) -> None:
    assert reviewed(portal, {"selected_ids": ["approve"]}, name="approve_me") == \
        {"type": "approve"}


def test_edit_carries_the_edited_action_with_the_humans_arguments(portal: PortalProcess) -> None:
    args = {"to": "bob@example.com", "subject": "Hello"}
    decision = reviewed(portal, {"selected_ids": ["edit"], "custom_input": json.dumps(args)},
                        name="edit_me")
    assert decision == {"type": "edit", "edited_action": {"name": "edit_me", "args": args}}


def test_reject_with_the_humans_reason(portal: PortalProcess) -> None:
    decision = reviewed(portal, {"selected_ids": ["reject"], "custom_input": "wrong person"},
                        name="reject_me")
    assert decision == {"type": "reject", "message": "wrong person"}


def test_respond_answers_for_the_tool(portal: PortalProcess) -> None:
    decision = reviewed(portal, {"selected_ids": ["respond"], "custom_input": "It is 3 pm."},
                        name="respond_me")
    assert decision == {"type": "respond", "message": "It is 3 pm."}


def test_only_the_allowed_decisions_are_offered(portal: PortalProcess) -> None:
    call = {**ACTION, "name": "offered"}
    offered: list[str] = []

    def look_then_approve(human: PortalClient, iid: str) -> None:
        offered.extend(o["id"] for o in human.detail(iid)["request"]["options"])
        human.respond(iid, {"selected_ids": ["approve"]})

    human = Human(portal.client(), tool_call_request(call)["title"], look_then_approve)
    with Client(portal.base_url, portal.token, poll_seconds=5) as client:
        decision = review_tool_call(call, ["approve", "reject"], client=client)
    human.join()
    assert offered == ["approve", "reject"] and decision == {"type": "approve"}


def test_a_whole_interrupt_gets_one_decision_per_action_in_order(portal: PortalProcess) -> None:
    first, second = {"name": "first_tool", "args": {}}, {"name": "second_tool", "args": {"n": 1}}
    interrupt = {"action_requests": [first, second],
                 "review_configs": [
                     {"action_name": "first_tool", "allowed_decisions": ["approve", "reject"]},
                     {"action_name": "second_tool", "allowed_decisions": ["respond"]}]}
    owner = portal.client()

    def answer_both(_: Any, iid: str) -> None:
        owner.respond(iid, {"selected_ids": ["reject"]})
        later = question_id(owner, tool_call_request(second)["title"])
        owner.respond(later, {"custom_input": "done already"})

    human = Human(owner, tool_call_request(first)["title"], answer_both)
    response = hitl_response(interrupt, base_url=portal.base_url, token=portal.token)
    human.join()
    assert response == {"decisions": [{"type": "reject"},
                                       {"type": "respond", "message": "done already"}]}


def result(**fields: Any) -> Result:
    base = {"interaction_id": "x", "action_status": "selected", "interface": "web",
            "created_at": "t", "completed_at": "t", "summary": "s", "status": "submitted"}
    return Result.model_validate({**base, **fields})


def test_an_edit_without_a_json_object_is_a_rejection_that_says_why() -> None:
    decision = decision_from(result(selected_ids=["edit"], custom_input="to bob"), ACTION)
    assert decision["type"] == "reject" and "to bob" in decision["message"]


def test_a_cancel_timeout_or_deferral_rejects_and_says_why() -> None:
    cancelled = decision_from(result(action_status="cancelled", status="cancelled",
                                     global_annotation="not today"), ACTION)
    assert cancelled == {"type": "reject",
                         "message": "The human cancelled the tool call: not today"}
    late = decision_from(result(action_status="timeout", status="timeout"), ACTION)
    assert late["type"] == "reject" and "in time" in late["message"]
    deferral = Deferral.model_validate({
        "interaction_id": "x", "session_id": "x", "status": "deferred",
        "action_status": "deferred", "schema_version": 1, "rationale": "budget",
        "deferred_at": None, "url": "u", "instructions": "i"})
    assert decision_from(deferral, ACTION) == {
        "type": "reject", "message": "The human deferred this decision: budget"}


def test_no_allowed_decision_for_a_cancel_raises_with_the_answer() -> None:
    cancelled = result(action_status="cancelled", status="cancelled")
    with pytest.raises(NoDecision) as raised:
        decision_from(cancelled, ACTION, ["approve", "edit"])
    assert raised.value.answer is cancelled


def test_unknown_decision_types_are_refused_before_asking() -> None:
    with pytest.raises(ValueError, match="approve, edit, reject, respond"):
        tool_call_request(ACTION, ["accept"])
