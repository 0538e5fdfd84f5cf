"""What a discussion looks like as JSON: to a participant (`GET /api/d/<secret>`, and the
participant page's context) and to the owner (`GET /api/interactions/{id}/team`).

A participant sees the question (with the files the agent showed), the people invited
(names only), a page of the thread (`comments`, oldest first, with `comments_before`: the
cursor of the page before), the tally, their own vote, a deferral with its rationale, the
quorum, and once it is over the outcome (status, the chosen options' ids and labels, the
answer in words, the discussion's summary, who decided, the answer's source and the owner's
rationale; not the owner's notes). Never a link, an id of another interaction, or anything
of the owner's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from choice.contract.clock import iso
from choice.core.replies import AgentReply
from choice.store.records import Comment, Interaction, Participant, Widening
from choice.team.discussion import Discussion
from choice.team.thread import ThreadPage


def comment_reply(comment: Comment) -> dict[str, Any]:
    """What posting a comment answers (owner or participant): the comment as stored."""
    return {"id": comment.id, "author": comment.author, "text": comment.text,
            "at": iso(comment.at)}


def _comment(comment: Comment) -> dict[str, Any]:
    return {"id": comment.id or 0, "author": comment.author,
            "participant_id": comment.participant_id, "text": comment.text, "at": iso(comment.at)}


def _for_participant(comment: dict[str, Any]) -> dict[str, Any]:
    """Whose it is, not which participant row."""
    comment["by_owner"] = comment.pop("participant_id") is None
    return comment


def thread_page(comments: Sequence[Comment], before: int | None, *,
                participant: bool) -> dict[str, Any]:
    """A page of the thread: `comments` oldest first, `comments_before` the cursor of the
    page before it (None: nothing is earlier)."""
    shaped = [_comment(c) for c in comments]
    if participant:
        shaped = [_for_participant(c) for c in shaped]
    return {"comments": shaped, "comments_before": before}


def page_reply(page: ThreadPage, *, participant: bool) -> dict[str, Any]:
    """`GET /api/d/<secret>/comments`, `GET /api/interactions/{id}/comments`."""
    return thread_page(page.comments, page.before, participant=participant)


def question_of(discussion: Discussion, *, source_paths: bool = True) -> dict[str, Any]:
    """The question as the team reads it, with the files the agent showed (`attachments`:
    a participant fetches each from `/api/d/<secret>/attachments/{id}`, the owner from
    `/api/interactions/{id}/attachments/{id}`) and the ones each option points at.
    `source_paths`: whether to say where `choice mcp` read each file, a path on the owner's
    machine that only the owner is shown (participants may be outside the team)."""
    request = discussion.request
    return {
        "title": request.title, "prompt": request.prompt,
        "selection_mode": request.selection_mode,
        "max_selections": request.max_selections,
        "options": [{"id": o.id, "label": o.label, "description": o.description,
                     "recommended": o.recommended, "rationale": o.rationale,
                     "attachment_ids": list(o.attachment_ids)}
                    for o in request.options],
        "attachments": [{"id": a.id, "name": a.name, "mime_type": a.mime_type, "size": a.size,
                         "sha256": a.sha256,
                         "source_path": a.source_path if source_paths else None}
                        for a in request.attachments],
    }


def outcome_of(discussion: Discussion) -> dict[str, Any] | None:
    row = discussion.row
    if row.result_json is None:
        return None
    result = row.result_json
    # The deadline ended it when it completed at (or after) its deadline: the service takes
    # no answer after the deadline, so only the expiry completes a question then.
    timed_out = row.status == "timeout" or (row.completed_at or 0) >= row.expires_at
    summary = result.get("summary_json") or {}
    return {"status": row.status, "selected_ids": result.get("selected_ids", []),
            "selected_labels": result.get("selected_labels", []),
            "completed_at": result.get("completed_at"), "timed_out": timed_out,
            "on_timeout": discussion.request.on_timeout if timed_out else None,
            "answer": result.get("custom_input"), "summary": summary.get("text") or None,
            "decided_by": result.get("decided_by"), "source": summary.get("source"),
            "rationale": result.get("rationale") or result.get("withdrawn_reason")}


def deferral_of(discussion: Discussion) -> dict[str, Any] | None:
    """While deferred: when, and the owner's rationale (the team sees it, as the agent does)."""
    decision = discussion.decision
    if discussion.row.status != "deferred" or decision is None:
        return None
    return {"rationale": decision.defer_rationale,
            "deferred_at": iso(decision.deferred_at) if decision.deferred_at else None}


