"""JSON API for writing a decision back (`/api/interactions/{id}/...`): the owner asks the
agent for a summary (`review`), the agent sends its candidate (`candidate`), the owner
resolves, defers, or takes up again. (The team's quorum is `api/team.py`'s.)

Thin, like `api/team.py`: parse, call the decision feature, shape the reply. Behind
the bearer token (or the owner's browser session). The candidate is the agent's call; every
other one is the owner's (the terminal UI says `interface: terminal`).
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, get, post
from litestar.params import FromPath, JSONBody

from choice.contract.field_errors import parse_model
from choice.core.actors import AGENT, Actor
from choice.decision.models import (
    CandidateBody,
    CandidateReview,
    DeferBody,
    ResolveBody,
    ResumeBody,
)
from choice.web.api.body import check_json_data, json_body
from choice.web.api.interactions import agent_reply
from choice.web.api.openapi import BODY_ERRORS, Reply, body_of, described, errors
from choice.web.deps import Decision, Service
from choice.web.security.guards import BEARER, bearer_token_guard

REPLIED = {200: described(Reply, "The interaction as it now stands, as an agent sees it."),
           **errors(404, 409, *BODY_ERRORS)}
REVIEWED = {200: described(CandidateReview, "The review: the discussion and the candidate."),
            **errors(404, 409, *BODY_ERRORS)}


class DecisionController(Controller):
    path = "/api/interactions/{interaction_id:str}"
    guards = [bearer_token_guard]  # noqa: RUF012 - Litestar reads it from the class
    security = BEARER
    tags = ["decision"]  # noqa: RUF012

    async def _reply(self, service: Service, interaction_id: str) -> dict[str, Any]:
        row = await service.get(interaction_id)
        return await agent_reply(service, row)

    @get("/review", operation_id="readReview", responses=REVIEWED)
    async def review(self, interaction_id: FromPath[str], decision: Decision) -> CandidateReview:
        """The candidate review with its state: `not_requested`, `awaiting_candidate`,
        `candidate_ready`, or `timed_out` (no candidate in `CHOICE_SUMMARY_SECONDS`: write
        the answer by hand, `llm_timed_out: true`)."""
        return await decision.review(interaction_id)

    @post("/review", operation_id="requestReview", status_code=200, responses=REVIEWED)
    async def request_review(self, interaction_id: FromPath[str],
                             service: Service, decision: Decision) -> CandidateReview:
        """Fetch & review: ask the agent to summarise the discussion. Its waiting (or next)
        call returns `action_status: summary_requested`. 409 unless widened."""
        return await decision.request_review(interaction_id, actor=Actor.owner("api"))

    @post("/candidate", operation_id="submitCandidate", status_code=200,
          before_request=check_json_data, responses=REVIEWED)
    async def candidate(self, interaction_id: FromPath[str], data: JSONBody[CandidateBody],
                        service: Service, decision: Decision) -> CandidateReview:
        """The agent's candidate summary and answer for the owner's review. 422 with the
        field to fix (try again); 409 if no summary was asked for, or it was decided."""
        return await decision.submit_candidate(interaction_id, data, actor=AGENT)

    @post("/resolve", operation_id="resolveDecision", status_code=200,
          before_request=check_json_data, responses=REPLIED)
    async def resolve(self, interaction_id: FromPath[str], data: JSONBody[ResolveBody],
                      service: Service, decision: Decision) -> dict[str, Any]:
        """The owner's final answer, checked like any answer under the question's rules:
        options in `selected_ids` (within min/max), words in `final_answer` (the result's
        `custom_input` where the question takes typed answers, else `summary_json.text` and,
        unless they only name the chosen option, the owner's note `global_annotation`),
        `answers` for several questions. The portal sets `summary_json.source` from the candidate:
        unchanged or lightly edited `discussion_extraction`, changed by more than 30 %
        `owner_override`, none `manual`. Works on pending, widened and deferred questions."""
        row = await decision.resolve(interaction_id, data, actor=Actor.owner("api"))
        return await agent_reply(service, row)

    @post("/defer", operation_id="deferDecision", status_code=200,
          before_request=check_json_data, responses=REPLIED)
    async def defer(self, interaction_id: FromPath[str], data: JSONBody[DeferBody],
                    service: Service, decision: Decision) -> dict[str, Any]:
        """Set the decision aside with a rationale (required): the agent's call returns
        `action_status: deferred`; no deadline runs; a discussion stays open."""
        row = await decision.defer(interaction_id, data, actor=Actor.owner("api"))
        return await agent_reply(service, row)

    # The body may be left out entirely.
    @post("/resume", operation_id="resumeDecision", status_code=200,
          operation_class=body_of(ResumeBody, required=False), responses=REPLIED)
    async def resume(self, interaction_id: FromPath[str], request: Request[Any, Any, Any],
                     service: Service, decision: Decision) -> dict[str, Any]:
        """Take a deferred question up again: pending or widened as before, with at least
        its timeout from now. 409 if it is not deferred."""
        body = parse_model(ResumeBody, await json_body(request, optional=True))
        row = await decision.resume(interaction_id, body.interface, actor=Actor.owner("api"))
        return await agent_reply(service, row)
