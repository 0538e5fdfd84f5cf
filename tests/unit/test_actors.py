"""`choice/core/actors.py`: an actor read from and written to the audit trail's string, and what
it says about an answer (where it came from, whether a person gave it)."""

from __future__ import annotations

import pytest

from choice.core.actors import SYSTEM, Actor

EVERY_STORED_ACTOR = [
    # what releases have written, and the events API still emits unchanged
    "system", "agent", "agent:api", "agent:mcp", "agent:hook", "human", "human:web",
    "human:terminal", "human:api", "human:client", "human:owner",
    "participant:16ec6a43db3636db",
]


@pytest.mark.parametrize("stored", EVERY_STORED_ACTOR)
def test_every_stored_actor_reads_and_writes_back_unchanged(stored: str) -> None:
    assert Actor.parse(stored).stored == stored
    assert str(Actor.parse(stored)) == stored


def test_a_stored_actor_names_its_kind_and_channel() -> None:
    assert Actor.parse("human:terminal") == Actor("owner", "terminal")
    assert Actor.parse("agent:mcp") == Actor.agent("mcp")
    assert Actor.parse("human:owner") == Actor.owner("team")
    assert Actor.parse("human") == Actor("owner")
    assert Actor.parse("participant:p1") == Actor.participant("p1")
    assert Actor.parse("system") == SYSTEM


@pytest.mark.parametrize(("stored", "says"), [
    ("robot:web", "'robot', which is none of agent, human, participant, system"),
    ("human:fax", "'fax' is not a channel of 'human'"),
    ("system:web", "'web' is not a channel of 'system'"),
    ("participant:", "a participant's actor names its id"),
])
def test_a_string_no_release_wrote_is_refused_with_what_is_wrong(stored: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        Actor.parse(stored)


@pytest.mark.parametrize(("stored", "via"), [
    ("human:web", "web"), ("human:terminal", "terminal"), ("human:client", "client"),
    ("agent:mcp", "mcp"), ("agent:api", "api"), ("human:api", "api"),
    ("human", "api"), ("human:owner", "api"),  # the owner from anywhere else: the token's API
    ("agent:hook", None), ("agent", None), ("system", None), ("participant:p1", None),
])
def test_an_answer_says_how_it_arrived(stored: str, via: str | None) -> None:
    assert Actor.parse(stored).answered_via == via


def test_only_the_owner_is_the_owner_and_only_the_page_or_terminal_is_a_screen() -> None:
    owners = [s for s in EVERY_STORED_ACTOR if Actor.parse(s).is_owner]
    assert owners == ["human", "human:web", "human:terminal", "human:api", "human:client",
                      "human:owner"]
    screens = [s for s in EVERY_STORED_ACTOR if Actor.parse(s).at_a_screen]
    assert screens == ["human:web", "human:terminal"]
