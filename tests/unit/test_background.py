"""A background loop always stops: even one that swallowed a cancellation (Python 3.11's
`asyncio.wait_for` can, when its wait completes as the cancellation arrives) ends, so the
portal's shutdown never hangs on it; and a loop's wait is bounded and cancellable."""

from __future__ import annotations

import asyncio

from choice.core.background import BackgroundTask, finish, woken


async def test_a_loop_that_swallows_a_cancellation_is_still_stopped() -> None:
    swallowed, running = [], asyncio.Event()

    async def stubborn() -> None:
        while True:
            running.set()
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                if swallowed:
                    raise
                swallowed.append(True)  # as wait_for's lost cancellation would

    task = BackgroundTask("stubborn", stubborn)
    task.start()
    await asyncio.wait_for(running.wait(), 5)
    await asyncio.wait_for(task.stop(), 10)
    assert swallowed == [True]


async def test_a_failed_loop_is_stopped_without_raising() -> None:
    ran = asyncio.Event()

    async def failing() -> None:
        ran.set()
        raise RuntimeError("the database went away")

    task = BackgroundTask("failing", failing)
    task.start()
    await asyncio.wait_for(ran.wait(), 5)
    await asyncio.wait_for(task.stop(), 5)


async def test_woken_says_whether_the_event_came_before_the_time_ran_out() -> None:
    event = asyncio.Event()
    assert await woken(event, 0.01) is False
    asyncio.get_running_loop().call_soon(event.set)
    assert await woken(event, 5) is True


async def test_finish_lets_a_task_end_by_itself_within_its_grace_then_cuts_it() -> None:
    stop = asyncio.Event()

    async def closes_when_told() -> str:
        await stop.wait()
        return "closed"

    polite = asyncio.create_task(closes_when_told())
    stop.set()
    await asyncio.wait_for(finish(polite, grace=5), 10)
    assert polite.result() == "closed"

    stuck = asyncio.create_task(asyncio.Event().wait())  # never told anything: cut
    await asyncio.wait_for(finish(stuck, grace=0.05), 10)
    assert stuck.cancelled()
