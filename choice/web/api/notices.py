"""What an agent's hooks tell the portal (through `choice hook`), bearer token only:

- `POST /api/agent-waiting` (its Notification hook): it waits for its person at its own
  prompt; every open page of the portal notifies (and chimes), as for a reminder. Nothing is
  stored: a page opened later hears nothing of it.
- `POST /api/agent-moved-on` (its PostToolUse, Stop, UserPromptSubmit and SessionEnd
  hooks): its own dialog was answered, or it went on; the questions that makes moot are
  withdrawn, and a later answer to them gets 409.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, post

from choice.contract.field_errors import parse_model
from choice.contract.notices import AgentMovedOn, AgentWaiting
from choice.web.api.body import json_body
from choice.web.api.openapi import BODY_ERRORS, body_of, errors
from choice.web.deps import Service
from choice.web.security.guards import BEARER, bearer_token_guard
from choice.web.security.ownership import member_of


@post("/api/agent-waiting", guards=[bearer_token_guard], security=BEARER, tags=["stream"],
      status_code=202, operation_class=body_of(AgentWaiting), responses=errors(*BODY_ERRORS))
async def agent_waiting(request: Request[Any, Any, Any], service: Service) -> dict[str, bool]:
    """Body `{"message": "...", "agent": "Claude Code", "project": "billing",
    "waiting_for": "input"}`; 202 once the open pages were told."""
    notice = parse_model(AgentWaiting, await json_body(request))
    service.agent_waiting(notice, member_of(request, service.settings.team_mode))
    return {"told": True}


@post("/api/agent-moved-on", guards=[bearer_token_guard], security=BEARER, tags=["stream"],
      status_code=200, operation_class=body_of(AgentMovedOn), responses=errors(*BODY_ERRORS))
async def agent_moved_on(request: Request[Any, Any, Any], service: Service) -> dict[str, list[str]]:
    """Body `{"conversation_id": "5f3c…", "event": "tool_done", "agent": "Claude Code",
    "tool": "Bash", "tool_call_id": "toolu_…", "tool_input_sha256": "…"}`; the ids of the
    questions withdrawn (often none)."""
    notice = parse_model(AgentMovedOn, await json_body(request))
    return {"withdrawn": await service.agent_moved_on(
        notice, member_of(request, service.settings.team_mode))}
