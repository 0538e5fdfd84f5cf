"""Team mode's page of a member's personal agent tokens, `/settings/tokens` (linked from the
settings page): name and make one, see its secret once with a way to copy it, see the list
with when each was last used, revoke one.

Its forms post with the member's session (Origin-checked as every write). With htmx a post
answers the panel alone (`partials/_token_panel.html`); without script, making one answers
the whole page with the secret on it (a redirect would lose it: it is shown only once), and
revoking redirects back to the page. A refused name comes back as typed, with what to fix in
the person's words. The rules are `contract/member_tokens.py`'s and
`security/member_tokens.py`'s, shared with `POST /api/tokens`.
"""

from __future__ import annotations

from typing import Any

from litestar import Response, get, post
from litestar.params import FromPath
from litestar.plugins.htmx import HTMXRequest
from litestar.response import Redirect

from choice.contract import FieldError
from choice.contract.field_errors import InvalidInput, parse_model
from choice.contract.member_tokens import TOKEN_NAME_MAX, NewMemberToken
from choice.core.i18n import N_
from choice.web.deps import AgentTokens, QuestionLists, Service, WebAssets
from choice.web.pages.context import base_context
from choice.web.pages.forms import first, read_form
from choice.web.pages.html import Fragment
from choice.web.pages.routes import VARY_ON_HTMX, page
from choice.web.security.auth import Access, session_guard
from choice.web.security.member_tokens import MemberTokens, TooManyTokens
from choice.web.views.browser_language import page_language

NAME_PROBLEMS = {
    "missing": N_("Name the token: say what it is for, e.g. laptop claude code."),
    "too_short": N_("Name the token: say what it is for, e.g. laptop claude code."),
    "blank": N_("Name the token: say what it is for, e.g. laptop claude code."),
    "too_long": N_("The name is too long: keep it to {n} characters."),
    "invalid_characters": N_("The name may not hold line breaks or invisible formatting "
                             "characters: type it plainly."),
    "too_many_tokens": N_("You already hold {n} tokens, the most a member may: revoke one you "
                          "no longer use, then make this one."),
}
"""What a person reads for a refused name, by the error's code (`{n}`: the limit)."""


def member_of(request: HTMXRequest) -> str:
    access: Access = request.auth
    if access.member_id is None:  # pragma: no cover - session_guard lets in members only
        raise AssertionError("a team-mode page without a member")
    return access.member_id


async def panel(tokens: MemberTokens, member_id: str, **extra: Any) -> dict[str, Any]:
    """What the panel shows: the member's tokens, and a new secret or a problem."""
    return {"tokens": await tokens.of(member_id), "name_max": TOKEN_NAME_MAX,
            "new_token": None, "problem": None, "typed": "", **extra}


def problem_of(error: FieldError, limit: int) -> dict[str, Any]:
    message = NAME_PROBLEMS.get(error.code, NAME_PROBLEMS["invalid_characters"])
    return {"message": message, "n": limit if error.code == "too_many_tokens" else TOKEN_NAME_MAX}


async def answer(request: HTMXRequest, service: Service, assets: WebAssets,
                 lists: QuestionLists, shown: dict[str, Any], status: int = 200
                 ) -> Response[Any]:
    """The panel for an htmx post; the whole page otherwise."""
    if request.htmx:
        return Fragment(template_name="partials/_token_panel.html", status_code=status,
                        headers=VARY_ON_HTMX,
                        context={**shown, "locale": page_language(service, request)})
    context = await base_context(request, service, assets, lists)
    context.update(shown, settings_page=True)
    return page("tokens.html", context, status, headers=VARY_ON_HTMX)


@get("/settings/tokens", guards=[session_guard], include_in_schema=False)
async def tokens_page(request: HTMXRequest, service: Service, assets: WebAssets,
                      lists: QuestionLists, member_tokens: AgentTokens) -> Response[Any]:
    return await answer(request, service, assets, lists,
                        await panel(member_tokens, member_of(request)))


@post("/settings/tokens", guards=[session_guard], include_in_schema=False)
async def make_token_from_page(request: HTMXRequest, service: Service, assets: WebAssets,
                               lists: QuestionLists, member_tokens: AgentTokens
                               ) -> Response[Any]:
    """Form field `name`. The new secret is in this answer only."""
    member_id, typed = member_of(request), first(await read_form(request), "name")
    try:
        made = parse_model(NewMemberToken, {"name": typed})
        token, secret = await member_tokens.make(member_id, made.name)
    except InvalidInput as invalid:
        shown = await panel(member_tokens, member_id, typed=typed,
                            problem=problem_of(invalid.errors[0], member_tokens.limit))
        return await answer(request, service, assets, lists, shown, 422)
    except TooManyTokens:
        shown = await panel(member_tokens, member_id, typed=typed, problem=problem_of(
            FieldError(field="name", code="too_many_tokens", message=""), member_tokens.limit))
        return await answer(request, service, assets, lists, shown, 409)
    shown = await panel(member_tokens, member_id,
                        new_token={"id": token.id, "name": token.name, "secret": secret})
    return await answer(request, service, assets, lists, shown, 201 if request.htmx else 200)


@post("/settings/tokens/{token_id:str}/revoke", guards=[session_guard], include_in_schema=False)
async def revoke_token_from_page(request: HTMXRequest, service: Service, assets: WebAssets,
                                 lists: QuestionLists, member_tokens: AgentTokens,
                                 token_id: FromPath[str]) -> Response[Any]:
    """Revoke one of the member's tokens (another's, or one already gone, changes nothing:
    the list shows what stands)."""
    member_id = member_of(request)
    await member_tokens.revoke(member_id, token_id)
    if not request.htmx:
        return Redirect(path="/settings/tokens", status_code=303, headers=VARY_ON_HTMX)
    return await answer(request, service, assets, lists, await panel(member_tokens, member_id))


TOKEN_PAGES = [tokens_page, make_token_from_page, revoke_token_from_page]
