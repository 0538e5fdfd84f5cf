"""What a coding agent's hook sends on stdin, read without trusting it: which agent (Claude
Code or Codex: a Codex payload carries `turn_id`), which event, which tool and its input,
the session and the working directory, and Claude Code's `permission_suggestions` (the rule
"Always allow" would add). Three kinds of payload: a `PermissionRequest` (a `HookPayload`:
ask the person), a `Notification` that the agent waits at its prompt (`WaitingNotice`), and
an event saying the agent went on without the portal (`MovedOn`: a tool ran, a turn ended,
the person typed a new prompt, the session ended). Anything else is a `BadPayload` whose
message says what is wrong. Plain dicts: `choice hook` runs before every prompt and must
start fast.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

AGENTS = ("claude", "codex")
AGENT_NAMES = {"claude": "Claude Code", "codex": "Codex"}
PERMISSION_REQUEST = "PermissionRequest"
NOTIFICATION = "Notification"
WAITING_FOR = {"idle_prompt": "input", "permission_prompt": "permission"}
"""Claude Code's `notification_type`s that mean its person is wanted at its terminal."""
MOVED_ON = {"PostToolUse": "tool_done", "UserPromptSubmit": "turn_over", "Stop": "turn_over",
            "SessionEnd": "session_over"}
"""The events (Claude Code's and Codex's names) after which a question the hook asked about
the same call (`tool_done`) or the same session (the others) is moot: the agent's own
dialog was answered, or the agent went on without it."""
PORTAL_MCP_SERVERS = ("choice", "choice-http")
"""The names `choice mcp-config` gives the portal's own MCP server: its tools
(`mcp__choice__provide_choice`, …) are allowed at once, never asked about (the call is
itself a question to the portal)."""

SHELL_TOOLS = frozenset({"Bash", "NetworkAccess"})
"""Claude Code's Bash and Codex's shell, exec and network approvals (`tool_input.command`)."""
EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
PLAN_TOOL = "ExitPlanMode"
QUESTIONS_TOOL = "AskUserQuestion"


class BadPayload(ValueError):
    """The payload is not one `choice hook` answers; the message says which field and why."""


@dataclass(frozen=True)
class WaitingNotice:
    """A Notification hook's payload: the agent waits for its person at its own prompt."""

    agent: str
    message: str
    waiting_for: str
    """input or permission (`WAITING_FOR`)."""
    cwd: str = ""

    @property
    def agent_name(self) -> str:
        return AGENT_NAMES[self.agent]


@dataclass(frozen=True)
class HookPayload:
    agent: str
    """`claude` or `codex`."""
    tool: str
    tool_input: dict[str, Any]
    session_id: str = ""
    cwd: str = ""
    suggestions: list[dict[str, Any]] = field(default_factory=list)
    """Claude Code's `permission_suggestions`: sent back whole as `updatedPermissions` when
    the person picks "Always allow this"."""
    tool_use_id: str = ""
    """The agent's id of this tool call, when it sends one: a later `PostToolUse` of the
    same call is matched by it (else by the tool and a hash of its input)."""

    @property
    def kind(self) -> str:
        """shell, edit, plan, questions or other: how the question shows the request."""
        if self.tool in SHELL_TOOLS:
            return "shell"
        if self.tool in EDIT_TOOLS:
            return "edit"
        return {PLAN_TOOL: "plan", QUESTIONS_TOOL: "questions"}.get(self.tool, "other")

    @property
    def agent_name(self) -> str:
        return AGENT_NAMES[self.agent]

    @property
    def input_sha256(self) -> str:
        return input_sha256(self.tool_input)

    @property
    def asks_the_portal(self) -> bool:
        """A call of the portal's own MCP tools: a question already, allowed at once."""
        return any(self.tool.startswith(f"mcp__{server}__") for server in PORTAL_MCP_SERVERS)


@dataclass(frozen=True)
class MovedOn:
    """The agent went on without the portal (`MOVED_ON`): the questions its hook asked about
    this call, or in this session, are withdrawn."""

    agent: str
    event: str
    """tool_done, turn_over or session_over."""
    session_id: str
    tool: str = ""
    tool_input: dict[str, Any] = field(default_factory=dict)
    tool_use_id: str = ""

    @property
    def agent_name(self) -> str:
        return AGENT_NAMES[self.agent]


def input_sha256(tool_input: dict[str, Any]) -> str:
    """A tool call's input as the audit trail keeps it, and as a later event finds its
    question by: SHA-256 of its canonical JSON."""
    return hashlib.sha256(json.dumps(tool_input, sort_keys=True, ensure_ascii=False)
                          .encode()).hexdigest()


def read_payload(text: str, agent: str | None = None) -> HookPayload | WaitingNotice | MovedOn:
    """The payload in `text` (the hook's stdin), for `agent` (detected when None)."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise BadPayload(f"stdin is not JSON ({error}): run `choice hook` as the agent's "
                         "PermissionRequest hook, which sends one JSON object") from None
    if not isinstance(data, dict):
        raise BadPayload("stdin holds JSON but not an object: the agent sends one object")
    if agent is not None and agent not in AGENTS:
        raise BadPayload(f"agent {agent!r}: say claude or codex, or nothing to detect it")
    agent = agent or ("codex" if "turn_id" in data else "claude")
    event = data.get("hook_event_name")
    if event == NOTIFICATION:
        return _notice(data, agent)
    if event in MOVED_ON:
        return _moved_on(data, agent, MOVED_ON[str(event)])
    if event != PERMISSION_REQUEST:
        raise BadPayload(f"hook_event_name {event!r}: `choice hook` answers "
                         f"{PERMISSION_REQUEST}, {NOTIFICATION} and {', '.join(MOVED_ON)}; "
                         "point only those at it (`choice hook-config` prints them)")
    tool, tool_input = data.get("tool_name"), data.get("tool_input")
    if not isinstance(tool, str) or not tool.strip():
        raise BadPayload("tool_name: missing or not text")
    if not isinstance(tool_input, dict):
        raise BadPayload(f"tool_input of {tool}: missing or not an object")
    suggestions = data.get("permission_suggestions")
    return HookPayload(
        agent=agent, tool=tool.strip(), tool_input=tool_input,
        session_id=str(data.get("session_id") or ""), cwd=str(data.get("cwd") or ""),
        suggestions=[s for s in suggestions if isinstance(s, dict)]
        if isinstance(suggestions, list) and agent == "claude" else [],
        tool_use_id=_text(data.get("tool_use_id")))


def _moved_on(data: dict[str, Any], agent: str, event: str) -> MovedOn:
    session = str(data.get("session_id") or "")
    if not session.strip():
        raise BadPayload(f"session_id of {data.get('hook_event_name')}: missing or not text")
    tool_input = data.get("tool_input")
    return MovedOn(agent=agent, event=event, session_id=session,
                   tool=_text(data.get("tool_name")),
                   tool_input=tool_input if isinstance(tool_input, dict) else {},
                   tool_use_id=_text(data.get("tool_use_id")))


def _text(value: Any) -> str:
    return value.strip()[:200] if isinstance(value, str) else ""


def _notice(data: dict[str, Any], agent: str) -> WaitingNotice:
    kind = data.get("notification_type")
    if kind not in WAITING_FOR:
        raise BadPayload(f"notification_type {kind!r}: `choice hook` passes on "
                         f"{' and '.join(WAITING_FOR)} only (use them as the hook's matcher)")
    message = str(data.get("message") or "").strip()
    return WaitingNotice(agent=agent, message=message[:500], waiting_for=WAITING_FOR[kind],
                         cwd=str(data.get("cwd") or ""))
