"""The widen flow's boxes (`terminal/screens/panels.py`) show a question's title as words: its
inline Markdown marks are drawn nowhere there, so they are taken off, and nothing else. In
Chinese every line of a box is as wide, in display cells, as the terminal draws it."""

from __future__ import annotations

from choice.contract.clock import now
from choice.core.i18n import translator
from choice.terminal.screens.panels import (
    audience_box,
    invited_box,
    pending_pass,
    shown_title,
    waiting_box,
)
from choice.terminal.team_view import Invitation, Member, TeamView
from choice.terminal.text import no_gap, width

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


def test_a_chinese_boxs_lines_are_as_wide_as_drawn_with_full_width_marks() -> None:
    _ = translator("zh")
    title = "要用 uv 吗？ 是的，换掉 pip"
    chinese = TeamView("block", now(), now() + 300, [Member("王芳", True), Member("李雷", False)],
                       [], {}, 0)
    for cols in (80, 50):
        boxes = [waiting_box(title, chinese, _, cols),
                 invited_box(Invitation(["王芳", "李雷"], [], []), title, "block", _, cols),
                 audience_box(title, ["王芳", "李雷"], _, cols)]
        for lines in boxes:
            drawn = [no_gap(line) for line in lines]  # what the screen puts (`Screen.put`)
            assert len({width(line) for line in drawn}) == 1, "\n".join(drawn)
