"""`/api/tokens` (team mode): a member's personal agent tokens. `POST` makes one and shows
its secret this once; `GET` lists the caller's live tokens, never a secret; `DELETE
/api/tokens/{id}` revokes one of the caller's at once (another member's id, or an unknown
one, is the same 404). Taken by the member's browser session (its writes Origin-checked, as
every write) or by one of their tokens; revoking a token ends no session.

Thin: parse, call `security/member_tokens.MemberTokens`, shape the reply.
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, Response, delete, get, post
from litestar.params import FromPath, JSONBody
from msgspec import Struct

from choice.contract.clock import iso
from choice.contract.member_tokens import NewMemberToken
from choice.store.member_tokens import MemberToken
from choice.web.api.body import check_json_data
from choice.web.api.openapi import BODY_ERRORS, ErrorBody, described, errors
from choice.web.deps import AgentTokens
from choice.web.errors import error_response
from choice.web.security.auth import Access
from choice.web.security.guards import BEARER, TEAM_TOKEN_MESSAGE, bearer_token_guard
from choice.web.security.member_tokens import TooManyTokens


class TokenListing(Struct, frozen=True):
    id: str
    name: str
    created_at: str
    last_used_at: str | None
    """Noted at most every five minutes; null until first used."""


class CreatedToken(Struct, frozen=True):
    id: str
    name: str
    token: str
    """The secret, shown this once: send it as `Authorization: Bearer <token>`."""
    created_at: str


class TokenList(Struct, frozen=True):
    tokens: list[TokenListing]


def listing(token: MemberToken) -> TokenListing:
    return TokenListing(id=token.id, name=token.name, created_at=iso(token.created_at),
                        last_used_at=None if token.last_used_at is None
                        else iso(token.last_used_at))


def member_of(request: Request[Any, Any, Any]) -> str:
    """The caller's member: the guard let in only a member's token or session."""
    access: Access = request.auth
    if access.member_id is None:  # pragma: no cover - bearer_token_guard stops it first
        raise AssertionError(TEAM_TOKEN_MESSAGE)
    return access.member_id


class NotYours(Exception):
    """No token of the caller's has this id: another member's, or none at all."""

    def __init__(self, token_id: str) -> None:
        super().__init__(token_id)
        self.token_id = token_id


def not_yours(_: Request[Any, Any, Any], exc: NotYours) -> Response[Any]:
    """The same 404 for another member's token and for none at all."""
    return error_response(404, [{
        "field": "token_id", "code": "not_found",
        "message": f"you have no token with id {exc.token_id[:64]!r}: list yours with "
                   "GET /api/tokens.",
    }])


class TokenController(Controller):
    path = "/api/tokens"
    guards = [bearer_token_guard]  # noqa: RUF012 - Litestar reads it from the class
    security = BEARER
    tags = ["tokens"]  # noqa: RUF012
    exception_handlers = {NotYours: not_yours}  # noqa: RUF012

    @post("/", status_code=201, before_request=check_json_data,
          responses={409: described(ErrorBody, "You hold the most live tokens a member may "
                                               "(50): revoke one you no longer use."),
                     **errors(*BODY_ERRORS)})
    async def make(self, request: Request[Any, Any, Any], data: JSONBody[NewMemberToken],
                   member_tokens: AgentTokens) -> Response[Any]:
        """A new token for one of your agents. The reply's `token` is the secret, shown
        this once: the portal keeps only its hash."""
        try:
            made, secret = await member_tokens.make(member_of(request), data.name)
        except TooManyTokens:
            return error_response(409, [{
                "field": "name", "code": "too_many_tokens",
                "message": f"you already hold {member_tokens.limit} tokens, the most a member "
                           "may: revoke one you no longer use (DELETE /api/tokens/{id}), then "
                           "make this one.",
            }])
        return Response(CreatedToken(id=made.id, name=made.name, token=secret,
                                     created_at=iso(made.created_at)), status_code=201)

    @get("/", responses=errors())
    async def list_mine(self, request: Request[Any, Any, Any],
                        member_tokens: AgentTokens) -> TokenList:
        """Your live tokens, oldest first, with when each was last used; never a secret."""
        return TokenList(tokens=[listing(t) for t in await member_tokens.of(member_of(request))])

    @delete("/{token_id:str}", status_code=204,
            responses={404: described(ErrorBody, "You have no token with that id (another "
                                                 "member's is no different)."),
                       **errors()})
    async def revoke(self, request: Request[Any, Any, Any], token_id: FromPath[str],
                     member_tokens: AgentTokens) -> Response[None]:
        """Revoke one of your tokens: every request with it is refused (401) from now on, on
        every instance. Your browser sessions stay signed in."""
        if not await member_tokens.revoke(member_of(request), token_id):
            raise NotYours(token_id)
        return Response(None, status_code=204)
