"""`choice answer <id>` for a request with several questions: today's `Session` (the
portal calls, the endings, the live stream), with the questions' state
(`terminal/questions.py`), their screen (`screens/questions_screen.py`) and their plain
lines (`plain/questions.py`).

`state` is always the question shown, so what the session says (a failed call, "Saved.")
shows on its screen; what the questions share follows it after each call.
"""

from __future__ import annotations

from typing import Any, TextIO

from choice.client.portal_client import PortalClient
from choice.contract import Submission
from choice.terminal.keys import Effect
from choice.terminal.plain.lines import Lines
from choice.terminal.plain.questions import run_questions
from choice.terminal.question import Question
from choice.terminal.questions import QuestionsState
from choice.terminal.screens.questions_screen import QuestionsScreen
from choice.terminal.screens.screen import Screen
from choice.terminal.session.endings import Ending
from choice.terminal.session.session import Session
from choice.terminal.state import AnswerState


class QuestionsSession(Session):
    def __init__(self, client: PortalClient, question: Question, settings: dict[str, Any], *,
                 open_browser: bool = False, placeholder_shown: bool = False) -> None:
        super().__init__(client, question, settings, open_browser=open_browser)
        self.multi = QuestionsState.build(question, self.check, settings, placeholder_shown)
        self.state = self.multi.current

    def body(self, submission: Submission) -> dict[str, Any]:
        """Only the fields that are set: `answers`, and what goes with all of them."""
        return submission.model_dump(exclude_none=True, exclude_unset=True)

    def apply(self, effect: Effect) -> Ending | None:
        self.state = self.multi.current
        ending = super().apply(effect)
        self.multi.sync()
        return ending

    def drafted(self) -> tuple[list[AnswerState], list[str] | None]:
        return list(self.multi.states), [state.question_id for state in self.multi.states]

    def screen(self, window: Any) -> Screen:
        return QuestionsScreen(window, self.multi, lambda: bool(self.state.settings.get(
            "terminal_hints", True)))

    def key(self, key: str) -> list[Effect]:
        self.multi.key(key)
        self.state = self.multi.current
        return self.multi.effects

    def _plain(self, lines: Lines, out: TextIO) -> Ending:
        effect = run_questions(self.multi, lines, out)
        self.state = self.multi.current
        if effect is None:
            return Ending(self._("No answer given: the questions are still open."), 1)
        return self.apply(effect) or Ending(self.state.message, 1)
