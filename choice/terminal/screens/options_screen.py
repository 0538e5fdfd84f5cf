"""The answering part of the body: how many options to choose, each option (its number,
mark, label, badges, and unless the question is widened its description, why and note),
the hidden count, the free-text row and the note for the agent. What the keys do is
`stages/`; `screen.py` puts these lines under the prompt.
"""

from __future__ import annotations

import curses
from typing import TYPE_CHECKING

from choice.terminal.markdown import Line, styled_lines
from choice.terminal.screens.panels import votes_text
from choice.terminal.text import labelled, safe_text

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


def option_lines(state: AnswerState, cols: int) -> tuple[list[Row], int | None]:
    """The lines for a screen `cols` wide, and which of them has the cursor (None: neither
    an option nor the text row has it)."""
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
        if state.team and state.team.votes.get(option.id):
            badge += "  · " + votes_text(state.team.votes[option.id], _)
        if here:
            focus = len(lines)
        lines.append((f"{number}{'›' if here else ' '} {mark} {option.label}{badge}",
                      curses.A_REVERSE if here else curses.A_BOLD))
        if widened:
            continue  # the discussion takes the descriptions' room: the owner has read them
        for extra in styled_lines(option.description, cols - 10):
            lines.append(((("        ", 0), *extra), curses.A_DIM))
        if option.rationale:  # markdown too: `Fits the **3-replica** deployment`
            why = styled_lines(labelled(_("Why:"), option.rationale), cols - 10)
            lines += [((("        ", 0), *extra), curses.A_DIM) for extra in why]
        if option.id in state.notes:
            note = safe_text(state.notes[option.id], keep_newlines=False)
            lines.append(("        " + _("Note:") + " " + note, 0))
    if state.hidden:
        count = len(state.hidden)
        lines.append(("  " + _.ngettext("{n} option hidden (H shows it)",
                                        "{n} options hidden (H shows them)",
                                        count).format(n=count), curses.A_DIM))
    if q.has_text:
        here = state.on_text_row
        if here:
            focus = len(lines)
        label = _("Or write your own answer:") if q.options else _("Your answer:")
        shown = safe_text(state.text, keep_newlines=False)
        lines.append(("", 0))
        lines.append((f"  {'›' if here else ' '} {label} {shown}{'▏' if here else ''}",
                      curses.A_REVERSE if here else 0))
        if not state.text and q.placeholder:
            lines.append(("      " + q.placeholder, curses.A_DIM))
    if state.global_note:
        lines.append(("", 0))
        lines.append((_("Note for the agent:") + " " +
                      safe_text(state.global_note, keep_newlines=False), 0))
    return lines, focus
