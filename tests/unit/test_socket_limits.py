"""`web/live/socket_limits.py`: the oldest socket of a key is the one closed, each once, and a
message's size is counted in bytes."""

from __future__ import annotations

import asyncio

from choice.web.live.socket_limits import INBOUND_BYTES, SocketLimit, message_size, wake_with_none


def test_past_the_limit_the_oldest_is_woken_once_and_forgotten() -> None:
    limit = SocketLimit(2)
    woken: list[str] = []
    with limit.hold("link", lambda: woken.append("first")) as first, \
            limit.hold("link", lambda: woken.append("second")), \
            limit.hold("other", lambda: woken.append("other")):
        assert woken == [] and limit.count("link") == 2
        with limit.hold("link", lambda: woken.append("third")) as third:
            assert woken == ["first"] and first.replaced and not third.replaced
            assert limit.count("link") == 2
        assert limit.count("link") == 1
    assert woken == ["first"]  # leaving wakes nobody
    assert limit.count("link") == 0 and limit.count("other") == 0


def test_a_message_is_measured_in_bytes() -> None:
    assert message_size({"type": "websocket.receive", "text": "x" * INBOUND_BYTES}) == INBOUND_BYTES
    assert message_size({"type": "websocket.receive", "text": "\u00e9" * 3000}) == 6000
    assert message_size({"type": "websocket.receive", "bytes": b"\0" * 10}) == 10
    assert message_size({"type": "websocket.receive", "text": "x" * 10**6}) == 10**6


def test_waking_a_full_queue_makes_room_for_the_stop() -> None:
    queue: asyncio.Queue[object] = asyncio.Queue(2)
    queue.put_nowait("a")
    queue.put_nowait("b")
    wake_with_none(queue)
    assert [queue.get_nowait(), queue.get_nowait()] == ["b", None]
