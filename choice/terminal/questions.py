"""Several questions in one interaction (a request with `questions`), as the terminal
answers them: one `AnswerState` per question (today's keys for its mode), which question
is shown, the final review, and the one submission with `answers` keyed by question id.

No curses, no network: `tabs.py` lays out the tab bar, `questions_screen.py` draws,
`session/questions.py` carries the effects out, `plain/questions.py` asks line by line.
A question's Enter checks its answer (the portal's dry run, this question's errors only)
and moves on; the review's submit checks them all, and an error named
`answers.<id>.<field>` opens that question's screen with the message.

Widening, deferring and the agent's review are not offered: the portal refuses to widen
several questions, and a resolution carries one answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from choice.contract import Answer, FieldError, Submission
from choice.contract import Question as Asked
from choice.contract.field_errors import InvalidInput
from choice.core.i18n import Translator, translator
from choice.terminal.key_table import typing
from choice.terminal.keys import Effect
from choice.terminal.question import Question, choices
from choice.terminal.stages.press import press
from choice.terminal.state import AnswerState, Check
from choice.terminal.text import safe_text

NEXT = ("tab", "right")
PREVIOUS = ("btab", "left")
REVIEW_MOVES = {"up": -1, "down": 1, "k": -1, "j": 1}
REVIEW_FORWARD = {"q": "esc", "esc": "esc", "s": "^O", "^O": "^O", "g": "^G", "^G": "^G",
                  "a": "^A", "^A": "^A", "A": "^X", "^X": "^X"}


@dataclass
class QuestionState(AnswerState):
    """One question's answer: an `AnswerState` without the single-question ways on."""

    header: str = ""
    """The tab's chip: the question's header, or `Q<n>` when it has none (made safe)."""
    question_id: str = ""

    @property
    def can_widen(self) -> bool:
        return False

    @property
    def can_defer(self) -> bool:
        return False

    @property
    def can_review(self) -> bool:
        return False

    def touched(self) -> bool:
        """The human changed something here (the defaults are not an answer of theirs)."""
        defaults = set(self.question.request.default_selection_ids)
        return self.picked != defaults or bool(self.text.strip()) or bool(self.notes)

    def answer(self) -> Answer:
        """This question's answer with only the fields that are set."""
        fields: dict[str, Any] = {}
        if self.question.options:
            fields["selected_ids"] = self.selected_ids()
        if self.text.strip():
            fields["custom_input"] = self.text
        notes = {k: v for k, v in self.notes.items() if v.strip()}
        if notes:
            fields["option_annotations"] = notes
        return Answer(**fields)


def sub_question(top: Question, asked: Asked, number: int, total: int,
                 placeholder_shown: bool, _: Translator) -> Question:
    """One of the questions as a one-question `Question`, so today's screen and keys
    answer it. Its title says where it stands ("Question 2 of 3 · Database"); the first
    carries the request's context above its own prompt."""
    request = top.request.model_copy(update={
        "questions": None, "prompt": asked.prompt, "selection_mode": asked.selection_mode,
        "options": asked.options, "default_selection_ids": asked.default_selection_ids,
        "min_selections": asked.min_selections, "max_selections": asked.max_selections,
        "placeholder": asked.placeholder, "allow_annotations": asked.allow_annotations,
        "single_submit_mode": False, "require_confirmation": False, "widen_hint": None})
    prompt = safe_text(asked.prompt)
    if number == 1 and top.prompt:
        prompt = f"{top.prompt}\n\n{prompt}"
    return dataclasses.replace(
        top, request=request, title=position(number, total, header_of(asked, number), _),
        prompt=prompt, options=choices(asked.options), widen_hint="",
        placeholder=safe_text(asked.placeholder or "", keep_newlines=False)
        if placeholder_shown else "")


def header_of(asked: Asked, number: int) -> str:
    return safe_text(asked.header or "", keep_newlines=False).strip() or f"Q{number}"


def position(number: int, total: int, header: str, _: Translator) -> str:
    return _("Question {n} of {total}").format(n=number, total=total) + f" · {header}"


