"""What the human does on a page: submit (with the optional review step), cancel, and save
settings (the preferences and the team list). Each form post calls the same
`InteractionService` as the API and answers with the swapped partial (HTMX) or the whole
page (no script), never a second code path.
"""

from __future__ import annotations

from typing import Any, get_args

from litestar import Controller, Response, post
from litestar.params import FromPath
from litestar.plugins.htmx import ClientRefresh, HTMXRequest
from litestar.response import Redirect
from msgspec import Struct

from choice.contract import (
    OPEN_STATUSES,
    DeadlineChange,
    ElicitationSetting,
    FieldError,
    PreferencesPatch,
)
from choice.contract.clock import iso
from choice.contract.errors import AlreadyCompleted
from choice.contract.field_errors import InvalidInput
from choice.core.actors import Actor
from choice.core.endings import request_of
from choice.core.i18n import N_
from choice.core.service import InteractionService
from choice.store.records import Interaction
from choice.web.deps import Kept, Owner, QuestionLists, Service, WebAssets
from choice.web.pages.after_post import KeptPosts, PostShown
from choice.web.pages.context import base_context, time_default_of
from choice.web.pages.forms import (
    Form,
    draft_from,
    first,
    preferences_from,
    read_form,
    submission_from,
    team_from,
    team_rows,
)
from choice.web.pages.html import Fragment
from choice.web.pages.routes import VARY_ON_HTMX, page
from choice.web.security.auth import safe_next, session_guard
from choice.web.security.ownership import signed_in_member
from choice.web.views.browser_language import page_language
from choice.web.views.decision import DecisionForm
from choice.web.views.interactions import Draft, Stage
from choice.web.views.owner import OwnerViews
from choice.web.views.team import team_context

ACTOR = Actor.owner("web")
ELSEWHERE = N_("This question was already answered elsewhere.")
TIMEOUT_REFUSED = N_("Not saved: the default time must be between 1 minute and 24 hours.")
SETTINGS_REFUSED = N_("Not saved: a setting has a value the portal does not take. Check it "
                      "and save again.")


class Shown(Struct, frozen=True):
    """How one form post answers: the interaction as it now stands, as the partial for HTMX;
    without script, a redirect to the question's page, which shows it (`after_post.py`)."""

    request: HTMXRequest
    service: InteractionService
    owner: OwnerViews
    kept: KeptPosts

    async def show(self, row: Interaction, status: int = 200, *, stage: Stage | None = None,
                   draft: Draft | None = None, errors: InvalidInput | None = None,
                   notice: str | None = None, form: DecisionForm | None = None,
                   focus: str | None = None, **extra: Any) -> Response[Any]:
        """`extra` goes into the template context (a team form's error and typed text);
        `form` is what was typed into the decision panel, with its errors; `focus` the
        question (of several) to take the focus."""
        service = self.service
        options: dict[str, Any] = {"stage": stage, "draft": draft, "notice": notice,
                                   "errors": errors.errors if errors else None,
                                   "form": form, "focus": focus}
        if not self.request.htmx:  # post/redirect/get: the page shows it, reloads safely
            path = f"/choice/{row.id}"
            if status != 200 or extra or any(options.values()):  # something to show again
                path += f"?shown={self.kept.keep(PostShown(row.id, row.status, status, options, extra))}"
            return Redirect(path=path, status_code=303, headers=VARY_ON_HTMX)
        view = await self.owner.page_view(row, **options)
        return Fragment(template_name="partials/_interaction.html", status_code=status,
                        headers=VARY_ON_HTMX,
                        context={"view": view, "locale": page_language(service, self.request, row),
                                 **extra})


