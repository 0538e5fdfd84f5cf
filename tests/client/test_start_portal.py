"""`start_portal=True` starts a detached portal when none answers (and only then); without
it nothing is started. The started portal is stopped by its pid (from `/healthz`)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import uuid
from pathlib import Path

import pytest

from choice.client import Client, PortalNotRunning, Result
from choice.client.portal_client import PortalClient
from tests.client.human import Human, answers
from tests.portal_process import free_port


def port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_without_start_portal_nothing_is_started(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    monkeypatch.setenv("CHOICE_PORT", str(port))
    with pytest.raises(PortalNotRunning):
        Client().ask(title="t", prompt="p", options=[{"id": "a", "label": "A"}])
    assert port_is_free(port)


@pytest.mark.slow
def test_start_portal_starts_one_that_answers(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    monkeypatch.setenv("CHOICE_PORT", str(port))
    monkeypatch.setenv("CHOICE_DATA_DIR", str(tmp_path / "started"))
    title = f"Started {uuid.uuid4().hex[:8]}"
    pid: int | None = None
    try:
        with Client(start_portal=True, poll_seconds=5) as client:
            owner = PortalClient(client.connection.base_url, client.connection.token)
            pid = int(owner.call("GET", "/healthz")["pid"])
            human = Human(owner, title, answers({"selected_ids": ["a"]}))
            result = client.ask(title=title, prompt="p", options=[{"id": "a", "label": "A"}])
            human.join()
        assert isinstance(result, Result) and result.selected_ids == ["a"]
        assert client.connection.token == (tmp_path / "started" / "token").read_text().strip()
    finally:
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
