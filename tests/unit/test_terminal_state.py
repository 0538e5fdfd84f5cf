"""choice/terminal/state.py and choice/terminal/stages/: what each key does to the terminal
UI's state, no curses, no network (and the key names the screen gives curses' keys)."""

from __future__ import annotations

import curses
from typing import Any

from choice.contract import Submission
from choice.contract.clock import iso
from choice.contract.normalize import Completion, normalize_submission
from choice.contract.validation import validate_request
from choice.core.i18n import translator
from choice.terminal.keys import Effect
from choice.terminal.question import Question
from choice.terminal.screens.key_names import key_name
from choice.terminal.stages.press import press as press_key
from choice.terminal.stages.review import open_final, open_review
from choice.terminal.stages.settings import setting_rows
from choice.terminal.state import AnswerState, Check
from choice.terminal.write_back import Candidate

OPTIONS = [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"},
           {"id": "duck", "label": "DuckDB"}]


def question(**fields: Any) -> Question:
    """A validated single-choice question over pg, lite, duck; keyword arguments override it."""
    payload: dict[str, Any] = {"title": "Pick a store", "prompt": "Which one?",
                               "options": OPTIONS, **fields}
    if payload.get("selection_mode") == "text_input":
        payload.pop("options")
    request = validate_request(payload).request
    return Question.from_detail({
        "interaction_id": "i-1", "request": request.model_dump(mode="json"),
        "created_at": iso(1_700_000_000.0), "expires_at": iso(1_700_000_300.0),
        "status": "pending", "placeholder_shown": bool(request.placeholder), "language": "en"})


def portal_check(asked: Question) -> Check:
    """What the portal's dry run does, in-process: its own judge of a submission."""
    def check(submission: Submission) -> None:
        done = Completion(asked.id, "terminal", asked.created_at, asked.created_at + 1,
                          bool(asked.placeholder))
        normalize_submission(asked.request, submission, done)

    return check


def state(settings: dict[str, Any] | None = None, **fields: Any) -> AnswerState:
    asked = question(**fields)
    return AnswerState(asked, portal_check(asked), settings=settings or {})


def press(answer: AnswerState, *keys: str) -> AnswerState:
    for key in keys:
        press_key(answer, key)
    return answer


def submitted(answer: AnswerState) -> Submission:
    [effect] = answer.effects
    assert effect.kind == "submit"
    assert isinstance(effect.payload, Submission)
    return effect.payload


# -- moving and picking ---------------------------------------------------------------------------
def test_arrows_and_j_k_move_and_stop_at_either_end() -> None:
    answer = state()
    assert press(answer, "down").cursor == 1
    assert press(answer, "j", "j", "j").cursor == 2
    assert press(answer, "up").cursor == 1
    assert press(answer, "k", "k", "k").cursor == 0


def test_space_picks_one_option_in_a_single_choice() -> None:
    answer = press(state(), "space", "j", "space")
    assert answer.picked == {"lite"}
    assert answer.effects == []


def test_space_toggles_options_in_a_multi_choice() -> None:
    answer = press(state(selection_mode="multi", max_selections=3), "space", "j", "space")
    assert answer.picked == {"pg", "lite"}
    assert press(answer, "space").picked == {"pg"}


def test_defaults_start_picked() -> None:
    assert state(default_selection_ids=["duck"]).picked == {"duck"}


def test_enter_submits_the_picked_options_in_option_order() -> None:
    answer = press(state(selection_mode="multi", max_selections=3), "j", "j", "space", "k", "k",
                   "space", "enter")
    payload = submitted(answer)
    assert payload.selected_ids == ["pg", "duck"]
    assert (payload.submission, payload.interface, payload.confirmed) == (
        "manual", "terminal", None)


def test_enter_with_nothing_picked_takes_the_focused_option_of_a_single_choice() -> None:
    assert submitted(press(state(), "j", "enter")).selected_ids == ["lite"]


