"""Races against a real portal: 50 answers at once, answers against cancels, and answers
that arrive around the deadline. Each interaction ends in exactly one terminal state, the
replies agree with what is stored, and the audit trail records one completion.
"""

from __future__ import annotations

import random
import threading
import time
from datetime import UTC, datetime
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from choice.contract.clock import parse_iso
from tests.portal_process import PortalProcess
from tests.reliability.faults import (
    HeldRequest,
    Reply,
    outcome,
    question,
    race,
    terminal_events,
    wait_until,
    waiting,
)
from tests.tally import faults

pytestmark = pytest.mark.slow
ROUNDS = 5
CONTENDERS = 50
OPTION_IDS = tuple(f"o{i:02}" for i in range(CONTENDERS))


def assert_refused_as_already_completed(reply: Reply, standing: dict[str, Any]) -> None:
    """A loser's 409: the contract error, and the standing result, unchanged."""
    status, body = reply
    assert status == 409, reply
    assert [(e["field"], e["code"]) for e in body["errors"]] == [("interaction_id",
                                                                  "already_completed")]
    assert body["result"] == {k: v for k, v in standing.items() if k != "status"}
    assert body["interaction"]["status"] == standing["status"]


def test_fifty_concurrent_answers_one_wins_and_49_get_409(portal: PortalProcess,
                                                          client: PortalClient) -> None:
    with faults("Concurrent submits") as seen:
        seen.fact("answers_at_once", len(OPTION_IDS))  # one request per option, per round
        for round_ in range(ROUNDS):
            iid = client.create(question(f"race {round_}", OPTION_IDS, selection_mode="single"))[
                "interaction_id"]
            replies = race([HeldRequest(portal, "POST", f"/api/interactions/{iid}/response",
                                        {"selected_ids": [option]}) for option in OPTION_IDS])
            seen.tries(len(replies))
            seen.fact("answer_rounds")
            stored = client.poll(iid, 0)
            seen.answers([outcome(body) for status, body in replies if status == 200],
                         [outcome(stored)])
            winners = [i for i, (status, _) in enumerate(replies) if status == 200]
            assert len(winners) == 1, [status for status, _ in replies]
            winner = replies[winners[0]][1]
            assert winner["selected_ids"] == [OPTION_IDS[winners[0]]]
            assert stored == winner
            for index, reply in enumerate(replies):
                if index != winners[0]:
                    assert_refused_as_already_completed(reply, stored)
            completions = terminal_events(client, iid)
            assert [(e["kind"], e["detail"]["selected_ids"]) for e in completions] == [
                ("answered", winner["selected_ids"])]


def test_answers_racing_cancels_end_in_one_terminal_state(portal: PortalProcess,
                                                          client: PortalClient) -> None:
    with faults("Concurrent submits") as seen:
        seen.fact("mixed_at_once", len(OPTION_IDS))  # one request per option, per round
        for round_ in range(ROUNDS):
            iid = client.create(question(f"answer or cancel {round_}", OPTION_IDS))[
                "interaction_id"]
            held = [HeldRequest(portal, "POST", f"/api/interactions/{iid}/response",
                                {"selected_ids": [option]}) if i % 2 else
                    HeldRequest(portal, "POST", f"/api/interactions/{iid}/cancel",
                                {"global_annotation": f"cancel {i}"})
                    for i, option in enumerate(OPTION_IDS)]
            replies = race(held)
            seen.tries(len(replies))
            seen.fact("cancel_rounds")
            stored = client.poll(iid, 0)
            # an answer or a cancel: whichever the portal acknowledged must be what is stored
            seen.answers([outcome(body) for status, body in replies if status == 200],
                         [outcome(stored)])
            winners = [i for i, (status, _) in enumerate(replies) if status == 200]
            assert len(winners) == 1, [status for status, _ in replies]
            won = winners[0]
            if won % 2:
                assert stored["status"] == "submitted"
                assert stored["selected_ids"] == [OPTION_IDS[won]]
            else:
                assert stored["status"] == "cancelled" and stored["selected_ids"] == []
                assert stored["global_annotation"] == f"cancel {won}"
            assert stored == replies[won][1]
            for index, reply in enumerate(replies):
                if index != won:
                    assert_refused_as_already_completed(reply, stored)
            kinds = [e["kind"] for e in terminal_events(client, iid)]
            assert kinds == ["answered" if won % 2 else "cancelled"]


