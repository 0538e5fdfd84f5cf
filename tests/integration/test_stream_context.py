"""`GET /api/stream` for a chat UI (docs/reference/contract.md#events), on a real portal:
`interaction.created` carries the whole question and the request's `context`, and
`?conversation_id=` keeps only the events of that conversation's interactions, replay
included."""

from __future__ import annotations

import threading
import uuid
from typing import Any

from tests.portal_process import PortalProcess
from tests.sse import sse_events

Events = list[tuple[str, dict[str, Any]]]


def ask(client: Any, conversation: str | None, tool_call: str | None = None) -> str:
    context = {k: v for k, v in (("conversation_id", conversation),
                                 ("tool_call_id", tool_call)) if v}
    created = client.create({
        "title": f"Pick a store {uuid.uuid4().hex[:6]}", "prompt": "Both fit.",
        "options": [{"id": "pg", "label": "PostgreSQL", "recommended": True},
                    {"id": "lite", "label": "SQLite"}],
        "context": context})
    return str(created["interaction_id"])


def listen(portal: PortalProcess, query: str, events: Events, ready: threading.Event,
           done: threading.Event, last: list[str]) -> None:
    """Read the stream until `interaction.completed` for the id in `last` arrives."""
    for kind, data in sse_events(portal, query):
        events.append((kind, data))
        if data.get("replay"):
            ready.set()
        if kind == "interaction.completed" and last and data["interaction_id"] == last[0]:
            done.set()
            return


def test_a_chat_ui_follows_its_own_conversation_with_the_whole_question(
        portal: PortalProcess) -> None:
    client = portal.client()
    conversation = f"conv-{uuid.uuid4().hex[:6]}"
    mine_before = ask(client, conversation, "call-1")
    ask(client, "someone-else")
    ask(client, None)
    events: Events = []
    ready, done, last = threading.Event(), threading.Event(), list[str]()
    threading.Thread(target=listen, daemon=True, args=(
        portal, f"conversation_id={conversation}", events, ready, done, last)).start()
    assert ready.wait(10), "no replay"

    theirs = ask(client, "someone-else")
    mine = ask(client, conversation, "call-2")
    last.append(mine)
    client.call("POST", f"/api/interactions/{theirs}/response", {"selected_ids": ["lite"]})
    client.call("POST", f"/api/interactions/{mine}/response", {"selected_ids": ["pg"]})
    assert done.wait(10), "the conversation's answer was not streamed"

    seen = [(kind, data["interaction_id"]) for kind, data in events]
    assert seen == [("interaction.created", mine_before), ("interaction.created", mine),
                    ("interaction.completed", mine)]
    created = events[1][1]
    assert created["context"] == {"conversation_id": conversation, "tool_call_id": "call-2"}
    question = created["question"]
    assert question["prompt"] == "Both fit." and question["selection_mode"] == "single"
    assert [(o["id"], o["label"], o["recommended"]) for o in question["options"]] == [
        ("pg", "PostgreSQL", True), ("lite", "SQLite", False)]
    assert events[0][1]["replay"] is True and "question" in events[0][1]


def test_tool_call_id_narrows_the_stream_too(portal: PortalProcess) -> None:
    client = portal.client()
    conversation = f"conv-{uuid.uuid4().hex[:6]}"
    first, second = ask(client, conversation, "call-a"), ask(client, conversation, "call-b")
    events: Events = []
    ready, done, last = threading.Event(), threading.Event(), [second]
    threading.Thread(target=listen, daemon=True, args=(
        portal, f"conversation_id={conversation}&tool_call_id=call-b", events, ready, done,
        last)).start()
    assert ready.wait(10), "no replay"
    client.call("POST", f"/api/interactions/{first}/cancel", {})
    client.call("POST", f"/api/interactions/{second}/cancel", {})
    assert done.wait(10)
    assert {data["interaction_id"] for _, data in events} == {second}
