"""The participants' share of the portal (`web/security/guest_budget.py`), wired into the
real app: every request on a participant link goes through the one budget the app made,
and when its queue is full they are turned away with a clear, retryable answer while the
owner's pages, API and socket carry on. (How the turns are taken and given back is unit
tested in `tests/unit/test_guest_budget.py`; `bench/abuse_bench.py` measures the effect.)
"""

from __future__ import annotations

from typing import Any

import pytest
from litestar.exceptions import WebSocketDisconnect
from litestar.testing import TestClient

from choice.portal import create_app
from choice.web.security.guest_budget import TRY_AGAIN_LATER, GuestBudget
from tests.sign_in import client_cookie
from tests.tally import attacks

BASE = "http://127.0.0.1:8765"


def budget_of(client: TestClient[Any]) -> GuestBudget:
    [guests] = [m.kwargs["guests"] for m in client.app.middleware if "guests" in m.kwargs]
    assert isinstance(guests, GuestBudget)
    return guests


def test_a_full_participant_queue_turns_participants_away_and_never_the_owner() -> None:
    with TestClient(create_app(), base_url=BASE) as client, \
            attacks("Team: participants' share") as seen:
        token = client.app.dependencies["credentials"].dependency().token
        agent = {"Authorization": f"Bearer {token}"}
        client.put("/api/settings", headers=agent, json={"team": [{"name": "Ada"}]})
        iid = client.post("/api/interactions", headers=agent, json={
            "title": "T", "prompt": "P.", "interface": "web",
            "options": [{"id": "a", "label": "A"}]}).json()["interaction_id"]
        widened = client.post(f"/api/interactions/{iid}/widen", headers=agent,
                              json={"audience": ["Ada"]}).json()
        secret = widened["participants"][0]["link"].rsplit("/d/", 1)[1]
        assert client.get(f"/api/d/{secret}").status_code == 200  # served while there is room

        budget_of(client).most_waiting = 0  # the queue is full from here on
        page = {**client_cookie(client, token), "Origin": BASE}
        busy = [client.get(f"/d/{secret}"), client.get(f"/api/d/{secret}"),
                client.post(f"/api/d/{secret}/comments", json={"text": "hello"},
                            headers={"Origin": BASE}),
                client.put(f"/api/d/{secret}/vote", json={"option_ids": ["a"]},
                           headers={"Origin": BASE})]
        for reply in busy:
            seen.refused_if(reply.status_code == 503 and reply.headers.get("retry-after") == "1"
                            and reply.json()["errors"][0]["code"] == "busy", reply.request.url)
        assert "try again" in busy[0].json()["errors"][0]["message"]
        with pytest.raises(WebSocketDisconnect) as closed, \
                client.websocket_connect(f"/ws/d/{secret}", headers={"Origin": BASE}) as socket:
            socket.receive_json()
        seen.refused_if(closed.value.code == TRY_AGAIN_LATER, "/ws/d/<secret>")

        discussion = client.get(f"/api/interactions/{iid}/comments", headers=agent)
        assert discussion.status_code == 200 and discussion.json()["comments"] == []
        assert client.get(f"/choice/{iid}", headers=page).status_code == 200
        assert client.get(f"/api/interactions/{iid}", headers=agent).status_code == 200
        with client.websocket_connect(f"/ws/choice/{iid}", headers=page) as owners:
            assert owners.receive_json()["type"] == "deadline"  # the page's first message