# -- an answer against the deadline -------------------------------------------------------------
DEADLINE_RACES = 24
SPACING = 0.03
"""Seconds between consecutive deadlines, so each race is against its own expiry."""
OFFSETS_MS = (-100, 50)
"""Each answer is sent this many ms from its deadline (spread evenly, order shuffled); more
before than after, as a loaded machine delays the sends."""


def iso_exact(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat()


def poll_in_background(client: PortalClient, iid: str, into: dict[str, Any]) -> threading.Thread:
    thread = threading.Thread(target=lambda: into.__setitem__(iid, client.poll(iid, 20)),
                              daemon=True)
    thread.start()
    return thread


def answer_at(held: HeldRequest, when: float, into: dict[str, Reply], iid: str) -> threading.Thread:
    def run() -> None:
        # The stimulus, not a synchronization: the answer must leave at this wall-clock time.
        time.sleep(max(0.0, when - time.time()))
        into[iid] = held.fire()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_an_answer_racing_the_deadline_ends_in_one_state(portal: PortalProcess,
                                                         client: PortalClient) -> None:
    rng = random.Random(20)
    ids = [client.create(question(f"deadline {i}", ("a", "b"), timeout_seconds=60))["interaction_id"]
           for i in range(DEADLINE_RACES)]
    low, high = OFFSETS_MS
    offsets = [(low + (high - low) * i / (DEADLINE_RACES - 1)) / 1000 for i in range(DEADLINE_RACES)]
    rng.shuffle(offsets)
    first = time.time() + 2.0  # a deadline may be moved to no less than 1 s from now
    deadlines = {iid: first + i * SPACING for i, iid in enumerate(ids)}
    deadline_of = {iid: client.call("PATCH", f"/api/interactions/{iid}",
                                    {"expires_at": iso_exact(deadline)})["expires_at"]
                   for iid, deadline in deadlines.items()}
    polled: dict[str, Any] = {}
    pollers = [poll_in_background(portal.client(), iid, polled) for iid in ids]
    wait_until(lambda: waiting(client) == len(ids), timeout=first - time.time() - 0.2,
               what="every poller blocked before the first deadline")
    replies: dict[str, Reply] = {}
    answers = [answer_at(HeldRequest(portal, "POST", f"/api/interactions/{iid}/response",
                                     {"selected_ids": ["b"]}), deadlines[iid] + offset, replies, iid)
               for iid, offset in zip(ids, offsets, strict=True)]
    for thread in answers + pollers:
        thread.join(timeout=30)

    stored = {iid: client.poll(iid, 0) for iid in ids}
    with faults("Answer vs deadline") as seen:
        seen.tries(len(ids))
        seen.fact("answers", len(ids))
        seen.fact("ms_before", -low)
        seen.fact("ms_after", high)
        seen.answers([outcome(body) for status, body in replies.values() if status == 200],
                     [outcome(result) for result in stored.values()])
    statuses = {}
    for iid in ids:
        status, body = replies[iid]
        kinds = [e["kind"] for e in terminal_events(client, iid)]
        ended, deadline = parse_iso(stored[iid]["completed_at"]), parse_iso(deadline_of[iid])
        if status == 200:
            assert stored[iid]["status"] == "submitted" and stored[iid]["selected_ids"] == ["b"]
            assert body == stored[iid] and kinds == ["answered"]
            assert ended <= deadline, f"{iid}: an answer accepted after the deadline"
        else:
            assert status == 409, (iid, status, body)
            assert stored[iid]["status"] == "timeout" and stored[iid]["selected_ids"] == [], iid
            assert body["interaction"]["status"] == "timeout" and kinds == ["timed_out"]
            assert ended >= deadline, f"{iid}: timed out before the deadline"
        assert polled[iid] == stored[iid], iid
        statuses[iid] = status
    assert set(statuses.values()) == {200, 409}, f"the offsets should give both outcomes: {statuses}"
