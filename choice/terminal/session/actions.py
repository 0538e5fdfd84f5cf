"""What the human decided in `choice answer <id>`, carried out through the portal's API:
each `Effect` the keys queue (submit, cancel, resolve, defer, widen, review, settings, the
deadline, a file attached or removed, the switch to the web) becomes a call, and the reply
either keeps the UI open (with a message) or ends the run (`endings.py`).

The owner may widen the question to teammates from here (`w`: `calls/team.py` does the
calls); the UI then shows the discussion and still takes an answer, which resolves it. Once
widened, `f` asks the agent to summarise the discussion and shows its candidate to accept,
edit or defer (`calls/decision.py`, `stages/review.py`); any open question can be deferred
(`d`), and a deferred one taken up again (`r`) or resolved here.

Running the UI (the curses loop, the plain lines) is `session.py`; following the portal's
stream is `follow.py`. No drawing here, and no decisions a key makes.
"""

from __future__ import annotations

import webbrowser
from collections.abc import Callable
from typing import Any

from choice.client.portal_client import PortalClient, PortalError, PortalUnreachable
from choice.contract import UNRESOLVED_STATUSES, FieldError, Submission
from choice.contract.clock import iso, now, parse_iso
from choice.contract.field_errors import InvalidInput
from choice.core.i18n import translator
from choice.terminal.calls.decision import DecisionCalls
from choice.terminal.calls.files import FileCalls
from choice.terminal.calls.team import TeamCalls
from choice.terminal.external_editor import EditorFailed, edit_text, editor_command
from choice.terminal.keys import Effect
from choice.terminal.question import Question
from choice.terminal.session import endings
from choice.terminal.session.endings import Ending
from choice.terminal.stages.review import open_final, take_final
from choice.terminal.state import AnswerState


class Actions:
    def __init__(self, client: PortalClient, question: Question, settings: dict[str, Any], *,
                 open_browser: bool = False) -> None:
        """`settings` are the saved preferences; `open_browser` is `Settings.open_browser`."""
        self.client, self.question, self.open_browser = client, question, open_browser
        self.state = AnswerState(question, self.check, translator(question.language), settings)
        self.team = TeamCalls(client, self.state, question.id)
        self.decision = DecisionCalls(client, self.state, self.team, question.id)
        self.files = FileCalls(client, question.id)
        self.suspend: Callable[[Callable[[], str]], str] | None = None
        """Set by the full-screen UI: run something (the owner's editor) with curses put away."""

    @property
    def _(self) -> Any:
        return self.state.translate

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
            return endings.left_widened(self.question.id, self._)
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
            if effect.kind == "submit":  # widened or deferred too: the portal resolves it
                return self._finished(self.client.respond(
                    self.question.id, self.body(effect.payload)), local=True)
            if effect.kind == "resolve":
                return endings.resolved(self.client.resolve(self.question.id, **effect.payload),
                                        self._, widened=self.state.team is not None)
            if effect.kind == "defer":
                self.client.defer(self.question.id, effect.payload)
                return endings.deferred(str(effect.payload), self.question.id, self._)
            if effect.kind == "cancel":
                body = {"global_annotation": effect.payload} if effect.payload else {}
                body["interface"] = "terminal"
                return self._finished(self.client.call(
                    "POST", f"/api/interactions/{self.question.id}/cancel", body), local=True)
            if effect.kind == "attach":  # the person's file goes with whichever answer comes
                self.files.attach(self.state, str(effect.payload))
                return None
            if effect.kind == "detach":
                self.files.detach(self.state, str(effect.payload))
                return None
            if effect.kind == "set_deadline":
                self._set_deadline(float(effect.payload))
                return None
            if effect.kind == "save_settings":
                self.state.settings = self.client.save_settings(effect.payload)
                self._apply_settings(quiet="hidden_options" in effect.payload)
                return None
            if effect.payload:  # "... and make the browser my default": saved first
                self.state.settings = self.client.save_settings(effect.payload)
            return self._switch_to_web()
        except PortalError as error:
            status = (error.body.get("interaction") or {}).get("status")
            if status == "deferred" and self.state.deferral is None:
                return self.deferred_elsewhere(self.defer_reason())
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

    def _finished(self, result: dict[str, Any], elsewhere: bool = False,
                  local: bool = False) -> Ending:
        return endings.finished(result, self._, elsewhere=elsewhere,
                                closes_discussion=local and self.state.team is not None)

    def deferred_elsewhere(self, rationale: str) -> Ending:
        return endings.deferred(rationale, self.question.id, self._, elsewhere=True)

    def defer_reason(self) -> str:
        try:
            return str(self.client.review(self.question.id).get("defer_rationale") or "")
        except (PortalError, PortalUnreachable):
            return ""

    def closed_elsewhere(self, status: str | None) -> Ending:
        """Over without us: answered or cancelled in another window, or the deadline passed."""
        detail = self.client.detail(self.question.id)
        return self._finished({**(detail.get("result") or {}), "status": status},
                              elsewhere=status != "timeout")

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

    def _apply_settings(self, *, quiet: bool = False) -> None:
        """The saved settings in force; `quiet`: the key already said what changed."""
        language = self.state.settings.get("language") or self.question.language
        self.state.translate = translator(language)
        if not quiet:
            self.state.message = self._("Saved.")

    def _switch_to_web(self) -> Ending:
        self.client.switch_interface(self.question.id, "web")
        url = self.client.login_link(f"/choice/{self.question.id}")
        return endings.switched(url, self.open_browser and _open_quietly(url), self._)


def _open_quietly(url: str) -> bool:
    try:
        return bool(webbrowser.open(url))
    except Exception:
        return False
