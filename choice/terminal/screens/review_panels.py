"""The write-back's words and boxes as lines of text (the candidate review, the manual
fallback, a deferred question), written once for the full-screen UI and the plain lines.

Everything here takes text already made safe (`review.Candidate`, `review.Deferral`) and a
width in cells; it returns lines that fit it. No curses, no printing, no network.
"""

from __future__ import annotations

import math

from choice.contract.clock import now
from choice.core.i18n import Translator
from choice.terminal.screens.panels import box
from choice.terminal.state import AnswerState
from choice.terminal.text import wrap
from choice.terminal.write_back import Candidate, Deferral


def indented(text: str) -> list[str]:
    """Each line of a (multi-line) text, indented by two: the box keeps the indent."""
    return ["  " + line for line in text.split("\n")]


def review_box(title: str, candidate: Candidate, _: Translator, cols: int,
               proposed: list[str] | None = None) -> list[str]:
    """The candidate review: the question, the agent's summary and its proposed answer (and the labels
    of the options it picks, `proposed`: accepting keeps them)."""
    none = _("(none)")
    picked = ["", _("Proposed option:") if len(proposed) == 1 else _("Proposed options:"),
              *indented(", ".join(proposed))] if proposed else []
    return box(_("Candidate Review"), [
        _("Question:") + " " + title, "",
        _("Summary:"), *indented(candidate.summary or none), "",
        _("Proposed answer:"), *indented(candidate.shown_answer or none), *picked], cols)


def review_prompt(_: Translator) -> str:
    return _("[a]ccept | [e]dit | [d]efer")


def waiting_line(candidate: Candidate, _: Translator) -> str:
    """While the agent writes its summary, the seconds left before the owner writes it."""
    left = max(0, math.ceil((candidate.due_at or now()) - now()))
    return _("Waiting for the agent's summary… ({n} s)").format(n=left)


def timed_out_line(_: Translator) -> str:
    """The manual fallback: no valid candidate in time."""
    return _("Summarization timed out or produced invalid output. Write the answer yourself.")


def raw_discussion(candidate: Candidate, _: Translator, cols: int) -> list[str]:
    """The discussion as the agent was shown it, each message wrapped whole."""
    count = candidate.message_count
    if not candidate.messages:
        return [_("No messages yet.")]
    heading = _.ngettext("Discussion ({n} message):", "Discussion ({n} messages):",
                         count).format(n=count)
    if candidate.truncated:
        heading += " " + _("(the newest {shown})").format(shown=len(candidate.messages))
    return [heading] + [("  " if i == 0 else "    ") + piece for message in candidate.messages
                        for i, piece in enumerate(wrap(message, max(10, cols - 4)))]


def deferral_box(deferral: Deferral, _: Translator, cols: int) -> list[str]:
    """A deferred question: why, and the two ways on."""
    return box(_("Deferred"), [
        _("Deferred: {rationale}").format(rationale=deferral.rationale or "-"),
        _("Take it up again (r), or answer it here to resolve it now.")],
        cols)


def proposed_labels(state: AnswerState, candidate: Candidate) -> list[str]:
    """The labels of the options the candidate picks, in the question's order."""
    return [option.label for option in state.question.options
            if option.id in candidate.selected_ids]
