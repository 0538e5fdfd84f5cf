"""choice/terminal/questions.py and tabs.py: several questions' keys, checks and one
submission, and the tab bar's layout at any width (no curses, no network)."""

from __future__ import annotations

from typing import Any

import pytest

from choice.contract.clock import iso
from choice.contract.validation import validate_request
from choice.terminal.question import Question
from choice.terminal.questions import QuestionsState
from choice.terminal.questions_review import reviewed
from choice.terminal.screens.tabs import Tab, chip, tab_bar
from choice.terminal.text import width
from tests.unit.test_terminal_state import portal_check

QUESTIONS: list[dict[str, Any]] = [
    {"id": "db", "header": "Database", "prompt": "Which database?",
     "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}],
     "default_selection_ids": ["lite"]},
    {"id": "feat", "prompt": "Which features?", "selection_mode": "multi",
     "options": [{"id": "logs", "label": "Logs"}, {"id": "traces", "label": "Traces"}]},
    {"id": "name", "header": "\x1b[2JName", "prompt": "What do we call it?",
     "selection_mode": "text_input"},
]


def several(**fields: Any) -> QuestionsState:
    request = validate_request({"title": "New service", "prompt": "Context first.",
                                "questions": QUESTIONS, "allow_annotations": True,
                                **fields}).request
    asked = Question.from_detail({
        "interaction_id": "i-1", "request": request.model_dump(mode="json"),
        "created_at": iso(1_700_000_000.0), "expires_at": iso(1_700_000_300.0),
        "status": "pending", "language": "en"})
    return QuestionsState.build(asked, portal_check(asked), {}, placeholder_shown=False)


def press(multi: QuestionsState, *keys: str) -> QuestionsState:
    for key in keys:
        multi.key(key)
    return multi


def test_each_question_gets_a_safe_chip_and_the_first_the_context() -> None:
    multi = several()
    assert [s.header for s in multi.states] == ["Database", "Q2", "␛Name"]
    assert multi.states[0].question.title == "Question 1 of 3 · Database"
    assert multi.states[0].question.prompt == "Context first.\n\nWhich database?"
    assert multi.states[1].question.prompt == "Which features?"
    assert multi.states[1].question.multi and multi.states[2].question.has_text


def test_arrows_and_tab_move_between_questions_and_the_review_wrapping_around() -> None:
    multi = several()
    press(multi, "right")
    assert (multi.index, multi.reviewing) == (1, False)
    press(multi, "tab", "tab")
    assert multi.reviewing
    press(multi, "tab")
    assert (multi.index, multi.reviewing) == (0, False)
    press(multi, "btab")
    assert multi.reviewing
    press(multi, "left")
    assert (multi.index, multi.reviewing) == (2, False)


def test_enter_checks_this_question_alone_and_moves_on() -> None:
    multi = several()
    press(multi, "enter")  # the default SQLite stands; the text question is not judged here
    assert (multi.index, multi.confirmed) == (1, {0})
    press(multi, "enter")  # a multi question with nothing picked: its own error, stays
    assert multi.index == 1 and "at least 1" in multi.current.message
    press(multi, "space", "enter")
    assert (multi.index, multi.confirmed) == (2, {0, 1})


def test_letters_type_on_a_text_question_and_n_is_a_note_elsewhere() -> None:
    multi = several()
    press(multi, "n")
    assert multi.current.stage == "note"
    press(multi, *"fast", "enter")
    assert multi.current.notes == {"pg": "fast"}
    press(multi, "left", "left")  # the review, then the text question: letters type there
    press(multi, *"billing", "space", "n")
    assert (multi.index, multi.current.text, multi.current.stage) == (2, "billing n", "choose")


