"""`GET/PUT/DELETE /api/interactions/{id}/draft`: what was typed or picked on an open question
and not sent yet (`choice/drafts/keeper.py`). The token or a signed-in page's cookie, like the other
owner routes; a page's writes are Origin-checked by `security.guards.OriginCheck`. A draft is never
an answer: send it with `POST .../response` when it is one."""

from __future__ import annotations

from typing import Any

from litestar import Controller, delete, get, put
from litestar.params import FromPath, JSONBody

from choice.drafts.keeper import Draft
from choice.web.api.body import check_json_data
from choice.web.api.openapi import BODY_ERRORS, errors
from choice.web.deps import Drafts
from choice.web.security.guards import BEARER, bearer_token_guard


class DraftController(Controller):
    path = "/api/interactions/{interaction_id:str}/draft"
    guards = [bearer_token_guard]  # noqa: RUF012 - Litestar reads it from the class
    security = BEARER
    tags = ["interactions"]  # noqa: RUF012

    @get("/", responses=errors(404))
    async def read(self, interaction_id: FromPath[str], drafts: Drafts) -> dict[str, Any]:
        """The question's draft (`draft: null` when there is none or it is over)."""
        return await drafts.get(interaction_id)

    @put("/", before_request=check_json_data, responses=errors(404, 409, *BODY_ERRORS))
    async def save(self, interaction_id: FromPath[str], data: JSONBody[Draft],
                   drafts: Drafts) -> dict[str, Any]:
        """Replace the draft (stored at most once a second, the latest wins). 409 once the
        question is over."""
        return await drafts.put(interaction_id, data)

    @delete("/", responses=errors(404))
    async def discard(self, interaction_id: FromPath[str], drafts: Drafts) -> None:
        """Throw the draft away."""
        await drafts.delete(interaction_id)
