"""The question's own keys: move (arrows, j/k; up on the first option scrolls to the text
above it, down scrolls back first), pick (space, or an option's number 1-9 as
AskUserQuestion and questionary take it), type on the text row, submit (Enter), notes (Tab,
`g`), hide the option under the cursor (`h`) or show the hidden ones again (`H`), cancel
(`q`, Esc), and the keys that open the other stages: settings (`s`), widen (`w`), defer
(`d`), fetch & review (`f`), take up again (`r`), attach a file (`a`) or remove one (`A`);
and the confirmation step (`y`, `b`, `c`).

On the text row letters type, so Ctrl-G (the note for the agent), Ctrl-O (the settings),
Ctrl-W (widen), Ctrl-D (defer), Ctrl-F (fetch & review), Ctrl-R (take a deferred
question up again), Ctrl-A (attach) and Ctrl-X (remove a file) stand in for `g`, `s`,
`w`, `d`, `f`, `r`, `a` and `A` there; they work on every line. What must happen outside
is queued in `state.effects`. No curses, no network.
"""

from __future__ import annotations

from choice.terminal.keys import MOVES, Effect
from choice.terminal.stages.files import open_attach, open_detach
from choice.terminal.stages.review import open_defer
from choice.terminal.state import AnswerState, remembered

NUMBERS = "123456789"
"""An option's number picks it: the first nine options shown."""


def choose_key(state: AnswerState, key: str) -> None:
    question, _ = state.question, state.translate
    typing = state.on_text_row and (len(key) == 1 or key in ("space", "backspace"))
    if key in MOVES or (key in ("j", "k") and not typing):
        step = MOVES.get(key, 1 if key == "j" else -1)
        if (step < 0 and state.cursor == 0) or (step > 0 and state.reveal > 0):
            state.reveal = max(0, state.reveal - step)  # the text above the first option
        else:
            state.cursor = max(0, min(state.rows - 1, state.cursor + step))
    elif typing:
        state.text = state.text[:-1] if key == "backspace" else state.text + (
            " " if key == "space" else key)
    elif key == "space":
        _pick(state)
    elif key in NUMBERS:
        if NUMBERS.index(key) < len(state.options):
            state.cursor = NUMBERS.index(key)
            _pick(state)
    elif key == "enter":
        if not question.multi and not state.picked and state.focused is not None:
            state.picked = {state.focused.id}
        state.submit()
    elif key == "tab" and state.annotations and state.focused is not None:
        open_note(state)
    elif key == "h":
        hide(state)
    elif key == "H" and state.hidden:
        state.hidden = set()
        state.message = _("Every option is shown again.")
        state.effects.append(Effect("save_settings", {"hidden_options": remembered(
            state.settings, question, state.hidden)}))
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
    elif key in ("a", "^A"):
        open_attach(state)
    elif key in ("A", "^X"):
        open_detach(state)
    elif key == "^C" and state.team is not None:
        state.effects.append(Effect("leave"))


def _pick(state: AnswerState) -> None:
    question, _ = state.question, state.translate
    option = state.focused
    if option is None:
        return
    if question.multi:
        state.picked ^= {option.id}
        if option.id in state.picked:
            _note_after_pick(state)
        return
    state.picked = {option.id}
    if question.request.single_submit_mode and not state.typed_anything():
        state.submit(auto=True)
    elif question.request.single_submit_mode:
        state.message = _("You have typed something: press Enter when ready")
    else:
        _note_after_pick(state)


def _note_after_pick(state: AnswerState) -> None:
    """The annotation focus: with `note_focus: pick` a pick opens its note (Enter
    or Esc gives the focus back to the options, on the same option)."""
    if state.annotations and state.settings.get("note_focus") == "pick":
        open_note(state)


def open_note(state: AnswerState) -> None:
    _, option = state.translate, state.focused
    assert option is not None
    state.open_editor("note", _("Note on {label}").format(label=option.label),
                      state.notes.get(option.id, ""))


def hide(state: AnswerState) -> None:
    """`h`: hide the option under the cursor (never the last one shown); remembered by
    its label for the next questions."""
    _, option = state.translate, state.focused
    if option is None:
        return
    if len(state.options) == 1:
        state.message = _("This is the last option shown: it cannot be hidden.")
        return
    state.hidden.add(option.id)
    state.picked.discard(option.id)  # nothing is sent that is not shown
    state.notes.pop(option.id, None)
    state.cursor = min(state.cursor, state.rows - 1)
    state.message = _("Hidden: {label}. H shows the hidden options again.").format(
        label=option.label)
    state.effects.append(Effect("save_settings", {"hidden_options": remembered(
        state.settings, state.question, state.hidden)}))


def confirm_key(state: AnswerState, key: str) -> None:
    """The confirmation step (`require_confirmation`): y or Enter sends, b goes back."""
    if key in ("y", "enter") and state.pending is not None:
        state.effects.append(Effect("submit", state.pending))
    elif key in ("b", "esc"):
        state.stage, state.pending = "choose", None
    elif key in ("c", "q"):
        state.pending = None
        state.open_cancel()
