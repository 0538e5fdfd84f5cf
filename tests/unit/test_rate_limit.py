"""The per-minute limit on comments and votes: within a window it refuses past its limit and
says when to retry; an author idle for a whole window is forgotten."""

from __future__ import annotations

import pytest

from choice.team.rate_limit import PerMinute, RateLimited


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def test_within_the_window_the_limit_refuses_and_says_when_to_retry() -> None:
    clock = Clock()
    limiter = PerMinute(3, "votes", clock=clock)
    for _ in range(3):
        limiter.take("alice")
        clock.now += 10
    with pytest.raises(RateLimited) as refused:
        limiter.take("alice")
    assert (refused.value.what, refused.value.retry_after) == ("votes", 30)
    limiter.take("bob")  # another author has a limit of their own
    clock.now += 30  # the first hit leaves the window
    limiter.take("alice")


def test_authors_idle_for_a_window_are_forgotten() -> None:
    clock = Clock()
    limiter = PerMinute(20, clock=clock)
    for n in range(1_000):
        limiter.take(f"author-{n}")
    assert len(limiter) == 1_000
    clock.now += 30
    limiter.take("author-0")
    assert len(limiter) == 1_000  # nobody is idle for a whole window yet
    clock.now += 31
    limiter.take("newcomer")
    assert len(limiter) == 2  # only author-0 (30 s ago) and the newcomer are remembered


def test_a_forgotten_author_starts_again_with_the_full_limit() -> None:
    clock = Clock()
    limiter = PerMinute(2, clock=clock)
    limiter.take("alice")
    limiter.take("alice")
    clock.now += 61
    limiter.take("someone else")
    assert len(limiter) == 1
    limiter.take("alice")
    limiter.take("alice")
    with pytest.raises(RateLimited):
        limiter.take("alice")
