"""DecisionService: the write-back of a decision. The owner asks the agent to summarise a
widened discussion (the review), the agent sends its candidate (or none comes in
`CHOICE_SUMMARY_SECONDS`: the owner writes it by hand), the owner resolves, edits or
defers; a deferred question is taken up again later.

A feature: it plugs into the core (`choice.core.extension`), sharing the service's store,
clock and notifier, with the same order of work: persist (one transaction, with its audit
events), then publish. A resolve ends the question through the core's one completion
function and the one normalisation (`outcome.py` says how the body reads as an answer).
While the owner waits on its summary, a waiting agent's call returns at once with the
request; while deferred, the agent hears the deferral. The review's fallback timers live in
their own scheduler, set again from the database on start and when other instances may
have changed them (a restart mid-review loses nothing). It reads the discussion through
the core, never from the team.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from choice.contract import DEFAULT_TIMEOUT, FieldError, PortalInterface
from choice.contract.errors import DeadlinePassed, NotFound
from choice.contract.field_errors import InvalidInput
from choice.contract.normalize import Completion, Provenance
from choice.core.actors import AGENT, OWNER_API, SYSTEM, Actor
from choice.core.deadlines import DeadlineScheduler
from choice.core.endings import answered, audit, request_of
from choice.core.extension import Extension, ReplyHints
from choice.core.notifier import Change, ChangeKind
from choice.core.replies import AgentReply, listing
from choice.decision.models import (
    CandidateBody,
    CandidateReview,
    DeferBody,
    ResolveBody,
)
from choice.decision.outcome import (
    candidate_ids,
    candidate_of,
    in_resolve_terms,
    owner_note,
    source_of,
    submission_of,
    summary_text,
)
from choice.decision.replies import deferred_reply, http_candidate_hint, summary_request
from choice.decision.review import proposed_ids, review_of
from choice.store.decisions import DecisionRepository
from choice.store.records import Decision, Interaction
from choice.store.repository import Completed

if TYPE_CHECKING:
    from choice.core.service import InteractionService

log = logging.getLogger("choice.decision")


def _error(field: str, code: str, message: str) -> InvalidInput:
    return InvalidInput([FieldError(field=field, code=code, message=message)])


def _actor(interface: PortalInterface | None, default: Actor) -> Actor:
    """The terminal UI says so; any other call with the token is the API's."""
    return Actor.owner("terminal") if interface == "terminal" else default


async def _no_quorum(_interaction_id: str) -> int | None:
    return None


