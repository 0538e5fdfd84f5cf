"""What a new question is stored as: its row and the audit events of its creation (`created`,
with the context, the timeout and the warnings the agent was told, and one
`attachment_added` per file it shows). `InteractionService.create` stores them in one
transaction and returns them as `Created`.
"""

from __future__ import annotations

from msgspec import Struct

from choice.contract import ChoiceRequest
from choice.core.actors import Actor
from choice.core.endings import audit, file_added
from choice.store.records import AuditEvent, Interaction, StoredFile

NO_CLIENT_WARNING = (
    "interface 'client' asks inside an MCP client that supports elicitation; this request "
    "did not come from one, so it is asked in the {interface} interface instead.")


class Created(Struct, frozen=True):
    """A question just stored, and the warnings the agent is told with it."""

    row: Interaction
    warnings: list[str]


def stored_question(req: ChoiceRequest, interaction_id: str, created: float,
                    show_placeholder: bool, warnings: list[str], files: list[StoredFile],
                    actor: Actor, member_id: str | None = None,
                    ) -> tuple[Interaction, list[AuditEvent]]:
    """`req` is validated and fully decided: a timeout, and an interface other than `auto`.
    `member_id`: in team mode, the member it belongs to."""
    assert req.timeout_seconds is not None and req.interface != "auto"
    row = Interaction(
        id=interaction_id, status="pending", title=req.title,
        selection_mode="questions" if req.several else req.selection_mode,
        interface=req.interface,
        agent=req.context.agent, project=req.context.project, language=req.language,
        placeholder_shown=show_placeholder and any(
            question.placeholder for question in req.asked()),
        created_at=created, expires_at=created + req.timeout_seconds,
        request_json=req.model_dump(mode="json"), member_id=member_id,
    )
    detail = {"context": req.context.model_dump(exclude_none=True),
              "timeout_seconds": req.timeout_seconds, "warnings": warnings}
    events = [audit(row.id, "created", actor, detail, at=created),
              *(file_added(file, actor, created) for file in files)]
    return row, events
