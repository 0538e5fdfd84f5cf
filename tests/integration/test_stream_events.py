"""`GET /api/stream` on a real portal, through a write-back: every event carries
`schema_version: 1` (the replay too), and a dashboard hears the review being asked for, the
candidate, the deferral with its rationale, the resumption and the decision."""

from __future__ import annotations

import threading
from typing import Any

from tests.portal_process import PortalProcess
from tests.sse import sse_events

Events = list[tuple[str, dict[str, Any]]]


def listen(portal: PortalProcess, events: Events, ready: threading.Event,
           until: threading.Event, last: str) -> None:
    """Read the stream until an `interaction.completed` for the interaction `last` names
    (written into the list by the test before it is needed)."""
    for kind, data in sse_events(portal):
        events.append((kind, data))
        if data.get("replay"):
            ready.set()
        if kind == "interaction.completed" and data["interaction_id"] == last:
            until.set()
            return


def test_every_stream_event_has_a_schema_version_and_the_write_back_is_heard(
        portal: PortalProcess) -> None:
    owner = portal.client()
    body = {"title": "Pick a database", "prompt": "Both fit.",
            "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]}
    already = owner.create(body)["interaction_id"]  # so that the replay has one to send
    iid = owner.create(body)["interaction_id"]
    events: Events = []
    ready, done = threading.Event(), threading.Event()
    threading.Thread(target=listen, args=(portal, events, ready, done, iid), daemon=True).start()
    assert ready.wait(10), "no replay"

    owner.call("POST", f"/api/interactions/{iid}/widen", {"audience": ["Alice"]})
    owner.call("POST", f"/api/interactions/{iid}/review")
    owner.call("POST", f"/api/interactions/{iid}/candidate",
               {"candidate_summary": "Alice wants PostgreSQL.", "candidate_answer": "PostgreSQL"})
    owner.call("POST", f"/api/interactions/{iid}/defer", {"rationale": "After the load test."})
    owner.call("POST", f"/api/interactions/{iid}/resume")
    owner.call("POST", f"/api/interactions/{iid}/resolve", {"final_answer": "PostgreSQL",
                                                            "selected_ids": ["pg"]})
    assert done.wait(10), "the decision was not streamed"

    assert events and {data["schema_version"] for _, data in events} == {1}
    assert any(d.get("replay") and d["interaction_id"] == already for _, d in events)
    ours = [(kind, data) for kind, data in events if data["interaction_id"] == iid
            and not data.get("replay")]
    kinds = [kind if kind != "decision.changed" else f"{kind}:{data['change']}"
             for kind, data in ours]
    assert [k for k in kinds if k != "discussion.changed"] == [
        "interaction.widened", "decision.changed:review_requested",
        "decision.changed:candidate_submitted", "interaction.deferred", "interaction.resumed",
        "interaction.completed"]
    deferred = next(data for kind, data in ours if kind == "interaction.deferred")
    assert (deferred["status"], deferred["rationale"]) == ("deferred", "After the load test.")
    assert ours[-1][1]["status"] == "submitted"
