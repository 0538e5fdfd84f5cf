"""`choice/team/quorum.py`: when the team's votes decide. Only current participants
count (a withdrawn link's vote does not), a multi-select vote counts only for the very same
set, an empty vote is no vote, and between two sets that both reach the quorum the one with
more votes wins, then the one that got there first."""

from __future__ import annotations

from choice.store.records import Participant, Vote
from choice.team.quorum import Reached, reached

IID = "i1"


def person(pid: str, revoked: bool = False) -> Participant:
    return Participant(id=pid, interaction_id=IID, name=pid.capitalize(), secret_hash="h",
                       invited_at=0.0, revoked_at=5.0 if revoked else None)


def vote(pid: str, ids: list[str], at: float) -> Vote:
    return Vote(participant_id=pid, interaction_id=IID, option_ids_json=ids, at=at)


TEAM = [person("alice"), person("bob"), person("carol"), person("dan"), person("eve")]


def test_enough_matching_votes_reach_the_quorum_and_name_the_voters() -> None:
    votes = [vote("alice", ["pg"], 1), vote("bob", ["lite"], 2), vote("carol", ["pg"], 3)]
    assert reached(votes, TEAM, 2) == Reached(["pg"], 2, ["Alice", "Carol"])
    assert reached(votes, TEAM, 3) is None


def test_a_withdrawn_links_vote_does_not_count() -> None:
    team = [person("alice"), person("bob", revoked=True), person("carol")]
    votes = [vote("alice", ["pg"], 1), vote("bob", ["pg"], 2)]
    assert reached(votes, team, 2) is None
    assert reached([*votes, vote("carol", ["pg"], 3)], team, 2) == Reached(
        ["pg"], 2, ["Alice", "Carol"])
    stranger = vote("mallory", ["pg"], 4)  # not a participant at all
    assert reached([votes[0], stranger], team, 2) is None


def test_multi_select_sets_must_match_exactly() -> None:
    votes = [vote("alice", ["pg", "lite"], 1), vote("bob", ["pg"], 2),
             vote("carol", ["pg", "lite", "mongo"], 3)]
    assert reached(votes, TEAM, 2) is None  # subsets and supersets are other answers
    votes.append(vote("dan", ["pg", "lite"], 4))
    assert reached(votes, TEAM, 2) == Reached(["pg", "lite"], 2, ["Alice", "Dan"])


def test_an_empty_vote_is_no_vote() -> None:
    votes = [vote("alice", [], 1), vote("bob", [], 2)]
    assert reached(votes, TEAM, 1) is None


def test_with_two_sets_at_the_quorum_more_votes_win() -> None:
    votes = [vote("alice", ["lite"], 1), vote("bob", ["lite"], 2),
             vote("carol", ["pg"], 3), vote("dan", ["pg"], 4), vote("eve", ["pg"], 5)]
    assert reached(votes, TEAM, 2) == Reached(["pg"], 3, ["Carol", "Dan", "Eve"])


def test_a_tie_goes_to_the_set_that_reached_the_quorum_first() -> None:
    votes = [vote("alice", ["pg"], 1), vote("bob", ["lite"], 2), vote("carol", ["lite"], 3),
             vote("dan", ["pg"], 4)]
    assert reached(votes, TEAM, 2) == Reached(["lite"], 2, ["Bob", "Carol"])
    # The order the votes are read in does not matter, only when they were cast.
    assert reached(list(reversed(votes)), TEAM, 2) == Reached(["lite"], 2, ["Bob", "Carol"])
