"""`POST /api/login-links`: a one-time sign-in link for a browser (what `choice open`
prints or opens). Bearer token only: the link is as good as a session for 60 seconds."""

from __future__ import annotations

from typing import Any

from litestar import post
from litestar.datastructures import State
from litestar.params import JSONBody

from choice.web.auth import safe_next
from choice.web.deps import SignInCodes
from choice.web.security import bearer_token_guard
from choice.web.tabs import login_link


@post("/api/login-links", guards=[bearer_token_guard], tags=["login"], status_code=201)
async def create_login_link(state: State, codes: SignInCodes,
                            data: JSONBody[dict[str, Any] | None] = None) -> dict[str, str]:
    """Body `{"next": "/choice/<id>"}` (optional). The link expires in 60 s, single use."""
    target = safe_next(str((data or {}).get("next") or "/"))
    return {"url": login_link(state.settings, codes, target)}
