"""`GET /api/me` (team mode): the signed-in member, `{"email", "name", "admin"}`, for their
browser session or one of their agent tokens; 401 without either."""

from __future__ import annotations

from typing import Any

from litestar import Request, get
from litestar.exceptions import NotAuthorizedException
from msgspec import Struct

from choice.web.api.openapi import errors
from choice.web.deps import TeamSignInFlow
from choice.web.security.auth import Access
from choice.web.security.guards import BEARER


class Me(Struct, frozen=True):
    email: str
    name: str
    admin: bool


@get("/api/me", tags=["members"], security=BEARER, responses=errors(401))
async def me(request: Request[Any, Any, Any], team_sign_in: TeamSignInFlow) -> Me:
    """Who this browser is signed in as, or whose agent token this is."""
    access: Access = request.auth
    member = None if access.member_id is None else await team_sign_in.member(access.member_id)
    if member is None:
        raise NotAuthorizedException("not signed in: open the portal's /login to sign in "
                                     "with your identity provider.")
    return Me(email=member.email, name=member.name, admin=member.admin)
