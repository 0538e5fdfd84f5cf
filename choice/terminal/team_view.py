"""A widened question as the terminal shows it: the portal's `GET .../team` reply (who was
invited, who opened their link, the newest 50 comments, the votes) and this terminal's own widen reply
(the links, shown only here), made safe to draw.

Names come from the owner's team list or the owner's typing, comments from participants:
every string passes through `safe_text` here, once, so nothing later can forget to. No
drawing and no network here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from choice.contract.clock import parse_iso
from choice.terminal.text import safe_text


def _line(value: Any) -> str:
    return safe_text(str(value or ""), keep_newlines=False)


@dataclass(frozen=True)
class Member:
    name: str
    opened: bool


@dataclass(frozen=True)
class Message:
    author: str
    text: str


@dataclass(frozen=True)
class TeamView:
    mode: str
    """`block` (the agent waits) or `continue` (the agent was told and carries on)."""
    widened_at: float | None
    expires_at: float | None
    members: list[Member]
    messages: list[Message]
    """The newest comments (the portal sends the newest 50), oldest first."""
    votes: dict[str, list[str]]
    """Option id -> the names of those who back it, in the order they voted."""
    message_count: int = 0
    """How many comments the whole thread holds."""

    @classmethod
    def from_team(cls, payload: dict[str, Any]) -> TeamView:
        return cls(
            mode=str(payload.get("mode") or "block"),
            widened_at=parse_iso(payload["widened_at"]) if payload.get("widened_at") else None,
            expires_at=parse_iso(payload["expires_at"]) if payload.get("expires_at") else None,
            members=[Member(_line(p.get("name")), bool(p.get("opened_at")))
                     for p in payload.get("participants") or [] if not p.get("revoked")],
            messages=[Message(_line(m.get("author")), _line(m.get("text")))
                      for m in payload.get("comments") or []],
            votes={str(t.get("option_id")): [_line(name) for name in t.get("voters") or []]
                   for t in payload.get("tally") or []},
            message_count=int(payload.get("comment_count") or 0),
        )


@dataclass(frozen=True)
class Invitation:
    """What this terminal's widen call returned: each participant's link (the portal keeps
    only its hash, so this is the one chance to see it) and the portal's warnings."""

    names: list[str]
    links: list[tuple[str, str]]
    warnings: list[str]

    @classmethod
    def from_reply(cls, reply: dict[str, Any]) -> Invitation:
        people = reply.get("participants") or []
        return cls(names=[_line(p.get("name")) for p in people],
                   links=[(_line(p.get("name")), _line(p.get("link")))
                          for p in people if p.get("link")],
                   warnings=[_line(w) for w in reply.get("warnings") or []])
