"""`ask_async` / `AsyncClient` against a real portal: the same typed answers, awaited."""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest

from choice.client import AsyncClient, InvalidRequest, PortalNotRunning, Result, ask_async
from choice.client.portal_client import PortalClient
from tests.client.human import Human, answers, question_id
from tests.portal_process import PortalProcess, free_port

BOUND = 20.0


def test_ask_async_returns_the_typed_result(portal: PortalProcess) -> None:
    title = f"Async {uuid.uuid4().hex[:8]}"
    human = Human(portal.client(), title, answers({"selected_ids": ["b"]}))
    result = asyncio.run(ask_async(
        title=title, prompt="p", selection_mode="multi",
        options=[{"id": "a", "label": "A"}, {"id": "b", "label": "B"}],
        base_url=portal.base_url, token=portal.token, poll_seconds=1))
    human.join()
    assert isinstance(result, Result) and result.selected_labels == ["B"]


async def test_the_event_loop_keeps_running_while_it_waits(portal: PortalProcess) -> None:
    """The human answers only once another task has ticked three times during the wait: a
    client that blocked the loop would leave it unanswered (and the test would fail)."""
    title = f"Loop {uuid.uuid4().hex[:8]}"
    ticked_thrice = threading.Event()

    async def ticker() -> None:
        ticks = 0
        while True:
            ticks += 1
            if ticks >= 3:
                ticked_thrice.set()
            await asyncio.sleep(0.01)

    def answer_once_the_loop_ticked(human: PortalClient, iid: str) -> None:
        assert ticked_thrice.wait(BOUND)
        human.respond(iid, {"custom_input": "neither"})

    client = await AsyncClient.connect(portal.base_url, portal.token, poll_seconds=1)
    human = Human(portal.client(), title, answer_once_the_loop_ticked)
    tick_task = asyncio.create_task(ticker())
    try:
        async with client:
            result = await client.ask(title=title, prompt="p", selection_mode="hybrid",
                                      options=[{"id": "a", "label": "A"}])
    finally:
        tick_task.cancel()
    await asyncio.to_thread(human.join)
    assert isinstance(result, Result) and result.custom_input == "neither"
    assert result.action_status == "custom_input"


def test_async_errors_are_the_same_exceptions(portal: PortalProcess) -> None:
    with pytest.raises(InvalidRequest) as raised:
        asyncio.run(ask_async(title="", prompt="p", options=[{"id": "a", "label": "A"}],
                              base_url=portal.base_url, token=portal.token))
    assert "title" in raised.value.fields
    with pytest.raises(PortalNotRunning, match="choice serve"):
        asyncio.run(ask_async(title="t", prompt="p",
                              base_url=f"http://127.0.0.1:{free_port()}", token="t"))


async def test_many_questions_wait_at_once(portal: PortalProcess) -> None:
    """Ten asks in flight with the longest window (60 s): the human answers only once all
    ten questions are on the portal. A client that ran its calls on a bounded pool (the
    default executor has 6 threads on 2 cores) would hold the last creates back for a
    whole window, and the human would give up waiting for them."""
    prefix = f"Many {uuid.uuid4().hex[:8]}"
    titles = [f"{prefix} {n}" for n in range(10)]

    def answer_all_once_all_are_asked(human: PortalClient, _first: str) -> None:
        for title in titles:
            human.respond(question_id(human, title), {"selected_ids": ["a"]})

    client = await AsyncClient.connect(portal.base_url, portal.token, poll_seconds=60)
    human = Human(portal.client(), titles[-1], answer_all_once_all_are_asked)
    async with client:
        results = await asyncio.gather(*[
            client.ask(title=title, prompt="p", options=[{"id": "a", "label": "A"}],
                       timeout_seconds=30)  # a human who gave up leaves no ask hanging
            for title in titles])
    await asyncio.to_thread(human.join)
    assert [r.selected_ids for r in results if isinstance(r, Result)] == [["a"]] * 10


def test_a_cancelled_wait_leaves_the_question_open_and_exit_free(portal: PortalProcess) -> None:
    """Cancelling the awaiting task ends the await at once; the window's thread finishes
    on its own (a daemon, so `asyncio.run` did not wait for it), and the question stays
    on the portal for a later `collect`."""
    title = f"Cancelled {uuid.uuid4().hex[:8]}"

    async def ask_then_cancel() -> str:
        client = await AsyncClient.connect(portal.base_url, portal.token, poll_seconds=60)
        asking = asyncio.create_task(client.ask(title=title, prompt="p",
                                                options=[{"id": "a", "label": "A"}]))
        iid = await asyncio.to_thread(question_id, portal.client(), title)
        asking.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asking
        return iid

    iid = asyncio.run(ask_then_cancel())
    assert any(t.name == "choice-client" and t.is_alive() for t in threading.enumerate())
    assert portal.client().poll(iid, 0)["status"] == "pending"
