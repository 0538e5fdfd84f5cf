"""choice/terminal/key_table.py and the keys it describes: the hint bar never drops keys
silently, the help lists every key of the screen below it, and the keys themselves (the
option numbers, hiding an option, the note that opens on a pick) do what the table says."""

from __future__ import annotations

from choice.core.i18n import translator
from choice.terminal.key_table import Key, fit, help_key, help_lines, question_keys
from choice.terminal.state import hidden_by, remembered
from tests.unit.test_terminal_state import press, question, state

PARTS = [Key("move", 3, "Move."), Key("pick", 1, "Pick."), Key("submit", 0, "Send."),
         Key("cancel", 2, "Cancel."), Key("1-9", 9, "By number.", bar=False)]
HELP = Key("? help", 0, "This list.")


def test_the_bar_keeps_the_help_key_and_says_how_many_keys_it_left_out() -> None:
    assert fit(PARTS, 80, HELP) == "move · pick · submit · cancel · ? help"
    assert fit(PARTS, 36, HELP) == "pick · submit · cancel · ? help (+1)"
    assert fit(PARTS, 27, HELP) == "pick · submit · ? help (+2)"
    assert fit(PARTS, 6, HELP) == "submi…"  # one key left: clipped, never empty


def test_the_help_lists_every_key_of_the_table_with_its_sentence_even_those_off_the_bar() -> None:
    lines = help_lines(PARTS, HELP, translator("en"), 80)
    assert lines[0] == "Keys on this screen (↑↓ scroll, any other key closes this help):"
    for key in [*PARTS, HELP]:
        [line] = [line for line in lines if line.lstrip().startswith(key.hint + " ")]
        assert line.endswith(key.help)


def test_question_keys_name_the_number_keys_and_hiding_only_in_the_help() -> None:
    keys = question_keys(state())
    off_bar = {key.hint for key in keys if not key.bar}
    assert off_bar == {"1-9 pick by number", "h hide"}
    on_text_row = state(selection_mode="hybrid")
    on_text_row.cursor = 3
    assert help_key(on_text_row).hint == "F1 help"  # `?` types a question mark there
    assert help_key(state()).hint == "? help"


def test_question_mark_opens_the_help_and_the_next_key_only_closes_it() -> None:
    answer = press(state(), "?")
    assert answer.help_open
    press(answer, "2")
    assert not answer.help_open and answer.picked == set()  # closing did nothing else
    typed = state(selection_mode="hybrid")
    typed.cursor = 3
    press(typed, "?")
    assert typed.text == "?" and not typed.help_open
    press(typed, "f1")
    assert typed.help_open


def test_a_number_picks_that_option_and_in_multi_mode_toggles_it() -> None:
    single = press(state(), "2")
    assert single.picked == {"lite"} and single.cursor == 1
    press(single, "9")  # no ninth option: nothing happens
    assert single.picked == {"lite"}
    multi = press(state(selection_mode="multi", max_selections=3), "1", "3", "1")
    assert multi.picked == {"duck"}


def test_a_number_in_single_submit_mode_submits_like_space() -> None:
    answer = press(state(single_submit_mode=True), "3")
    [effect] = answer.effects
    assert effect.kind == "submit" and effect.payload.selected_ids == ["duck"]


def test_hiding_an_option_renumbers_the_rest_and_is_saved_by_label() -> None:
    answer = press(state(), "h")
    assert [o.id for o in answer.options] == ["lite", "duck"]
    [effect] = answer.effects
    assert effect.kind == "save_settings" and effect.payload == {"hidden_options": ["PostgreSQL"]}
    answer.effects.clear()
    press(answer, "1")
    assert answer.picked == {"lite"}  # 1 is the first option shown now
    press(answer, "h", "h")  # the last one shown stays
    assert [o.id for o in answer.options] == ["duck"]
    assert "last option" in answer.message
    press(answer, "H")
    assert len(answer.options) == 3 and answer.effects[-1].payload == {"hidden_options": []}


def test_saved_hidden_labels_hide_options_next_time_but_never_a_picked_or_every_one() -> None:
    settings = {"hidden_options": ["sqlite", "Other label"]}
    assert hidden_by(settings, question()) == {"lite"}
    defaulted = state(settings, default_selection_ids=["lite"])
    assert defaulted.hidden == set()  # a default pick is shown: nothing is sent unseen
    everything = {"hidden_options": ["PostgreSQL", "SQLite", "DuckDB"]}
    assert hidden_by(everything, question()) == set()
    assert remembered(settings, question(), {"pg"}) == ["Other label", "PostgreSQL"]


def test_with_note_focus_pick_a_pick_opens_its_note_and_enter_gives_the_focus_back() -> None:
    answer = press(state({"note_focus": "pick"}), "down", "space")
    assert answer.stage == "note" and answer.picked == {"lite"}
    press(answer, "f", "a", "s", "t", "enter")
    assert answer.stage == "choose" and answer.cursor == 1 and answer.notes == {"lite": "fast"}
    plain = press(state({"note_focus": "tab"}), "space")
    assert plain.stage == "choose"


def test_preferences_saved_before_these_fields_load_with_their_defaults() -> None:
    from choice.contract import Preferences, PreferencesPatch

    old = Preferences.model_validate({"terminal_hints": False, "notifications": True})
    assert (old.note_focus, old.hidden_options) == ("tab", [])
    patch = PreferencesPatch.model_validate({"hidden_options": ["SQLite"], "note_focus": "pick"})
    assert patch.hidden_options == ["SQLite"] and patch.note_focus == "pick"