def test_single_submit_mode_submits_on_the_first_pick() -> None:
    payload = submitted(press(state(single_submit_mode=True), "j", "space"))
    assert (payload.selected_ids, payload.submission) == (["lite"], "auto")


def test_single_submit_mode_does_not_submit_over_typed_text() -> None:
    answer = press(state(selection_mode="hybrid", single_submit_mode=True),
                   "down", "down", "down", "R", "e", "d", "up", "space")
    assert answer.effects == []
    assert answer.picked == {"duck"}
    assert answer.message == "You have typed something: press Enter when ready"
    payload = submitted(press(answer, "enter"))
    assert (payload.selected_ids, payload.custom_input, payload.submission) == (
        ["duck"], "Red", "manual")


def test_single_submit_mode_does_not_submit_over_a_note() -> None:
    answer = press(state(single_submit_mode=True), "tab", "x", "enter", "space")
    assert answer.effects == [] and answer.picked == {"pg"}


# -- the text line ------------------------------------------------------------------------------
def test_on_the_text_line_letters_type_and_arrows_still_move() -> None:
    answer = press(state(selection_mode="hybrid"), "j", "j", "j")
    assert answer.on_text_row
    press(answer, "j", "k", "q", "s", "g", "space", "x", "x", "backspace")
    assert (answer.text, answer.stage) == ("jkqsg x", "choose")
    assert not press(answer, "up").on_text_row
    assert press(answer, "j", "j").cursor == 3  # j moves again off the text line, stops on it


def test_a_typed_hybrid_answer_is_custom_input() -> None:
    answer = press(state(selection_mode="hybrid"), "down", "down", "down", "H", "i", "enter")
    payload = submitted(answer)
    assert (payload.selected_ids, payload.custom_input) == ([], "Hi")


def test_a_text_input_question_starts_on_its_text_line() -> None:
    answer = state(selection_mode="text_input")
    assert answer.on_text_row and answer.rows == 1
    assert submitted(press(answer, "4", "2", "enter")).custom_input == "42"


def test_ctrl_g_and_ctrl_o_reach_the_note_and_the_settings_from_the_text_line() -> None:
    answer = press(state(selection_mode="text_input"), "^G")
    assert answer.stage == "global"
    press(answer, "o", "k", "enter", "^O")
    assert (answer.global_note, answer.stage, answer.text) == ("ok", "settings", "")


# -- notes --------------------------------------------------------------------------------------
def test_tab_edits_the_note_of_the_focused_option() -> None:
    answer = press(state(), "j", "tab")
    assert answer.stage == "note"
    assert answer.editor is not None and answer.editor.label == "Note on SQLite"
    press(answer, "f", "a", "s", "t", "space", "!", "enter")
    assert (answer.notes, answer.stage) == ({"lite": "fast !"}, "choose")
    press(answer, "space", "enter")
    assert submitted(answer).option_annotations == {"lite": "fast !"}


def test_the_note_editor_opens_on_the_note_as_it_is_and_esc_keeps_it() -> None:
    answer = press(state(), "tab", "a", "b", "enter", "tab")
    assert answer.editor is not None and answer.editor.text == "ab"
    press(answer, "backspace", "backspace", "z", "esc")
    assert (answer.notes, answer.stage) == ({"pg": "ab"}, "choose")


def test_an_emptied_note_is_no_note() -> None:
    answer = press(state(), "tab", "a", "enter", "tab", "backspace", "enter")
    assert answer.notes == {}
    press(answer, "tab", "space", "space", "enter")
    assert answer.notes == {}


def test_g_writes_the_note_for_the_agent_and_blank_means_none() -> None:
    answer = press(state(), "g", "s", "h", "i", "p", "enter")
    assert answer.global_note == "ship"
    press(answer, "g", *["backspace"] * 4, "space", "enter")
    assert answer.global_note == ""
    assert submitted(press(answer, "space", "enter")).global_annotation is None


def test_tab_and_g_do_nothing_when_notes_are_off() -> None:
    answer = press(state(allow_annotations=False), "tab", "g")
    assert (answer.stage, answer.editor) == ("choose", None)


