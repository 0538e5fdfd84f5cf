"""`/api/interactions/{id}/draft/files`: files a person attaches while answering
(docs/guides/attachments.md), kept with the draft until an answer sends them
(`core/attachments.py`).

`POST` takes one file as the raw body: its type in `Content-Type`, its name in `?name=`
(`curl --data-binary @shot.png -H 'Content-Type: image/png' '...?name=shot.png'`); the page
and the terminal post here. `GET` lists them, `DELETE .../{file_id}` takes one off. The token
or a signed-in page's cookie, like the draft; a page's writes are Origin-checked by
`security.guards.OriginCheck`. The bytes are fetched from `.../attachments/{file_id}`.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, delete, get, post
from litestar.params import FromPath, QueryParameter

from choice.contract import PortalInterface
from choice.contract.attachments import ANSWER_LIMITS
from choice.core.actors import Actor
from choice.web.api.openapi import errors
from choice.web.deps import Service
from choice.web.security.auth import Access
from choice.web.security.guards import BEARER, bearer_token_guard

FILE_BODY_MAX = ANSWER_LIMITS.each + 1
"""One file's bytes as the body: a byte more than allowed reaches the handler, which says
which limit it broke (a larger body gets the portal's 413)."""
FileName = Annotated[str, QueryParameter(name="name", min_length=1, max_length=200,
                                         description="The file's name, shown to the agent.")]
WhereFrom = Annotated[PortalInterface | None, QueryParameter(
    name="interface", description="`terminal` when `choice answer` attaches it (audited "
                                   "as `human:terminal`); default the API's.")]
Tab = Annotated[str | None, QueryParameter(name="tab", max_length=32,
                                           description="The writing page's id: it ignores "
                                                       "its own echo.")]


def actor_of(request: Request[Any, Any, Any], interface: PortalInterface | None) -> Actor:
    """Who attached it: the terminal (it says so), a signed-in page, or the token's API."""
    access: Access = request.auth
    if interface == "terminal":
        return Actor.owner("terminal")
    return Actor.owner("web") if access.session and not access.token else Actor.owner("api")


class AnswerFileController(Controller):
    path = "/api/interactions/{interaction_id:str}/draft/files"
    guards = [bearer_token_guard]  # noqa: RUF012 - Litestar reads it from the class
    security = BEARER
    tags = ["interactions"]  # noqa: RUF012

    @post("/", status_code=201, request_max_body_size=FILE_BODY_MAX,
          opt={"body_limit": "one file: at most 10 MiB"},
          operation_id="attachFile", responses=errors(404, 409, 413, 422))
    async def attach(self, interaction_id: FromPath[str], request: Request[Any, Any, Any],
                     service: Service, name: FileName, interface: WhereFrom = None,
                     tab: Tab = None) -> dict[str, Any]:
        """Attach one file (the raw body) to the answer being written: at most 5, 10 MiB
        each, PNG/JPEG/GIF/WebP images, text, JSON, PDF or archives. It goes with the
        answer, whichever interface sends it; 409 once the question is over."""
        mime_type = request.headers.get("content-type", "").split(";")[0].strip()
        sent = await service.answer_files.attach(
            interaction_id, name, mime_type or "application/octet-stream", await request.body(),
            actor_of(request, interface), tab)
        return sent.model_dump()

    @get("/", responses=errors(404))
    async def listed(self, interaction_id: FromPath[str], service: Service) -> dict[str, Any]:
        """The files attached so far, oldest first."""
        files = await service.answer_files.listed(interaction_id)
        return {"files": [file.model_dump() for file in files]}

    @delete("/{file_id:str}", responses=errors(404, 422))
    async def detach(self, interaction_id: FromPath[str], file_id: FromPath[str],
                     request: Request[Any, Any, Any], service: Service,
                     interface: WhereFrom = None, tab: Tab = None) -> None:
        """Take a file off before answering (a sent one stays with the answer)."""
        await service.answer_files.detach(interaction_id, file_id, actor_of(request, interface), tab)
