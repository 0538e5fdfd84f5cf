"""The line editors' keys: a note on an option, the note for the agent, the reason for a
cancel, and a setting's value. Enter keeps what was typed, Esc drops it; either way the
stage goes back (to the question, or to the settings). The write-back's and the widen
dialog's editors are their own stages' (`review.py`, `widen.py`). No curses, no network.
"""

from __future__ import annotations

from choice.terminal.keys import Effect
from choice.terminal.stages.settings import typed_setting
from choice.terminal.state import AnswerState


def edit_key(state: AnswerState, key: str) -> None:
    assert state.editor is not None
    verdict = state.editor.key(key)
    if verdict is None:
        return
    value, stage = state.editor.text.strip(), state.stage
    state.editor = None
    state.stage = "settings" if stage == "edit_setting" else "choose"
    if verdict == "abort":
        return
    if stage == "note":
        assert state.focused is not None
        option_id = state.focused.id
        if value:
            state.notes[option_id] = value
        else:
            state.notes.pop(option_id, None)  # an empty note is no note
    elif stage == "global":
        state.global_note = value
    elif stage == "cancel":
        state.effects.append(Effect("cancel", value or None))
    elif stage == "edit_setting":
        typed_setting(state, state.editing_setting, value)
