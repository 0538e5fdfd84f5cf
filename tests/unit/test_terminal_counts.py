"""Counts in the terminal's words (choice/terminal/screens/screen.py,
choice/terminal/plain/lines.py): "1 option" and "3 options" in English, Chinese's one form
for both, picked by each catalog's plural rule."""

from __future__ import annotations

from choice.core.i18n import translator
from choice.terminal.plain.lines import prompt_line
from choice.terminal.screens.screen import Screen
from choice.terminal.state import AnswerState
from tests.unit.test_terminal_state import portal_check, question


def bounds(language: str, **fields: object) -> str:
    asked = question(**fields)
    answer = AnswerState(asked, portal_check(asked), translator(language))
    return Screen(None, answer, lambda: False).bounds()


def test_the_screen_says_option_for_one_and_options_for_more() -> None:
    assert bounds("en", selection_mode="multi", min_selections=1, max_selections=1) == (
        "Choose 1 option:")
    assert bounds("en", selection_mode="multi", min_selections=3, max_selections=3) == (
        "Choose 3 options:")
    assert bounds("en", selection_mode="multi", min_selections=1, max_selections=3) == (
        "Choose 1 to 3 options:")


def test_the_screen_in_chinese_has_one_form_for_every_count() -> None:
    assert bounds("zh", selection_mode="multi", min_selections=1, max_selections=1) == "选择 1 项："
    assert bounds("zh", selection_mode="multi", min_selections=3, max_selections=3) == "选择 3 项："


def test_the_plain_prompt_counts_numbers() -> None:
    # (a multi question that allows one pick reads "Choose a number": no count to word)
    three = question(selection_mode="multi", min_selections=1, max_selections=3)
    assert prompt_line(three, translator("en")).startswith("Choose 1 to 3 numbers  (")
    assert prompt_line(three, translator("zh")).startswith("选择 1 到 3 个编号  (")
