"""What the agent sees: the three tools, their descriptions and input schemas.

The schemas come from the contract models (`contract.ChoiceRequest`, the compatibility
shapes in `compat.py`), plus `session_id` to poll an interaction instead of creating one.
No `required` list: a poll needs only `session_id`, and the portal's own validation gives
better errors than a client-side schema check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from choice.compat import HitlRequest, RequestUserChoice, Shape
from choice.contract import ChoiceRequest
from choice.schemas import inline_schema

WHEN_TO_ASK = (
    "Call this instead of guessing whenever there are more than two viable paths, an action "
    "is destructive or hard to undo, or required configuration is missing. "
    "`prompt` must carry the task context and the reason you are asking: the human sees "
    "only what you write there. "
)
HOW_IT_WAITS = (
    "The call waits for the human for up to about a minute. If it returns status "
    "'pending', call the same tool again with only `session_id` to keep waiting: an answer "
    "given in between is kept. If the result is 'timeout' or 'cancelled', the human did not "
    "choose: do not ask the same question again in a loop."
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
            "(selected_ids, custom_input, notes, confirmation). " + WHEN_TO_ASK +
            "selection_mode: single, multi (min/max_selections), text_input, or hybrid "
            "(options plus free text). interface 'terminal' returns at once with a "
            "terminal_command for the human to run. " + HOW_IT_WAITS),
    ),
    ToolSpec(
        name="hitl_request", shape="hitl_request", title="Ask the human to pick and confirm",
        model=HitlRequest,
        description=(
            "Options-only question with an optional explicit confirm step (confirm: true). "
            "No free text: for a typed answer use provide_choice. " + WHEN_TO_ASK + HOW_IT_WAITS),
    ),
    ToolSpec(
        name="request_user_choice", shape="request_user_choice",
        title="Ask the human to choose (question + options)", model=RequestUserChoice,
        description=(
            "Question plus options, each {title, description, isRecommended}; the human may "
            "also answer in their own words. " + WHEN_TO_ASK + HOW_IT_WAITS),
    ),
)
TOOLS_BY_NAME = {tool.name: tool for tool in TOOLS}
