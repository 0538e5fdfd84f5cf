"""choice/client/watch.py: the one poll loop's decisions, without a network (a scripted
poll, a clock the test moves, a sleep that only records)."""

from __future__ import annotations

from typing import Any

import pytest

from choice.client.errors import PortalNotRunning
from choice.client.watch import (
    OPEN_STATUSES,
    PollAgain,
    RetryAfter,
    Settled,
    Watch,
    follow,
)
from choice.contract import OPEN_STATUSES as CONTRACT_OPEN_STATUSES

GONE = PortalNotRunning("http://127.0.0.1:1", "refused")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_loop_knows_the_contracts_open_statuses() -> None:
    assert OPEN_STATUSES == CONTRACT_OPEN_STATUSES


@pytest.mark.parametrize("status", ["submitted", "auto_submitted", "cancelled", "timeout",
                                    "deferred"])
def test_a_reply_that_is_not_open_settles_the_wait(status: str) -> None:
    reply = {"status": status, "interaction_id": "i"}
    assert Watch().replied(reply) == Settled(reply)


def test_pending_polls_again_and_a_widening_is_told_once() -> None:
    watch = Watch()
    widened = {"status": "widened", "participants": ["Alice"]}
    assert watch.replied({"status": "pending"}) == PollAgain()
    assert watch.replied(widened) == PollAgain(widened=widened)
    assert watch.replied(dict(widened)) == PollAgain()  # later windows say it again
    assert watch.replied({"status": "pending"}) == PollAgain()


def test_an_outage_is_waited_out_until_it_lasts_longer_than_reconnect_seconds() -> None:
    clock = Clock()
    watch = Watch(30.0, pace=1.0, clock=clock)
    assert watch.failed(GONE) == RetryAfter(1.0)
    clock.now += 30.0
    assert watch.failed(GONE) == RetryAfter(1.0)  # exactly the limit: still waited out
    clock.now += 0.5
    with pytest.raises(PortalNotRunning) as raised:
        watch.failed(GONE)
    assert raised.value is GONE


def test_a_reply_in_between_starts_the_next_outage_afresh() -> None:
    clock = Clock()
    watch = Watch(30.0, clock=clock)
    watch.failed(GONE)
    clock.now += 25.0
    watch.replied({"status": "pending"})
    clock.now += 25.0
    assert isinstance(watch.failed(GONE), RetryAfter)  # 50 s since the first, 0 since the last
    clock.now += 25.0
    assert isinstance(watch.failed(GONE), RetryAfter)


def scripted(*outcomes: dict[str, Any] | Exception) -> Any:
    remaining = list(outcomes)

    def poll() -> dict[str, Any]:
        outcome = remaining.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    poll.remaining = remaining  # type: ignore[attr-defined]
    return poll


def test_follow_reads_the_first_reply_before_any_poll() -> None:
    poll = scripted()
    done = {"status": "submitted"}
    assert follow(poll, done) is done


def test_follow_polls_through_an_outage_and_a_widening_to_the_result() -> None:
    widened = {"status": "widened", "participants": ["Bob"]}
    done = {"status": "submitted", "selected_ids": ["a"]}
    poll = scripted(GONE, GONE, widened, {"status": "pending"}, dict(widened), done)
    slept: list[float] = []
    heard: list[dict[str, Any]] = []
    result = follow(poll, {"status": "pending"}, on_widened=heard.append, sleep=slept.append)
    assert result is done and poll.remaining == []
    assert slept == [1.0, 1.0] and heard == [widened]


def test_follow_gives_up_with_the_portals_own_error() -> None:
    poll = scripted(*[GONE] * 5)
    with pytest.raises(PortalNotRunning):
        follow(poll, reconnect_seconds=-1.0, sleep=lambda _: None)
    assert len(poll.remaining) == 4  # no outage is waited out with a negative allowance
