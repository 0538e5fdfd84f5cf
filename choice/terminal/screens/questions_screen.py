"""Drawing several questions: today's `Screen` for the question shown, with the tab bar
under the title (`tabs.py`), and the final review in the body once the human is there.

Only drawing lives here; what a key does is `questions.py`.
"""

from __future__ import annotations

import curses
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from choice.terminal.key_table import Key, file_keys, keyed
from choice.terminal.questions import QuestionsState
from choice.terminal.questions_review import note_line, reviewed
from choice.terminal.screens.files_screen import files_lines
from choice.terminal.screens.options_screen import Row
from choice.terminal.screens.screen import Screen, line_at
from choice.terminal.screens.tabs import Kind, Tab, tab_bar
from choice.terminal.text import width

TAB_ATTRS: dict[Kind, int] = {"current": curses.A_REVERSE | curses.A_BOLD, "done": 0,
                              "todo": 0, "more": curses.A_DIM, "gap": 0}
SETTINGS_STAGES = ("settings", "edit_setting", "detach")
"""Stages that take the whole body, over the review too."""


class QuestionsScreen(Screen):
    def __init__(self, window: Any, multi: QuestionsState, hints: Callable[[], bool]) -> None:
        super().__init__(window, multi.current, hints)
        self.multi = multi

    @property
    def title(self) -> str:
        return self.multi.question.title

    @property
    def expires_at(self) -> float:
        return self.multi.current.expires_at

    @expires_at.setter
    def expires_at(self, value: float) -> None:
        for state in self.multi.states:
            state.expires_at = value

    @property
    def in_review(self) -> bool:
        return self.multi.reviewing and self.multi.current.stage not in SETTINGS_STAGES

    def draw(self) -> None:
        self.state = self.multi.current  # the question shown: its body, editor and message
        super().draw()

    def head(self, cols: int) -> int:
        """Today's head, then the tab bar on its own row above the rule."""
        super().head(cols)
        self.put(2, 0, " " * (cols - 1))
        _, multi = self.state.translate, self.multi
        tabs = [Tab(state.header, multi.answered(i)) for i, state in enumerate(multi.states)]
        tabs.append(Tab(_("Review")))
        current = len(multi.states) if multi.reviewing else multi.index
        col = 1
        for text, kind in tab_bar(tabs, current, cols - 3):
            self.put(2, col, text, TAB_ATTRS[kind])
            col += width(text)
        self.put(3, 0, "─" * (cols - 1), curses.A_DIM)
        return 4

    def body(self, cols: int, rows: int = 0) -> tuple[list[Row], range]:
        if self.in_review and not self.state.help_open:  # the help lists the review's keys
            return self.review_lines(cols)
        return super().body(cols, rows)

    def review_lines(self, cols: int) -> tuple[list[Row], range]:
        _, multi = self.state.translate, self.multi
        lines: list[Row] = [(_("Review your answers"), curses.A_BOLD), ("", 0)]
        rows = [reviewed(multi, index, _) for index in range(len(multi.states))]
        column = max(width(row.header) for row in rows)
        focus, digits = 0, len(str(len(rows)))
        for index, row in enumerate(rows):
            here = index == multi.review_cursor
            if here:
                focus = len(lines)
            pad = " " * (column - width(row.header))
            number = f"{index + 1}.".rjust(digits + 1)
            text = f"{'›' if here else ' '} {number} {row.header}{pad}   {row.said}"
            lines.append((text, curses.A_REVERSE if here else
                          curses.A_DIM if row.kind != "answered" else 0))
            lines += [("      " + note, curses.A_DIM) for note in row.notes]
        note = note_line(multi, _)
        if note:
            lines += [("", 0), (note, 0)]
        lines += files_lines(self.state, cols - 2)
        here = multi.review_cursor == len(multi.states)
        if here:
            focus = len(lines) + 1
        submit = _("Submit answers")  # outside the f-string: Babel reads no f-strings
        lines += [("", 0), (f"{'›' if here else ' '} {submit}",
                            curses.A_REVERSE if here else curses.A_BOLD)]
        return lines, line_at(focus)

    def hint_parts(self) -> list[Key]:
        _, state = self.state.translate, self.state
        if self.in_review and state.editor is None:
            notes = [Key(_("g note to agent"), 5, _("Write a note for the agent with the "
                                                    "answers."))] if state.annotations else []
            return [Key(_("↑↓ move"), 4, _("Move between the questions and Submit.")),
                    Key(keyed(_, _("{enter} open/submit")), 0, _("Open the question under the cursor, "
                                                     "or send every answer from Submit.")),
                    Key(_("←→ questions"), 1, _("Go to the previous or the next question.")),
                    Key(_("1-9 open by number"), 9, _("Open the question with that number."),
                        bar=False),
                    *notes, *file_keys(state), Key(_("s settings"), 3, _("Open the settings.")),
                    Key(_("q cancel"), 2, _("Cancel the questions (you may say why)."))]
        parts = super().hint_parts()
        if state.stage != "choose":
            return parts
        renamed = {
            keyed(_, _("{enter} submit")): (keyed(_, _("{enter} next")),
                                            _("Keep this answer and go to the next question.")),
            keyed(_, _("{tab} note")): (_("n note"),
                                        _("Write a note on the option under the cursor."))}
        parts = [replace(key, hint=renamed[key.hint][0], help=renamed[key.hint][1])
                 if key.hint in renamed else key for key in parts]
        return [parts[0], Key(keyed(_, _("←→/{tab} questions")), 0,
                              _("Go to the previous or the next question (or the review).")),
                *parts[1:]]
