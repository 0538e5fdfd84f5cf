"""Model-written text made safe and measurable for a terminal.

Untrusted text may carry escape sequences (which would move the cursor, change colours or
retitle the window), NUL, bidi overrides that reorder what the human reads, or other
control characters: they are replaced by visible placeholders before anything is drawn.
Widths count East Asian wide characters as two cells.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache

from choice.contract.safe_text import safe_text

__all__ = ["clip", "json_for_terminal", "labelled", "no_gap", "safe_text", "width", "wrap"]

_GAP_AFTER_FULL_WIDTH = re.compile(
    "([\uff1a\uff0c\u3002\uff1b\uff01\uff1f\u3001\uff09]) +(?=[^\\s\u2502])")
"""A space after full-width punctuation, before more text (not a box's padding and `│`)."""


def no_gap(text: str) -> str:
    """No space after full-width punctuation (`理由：Fits`, not `理由： Fits`): the mark
    has its own room, and our English `label + " " + text` joins would double it."""
    return _GAP_AFTER_FULL_WIDTH.sub(r"\1", text)


def labelled(label: str, text: str) -> str:
    """`Why: text`, or `理由：text` after a full-width colon."""
    return no_gap(f"{label} {text}")

_ACTIVE_IN_JSON = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_for_terminal(value: object) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)`, with DEL, C1 controls (`\x9b` is a
    CSI to many terminals), line separators and bidi controls written as `\\uXXXX`: the same
    JSON to any parser, but nothing a terminal acts on. (`json` already escapes C0.)"""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return _ACTIVE_IN_JSON.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def cell_width(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def width(text: str) -> int:
    return sum(cell_width(char) for char in text)


def clip(text: str, cells: int) -> str:
    """The longest prefix that fits in `cells`, with `…` when something was cut."""
    if width(text) <= cells:
        return text
    out, used = [], 0
    for char in text:
        w = cell_width(char)
        if used + w > cells - 1:
            break
        out.append(char)
        used += w
    return "".join(out) + "…"


def wrap(text: str, cells: int) -> list[str]:
    """Word-wrap to `cells` columns; long words (or CJK runs) break anywhere."""
    return list(_wrapped(text, cells))


@lru_cache(maxsize=256)
def _wrapped(text: str, cells: int) -> tuple[str, ...]:
    """Cached: the screen wraps the same prompt and descriptions on every redraw (each
    second), and a question's text never changes."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line, used = "", 0
        for word in re.split(r"(\s+)", paragraph):
            w = width(word)
            if used + w <= cells:
                line, used = line + word, used + w
                continue
            if line.strip() and any(cell_width(char) > 1 for char in word):
                # CJK breaks between any two characters: fill this line first
                head, *rest = pieces(word, cells, room=cells - used)
                if head:
                    lines.append((line + head).rstrip())
                    *full, last = rest
                    lines.extend(full)
                    line, used = last, width(last)
                    continue
            if line.strip():
                lines.append(line.rstrip())
            line, used = "", 0
            word = word.lstrip()
            if width(word) > cells:
                *full, word = pieces(word, cells)
                lines.extend(full)
            line, used = word, width(word)
        lines.append(line.rstrip())
    return tuple(lines)


NO_LINE_START = frozenset("。，、；：？！）」』】》〉”’…,.;:!?)")
"""Closing punctuation never starts a line (Chinese line breaking): it takes the character
before it along."""


def pieces(word: str, cells: int, room: int | None = None) -> list[str]:
    """A word wider than `cells` cut into pieces that fit, in one pass: a model's
    20,000-character word must not cost a scan of the rest per piece (that made every
    redraw take seconds). A wide character that cannot fit stands alone. `room`: the first
    piece fits in that much (the rest of a line; `""` when not even one character does)."""
    out: list[str] = []
    piece: list[str] = []
    used, limit = 0, cells if room is None else room
    for char in word:
        w = cell_width(char)
        if used + w > limit and (piece or limit < cells):
            carried: list[str] = []
            while char in NO_LINE_START and len(piece) > 1 and (
                    not carried or carried[0] in NO_LINE_START):
                carried.insert(0, piece.pop())
            if sum(cell_width(c) for c in carried) + w > cells:  # a run too long to carry
                piece, carried = piece + carried, []
            out.append("".join(piece))
            piece, used, limit = carried, sum(cell_width(c) for c in carried), cells
        piece.append(char)
        used += w
    out.append("".join(piece))
    return out
