"""`POST /api/agent-waiting`: an agent (through `choice hook`, from its Notification hook)
says it waits for its person at its own prompt; every open page of the portal notifies
(and chimes), as for a reminder. Bearer token only. Nothing is stored: a page opened later
hears nothing of it.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, post

from choice.contract.field_errors import parse_model
from choice.contract.notices import AgentWaiting
from choice.web.api.body import json_body
from choice.web.api.openapi import BODY_ERRORS, body_of, errors
from choice.web.deps import Service
from choice.web.security.guards import BEARER, bearer_token_guard


@post("/api/agent-waiting", guards=[bearer_token_guard], security=BEARER, tags=["stream"],
      status_code=202, operation_class=body_of(AgentWaiting), responses=errors(*BODY_ERRORS))
async def agent_waiting(request: Request[Any, Any, Any], service: Service) -> dict[str, bool]:
    """Body `{"message": "...", "agent": "Claude Code", "project": "billing",
    "waiting_for": "input"}`; 202 once the open pages were told."""
    notice = parse_model(AgentWaiting, await json_body(request))
    service.agent_waiting(notice.model_dump())
    return {"told": True}