class DecisionService(Extension):
    def __init__(self, interactions: InteractionService) -> None:
        self.interactions = interactions
        self.store = interactions.store
        self.repo = DecisionRepository(interactions.store.repo)
        self.reviews = DeadlineScheduler(self._review_due, interactions.clock)
        """When each open review falls back to the owner writing the answer."""
        self.read_quorum: Callable[[str], Awaitable[int | None]] = _no_quorum
        """The team's quorum of a question, shown in the review: set by the composition
        root (`choice/portal.py`); the team feature owns it."""

    @property
    def _summary_seconds(self) -> float:
        return self.interactions.settings.summary_seconds

    def _publish(self, kind: ChangeKind, row: Interaction, **data: Any) -> None:
        self.interactions.notifier.publish(Change(kind, row.id, {**listing(row), **data}, row))

    # -- lifecycle (the core's extension points) ---------------------------------------------
    async def start(self) -> None:
        """Set the fallback timers of reviews open before a restart (one due already fires
        at once)."""
        await self.schedule_open_reviews()
        self.reviews.start()

    async def stop(self) -> None:
        await self.reviews.stop()

    def on_completed(self, row: Interaction) -> None:
        self.reviews.forget(row.id)

    async def resync(self) -> None:
        await self.schedule_open_reviews()

    async def reacted(self, change: Change) -> None:
        """Another instance changed a decision: keep the fallback timer in step."""
        if change.kind == "decision.changed" and change.row is not None:
            await self.follow(change.row)

    async def schedule_open_reviews(self) -> None:
        """Set the fallback timer of every review waiting for a candidate (at start, and
        when another instance may have asked for one unheard)."""
        for decision in await self.store.scan(self.repo.open_reviews):
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
        """The candidate review with the review's state (GET .../review)."""
        row = await self.interactions.get(interaction_id)
        return await self._review_of(row, await self.decision(row.id))

    async def _review_of(self, row: Interaction, decision: Decision | None) -> CandidateReview:
        return review_of(row, decision, await self.read_quorum(row.id),
                         await self.interactions.discussion(row),
                         self._summary_seconds)

    async def agent_reply(self, row: Interaction, reply: AgentReply,
                          hints: ReplyHints) -> AgentReply | None:
        """A deferral; the owner's request for the agent's summary (not to a poller that
        cannot write one); or, while the owner reviews the candidate, the widened reply
        saying so."""
        if row.status not in ("widened", "deferred"):
            return None
        decision = await self.decision(row.id)
        if row.status == "deferred":
            return deferred_reply(row, request_of(row), decision, self.interactions.settings)
        if hints.agent_turns and self._summary_wanted(row, decision):
            assert decision is not None
            discussion = await self.interactions.discussion(row)
            if discussion is not None:
                return summary_request(row, request_of(row), discussion, decision,
                                       self.interactions.settings,
                                       hints.candidate_hint or http_candidate_hint(row.id))
        if decision is not None and decision.candidate_at is not None \
                and decision.review_requested_at is not None:
            return reply.under_review("The owner is reviewing your candidate answer. ")
        return None

    # -- the review ------------------------------------------------------------------------------
    async def request_review(self, interaction_id: str, actor: Actor = OWNER_API) -> CandidateReview:
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
                               actor: Actor = AGENT) -> CandidateReview:
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
        proposed = proposed_ids(request_of(row), body.selected_ids, answer)
        at = self.interactions.clock()
        before = await self.decision(row.id)
        late = bool(before and before.candidate_timed_out_at)
        event = audit(row.id, "candidate_submitted", actor, {
            "source_hint": hint, "late": late, "summary_length": len(summary),
            "answer_length": len(answer), "selected_ids": proposed}, at)
        decision = await self.store.write(self.repo.submit_candidate, row.id, summary, answer,
                                          proposed or None, hint, at,
                                          [event])
        self.reviews.forget(row.id)
        self._publish("decision.changed", row, change="candidate_submitted")
        return await self._review_of(row, decision)

    async def _review_due(self, interaction_id: str) -> None:
        """The fallback: no candidate in time, the owner writes the answer by hand."""
        at = self.interactions.clock()
        try:
            row = await self.interactions.get(interaction_id)
        except NotFound:
            return
        event = audit(row.id, "candidate_timed_out", SYSTEM,
                      {"summary_seconds": self._summary_seconds}, at)
        if await self.store.write(self.repo.time_out_review, row.id,
                                  at - self._summary_seconds, at, [event]):
            self._publish("decision.changed", row, change="candidate_timed_out")

    # -- the owner's decision ----------------------------------------------------------------
    async def resolve(self, interaction_id: str, body: ResolveBody,
                      actor: Actor = OWNER_API) -> Interaction:
        """The owner's final answer, for a pending, widened or deferred question, checked
        and normalised like any answer (`outcome.py`); its `summary_json.source` follows
        the candidate (`provenance.py`). `InvalidInput`, or `AlreadyCompleted` if it was over (or
        its deadline passed); nothing changes then."""
        actor = _actor(body.interface, actor)
        final = body.final_answer.strip()
        rationale = body.rationale.strip() if body.rationale and body.rationale.strip() else None
        seen = await self.decision(interaction_id)
        # The edit distance may take a while for a long answer: not on the writer thread.
        source = await asyncio.to_thread(source_of, final, body.selected_ids, seen)

        def decide(row: Interaction, done: Completion) -> Completed:
            decision = self.repo.decision(row.id)  # as it is inside the transaction
            same = (candidate_of(decision), candidate_ids(decision)) == \
                (candidate_of(seen), candidate_ids(seen))
            request = request_of(row)
            how = source if same else source_of(final, body.selected_ids, decision)
            provenance = Provenance(how, summary_text(request, body, decision, how), rationale,
                                    owner_note(request, body))
            try:
                return answered(row, submission_of(request, body), done, actor, provenance,
                                {"candidate": candidate_of(decision) is not None})
            except InvalidInput as invalid:
                raise in_resolve_terms(invalid) from None

        return await self.interactions.complete(interaction_id, decide,
                                                interface=body.interface, actor=actor)

    async def defer(self, interaction_id: str, body: DeferBody,
                    actor: Actor = OWNER_API) -> Interaction:
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
            raise await self.interactions.expire_late(interaction_id) from None
        self.interactions.deadlines.forget(row.id)
        self.reviews.forget(row.id)
        self._publish("interaction.deferred", row, rationale=rationale)
        return row

    async def resume(self, interaction_id: str, interface: PortalInterface | None = None,
                     actor: Actor = OWNER_API) -> Interaction:
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
        await self.interactions.announce(Change("interaction.resumed", row.id, listing(row), row))
        return row

