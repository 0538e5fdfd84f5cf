"""What widening a question writes, decided before anything is written: the participants
with their fresh links (only the hashes are stored), the widening, the deadline it leaves,
the quorum, the audit events, and the warnings for the owner.

In team mode some participants may be members (named by email, found by `TeamService`):
they take part signed in, so their secret is drawn (the column holds a hash) but never
shown; the owner's reply gives the member's signed-in page instead.

Pure apart from drawing the secrets: `TeamService.widen` reads the row, the team list and
the members, and writes the plan in one transaction.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence

from msgspec import Struct

from choice.contract import NAME_MAX, TeamMember
from choice.contract.clock import iso
from choice.core.actors import Actor
from choice.core.endings import audit, request_of
from choice.store.members import Member
from choice.store.records import AuditEvent, Interaction, Participant, Widening
from choice.team.audience import Audience, choose_audience
from choice.team.links import new_secret, secret_hash
from choice.team.models import WidenRequest
from choice.team.quorum import checked_quorum


class WideningPlan(Struct, frozen=True):
    widening: Widening
    participants: list[Participant]
    links: dict[str, str]
    """Each participant's link, by participant id: shown to the owner once."""
    events: list[AuditEvent]
    expires_at: float
    quorum: int | None
    warnings: list[str]


def plan_widening(row: Interaction, asked: WidenRequest, team: Sequence[TeamMember],
                  at: float, actor: Actor, link: Callable[[str], str],
                  members: Sequence[Member] = (),
                  member_link: Callable[[str], str] = str) -> WideningPlan:
    """`InvalidInput` for a bad audience or quorum; `link` makes a secret a link;
    `members`: the members named (team mode), whose link is `member_link(interaction id)`."""
    audience = (choose_audience(team, asked.audience) if asked.audience or not members
                else Audience([], []))
    note = asked.note.strip() if asked.note and asked.note.strip() else None
    expires_at, warnings = row.expires_at, list(audience.warnings)
    if asked.timeout_seconds is not None:
        wanted = at + asked.timeout_seconds
        if wanted >= row.expires_at:
            expires_at = wanted
        else:
            warnings.append("timeout_seconds would shorten the deadline: it was kept at "
                            f"{iso(row.expires_at)}.")
    links: dict[str, str] = {}
    participants = []
    for member in audience.members:
        secret = new_secret()
        participant = Participant(
            id=secrets.token_hex(8), interaction_id=row.id, name=member.name,
            handle=member.handle, email=member.email, secret_hash=secret_hash(secret),
            invited_at=at)
        participants.append(participant)
        links[participant.id] = link(secret)
    for signed_in in members:
        participant = Participant(
            id=secrets.token_hex(8), interaction_id=row.id, name=signed_in.name[:NAME_MAX],
            email=signed_in.email, secret_hash=secret_hash(new_secret()), invited_at=at,
            member_id=signed_in.id)
        participants.append(participant)
        links[participant.id] = member_link(row.id)
    quorum = checked_quorum(request_of(row), asked.quorum or request_of(row).quorum,
                            len(participants), "quorum.min_votes" if asked.quorum else
                            "request's quorum.min_votes")
    widening = Widening(interaction_id=row.id, mode=asked.mode, note=note, widened_at=at,
                        widened_by=actor.stored, last_activity_at=at)
    events = [audit(row.id, "widened", actor, {
        "mode": asked.mode, "audience": [p.name for p in participants],
        "note": note is not None, "expires_at": iso(expires_at), "quorum": quorum}, at)]
    events += [audit(row.id, "participant_invited", actor,
                     {"participant_id": p.id, "name": p.name, **member_detail(p)}, at)
               for p in participants]
    if expires_at != row.expires_at:
        events.append(audit(row.id, "deadline_changed", actor,
                            {"from": row.expires_at, "to": expires_at}, at))
    return WideningPlan(widening, participants, links, events, expires_at, quorum, warnings)


def member_detail(participant: Participant) -> dict[str, str]:
    """What an audit event's detail adds for a participant who is a member: who they are."""
    if participant.member_id is None:
        return {}
    return {"member_id": participant.member_id, "member": participant.email or ""}
