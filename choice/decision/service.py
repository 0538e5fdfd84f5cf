"""DecisionService: the write-back of a decision. The owner asks the agent to summarise a
widened discussion (the review), the agent sends its candidate (or none comes in
`CHOICE_SUMMARY_SECONDS`: the owner writes it by hand), the owner resolves, edits or
defers; a deferred question is taken up again later; the team's quorum resolves on its own.

Reached as `InteractionService.decision`; it shares the interaction service's store, clock,
deadlines and notifier, and follows the same order of work: persist (one transaction, with
its audit events), then publish. The review's fallback timers live in their own scheduler,
set again from the database on start (a restart mid-review loses nothing).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from choice.contract import DEFAULT_TIMEOUT, FieldError, PortalInterface
from choice.contract.clock import iso
from choice.contract.errors import AlreadyCompleted, DeadlinePassed, NotFound
from choice.contract.field_errors import InvalidInput
from choice.core.deadlines import DeadlineScheduler
from choice.core.endings import audit, request_of
from choice.core.notifier import Change, ChangeKind
from choice.core.replies import listing
from choice.decision.models import (
    CandidateBody,
    CandidateReview,
    DeferBody,
    ResolveBody,
    ReviewState,
)
from choice.decision.outcome import by_quorum, candidate_of, resolved
from choice.decision.provenance import summary_source
from choice.decision.quorum import reached
from choice.decision.replies import deferred_reply, http_candidate_hint, summary_request
from choice.store.decisions import DecisionRepository
from choice.store.records import Decision, Interaction
from choice.store.repository import Completed
from choice.team.service import checked_quorum

if TYPE_CHECKING:
    from choice.contract import Quorum
    from choice.core.service import InteractionService

log = logging.getLogger("choice.decision")


class _NoQuorum(Exception):
    """Checked again inside the transaction: no quorum (any more), nothing to write."""


def _error(field: str, code: str, message: str) -> InvalidInput:
    return InvalidInput([FieldError(field=field, code=code, message=message)])


def _actor(interface: PortalInterface | None, default: str) -> str:
    """The terminal UI says so; any other call with the token is the API's."""
    return "human:terminal" if interface == "terminal" else default


