"""What every stage of the terminal UI needs and that imports nothing of the terminal: the
`Effect` a key queues for the session to carry out, and the `LineEditor` for one line of
typing (a note, a reason, a setting's value, the audience, the final answer).

A leaf: it must import nothing from `choice.terminal`, so any stage can use it without
importing another stage or the state. No curses, no network.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

MOVES = {"up": -1, "down": 1}
"""The arrow keys that move a cursor (each stage adds j/k where they do not type)."""


@dataclass
class Effect:
    """What must happen outside the UI's state (a portal call, the owner's editor, the
    end of the run); `payload` is what it needs."""

    kind: Literal["submit", "cancel", "save_settings", "set_deadline", "switch_to_web",
                  "widen_open", "widen",
                  "leave", "refresh_team", "review", "resolve", "defer", "defer_open", "resume",
                  "edit_answer", "attach", "detach"]
    payload: Any = None


@dataclass
class LineEditor:
    label: str
    text: str = ""
    typing: bool = True
    """False: a yes/no line (Enter or Esc), e.g. an options-only question's cancel."""

    def key(self, key: str) -> Literal["done", "abort"] | None:
        if key == "enter":
            return "done"
        if key == "esc":
            return "abort"
        if not self.typing:
            return None
        if key == "backspace":
            self.text = self.text[:-1]
        elif key == "^U":  # as in a shell: clear the line (a pre-filled answer to rewrite)
            self.text = ""
        elif key == "space":
            self.text += " "
        elif len(key) == 1 and key.isprintable():
            self.text += key
        return None