# -- bounds and confirmation ---------------------------------------------------------------------
def test_min_and_max_explain_themselves_and_block_the_submit() -> None:
    answer = press(state(selection_mode="multi", min_selections=1, max_selections=2), "enter")
    assert answer.message == "0 selected: choose at least 1 option."
    press(answer, "space", "j", "space", "j", "space", "enter")
    assert answer.message == "3 options selected but at most 2 are allowed: deselect some."
    assert answer.effects == []
    press(answer, "space")
    assert answer.message == ""  # the next key clears the explanation
    assert submitted(press(answer, "enter")).selected_ids == ["pg", "lite"]


def test_a_hybrid_or_text_answer_missing_is_explained_without_api_words() -> None:
    hybrid = press(state(selection_mode="hybrid"), "down", "down", "down", "enter")
    assert hybrid.message == "Pick an option or write your own answer."
    text = press(state(selection_mode="text_input"), "enter")
    assert text.message == "Type your answer first."
    assert hybrid.effects == text.effects == []


def test_confirmation_holds_the_answer_until_y() -> None:
    answer = press(state(require_confirmation=True), "space", "enter")
    assert (answer.stage, answer.effects) == ("confirm", [])
    assert answer.pending is not None and answer.pending.selected_ids == ["pg"]
    payload = submitted(press(answer, "y"))
    assert (payload.selected_ids, payload.confirmed) == (["pg"], True)


def test_b_on_the_confirmation_goes_back_and_c_cancels() -> None:
    answer = press(state(require_confirmation=True), "space", "enter", "b")
    assert (answer.stage, answer.pending, answer.effects) == ("choose", None, [])
    press(answer, "j", "space", "enter", "enter")
    assert submitted(answer).selected_ids == ["lite"]
    cancelling = press(state(require_confirmation=True), "space", "enter", "c")
    assert (cancelling.stage, cancelling.pending) == ("cancel", None)


# -- cancel -----------------------------------------------------------------------------------------
def test_q_and_esc_ask_for_an_optional_note_before_cancelling() -> None:
    answer = press(state(), "q")
    assert answer.editor is not None and answer.editor.label == "Why cancel? (optional)"
    assert press(answer, "n", "o", "enter").effects == [Effect("cancel", "no")]
    assert press(state(), "esc", "enter").effects == [Effect("cancel", None)]
    assert press(state(), "q", "esc").effects == []  # Esc in the editor: not cancelled


# -- settings ----------------------------------------------------------------------------------------
def to_row(answer: AnswerState, row: str) -> AnswerState:
    return press(answer, "s", *["j"] * setting_rows(answer).index(row))


def test_s_opens_the_settings_and_esc_q_or_s_close_them() -> None:
    for key in ("esc", "q", "s", "^O"):
        answer = press(state(), "s")
        assert (answer.stage, answer.setting_cursor) == ("settings", 0)
        answer.message = "Saved."
        assert press(answer, key).stage == "choose"
        assert answer.message == ""
    assert press(to_row(state(), "back"), "enter").stage == "choose"


def test_each_setting_row_saves_its_new_value() -> None:
    settings = {"interface": "web", "timeout_seconds": 300, "language": None,
                "allow_annotations": True, "show_placeholder": False, "terminal_hints": True}
    changes = {"interface": {"interface": "terminal"}, "language": {"language": "zh"},
               "allow_annotations": {"allow_annotations": False},
               "show_placeholder": {"show_placeholder": True},
               "terminal_hints": {"terminal_hints": False}}
    for row, change in changes.items():
        answer = press(to_row(state(settings), row), "enter")
        assert answer.effects == [Effect("save_settings", change)], row
        assert answer.stage == "settings"
    for saved, following in (("off", "form"), ("form", "url"), ("url", "off"), (None, "form")):
        answer = press(to_row(state({**settings, "elicitation": saved}), "elicitation"), "enter")
        assert answer.effects == [Effect("save_settings", {"elicitation": following})], saved


