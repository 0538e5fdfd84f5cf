"""JSON API for interactions (`/api/interactions`): what agents and answering clients call.

Thin: parse, call `InteractionService`, shape the reply with `choice.core.replies`. Errors are
raised as exceptions and rendered by `web/errors.py`.
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, Response, get, patch, post
from litestar.params import FromPath, JSONBody

from choice.contract import (
    OPEN_STATUSES,
    CancelBody,
    ChoiceRequest,
    DeadlineChange,
    InterfaceSwitch,
    Submission,
)
from choice.contract.ask_user_question import AskUserQuestion
from choice.contract.attachments import (
    ANSWER_BODY_MAX,
    ASKING_BODY_MAX,
)
from choice.contract.clock import iso
from choice.contract.compat import HitlRequest, RequestUserChoice
from choice.contract.errors import AlreadyCompleted
from choice.contract.field_errors import parse_model
from choice.contract.submission import WithdrawBody
from choice.contract.vocabulary import UNRESOLVED_STATUSES
from choice.core.actors import AGENT, Actor
from choice.core.attachments import attachment
from choice.core.extension import ReplyHints
from choice.core.replies import listing, reply
from choice.store.records import Interaction
from choice.web.api.body import check_json_data, json_body
from choice.web.api.file_response import NOT_MODIFIED, IfNoneMatch, file_response
from choice.web.api.hangup import while_connected
from choice.web.api.openapi import (
    BODY_ERRORS,
    AuditTrail,
    CheckedAnswer,
    CreatedHandoff,
    CreatedOutcome,
    CreatedWidened,
    Detail,
    InteractionList,
    Reply,
    body_of,
    described,
    errors,
    interaction_links,
)
from choice.web.api.query import (
    MAX_LIMIT,
    After,
    Candidates,
    DryRun,
    Limit,
    ShapeName,
    StatusFilter,
    Wait,
    check_cursor,
    check_limit,
    check_shape,
    check_wait,
)
from choice.web.api.streamed_answer import streamed_answer
from choice.web.deps import Service, Team
from choice.web.security.guards import BEARER, bearer_token_guard
from choice.web.security.ownership import member_of

# What each operation answers, for the schema at /schema (the handlers return plain dicts).
AFTER_CREATE = interaction_links("pollInteraction", "respondToInteraction", "cancelInteraction",
                                 "changeDeadline", "interactionEvents", "interactionDetail")
CREATED = {201: described(CreatedHandoff | CreatedWidened,
                          "Asked: where the human answers and how to poll (or, widened "
                          "with `continue` within `wait`, who was invited)."),
           200: described(CreatedOutcome, "Answered within `wait`: the result."),
           **errors(*BODY_ERRORS)}
LISTED = {200: described(InteractionList, "Newest first."), **errors(422)}
POLLED = {200: described(Reply, "The result, or the hand-off while pending or widened."),
          **errors(404, 422)}
EVENTS = {200: described(AuditTrail, "The audit trail, oldest first, a page at a time."),
          **errors(404, 422)}
DETAIL = {200: described(Detail, "The question as validated, and its result once over."),
          **errors(404)}
CHANGED = {200: described(Reply, "The result, or the hand-off as changed."),
           **errors(404, 409, *BODY_ERRORS)}
RESPONDED = {200: described(Reply | CheckedAnswer, "The result; with `dry_run`, the result "
                           "the answer would produce, `stored: false`."),
             **errors(404, 409, *BODY_ERRORS)}


def poll_hint(interaction_id: str) -> str:
    return (f"Poll GET /api/interactions/{interaction_id}?wait=60 until status is no longer "
            "'pending' or 'widened'.")


async def agent_reply(service: Service, row: Interaction, *,
                      agent_turns: bool = True) -> dict[str, Any]:
    """What an agent gets for `row` over HTTP (`InteractionService.reply`)."""
    return (await service.reply(row, ReplyHints(poll_hint(row.id),
                                                 agent_turns=agent_turns))).to_json()



class InteractionController(Controller):
    path = "/api/interactions"
    guards = [bearer_token_guard]  # noqa: RUF012 - Litestar reads it from the class
    security = BEARER
    tags = ["interactions"]  # noqa: RUF012

    # The body stays hand-documented (`body_of`) and hand-read: it is one of four shapes,
    # and the fields that try to disable cancel become warnings, not errors.
    @post("/", operation_class=body_of(ChoiceRequest, HitlRequest, RequestUserChoice,
                                       AskUserQuestion, links={201: AFTER_CREATE}),
          responses=CREATED, request_max_body_size=ASKING_BODY_MAX,
          opt={"body_limit": "attachments: at most 10 MiB of files in all, base64"})
    async def create(
        self, request: Request[Any, Any, Any], service: Service,
        wait: Wait = None, shape: ShapeName = None,
    ) -> Response[dict[str, Any]]:
        """Ask a human. 201 with where to answer and how to poll; with `?wait=S` (S <= 60)
        it blocks and answers 200 with the result if the human is quick enough."""
        seconds, chosen_shape = check_wait(wait), check_shape(shape)
        created = await service.create(await json_body(request, large=True), chosen_shape,
                                       actor=AGENT,
                                       member_id=member_of(request, service.settings.team_mode))
        row = created.row
        if seconds:
            row = await while_connected(request, service.wait(row.id, seconds))
        body = {**await agent_reply(service, row), "warnings": created.warnings}
        return Response(body, status_code=201 if row.status in OPEN_STATUSES else 200)

    @get("/", responses=LISTED)
    async def list_interactions(
        self, request: Request[Any, Any, Any], service: Service, team: Team,
        status: StatusFilter = "all", limit: Limit = 50,
    ) -> dict[str, Any]:
        """Newest first. `active` = pending or widened; `widened` = waiting on the team (the
        end-of-run pending pass); `deferred` = set aside by the owner, to take up again;
        `completed` = answered, cancelled or timed out. In team mode, only your own, and
        apart from them (`widened_to_me`) the questions others widened to you."""
        member_id = member_of(request, service.settings.team_mode)
        rows = await service.recent(status, check_limit(limit), member_id)
        listed: dict[str, Any] = {"interactions": [listing(row) for row in rows]}
        if member_id is not None:  # team mode: and what others widened to this member
            listed["widened_to_me"] = [listing(row) for row in
                                       await team.widened_to(member_id, limit=check_limit(limit))]
        return listed

    @get("/{interaction_id:str}", operation_id="pollInteraction", responses=POLLED)
    async def poll(self, interaction_id: FromPath[str], request: Request[Any, Any, Any],
                   service: Service, wait: Wait = None,
                   candidates: Candidates = True) -> dict[str, Any]:
        """The result, or `status: pending` when the wait window (<= 60 s) ends first. A
        widened question answers at once when the owner asks for the agent's summary
        (`action_status: summary_requested`), unless `candidates=0`; a deferred one at once
        (`action_status: deferred`)."""
        row = await while_connected(request, service.wait(interaction_id, check_wait(wait),
                                                          agent_turns=candidates))
        return await agent_reply(service, row, agent_turns=candidates)

    @get("/{interaction_id:str}/events", operation_id="interactionEvents", responses=EVENTS)
    async def events(self, interaction_id: FromPath[str], service: Service,
                     after: After = None, limit: Limit = MAX_LIMIT) -> dict[str, Any]:
        """The audit trail, oldest first, a page at a time: at most `limit` events (200
        unless fewer are asked for) after the cursor `after`; `events_after` is the cursor
        of the next page, null once this page reaches the end of the trail."""
        cursor, most = check_cursor(after, "after"), check_limit(limit)
        events = await service.events(interaction_id, cursor, most + 1)
        more = len(events) > most
        events = events[:most]
        return {"events": [{"kind": e.kind, "actor": e.actor, "at": iso(e.at),
                            "detail": e.detail_json}
                           for e in events],
                "events_after": events[-1].id if more else None}

    @get("/{interaction_id:str}/detail", operation_id="interactionDetail", responses=DETAIL)
    async def detail(self, interaction_id: FromPath[str], service: Service) -> dict[str, Any]:
        """Everything an answering client needs to show the question: the validated
        request (every knob decided), the deadline, and whether the placeholder is shown."""
        row = await service.get(interaction_id)
        await service.owners_preferences(row)  # team mode: the member's language, fresh
        return {**listing(row), "request": row.request_json,
                "placeholder_shown": row.placeholder_shown,
                "language": service.owners_language(row),
                "result": row.result_json}

    @post("/{interaction_id:str}/interface", status_code=200, before_request=check_json_data,
          responses=CHANGED)
    async def switch_interface(self, interaction_id: FromPath[str], data: JSONBody[InterfaceSwitch],
                               service: Service) -> dict[str, Any]:
        """Continue a pending interaction in the other interface (audited)."""
        row = await service.switch_interface(interaction_id, data.interface, Actor.owner("terminal"))
        return await agent_reply(service, row)

    @post("/{interaction_id:str}/opened", status_code=204, before_request=check_json_data,
          responses=errors(404, *BODY_ERRORS))
    async def opened(self, interaction_id: FromPath[str], data: JSONBody[InterfaceSwitch],
                     service: Service) -> None:
        """An answering client (the terminal UI) shows the question: audited once."""
        await service.mark_opened(interaction_id, data.interface, Actor.owner(data.interface))

    # Hand-documented: Litestar renders `option_annotations` (a dict of notes) as an array.
    @post("/{interaction_id:str}/response", status_code=200, operation_class=body_of(Submission),
          operation_id="respondToInteraction", responses=RESPONDED,
          request_max_body_size=ANSWER_BODY_MAX,
          opt={"body_limit": "attachments: at most 5 files, 10 MiB each, base64; or attach "
                             "each to the draft first (POST .../draft/files)"})
    async def respond(self, interaction_id: FromPath[str], request: Request[Any, Any, Any],
                      service: Service, dry_run: DryRun = False) -> dict[str, Any]:
        """The human's answer. 422 if it breaks the request's rules, 409 if already over.
        With `?dry_run=1` it is only checked: the result it would produce, marked
        `stored: false`, or the same 409/422 a real answer would get; nothing changes."""
        if (request.content_length or 0) > service.settings.max_body_bytes:
            # A large body is read only for a question still open (404 and 409 before it).
            row = await service.get(interaction_id)
            if row.status not in UNRESOLVED_STATUSES:
                raise AlreadyCompleted(row)
        submission = (await streamed_answer(request, service.settings.max_body_bytes)).submission()
        actor = Actor.owner("terminal") if submission.interface == "terminal" else Actor.owner("api")
        if dry_run:
            checked = await service.check(interaction_id, submission, submission.interface, actor)
            # Not stored, so not completed: the result as it would be, without an end time.
            return {**checked.result_json, "status": "pending", "stored": False,
                    "completed_at": None}
        row = await service.submit(interaction_id, submission, submission.interface, actor)
        return reply(row, service.settings, poll_hint(row.id)).to_json()

    # Hand-documented: the body may be left out entirely, and Litestar documents every
    # typed `data` as a required body.
    @post("/{interaction_id:str}/cancel", status_code=200,
          operation_class=body_of(CancelBody, required=False), operation_id="cancelInteraction",
          responses=CHANGED)
    async def cancel(self, interaction_id: FromPath[str], request: Request[Any, Any, Any],
                     service: Service) -> dict[str, Any]:
        """Cancel, with an optional `global_annotation` saying why."""
        body = parse_model(CancelBody, await json_body(request, optional=True))
        actor = Actor.owner("terminal") if body.interface == "terminal" else Actor.owner("api")
        row = await service.cancel(interaction_id, body.global_annotation, body.interface, actor)
        return reply(row, service.settings, poll_hint(row.id)).to_json()

    @get("/{interaction_id:str}/attachments/{attachment_id:str}",
         responses={**errors(404), **NOT_MODIFIED})
    async def attachment(self, interaction_id: FromPath[str], attachment_id: FromPath[str],
                         service: Service, if_none_match: IfNoneMatch = None) -> Response[Any]:
        """A file shown with the question, to the token or the owner's signed-in page only:
        an image as itself, anything else as a download; streamed in chunks, never held
        whole. `nosniff` and a sandboxing CSP: a browser never runs what it holds; the name
        it saves ends with the type's extension (`safe_file_name`)."""
        file = await attachment(service.store, interaction_id, attachment_id)
        return file_response(service.store, file, if_none_match)

    @post("/{interaction_id:str}/withdraw", status_code=200, before_request=check_json_data,
          operation_id="withdrawInteraction", responses=CHANGED)
    async def withdraw(self, interaction_id: FromPath[str], data: JSONBody[WithdrawBody],
                       service: Service) -> dict[str, Any]:
        """The agent takes its question back (it found the answer elsewhere): the status
        becomes `withdrawn`, open pages and terminals show the `reason` at once, and a
        later answer gets 409. An ended question is a 409 with its standing result."""
        row = await service.withdraw(interaction_id, data.reason, Actor.agent("api"))
        return reply(row, service.settings, poll_hint(row.id)).to_json()

    @patch("/{interaction_id:str}", before_request=check_json_data,
           operation_id="changeDeadline", responses=CHANGED)
    async def change_deadline(self, interaction_id: FromPath[str], data: JSONBody[DeadlineChange],
                              service: Service) -> dict[str, Any]:
        """Move the deadline: `timeout_seconds` (from creation) or `expires_at`."""
        actor = Actor.owner("terminal") if data.interface == "terminal" else Actor.owner("api")
        row = await service.set_deadline(interaction_id, data, actor=actor)
        return await agent_reply(service, row)  # widened: who is invited
