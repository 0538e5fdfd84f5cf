"""The team messages a webhook carries, as our event JSON (format-neutral; `formats.py` turns
one into a Slack message or a signed JSON body at send time).

Six kinds: `interaction.created` (opt-in: the whole question and the request's context, for
a chat UI), `interaction.widened` (the question, the note, the mode, the deadline and each
participant with THEIR LINK), `discussion.comments` (coalesced: the count and the newest few
texts, shortened), `interaction.reminder` (`reason` `discussion_idle`: idle since when,
who opened and voted; `unopened` or `deadline`: a question still waiting for its person),
`interaction.resolved` (answered, cancelled or timed out, the chosen labels, who decided and
where the answer came from) and `interaction.deferred` (set aside, with the owner's
rationale; the discussion stays open).

Every event's `question` carries its `language` (null: the portal's, which the Slack format
then speaks). Every event has an `id` made once, at enqueue: a receiver that sees it twice (a retry after
a lost reply) can drop the copy; and `schema_version` (1), as every schema here has.
Pure functions: no database, no network, no clock. Everything in an event except our own
field names is untrusted text (a model's question, a participant's comment); escaping it is
the format's job.
"""

from __future__ import annotations

import secrets
from typing import Any, Literal

from choice.contract import SCHEMA_VERSION
from choice.contract.clock import iso
from choice.core.endings import request_of
from choice.core.replies import whole_question
from choice.store.records import Comment, Interaction
from choice.team.discussion import Discussion
from choice.team.service import Invited

EventKind = Literal["interaction.created", "interaction.widened", "discussion.comments",
                    "interaction.reminder", "interaction.resolved", "interaction.deferred"]
Event = dict[str, Any]
NEWEST_COMMENTS = 3
"""How many comment texts one coalesced message quotes (the count covers the rest)."""
COMMENT_CHARS = 280
PROMPT_CHARS = 1_000


def shortened(text: str, limit: int) -> str:
    """One paragraph at most `limit` characters, an ellipsis where it was cut."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _question(row: Interaction, link_base: str) -> dict[str, Any]:
    request = request_of(row)
    return {
        "interaction_id": row.id, "title": request.title,
        "prompt": shortened(request.prompt or "", PROMPT_CHARS),
        "options": [{"id": o.id, "label": o.label, "recommended": o.recommended}
                    for o in request.options],
        "expires_at": iso(row.expires_at),
        "url": f"{link_base}/choice/{row.id}",
        "language": row.language,
    }


def _event(kind: EventKind, row: Interaction, link_base: str, at: float,
           **fields: Any) -> Event:
    return {"id": secrets.token_hex(16), "type": kind, "schema_version": SCHEMA_VERSION,
            "at": iso(at), "question": _question(row, link_base), **fields}


def without_links(event: Event) -> Event:
    """The stored event once it is settled (delivered or given up on): every participant's
    link removed, so the outbox holds a capability only while it may still be sent. A new
    event; the one given is left as it was."""
    participants = event.get("participants")
    if not isinstance(participants, list):  # only an invitation lists people (a reminder: a count)
        return event
    return {**event, "participants": [
        {**participant, "link": None}
        if isinstance(participant, dict) and "link" in participant else participant
        for participant in participants]}


def created(row: Interaction, link_base: str) -> Event:
    """A new question as a chat UI shows it: every field the human sees (`whole`, with
    several questions' `questions`) and who asks (`context`: agent, conversation_id,
    tool_call_id, project), so the UI can block that conversation's input meanwhile."""
    request = request_of(row)
    return _event("interaction.created", row, link_base, row.created_at,
                  whole=whole_question(request).to_json(),
                  context=request.context.model_dump(exclude_none=True))


def widened(invited: Invited, link_base: str) -> Event:
    """The invitation: carries every participant's link, a capability (see `outbox.py`)."""
    widening = invited.widening
    return _event("interaction.widened", invited.row, link_base, widening.widened_at,
                  mode=widening.mode, note=widening.note,
                  participants=[{"name": p.name, "handle": p.handle, "link": p.link}
                                for p in invited.participants])


def comments(row: Interaction, link_base: str, comment: Comment) -> Event:
    """The first comment of a coalescing window; `add_comment` adds the next ones."""
    event = _event("discussion.comments", row, link_base, comment.at, count=0, comments=[])
    return add_comment(event, comment)


def add_comment(event: Event, comment: Comment) -> Event:
    quoted = [*event["comments"], {"author": comment.author, "at": iso(comment.at),
                                   "text": shortened(comment.text, COMMENT_CHARS)}]
    return {**event, "at": iso(comment.at), "count": event["count"] + 1,
            "comments": quoted[-NEWEST_COMMENTS:]}


def _tally(discussion: Discussion) -> list[dict[str, Any]]:
    return [{"option_id": t.option_id, "label": t.label, "votes": t.votes}
            for t in discussion.tally()]


def reminder(discussion: Discussion, link_base: str, at: float) -> Event:
    row, widening = discussion.row, discussion.widening
    idle_since = widening.last_activity_at if widening else row.created_at
    invited = [p for p in discussion.participants if p.revoked_at is None]
    return _event("interaction.reminder", row, link_base, at, reason="discussion_idle",
                  idle_since=iso(idle_since), idle_minutes=int((at - idle_since) // 60),
                  participants=len(invited),
                  opened=sum(1 for p in invited if p.opened_at is not None),
                  voted=len({v.participant_id for v in discussion.votes} & {p.id for p in invited}),
                  comments=discussion.comment_count, tally=_tally(discussion))


def waiting_reminder(row: Interaction, link_base: str, data: dict[str, Any], at: float) -> Event:
    """A question still waiting for its person: nobody opened it (`reason` `unopened`, with
    `waiting_minutes`), or its last minute began (`deadline`, with `seconds_left`)."""
    return _event("interaction.reminder", row, link_base, at, reason=data["reason"],
                  waiting_minutes=data.get("waiting_minutes"),
                  seconds_left=data.get("seconds_left"))


def outcome(row: Interaction) -> str:
    """`answered`, `cancelled`, `withdrawn` (by the agent) or `timed_out` (a cancel at the
    deadline is a time-out: the request asked to cancel then; a person's cancel is always
    before it)."""
    if row.status == "submitted":
        return "answered"
    if row.status == "withdrawn":
        return "withdrawn"
    if row.status == "cancelled" and (row.completed_at or 0) < row.expires_at:
        return "cancelled"
    return "timed_out"


def resolved(discussion: Discussion, link_base: str) -> Event:
    """The decision as a participant's page shows it: the labels, not the notes; with who
    decided (`owner`, `quorum`, null when the deadline did) and, for a decision written
    back, where the answer came from (`summary_json.source`: discussion_extraction,
    owner_override, manual, quorum; null otherwise)."""
    row = discussion.row
    result = row.result_json or {}
    summary_json = result.get("summary_json") or {}
    return _event("interaction.resolved", row, link_base, row.completed_at or row.created_at,
                  status=row.status, outcome=outcome(row),
                  selected_labels=result.get("selected_labels", []),
                  decided_by=result.get("decided_by"), source=summary_json.get("source"),
                  tally=_tally(discussion))


def deferred(discussion: Discussion, link_base: str, rationale: str, at: float) -> Event:
    """The owner set the question aside: why (the rationale is written for the team and the
    agent), and that the discussion stays open."""
    return _event("interaction.deferred", discussion.row, link_base, at,
                  rationale=shortened(rationale, COMMENT_CHARS * 4), tally=_tally(discussion))
