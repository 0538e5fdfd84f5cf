"""A key pressed in the terminal UI, handed to the stage on screen (`state.stage`).

Keys arrive as names (`up`, `down`, `enter`, `space`, `tab`, `esc`, `backspace`, `^G`,
`^O` and `^W` for Ctrl-G, Ctrl-O and Ctrl-W, `^C` for an interrupt) or as a single printable
character; `screens/screen.py` names curses' keys, the plain lines feed words. This is the
one entry for both UIs and the several-questions state: nothing else picks a stage's
handler.
"""

from __future__ import annotations

from collections.abc import Callable

from choice.terminal.stages.choose import choose_key, confirm_key
from choice.terminal.stages.edit import edit_key
from choice.terminal.stages.review import review_key
from choice.terminal.stages.settings import settings_key
from choice.terminal.stages.widen import widen_key
from choice.terminal.state import AnswerState

HANDLERS: dict[str, Callable[[AnswerState, str], None]] = {
    "choose": choose_key, "confirm": confirm_key, "widen": widen_key, "review": review_key,
    "settings": settings_key}
"""Each stage's keys; the line editors' stages (`note`, `global`, `cancel`,
`edit_setting`) share `edit_key`."""


def press(state: AnswerState, key: str) -> None:
    """What `key` does now; what must happen outside lands in `state.effects`."""
    state.message = "" if state.stage == "choose" else state.message
    state.just_widened = state.reminder = False  # the owner has seen them
    HANDLERS.get(state.stage, edit_key)(state, key)
