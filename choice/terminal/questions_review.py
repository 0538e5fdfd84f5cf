"""The final review of several questions as text: for each question its header, what the
human answered (labels, their own words, notes), or that its defaults stand, or that it
is not answered yet. Written once for the full-screen review and the plain lines.

Takes the states' text, already made safe (`question.py`, `safe_text` for what was
typed); no curses, no printing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from choice.core.i18n import Translator
from choice.terminal.questions import QuestionsState, QuestionState
from choice.terminal.text import safe_text

Kind = Literal["answered", "defaulted", "unanswered"]


@dataclass(frozen=True)
class Reviewed:
    header: str
    said: str
    """The answer on one line."""
    notes: list[str]
    kind: Kind


def reviewed(multi: QuestionsState, index: int, _: Translator) -> Reviewed:
    state = multi.states[index]
    if multi.answered(index):
        said = answer_text(state, state.picked, state.text)
        notes = [_("Note on {label}").format(label=option.label) + ": "
                 + safe_text(state.notes[option.id], keep_newlines=False)
                 for option in state.question.options if option.id in state.notes]
        return Reviewed(state.header, said or _("(no answer)"), notes, "answered")
    defaults = set(state.question.request.default_selection_ids)
    if defaults:
        return Reviewed(state.header, _("Default: {answer}").format(
            answer=answer_text(state, defaults, "")), [], "defaulted")
    return Reviewed(state.header, _("Not answered yet"), [], "unanswered")


def answer_text(state: QuestionState, picked: set[str], text: str) -> str:
    """`PostgreSQL, SQLite` and `"what they typed"`, joined."""
    labels = [option.label for option in state.question.options if option.id in picked]
    typed = [f'"{safe_text(text.strip(), keep_newlines=False)}"'] if text.strip() else []
    return ", ".join(labels + typed)


def note_line(multi: QuestionsState, _: Translator) -> str:
    """The note for the agent, when there is one."""
    note = multi.current.global_note.strip()
    return _("Note for the agent:") + " " + safe_text(note, keep_newlines=False) if note else ""
