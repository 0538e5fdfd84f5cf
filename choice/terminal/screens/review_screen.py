"""The full-screen UI's review of the agent's candidate (docs/guides/write-back.md): which of
`review_panels`' lines the body shows, with which curses attribute, and the key hints.

Only choosing lines lives here; `screen.py` scrolls and draws them, `stages/review.py`
decides what keys do.
"""

from __future__ import annotations

import curses

from choice.terminal.key_table import Key, keyed
from choice.terminal.screens.review_panels import (
    proposed_labels,
    raw_discussion,
    review_box,
    review_prompt,
    timed_out_line,
    waiting_line,
)
from choice.terminal.state import AnswerState
from choice.terminal.text import safe_text, wrap

Lines = list[tuple[str, int]]


def reviewing(state: AnswerState) -> bool:
    """The review fills the body (a deferral straight from the question shows the question)."""
    return (state.stage == "review" and state.write_back is not None
            and state.write_back.candidate is not None)


def review_lines(state: AnswerState, cols: int) -> Lines:
    _, write_back = state.translate, state.write_back
    assert write_back is not None and write_back.candidate is not None
    candidate = write_back.candidate
    lines: Lines = []
    if candidate.waiting:
        lines += [(waiting_line(candidate, _), curses.A_BOLD)]
        lines += [(line, curses.A_DIM) for line in wrap(
            _("The agent was asked to summarise the discussion; its candidate shows here "
              "as soon as it comes."), cols)]
        lines.append(("", 0))
    else:
        if candidate.state == "timed_out":
            lines += [(line, curses.A_BOLD) for line in wrap(timed_out_line(_), cols)]
            lines.append(("", 0))
        lines += [(line, 0) for line in review_box(state.question.title, candidate, _, cols,
                                                       proposed_labels(state, candidate))]
        if write_back.step == "rationale":  # what the rationale is for
            lines += [(line, curses.A_BOLD) for line in
                      wrap(_("Your final answer:") + " " + safe_text(write_back.final), cols)]
        elif candidate.ready:
            lines.append((review_prompt(_), curses.A_BOLD))
        lines.append(("", 0))
    heading, *messages = raw_discussion(candidate, _, cols)
    return [*lines, (heading, curses.A_DIM), *[(line, 0) for line in messages]]


def review_hints(state: AnswerState) -> list[Key]:
    _, write_back = state.translate, state.write_back
    assert write_back is not None and write_back.candidate is not None
    candidate = write_back.candidate
    leave = [Key(_("^C leave"), 5, _("Leave it to the team: the question stays widened; "
                                    "come back with choice answer."))] \
        if state.team is not None else []
    back = [Key(_("↑↓ scroll"), 4, _("Scroll the review and the discussion.")),
            Key(keyed(_, _("{esc} back")), 3, _("Back to the question.")), *leave]
    defer = Key(_("d defer"), 1, _("Set the question aside for later, with a reason."))
    if candidate.ready:
        return [Key(_("a accept"), 0, _("Accept the agent's proposed answer: it decides the "
                                        "question.")),
                Key(_("e edit"), 0, _("Edit the proposed answer before it decides.")),
                defer, *back]
    if candidate.waiting:
        return [Key(_("e write it yourself"), 0, _("Write the answer yourself instead of "
                                                   "waiting for the agent.")), defer, *back]
    return [Key(_("e write the answer"), 0, _("Write the answer yourself.")),
            Key(_("f ask the agent again"), 2, _("Ask the agent for its summary again.")),
            defer, *back]
