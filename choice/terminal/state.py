"""What the terminal UI knows about one question being answered: the picks, the typed
text and notes, the stage on screen, the message, the widened discussion, the write-back,
and the effects queued for the session. No curses, no network, and no key handling: what
each key does is `stages/` (one module per stage), which import this module and the leaf
`keys.py`; this module imports no stage.

While the question is widened (`team` is set) or deferred (`deferral` is set) the answer
keys work as before: an answer given here resolves it (and closes a discussion).

Before a submission is queued (or shown for confirmation) it goes to `check`, which the
session makes the portal's dry run: the terminal explains min/max and confirmation as the
portal judges them, without a copy of the portal's rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from choice.contract import FieldError, Submission
from choice.contract.clock import now
from choice.contract.field_errors import InvalidInput
from choice.contract.preferences import hidden_option_ids, remember_hidden
from choice.core.i18n import Translator, translator
from choice.core.time_defaults import TimeDefault, clamp
from choice.terminal.answer_files import AttachedFile
from choice.terminal.keys import Effect, LineEditor
from choice.terminal.question import Choice, Question
from choice.terminal.team_view import Invitation, TeamView
from choice.terminal.widening import WidenDialog
from choice.terminal.write_back import Deferral, WriteBack

Stage = Literal["choose", "note", "global", "confirm", "cancel", "settings", "edit_setting",
                "widen", "review", "attach", "detach"]


Check = Callable[[Submission], None]
"""Raises `InvalidInput` when the portal would refuse the submission; stores nothing."""


@dataclass
class AnswerState:
    question: Question
    check: Check
    translate: Translator = field(default_factory=lambda: translator("en"))
    settings: dict[str, Any] = field(default_factory=dict)
    cursor: int = 0
    reveal: int = 0
    """Lines of the text above the first option the person scrolled up to read (↑ there);
    ↓ scrolls back before it moves the cursor. The screen keeps it to what there is."""
    picked: set[str] = field(default_factory=set)
    notes: dict[str, str] = field(default_factory=dict)
    global_note: str = ""
    text: str = ""
    stage: Stage = "choose"
    editor: LineEditor | None = None
    setting_cursor: int = 0
    message: str = ""
    pending: Submission | None = None
    effects: list[Effect] = field(default_factory=list)
    expires_at: float = 0.0
    widen: WidenDialog | None = None
    team: TeamView | None = None
    """Set once the question is widened (here or elsewhere): the discussion so far."""
    discussion_url: str = ""
    """The owner's page of the widened question (the waiting box's thread link), once known."""
    invitation: Invitation | None = None
    """Set when this terminal widened it: the links, shown only in this window."""
    just_widened: bool = False
    reminder: bool = False
    status: str = ""
    """pending, widened or deferred, as it stands now (the question's is as it was loaded)."""
    deferral: Deferral | None = None
    """Set while the question is deferred: an answer given here resolves it."""
    write_back: WriteBack | None = None
    """The review of the agent's candidate, or a deferral being written."""
    editing_setting: str = ""
    """The settings row whose editor is open (`edit_setting`)."""
    time_given: int | None = None
    """Seconds this question's time was last set to here: "Use as default" offers them."""
    hidden: set[str] = field(default_factory=set)
    """Options the person hid (`h`, `H`; see docs/guides/terminal.md): not drawn, not numbered, not
    picked. An option in the answer is never hidden: nothing is sent that is not shown."""
    help_open: bool = False
    """`?` (or F1 where letters type): the help screen lists every key of the stage below."""
    help_scroll: int = 0
    files: list[AttachedFile] = field(default_factory=list)
    """The files the draft holds: they go with whichever answer comes (`a` attaches)."""
    file_cursor: int = 0
    """The file `detach` would take off."""
    typed_path: str = ""
    """The path last typed on the attach line: refused, it is offered again to fix."""

    def __post_init__(self) -> None:
        self.picked = set(self.question.request.default_selection_ids)
        self.expires_at = self.question.expires_at
        self.status = self.status or self.question.status
        self.hidden = hidden_by(self.settings, self.question) - self.picked

    def _(self, message: str) -> str:
        """Translate in the question's (or the saved) language."""
        return self.translate(message)

    # -- what the screen asks -------------------------------------------------------------
    @property
    def options(self) -> list[Choice]:
        """The options shown, in the question's order (the hidden ones left out)."""
        return [o for o in self.question.options if o.id not in self.hidden]

    @property
    def focused(self) -> Choice | None:
        """The option under the cursor (None on the text row, or with no options)."""
        shown = self.options
        return shown[self.cursor] if self.cursor < len(shown) else None

    @property
    def rows(self) -> int:
        return len(self.options) + (1 if self.question.has_text else 0)

    @property
    def on_text_row(self) -> bool:
        return self.question.has_text and self.cursor == len(self.options)

    @property
    def annotations(self) -> bool:
        """Notes go with an answer (`POST .../response`); widened or deferred, the answer is
        a resolution (a final answer and selected options), which has no room for them."""
        resolving = self.team is not None or self.deferral is not None
        return bool(self.question.request.allow_annotations) and not resolving

    @property
    def options_only(self) -> bool:
        """A `hitl_request`: no free-text path at all, not even a cancel's reason (the
        portal refuses one with `free_text_not_allowed`)."""
        return self.question.request.shape == "hitl_request"

    def selected_ids(self) -> list[str]:
        return [o.id for o in self.question.options if o.id in self.picked]

    # -- what the keys may offer now --------------------------------------------------------
    @property
    def can_widen(self) -> bool:
        return self.team is None and self.status == "pending"

    @property
    def can_defer(self) -> bool:
        return self.deferral is None and self.status in ("pending", "widened")

    @property
    def can_review(self) -> bool:
        return self.team is not None and self.status == "widened"

    def typed_anything(self) -> bool:
        return bool(self.text.strip() or self.global_note.strip() or any(self.notes.values()))

    # -- the answer ---------------------------------------------------------------------------
    def _submission(self, *, auto: bool = False, confirmed: bool | None = None) -> Submission:
        return Submission(
            selected_ids=self.selected_ids(), custom_input=self.text or None,
            option_annotations={k: v for k, v in self.notes.items() if v.strip()},
            global_annotation=self.global_note or None, confirmed=confirmed,
            submission="auto" if auto else "manual", interface="terminal")

    def submit(self, auto: bool = False) -> None:
        """Check the answer as the portal will; then confirm, or queue the submission."""
        confirming = bool(self.question.request.require_confirmation)
        try:
            submission = self._submission(auto=auto, confirmed=True if confirming else None)
            self.check(submission)
        except InvalidInput as invalid:
            self.message = self.explain(invalid.errors[0])
            return
        if confirming:
            self.stage, self.pending = "confirm", submission
        else:
            self.effects.append(Effect("submit", submission))

    def explain(self, error: FieldError) -> str:
        """The portal's words, except where they name API fields a human never sees."""
        if error.code == "required":
            return self._("Type your answer first.")
        if error.code == "too_few" and self.question.mode == "hybrid":
            return self._("Pick an option or write your own answer.")
        return error.message

    # -- opening a stage (their keys: `stages/`) ----------------------------------------------
    def open_editor(self, stage: Stage, label: str, text: str) -> None:
        """A line to type on (a note, the cancel's reason, a setting's value)."""
        self.stage, self.editor = stage, LineEditor(label, text)

    def open_cancel(self) -> None:
        """Ask why (optional); an options-only question only asks whether."""
        if self.options_only:
            self.stage = "cancel"
            self.editor = LineEditor(self._("Cancel this question? Enter cancels it, Esc goes "
                                            "back"), typing=False)
        else:
            self.open_editor("cancel", self._("Why cancel? (optional)"), "")

    def open_widen(self, dialog: WidenDialog) -> None:
        """The widen dialog: the session opens it with the team list as saved now."""
        self.stage, self.widen = "widen", dialog
        self.editor = LineEditor(self._("Audience"))

    def close_widen(self, message: str) -> None:
        self.stage, self.widen, self.editor, self.message = "choose", None, None, message

    # -- time (the settings stage's rows: `stages/settings.py`) -------------------------------
    def time_default(self) -> TimeDefault | None:
        """What "Use as default" would save, once this question's time was changed here."""
        if self.time_given is None:
            return None
        current = self.settings.get("timeout_seconds")
        return TimeDefault(given=self.time_given, saved=clamp(self.time_given),
                           current=current if isinstance(current, int) else 0)

    @property
    def minutes_left(self) -> int:
        """This question's time left, in whole minutes (at least 1), as the web panel says."""
        return max(1, round((self.expires_at - now()) / 60))


def hidden_by(settings: dict[str, Any], question: Question) -> set[str]:
    """The ids of this question's options the saved `hidden_options` hide."""
    return hidden_option_ids(settings.get("hidden_options") or [], question.options)


def remembered(settings: dict[str, Any], question: Question, hidden: set[str]) -> list[str]:
    """`hidden_options` to save after a change of what this question hides."""
    return remember_hidden(settings.get("hidden_options") or [], question.options, hidden)
