"""The extension protocol: how a feature (team, decision, drafts, reminders, webhooks, other
instances) plugs into the core without the core naming it.

A feature subclasses `Extension` and overrides the hooks it needs; the composition root
(`choice/portal.py`) registers it on the service (`InteractionService.extensions`). The
core calls every registered extension, in registration order, at these points:

- `start` / `stop`: with the service (stopped in reverse order);
- `completion_facts`: inside the transaction that ends a question, on the store's writer
  thread: `CompletionFacts` the result carries (a widened question's teammates and votes).
  Synchronous and quick; it must not write;
- `on_completed`: right after a question ended (its row committed), before anyone is told:
  drop what the feature held for it (a held draft, a review's timer);
- `agent_turn`: whether a waiting agent has something to do now (the owner asked it for a
  summary): its wait returns at once;
- `agent_reply`: what an agent gets for a question that has no result yet, given the reply
  so far (an `AgentReply`: each extension may replace it; the last word wins);
- `shared_discussion`: the discussion a question was widened to, for whoever summarises it;
- `resync`: other instances may have changed things unheard: set timers again;
- `reacted`: an awaited reaction to a change made in this process (a question taken up
  again may already have its quorum).

Must not: import any feature. Hooks default to doing nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from msgspec import Struct

from choice.contract.result import OptionVotes

if TYPE_CHECKING:
    from choice.contract.result import DiscussionData
    from choice.core.notifier import Change
    from choice.core.replies import AgentReply
    from choice.store.records import Interaction


class CompletionFacts(Struct, frozen=True):
    """What a feature knows of a question as it ends, for its result (the fields of the
    same names on `choice.contract.normalize.Completion`). Empty means it knows nothing."""

    participants: tuple[str, ...] = ()
    """A widened question's teammates (links withdrawn left out)."""
    votes: tuple[OptionVotes, ...] = ()
    """Their votes, per option."""

    def merged(self, other: CompletionFacts) -> CompletionFacts:
        """These facts with what `other` knows on top (a later extension's word wins)."""
        return CompletionFacts(participants=other.participants or self.participants,
                               votes=other.votes or self.votes)


NO_FACTS = CompletionFacts()


class ReplyHints(Struct, frozen=True):
    """How the asking agent reaches the portal, for the words of its reply."""

    poll_hint: str
    """How to poll again (the MCP tool call, or the HTTP request)."""
    candidate_hint: str | None = None
    """How to send a candidate summary (the MCP tool; the HTTP endpoint when None)."""
    agent_turns: bool = True
    """False for a poller that cannot write a summary (`choice ask`, the Python client)."""


class Extension:
    """A feature plugged into the core. Every hook has a default that does nothing."""

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    def completion_facts(self, row: Interaction) -> CompletionFacts:
        """What this feature knows of `row` as it ends (nothing, by default)."""
        return NO_FACTS

    def on_completed(self, row: Interaction) -> None:
        return None

    async def agent_turn(self, row: Interaction) -> bool:
        return False

    async def agent_reply(self, row: Interaction, reply: AgentReply,
                          hints: ReplyHints) -> AgentReply | None:
        """A reply that replaces `reply`, or None to leave it."""
        return None

    async def shared_discussion(self, row: Interaction) -> DiscussionData | None:
        return None

    async def resync(self) -> None:
        """Other instances may have changed what this one did not hear: set any timers
        again from the database."""
        return None

    async def reacted(self, change: Change) -> None:
        return None


class Extensions:
    """The registered extensions, called in order."""

    def __init__(self) -> None:
        self._all: list[Extension] = []

    def add(self, extension: Extension) -> None:
        self._all.append(extension)

    def __iter__(self) -> Iterator[Extension]:
        return iter(self._all)

    async def start(self) -> None:
        for extension in self._all:
            await extension.start()

    async def stop(self) -> None:
        for extension in reversed(self._all):
            await extension.stop()

    def completion_facts(self, row: Interaction) -> CompletionFacts:
        facts = NO_FACTS
        for extension in self._all:
            facts = facts.merged(extension.completion_facts(row))
        return facts

    def completed(self, row: Interaction) -> None:
        for extension in self._all:
            extension.on_completed(row)

    async def agent_turn(self, row: Interaction) -> bool:
        for extension in self._all:
            if await extension.agent_turn(row):
                return True
        return False

    async def agent_reply(self, row: Interaction, reply: AgentReply,
                          hints: ReplyHints) -> AgentReply:
        for extension in self._all:
            reply = await extension.agent_reply(row, reply, hints) or reply
        return reply

    async def shared_discussion(self, row: Interaction) -> DiscussionData | None:
        for extension in self._all:
            found = await extension.shared_discussion(row)
            if found is not None:
                return found
        return None

    async def react(self, change: Change) -> None:
        for extension in self._all:
            await extension.reacted(change)

    async def resync(self) -> None:
        for extension in self._all:
            await extension.resync()