def _common(discussion: Discussion, *, owner: bool) -> dict[str, Any]:
    widening = discussion.widening
    return {
        "interaction_id": discussion.row.id,
        "status": discussion.row.status,
        "open": discussion.is_open,
        "expires_at": iso(discussion.row.expires_at),
        "note": widening.note if widening else None,
        "widened_at": iso(widening.widened_at) if widening else None,
        "question": question_of(discussion, source_paths=owner),
        **thread_page(discussion.comments, discussion.comments_before, participant=False),
        "comment_count": discussion.comment_count,
        "tally": [t.model_dump() for t in discussion.tally()],
        "outcome": outcome_of(discussion),
        "deferred": deferral_of(discussion),
        "quorum_min_votes": discussion.quorum
        if discussion.row.status != "deferred" and discussion.row.result_json is None
        else None,
    }


def participant_payload(discussion: Discussion, me: Participant) -> dict[str, Any]:
    body = _common(discussion, owner=False)
    body.pop("interaction_id")  # the participant needs no handle on the owner's API
    body["comments"] = [_for_participant(c) for c in body["comments"]]
    return {**body, "you": {"name": me.name, "vote": discussion.vote_of(me.id)},
            "participants": [p.name for p in discussion.participants if p.revoked_at is None]}


def owner_payload(discussion: Discussion) -> dict[str, Any]:
    widening = discussion.widening
    return {**_common(discussion, owner=True), "mode": widening.mode if widening else None,
            "participants": [{
                "participant_id": p.id, "name": p.name, "handle": p.handle,
                "invited_at": iso(p.invited_at),
                "opened_at": iso(p.opened_at) if p.opened_at else None,
                "revoked": p.revoked_at is not None, "vote": discussion.vote_of(p.id),
            } for p in discussion.participants]}


class WidenedAgentReply(AgentReply, frozen=True):
    """What a waiting agent gets while its question is widened (`WidenedReply` in
    `choice.team.models` documents it)."""

    interaction_id: str
    session_id: str
    status: str
    action_status: str
    mode: str
    participants: list[str]
    url: str
    expires_at: str
    review_state: str | None
    quorum_min_votes: int | None
    instructions: str

    def under_review(self, note: str) -> AgentReply:
        return replace(self, review_state="candidate_submitted",
                       instructions=note + self.instructions)


def widened_reply(row: Interaction, widening: Widening | None,
                  participants: Sequence[Participant], quorum: int | None,
                  poll_hint: str, url: str) -> WidenedAgentReply:
    """What a waiting agent gets while its question is widened: who was invited, and
    whether it may carry on meanwhile."""
    names = [p.name for p in participants if p.revoked_at is None]
    mode = widening.mode if widening else "block"
    return WidenedAgentReply(
        interaction_id=row.id, session_id=row.id, status="widened",
        action_status="widened", mode=mode, participants=names, url=url,
        expires_at=iso(row.expires_at), review_state=None,
        quorum_min_votes=quorum,
        instructions=(
            f"The human widened this question to {len(names)} "
            f"{'teammate' if len(names) == 1 else 'teammates'} "
            f"({', '.join(names)}); the owner will decide after the discussion. "
            + ("You may carry on with other work meanwhile. " if mode == "continue" else "")
            + f"{poll_hint} An answer given between polls is kept."),
    )
