"""What the agent sees: the three asking tools and `list_pending`, their descriptions and
input schemas.

The asking tools' schemas come from the contract models (`contract.ChoiceRequest`, the
compatibility shapes in `compat.py`), plus `session_id` to poll an interaction instead of
creating one. No `required` list: a poll needs only `session_id`, and the portal's own
validation gives better errors than a client-side schema check. `list_pending` is the
end-of-run pass: what is still open, each with the `session_id` to poll.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from choice.contract import NOTE_MAX, ChoiceRequest, Shape
from choice.contract.ask_user_question import AskUserQuestion
from choice.contract.compat import HitlRequest, RequestUserChoice
from choice.contract.schemas import inline_schema
from choice.decision.models import CandidateBody


def when_to_ask(context_goes_in: str) -> str:
    """When to call, and which of the tool's own fields carries the task context (each
    shape names it differently: `prompt`, `question`, each question's `question`)."""
    return (
        "Call this instead of guessing whenever there are more than two viable paths, an "
        "action is destructive or hard to undo, or required configuration is missing. "
        f"{context_goes_in} must carry the task context and the reason you are asking: the "
        "human sees only what you write there. ")


HOW_IT_WAITS = (
    "The call waits for the human for up to about a minute. If it returns status "
    "'pending', call the same tool again with only `session_id` to keep waiting: an answer "
    "given in between is kept. If the result is 'timeout' or 'cancelled', the human did not "
    "choose: do not ask the same question again in a loop. "
    "Status 'widened' is not an answer: the human asked teammates to discuss the question "
    "and decides afterwards. With mode 'continue' carry on with work that does not depend on "
    "the answer and poll later with `session_id`; with mode 'block' poll again now. Never ask "
    "a widened question again: before you finish, call list_pending and poll each open one. "
    "Status 'summary_requested': the owner asks you to summarise the team's discussion (it "
    "is in the reply): call submit_candidate at once, then poll again for the decision. "
    "Status 'deferred': the owner set the decision aside with a rationale; it is not an "
    "answer: carry on without it and do not ask again."
)
SESSION_ID = {
    "type": "string",
    "description": "Poll the interaction this id names (from an earlier 'pending' reply) "
                   "instead of asking a new question; leave every other field out.",
}


@dataclass(frozen=True)
class ToolSpec:
    name: str
    shape: Shape
    title: str
    description: str
    model: type[BaseModel]

    def input_schema(self) -> dict[str, Any]:
        schema = inline_schema(self.model)
        schema.pop("required", None)
        schema["properties"]["session_id"] = SESSION_ID
        return schema


TOOLS = (
    ToolSpec(
        name="provide_choice", shape="provide_choice", title="Ask the human to choose",
        model=ChoiceRequest,
        description=(
            "Ask the human a question with options and get back a typed result "
            "(selected_ids, custom_input, notes, confirmation). " + when_to_ask("`prompt`") +
            "selection_mode: single, multi (min/max_selections), text_input, or hybrid "
            "(options plus free text). For several related questions at once (1-10), send "
            "`questions` [{id, header, prompt, selection_mode, options, ...}] instead of "
            "prompt/selection_mode/options: one page, one answer, the result's `answers` "
            "keyed by question id. interface 'terminal' returns at once with a "
            "terminal_command for the human to run. " + HOW_IT_WAITS),
    ),
    ToolSpec(
        name="hitl_request", shape="hitl_request", title="Ask the human to pick and confirm",
        model=HitlRequest,
        description=(
            "Options-only question with an optional explicit confirm step (confirm: true). "
            "No free text: for a typed answer use provide_choice. "
            + when_to_ask("`question`") + HOW_IT_WAITS),
    ),
    ToolSpec(
        name="request_user_choice", shape="request_user_choice",
        title="Ask the human to choose (question + options)", model=RequestUserChoice,
        description=(
            "Question plus options, each {title, description, isRecommended}; the human may "
            "also answer in their own words. " + when_to_ask("`question`") + HOW_IT_WAITS),
    ),
    ToolSpec(
        name="ask_user_question", shape="ask_user_question",
        title="Ask the user questions (AskUserQuestion)", model=AskUserQuestion,
        description=(
            "Claude Code's AskUserQuestion, answered in the choice portal: 1-4 questions "
            "(up to 10), each {question, header (12 characters at most), options (2-4) of "
            "{label, description}, multiSelect}; mark the option you recommend by ending its "
            "label with ' (Recommended)'. The user may always answer 'Other' in their own "
            "words. The answers come back as each question's text -> the chosen label(s), "
            "persisted: answerable from a phone or another machine, never lost to a client "
            "timeout. " + when_to_ask("Each question's `question`") + HOW_IT_WAITS),
    ),
)
TOOLS_BY_NAME = {tool.name: tool for tool in TOOLS}

