"""What ending an interaction writes: its status, the result JSON and the audit events, for
a person's answer, an owner's decision on a widened or deferred question (a resolve, or
the team's quorum: `answered` with a `Provenance`), a cancel, and the deadline (the
request's `on_timeout`).

Pure: each function gets the undecided row and a `Completion` (when and where it ended)
and returns the `Completed` the repository writes in the same transaction as its check that
the row is still undecided. `completion.py` runs them; the results come from
`choice.contract.normalize`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from choice.contract import ChoiceRequest, ChoiceResult, FieldError, Submission
from choice.contract.clock import now
from choice.contract.field_errors import InvalidInput
from choice.contract.normalize import (
    Completion,
    Provenance,
    cancelled_result,
    normalize_decision,
    normalize_submission,
    timeout_defaults_result,
    timeout_result,
    withdrawn_result,
)
from choice.core.actors import SYSTEM, Actor
from choice.core.attachments import answered_files
from choice.store.records import AuditEvent, Interaction, StoredFile
from choice.store.repository import Completed


def audit(interaction_id: str, kind: str, actor: Actor, detail: dict[str, Any] | None = None,
          at: float | None = None) -> AuditEvent:
    return AuditEvent(interaction_id=interaction_id, kind=kind, actor=actor.stored,
                      at=at if at is not None else now(),
                      detail_json=dict(detail) if detail else None)


def request_of(row: Interaction) -> ChoiceRequest:
    return ChoiceRequest.model_validate(row.request_json)


def answered(row: Interaction, submission: Submission, done: Completion, actor: Actor,
             provenance: Provenance | None = None,
             detail: Mapping[str, Any] | None = None) -> Completed:
    """A person's answer, or (`provenance`) a decision on a widened or deferred question:
    the owner's resolve, the team's quorum. A plain answer to a widened or deferred question
    is the owner deciding in their own words. `InvalidInput` if it breaks the request's
    rules; `detail` adds to the `resolved` audit event."""
    request = request_of(row)
    if provenance is None and row.status != "pending":
        provenance = Provenance(source="manual")
    at = done.completed_at
    files, new_files = answered_files(request, submission, done)
    sent_drafts = tuple(file.id for file in done.files)
    added = [file_added(file, actor, at) for file in new_files]
    if provenance is None:
        result, status = normalize_submission(request, submission, done)
        done.stamped(result, "owner", request)
        result.attachments = files
        events = [audit(row.id, "answered", actor, _answer_detail(result), at), *added]
        if result.confirmed:
            events.append(audit(row.id, "confirmed", actor, None, at))
        return Completed(status, result.model_dump(mode="json"), at, events, sent_drafts, new_files)
    result = normalize_decision(request, submission, done, provenance)
    done.stamped(result, provenance.decided_by, request)
    result.attachments = files
    event = audit(row.id, "resolved", actor, {
        "source": provenance.source, "selected_ids": result.selected_ids, "from": row.status,
        "rationale": provenance.rationale is not None, "via": done.via, **(detail or {}),
        **({"member": result.decided_by_member} if result.decided_by_member else {})}, at)
    return Completed("submitted", result.model_dump(mode="json"), at, [event, *added], sent_drafts,
                     new_files)


def file_added(file: StoredFile, actor: Actor, at: float) -> AuditEvent:
    """`attachment_added`: who added which file (its name, size and sha256; never its bytes)."""
    return audit(file.interaction_id, "attachment_added", actor, {
        "attachment_id": file.attachment_id, "name": file.name, "size": file.size,
        "sha256": file.sha256, "direction": file.direction}, at)



def _answer_detail(result: ChoiceResult) -> dict[str, Any]:
    """What the audit log keeps of an answer: the picks and where, not the words."""
    detail: dict[str, Any] = {
        "selected_ids": result.selected_ids, "interface": result.interface,
        "submission": result.submission, "custom_input": result.custom_input is not None}
    if result.answers is not None:  # several questions: what each one got, not the text
        detail["answers"] = {question_id: {"selected_ids": answer.selected_ids,
                                           "custom_input": answer.custom_input is not None}
                             for question_id, answer in result.answers.items()}
    if result.decided_by_member is not None:  # team mode: which member answered
        detail["member"] = result.decided_by_member
    return detail


def cancelled(row: Interaction, note: str | None, done: Completion, actor: Actor) -> Completed:
    """A person's cancel, with an optional note; `InvalidInput` for a note on an
    options-only `hitl_request` (no free-text path, not even a cancel's reason)."""
    request = request_of(row)
    if request.shape == "hitl_request" and note is not None and note.strip():
        raise InvalidInput([FieldError(
            field="global_annotation", code="free_text_not_allowed",
            message="this hitl_request is options-only: cancel without a note.")])
    result = done.stamped(cancelled_result(request, done, note), "owner", request)
    event = audit(row.id, "cancelled", actor, {"note": result.global_annotation is not None,
                                               "interface": result.interface}, done.completed_at)
    return Completed("cancelled", result.model_dump(mode="json"), done.completed_at, [event])


def withdrawn(row: Interaction, reason: str, done: Completion, actor: Actor) -> Completed:
    """The agent took its question back, with the reason the person reads."""
    request = request_of(row)
    result = done.stamped(withdrawn_result(request, done, reason), None, request)
    event = audit(row.id, "withdrawn", actor, {"reason": reason})
    return Completed("withdrawn", result.model_dump(mode="json"), done.completed_at, [event])


def expired(row: Interaction, done: Completion) -> Completed:
    """What the deadline does to a pending interaction: the request's `on_timeout`."""
    req = request_of(row)
    if req.on_timeout == "submit_defaults":
        status, result = "auto_submitted", timeout_defaults_result(req, done)
    elif req.on_timeout == "cancel":
        status, result = "cancelled", cancelled_result(req, done, None, by_timeout=True)
    else:
        status, result = "timeout", timeout_result(req, done)
    done.stamped(result, None, req)
    event = audit(row.id, "timed_out", SYSTEM, {"on_timeout": req.on_timeout}, done.completed_at)
    return Completed(status, result.model_dump(mode="json"), done.completed_at, [event])
