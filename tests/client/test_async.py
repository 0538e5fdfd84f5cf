"""`ask_async` / `AsyncClient` against a real portal: the same typed answers, awaited."""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest

from choice.client import AsyncClient, InvalidRequest, PortalNotRunning, Result, ask_async
from choice.client.portal_client import PortalClient
from tests.client.human import Human, answers
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
