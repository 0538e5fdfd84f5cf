"""What an agent's hooks tell the portal beside a question (`choice hook` sends both):

- `POST /api/agent-waiting`: the agent waits for its person outside the portal (its own
  terminal prompt: Claude Code's `idle_prompt` and `permission_prompt` notifications).
  Nothing is asked or stored; the portal's open pages notify, as they do for a reminder.
- `POST /api/agent-moved-on`: the agent went on without the portal (its own dialog was
  answered, its turn ended, its session ended): the questions its hook asked about that
  call, or in that session, are withdrawn with the true reason.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from choice.contract.vocabulary import CONTEXT_VALUE_MAX, Strict

NOTICE_MAX = 500
WaitingFor = Literal["input", "permission", "other"]
MovedOnEvent = Literal["tool_done", "turn_over", "session_over"]


class AgentWaiting(Strict):
    """Which agent waits, in which project, and what it says (shown as it is, escaped)."""

    message: str = Field(min_length=1, max_length=NOTICE_MAX,
                         description="What the agent says, e.g. 'Claude is waiting for your input'.")
    agent: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    project: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    waiting_for: WaitingFor = Field(
        default="other", description="input (idle at its prompt), permission (its own "
                                     "permission dialog is open) or other.")


class AgentMovedOn(Strict):
    """Which call or session went on without the portal. `tool_done`: that one call ran
    (matched by `tool_call_id`, else by `tool` and `tool_input_sha256`); `turn_over` and
    `session_over`: every question of the session is moot."""

    conversation_id: str = Field(min_length=1, max_length=CONTEXT_VALUE_MAX,
                                 description="The agent's session, as its questions carry it.")
    event: MovedOnEvent = Field(description="tool_done (a tool call ran), turn_over (the turn "
                                            "ended or a new prompt came) or session_over.")
    agent: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    tool: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    tool_call_id: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    tool_input_sha256: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    seconds_ago: float = Field(
        default=0, ge=0, le=3600,
        description="How long ago the agent went on (the hook may run in the background): "
                    "only questions asked before then are withdrawn, never the next call's.")
