"""The files line of `choice answer`: each file the agent shows by name and size, and the
real path `choice mcp` read it from, in the person's language."""

from __future__ import annotations

import base64
from typing import Any

from choice.contract.validation import validate_request
from choice.core.i18n import translator
from choice.terminal.question import Question
from tests.unit.test_terminal_state import OPTIONS, iso


def asked(language: str, source_path: str | None) -> Question:
    request = validate_request({
        "title": "Pick a chart", "prompt": "Which one?", "options": OPTIONS,
        "attachments": [{"name": "bars.png", "mime_type": "image/png",
                         "data": base64.b64encode(b"\x89PNG" + b"\0" * 1196).decode()}],
    }).request.model_dump(mode="json")
    stored: dict[str, Any] = {**request["attachments"][0], "size": 1200,
                              "source_path": source_path}
    request["attachments"] = [stored]
    return Question.from_detail({
        "interaction_id": "i-1", "request": request, "created_at": iso(1_700_000_000.0),
        "expires_at": iso(1_700_000_300.0), "status": "pending", "language": language})


def test_a_file_read_by_choice_mcp_shows_where_it_was_read_from() -> None:
    line = asked("en", "/home/me/app/bars.png\x1b[2J").files_line(translator("en"))
    assert line == ("Files: bars.png (1 KB) from /home/me/app/bars.png␛. "
                    "To see them: choice open i-1")
    assert "读取自 /home/me/app/bars.png" in asked("zh", "/home/me/app/bars.png").files_line(
        translator("zh"))


def test_a_file_sent_as_data_shows_no_path() -> None:
    assert asked("en", None).files_line(translator("en")) == (
        "Files: bars.png (1 KB). To see them: choice open i-1")
