"""A portal restart while a caller waits loses nothing: the one poll loop
(`choice.client.watch`) waits the outage out and collects the answer from the new process,
for the Python API and `choice ask` alike (both drive the same `Watch`)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from choice.client import Client, Result
from choice.client.portal_client import PortalClient
from tests.client.human import Human
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow


def test_a_restart_mid_wait_is_waited_out_and_the_answer_arrives(isolated_env: Path) -> None:
    first = PortalProcess(isolated_env).start()
    second = PortalProcess(isolated_env, port=first.port)
    title = f"Across a restart {uuid.uuid4().hex[:8]}"

    def restart_then_answer(human: PortalClient, iid: str) -> None:
        first.stop()  # the caller's poll in flight fails; it keeps trying
        second.start()
        second.client().respond(iid, {"selected_ids": ["b"]})

    try:
        with Client(first.base_url, first.token, poll_seconds=2) as client:
            human = Human(first.client(), title, restart_then_answer)
            result = client.ask(title=title, prompt="p",
                                options=[{"id": "a", "label": "A"}, {"id": "b", "label": "B"}])
        human.join()
    finally:
        first.stop()
        second.stop()
    assert isinstance(result, Result) and result.selected_ids == ["b"]
    assert result.interaction_id == human.interaction_id
