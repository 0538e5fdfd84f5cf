"""`POST /choice/{id}/hidden-options`: what a question's page hides, remembered for the next
questions (option visibility, as the terminal's `h` and `H` keep it). The page's
script sends the ids of the options now hidden on one question (`question`: its id with
several questions); the labels are saved in `hidden_options` (`remember_hidden`, the rule
both transports share) through the same `update_preferences` as every other setting.

Answers 204; an unknown question or option is a 422 that says which, and saves nothing.
Without script nothing is hidden by hand, and the options hidden before stay one click away
(the form's "N hidden options").
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, post
from litestar.params import FromPath

from choice.contract import ONLY_QUESTION_ID, PreferencesPatch
from choice.contract.preferences import remember_hidden
from choice.core.endings import request_of
from choice.web.deps import Service
from choice.web.pages.forms import first, read_form
from choice.web.security.auth import session_guard
from choice.web.security.ownership import signed_in_member


@post("/choice/{interaction_id:str}/hidden-options", guards=[session_guard],
      include_in_schema=False)
async def save_hidden_options(request: Request[Any, Any, Any], service: Service,
                              interaction_id: FromPath[str]) -> Response[str | None]:
    form = await read_form(request)
    row = await service.get(interaction_id)
    wanted = first(form, "question") or ONLY_QUESTION_ID
    question = next((q for q in request_of(row).asked() if q.id == wanted), None)
    if question is None:
        return refused(f"question: this question has no {wanted[:80]!r}; send the id of "
                       "one of its questions.")
    hidden = set(form.get("hidden", []))
    unknown = hidden - {o.id for o in question.options}
    if unknown:
        return refused(f"hidden: {sorted(unknown)[0][:80]!r} is not an option of this "
                       "question; send the ids of its options.")
    member_id = signed_in_member(request)
    prefs = await service.preferences(member_id)
    await service.update_preferences(PreferencesPatch(
        hidden_options=remember_hidden(prefs.hidden_options, question.options, hidden)),
        member_id)
    return Response(None, status_code=204)


def refused(message: str) -> Response[str | None]:
    return Response(message, status_code=422, media_type="text/plain")
