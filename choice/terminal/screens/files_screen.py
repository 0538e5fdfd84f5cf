"""The person's own files as the screen shows them: under the answer, `Your files: shot.png
12 KB · log.txt 1 KB` (broken between files, never inside one), and the list `A` opens to
take one off, the focused one reversed. What the keys do is `stages/files.py`.
"""

from __future__ import annotations

import curses
from typing import TYPE_CHECKING

from choice.contract.attachments import file_size
from choice.terminal.screens.panels import listed
from choice.terminal.text import clip, width, wrap

if TYPE_CHECKING:
    from choice.terminal.state import AnswerState


def files_lines(state: AnswerState, cols: int) -> list[tuple[str, int]]:
    """A blank line and the files, or nothing when none is attached; `cols` wide."""
    if not state.files:
        return []
    _ = state.translate
    entries = []
    for file in state.files:  # a long name is cut, its size never: each fits a line alone
        size = file_size(file.size)
        entries.append(f"{clip(file.name, max(8, cols - width(size) - 5))} {size}")
    return [("", 0), *((line, 0) for line in listed(_("Your files:"), entries, cols, " · "))]


def detach_lines(state: AnswerState, cols: int) -> tuple[list[tuple[str, int]], int]:
    """`Remove which file?` and the files, names in one column and sizes in the next; the
    focused row's index."""
    _ = state.translate
    sizes = [file_size(file.size) for file in state.files]
    size_column = max((width(size) for size in sizes), default=0)
    room = max(8, cols - size_column - 6)
    names = [clip(file.name, room) for file in state.files]
    column = max((width(name) for name in names), default=0)
    lines = [*((line, curses.A_BOLD) for line in wrap(_("Remove which file from your answer?"),
                                                       cols)), ("", 0)]
    top = len(lines)
    for index, (name, size) in enumerate(zip(names, sizes, strict=True)):
        here = index == state.file_cursor
        pad = " " * (column - width(name) + 2 + size_column - width(size))
        lines.append((f"{'›' if here else ' '} {name}{pad}{size}",
                      curses.A_REVERSE if here else 0))
    return lines, top + state.file_cursor
