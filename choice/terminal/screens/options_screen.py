"""The answering part of the body: how many options to choose, each option (its number,
mark, label, badges, and unless the question is widened its description, why and note),
the hidden count, the free-text row and the note for the agent. What the keys do is
`stages/`; `screen.py` puts these lines under the prompt.
"""

from __future__ import annotations

import curses
from typing import TYPE_CHECKING

from choice.terminal.markdown import Line, blocks, styled_lines
from choice.terminal.screens.panels import votes_text
from choice.terminal.text import labelled, safe_text, width, wrap

if TYPE_CHECKING:
    from choice.terminal.state import AnswerState

Row = tuple[str | Line, int]
"""A body line: text (or styled spans) and the curses attribute of the whole line."""


def bounds(state: AnswerState) -> str:
    """A multi-choice question's line above its options: `Choose 2 options:`, `Choose 1
    to 3 options:`."""
    _, request = state.translate, state.question.request
    low, high = request.min_selections or 0, request.max_selections or 0
    if low == high:
        return _.ngettext("Choose {n} option:", "Choose {n} options:", low).format(n=low)
    return _.ngettext("Choose {low} to {n} option:", "Choose {low} to {n} options:",
                      high).format(low=low, n=high)


LABEL = 8
"""Cells before an option's label (`1 › ( ) `); its wrapped lines start there too."""


def label_lines(label: str, votes: str, cells: int) -> list[str]:
    """An option's label with its badges, and the team's votes after ` · ` when all of it
    fits on a line; else the label wrapped, then the votes on lines of their own: a narrow
    screen shows who voted instead of cutting it to `[recommended] ·…`."""
    whole = f"{label}  · {votes}" if votes else label
    if width(whole) <= cells:
        return [whole]
    return [*wrap(label, cells), *(wrap("· " + votes, cells) if votes else [])]


def why_lines(label: str, rationale: str, cells: int) -> list[Line]:
    """`Why: text` when the rationale opens with a paragraph; `Why:` on a line of its own
    above a list or a code block, which keep their lines (a `2.` after `Why: 1. …` would
    read as the same sentence)."""
    first = blocks(rationale)[:1]
    if first and not first[0].first and not first[0].verbatim:
        return styled_lines(labelled(label, rationale), cells)
    return [((label, 0),), *styled_lines(rationale, cells)]


def option_lines(state: AnswerState, cols: int) -> tuple[list[Row], range | None]:
    """The lines for a screen `cols` wide, and which of them show what has the cursor: the
    option with its description, why and note, or the text row with its placeholder (None:
    neither an option nor the text row has it). The screen keeps all of them in view."""
    _, q = state.translate, state.question
    widened = state.team is not None
    lines: list[Row] = []
    focus = None
    if q.multi:
        lines.append((bounds(state), curses.A_DIM))
    recommended = _("recommended")  # outside the f-string: Babel reads no f-strings
    for index, option in enumerate(state.options):
        here = index == state.cursor
        number = f"{index + 1} " if index < 9 else "  "  # 1-9 pick it
        mark = ("[x]" if option.id in state.picked else "[ ]") if q.multi else (
            "(•)" if option.id in state.picked else "( )")
        badge = f"  [{recommended}]" if option.recommended else ""
        votes = votes_text(state.team.votes.get(option.id, []), _) if state.team else ""
        start = len(lines)
        attr = curses.A_REVERSE if here else curses.A_BOLD
        head = f"{number}{'›' if here else ' '} {mark} "
        for row, piece in enumerate(label_lines(option.label + badge, votes, cols - 2 - LABEL)):
            lines.append(((head if row == 0 else " " * LABEL) + piece, attr))
        if widened:
            focus = range(start, len(lines)) if here else focus
            continue  # the discussion takes the descriptions' room: the owner has read them
        for extra in styled_lines(option.description, cols - 10):
            lines.append(((("        ", 0), *extra), curses.A_DIM))
        if option.rationale:  # markdown too: `Fits the **3-replica** deployment`
            why = why_lines(_("Why:"), option.rationale, cols - 10)
            lines += [((("        ", 0), *extra), curses.A_DIM) for extra in why]
        if option.id in state.notes:
            note = safe_text(state.notes[option.id], keep_newlines=False)
            lines.append(("        " + _("Note:") + " " + note, 0))
        focus = range(start, len(lines)) if here else focus
    if state.hidden:
        count = len(state.hidden)
        lines.append(("  " + _.ngettext("{n} option hidden (H shows it)",
                                        "{n} options hidden (H shows them)",
                                        count).format(n=count), curses.A_DIM))
    if q.has_text:
        here = state.on_text_row
        label = _("Or write your own answer:") if q.options else _("Your answer:")
        shown = safe_text(state.text, keep_newlines=False)
        lines.append(("", 0))
        start = len(lines)
        lines.append((f"  {'›' if here else ' '} {label} {shown}{'▏' if here else ''}",
                      curses.A_REVERSE if here else 0))
        if not state.text and q.placeholder:
            lines.append(("      " + q.placeholder, curses.A_DIM))
        focus = range(start, len(lines)) if here else focus
    if state.global_note:
        lines.append(("", 0))
        lines.append((_("Note for the agent:") + " " +
                      safe_text(state.global_note, keep_newlines=False), 0))
    return lines, focus
