"""choice/core/extension.py: the registered extensions' facts and replies, combined in
registration order."""

from __future__ import annotations

from choice.contract.result import OptionVotes
from choice.core.extension import CompletionFacts, Extension, Extensions, ReplyHints
from choice.core.replies import AgentReply, Finished
from choice.store.records import Interaction

ROW = Interaction(id="q1", status="widened", title="Which?", selection_mode="single",
                  interface="web", created_at=0.0, expires_at=60.0, request_json={})
VOTES = (OptionVotes(option_id="a", label="A", votes=2, voters=["Ann", "Bo"]),)


class Knows(Extension):
    def __init__(self, facts: CompletionFacts, reply: AgentReply | None = None) -> None:
        self.facts, self.reply = facts, reply

    def completion_facts(self, row: Interaction) -> CompletionFacts:
        return self.facts

    async def agent_reply(self, row: Interaction, reply: AgentReply,
                          hints: ReplyHints) -> AgentReply | None:
        return self.reply


def registered(*extensions: Extension) -> Extensions:
    found = Extensions()
    for extension in extensions:
        found.add(extension)
    return found


def test_an_extension_that_knows_nothing_leaves_the_facts_of_the_others() -> None:
    extensions = registered(Knows(CompletionFacts(participants=("Ann", "Bo"), votes=VOTES)),
                            Knows(CompletionFacts()))
    facts = extensions.completion_facts(ROW)
    assert (facts.participants, facts.votes) == (("Ann", "Bo"), VOTES)


def test_a_later_extensions_facts_win() -> None:
    extensions = registered(Knows(CompletionFacts(participants=("Ann",))),
                            Knows(CompletionFacts(participants=("Bo",))))
    assert extensions.completion_facts(ROW).participants == ("Bo",)


def test_no_extension_means_no_facts() -> None:
    assert registered().completion_facts(ROW) == CompletionFacts()


async def test_the_last_extension_that_replaces_the_reply_has_the_last_word() -> None:
    first = Finished({"action_status": "selected"}, "answered")
    second = Finished({"action_status": "cancelled"}, "cancelled")
    extensions = registered(Knows(CompletionFacts(), first), Knows(CompletionFacts(), second),
                            Knows(CompletionFacts()))
    base = Finished({}, "pending")
    replied = await extensions.agent_reply(ROW, base, ReplyHints("poll"))
    assert replied.to_json() == {"action_status": "cancelled", "status": "cancelled"}


async def test_a_reply_no_extension_replaces_goes_out_as_it_was() -> None:
    base = Finished({"action_status": "selected", "status": "pending"}, "answered")
    replied = await registered(Knows(CompletionFacts())).agent_reply(
        ROW, base, ReplyHints("poll"))
    assert replied.to_json() == {"action_status": "selected", "status": "answered"}
