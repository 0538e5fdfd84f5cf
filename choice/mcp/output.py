"""The `outputSchema` every tool lists: what its `structuredContent` can be.

TypeScript-SDK clients (what most IDE clients embed) validate `structuredContent` against a
listed `outputSchema`, errors included (docs/internals.md#output-schemas), so the schema
must admit every shape `server.py` returns, and no more than those: the outcome (a result
with its lifecycle `status`), the pending or terminal hand-off (where the human answers,
how to poll), the widened reply (teammates were invited; poll later), the owner's request
for a summary of the discussion, a deferral, and the field errors of a refused request. A
call that asked a question may add `warnings`. `list_pending` lists its own.

Built from the contract's reply models, which the HTTP API's `/schema` documents too, so
both describe one shape. Must not build any reply itself: `choice.core.replies` does.
"""

from __future__ import annotations

from typing import Any

from choice.contract import FieldError, Handoff, Outcome
from choice.contract.model import Model
from choice.contract.schemas import inline_schema
from choice.decision.models import CandidateReview, DeferredReply, SummaryRequested
from choice.mcp.pending import PendingList
from choice.team.models import WidenedReply

WARNINGS = {
    "type": "array", "items": {"type": "string"},
    "description": "Fields of the request that were ignored or adjusted, and why.",
}


class Refused(Model):
    """A request the portal refused before any human saw it (`isError: true`)."""

    errors: list[FieldError]


def output_schema() -> dict[str, Any]:
    """One object schema: any of the outcome, the hand-off, the widened reply, the refusal."""
    branches = []
    for model in (Outcome, Handoff, WidenedReply, SummaryRequested, DeferredReply):
        branch = inline_schema(model)
        branch["properties"]["warnings"] = WARNINGS
        branches.append(branch)
    branches.append(inline_schema(Refused))
    return {"type": "object", "anyOf": branches}


def candidate_output_schema() -> dict[str, Any]:
    """`submit_candidate`: the review as the owner now sees it, or the refusal."""
    return {"type": "object", "anyOf": [inline_schema(CandidateReview), inline_schema(Refused)]}


def pending_output_schema() -> dict[str, Any]:
    """`list_pending`: the open questions, or the refusal of a bad filter."""
    return {"type": "object", "anyOf": [inline_schema(PendingList), inline_schema(Refused)]}
