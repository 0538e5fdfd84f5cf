"""One answering session of `choice answer <id>`: run the UI (curses or plain lines) on a
loaded question, carry out what the human decided through the portal's API, and end with
one summary line and an exit code.

The owner may widen the question to teammates from here (`w`: `team_calls.py` does the
calls); the UI then shows the discussion and still takes an answer, which resolves it. Once
widened, `f` asks the agent to summarise the discussion and shows its candidate to accept,
edit or defer (`decision_calls.py`, `review.py`); any open question can be deferred (`d`),
and a deferred one taken up again (`r`) or resolved here.

Exit codes (the command is `answer_command.py`): 0 answered, 3 cancelled, 4 timed out, 5
continued in the browser, 6 left while widened, 7 deferred, 1 anything else.
"""

from __future__ import annotations

import contextlib
import curses
import json
import os
import sys
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO, TypeVar

from choice.client.portal_client import PortalClient, PortalError, PortalUnreachable
from choice.contract import (
    OPEN_STATUSES,
    UNRESOLVED_STATUSES,
    WAITING_REASONS,
    FieldError,
    Submission,
)
from choice.contract.clock import iso, now, parse_iso
from choice.contract.field_errors import InvalidInput
from choice.core.i18n import translator
from choice.core.time_defaults import SeenEvent, last_time_given
from choice.terminal.calls.decision import DecisionCalls
from choice.terminal.calls.drafts import DraftedLines, DraftSync
from choice.terminal.calls.team import TeamCalls
from choice.terminal.external_editor import EditorFailed, edit_text, editor_command, suspended
from choice.terminal.keys import Effect
from choice.terminal.live import Live, LiveEvent
from choice.terminal.plain.lines import Lines, run_plain, run_widen, show_team, show_widened
from choice.terminal.plain.review import read_defer, run_review
from choice.terminal.question import Question
from choice.terminal.screens.panels import waiting_reminder
from choice.terminal.screens.review_screen import reviewing
from choice.terminal.screens.screen import Screen, key_name
from choice.terminal.stages.press import press
from choice.terminal.stages.review import open_final, take_final
from choice.terminal.state import AnswerState
from choice.terminal.text import safe_text

EXIT = {"submitted": 0, "auto_submitted": 0, "cancelled": 3, "timeout": 4}
SWITCHED = 5
LEFT_WIDENED = 6
DEFERRED = 7
T = TypeVar("T")


@dataclass
class Ending:
    line: str
    code: int


