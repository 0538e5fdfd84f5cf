"""choice/core/replies.py: the terminal command an agent hands to a human reaches this very portal."""

from __future__ import annotations

import json
from pathlib import Path

from choice.core.config import Settings
from choice.core.replies import terminal_command


def test_a_portal_with_the_defaults_needs_no_environment() -> None:
    assert terminal_command(Settings.from_env({}), "abc") == "choice answer abc"


def test_a_portal_elsewhere_says_where(tmp_path: Path) -> None:
    settings = Settings.from_env({"CHOICE_PORT": "9001", "CHOICE_DATA_DIR": str(tmp_path / "d x"),
                                  "CHOICE_HOST": "10.0.0.5"})
    assert terminal_command(settings, "abc") == (
        f"CHOICE_PORT=9001 CHOICE_HOST=10.0.0.5 CHOICE_DATA_DIR='{tmp_path / 'd x'}' "
        "choice answer abc")


def test_the_wildcard_and_loopback_hosts_are_reached_through_the_default() -> None:
    for host in ("0.0.0.0", "::", "localhost"):
        assert terminal_command(Settings.from_env({"CHOICE_HOST": host}), "i") == "choice answer i"


def test_the_mcp_config_carries_what_the_terminal_command_carries(tmp_path: Path) -> None:
    from choice.mcp.client_config import render

    settings = Settings.from_env({"CHOICE_DATA_DIR": str(tmp_path), "CHOICE_PORT": "9123",
                                  "CHOICE_HOST": "10.0.0.5"})
    command = json.loads(render("json", settings))["command_form"]
    assert command["env"] == {"CHOICE_PORT": "9123", "CHOICE_HOST": "10.0.0.5",
                              "CHOICE_DATA_DIR": str(tmp_path)}
    assert terminal_command(settings, "abc").startswith(
        f"CHOICE_PORT=9123 CHOICE_HOST=10.0.0.5 CHOICE_DATA_DIR={tmp_path} choice answer")