def test_the_submission_carries_only_what_was_answered_with_only_set_fields() -> None:
    multi = several()
    press(multi, "down", "space", "enter", "space", "enter", *"billing", "enter")
    assert multi.reviewing
    press(multi, "enter")
    effect = multi.effects.pop()
    assert effect.kind == "submit"
    body = effect.payload.model_dump(exclude_none=True, exclude_unset=True)
    assert body == {"answers": {"db": {"selected_ids": ["lite"]},
                                "feat": {"selected_ids": ["logs"]},
                                "name": {"custom_input": "billing"}},
                    "interface": "terminal", "submission": "manual"}


def test_a_submit_with_an_unanswered_question_opens_it_with_the_error() -> None:
    multi = several()
    press(multi, "enter", "tab", "tab")  # Database by default; Features and Name skipped
    assert multi.reviewing
    assert [reviewed(multi, i, multi.translate).kind for i in range(3)] == [
        "answered", "unanswered", "unanswered"]
    press(multi, "enter")
    assert not multi.effects
    assert (multi.reviewing, multi.index) == (False, 1)
    assert "at least 1" in multi.current.message


def test_the_review_shows_defaults_and_notes_and_opens_a_question_by_row() -> None:
    multi = several()
    press(multi, "tab", "tab", "tab")
    first = reviewed(multi, 0, multi.translate)
    assert (first.said, first.kind) == ("Default: SQLite", "defaulted")
    press(multi, "up", "up", "up", "enter")
    assert (multi.reviewing, multi.index) == (False, 0)
    press(multi, "n", *"why", "enter", "space", "enter")
    row = reviewed(multi, 0, multi.translate)
    assert (row.said, row.notes, row.kind) == ("PostgreSQL", ["Note on PostgreSQL: why"],
                                               "answered")


def test_the_note_for_the_agent_is_shared_by_every_question() -> None:
    multi = several()
    press(multi, "g", *"thanks", "enter", "tab")
    assert multi.current.global_note == "thanks"
    press(multi, "space", "enter", *"x", "enter", "enter")
    assert multi.effects[-1].payload.global_annotation == "thanks"


def test_confirmation_is_the_review_itself() -> None:
    multi = several(require_confirmation=True)
    press(multi, "enter", "space", "enter", *"billing", "enter", "enter")
    assert multi.effects[-1].payload.confirmed is True


# -- the tab bar --------------------------------------------------------------------------------
TABS = [Tab("Database", True), Tab("Q2"), Tab("数据库名称"), Tab("Features"), Tab("Naming"),
        Tab("Deploy", True), Tab("Region"), Tab("Budget"), Tab("Owner"), Tab("Review")]


def test_all_chips_show_when_they_fit_with_the_current_one_marked() -> None:
    segments = tab_bar(TABS[:3], 1, 80)
    assert segments == [(" ✓ Database ", "done"), (" ", "gap"), (" Q2 ", "current"),
                        (" ", "gap"), (" 数据库名称 ", "todo")]


@pytest.mark.parametrize("cells", [8, 12, 20, 30, 45, 57, 60, 80])
def test_the_bar_never_needs_more_than_its_width_and_keeps_the_current_chip(cells: int) -> None:
    for current in range(len(TABS)):
        segments = tab_bar(TABS, current, cells)
        assert sum(width(text) for text, _kind in segments) <= cells
        assert [kind for _text, kind in segments].count("current") == 1
        shown = next(text for text, kind in segments if kind == "current")
        if cells >= 20:
            assert TABS[current].label in shown
        kinds = [kind for _text, kind in segments]
        assert ("more" in kinds) == (width(" ".join(chip(tab) for tab in TABS)) > cells)


def test_letters_on_the_review_never_type_into_the_text_question_shown_last() -> None:
    multi = several()
    press(multi, "left", "left", *"x", "enter")  # the text question, then the review
    assert multi.reviewing and multi.current.text == "x"
    press(multi, "s")
    assert (multi.current.stage, multi.current.text) == ("settings", "x")
    press(multi, "esc", "q")
    assert (multi.current.stage, multi.current.text) == ("cancel", "x")
