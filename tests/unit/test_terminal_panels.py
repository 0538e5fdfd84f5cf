"""The widen flow's boxes (`terminal/screens/panels.py`) show a question's title as words: its
inline Markdown marks are drawn nowhere there, so they are taken off, and nothing else."""

from __future__ import annotations

from choice.contract.clock import now
from choice.core.i18n import translator
from choice.terminal.screens.panels import audience_box, pending_pass, shown_title, waiting_box
from choice.terminal.team_view import Member, TeamView

TITLE = "Ship **v2** with `uv lock`?"


def view() -> TeamView:
    return TeamView("block", now(), now() + 300, [Member("Alice", True)], [], {}, 0)


def test_a_title_loses_its_inline_marks_and_keeps_what_only_looks_like_markdown() -> None:
    assert shown_title(TITLE) == "Ship v2 with uv lock?"
    assert shown_title("# 12 failing tests") == "# 12 failing tests"
    assert shown_title("1. Rename the table?") == "1. Rename the table?"


def test_the_boxes_name_the_question_without_its_marks() -> None:
    _ = translator("en")
    boxes = {"audience": audience_box(TITLE, ["Alice"], _, 80),
             "waiting": waiting_box(TITLE, view(), _, 80, "http://127.0.0.1:8765/choice/i-1"),
             "pending": pending_pass([("i-1", TITLE, view())], _, 80)}
    for name, lines in boxes.items():
        text = "\n".join(lines)
        assert "Ship v2 with uv lock?" in text, name
        assert "**" not in text and "`uv" not in text, name
