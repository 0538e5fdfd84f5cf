"""LangChain's human-in-the-loop middleware, as a compatibility shape: ask the human about
a tool call here and hand back a decision in LangChain's own shape.

`HumanInTheLoopMiddleware` interrupts with `{"action_requests": [{name, args,
description?}], "review_configs": [{action_name, allowed_decisions, args_schema?}]}` and
resumes with `{"decisions": [...]}`, each one of `{"type": "approve"}`, `{"type": "edit",
"edited_action": {"name", "args"}}`, `{"type": "reject", "message"?}`, `{"type":
"respond", "message"}`. This module reads and writes those plain dicts: it imports neither
langchain nor langgraph.

One question per tool call, `hybrid`: an option per allowed decision, and a text box for
the edited arguments (a JSON object), the reason of a rejection or the response. What
cannot be carried out safely becomes a rejection that says why (never an edit with
arguments the human did not write): edit chosen without a JSON object, a cancel, a timeout,
a deferral. Where `reject` is not allowed either, `NoDecision` is raised.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from choice.client.blocking import Client
from choice.client.replies import Answer, Deferral

DecisionType = Literal["approve", "edit", "reject", "respond"]
DECISIONS: tuple[DecisionType, ...] = ("approve", "edit", "reject", "respond")
LABELS: dict[DecisionType, tuple[str, str]] = {
    "approve": ("Approve", "Run the tool call as proposed."),
    "edit": ("Edit", "Run it with the arguments typed below (a JSON object)."),
    "reject": ("Reject", "Do not run it; the text below tells the agent why."),
    "respond": ("Respond instead", "Do not run it; the text below is the tool's answer."),
}


class NoDecision(Exception):
    """The human gave no decision the allowed ones can express (a cancel, a timeout or a
    deferral where `reject` is not allowed). `answer` is the `Result` or `Deferral`."""

    def __init__(self, message: str, answer: Answer) -> None:
        super().__init__(message)
        self.answer = answer


def tool_call_request(action: Mapping[str, Any],
                      allowed_decisions: Sequence[str] = DECISIONS) -> dict[str, Any]:
    """The question about one tool call (an `ActionRequest`: name, args, description?)."""
    allowed = _allowed(allowed_decisions)
    name = str(action["name"])
    args = json.dumps(action.get("args") or {}, indent=2, ensure_ascii=False, default=str)
    described = f"{action['description']}\n\n" if action.get("description") else ""
    return {
        "title": f"Allow the tool call {name}?"[:200],
        "prompt": f"{described}The agent wants to call `{name}` with:\n\n```json\n{args}\n```",
        "selection_mode": "hybrid",
        "options": [{"id": kind, "label": LABELS[kind][0], "description": LABELS[kind][1]}
                    for kind in allowed],
        "placeholder": _placeholder(allowed),
        "context": {"agent": "langchain", "tool_call_id": action.get("id")}
        if action.get("id") else {"agent": "langchain"},
    }


def decision_from(answer: Answer, action: Mapping[str, Any],
                  allowed_decisions: Sequence[str] = DECISIONS) -> dict[str, Any]:
    """LangChain's decision for the human's answer to `tool_call_request(action, ...)`."""
    allowed = _allowed(allowed_decisions)
    if isinstance(answer, Deferral):
        return _rejection(f"The human deferred this decision: {answer.rationale or '-'}",
                          allowed, answer)
    if answer.action_status in ("cancelled", "timeout"):
        why = "cancelled the tool call" if answer.action_status == "cancelled" \
            else "did not answer in time"
        note = f": {answer.global_annotation}" if answer.global_annotation else ""
        return _rejection(f"The human {why}{note}", allowed, answer)
    chosen = answer.selected_ids[0] if answer.selected_ids else None
    text = (answer.custom_input or (answer.option_annotations.get(chosen) if chosen else None)
            or answer.global_annotation)
    if chosen is None:  # only typed text: a response if allowed, else a reason to reject
        chosen = "respond" if "respond" in allowed else "reject"
    if chosen == "approve":
        return {"type": "approve"}
    if chosen == "edit":
        args = _json_object(text)
        if args is None:
            return _rejection("The human chose to edit the arguments but did not give them as "
                              f"a JSON object (they wrote: {text or '(nothing)'}); the tool "
                              "call was not run.", allowed, answer)
        return {"type": "edit", "edited_action": {"name": str(action["name"]), "args": args}}
    if chosen == "respond":
        return {"type": "respond", "message": text or ""}
    return {"type": "reject", **({"message": text} if text else {})}


def review_tool_call(action: Mapping[str, Any], allowed_decisions: Sequence[str] = DECISIONS,
                     *, client: Client | None = None, **client_options: Any) -> dict[str, Any]:
    """Ask the human about one tool call and return LangChain's decision dict."""
    owned = client is None
    client = client or Client(**client_options)
    try:
        answer = client.ask(tool_call_request(action, allowed_decisions))
    finally:
        if owned:
            client.close()
    return decision_from(answer, action, allowed_decisions)


def hitl_response(hitl_request: Mapping[str, Any], *, client: Client | None = None,
                  **client_options: Any) -> dict[str, Any]:
    """The resume value for a `HumanInTheLoopMiddleware` interrupt: one decision per
    action request, in order (`Command(resume=hitl_response(interrupt.value))`)."""
    configs = {c["action_name"]: c.get("allowed_decisions", DECISIONS)
               for c in hitl_request.get("review_configs", [])}
    owned = client is None
    client = client or Client(**client_options)
    try:
        return {"decisions": [
            review_tool_call(action, configs.get(action["name"], DECISIONS), client=client)
            for action in hitl_request["action_requests"]]}
    finally:
        if owned:
            client.close()


def _allowed(allowed_decisions: Sequence[str]) -> list[DecisionType]:
    allowed = [kind for kind in DECISIONS if kind in allowed_decisions]
    unknown = sorted(set(allowed_decisions) - set(DECISIONS))
    if unknown or not allowed:
        raise ValueError(f"allowed_decisions {list(allowed_decisions)}: use some of "
                         f"{', '.join(DECISIONS)}")
    return allowed


def _placeholder(allowed: list[DecisionType]) -> str:
    parts = {"edit": "Edit: the new arguments as JSON", "reject": "Reject: why (optional)",
             "respond": "Respond: the answer to give the agent"}
    return " · ".join(parts[kind] for kind in allowed if kind in parts) or "A note (optional)"


def _json_object(text: str | None) -> dict[str, Any] | None:
    try:
        value = json.loads(text or "")
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _rejection(message: str, allowed: list[DecisionType], answer: Answer) -> dict[str, Any]:
    if "reject" not in allowed:
        raise NoDecision(f"{message}; and reject is not an allowed decision here", answer)
    return {"type": "reject", "message": message}
