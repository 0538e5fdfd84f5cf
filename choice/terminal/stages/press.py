"""A key pressed in the terminal UI, handed to the stage on screen (`state.stage`).

Keys arrive as names (`up`, `down`, `enter`, `space`, `tab`, `esc`, `backspace`; `^G`,
`^O`, `^W`, `^A` and `^X` for Ctrl-G, Ctrl-O, Ctrl-W, Ctrl-A and Ctrl-X, `^C` for an
interrupt, `f1`) or as a single printable character; `?` (F1 where letters type) opens
the help screen on any stage, and the next key closes it; `screens/screen.py` names
curses' keys, the plain lines feed words. This is the one entry for both UIs and the
several-questions state: nothing else picks a stage's handler.
"""

from __future__ import annotations

from collections.abc import Callable

from choice.terminal.key_table import typing
from choice.terminal.stages.choose import choose_key, confirm_key
from choice.terminal.stages.edit import edit_key
from choice.terminal.stages.files import attach_key, detach_key
from choice.terminal.stages.review import review_key
from choice.terminal.stages.settings import settings_key
from choice.terminal.stages.widen import widen_key
from choice.terminal.state import AnswerState

HANDLERS: dict[str, Callable[[AnswerState, str], None]] = {
    "choose": choose_key, "confirm": confirm_key, "widen": widen_key, "review": review_key,
    "settings": settings_key, "attach": attach_key, "detach": detach_key}
"""Each stage's keys; the line editors' stages (`note`, `global`, `cancel`,
`edit_setting`) share `edit_key`."""


def press(state: AnswerState, key: str) -> None:
    """What `key` does now; what must happen outside lands in `state.effects`."""
    if state.help_open:  # ↑↓ scroll a long help; any other key closes it, and does nothing else
        if key in ("up", "down", "j", "k"):
            state.help_scroll = max(0, state.help_scroll + (1 if key in ("down", "j") else -1))
        else:
            state.help_open = False
        return
    if key == "f1" or (key == "?" and not typing(state)):
        state.help_open, state.help_scroll = True, 0
        return
    state.message = "" if state.stage == "choose" else state.message
    state.just_widened = state.reminder = False  # the owner has seen them
    HANDLERS.get(state.stage, edit_key)(state, key)
