"""The widen dialog (docs/guides/team-mode.md): who to invite, then whether the agent waits.

Two steps, the same for curses and plain lines: the audience (Enter = the whole team list;
comma-separated names trim it; `cancel` aborts) and block-or-continue. On a team server
(`team_mode`) an entry with an `@` is a member's email: that member takes part signed in;
named alone, members are the whole audience (the portal's rule for `members`). The names are read
with `choice.team.audience`, the rules the portal applies, only to show the owner who will
be invited before asking b/c; the portal matches them again when it widens, and its reply
is what counts. Nothing here talks to the portal or draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from choice.contract import TeamMember
from choice.contract.field_errors import InvalidInput
from choice.team.audience import choose_audience, is_cancel, split_names
from choice.terminal.text import safe_text

WidenStep = Literal["audience", "mode"]
Mode = Literal["block", "continue"]
MODES: dict[str, Mode] = {"": "block", "b": "block", "block": "block",
                          "c": "continue", "continue": "continue"}


def team_of(settings: dict[str, Any]) -> list[TeamMember]:
    """The saved team list (`GET /api/settings`); a malformed entry is left out, and the
    portal, which validated the list when it was saved, has the last word anyway."""
    members = []
    for entry in settings.get("team") or []:
        try:
            members.append(TeamMember.model_validate(entry))
        except ValueError:
            continue
    return members


@dataclass
class WidenDialog:
    title: str
    team: Sequence[TeamMember]
    step: WidenStep = "audience"
    typed: str = ""
    """What the owner typed at `Audience >` (the curses editor's text)."""
    names: list[str] | None = None
    """The names to send: None for the whole team."""
    chosen: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str = ""
    team_mode: bool = False
    """A team server: entries with an `@` name members by email."""
    members: list[str] | None = None
    """Team mode: the members' emails to send (None: nobody named)."""

    @property
    def team_names(self) -> list[str]:
        return [safe_text(member.name, keep_newlines=False) for member in self.team]

    def take_audience(self, line: str) -> Literal["cancel", "retry", "next"]:
        """The `Audience >` line: cancel, a mistake to fix (`error` says which), or on to b/c."""
        self.error = ""
        if is_cancel(line):
            return "cancel"
        names = split_names(line)
        emails = [name for name in names if "@" in name] if self.team_mode else []
        names = [name for name in names if name not in emails]
        try:  # members named alone: no guest (the portal invites nobody else either)
            audience = choose_audience(self.team, names or None) if names or not emails \
                else None
        except InvalidInput as invalid:
            self.error = safe_text(" ".join(e.message for e in invalid.errors),
                                   keep_newlines=False)
            return "retry"
        self.names, self.members = names or None, emails or None
        self.chosen = [safe_text(m.name, keep_newlines=False)
                       for m in (audience.members if audience else [])]
        self.chosen += [safe_text(email, keep_newlines=False) for email in emails]
        self.warnings = [safe_text(w, keep_newlines=False)
                         for w in (audience.warnings if audience else [])]
        self.step = "mode"
        return "next"

    def take_mode(self, line: str) -> Mode | None:
        """`b`, `c` or Enter (= b); None for anything else."""
        return MODES.get(line.strip().lower())

    def request(self, mode: Mode) -> dict[str, Any]:
        """The widen call's body (what `Effect("widen")` carries)."""
        return {"audience": self.names, "mode": mode,
                **({"members": self.members} if self.members else {})}
