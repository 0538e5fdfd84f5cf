"""The owner's write-back on `/choice/{id}`: Fetch & review (ask the agent to summarise the
discussion), resolve (accept the candidate, edit it, or write the answer by hand), defer
with a rationale, take a deferred question up again, and set or switch off the quorum; and
the decision panel's refresh for a page told the review changed.

Same shape as `actions.py` and `team_actions.py`: each form post calls
`InteractionService.decision` (what the JSON API calls, actor `human:web`) and answers with
the swapped question (HTMX), or without script a redirect back (post/redirect/get) or,
for a refused form, the whole page with the field's error and the text as typed. The
server decides an answer's provenance; this module only asks for a rationale when the
owner's edit changed the candidate materially.
"""

from __future__ import annotations

import asyncio
from typing import Any

from litestar import Controller, Response, get, post
from litestar.params import FromPath, FromQuery
from litestar.plugins.htmx import HTMXRequest, HTMXTemplate
from litestar.response import Redirect
from msgspec.structs import replace

from choice.contract import UNRESOLVED_STATUSES, FieldError, Quorum
from choice.contract.errors import AlreadyCompleted, NotDeferred, NotWidenedNow
from choice.contract.field_errors import InvalidInput, parse_model
from choice.core.i18n import N_, Translator
from choice.core.service import InteractionService
from choice.decision.models import DeferBody, ResolveBody
from choice.decision.outcome import source_of
from choice.store.records import Interaction
from choice.web.deps import Decision, Kept, Owner, Service, Team
from choice.web.pages.actions import ACTOR, ELSEWHERE, Shown
from choice.web.pages.forms import Form, first, read_form, typed_text
from choice.web.pages.html import Fragment
from choice.web.pages.routes import VARY_ON_HTMX
from choice.web.security.auth import session_guard
from choice.web.views.browser_language import page_language
from choice.web.views.decision import DecisionForm, form_errors

NOT_WIDENED = N_("This question is not with the team now: there is no discussion to review.")
NOT_DEFERRED = N_("This question is not deferred: it is already taken up again.")
CANDIDATE_CHANGED = N_("The agent's candidate changed meanwhile: read the new one before "
                       "you accept it.")
QUORUM_NUMBER = N_("Enter a whole number of votes, e.g. 2, or switch the quorum off.")


def _said(service: InteractionService, request: HTMXRequest, row: Interaction) -> Translator:
    """The owner's page's language, for the errors it shows."""
    return Translator(page_language(service, request, row))


def _typed(form: Form, action: str) -> DecisionForm:
    return DecisionForm(action=action, final_answer=typed_text(form, "final_answer"),
                        selected=tuple(v for v in form.get("selected", []) if v),
                        rationale=typed_text(form, "rationale"),
                        defer_rationale=typed_text(form, "defer_rationale"),
                        min_votes=first(form, "min_votes").strip())


