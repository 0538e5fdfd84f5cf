"""One run of `choice answer <id>` on a loaded question: the two ways to ask (the curses
loop, or plain lines for pipes and dumb terminals), each key handed to the stages
(`stages/press.py`), each effect carried out (`actions.py`), the live stream followed
(`follow.py`) and the draft kept (`calls/drafts.py`), until an `Ending` (`endings.py`).

The command around it is `answer_command.py`; several questions in one interaction are
`questions.py`'s `QuestionsSession`. No portal calls of its own beyond the draft and the
audit trail's "time given".
"""

from __future__ import annotations

import contextlib
import curses
import os
import sys
from typing import Any, TextIO

from choice.client.portal_client import PortalClient, PortalError, PortalUnreachable
from choice.contract.clock import parse_iso
from choice.core.time_defaults import SeenEvent, last_time_given
from choice.terminal.calls.drafts import DraftedLines, DraftSync
from choice.terminal.external_editor import suspended
from choice.terminal.keys import Effect
from choice.terminal.live import Live, LiveEvent
from choice.terminal.plain.lines import Lines, run_plain, run_widen, show_team, show_widened
from choice.terminal.plain.reminders import PlainReminders
from choice.terminal.plain.review import read_defer, run_review
from choice.terminal.question import Question
from choice.terminal.screens.key_names import key_name
from choice.terminal.screens.screen import Screen
from choice.terminal.session import endings
from choice.terminal.session.actions import Actions
from choice.terminal.session.endings import Ending
from choice.terminal.session.follow import follow
from choice.terminal.stages.press import press
from choice.terminal.state import AnswerState


class Session(Actions):
    def __init__(self, client: PortalClient, question: Question, settings: dict[str, Any], *,
                 open_browser: bool = False) -> None:
        super().__init__(client, question, settings, open_browser=open_browser)
        self.drafts = DraftSync(client, question.id)

    def follow(self, event: LiveEvent, screen: Screen) -> Ending | None:
        """A change from the portal's stream; an Ending when the interaction is over."""
        return follow(self, event, screen)

    def run_curses(self, live: Live) -> Ending:
        # ncurses takes $LINES/$COLUMNS over the window's real size: a shell that exports
        # them (or a tool that sets them, as pytest-xdist does) would pin the UI to a stale
        # size that no resize changes. Without them it asks the terminal.
        for name in ("LINES", "COLUMNS"):
            os.environ.pop(name, None)
        return curses.wrapper(self._curses_loop, live)

    def _curses_loop(self, window: Any, live: Live) -> Ending:
        with contextlib.suppress(curses.error):
            curses.curs_set(0)
        window.keypad(True)
        window.timeout(200)
        self.suspend = lambda run: suspended(window, run)
        screen = self.screen(window)
        self.drafts.start(*self.drafted())
        self.load_files()
        self.state.time_given = self.time_given_before()
        while True:
            self.drafts.tick(*self.drafted())
            while not live.events.empty():
                ending = self.follow(live.events.get(), screen)
                if ending is not None:
                    return ending
            screen.draw()
            try:
                key = key_name(window.get_wch())
            except curses.error:
                continue  # the 200 ms tick: redraw the countdown
            except KeyboardInterrupt:
                if self.state.stage != "widen" and self.state.team is None:
                    raise  # as before widening existed: Ctrl+C leaves, the question stays
                key = "^C"  # Ctrl+C aborts the widen dialog, as `cancel` does; widened: leave
            if key is None or key == "resize":
                continue
            effects = self.key(key)
            while effects:
                ending = self.apply(effects.pop(0))
                if ending is not None:
                    return ending

    def time_given_before(self) -> int | None:
        """The time a person at a screen last gave this question, from its audit trail (as
        the page reads it): "Use as default" is offered again when it is opened again."""
        try:
            reply = self.client.call("GET", f"/api/interactions/{self.question.id}/events")
            events = [SeenEvent(e["kind"], e["actor"], parse_iso(e["at"]),
                                e.get("detail") or None)
                      for e in reply["events"]]
        except (PortalError, PortalUnreachable, KeyError, TypeError, ValueError):
            return None  # no offer; nothing else depends on it
        return last_time_given(events)

    def load_files(self) -> None:
        """The files already attached (on the page, or in an earlier terminal)."""
        files = self.files.listed()
        for state in self.drafted()[0]:
            state.files = list(files or [])

    def drafted(self) -> tuple[list[AnswerState], list[str] | None]:
        """The answers a draft holds: this question's (several: each one's, by id)."""
        return [self.state], None

    def screen(self, window: Any) -> Screen:
        return Screen(window, self.state, lambda: bool(self.state.settings.get(
            "terminal_hints", True)))

    def key(self, key: str) -> list[Effect]:
        """A key to the UI's state; the effects it queued (taken from as they are done)."""
        press(self.state, key)
        return self.state.effects

    def lines(self) -> DraftedLines:
        """Stdin for the plain lines, saving the draft before each wait on a line."""
        self.drafts.start(*self.drafted())
        return DraftedLines(sys.stdin, lambda: self.drafts.save(*self.drafted()))

    def run_plain(self, out: TextIO, live: Live | None = None) -> Ending:
        """Line prompts; with `live`, an idle discussion's reminder prints while a widened
        question waits, so an owner who walked away hears of it."""
        reminders = PlainReminders(live, self.state, out) if live is not None else None
        try:
            return self._plain(self.lines(), out)
        finally:
            self.drafts.stop()
            if reminders is not None:
                reminders.stop()

    def _plain(self, lines: Lines, out: TextIO) -> Ending:
        first = True
        while True:
            try:
                effect = run_plain(self.state, lines, out, first=first)
            except KeyboardInterrupt:
                if self.state.team is None:
                    raise
                print(file=out)  # end the `Waiting >` line
                return endings.left_widened(self.question.id, self._)
            first = False
            if effect is None:
                return Ending(self._("No answer given: the question is still open."), 1)
            if effect.kind == "widen_open":
                self._plain_widen(lines, out)
            elif effect.kind == "refresh_team":
                self.team.refresh()
                show_team(self.state, out)
            elif effect.kind == "resume":
                self.apply(effect)
                print(self.state.message, file=out)
                first = True  # the question again, as it now stands
            elif effect.kind in ("review", "defer_open"):
                chosen = run_review(self.state, self.decision, lines, out) \
                    if effect.kind == "review" else read_defer(self.state, lines, out)
                if chosen is not None:
                    ending = self.apply(chosen)
                    if ending is not None:
                        return ending
                    print(self.state.message, file=out)
                print(self._("Back to the question."), file=out)
            else:
                return self.apply(effect) or Ending(self.state.message, 1)

    def _plain_widen(self, lines: Lines, out: TextIO) -> None:
        """The widen dialog as line prompts; back to the question when it is cancelled or fails."""
        if not self.team.open_dialog():
            print(self.state.message, file=out)
            return
        effect = run_widen(self.state, lines, out)
        if effect is None:
            self.state.close_widen(self._("Not widened: nothing changed."))
            print(self.state.message, file=out)
        elif self.team.widen(effect.payload):
            show_widened(self.state, out)
        else:
            print(self.state.message, file=out)
            print(self._("Back to the question."), file=out)

