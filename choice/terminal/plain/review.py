"""The write-back as plain lines (docs/guides/write-back.md): `f` at `Waiting >` asks the
agent for its summary, waits for it (or the fallback), prints the Candidate Review box and
reads `[a]ccept | [e]dit | [d]efer`; `d` at any prompt reads the required rationale.

The keys are `stages/review.py`'s, fed one line at a time, so both UIs follow the same rules. Each
function returns the effect to carry out (resolve or defer), or None to go back to the
question.
"""

from __future__ import annotations

import time
from typing import IO

from choice.contract.clock import now
from choice.terminal.calls.decision import DecisionCalls
from choice.terminal.external_editor import EditorFailed, edit_text, editor_command
from choice.terminal.keys import Effect
from choice.terminal.plain.lines import MAX_ATTEMPTS, Lines, _cols, _print, _read
from choice.terminal.screens.review_panels import (
    proposed_labels,
    raw_discussion,
    review_box,
    review_prompt,
    timed_out_line,
    waiting_line,
)
from choice.terminal.stages.review import open_defer, review_key, take_final
from choice.terminal.state import AnswerState

POLL_SECONDS = 0.5
"""How often the plain lines read the review while the agent writes (no stream here)."""
GRACE_SECONDS = 10.0
"""How long past the due time to keep reading before giving the prompt back."""


def _wait(state: AnswerState, decision: DecisionCalls, out: IO[str]) -> bool:
    """Until the candidate comes or the portal's fallback fires; False if interrupted."""
    write_back = state.write_back
    assert write_back is not None and write_back.candidate is not None
    _print(out, waiting_line(write_back.candidate, state.translate))
    for line in raw_discussion(write_back.candidate, state.translate, _cols()):
        _print(out, line)
    due = (write_back.candidate.due_at or now()) + GRACE_SECONDS
    try:
        while write_back.candidate.waiting and now() < due:
            time.sleep(POLL_SECONDS)  # a polling interval: plain lines have no stream
            decision.refresh()
    except KeyboardInterrupt:
        _print(out)
        return False
    return not write_back.candidate.waiting


def _editors(state: AnswerState, read: Lines, out: IO[str]) -> Effect | None:
    """Answer the line editors the keys opened (the final answer, the rationale, the
    deferral's reason) from input lines; an effect once they ask for one."""
    _ = state.translate
    for _attempt in range(MAX_ATTEMPTS):
        if state.effects:
            return state.effects.pop(0)
        if state.editor is None:
            return None
        editor = state.editor
        out.write(editor.label + ": ")
        out.flush()
        line = _read(read, out)
        if line is None:
            return None
        if editor.text and not line.strip():  # a pre-filled answer: Enter keeps it
            line = editor.text
        editor.text = line
        review_key(state, "enter")
        if state.message:
            _print(out, state.message)
    return None


def _edit(state: AnswerState, text: str, read: Lines, out: IO[str]) -> None:
    """`e`: the owner's editor when there is one and a terminal to run it in; else a line."""
    _ = state.translate
    command = editor_command()
    if command is not None and read.isatty():
        try:
            take_final(state, edit_text(command, text))
        except EditorFailed as error:
            state.message = _("The editor failed ({error}): nothing was saved. Press e to "
                              "try again.").format(error=error)
        return
    from choice.terminal.stages.review import open_final

    if text:
        _print(out, _("Enter keeps the proposed answer; type to replace it."))
    open_final(state, text)


def run_review(state: AnswerState, decision: DecisionCalls, read: Lines,
               out: IO[str]) -> Effect | None:
    _ = state.translate
    if not decision.review():
        _print(out, state.message)
        return None
    write_back = state.write_back
    assert write_back is not None and write_back.candidate is not None
    if write_back.candidate.waiting and not _wait(state, decision, out):
        return None
    candidate = write_back.candidate
    if candidate.state == "timed_out":
        _print(out, timed_out_line(_))
        for row in raw_discussion(candidate, _, _cols()):
            _print(out, row)
    for row in review_box(state.question.title, candidate, _, _cols(),
                          proposed_labels(state, candidate)):
        _print(out, row)
    for _attempt in range(MAX_ATTEMPTS):
        prompt = review_prompt(_) if candidate.ready else _("[e]dit | [d]efer")
        out.write(prompt + ": ")
        out.flush()
        line = _read(read, out)
        if line is None:
            return None
        word = line.strip().lower()[:1]
        if word not in ("a", "e", "d"):
            _print(out, _("Type a, e or d."))
            continue
        review_key(state, word)
        if state.effects and state.effects[0].kind == "edit_answer":
            _edit(state, str(state.effects.pop(0).payload or ""), read, out)
        if state.message:
            _print(out, state.message)
        effect = _editors(state, read, out)
        if effect is not None:
            return effect
        if state.stage != "review":
            return None
    return None


def read_defer(state: AnswerState, read: Lines, out: IO[str]) -> Effect | None:
    """`d` at the question's prompt: the rationale, required (an empty one is refused)."""
    open_defer(state)
    effect = _editors(state, read, out)
    if effect is None:
        state.stage, state.editor, state.write_back = "choose", None, None
    return effect
