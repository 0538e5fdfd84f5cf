"""What the terminal UI knows and how each key changes it: no curses, no network.

Keys arrive as names (`up`, `down`, `enter`, `space`, `tab`, `esc`, `backspace`, `^G`,
`^O` and `^W` for Ctrl-G, Ctrl-O and Ctrl-W, `^C` for an interrupt) or as a single printable
character. On the text line letters type, so Ctrl-G (the note for the agent), Ctrl-O (the
settings), Ctrl-W (widen), Ctrl-D (defer), Ctrl-F (fetch & review) and Ctrl-R (take a
deferred question up again) stand in for `g`, `s`, `w`, `d`, `f` and `r` there; they work on
every line. While the question is widened (`team` is set) or deferred (`deferral` is set)
the answer keys work as before: an answer given here resolves it (and closes a discussion).
The review of the agent's candidate and the deferral are `review.py`'s keys.

What must happen outside (submit, cancel, save a setting, switch to the web, widen) is
queued in `effects` for the session to carry out. Before a submission is queued (or shown
for confirmation) it goes to `check`, which the session makes the portal's dry run: the
terminal explains min/max and confirmation as the portal judges them, without a copy of the
portal's rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from choice.contract import FieldError, Submission
from choice.contract.clock import now
from choice.contract.field_errors import InvalidInput
from choice.core.i18n import Translator, translator
from choice.core.time_defaults import TimeDefault
from choice.terminal.question import Question
from choice.terminal.review import Deferral, WriteBack, open_defer, review_key
from choice.terminal.settings_stage import offered_default, settings_key, typed_setting
from choice.terminal.team_view import Invitation, TeamView
from choice.terminal.widening import WidenDialog

Stage = Literal["choose", "note", "global", "confirm", "cancel", "settings", "edit_setting",
                "widen", "review"]
MOVES = {"up": -1, "down": 1}
@dataclass
class Effect:
    kind: Literal["submit", "cancel", "save_settings", "set_deadline", "switch_to_web",
                  "widen_open", "widen",
                  "leave", "refresh_team", "review", "resolve", "defer", "defer_open", "resume",
                  "edit_answer"]
    payload: Any = None


@dataclass
class LineEditor:
    label: str
    text: str = ""
    typing: bool = True
    """False: a yes/no line (Enter or Esc), e.g. an options-only question's cancel."""

    def key(self, key: str) -> Literal["done", "abort"] | None:
        if key == "enter":
            return "done"
        if key == "esc":
            return "abort"
        if not self.typing:
            return None
        if key == "backspace":
            self.text = self.text[:-1]
        elif key == "^U":  # as in a shell: clear the line (a pre-filled answer to rewrite)
            self.text = ""
        elif key == "space":
            self.text += " "
        elif len(key) == 1 and key.isprintable():
            self.text += key
        return None


Check = Callable[[Submission], None]
"""Raises `InvalidInput` when the portal would refuse the submission; stores nothing."""


