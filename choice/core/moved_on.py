"""Which open questions an agent's "moved on" notice makes moot (`POST /api/agent-moved-on`),
and the reason each is withdrawn with.

A question `choice hook` asked about a tool call carries the agent, its session
(`conversation_id`), the tool, the call's id when the agent sent one, and a hash of the
call's input. When the agent's own dialog was answered first, its later events say so: the
call ran (`tool_done`: that question only), the turn ended or the person typed a new prompt
(`turn_over`), the session ended (`session_over`: every question of the session). A
question without a `tool` (asked through MCP or the API) is never withdrawn this way: only
the hook's own questions stand in for the agent's dialog.

The agent runs these hooks in the background, so a notice may arrive after the agent asked
its next question (an instant model, a prompt typed at once): only questions asked before
the event (`seconds_ago`, counted on the portal's own clock) are moot.
"""

from __future__ import annotations

from collections.abc import Iterable

from choice.contract.notices import AgentMovedOn
from choice.store.records import Interaction

REASONS = {
    "tool_done": "answered in the agent's own dialog: the tool has run",
    "turn_over": "answered in the agent's own dialog: the agent has moved on",
    "session_over": "the agent's session has ended",
}
"""What the person reads on the withdrawn question (the agent's words, like any reason it
gives)."""


def moot(rows: Iterable[Interaction], notice: AgentMovedOn, now: float) -> list[Interaction]:
    """The rows among `rows` (open ones) that `notice`, received at `now`, makes moot."""
    before = now - notice.seconds_ago
    return [row for row in rows if row.created_at <= before and _is_moot(row, notice)]


def _is_moot(row: Interaction, notice: AgentMovedOn) -> bool:
    context = row.request_json.get("context")
    if not isinstance(context, dict) or not context.get("tool"):
        return False
    if context.get("conversation_id") != notice.conversation_id:
        return False
    if notice.agent and context.get("agent") != notice.agent:
        return False
    if notice.event != "tool_done":
        return True
    if notice.tool_call_id and context.get("tool_call_id"):
        return bool(context["tool_call_id"] == notice.tool_call_id)
    return bool(context["tool"] == notice.tool
                and context.get("tool_input_sha256") == notice.tool_input_sha256)
