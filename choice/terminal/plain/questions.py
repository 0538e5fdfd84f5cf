"""Several questions as plain lines (pipes, `TERM=dumb`, `--plain`): the title once, then
each question in order under "Question 2 of 3 · Database", asked with today's plain
prompts (`lines.py`), then the review and a confirm. Enter (or `y`) submits them all, a
question's number asks it again, `!cancel [why]` cancels. A script answers with one line
per question and one for the confirm.

Produces the same `Effect`s as the full-screen UI; `questions.py` checks and builds them.
"""

from __future__ import annotations

from typing import IO

from choice.terminal.keys import Effect
from choice.terminal.plain.lines import MAX_ATTEMPTS, Lines, _print, _read, run_plain
from choice.terminal.questions import QuestionsState
from choice.terminal.questions_review import note_line, reviewed


def run_questions(multi: QuestionsState, read: Lines, out: IO[str]) -> Effect | None:
    """Every question, then the review; the effect to carry out (submit or cancel), or
    None when the input ended first."""
    _print(out, multi.question.title)
    index, reviewed_once = 0, False
    while True:
        if index < len(multi.states):
            effect = ask(multi, index, read, out)
            if effect is None or effect.kind != "submit":
                return effect
            multi.confirmed.add(index)
            index = len(multi.states) if reviewed_once else index + 1
            continue
        reviewed_once = True
        chosen = review(multi, read, out)
        if isinstance(chosen, Effect) or chosen is None:
            return chosen
        index = chosen


def ask(multi: QuestionsState, index: int, read: Lines, out: IO[str]) -> Effect | None:
    state = multi.states[index]
    multi.go(index)
    _print(out)
    if state.message:  # the review's check found a problem here
        _print(out, state.message)
        state.message = ""
    effect = run_plain(state, read, out)
    state.effects.clear()
    multi.sync()
    return effect


def review(multi: QuestionsState, read: Lines, out: IO[str]) -> Effect | int | None:
    """The answers and the confirm: the submission, a question to ask again (its index),
    or None when the input ended."""
    _ = multi.translate
    multi.go(len(multi.states))
    _print(out)
    _print(out, _("Review your answers"))
    for index in range(len(multi.states)):
        row = reviewed(multi, index, _)
        _print(out, f"  {index + 1}. {row.header}: {row.said}")
        for note in row.notes:
            _print(out, "       " + note)
    if note_line(multi, _):
        _print(out, note_line(multi, _))
    for _attempt in range(MAX_ATTEMPTS):
        _print(out, _("Submit these answers? [Y/n]  (a number asks that question again | "
                      "[!cancel])"))
        out.write("> ")
        out.flush()
        line = _read(read, out)
        if line is None:
            return None
        word = line.strip().lower()
        if word.startswith("!cancel"):
            return Effect("cancel", line.strip()[len("!cancel"):].strip() or None)
        if word.isdigit() and 1 <= int(word) <= len(multi.states):
            return int(word) - 1
        if word in ("n", "no"):
            _print(out, _("Type a question's number to change it, or !cancel."))
            continue
        if word not in ("", "y", "yes"):
            _print(out, _("Type y to submit, a question's number, or !cancel."))
            continue
        if multi.submit():
            return multi.effects.pop()
        if not multi.reviewing:
            return multi.index  # that question's screen says what is wrong
        _print(out, multi.current.message)
    return None
