"""`POST /api/agent-waiting`: an agent says it waits for its person outside the portal (its own
terminal prompt: Claude Code's `idle_prompt` and `permission_prompt` notifications, sent by
`choice hook`). Nothing is asked or stored; the portal's open pages notify, as they do for a
reminder.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from choice.contract.vocabulary import CONTEXT_VALUE_MAX, Strict

NOTICE_MAX = 500
WaitingFor = Literal["input", "permission", "other"]


class AgentWaiting(Strict):
    """Which agent waits, in which project, and what it says (shown as it is, escaped)."""

    message: str = Field(min_length=1, max_length=NOTICE_MAX,
                         description="What the agent says, e.g. 'Claude is waiting for your input'.")
    agent: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    project: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    waiting_for: WaitingFor = Field(
        default="other", description="input (idle at its prompt), permission (its own "
                                     "permission dialog is open) or other.")