@dataclass
class AnswerState:
    question: Question
    check: Check
    translate: Translator = field(default_factory=lambda: translator("en"))
    settings: dict[str, Any] = field(default_factory=dict)
    cursor: int = 0
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

    def __post_init__(self) -> None:
        self.picked = set(self.question.request.default_selection_ids)
        self.expires_at = self.question.expires_at
        self.status = self.status or self.question.status

    def _(self, message: str) -> str:
        """Translate in the question's (or the saved) language."""
        return self.translate(message)

    # -- what the screen asks -------------------------------------------------------------
    @property
    def rows(self) -> int:
        return len(self.question.options) + (1 if self.question.has_text else 0)

    @property
    def on_text_row(self) -> bool:
        return self.question.has_text and self.cursor == len(self.question.options)

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

    # -- keys --------------------------------------------------------------------------------
    @property
    def can_widen(self) -> bool:
        return self.team is None and self.status == "pending"

    @property
    def can_defer(self) -> bool:
        return self.deferral is None and self.status in ("pending", "widened")

    @property
    def can_review(self) -> bool:
        return self.team is not None and self.status == "widened"

    def key(self, key: str) -> None:
        self.message = "" if self.stage == "choose" else self.message
        self.just_widened = self.reminder = False  # the owner has seen them
        if self.stage == "review":
            review_key(self, key)
            return
        if self.stage == "settings":
            settings_key(self, key)
            return
        handler = {"choose": self._choose, "confirm": self._confirm,
                   "widen": self._widen}.get(self.stage, self._edit)
        handler(key)

    def _choose(self, key: str) -> None:
        typing = self.on_text_row and (len(key) == 1 or key in ("space", "backspace"))
        if key in MOVES or (key in ("j", "k") and not typing):
            step = MOVES.get(key, 1 if key == "j" else -1)
            self.cursor = max(0, min(self.rows - 1, self.cursor + step))
        elif typing:
            self.text = self.text[:-1] if key == "backspace" else self.text + (
                " " if key == "space" else key)
        elif key == "space":
            self._pick()
        elif key == "enter":
            if not self.question.multi and not self.picked and not self.on_text_row \
                    and self.question.options:
                self.picked = {self.question.options[self.cursor].id}
            self.submit()
        elif key == "tab" and self.annotations and not self.on_text_row and self.question.options:
            option = self.question.options[self.cursor]
            self._open_editor("note", self._("Note on {label}").format(label=option.label),
                              self.notes.get(option.id, ""))
        elif key in ("g", "^G") and self.annotations:
            self._open_editor("global", self._("Note for the agent"), self.global_note)
        elif key in ("q", "esc"):
            self._open_cancel()
        elif key in ("s", "^O"):
            self.stage, self.setting_cursor = "settings", 0
        elif key in ("w", "^W") and self.can_widen:
            self.effects.append(Effect("widen_open"))
        elif key in ("d", "^D") and self.can_defer:
            open_defer(self)
        elif key in ("f", "^F") and self.can_review:
            self.effects.append(Effect("review"))
        elif key in ("r", "^R") and self.deferral is not None:
            self.effects.append(Effect("resume"))
        elif key == "^C" and self.team is not None:
            self.effects.append(Effect("leave"))

    def _pick(self) -> None:
        if not self.question.options or self.on_text_row:
            return
        option_id = self.question.options[self.cursor].id
        if self.question.multi:
            self.picked ^= {option_id}
            return
        self.picked = {option_id}
        request = self.question.request
        if request.single_submit_mode and not self._typed_anything():
            self.submit(auto=True)
        elif request.single_submit_mode:
            self.message = self._("You have typed something: press Enter when ready")

    def _typed_anything(self) -> bool:
        return bool(self.text.strip() or self.global_note.strip() or any(self.notes.values()))

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
            self.message = self._explain(invalid.errors[0])
            return
        if confirming:
            self.stage, self.pending = "confirm", submission
        else:
            self.effects.append(Effect("submit", submission))

    def _explain(self, error: FieldError) -> str:
        """The portal's words, except where they name API fields a human never sees."""
        if error.code == "required":
            return self._("Type your answer first.")
        if error.code == "too_few" and self.question.mode == "hybrid":
            return self._("Pick an option or write your own answer.")
        return error.message

    def _confirm(self, key: str) -> None:
        if key in ("y", "enter") and self.pending is not None:
            self.effects.append(Effect("submit", self.pending))
        elif key in ("b", "esc"):
            self.stage, self.pending = "choose", None
        elif key in ("c", "q"):
            self.pending = None
            self._open_cancel()

    def _open_cancel(self) -> None:
        """Ask why (optional); an options-only question only asks whether."""
        if self.options_only:
            self.stage = "cancel"
            self.editor = LineEditor(self._("Cancel this question? Enter cancels it, Esc goes "
                                            "back"), typing=False)
        else:
            self._open_editor("cancel", self._("Why cancel? (optional)"), "")

    # -- widening (seed §2, §3): the session opens the dialog with the team list --------------
    def open_widen(self, dialog: WidenDialog) -> None:
        self.stage, self.widen = "widen", dialog
        self.editor = LineEditor(self._("Audience"))

    def close_widen(self, message: str) -> None:
        self.stage, self.widen, self.editor, self.message = "choose", None, None, message

    def _widen(self, key: str) -> None:
        dialog = self.widen
        assert dialog is not None
        if key == "^C":
            self.close_widen(self._("Not widened: nothing changed."))
        elif dialog.step == "audience" and self.editor is not None:
            verdict = self.editor.key(key)
            dialog.typed = self.editor.text
            taken = dialog.take_audience(self.editor.text) if verdict == "done" else None
            if verdict == "abort" or taken == "cancel":
                self.close_widen(self._("Not widened: nothing changed."))
            elif taken == "next":
                self.editor = None  # on to b/c
        elif key in ("esc", "q"):
            self.close_widen(self._("Not widened: nothing changed."))
        elif (mode := dialog.take_mode("" if key == "enter" else key)) is not None:
            self.effects.append(Effect("widen", dialog.request(mode)))

    # -- line editors (notes, cancel note, a setting's value) -----------------------------
    def _open_editor(self, stage: Stage, label: str, text: str) -> None:
        self.stage, self.editor = stage, LineEditor(label, text)

    def _edit(self, key: str) -> None:
        assert self.editor is not None
        verdict = self.editor.key(key)
        if verdict is None:
            return
        value, stage = self.editor.text.strip(), self.stage
        self.editor = None
        self.stage = "settings" if stage == "edit_setting" else "choose"
        if verdict == "abort":
            return
        if stage == "note":
            option_id = self.question.options[self.cursor].id
            if value:
                self.notes[option_id] = value
            else:
                self.notes.pop(option_id, None)  # an empty note is no note
        elif stage == "global":
            self.global_note = value
        elif stage == "cancel":
            self.effects.append(Effect("cancel", value or None))
        elif stage == "edit_setting":
            typed_setting(self, self.editing_setting, value)

    # -- settings (the stage's rows and keys: `settings_stage.py`) ---------------------------
    def time_default(self) -> TimeDefault | None:
        """What "Use as default" would save, once this question's time was changed here."""
        return offered_default(self.time_given, self.settings)

    @property
    def minutes_left(self) -> int:
        """This question's time left, in whole minutes (at least 1), as the web panel says."""
        return max(1, round((self.expires_at - now()) / 60))

    def open_setting_editor(self, name: str, label: str, text: str) -> None:
        self.editing_setting = name
        self._open_editor("edit_setting", label, text)

    def save_setting(self, name: str, value: Any) -> None:
        self.effects.append(Effect("save_settings", {name: value}))