class Session:
    def __init__(self, client: PortalClient, question: Question, settings: dict[str, Any], *,
                 open_browser: bool = False) -> None:
        """`settings` are the saved preferences; `open_browser` is `Settings.open_browser`."""
        self.client, self.question, self.open_browser = client, question, open_browser
        self.state = AnswerState(question, self.check, translator(question.language), settings)
        self.team = TeamCalls(client, self.state, question.id)
        self.decision = DecisionCalls(client, self.state, self.team, question.id)
        self.drafts = DraftSync(client, question.id)
        self.suspend: Callable[[Callable[[], str]], str] | None = None
        """Set by the full-screen UI: run something (the owner's editor) with curses put away."""

    @property
    def _(self) -> Any:
        return self.state.translate

    # -- carrying out what the human decided ---------------------------------------------
    def check(self, submission: Submission) -> None:
        """The portal's dry run of the answer: `InvalidInput` with the portal's own errors
        (422). Anything else (already over, no portal) lets it through: the real submit
        then meets the same answer and says what happened."""
        try:
            self.client.respond(self.question.id, self.body(submission),
                                dry_run=True)
        except PortalError as error:
            if error.status == 422 and error.errors:
                raise InvalidInput([FieldError(
                    field=str(e.get("field", "")), code=str(e.get("code", "")),
                    message=str(e.get("message", ""))) for e in error.errors]) from None
        except PortalUnreachable:
            pass

    def body(self, submission: Submission) -> dict[str, Any]:
        """The JSON body of a submission."""
        return submission.model_dump(exclude_none=True)

    def apply(self, effect: Effect) -> Ending | None:
        """Do it through the API; an Ending closes the UI, None keeps it open."""
        if effect.kind == "widen_open":
            self.team.open_dialog()
            return None
        if effect.kind == "widen":
            self.team.widen(effect.payload)
            return None
        if effect.kind == "leave":
            return self._leave()
        if effect.kind == "review":
            self.decision.review(ask_again=bool(effect.payload))
            return None
        if effect.kind == "resume":
            self.decision.resume()
            return None
        if effect.kind == "edit_answer":
            self._edit_answer(str(effect.payload or ""))
            return None
        try:
            if effect.kind == "submit" and (self.state.team is not None or
                                            self.state.deferral is not None):
                # seed §4.2: an answer typed while widened (or deferred) resolves it
                submission = effect.payload
                return self._finished(self.client.resolve(
                    self.question.id, submission.custom_input or "",
                    selected_ids=submission.selected_ids), local=True)
            if effect.kind == "submit":
                return self._finished(self.client.respond(
                    self.question.id, self.body(effect.payload)), local=True)
            if effect.kind == "resolve":
                return self._resolved(self.client.resolve(self.question.id, **effect.payload))
            if effect.kind == "defer":
                self.client.defer(self.question.id, effect.payload)
                return self._deferred(str(effect.payload))
            if effect.kind == "cancel":
                body = {"global_annotation": effect.payload} if effect.payload else {}
                body["interface"] = "terminal"
                return self._finished(self.client.call(
                    "POST", f"/api/interactions/{self.question.id}/cancel", body), local=True)
            if effect.kind == "set_deadline":
                self._set_deadline(float(effect.payload))
                return None
            if effect.kind == "save_settings":
                self.state.settings = self.client.save_settings(effect.payload)
                self._apply_settings()
                return None
            if effect.payload:  # "... and make the browser my default": saved first
                self.state.settings = self.client.save_settings(effect.payload)
            return self._switch_to_web()
        except PortalError as error:
            status = (error.body.get("interaction") or {}).get("status")
            if status == "deferred" and self.state.deferral is None:
                return self._deferred(self._defer_reason(), elsewhere=True)
            if error.status == 409 and status not in UNRESOLVED_STATUSES:
                # first writer won: its result stands
                return self._finished({**(error.body.get("result") or {}), "status": status},
                                      elsewhere=True)
            self._failed("; ".join(str(e.get("message")) for e in error.errors))
        except PortalUnreachable:
            self._failed(self._("The portal does not answer: is `choice serve` running? "
                                "Try again in a moment."))
        return None

    def _edit_answer(self, text: str) -> None:
        """`e`: the owner's editor on the candidate, or the built-in line editor."""
        command = editor_command()
        if command is None:
            open_final(self.state, text)
            return
        try:
            saved = self.suspend(lambda: edit_text(command, text)) if self.suspend \
                else edit_text(command, text)
        except EditorFailed as error:
            self.state.message = self._("The editor failed ({error}): nothing was saved. "
                                        "Press e to try again.").format(error=error)
            return
        take_final(self.state, saved)

    def _resolved(self, result: dict[str, Any]) -> Ending:
        """Seed §6.1: the review ended in a decision."""
        line = self._("Decision resolved:") + " " + outcome(result, self._)
        if self.state.team is not None:
            ended = line.endswith((".", "。"))
            line += ("" if ended else ".") + " " + self._("The discussion is closed.")
        status = str(result.get("status") or "")
        return Ending(line, EXIT.get(status, 1))

    def _deferred(self, rationale: str, elsewhere: bool = False) -> Ending:
        """Seed §6.3: set aside, with the reason the agent now reads."""
        said = self._('Deferred elsewhere: "{rationale}".') if elsewhere else \
            self._('Decision deferred: "{rationale}".')
        again = self._("Take it up again with `choice answer {id}`.").format(id=self.question.id)
        return Ending(said.format(rationale=safe_text(rationale, keep_newlines=False)) + " "
                      + again, DEFERRED)

    def _defer_reason(self) -> str:
        try:
            return str(self.client.review(self.question.id).get("defer_rationale") or "")
        except (PortalError, PortalUnreachable):
            return ""

    def _failed(self, message: str) -> None:
        """Stay open and say why; a confirm step goes back to the choice."""
        self.state.message = message
        if self.state.stage == "confirm":
            self.state.stage, self.state.pending = "choose", None

    def _set_deadline(self, minutes: float) -> None:
        """This question's deadline, `minutes` from now: the portal's PATCH (as the web's
        "This question" panel), so every open page's countdown follows at once."""
        reply = self.client.call("PATCH", f"/api/interactions/{self.question.id}",
                                 {"expires_at": iso(now() + minutes * 60),
                                  "interface": "terminal"})  # the default-time offer reads it
        self.state.expires_at = parse_iso(str(reply["expires_at"]))
        self.state.time_given = round(minutes * 60)  # offered as the default time
        self.state.message = self._("Saved.")

    def _apply_settings(self) -> None:
        language = self.state.settings.get("language") or self.question.language
        self.state.translate = translator(language)
        self.state.message = self._("Saved.")

    def _finished(self, result: dict[str, Any], elsewhere: bool = False,
                  local: bool = False) -> Ending:
        status = str(result.get("status") or result.get("action_status") or "")
        prefix = self._("Already finished elsewhere:") + " " if elsewhere else ""
        line = outcome(result, self._)
        if local and self.state.team is not None:  # seed §4.2: decided here, over there too
            if result.get("action_status") in ("selected", "custom_input"):
                line = self._("Resolved locally:") + " " + line
            ended = line.endswith((".", "。"))  # `Cancelled` has no full stop of its own
            line += ("" if ended else ".") + " " + self._("The discussion is closed.")
        return Ending(prefix + line, EXIT.get(status, 0 if status == "selected" else 1))

    def _leave(self) -> Ending:
        """Ctrl+C while widened: the question stays open for the team; say how to return."""
        return Ending(self._("Left it widened: come back with `choice answer {id}`; "
                             "`choice list --status widened` lists what waits on the team.")
                      .format(id=self.question.id), LEFT_WIDENED)

    def _switch_to_web(self) -> Ending:
        self.client.switch_interface(self.question.id, "web")
        url = self.client.login_link(f"/choice/{self.question.id}")
        opened = self.open_browser and _open_quietly(url)
        message = self._("Continued in the browser.") if opened else \
            self._("Continued in the browser: open {url}").format(url=url)
        return Ending(message, SWITCHED)

    def closed_elsewhere(self, status: str | None) -> Ending:
        """Over without us: answered or cancelled in another window, or the deadline passed."""
        detail = self.client.detail(self.question.id)
        return self._finished({**(detail.get("result") or {}), "status": status},
                              elsewhere=status != "timeout")

    def follow(self, event: LiveEvent, screen: Screen) -> Ending | None:
        """A change from the portal's stream; an Ending when the interaction is over."""
        if event.kind == "completed":
            return self.closed_elsewhere(event.status)
        if event.kind == "deferred":
            if self.state.deferral is None:
                return self._deferred(event.rationale or self._defer_reason(), elsewhere=True)
        elif event.kind == "resumed":
            if self.state.deferral is not None:
                self.decision.taken_up()
        elif event.kind == "review":
            if reviewing(self.state):
                self.decision.refresh()
            elif event.change == "candidate_submitted" and self.state.can_review:
                self.state.message = self._("The agent's summary is in: press f to review it.")
        elif event.kind == "team":
            if event.change in ("comment", "vote"):
                self.state.reminder = False  # activity: the reminder is out of date
            self.team.refresh()
        elif event.kind == "reminder" and event.change in WAITING_REASONS:
            if event.other is not None or event.change == "deadline":  # ours is open: here
                self.state.message = waiting_reminder(event, self._)
        elif event.kind == "reminder":
            self.state.reminder = self.state.team is not None
        elif event.kind == "connected":  # catch up on what happened before the stream listened
            with contextlib.suppress(PortalError, PortalUnreachable):
                detail = self.client.detail(self.question.id)
                if detail["status"] == "deferred":
                    if self.state.deferral is None:
                        return self._deferred(self._defer_reason(), elsewhere=True)
                    return None
                if detail["status"] not in OPEN_STATUSES:
                    return self.closed_elsewhere(str(detail["status"]))
                if self.state.deferral is not None:  # taken up again before we listened
                    self.decision.taken_up()
                screen.expires_at = parse_iso(detail["expires_at"])
                if detail["status"] == "widened":
                    self.team.refresh()
                if reviewing(self.state):
                    self.decision.refresh()
        elif event.expires_at is not None:
            screen.expires_at = event.expires_at
        return None

    # -- the two ways to ask ---------------------------------------------------------------------
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
                key = "^C"  # seed §2.2: Ctrl+C aborts the widen dialog; widened: leave
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
                                json.dumps(e["detail"]) if e.get("detail") else None)
                      for e in reply["events"]]
        except (PortalError, PortalUnreachable, KeyError, TypeError, ValueError):
            return None  # no offer; nothing else depends on it
        return last_time_given(events)

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

    def run_plain(self, out: TextIO) -> Ending:
        try:
            return self._plain(self.lines(), out)
        finally:
            self.drafts.stop()

    def _plain(self, lines: Lines, out: TextIO) -> Ending:
        first = True
        while True:
            try:
                effect = run_plain(self.state, lines, out, first=first)
            except KeyboardInterrupt:
                if self.state.team is None:
                    raise
                print(file=out)  # end the `Waiting >` line
                return self._leave()
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
        """Seed §2 and §3 as line prompts; back to the question when it is cancelled or fails."""
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


def outcome(result: dict[str, Any], _: Callable[[str], str]) -> str:
    """The result in one line for the human: the summary says what was chosen, but a
    cancel's or a timeout's summary is advice to the agent, so those get their own."""
    action = result.get("action_status")
    if action == "timeout":
        return _("Timed out")
    if action == "cancelled":
        note = result.get("global_annotation")
        return _("Cancelled") + (f'. {_("Note for the agent:")} "{note}"' if note else "")
    return str(result.get("summary", ""))


def _open_quietly(url: str) -> bool:
    try:
        return bool(webbrowser.open(url))
    except Exception:
        return False
