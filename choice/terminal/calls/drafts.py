"""The terminal's draft: what is picked and typed here goes to the portal's
`PUT /api/interactions/{id}/draft` once it has been still for `DEBOUNCE` seconds, and a
question opens from the portal's draft (typed in the browser, or in an earlier terminal).

A draft is never an answer: the portal deletes it when the question ends. The text being
typed in a line editor (a note, the note for the agent, a cancel's reason) counts as typed.
Option ids the question does not have are dropped on restore. Failing calls are ignored: a
draft is a convenience, never a reason to stop answering.

The plain lines have no tick between two lines: they save just before waiting on the next
line (`DraftedLines`), at once, or, within `GAP` of the last write, from a timer when `GAP`
has passed; what is still waiting when they end is sent then (`stop`).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO, Any

from choice.client.portal_client import PortalClient, PortalError, PortalUnreachable
from choice.terminal.state import AnswerState

DEBOUNCE = 0.7
GAP = 1.0
"""The plain lines' least time between two writes."""
States = Sequence[AnswerState]


def _answer(state: AnswerState) -> dict[str, Any]:
    notes = dict(state.notes)
    if state.stage == "note" and state.editor is not None and state.focused is not None:
        notes[state.focused.id] = state.editor.text
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
    state.hidden -= state.picked  # a drafted pick is shown, whatever was hidden


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
        self._lock, self._sending = threading.Lock(), threading.Lock()
        self._timer: threading.Timer | None = None
        self._written = -GAP

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

    def save(self, states: States, ids: Sequence[str] | None) -> None:
        """For the plain lines: send a changed draft now, or from a timer once `GAP` has
        passed since the last write, so at most one write a second and the newest is sent."""
        draft = draft_of(states, ids)
        with self._lock:
            self._waiting = None if draft == self._sent else draft
            if self._waiting is None or self._timer is not None:
                return  # nothing new, or the timer will send the newest
            wait = self._written + GAP - self._clock()
            if wait > 0:
                self._timer = threading.Timer(wait, self._send)
                self._timer.daemon = True
                self._timer.start()
                return
        self._send()

    def stop(self) -> None:
        """The plain lines end: send what is still waiting (the question may stay open)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        self._send()

    def _send(self) -> None:
        with self._sending:  # one write at a time, in order
            with self._lock:
                draft, self._waiting, self._timer = self._waiting, None, None
                if draft is None:
                    return
                self._written = self._clock()
            with contextlib.suppress(PortalError, PortalUnreachable):  # over, or no portal
                self._client.call("PUT", self._path, {**draft, "interface": "terminal"})
            with self._lock:
                self._sent = draft


class DraftedLines:
    """The plain lines' input: before it waits on the next line, the lines so far are saved
    as the draft (the full-screen UI saves on its tick instead)."""

    def __init__(self, lines: IO[str], save: Callable[[], None]) -> None:
        self._lines, self._save = lines, save

    def readline(self) -> str:
        self._save()
        return self._lines.readline()

    def isatty(self) -> bool:
        return self._lines.isatty()
