"""The question's own keys: move (arrows, j/k), pick (space), type on the text row, submit
(Enter), notes (Tab, `g`), cancel (`q`, Esc), and the keys that open the other stages:
settings (`s`), widen (`w`), defer (`d`), fetch & review (`f`), take up again (`r`);
and the confirmation step (`y`, `b`, `c`).

On the text row letters type, so Ctrl-G (the note for the agent), Ctrl-O (the settings),
Ctrl-W (widen), Ctrl-D (defer), Ctrl-F (fetch & review) and Ctrl-R (take a deferred
question up again) stand in for `g`, `s`, `w`, `d`, `f` and `r` there; they work on every
line. What must happen outside is queued in `state.effects`. No curses, no network.
"""

from __future__ import annotations

from choice.terminal.keys import MOVES, Effect
from choice.terminal.stages.review import open_defer
from choice.terminal.state import AnswerState


def choose_key(state: AnswerState, key: str) -> None:
    question, _ = state.question, state.translate
    typing = state.on_text_row and (len(key) == 1 or key in ("space", "backspace"))
    if key in MOVES or (key in ("j", "k") and not typing):
        step = MOVES.get(key, 1 if key == "j" else -1)
        state.cursor = max(0, min(state.rows - 1, state.cursor + step))
    elif typing:
        state.text = state.text[:-1] if key == "backspace" else state.text + (
            " " if key == "space" else key)
    elif key == "space":
        _pick(state)
    elif key == "enter":
        if not question.multi and not state.picked and not state.on_text_row \
                and question.options:
            state.picked = {question.options[state.cursor].id}
        state.submit()
    elif key == "tab" and state.annotations and not state.on_text_row and question.options:
        option = question.options[state.cursor]
        state.open_editor("note", _("Note on {label}").format(label=option.label),
                          state.notes.get(option.id, ""))
    elif key in ("g", "^G") and state.annotations:
        state.open_editor("global", _("Note for the agent"), state.global_note)
    elif key in ("q", "esc"):
        state.open_cancel()
    elif key in ("s", "^O"):
        state.stage, state.setting_cursor = "settings", 0
    elif key in ("w", "^W") and state.can_widen:
        state.effects.append(Effect("widen_open"))
    elif key in ("d", "^D") and state.can_defer:
        open_defer(state)
    elif key in ("f", "^F") and state.can_review:
        state.effects.append(Effect("review"))
    elif key in ("r", "^R") and state.deferral is not None:
        state.effects.append(Effect("resume"))
    elif key == "^C" and state.team is not None:
        state.effects.append(Effect("leave"))


def _pick(state: AnswerState) -> None:
    question, _ = state.question, state.translate
    if not question.options or state.on_text_row:
        return
    option_id = question.options[state.cursor].id
    if question.multi:
        state.picked ^= {option_id}
        return
    state.picked = {option_id}
    if question.request.single_submit_mode and not state.typed_anything():
        state.submit(auto=True)
    elif question.request.single_submit_mode:
        state.message = _("You have typed something: press Enter when ready")


def confirm_key(state: AnswerState, key: str) -> None:
    """The confirmation step (`require_confirmation`): y or Enter sends, b goes back."""
    if key in ("y", "enter") and state.pending is not None:
        state.effects.append(Effect("submit", state.pending))
    elif key in ("b", "esc"):
        state.stage, state.pending = "choose", None
    elif key in ("c", "q"):
        state.pending = None
        state.open_cancel()
