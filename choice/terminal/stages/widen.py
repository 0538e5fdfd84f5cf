"""The widen dialog's keys (docs/guides/team-mode.md): the audience on the editor line, then `b`,
`c` or Enter for the mode; Esc, `q`, Ctrl+C or `cancel` leave the question as it was.
The dialog's rules (the names, the modes) are `widening.py`; the session opens the dialog
with the team list and makes the widen call (`Effect("widen")`). No curses, no network.
"""

from __future__ import annotations

from choice.terminal.keys import Effect
from choice.terminal.state import AnswerState


def widen_key(state: AnswerState, key: str) -> None:
    dialog, _ = state.widen, state.translate
    assert dialog is not None
    if key == "^C":
        state.close_widen(_("Not widened: nothing changed."))
    elif dialog.step == "audience" and state.editor is not None:
        verdict = state.editor.key(key)
        dialog.typed = state.editor.text
        taken = dialog.take_audience(state.editor.text) if verdict == "done" else None
        if verdict == "abort" or taken == "cancel":
            state.close_widen(_("Not widened: nothing changed."))
        elif taken == "next":
            state.editor = None  # on to b/c
    elif key in ("esc", "q"):
        state.close_widen(_("Not widened: nothing changed."))
    elif (mode := dialog.take_mode("" if key == "enter" else key)) is not None:
        state.effects.append(Effect("widen", dialog.request(mode)))
