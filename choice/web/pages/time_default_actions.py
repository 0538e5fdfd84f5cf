""""Use as default" in the settings panel: save the time the person gave this question
as their default time (`time_defaults.py` reads it back from the question's audit events),
through the same `update_preferences` as every other setting.

With HTMX only the panel's parts are swapped (its "This question" section, and the default
time field out of band); the question's form, where someone may be typing, is not touched.
Without script: post, then redirect back to the question's page at the section.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from litestar import Response, post
from litestar.params import FromPath
from litestar.plugins.htmx import HTMXRequest
from litestar.response import Redirect

from choice.contract import PreferencesPatch
from choice.core.i18n import N_
from choice.web.deps import Service
from choice.web.pages.context import time_default_of
from choice.web.pages.html import Fragment
from choice.web.pages.routes import VARY_ON_HTMX
from choice.web.security.auth import session_guard
from choice.web.security.ownership import signed_in_member
from choice.web.views.browser_language import page_language

NOTHING_GIVEN = N_("Change this question's time first (Apply); then it can become your "
                   "default time.")
CLOSED = N_("This question is no longer open: change the default time under Defaults.")


@post("/choice/{interaction_id:str}/default-time", guards=[session_guard],
      include_in_schema=False)
async def use_time_as_default(request: HTMXRequest, service: Service,
                              interaction_id: FromPath[str]) -> Response[Any]:
    row = await service.get(interaction_id)
    offered = await time_default_of(service, row)
    notice, status = None, 200
    if offered is None:
        notice, status = (CLOSED if row.status != "pending" else NOTHING_GIVEN), 409
    elif not offered.is_default:
        await service.update_preferences(PreferencesPatch(timeout_seconds=offered.saved),
                                         signed_in_member(request))
        offered = replace(offered, current=offered.saved)  # what the panel shows now
    if not request.htmx:
        # the fragment opens the panel at the section (browsers open a <details> for it)
        return Redirect(path=f"/choice/{row.id}#time-section", status_code=303,
                        headers=VARY_ON_HTMX)
    prefs = await service.preferences(signed_in_member(request))
    return Fragment(template_name="partials/_time_default_saved.html", status_code=status,
                    headers=VARY_ON_HTMX,
                    context={"time_row": row, "prefs": prefs, "time_notice": notice,
                             "time_default": offered,
                             "locale": page_language(service, request, row)})
