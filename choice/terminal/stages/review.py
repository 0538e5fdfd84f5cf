"""What each key does while the owner writes a decision back (docs/guides/write-back.md),
`[d]efer` included: reviewing the agent's candidate, writing the final answer, its optional
rationale, or the reason for a deferral.

What must happen outside (ask for the review, resolve, defer, open `$EDITOR`) is queued on
the `AnswerState`'s `effects` for the session, as every other key does. The portal decides
where the final answer came from; `provenance` is used here only to decide whether to ask
for a rationale. The candidate and the deferral themselves are `write_back.py`. No curses,
no network.
"""

from __future__ import annotations

from choice.decision.provenance import summary_source
from choice.terminal.keys import Effect, LineEditor
from choice.terminal.state import AnswerState
from choice.terminal.write_back import Candidate, WriteBack


def open_review(state: AnswerState, candidate: Candidate) -> None:
    """Show the review (or refresh it in place, keeping an editor that is open)."""
    current = state.write_back
    if current is not None and current.candidate is not None and state.stage == "review":
        current.candidate = candidate
        return
    state.stage, state.editor = "review", None
    state.write_back = WriteBack(candidate)


def open_defer(state: AnswerState) -> None:
    """`d`: the reason for the deferral, required: whoever takes it up later reads why."""
    if state.write_back is None:
        state.write_back = WriteBack(None)
    _ = state.translate  # `_(...)`, so the catalogs find the label
    state.stage, state.write_back.step = "review", "defer"
    state.editor = LineEditor(_("Rationale for deferral (required)"))


def open_final(state: AnswerState, text: str) -> None:
    """The built-in line editor, pre-filled (no `$VISUAL` or `$EDITOR`)."""
    _ = state.translate
    assert state.write_back is not None
    state.write_back.step = "final"
    state.editor = LineEditor(_("Final answer"), text)


def take_final(state: AnswerState, text: str) -> None:
    """The answer the owner saved: an empty one decides nothing (back to the review); a
    material change from the candidate asks for an optional rationale; else resolve."""
    _, write_back = state.translate, state.write_back
    assert write_back is not None
    final = text.strip()
    write_back.step, state.editor = "review", None
    if not final:
        state.message = _("The answer is empty: nothing was decided. Write it, or press d "
                          "to defer.")
        return
    candidate = write_back.candidate.answer if write_back.candidate else None
    if summary_source(final, candidate) == "discussion_extraction":
        state.effects.append(Effect("resolve", {"final_answer": final,
                                                "selected_ids": _proposed(write_back)}))
        return
    write_back.final, write_back.step = final, "rationale"
    state.editor = LineEditor(_("Optional rationale (press Enter to skip)"))


def close(state: AnswerState, message: str = "") -> None:
    state.stage, state.editor, state.write_back, state.message = "choose", None, None, message


def review_key(state: AnswerState, key: str) -> None:
    _, write_back = state.translate, state.write_back
    assert write_back is not None
    state.message = ""
    if key == "^C" and state.team is not None:
        state.effects.append(Effect("leave"))
        return
    if state.editor is not None:
        _editing(state, write_back, key)
        return
    candidate = write_back.candidate
    assert candidate is not None
    if key == "a":
        if not candidate.ready or not (candidate.answer.strip() or candidate.selected_ids):
            state.message = _("There is no proposed answer to accept: press e to write it.")
        elif not state.question.has_text and not candidate.selected_ids:
            state.message = _("The proposal names no option: press e to pick one.")
        else:
            state.effects.append(Effect("resolve", {"final_answer": candidate.answer,
                                                    "selected_ids": candidate.selected_ids}))
    elif key == "e" and not state.question.has_text:
        # Answered by its options: pick them on the question (the proposal's are ticked);
        # Enter decides it.
        state.picked = set(candidate.selected_ids)
        close(state, _("Pick the option with space, then press Enter to decide."))
    elif key == "e":
        state.effects.append(Effect("edit_answer", candidate.answer))
    elif key == "d":
        open_defer(state)
    elif key == "f" and candidate.state == "timed_out":
        state.effects.append(Effect("review", True))  # ask the agent again
    elif key in ("up", "k", "down", "j"):
        write_back.scroll = max(0, write_back.scroll + (1 if key in ("down", "j") else -1))
    elif key in ("esc", "q", "^C"):
        close(state)


def _editing(state: AnswerState, write_back: WriteBack, key: str) -> None:
    _, editor = state.translate, state.editor
    assert editor is not None
    verdict = "abort" if key == "^C" else editor.key(key)
    if verdict is None:
        return
    text = editor.text.strip()
    if verdict == "abort":
        state.editor = None
        if write_back.candidate is None:
            close(state, _("Not deferred: nothing changed."))
        else:
            write_back.step = "review"
        return
    if write_back.step == "defer":
        if not text:
            state.message = _("A deferral needs a rationale: say why (the agent reads it).")
            return  # the editor stays open: nothing was sent
        state.editor = None
        state.effects.append(Effect("defer", text))
    elif write_back.step == "final":
        take_final(state, editor.text)
    else:  # the optional rationale: Enter alone skips it
        state.editor = None
        state.effects.append(Effect("resolve", {"final_answer": write_back.final,
                                                "selected_ids": _proposed(write_back),
                                                "rationale": text or None}))


def _proposed(write_back: WriteBack) -> list[str]:
    """The candidate's options, kept when only its words were edited."""
    return write_back.candidate.selected_ids if write_back.candidate else []
