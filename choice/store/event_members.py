"""Team mode: the audit events of a question's owner and of its agent name the member whose
question it is (`member`: their email), as `answered` and `resolved` already did.

Added where every audit event is written (`Repository.add_events`), inside the writing
transaction, with one read for the batch: no call site has to remember it. Which actors
count is the core's to say: their stored spellings are handed over by the composition root
(the store never takes an actor's string apart). An event whose detail already has a
`member` keeps it (an invitation names the member invited). A portal in local mode never
turns this on, so its events stay as they always were.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from msgspec.structs import replace
from sqlalchemy import Connection, select

from choice.store.records import AuditEvent
from choice.store.tables import INTERACTIONS, MEMBERS

OWNER_EMAIL = (select(INTERACTIONS.c.id, MEMBERS.c.email)
               .join(MEMBERS, MEMBERS.c.id == INTERACTIONS.c.member_id))


def names_member(event: AuditEvent, actors: Collection[str]) -> bool:
    return event.actor in actors and "member" not in (event.detail_json or {})


def with_members(conn: Connection, events: Sequence[AuditEvent], actors: Collection[str]
                 ) -> Sequence[AuditEvent]:
    """`events`, each act of one of `actors` naming its question's member (a question
    without one, asked before team mode, names none)."""
    wanted = {event.interaction_id for event in events if names_member(event, actors)}
    if not wanted:
        return events
    emails: dict[str, str] = {
        interaction_id: email for interaction_id, email in
        conn.execute(OWNER_EMAIL.where(INTERACTIONS.c.id.in_(wanted)))}
    return [replace(event, detail_json={**(event.detail_json or {}),
                                        "member": emails[event.interaction_id]})
            if event.interaction_id in emails and names_member(event, actors) else event
            for event in events]