SUBMIT_CANDIDATE = "submit_candidate"
SUBMIT_CANDIDATE_TITLE = "Send the candidate summary of a team discussion"
SUBMIT_CANDIDATE_DESCRIPTION = (
    "Answer a reply with action_status 'summary_requested': the owner widened the question "
    "to teammates and asks you to summarise their discussion (the reply carries the "
    "question and the messages) and propose the answer. Send candidate_summary (where the "
    "discussion landed, who agreed on what), candidate_answer (the answer as the owner "
    "would give it; name the option label if they settled on one) and source_hint "
    "'discussion_extraction' ('manual' with an empty candidate_answer if the discussion "
    "settled nothing), within the reply's due_at. The owner accepts, edits or defers it; "
    "then poll the question's tool with only session_id for the final decision. An invalid "
    "candidate is refused with the field to fix: fix it and send it again."
)
SUBMIT_CANDIDATE_INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "session_id": {"type": "string",
                       "description": "The session_id of the summary_requested reply."},
        **{name: schema for name, schema in inline_schema(CandidateBody)["properties"].items()
           if name != "decision_id"},
    },
    "required": ["session_id", "candidate_summary", "candidate_answer"],
    "additionalProperties": False,
}

WITHDRAW = "withdraw_question"
WITHDRAW_TITLE = "Withdraw a question you no longer need"
WITHDRAW_DESCRIPTION = (
    "Take back a question you asked over MCP (pending, widened or deferred) once you no "
    "longer need the answer, e.g. you found it elsewhere: the person sees 'The agent no "
    "longer needs this: <reason>' at once and cannot answer it any more. Send its session_id "
    "and a short reason the person will read. A question already answered is not "
    "withdrawn: the reply "
    "is its standing result, which you should use. A question asked another way (the HTTP "
    "API, `choice ask`, a hook) is refused and left as it is."
)
WITHDRAW_INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "session_id": {"type": "string", "description": "The session_id of your question."},
        "reason": {"type": "string", "minLength": 1, "maxLength": NOTE_MAX,
                   "description": "Why it is no longer needed, for the person."}},
    "required": ["session_id", "reason"],
    "additionalProperties": False,
}

LIST_PENDING = "list_pending"
LIST_PENDING_TITLE = "List the questions still open"
LIST_PENDING_DESCRIPTION = (
    "The questions still waiting for the human (newest first, at most 100): 'pending' (not "
    "answered yet) and 'widened' (the human asked teammates and decides after their "
    "discussion), each with its session_id, title, status, mode, participants and deadline. "
    "Call it at the end of your run, then call provide_choice with only the session_id of "
    "each one you still need, to collect the final result: never ask those questions again. "
    "`status` narrows the list to 'pending' or 'widened' ('active', the default, is both), "
    "or lists the 'deferred' ones (set aside by the owner, with the rationale)."
)
LIST_PENDING_INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {"status": {
        "type": "string", "enum": ["active", "pending", "widened", "deferred"],
        "default": "active",
        "description": "'active' (pending and widened), 'pending', 'widened' or 'deferred'."}},
    "additionalProperties": False,
}