@dataclass
class QuestionsState:
    """The questions, the one shown (`index`), and the review after the last."""

    question: Question
    """The interaction as loaded: its title, context, deadline and language."""
    check: Check
    """The portal's dry run of a whole submission (`InvalidInput` when it would refuse)."""
    states: list[QuestionState] = field(default_factory=list)
    index: int = 0
    reviewing: bool = False
    review_cursor: int = 0
    """A row of the review: a question (0..n-1) or, at n, the submit row."""
    confirmed: set[int] = field(default_factory=set)
    """Questions whose answer passed its check with Enter."""
    effects: list[Effect] = field(default_factory=list)

    @classmethod
    def build(cls, question: Question, check: Check, settings: dict[str, Any],
              placeholder_shown: bool) -> QuestionsState:
        multi = cls(question, check)
        _ = translator(question.language)  # as one question's `AnswerState` starts
        asked = question.request.asked()
        for number, one in enumerate(asked, start=1):
            sub = sub_question(question, one, number, len(asked), placeholder_shown, _)
            multi.states.append(QuestionState(
                sub, multi._checker(one.id), _, settings,
                header=header_of(one, number), question_id=one.id))
        return multi

    @property
    def current(self) -> QuestionState:
        return self.states[self.index]

    @property
    def translate(self) -> Translator:
        return self.current.translate

    def answered(self, index: int) -> bool:
        return index in self.confirmed or self.states[index].touched()

    # -- checks ---------------------------------------------------------------------------------
    def _checker(self, question_id: str) -> Callable[[Submission], None]:
        """A question's own check: the whole dry run with only its answer, keeping only
        the errors that name it (another question may still be unanswered)."""

        def check(_submission: Submission) -> None:
            state = next(s for s in self.states if s.question_id == question_id)
            try:
                self.check(self._submission({question_id: state.answer()}))
            except InvalidInput as invalid:
                mine = [error for _id, error in self._by_question(invalid.errors)
                        if _id == question_id]
                if mine:
                    raise InvalidInput(mine) from None
        return check

    def _by_question(self, errors: list[FieldError]) -> list[tuple[str | None, FieldError]]:
        """Each error with the question it names (`answers.<id>.<field>`), that prefix
        taken off; None for an error about the whole submission."""
        out: list[tuple[str | None, FieldError]] = []
        for error in errors:
            for state in self.states:
                prefix = f"answers.{state.question_id}"
                if error.field == prefix or error.field.startswith(prefix + "."):
                    rest = error.field[len(prefix) + 1:]
                    out.append((state.question_id, error.model_copy(update={"field": rest})))
                    break
            else:
                out.append((None, error))
        return out

    def _submission(self, answers: dict[str, Answer]) -> Submission:
        """A clean body: only the fields that are set."""
        fields: dict[str, Any] = {"answers": answers, "interface": "terminal",
                                  "submission": "manual"}
        note = self.current.global_note.strip()
        if note:
            fields["global_annotation"] = note
        if self.question.request.require_confirmation:
            fields["confirmed"] = True  # the review is where the human confirms
        return Submission(**fields)

    def submission(self) -> Submission:
        """Every question the human answered (or passed with Enter); the others are left
        out and keep their defaults."""
        return self._submission({state.question_id: state.answer()
                                 for index, state in enumerate(self.states)
                                 if self.answered(index)})

    def submit(self) -> bool:
        """Check the whole answer; queue it, or show the first problem where it belongs."""
        submission = self.submission()
        try:
            self.check(submission)
        except InvalidInput as invalid:
            question_id, error = self._by_question(invalid.errors)[0]
            if question_id is None:  # about the whole answer: the review says it
                self.current.message = error.message
                return False
            index = next(i for i, s in enumerate(self.states) if s.question_id == question_id)
            self.confirmed.discard(index)
            self.go(index)
            self.current.message = self.current.explain(error)
            return False
        self.effects.append(Effect("submit", submission))
        return True

    # -- moving -----------------------------------------------------------------------------------
    def go(self, index: int) -> None:
        """Show question `index`, or the review at `len(states)`."""
        self.reviewing = index >= len(self.states)
        if self.reviewing:
            self.review_cursor = len(self.states)
        else:
            self.index = index

    def step(self, by: int) -> None:
        here = len(self.states) if self.reviewing else self.index
        self.go((here + by) % (len(self.states) + 1))

    def record(self, index: int) -> None:
        """Question `index` passed its check: on to the next, or to the review."""
        self.confirmed.add(index)
        self.go(index + 1)

    def sync(self) -> None:
        """What the questions share follows the one shown: the note for the agent, the
        saved settings, the language, the deadline, the files attached."""
        now_shown = self.current
        for state in self.states:
            state.global_note, state.settings = now_shown.global_note, now_shown.settings
            state.translate, state.expires_at = now_shown.translate, now_shown.expires_at
            state.time_given = now_shown.time_given
            state.files, state.typed_path = now_shown.files, now_shown.typed_path

    # -- keys -------------------------------------------------------------------------------------
    def key(self, key: str) -> None:
        state = self.current
        asks_help = key == "f1" or (key == "?" and (self.reviewing or not typing(state)))
        if state.help_open or asks_help:  # the help of the screen shown
            if asks_help and not state.help_open:
                state.help_open, state.help_scroll = True, 0
            else:
                press(state, key)  # scrolls or closes it
        elif state.stage != "choose":  # an editor, the settings: the question's own keys
            self._forward(key)
        elif self.reviewing:
            self._review_key(key)
        elif key in NEXT or key in PREVIOUS:
            state.message = ""
            self.step(1 if key in NEXT else -1)
        elif key == "n":  # Tab moves between questions: a note on an option is `n`
            if state.on_text_row:
                self._forward(key)
            elif state.annotations and state.question.options:
                self._forward("tab")
        else:
            self._forward(key)

    def _forward(self, key: str) -> None:
        state = self.current
        press(state, key)
        self.sync()
        while state.effects:
            effect = state.effects.pop(0)
            if effect.kind == "submit":
                self.record(self.index)
            else:
                self.effects.append(effect)

    def _review_key(self, key: str) -> None:
        last = len(self.states)
        self.current.message = ""
        if key in REVIEW_MOVES:
            self.review_cursor = max(0, min(last, self.review_cursor + REVIEW_MOVES[key]))
        elif key in NEXT or key in PREVIOUS:
            self.step(1 if key in NEXT else -1)
        elif key == "enter" and self.review_cursor < last:
            self.go(self.review_cursor)
        elif key in ("enter", "y"):
            self.submit()
        elif key.isdigit() and 1 <= int(key) <= last:
            self.go(int(key) - 1)
        elif key in REVIEW_FORWARD:  # cancel, the settings, the note: as on a question,
            self._forward(REVIEW_FORWARD[key])  # by the keys that never type on a text line
