"""`/api/members` (team mode, admins only): `GET` lists every member with when they joined
and last signed in and how many live sessions and agent tokens they hold (never a session
id or a token's secret); `POST /api/members/{id}/revoke` ends every session of one member
and revokes every token of theirs, refused from then on by every instance. The admin's
signed-in browser session only (`security/member_admin.admin_only`): a member gets 403, and
so does an agent token, even an admin's. An admin opens no other member's question here.

Thin: call `security/member_admin.MemberAdmin`, shape the reply.
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, Response, get, post
from litestar.params import FromPath
from msgspec import Struct

from choice.contract.clock import iso
from choice.store.members import MemberListing
from choice.web.api.openapi import ErrorBody, described, errors
from choice.web.deps import Admins
from choice.web.errors import error_response
from choice.web.security.guards import BEARER, bearer_token_guard
from choice.web.security.member_admin import admin_only

FORBIDDEN = described(ErrorBody, "Not an admin, or an agent token: admin acts take an "
                                 "admin's signed-in browser session.")


class MemberRow(Struct, frozen=True):
    id: str
    email: str
    name: str
    admin: bool
    """As of their latest sign-in."""
    created_at: str
    last_sign_in_at: str
    sessions: int
    """Live browser sessions."""
    tokens: int
    """Live agent tokens."""


class MemberList(Struct, frozen=True):
    members: list[MemberRow]


class CutOffReply(Struct, frozen=True):
    """What was taken away: every session and every token the member held."""

    sessions_ended: int
    tokens_revoked: int


def row(member: MemberListing) -> MemberRow:
    return MemberRow(id=member.id, email=member.email, name=member.name, admin=member.admin,
                     created_at=iso(member.created_at),
                     last_sign_in_at=iso(member.last_sign_in_at),
                     sessions=member.sessions, tokens=member.tokens)


class NoSuchMember(Exception):
    def __init__(self, member_id: str) -> None:
        super().__init__(member_id)
        self.member_id = member_id


def no_such_member(_: Request[Any, Any, Any], exc: NoSuchMember) -> Response[Any]:
    return error_response(404, [{
        "field": "member_id", "code": "not_found",
        "message": f"no member with id {exc.member_id[:64]!r}: list them with GET /api/members.",
    }])


class MemberController(Controller):
    path = "/api/members"
    guards = [bearer_token_guard, admin_only]  # noqa: RUF012 - Litestar reads it from the class
    security = BEARER
    tags = ["members"]  # noqa: RUF012
    exception_handlers = {NoSuchMember: no_such_member}  # noqa: RUF012

    @get("/", responses={403: FORBIDDEN, **errors()})
    async def list_members(self, admins: Admins) -> MemberList:
        """Every member, by email, with their live sessions and tokens counted."""
        return MemberList(members=[row(m) for m in await admins.members()])

    @post("/{member_id:str}/revoke", status_code=200,
          responses={403: FORBIDDEN,
                     404: described(ErrorBody, "No member with that id."), **errors()})
    async def revoke(self, member_id: FromPath[str], admins: Admins) -> CutOffReply:
        """End every browser session of this member and revoke every agent token of theirs:
        each is refused (401) from now on, on every instance. The member stays, and so do
        their questions: they may sign in again if the provider still lets them (take them
        out of the provider, or of the allowed domains, to keep them out)."""
        cut = await admins.cut_off(member_id)
        if cut is None:
            raise NoSuchMember(member_id)
        return CutOffReply(sessions_ended=cut.sessions, tokens_revoked=cut.tokens)
