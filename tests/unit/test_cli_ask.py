"""choice/cli/ask.py without a portal process: what it says and returns when the portal
fails it at each step (the real portal's paths are in tests/integration/test_cli.py)."""

from __future__ import annotations

from typing import Any

import pytest

from choice.cli import ask
from choice.client.errors import PortalNotRunning

REQUEST = {"title": "t", "prompt": "p", "options": [{"id": "a", "label": "A"}]}


class VanishingPortal:
    """Answered `/healthz` a moment ago; gone by the time the question is sent."""

    base_url = "http://127.0.0.1:1"

    def create(self, request: dict[str, Any], wait: float = 0) -> dict[str, Any]:
        raise PortalNotRunning(self.base_url, "Connection refused")


def test_a_portal_gone_before_the_create_is_exit_1_with_the_reason(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = ask._ask(VanishingPortal(), dict(REQUEST))  # type: ignore[arg-type]
    said = capsys.readouterr()
    assert code == ask.EXIT_FAILED and said.out == ""
    assert "no choice portal answers at http://127.0.0.1:1 (Connection refused)" in said.err
