"""What curses reads from the keyboard, as the names `stages/` and `key_table.py` use:
arrows, Enter, Esc, the control keys the UI binds (`^G`, `^O`, …) and printable characters
as themselves. Anything else has no name and does nothing.
"""

from __future__ import annotations

import curses

NAMED_KEYS = {curses.KEY_UP: "up", curses.KEY_DOWN: "down", curses.KEY_ENTER: "enter",
              curses.KEY_BACKSPACE: "backspace", curses.KEY_RESIZE: "resize",
              curses.KEY_LEFT: "left", curses.KEY_RIGHT: "right", curses.KEY_BTAB: "btab",
              curses.KEY_F1: "f1"}
CHAR_KEYS = {"\n": "enter", "\r": "enter", " ": "space", "\t": "tab", "\x1b": "esc",
             "\x7f": "backspace", "\x08": "backspace", "\x07": "^G", "\x0f": "^O", "\x17": "^W",
             "\x04": "^D", "\x06": "^F", "\x12": "^R", "\x15": "^U",
             "\x01": "^A", "\x18": "^X"}


def key_name(key: int | str) -> str | None:
    if isinstance(key, int):
        return NAMED_KEYS.get(key)
    if key in CHAR_KEYS:
        return CHAR_KEYS[key]
    return key if key.isprintable() else None