def test_the_time_to_answer_is_typed_in_minutes_in_an_editor() -> None:
    answer = press(to_row(state({"timeout_seconds": 300}), "timeout_seconds"), "enter")
    assert answer.editor is not None and answer.editor.text == "5"
    press(answer, "backspace", "1", ".", "5", "enter")
    assert answer.effects == [Effect("save_settings", {"timeout_seconds": 90})]
    assert answer.stage == "settings"
    press(answer, "enter", "x", "enter")  # not a number: said in minutes, nothing saved
    assert len(answer.effects) == 1
    assert answer.message == "Enter the minutes, up to 1440 (24 hours), e.g. 5."


def test_switching_to_the_web_is_an_effect() -> None:
    answer = press(to_row(state(), "switch_to_web"), "space")
    assert answer.effects == [Effect("switch_to_web")]


def test_after_the_time_left_changed_its_minutes_can_become_the_default_time() -> None:
    answer = state({"timeout_seconds": 300})
    assert "time_default" not in setting_rows(answer)  # nothing changed here yet
    press(to_row(answer, "time_left"), "enter", "^U", "3", "0", "enter")
    assert answer.effects == [Effect("set_deadline", 30.0)]
    answer.effects.clear()
    answer.time_given = 1800  # what the session records once the portal took it
    press(to_row(press(answer, "esc"), "time_default"), "enter")
    assert answer.effects == [Effect("save_settings", {"timeout_seconds": 1800})]


def test_a_default_time_outside_the_bounds_is_clamped() -> None:
    answer = state({"timeout_seconds": 300})
    answer.time_given = 6
    press(to_row(answer, "time_default"), "enter")
    assert answer.effects == [Effect("save_settings", {"timeout_seconds": 10})]


def test_continuing_in_the_browser_can_make_it_the_default() -> None:
    assert "web_default" not in setting_rows(state({"interface": "web"}))
    answer = press(to_row(state({"interface": "terminal"}), "web_default"), "enter")
    assert answer.effects == [Effect("switch_to_web", {"interface": "web"})]


def test_the_chime_volume_steps_by_ten_or_is_typed() -> None:
    answer = press(to_row(state({"sound_volume": 50}), "sound_volume"), "right")
    assert answer.effects == [Effect("save_settings", {"sound_volume": 60})]
    answer = press(to_row(state({"sound_volume": 95}), "sound_volume"), "right")
    assert answer.effects == [Effect("save_settings", {"sound_volume": 100})]  # at most 100
    answer = press(to_row(state({"sound_volume": 50}), "sound_volume"), "enter", "^U", "7", "enter")
    assert answer.effects == [Effect("save_settings", {"sound_volume": 7})]
    answer = press(to_row(state({"sound_volume": 50}), "sound_volume"), "enter", "^U",
                   "2", "0", "0", "enter")
    assert answer.effects == []
    assert answer.message == "Enter a volume from 0 (silent) to 100, e.g. 50."
    assert answer.stage == "settings"



def test_the_write_back_s_editor_lines_speak_the_question_s_language() -> None:
    """The deferral's and the final answer's labels were missing from the catalogs."""
    asked = question()
    answer = AnswerState(asked, portal_check(asked), translator("zh"))
    editor = press(answer, "d").editor
    assert editor is not None and editor.label == "推迟理由（必填）"
    open_review(answer, Candidate.from_review({"state": "candidate_ready",
                                               "candidate_answer": "SQLite"}))
    open_final(answer, "SQLite")
    assert answer.editor is not None and answer.editor.label == "最终答案"


def test_curses_keys_get_the_names_the_state_knows() -> None:
    names = {curses.KEY_UP: "up", curses.KEY_DOWN: "down", curses.KEY_RESIZE: "resize",
             "\n": "enter", " ": "space", "\t": "tab", "\x1b": "esc", "\x7f": "backspace",
             "\x07": "^G", "\x0f": "^O", "\x01": "^A", "\x18": "^X", "é": "é", "中": "中",
             "\x02": None, 9999: None}
    for key, name in names.items():
        assert key_name(key) == name, key
