"""The deadline scheduler: one task, a heap, callbacks at the deadline, moves honoured."""

from __future__ import annotations

import asyncio
import time

from choice.core.deadlines import DeadlineScheduler


async def test_fires_in_deadline_order_and_only_once() -> None:
    fired: list[str] = []
    all_fired = asyncio.Event()

    async def on_deadline(interaction_id: str) -> None:
        fired.append(interaction_id)
        if len(fired) == 3:
            all_fired.set()

    scheduler = DeadlineScheduler(on_deadline)
    scheduler.start()
    start = time.time()
    scheduler.schedule("late", start + 0.15)
    scheduler.schedule("early", start + 0.05)
    scheduler.schedule("middle", start + 0.10)
    await asyncio.wait_for(all_fired.wait(), 5)
    await scheduler.stop()
    assert fired == ["early", "middle", "late"]
    assert len(scheduler) == 0


async def test_a_moved_deadline_fires_at_the_new_time_only() -> None:
    fired: list[tuple[str, float]] = []
    done = asyncio.Event()

    async def on_deadline(interaction_id: str) -> None:
        fired.append((interaction_id, time.time()))
        done.set()

    scheduler = DeadlineScheduler(on_deadline)
    scheduler.start()
    start = time.time()
    scheduler.schedule("x", start + 0.05)
    scheduler.schedule("x", start + 0.25)
    await asyncio.wait_for(done.wait(), 5)
    await scheduler.stop()
    assert len(fired) == 1
    assert fired[0][1] >= start + 0.25


async def test_forgotten_deadlines_never_fire() -> None:
    fired: list[str] = []
    sentinel = asyncio.Event()

    async def on_deadline(interaction_id: str) -> None:
        fired.append(interaction_id)
        sentinel.set()

    scheduler = DeadlineScheduler(on_deadline)
    scheduler.start()
    scheduler.schedule("answered", time.time() + 0.05)
    scheduler.forget("answered")
    scheduler.schedule("sentinel", time.time() + 0.1)
    await asyncio.wait_for(sentinel.wait(), 5)
    await scheduler.stop()
    assert fired == ["sentinel"]


async def test_a_failing_callback_is_retried_and_others_still_fire() -> None:
    calls: list[str] = []
    ok = asyncio.Event()

    async def on_deadline(interaction_id: str) -> None:
        calls.append(interaction_id)
        if interaction_id == "bad":
            raise RuntimeError("database locked")
        ok.set()

    scheduler = DeadlineScheduler(on_deadline)
    scheduler.start()
    scheduler.schedule("bad", time.time())
    scheduler.schedule("good", time.time() + 0.05)
    await asyncio.wait_for(ok.wait(), 5)
    await scheduler.stop()
    assert calls[:2] == ["bad", "good"]
    assert scheduler.deadline_of("bad") is not None
