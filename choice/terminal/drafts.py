"""The terminal's draft: what is picked and typed here goes to the portal's
`PUT /api/interactions/{id}/draft` once it has been still for `DEBOUNCE` seconds, and a
question opens from the portal's draft (typed in the browser, or in an earlier terminal).

A draft is never an answer: the portal deletes it when the question ends. The text being
typed in a line editor (a note, the note for the agent, a cancel's reason) counts as typed.
Option ids the question does not have are dropped on restore. Failing calls are ignored: a
draft is a convenience, never a reason to stop answering.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any

from choice.portal_client import PortalClient, PortalError, PortalUnreachable
from choice.terminal.state import AnswerState

DEBOUNCE = 0.7
States = Sequence[AnswerState]


def _answer(state: AnswerState) -> dict[str, Any]:
    notes = dict(state.notes)
    if state.stage == "note" and state.editor is not None and state.question.options:
        notes[state.question.options[state.cursor].id] = state.editor.text
    answer: dict[str, Any] = {"selected_ids": state.selected_ids()} if state.question.options \
        else {}
    if state.text:
        answer["custom_input"] = state.text
    notes = {option_id: note for option_id, note in notes.items() if note.strip()}
    if notes:
        answer["option_annotations"] = notes
    return answer


def draft_of(states: States, ids: Sequence[str] | None) -> dict[str, Any]:
    """The draft of one question (`ids` None) or of several (`ids`: their question ids)."""
    shown = next((s for s in states if s.editor is not None), states[0])
    draft: dict[str, Any] = {"answers": {i: _answer(s) for i, s in zip(ids, states, strict=True)}} \
        if ids else _answer(states[0])
    global_note = shown.editor.text if shown.stage == "global" and shown.editor else \
        shown.global_note
    if global_note.strip():
        draft["global_annotation"] = global_note
    if shown.stage == "cancel" and shown.editor is not None and shown.editor.text.strip():
        draft["cancel_reason"] = shown.editor.text
    return draft


def _restore_one(state: AnswerState, answer: dict[str, Any]) -> None:
    known = {option.id for option in state.question.options}
    if isinstance(answer.get("selected_ids"), list):
        state.picked = {i for i in answer["selected_ids"] if i in known}
    if state.question.has_text:
        state.text = str(answer.get("custom_input") or "")
    notes = answer.get("option_annotations") or {}
    state.notes = {k: str(v) for k, v in notes.items() if k in known}


def restore(states: States, ids: Sequence[str] | None, draft: dict[str, Any]) -> None:
    """Put a draft into the states (the cancel reason waits for the cancel line)."""
    if ids:
        answers = draft.get("answers") or {}
        for question_id, state in zip(ids, states, strict=True):
            _restore_one(state, answers.get(question_id) or {})
    else:
        _restore_one(states[0], draft)
    for state in states:
        state.global_note = str(draft.get("global_annotation") or "")


class DraftSync:
    def __init__(self, client: PortalClient, interaction_id: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._client, self._path = client, f"/api/interactions/{interaction_id}/draft"
        self._clock = clock
        self._sent: dict[str, Any] | None = None
        self._waiting: dict[str, Any] | None = None
        self._due = 0.0

    def start(self, states: States, ids: Sequence[str] | None) -> None:
        """Open from the portal's draft, if there is one."""
        try:
            draft = self._client.call("GET", self._path).get("draft")
        except (PortalError, PortalUnreachable, AttributeError):
            draft = None
        if isinstance(draft, dict):
            restore(states, ids, draft)
        self._sent = draft_of(states, ids)

    def tick(self, states: States, ids: Sequence[str] | None) -> None:
        """After a key or on the UI's tick: send the draft once it has been still a while."""
        draft, at = draft_of(states, ids), self._clock()
        if draft == self._sent:
            self._waiting = None
            return
        if draft != self._waiting:
            self._waiting, self._due = draft, at + DEBOUNCE
        elif at >= self._due:
            with contextlib.suppress(PortalError, PortalUnreachable):  # over, or no portal
                self._client.call("PUT", self._path, {**draft, "interface": "terminal"})
            self._sent, self._waiting = draft, None