class DecisionActions(Controller):
    path = "/choice/{interaction_id:str}"
    guards = [session_guard]  # noqa: RUF012 - Litestar reads it from the class
    include_in_schema = False

    @staticmethod
    def _back(request: HTMXRequest, interaction_id: str) -> Redirect | None:
        """Without script a change that worked goes back to the page (post/redirect/get):
        reloading it then re-posts nothing."""
        if request.htmx:
            return None
        return Redirect(path=f"/choice/{interaction_id}", status_code=303, headers=VARY_ON_HTMX)

    @post("/review")
    async def request_review(self, request: HTMXRequest, service: Service, owner: Owner,
                             decision: Decision,
                             kept: Kept, interaction_id: FromPath[str]) -> Response[Any]:
        """Fetch & review: the agent's waiting (or next) call is asked for its summary."""
        shown = Shown(request, service, owner, kept)
        try:
            await decision.request_review(interaction_id, actor=ACTOR)
        except NotWidenedNow as refused:
            return await shown.show(refused.row, 409, notice=NOT_WIDENED)
        row = await service.get(interaction_id)
        return self._back(request, row.id) or await shown.show(row)

    @post("/resolve")
    async def resolve(self, request: HTMXRequest, service: Service, owner: Owner, decision: Decision,
                      kept: Kept, interaction_id: FromPath[str]) -> Response[Any]:
        """`action`: `accept` (the candidate as it is; `candidate_at` says which one the
        owner read), `edit` (`final_answer` changed from the candidate; a material change
        asks for a `rationale` first, `step=rationale` once asked), or `write` (by hand).
        `selected` options and a `rationale` may come with any of them."""
        shown = Shown(request, service, owner, kept)
        form = await read_form(request)
        action = first(form, "action", "write")
        typed = _typed(form, action)
        row = await service.get(interaction_id)
        if row.status not in UNRESOLVED_STATUSES:
            return await shown.show(row, 409, notice=ELSEWHERE)
        final = typed.final_answer
        if action == "accept":
            review = await decision.review(row.id)
            if review.state != "candidate_ready" or review.candidate_at != first(form,
                                                                                 "candidate_at"):
                return await shown.show(row, 409, notice=CANDIDATE_CHANGED)
            # The candidate as it is: its words and the options it picks. If it picks none
            # and the question needs one, the errors open Edit with its words to finish.
            final = review.candidate_answer
            typed = replace(typed, action="edit", final_answer=final,
                            selected=tuple(review.candidate_selected_ids))
        elif action == "back":
            return await shown.show(row, form=replace(typed, action="edit"))
        elif action == "edit" and first(form, "step") != "rationale" and final.strip():
            source = await asyncio.to_thread(source_of, final, list(typed.selected),
                                             await decision.decision(row.id))
            if source == "owner_override":  # a material change: ask why (optional) first
                return await shown.show(row, form=replace(typed, step="rationale",
                                                          source=source))
        try:
            body = parse_model(ResolveBody, {
                "final_answer": final, "selected_ids": list(typed.selected),
                "rationale": typed.rationale.strip() or None, "interface": "web"})
            row = await decision.resolve(interaction_id, body, actor=ACTOR)
        except InvalidInput as invalid:
            step = typed.step if first(form, "step") == "rationale" else None
            return await shown.show(row, 422, form=replace(
                typed, step=step, errors=form_errors(invalid.errors, _said(service, request, row))))
        except AlreadyCompleted as lost:
            return await shown.show(lost.row, 409, notice=ELSEWHERE)
        return await shown.show(row)

    @post("/defer")
    async def defer(self, request: HTMXRequest, service: Service, owner: Owner, decision: Decision,
                    kept: Kept, interaction_id: FromPath[str]) -> Response[Any]:
        """`defer_rationale` (required): set the question aside; the agent is told why."""
        shown = Shown(request, service, owner, kept)
        typed = _typed(await read_form(request), "defer")
        row = await service.get(interaction_id)
        try:
            body = parse_model(DeferBody, {"rationale": typed.defer_rationale,
                                           "interface": "web"})
            row = await decision.defer(interaction_id, body, actor=ACTOR)
        except InvalidInput as invalid:
            return await shown.show(row, 422, form=replace(
                typed, errors=form_errors(invalid.errors, _said(service, request, row), defer=True)))
        except AlreadyCompleted as lost:
            return await shown.show(lost.row, 409, notice=ELSEWHERE)
        return self._back(request, row.id) or await shown.show(row)

    @post("/resume")
    async def resume(self, request: HTMXRequest, service: Service, owner: Owner, decision: Decision,
                     kept: Kept, interaction_id: FromPath[str]) -> Response[Any]:
        """Take a deferred question up again (its deadline starts anew)."""
        shown = Shown(request, service, owner, kept)
        try:
            row = await decision.resume(interaction_id, "web", actor=ACTOR)
        except NotDeferred as refused:
            return await shown.show(refused.row, 409, notice=NOT_DEFERRED)
        return self._back(request, row.id) or await shown.show(row)

    @post("/quorum")
    async def quorum(self, request: HTMXRequest, service: Service, owner: Owner, team: Team,
                     kept: Kept, interaction_id: FromPath[str]) -> Response[Any]:
        """`min_votes` (a number), or `action=off`: the team's quorum. Votes that already
        reach it resolve the question at once."""
        shown = Shown(request, service, owner, kept)
        form = await read_form(request)
        typed = _typed(form, "quorum")
        row = await service.get(interaction_id)
        try:
            quorum = None
            if first(form, "action") != "off":
                if not typed.min_votes.isdigit():
                    raise InvalidInput([FieldError(field="min_votes", code="invalid",
                                                   message=QUORUM_NUMBER)])
                quorum = parse_model(Quorum, {"min_votes": int(typed.min_votes)})
            row = await team.quorum.set(interaction_id, quorum, actor=ACTOR)
        except InvalidInput as invalid:
            return await shown.show(row, 422, form=replace(
                typed, errors=form_errors(invalid.errors, _said(service, request, row))))
        except NotWidenedNow as refused:
            return await shown.show(refused.row, 409, notice=NOT_WIDENED)
        row = await service.get(interaction_id)  # the votes may have decided it just now
        return self._back(request, row.id) or await shown.show(row)

    @get("/decision")
    async def panel(self, request: HTMXRequest, service: Service, owner: Owner,
                    interaction_id: FromPath[str], keep: FromQuery[bool] = False) -> HTMXTemplate:
        """The decision panel, for a page told the review changed. `keep`: the owner is
        typing in it, so only what may change around the text (a notice of the late
        candidate, the quorum line) comes back, as out-of-band swaps."""
        row = await service.get(interaction_id)
        name = "partials/_decision_refresh.html" if keep else "partials/_decision_panel.html"
        return Fragment(template_name=name, headers=VARY_ON_HTMX, context={
            "view": await owner.page_view(row), "locale": page_language(service, request, row)})
