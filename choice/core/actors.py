"""Who did something to a question: `Actor`, a kind and a channel, and its stored spelling.

The audit trail stores an actor as one string (`human:web`, `agent:mcp`,
`participant:16ec6a43db3636db`, `system`), and the events API, the MCP tools and the
webhooks emit it as stored: users' databases and scripts read those strings, so the spelling
never changes. `Actor.parse` reads one and `Actor.stored` writes one; nothing else in the code
builds or takes apart an actor's string. Everything else asks the type (`is_owner`,
`answered_via`, ...).

Kinds: the `agent` that asked, the question's `owner` (a person; stored as `human`), a
`participant` of a widened question (by their id), and the portal itself (`system`).
Channels: where the act came from. A channel may be unrecorded (`agent`, `human`: what
older releases and the plain REST calls store).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from choice.contract.vocabulary import AnsweredVia

ActorKind = Literal["agent", "owner", "participant", "system"]
Channel = Literal["web", "terminal", "client", "api", "mcp", "hook", "team"]
"""`web`: the portal's page; `terminal`: `choice answer`'s terminal UI; `client`: the MCP
client's own form (elicitation); `api`: a REST call with the token; `mcp`: an MCP tool;
`hook`: `choice hook`; `team`: the owner's team actions (widen, revoke over the API, the
owner's own comments), stored as `human:owner`."""

_PREFIX: dict[ActorKind, str] = {"agent": "agent", "owner": "human",
                                 "participant": "participant", "system": "system"}
_KIND_OF = {prefix: kind for kind, prefix in _PREFIX.items()}
_TAG: dict[Channel, str] = {"team": "owner"}
"""A channel stored under another word (the rest are stored as named)."""
_CHANNEL_OF: dict[str, Channel] = {_TAG.get(c, c): c for c in get_args(Channel)}


@dataclass(frozen=True, slots=True)
class Actor:
    kind: ActorKind
    channel: Channel | None = None
    """None: not recorded (`agent`, `human`, a participant, `system`)."""
    participant_id: str | None = None
    """A participant's id (`participant` only)."""

    @classmethod
    def parse(cls, stored: str) -> Actor:
        """The actor an audit row's string names; `ValueError` saying what is wrong for a
        string no release has written."""
        prefix, colon, rest = stored.partition(":")
        kind = _KIND_OF.get(prefix)
        if kind is None:
            raise ValueError(f"actor {stored!r}: it starts with {prefix!r}, which is none of "
                             f"{', '.join(sorted(_KIND_OF))}")
        if kind == "participant":
            if not rest:
                raise ValueError(f"actor {stored!r}: a participant's actor names its id, "
                                 "as in 'participant:16ec6a43db3636db'")
            return cls("participant", None, rest)
        if not colon:
            return cls(kind)
        channel = _CHANNEL_OF.get(rest)
        if channel is None or kind == "system":
            raise ValueError(f"actor {stored!r}: {rest!r} is not a channel of {prefix!r} "
                             f"(one of {', '.join(sorted(_CHANNEL_OF))})")
        return cls(kind, channel)

    @property
    def stored(self) -> str:
        """The string the audit trail keeps and the API emits."""
        prefix = _PREFIX[self.kind]
        if self.kind == "participant":
            return f"{prefix}:{self.participant_id}"
        if self.channel is None:
            return prefix
        return f"{prefix}:{_TAG.get(self.channel, self.channel)}"

    @classmethod
    def owner(cls, channel: Channel) -> Actor:
        return cls("owner", channel)

    @classmethod
    def agent(cls, channel: Channel) -> Actor:
        return cls("agent", channel)

    @classmethod
    def participant(cls, participant_id: str) -> Actor:
        return cls("participant", None, participant_id)

    def __str__(self) -> str:
        return self.stored

    @property
    def is_owner(self) -> bool:
        """The question's owner, a person, did it (from any channel)."""
        return self.kind == "owner"

    @property
    def answered_via(self) -> AnsweredVia | None:
        """How an answer by this actor arrived: the page, the terminal, the MCP client's
        form, an MCP tool, the REST API; an owner's act from anywhere else is the API's.
        None for the portal and anything a participant or a hook does."""
        if self.channel in get_args(AnsweredVia):
            return self.channel  # type: ignore[return-value]
        return "api" if self.kind == "owner" else None

    @property
    def at_a_screen(self) -> bool:
        """The owner acting at the page or the terminal UI (not through a script)."""
        return self.kind == "owner" and self.channel in ("web", "terminal")


MEMBER_SCOPE_KEY = "choice.member_id"
"""Team mode: the ASGI scope key under which the web transport hands the requesting
member's id (None: none proved) to the app it mounts (the MCP app under `/mcp`)."""

SYSTEM = Actor("system")
"""The portal itself: deadlines, reminders, the quorum, webhooks' outcomes."""
AGENT = Actor("agent")
"""An agent whose channel is not recorded (a REST `create`, a candidate summary)."""
OWNER = Actor("owner")
"""The owner, channel not recorded (what older releases stored as `human`)."""
OWNER_API = Actor("owner", "api")
"""The owner through the REST API with the token."""
OWNER_TEAM = Actor("owner", "team")
"""The owner's team actions (stored `human:owner`)."""


MEMBER_ACTORS = frozenset(Actor(kind, channel).stored for kind in ("owner", "agent")
                          for channel in (None, *get_args(Channel)))
"""Team mode: the stored actors whose audit events name the question's member (its owner's
acts, and its agent's: the agent's token is that member's)."""
