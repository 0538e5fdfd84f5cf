"""A portal the tests fail to start is killed, not left running (`tests/portal_process.py`)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.portal_process import PortalProcess


def test_a_portal_that_is_not_ready_in_time_is_killed(tmp_path: Path) -> None:
    portal = PortalProcess(tmp_path / "data")
    with pytest.raises(RuntimeError, match="did not start within"):
        portal.start(timeout=0.01)  # far less than any start takes
    assert portal.process is not None and portal.process.poll() is not None


def test_a_portal_that_exits_at_start_is_reaped_with_its_log(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        portal = PortalProcess(tmp_path / "data", port=taken.getsockname()[1])
        with pytest.raises(RuntimeError, match="portal exited"):
            portal.start()
    assert portal.process is not None and portal.process.returncode is not None
    assert portal.log, "the error carries the portal's own words"