class InteractionActions(Controller):
    path = "/choice/{interaction_id:str}"
    guards = [session_guard]  # noqa: RUF012
    include_in_schema = False

    @post("/submit")
    async def submit(self, request: HTMXRequest, service: Service, owner: Owner,
                     kept: Kept, interaction_id: FromPath[str]) -> Response[Any]:
        """`action`: submit, review (confirmation required, or several questions), confirm,
        or back (`back:<question id>` to that question)."""
        shown = Shown(request, service, owner, kept)
        form = await read_form(request)
        row = await service.get(interaction_id)
        if row.status not in OPEN_STATUSES:
            return await shown.show(row, 409, notice=ELSEWHERE)
        asked = request_of(row)
        draft, action = draft_from(form, asked), first(form, "action", "submit")
        action, _, focus = action.partition(":")  # `back:<question id>`: back to that one
        if action == "back":
            return await shown.show(row, draft=draft, focus=focus or None)
        if asked.several and action == "submit":
            action = "review"  # several questions always go through the review step
        try:
            submission = submission_from(form, draft, confirmed=True if action in (
                "confirm", "review") else None)
            if action == "review":
                # The service's dry run, as Confirm's submit will judge it: the review step
                # never shows an answer that Confirm would then refuse.
                await service.check(interaction_id, submission, "web", ACTOR)
                return await shown.show(row, stage="review", draft=draft)
            row = await service.submit(interaction_id, submission, "web", ACTOR)
        except InvalidInput as invalid:
            if asked.several and action == "review" and all(
                    error.field.startswith("answers.") for error in invalid.errors):
                # the review names each question still to answer, with a way back to it
                return await shown.show(row, 422, stage="review", draft=draft, errors=invalid)
            return await shown.show(row, 422, draft=draft, errors=invalid)
        except AlreadyCompleted as lost:
            return await shown.show(lost.row, 409, notice=ELSEWHERE)
        return await shown.show(row)

    @post("/cancel")
    async def cancel(self, request: HTMXRequest, service: Service, owner: Owner,
                     kept: Kept, interaction_id: FromPath[str]) -> Response[Any]:
        shown = Shown(request, service, owner, kept)
        note = first(await read_form(request), "global_annotation").strip() or None
        try:
            row = await service.cancel(interaction_id, note, "web", ACTOR)
        except AlreadyCompleted as lost:
            return await shown.show(lost.row, 409, notice=ELSEWHERE)
        return await shown.show(row)

    @post("/deadline")
    async def change_deadline(self, request: HTMXRequest, service: Service, owner: Owner,
                              kept: Kept,
                              interaction_id: FromPath[str]) -> Response[Any]:
        """`minutes_left`: the new deadline counted from now; audited, and every open
        viewer's countdown follows through its socket."""
        shown = Shown(request, service, owner, kept)
        raw = first(await read_form(request), "minutes_left").strip()
        row = await service.get(interaction_id)
        try:
            minutes = float(raw)
        except ValueError:
            minutes = -1.0
        try:
            if minutes <= 0:
                raise InvalidInput([FieldError(field="minutes_left", code="invalid",
                                               message=N_("Enter the minutes left, e.g. 5."))])
            change = DeadlineChange(expires_at=iso(service.clock() + minutes * 60))
            row = await service.set_deadline(interaction_id, change, ACTOR)
        except InvalidInput as invalid:
            return await shown.show(row, 422, errors=invalid)
        except AlreadyCompleted as lost:
            row = lost.row
        if not request.htmx:
            return await shown.show(row)
        # the panel's "This question" part is outside #interaction: out of band, with the
        # "Use as default" offer the change has just made
        return await shown.show(row, time_oob=True, time_row=row,
                                time_default=await time_default_of(service, row))


@post("/settings", guards=[session_guard], include_in_schema=False)
async def save_settings(request: HTMXRequest, service: Service) -> Response[Any]:
    """Save the preferences; they apply to the page at once (the interaction re-renders,
    told by the `choice:settings-saved` event). A new language reloads the whole page."""
    form = await read_form(request)
    language_before = page_language(service, request)
    message, status = N_("Saved."), 200
    try:
        await service.update_preferences(with_elicitation(preferences_from(form), form),
                                         signed_in_member(request))
    except InvalidInput as invalid:  # the model's message is for an API caller: say it plainly
        fields = {error.field for error in invalid.errors}
        message, status = (TIMEOUT_REFUSED if "timeout_seconds" in fields else
                           SETTINGS_REFUSED), 422
    if not request.htmx:
        return Redirect(path=safe_next(first(form, "next", "/settings")), status_code=303,
                        headers=VARY_ON_HTMX)
    if page_language(service, request) != language_before:
        refresh = ClientRefresh()
        refresh.headers.update(VARY_ON_HTMX)
        return refresh
    return Fragment(template_name="partials/_settings_form.html", status_code=status,
                    trigger_event="choice:settings-saved", after="receive",
                    headers=VARY_ON_HTMX,
                    context={"prefs": await service.preferences(signed_in_member(request)),
                             "saved_message": message,
                             "refused": status == 422, "locale": page_language(service, request)})


def with_elicitation(patch: PreferencesPatch, form: Form) -> PreferencesPatch:
    """The settings form's elicitation choice (whether `auto` asks inside an MCP client)."""
    wanted = first(form, "elicitation")
    if wanted in get_args(ElicitationSetting):
        return patch.model_copy(update={"elicitation": wanted})
    return patch


@post("/settings/team", guards=[session_guard], include_in_schema=False)
async def save_team(request: HTMXRequest, service: Service, assets: WebAssets,
                    lists: QuestionLists) -> Response[Any]:
    """The team list: rows of `team.name`, `team.handle`, `team.email`; `team.remove` holds
    the indexes of rows to drop, and blank rows are skipped. A refused list (a duplicate
    name, say) changes nothing and comes back as typed, with the field's error."""
    rows = team_rows(await read_form(request))
    try:
        prefs = await service.update_preferences(team_from(rows), signed_in_member(request))
        shown, status = {**team_context(prefs.team), "saved_message": N_("Saved.")}, 200
    except InvalidInput as invalid:
        shown, status = team_context(rows, invalid.errors), 422
    if not request.htmx and status == 200:
        return Redirect(path="/settings#team", status_code=303, headers=VARY_ON_HTMX)
    if not request.htmx:
        context = await base_context(request, service, assets, lists)
        context.update(shown, settings_page=True)
        return page("settings.html", context, status, headers=VARY_ON_HTMX)
    return Fragment(template_name="partials/_team_form.html", status_code=status,
                    headers=VARY_ON_HTMX,
                    context={**shown, "locale": page_language(service, request)})