class DecisionService:
    def __init__(self, interactions: InteractionService) -> None:
        self.interactions = interactions
        self.store = interactions.store
        self.repo = DecisionRepository(interactions.store.repo)
        self.reviews = DeadlineScheduler(self._review_due, interactions.clock)
        """When each open review falls back to the owner writing the answer."""

    @property
    def _summary_seconds(self) -> float:
        return self.interactions.settings.summary_seconds

    def _publish(self, kind: ChangeKind, row: Interaction, **data: Any) -> None:
        self.interactions.notifier.publish(Change(kind, row.id, {**listing(row), **data}, row))

    # -- lifecycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        """Set the fallback timers of reviews open before a restart (one due already fires
        at once), and resolve any quorum reached while the portal was down."""
        read = self.store.read
        await self.schedule_open_reviews()
        self.reviews.start()
        for decision in await read(self.repo.quorums):
            await self.check_quorum(decision.interaction_id, "system")

    async def stop(self) -> None:
        await self.reviews.stop()

    async def schedule_open_reviews(self) -> None:
        """Set the fallback timer of every review waiting for a candidate (at start, and
        when another instance may have asked for one unheard)."""
        for decision in await self.store.read(self.repo.open_reviews):
            assert decision.review_requested_at is not None
            self.reviews.schedule(decision.interaction_id,
                                  decision.review_requested_at + self._summary_seconds)

    async def follow(self, row: Interaction) -> None:
        """Another instance changed this decision: keep the fallback timer in step, so it
        fires even if that instance is gone (the first to time the review out wins)."""
        decision = await self.decision(row.id)
        if decision is not None and self._summary_wanted(row, decision):
            assert decision.review_requested_at is not None
            self.reviews.schedule(row.id, decision.review_requested_at + self._summary_seconds)
        else:
            self.reviews.forget(row.id)

    # -- reading -------------------------------------------------------------------------------
    async def decision(self, interaction_id: str) -> Decision | None:
        return await self.store.read(self.repo.decision, interaction_id)

    def _summary_wanted(self, row: Interaction, decision: Decision | None) -> bool:
        return (row.status == "widened" and decision is not None
                and decision.review_requested_at is not None and decision.candidate_at is None
                and decision.candidate_timed_out_at is None)

    async def agent_turn(self, row: Interaction) -> bool:
        """The owner waits on the agent: a summary is asked for and none has come (a
        waiting agent's call returns at once with `summary_requested`)."""
        if row.status != "widened":
            return False
        return self._summary_wanted(row, await self.decision(row.id))

    async def review(self, interaction_id: str) -> CandidateReview:
        """The seed's CandidateReview with the review's state (GET .../review)."""
        row = await self.interactions.get(interaction_id)
        return await self._review_of(row, await self.decision(row.id))

    async def _review_of(self, row: Interaction, decision: Decision | None) -> CandidateReview:
        team = self.interactions.team
        widened = await team.mode(row.id) is not None
        discussion = await team.discussion_data(row.id) if widened else None
        requested = decision.review_requested_at if decision else None
        candidate = candidate_of(decision)
        timed_out = bool(decision and decision.candidate_timed_out_at) and candidate is None
        state: ReviewState
        if requested is None:
            state = "not_requested"
        elif candidate is not None:
            state = "candidate_ready"
        else:
            state = "timed_out" if timed_out else "awaiting_candidate"
        return CandidateReview(
            decision_id=row.id, state=state, discussion_fetch=discussion,
            candidate_summary=(decision.candidate_summary or "") if candidate and decision else "",
            candidate_answer=candidate or "",
            source_hint="discussion_extraction" if candidate else "manual",
            llm_timed_out=timed_out,
            requested_at=iso(requested) if requested else None,
            due_at=iso(requested + self._summary_seconds) if requested else None,
            candidate_at=iso(decision.candidate_at) if decision and decision.candidate_at else None,
            quorum_min_votes=decision.quorum_min_votes if decision else None,
            deferred_at=iso(decision.deferred_at) if decision and decision.deferred_at else None,
            defer_rationale=decision.defer_rationale if decision else None)

    async def agent_reply(self, row: Interaction, how: str | None = None) -> dict[str, Any] | None:
        """What the agent gets for a deferred question or one whose owner waits on its
        summary; None otherwise (the usual reply applies). `how` names the way to send
        the candidate (the MCP tool; the HTTP endpoint by default)."""
        if row.status not in ("widened", "deferred"):
            return None
        return await self.agent_reply_with(row, await self.decision(row.id), how)

    async def agent_reply_with(self, row: Interaction, decision: Decision | None,
                               how: str | None = None) -> dict[str, Any] | None:
        """`agent_reply` with the decision row already read (a reply reads it once)."""
        if row.status == "deferred":
            return deferred_reply(row, decision, self.interactions.settings)
        if not self._summary_wanted(row, decision):
            return None
        assert decision is not None
        discussion = await self.interactions.team.discussion_data(row.id)
        return summary_request(row, request_of(row), discussion, decision,
                               self.interactions.settings, how or http_candidate_hint(row.id))

    # -- the review ------------------------------------------------------------------------------
    async def request_review(self, interaction_id: str, actor: str = "human:api") -> CandidateReview:
        """Ask the agent to summarise the discussion (again: an earlier candidate goes).
        `NotWidenedNow` unless the question is widened."""
        row = await self.interactions.get(interaction_id)
        at = self.interactions.clock()
        event = audit(row.id, "review_requested", actor,
                      {"summary_seconds": self._summary_seconds}, at)
        row = await self.store.write(self.repo.request_review, row.id, at, [event])
        self.reviews.schedule(row.id, at + self._summary_seconds)
        self._publish("decision.changed", row, change="review_requested", wakes_agent=True)
        return await self.review(row.id)

    async def submit_candidate(self, interaction_id: str, body: CandidateBody,
                               actor: str = "agent") -> CandidateReview:
        """The agent's candidate for the open review. `InvalidInput` for a bad one (the
        agent may try again), `NotInReview` / `NotWidenedNow` when none is wanted."""
        row = await self.interactions.get(interaction_id)
        if body.decision_id is not None and body.decision_id != row.id:
            raise _error("decision_id", "mismatch",
                         f"decision_id {body.decision_id[:40]!r} is not this question's "
                         f"({row.id}): send the candidate for the question you summarised.")
        hint = "manual" if body.source_hint == "manual" else "discussion_extraction"
        answer, summary = body.candidate_answer.strip(), body.candidate_summary.strip()
        if hint == "discussion_extraction" and not answer:
            raise _error("candidate_answer", "required",
                         "candidate_answer is empty: write the answer the discussion points "
                         "to, or send source_hint 'manual' if it settled nothing.")
        at = self.interactions.clock()
        before = await self.decision(row.id)
        late = bool(before and before.candidate_timed_out_at)
        event = audit(row.id, "candidate_submitted", actor, {
            "source_hint": hint, "late": late, "summary_length": len(summary),
            "answer_length": len(answer)}, at)
        decision = await self.store.write(self.repo.submit_candidate, row.id, summary, answer,
                                          hint, at, [event])
        self.reviews.forget(row.id)
        self._publish("decision.changed", row, change="candidate_submitted")
        return await self._review_of(row, decision)

    async def _review_due(self, interaction_id: str) -> None:
        """The fallback: no candidate in time, the owner writes the answer (seed §5.3)."""
        at = self.interactions.clock()
        try:
            row = await self.interactions.get(interaction_id)
        except NotFound:
            return
        event = audit(row.id, "candidate_timed_out", "system",
                      {"summary_seconds": self._summary_seconds}, at)
        if await self.store.write(self.repo.time_out_review, row.id,
                                  at - self._summary_seconds, at, [event]):
            self._publish("decision.changed", row, change="candidate_timed_out")

    # -- the owner's decision ----------------------------------------------------------------------
    async def resolve(self, interaction_id: str, body: ResolveBody,
                      actor: str = "human:api") -> Interaction:
        """The owner's final answer, for a pending, widened or deferred question; its
        `summary_json.source` follows the candidate (seed §6). `InvalidInput`, or
        `AlreadyCompleted` if it was over (or its deadline passed); nothing changes then."""
        actor = _actor(body.interface, actor)
        final = body.final_answer.strip()
        seen = await self.decision(interaction_id)
        # The edit distance may take a while for a long answer: not on the writer thread.
        source = await asyncio.to_thread(summary_source, final, candidate_of(seen))

        def decide(row: Interaction, decision: Decision | None) -> Completed:
            at = self.interactions.clock()
            done = self.interactions.completion(row, body.interface, at, actor)
            same = candidate_of(decision) == candidate_of(seen)
            return resolved(row, decision, body, done, actor,
                            source if same else summary_source(final, candidate_of(decision)))

        return await self._resolve(interaction_id, decide)

    async def _resolve(self, interaction_id: str,
                       decide: Callable[[Interaction, Decision | None], Completed]) -> Interaction:
        at = self.interactions.clock()
        try:
            row = await self.store.write(self.repo.resolve, interaction_id, at, decide)
        except DeadlinePassed:  # as for a late answer: the expiry is what ends it
            await self.interactions.expire(interaction_id)
            raise AlreadyCompleted(await self.interactions.get(interaction_id)) from None
        self.interactions.deadlines.forget(row.id)
        self.reviews.forget(row.id)
        self.interactions.drafts.forget(row.id)
        self.interactions.notifier.publish(
            Change("interaction.completed", row.id, listing(row), row))
        return row

    async def defer(self, interaction_id: str, body: DeferBody,
                    actor: str = "human:api") -> Interaction:
        """Set an open question aside with a rationale: the agent's call returns the
        deferral; no deadline runs; a widened discussion stays open."""
        actor = _actor(body.interface, actor)
        rationale = body.rationale.strip()
        if not rationale:
            raise _error("rationale", "required",
                         "say why it is deferred: the agent and the team see this rationale.")
        row = await self.interactions.get(interaction_id)
        at = self.interactions.clock()
        event = audit(row.id, "deferred", actor, {"rationale": rationale, "from": row.status}, at)
        try:
            row = await self.store.write(self.repo.defer, row.id, rationale, at, [event])
        except DeadlinePassed:
            await self.interactions.expire(interaction_id)
            raise AlreadyCompleted(await self.interactions.get(interaction_id)) from None
        self.interactions.deadlines.forget(row.id)
        self.reviews.forget(row.id)
        self._publish("interaction.deferred", row, rationale=rationale)
        return row

    async def resume(self, interaction_id: str, interface: PortalInterface | None = None,
                     actor: str = "human:api") -> Interaction:
        """Take a deferred question up again: pending or widened as it was, with at least
        its request's timeout from now. `NotDeferred` if it is not deferred."""
        actor = _actor(interface, actor)
        row = await self.interactions.get(interaction_id)
        request = request_of(row)
        at = self.interactions.clock()
        timeout = float(request.timeout_seconds or DEFAULT_TIMEOUT)
        event = audit(row.id, "resumed", actor, {}, at)
        row = await self.store.write(self.repo.resume, row.id, at, timeout, [event])
        self.interactions.deadlines.schedule(row.id, row.expires_at)
        self._publish("interaction.resumed", row)
        if row.status == "widened":
            await self.check_quorum(row.id, actor)
        return row

    # -- the quorum ---------------------------------------------------------------------------------
    async def set_quorum(self, interaction_id: str, quorum: Quorum | None,
                         actor: str = "human:api") -> Interaction:
        """Change a widened (or deferred) question's quorum, or switch it off (None)."""
        row = await self.interactions.get(interaction_id)
        participants = await self.store.read(
            self.interactions.team.repo.participants, row.id)
        audience = sum(1 for p in participants if p.revoked_at is None)
        min_votes = checked_quorum(request_of(row), quorum, audience)

        event = audit(row.id, "quorum_changed", actor, {"min_votes": min_votes},
                      self.interactions.clock())
        row = await self.store.write(self.repo.set_quorum, row.id, min_votes, [event])
        self._publish("decision.changed", row, change="quorum", min_votes=min_votes)
        await self.check_quorum(row.id, actor)
        return row

    async def check_quorum(self, interaction_id: str, actor: str) -> Interaction | None:
        """Resolve by quorum if the votes now reach it (after each vote, a quorum change,
        taking up again, and on start); None when they do not. `actor` is who made it so
        (the last voter's page or API call, the owner's change), for `answered_via`."""
        decision = await self.decision(interaction_id)
        if decision is None or decision.quorum_min_votes is None:
            return None
        team = self.interactions.team.repo
        votes = await self.store.read(team.votes, interaction_id)
        if reached(votes, await self.store.read(team.participants, interaction_id),
                   decision.quorum_min_votes) is None:
            return None  # most votes reach nothing: no write transaction to find that out

        def decide(row: Interaction, decision: Decision | None) -> Completed:
            min_votes = decision.quorum_min_votes if decision else None
            if row.status != "widened" or min_votes is None:
                raise _NoQuorum
            found = reached(team.votes(row.id), team.participants(row.id), min_votes)
            if found is None:
                raise _NoQuorum
            done = self.interactions.completion(row, None, self.interactions.clock(), actor)
            return by_quorum(row, found, min_votes, done)

        try:
            return await self._resolve(interaction_id, decide)
        except (_NoQuorum, AlreadyCompleted):
            return None
