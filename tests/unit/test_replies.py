"""choice/core/replies.py: the terminal command an agent hands to a human reaches this very portal."""

from __future__ import annotations

import json
from pathlib import Path

from msgspec.structs import replace

from choice.contract import ChoiceRequest
from choice.core.config import Settings
from choice.core.replies import reply, terminal_command, whole_question
from choice.store.records import Interaction


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


PENDING = Interaction(id="q1", status="pending", title="Which store?", selection_mode="single",
                      interface="web", created_at=0.0, expires_at=60.0, request_json={})


def test_a_pending_question_hands_off_where_to_answer_and_how_to_poll() -> None:
    sent = reply(PENDING, Settings.from_env({}), "Poll again.").to_json()
    assert list(sent) == ["interaction_id", "session_id", "status", "interface", "url",
                          "terminal_command", "expires_at", "instructions"]
    assert (sent["session_id"], sent["status"], sent["terminal_command"]) == (
        "q1", "pending", "choice answer q1")
    assert "Poll again. An answer given between polls is kept." in sent["instructions"]


def test_an_ended_question_replies_with_its_stored_result_and_final_status() -> None:
    ended = replace(PENDING, status="cancelled",
                    result_json={"action_status": "cancelled", "status": "pending", "x": 1})
    sent = reply(ended, Settings.from_env({}), "Poll again.").to_json()
    assert sent == {"action_status": "cancelled", "status": "cancelled", "x": 1}


def test_the_whole_question_carries_every_field_the_human_sees_as_json() -> None:
    request = ChoiceRequest.model_validate({
        "title": "Which store?", "prompt": "Pick one.", "placeholder": "why",
        "options": [{"id": "a", "label": "SQLite"}, {"id": "b", "label": "PostgreSQL"}]})
    sent = whole_question(request).to_json()
    assert json.loads(json.dumps(sent)) == sent
    assert sent == {
        "title": "Which store?", "prompt": "Pick one.", "selection_mode": "single",
        "options": [option.model_dump() for option in request.options],
        "default_selection_ids": [], "min_selections": None, "max_selections": None,
        "placeholder": "why", "require_confirmation": False, "shape": "provide_choice",
        "questions": None}
