"""The full-screen UI's widen dialog and widened view: which of `panels`' lines the body
shows, with which curses attribute, and the key hints while widening.

Only choosing lines lives here; `screen.py` scrolls and draws them, `stages/` decides
what keys do.
"""

from __future__ import annotations

import curses

from choice.terminal.key_table import Key, keyed
from choice.terminal.screens.panels import (
    LATEST_MESSAGES,
    audience_box,
    audience_confirmed,
    discussion_lines,
    invited_box,
    link_lines,
    mode_question,
    reminder_lines,
    waiting_box,
    warning_lines,
)
from choice.terminal.state import AnswerState
from choice.terminal.text import wrap

Lines = list[tuple[str, int]]


def _plain(lines: list[str], attr: int = 0) -> Lines:
    return [(line, attr) for line in lines]


def widen_lines(state: AnswerState, cols: int) -> Lines:
    """The widen dialog: the audience box; once names are taken, who that is and b/c."""
    _, dialog = state.translate, state.widen
    assert dialog is not None
    lines = _plain(audience_box(state.question.title, dialog.team_names, _, cols,
                                dialog.team_mode))
    if dialog.step == "mode":
        lines += [(_("Audience") + " > " + dialog.typed, curses.A_DIM), ("", 0),
                  (audience_confirmed(dialog.chosen, _), curses.A_BOLD)]
        lines += _plain([part for w in warning_lines(dialog.warnings, _) for part in wrap(w, cols)])
        first, *explained = mode_question(_)
        lines += [("", 0), (first, curses.A_BOLD), *_plain(explained, curses.A_DIM)]
    elif dialog.error:
        lines += [("", 0), *_plain(wrap(dialog.error, cols), curses.A_BOLD)]
    return lines


def team_lines(state: AnswerState, cols: int, latest: int = LATEST_MESSAGES) -> Lines:
    """Waiting, above the options: the just-widened box (until the next key, then the
    waiting box), the links (for as long as this window lives), the newest messages, and a
    reminder when one came."""
    _, view, invitation = state.translate, state.team, state.invitation
    assert view is not None
    lines: Lines = []
    fresh = invitation is not None and state.just_widened
    if fresh and invitation is not None:  # until the next key: it says what the waiting box says
        lines += _plain(invited_box(invitation, state.question.title, view.mode, _, cols))
    if invitation is not None and invitation.links:
        heading, *links = link_lines(invitation, _)
        lines += [(heading, curses.A_DIM), *_plain(links)]
    if not fresh:
        lines += _plain(waiting_box(state.question.title, view, _, cols, state.discussion_url))
    heading, *messages = discussion_lines(view, _, cols, latest)
    lines += [(heading, curses.A_DIM), *_plain(messages)]
    if state.reminder:
        first, *rest = reminder_lines(view, state.question.id, _)
        return [*lines, ("", 0), (first, curses.A_BOLD),  # it says "answer here" too
                *((piece, curses.A_DIM) for line in rest for piece in wrap(line, cols))]
    return [*lines, ("", 0), (_("Answer here to decide now; that closes the discussion."),
                              curses.A_DIM)]


def widen_hints(state: AnswerState) -> list[Key]:
    _, dialog = state.translate, state.widen
    if dialog is not None and dialog.step == "mode":
        return [Key(keyed(_, _("b block · c continue · {enter} = b · {esc} abort")), 0,
                    _("b: the agent keeps waiting; c: the agent carries on and collects the "
                      "decision later; Esc: nothing changes."))]
    return [Key(keyed(_, _("{enter} confirm · {esc} abort")), 0,
                _("Enter takes the audience (type names, comma-separated, to trim it); Esc "
                  "or Ctrl+C leaves the question as it was."))]
