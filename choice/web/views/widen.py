"""The widen dialog's state as a page shows it: the team list, what the owner typed, the
errors, and once widened the links shown only then; and the agent's widen hint as a person
reads it. Shaping only: `choice.team` decides who is invited and what a widening does.
"""

from __future__ import annotations

from msgspec import Struct, field

from choice.contract import FieldError, TeamMember
from choice.store.members import Member
from choice.team.service import Invited

EXTRA_TIME_CHOICES = (0, 1800, 3600, 7200, 14400, 28800, 86400)
"""The widen dialog's "give the team more time" choices, in seconds (0: keep the deadline)."""
WIDEN_HINT_MARK = "[WIDEN-HINT]"
"""How an agent may mark its widen hint: a tag for machines, not for people (never shown)."""


def shown_hint(widen_hint: str | None) -> str:
    """The agent's widen hint as a person reads it: without a leading `[WIDEN-HINT] `."""
    text = (widen_hint or "").strip()
    return text.removeprefix(WIDEN_HINT_MARK).strip() if text.startswith(WIDEN_HINT_MARK) \
        else text


class WidenForm(Struct, frozen=True):
    """The widen dialog: the team list, what the owner typed, and what came of it."""

    interaction_id: str
    title: str
    team: list[TeamMember]
    names: str = ""
    mode: str = "block"
    note: str = ""
    extra_seconds: int = 0
    quorum: str = ""
    hint: str = ""
    """The agent's widen hint (`shown_hint`), shown dimmed under the title."""
    owner_decides: bool = False
    """Only the owner decides it (`choice.team.quorum.owner_decides`): no quorum field; the
    dialog says the team only advises."""
    errors: list[FieldError] = field(default_factory=list)
    notice: str | None = None
    invited: Invited | None = None
    team_mode: bool = False
    """A team server: the dialog offers its members (`members`) beside the guest names."""
    members: list[Member] = field(default_factory=list)
    """Team mode: the members the owner may name (who have signed in here, not the owner)."""
    named: list[str] = field(default_factory=list)
    """The members' emails the owner ticked (kept when the form comes back with an error)."""

    @property
    def extra_choices(self) -> tuple[int, ...]:
        return EXTRA_TIME_CHOICES

    @property
    def quorum_error(self) -> str | None:
        """The quorum's error, shown beside its field."""
        return next((e.message for e in self.errors if e.field.startswith("quorum")), None)

    @property
    def other_errors(self) -> list[FieldError]:
        return [e for e in self.errors if not e.field.startswith("quorum")]
