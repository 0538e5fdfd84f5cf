"""The team's quorum: once `min_votes` participants back the very same option(s), that is
the decision. Pure: `DecisionService` reads the votes and resolves.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from choice.store.records import Participant, Vote


@dataclass(frozen=True)
class Reached:
    option_ids: list[str]
    votes: int
    voters: list[str]


def reached(votes: Sequence[Vote], participants: Sequence[Participant],
            min_votes: int) -> Reached | None:
    """The option set at least `min_votes` current participants voted for (a withdrawn
    link's vote does not count); with two such sets, the one with more votes, then the one
    that got there first."""
    names = {p.id: p.name for p in participants if p.revoked_at is None}
    groups: dict[tuple[str, ...], list[Vote]] = {}
    for vote in sorted(votes, key=lambda v: v.at):
        ids = tuple(json.loads(vote.option_ids_json))
        if ids and vote.participant_id in names:
            groups.setdefault(ids, []).append(vote)
    best = [(ids, group) for ids, group in groups.items() if len(group) >= min_votes]
    if not best:
        return None
    ids, group = min(best, key=lambda item: (-len(item[1]), item[1][min_votes - 1].at))
    return Reached(list(ids), len(group), [names[v.participant_id] for v in group])
