"""`list_pending`: the end-of-run pass of an agent. What is still open, pending
or widened, each with the `session_id` to poll for the final result. On a team server,
apart from those and marked as such (`widened_to_me`), the questions other members widened
to the caller's member (the same rows as `GET /api/interactions`' `widened_to_me`): not
the agent's to poll, but its person may want to know.

Reads only, through the interaction service and its team repository (the same rows
`GET /api/interactions?status=...` lists); it must not change anything, and it gives no
link or secret of a participant: only names.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from choice.contract import FieldError
from choice.contract.clock import iso
from choice.contract.field_errors import InvalidInput
from choice.contract.model import Model
from choice.core.service import InteractionService
from choice.decision.service import DecisionService
from choice.team.models import WidenMode
from choice.team.service import TeamService

PendingFilter = Literal["active", "pending", "widened", "deferred"]
FILTERS: tuple[PendingFilter, ...] = ("active", "pending", "widened", "deferred")
LIMIT = 100


class PendingEntry(Model):
    session_id: str = Field(description="Call provide_choice with only this to poll it.")
    title: str
    status: Literal["pending", "widened", "deferred"]
    mode: WidenMode | None = Field(description="How it was widened; null while pending.")
    participants: list[str] = Field(description="The teammates invited (none while pending).")
    expires_at: str
    created_at: str
    rationale: str | None = Field(default=None,
                                  description="Why the owner deferred it (deferred only).")
    agent: str | None
    project: str | None


class WidenedToMeEntry(Model):
    interaction_id: str = Field(description="Another member's question: not yours to poll.")
    title: str
    status: Literal["widened"]
    expires_at: str
    created_at: str
    link: str = Field(description="Where your person takes part, signed in.")


class PendingList(Model):
    """The structured content of `list_pending`."""

    interactions: list[PendingEntry]
    instructions: str
    widened_to_me: list[WidenedToMeEntry] | None = Field(
        default=None,
        description="Team server only: questions other members widened to your person, "
                    "still under discussion. Not yours: tell your person if it helps; never "
                    "poll or answer them.")

    def structured(self) -> dict[str, object]:
        """The tool's `structuredContent`: without `widened_to_me` in local mode."""
        return self.model_dump(exclude=None if self.widened_to_me is not None
                               else {"widened_to_me"})


def _status(arguments: dict[str, object]) -> PendingFilter:
    unknown = sorted(set(arguments) - {"status"})
    wanted = arguments.get("status", "active")
    errors = [FieldError(field=name, code="unknown_field",
                         message=f"list_pending takes only `status`: leave {name!r} out.")
              for name in unknown]
    if wanted not in FILTERS:
        errors.append(FieldError(field="status", code="invalid_choice",
                                 message="status must be 'active' (pending and widened), "
                                         "'pending', 'widened' or 'deferred'."))
    if errors:
        raise InvalidInput(errors)
    return wanted  # type: ignore[return-value]


async def pending_list(service: InteractionService, team: TeamService, decision: DecisionService,
                       arguments: dict[str, object], member_id: str | None = None,
                       ) -> PendingList:
    """The open interactions the filter in `arguments` names; `InvalidInput` for a bad one.
    `member_id`: in team mode, only that member's."""
    status = _status(arguments)
    rows = await service.recent("active" if status == "pending" else status, LIMIT, member_id)
    rows = [row for row in rows if status != "pending" or row.status == "pending"]
    widened = [row.id for row in rows if row.status != "pending"]
    decisions = await service.store.scan(decision.repo.decisions,
                                         [row.id for row in rows if row.status == "deferred"])
    widenings = await service.store.scan(team.repo.widenings, widened)
    names = {}
    for interaction_id in widened:
        participants = await service.store.read(team.repo.participants, interaction_id)
        names[interaction_id] = [p.name for p in participants if p.revoked_at is None]
    entries = [PendingEntry(
        session_id=row.id, title=row.title, status=row.status,  # type: ignore[arg-type]
        mode=widenings[row.id].mode if row.id in widenings else None,  # type: ignore[arg-type]
        participants=names.get(row.id, []), expires_at=iso(row.expires_at),
        created_at=iso(row.created_at), agent=row.agent, project=row.project,
        rationale=decisions[row.id].defer_rationale if row.id in decisions else None)
        for row in rows]
    if entries and status == "deferred":
        instructions = (f"{len(entries)} question(s) deferred by the owner (see each "
                        "rationale): not answers; carry on without them. Poll one with only "
                        '{"session_id": ...} later to see whether it was resolved.')
    elif entries:
        instructions = (f"{len(entries)} question(s) still open. For each one you still need, "
                        'call provide_choice with only {"session_id": ...} to collect the '
                        "final result; do not ask them again.")
    elif status == "deferred":
        instructions = "Nothing is deferred."
    else:
        instructions = "Nothing is open: every question has its final result."
    if member_id is None:
        return PendingList(interactions=entries, instructions=instructions)
    theirs = await team.widened_to(member_id, limit=LIMIT)
    return PendingList(interactions=entries, instructions=instructions, widened_to_me=[
        WidenedToMeEntry(interaction_id=row.id, title=row.title, status="widened",
                         expires_at=iso(row.expires_at), created_at=iso(row.created_at),
                         link=team.member_link(row.id)) for row in theirs])
