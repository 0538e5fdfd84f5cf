"""The MCP wait loop in-process, where a test can act at an exact point of it: a `continue`
widen that lands while the call is sending a progress notification (between two wait
windows) still answers the call at once, instead of after the next window."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from choice.mcp.server import PortalMCP
from choice.team.models import WidenRequest
from tests.integration.test_service import Portal
from tests.mcp.conftest import ask

PROGRESS = 2.0


class WidenDuringProgress:
    """Stands in for the session of a client that declared nothing: the first progress
    notification widens."""

    client_params = None
    client_capabilities = None

    def __init__(self, portal: Portal) -> None:
        self.portal = portal
        self.widened_at: float | None = None

    async def report_progress(self, progress: float, total: float | None = None,
                              message: str | None = None) -> None:
        service = self.portal.service
        assert service is not None
        if self.widened_at is None:
            (row,) = await service.recent("active", 1)
            await service.team.widen(row.id, WidenRequest(audience=["Alice"], mode="continue"))
            self.widened_at = time.monotonic()


async def test_a_continue_widen_between_two_windows_answers_at_once(isolated_env: Path) -> None:
    portal = Portal(isolated_env, CHOICE_MCP_WAIT_SECONDS="30",
                    CHOICE_MCP_PROGRESS_SECONDS=str(PROGRESS))
    service = await portal.start()
    try:
        server = PortalMCP(lambda: service.parts, portal.settings)
        session = WidenDuringProgress(portal)
        call: Any = SimpleNamespace(session=session, meta=None, request_id=1)
        result = await server.call_tool("provide_choice", ask(), call)
        returned_at = time.monotonic()
    finally:
        await portal.stop()
    assert session.widened_at is not None
    assert isinstance(result.structured_content, dict)
    assert result.structured_content["status"] == "widened"
    assert returned_at - session.widened_at < PROGRESS / 2  # not one more window
