"""What an agent gets about a decision being written back: the owner's request for a
summary of the discussion (`action_status: summary_requested`, the instructions and the
discussion as JSON), and a deferral (`action_status: deferred`, with the owner's rationale).
Shared by the HTTP API and the MCP tools, like `choice.core.replies`.
"""

from __future__ import annotations

from msgspec import Struct

from choice.contract import SCHEMA_VERSION, ChoiceRequest
from choice.contract.clock import iso
from choice.contract.result import DiscussionData
from choice.core.config import Settings
from choice.core.replies import AgentReply, interaction_url
from choice.store.records import Decision, Interaction


class SummaryQuestion(Struct, frozen=True):
    """The question as the agent summarising its discussion needs it."""

    title: str
    prompt: str | None
    selection_mode: str
    options: list[SummaryOption]


class SummaryOption(Struct, frozen=True):
    id: str
    label: str


class SummaryRequestedReply(AgentReply, frozen=True):
    """The owner asks the agent for a summary (`SummaryRequested` in
    `choice.decision.models` documents it)."""

    interaction_id: str
    session_id: str
    decision_id: str
    status: str
    action_status: str
    schema_version: int
    question: SummaryQuestion
    discussion: DiscussionData
    url: str
    due_at: str
    expires_at: str
    instructions: str


class DeferredAgentReply(AgentReply, frozen=True):
    """The owner set the decision aside, saying why (`DeferredReply` in
    `choice.decision.models` documents it)."""

    interaction_id: str
    session_id: str
    status: str
    action_status: str
    schema_version: int
    rationale: str | None
    deferred_at: str | None
    outcome: str | None
    url: str
    instructions: str


def http_candidate_hint(interaction_id: str) -> str:
    return f"POST /api/interactions/{interaction_id}/candidate with"


def summary_request(row: Interaction, request: ChoiceRequest, discussion: DiscussionData,
                    decision: Decision, settings: Settings, how: str) -> SummaryRequestedReply:
    """The owner asks the agent to summarise the discussion and propose the answer; `how`
    says how to send it (`submit_candidate` for MCP, the candidate endpoint for HTTP)."""
    assert decision.review_requested_at is not None
    due = decision.review_requested_at + settings.summary_seconds
    return SummaryRequestedReply(
        interaction_id=row.id, session_id=row.id, decision_id=row.id,
        status="widened", action_status="summary_requested",
        schema_version=SCHEMA_VERSION,
        question=SummaryQuestion(title=request.title, prompt=request.prompt,
                                 selection_mode=request.selection_mode,
                                 options=[SummaryOption(id=o.id, label=o.label)
                                          for o in request.options]),
        discussion=discussion,
        url=interaction_url(settings, row.id),
        due_at=iso(due), expires_at=iso(row.expires_at),
        instructions=(
            "Not an answer yet: the owner asks you to summarise the team's discussion of this "
            "question and propose the answer. Read `discussion.messages` (the newest "
            f"{len(discussion.messages)} of {discussion.message_count}, each '[Name] text'), "
            f"then {how} candidate_summary (a concise summary of where the discussion "
            "landed, who agreed on what), candidate_answer (the answer to the question as "
            "the owner would give it; name the option label if they settled on one), "
            "selected_ids (the ids of the option(s) they settled on, if any) and "
            "source_hint 'discussion_extraction' (or 'manual' with an empty "
            "candidate_answer if the discussion settled nothing). Send it before due_at "
            f"({settings.summary_seconds:g} s), else the owner writes the answer without "
            "you. The owner accepts, edits or defers it; then poll again with session_id "
            "for the final decision. Do not ask the question again."),
    )


def deferred_reply(row: Interaction, request: ChoiceRequest, decision: Decision | None,
                   settings: Settings) -> DeferredAgentReply:
    """The owner set the decision aside, saying why. Not an answer, not the end (a
    `hitl_request` says so in its `outcome` too: `deferred`, never a success)."""
    rationale = decision.defer_rationale if decision else None
    deferred_at = decision.deferred_at if decision else None
    return DeferredAgentReply(
        interaction_id=row.id, session_id=row.id, status="deferred",
        action_status="deferred", schema_version=SCHEMA_VERSION,
        rationale=rationale, deferred_at=iso(deferred_at) if deferred_at else None,
        outcome="deferred" if request.shape == "hitl_request" else None,
        url=interaction_url(settings, row.id),
        instructions=(
            f"The owner deferred this decision: {rationale or '(no reason recorded)'} It is "
            "not an answer: carry on without it where you can, and do not ask it again. It "
            "may be taken up and resolved later: poll with session_id (or list_pending with "
            "status 'deferred') to collect the final result."),
    )
