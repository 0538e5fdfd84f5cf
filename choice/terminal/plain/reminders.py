"""Reminders in plain lines: while a widened question waits at `Waiting >`, an idle
discussion's reminder (the portal's `interaction.reminder`, from the live stream) prints
its lines and the prompt again, as the full-screen UI shows them above the options.

A daemon thread takes the stream's events (`live.py`) and prints only this question's
idle reminders, and only while it is widened; the line prompts go on reading stdin
meanwhile. No portal calls, no keys.
"""

from __future__ import annotations

import queue
import threading
from typing import IO

from choice.contract import WAITING_REASONS
from choice.terminal.live import Live
from choice.terminal.screens.panels import reminder_lines
from choice.terminal.state import AnswerState

TAKE_SECONDS = 0.5
"""How long the thread waits on the queue before looking again (it never holds a lock)."""


def is_idle_reminder(event_kind: str, change: str | None, other: object) -> bool:
    """This question's own idle-discussion reminder (not another question's, not its last
    minute, which the plain lines do not count down)."""
    return event_kind == "reminder" and other is None and change not in WAITING_REASONS


class PlainReminders:
    def __init__(self, live: Live, state: AnswerState, out: IO[str]) -> None:
        self.live, self.state, self.out = live, state, out
        self.stopped = threading.Event()
        threading.Thread(target=self._run, name="choice-plain-reminders", daemon=True).start()

    def stop(self) -> None:
        self.stopped.set()

    def _run(self) -> None:
        while not self.stopped.is_set():
            try:
                event = self.live.events.get(timeout=TAKE_SECONDS)
            except queue.Empty:
                continue
            if self.state.team is None or not is_idle_reminder(event.kind, event.change,
                                                                 event.other):
                continue
            _ = self.state.translate
            lines = reminder_lines(self.state.team, self.state.question.id, _, plain=True)
            # a new line first: the reminder may come while `Waiting > ` waits for input
            self.out.write("\n" + "\n".join(["", *lines, ""]) + "\n" + _("Waiting") + " > ")
            self.out.flush()
