"""Team mode's page of the members for admins, `/settings/members` (linked from the settings
page for admins only): who has signed in, when they joined and last signed in, how many
live sessions and agent tokens each holds, and a button, behind a confirm, that ends one
member's access (every session, every token).

Its routes sit behind `security/member_admin.admin_only` (`app.py`): a member who is no
admin gets the 403 page. Its form posts with the admin's session (Origin-checked as every
write). With htmx a post answers the panel alone (`partials/_member_panel.html`) with what
was ended; without script it redirects back to the page. The calls are
`security/member_admin.MemberAdmin`'s, shared with `/api/members`.
"""

from __future__ import annotations

from typing import Any

from litestar import Response, get, post
from litestar.params import FromPath
from litestar.plugins.htmx import HTMXRequest
from litestar.response import Redirect

from choice.web.deps import Admins, QuestionLists, Service, WebAssets
from choice.web.pages.context import base_context
from choice.web.pages.html import Fragment
from choice.web.pages.routes import VARY_ON_HTMX, page
from choice.web.security.auth import Access
from choice.web.security.member_admin import MemberAdmin
from choice.web.views.browser_language import page_language


async def panel(admins: MemberAdmin, request: HTMXRequest, **extra: Any) -> dict[str, Any]:
    """What the panel shows: every member, which one is the admin looking, and what the
    last post ended (`ended`: {name, sessions, tokens})."""
    access: Access = request.auth
    return {"members": await admins.members(), "me": access.member_id, "ended": None, **extra}


async def answer(request: HTMXRequest, service: Service, assets: WebAssets,
                 lists: QuestionLists, shown: dict[str, Any]) -> Response[Any]:
    """The panel for an htmx post; the whole page otherwise."""
    if request.htmx:
        return Fragment(template_name="partials/_member_panel.html", headers=VARY_ON_HTMX,
                        context={**shown, "locale": page_language(service, request)})
    context = await base_context(request, service, assets, lists)
    context.update(shown, settings_page=True)
    return page("members.html", context, headers=VARY_ON_HTMX)


@get("/settings/members", include_in_schema=False)
async def members_page(request: HTMXRequest, service: Service, assets: WebAssets,
                       lists: QuestionLists, admins: Admins) -> Response[Any]:
    return await answer(request, service, assets, lists, await panel(admins, request))


@post("/settings/members/{member_id:str}/revoke", include_in_schema=False)
async def cut_off_from_page(request: HTMXRequest, service: Service, assets: WebAssets,
                            lists: QuestionLists, admins: Admins,
                            member_id: FromPath[str]) -> Response[Any]:
    """End one member's access (a member already gone changes nothing: the list shows what
    stands)."""
    named = {m.id: m.name for m in await admins.members()}
    cut = await admins.cut_off(member_id)
    if not request.htmx:
        return Redirect(path="/settings/members", status_code=303, headers=VARY_ON_HTMX)
    ended = None if cut is None else {"name": named.get(member_id, ""),
                                      "sessions": cut.sessions, "tokens": cut.tokens}
    return await answer(request, service, assets, lists,
                        await panel(admins, request, ended=ended))


MEMBER_PAGES = [members_page, cut_off_from_page]
