"""Drawing the terminal UI with curses: header with the countdown, the prompt and options
in one scrolling body (or the widen dialog, or the widened view above the options: see
`team_screen.py`; or the review of the agent's candidate: `review_screen.py`), an editor
or message line, and the key hints.

Only drawing lives here; `key_names.py` names the keys, and what a key does is `stages/`.
"""

from __future__ import annotations

import contextlib
import curses
from collections.abc import Callable
from typing import Any

from choice.contract.clock import now
from choice.terminal.key_table import (
    Key,
    detach_keys,
    editor_keys,
    fit,
    help_key,
    help_lines,
    keyed,
    question_keys,
)
from choice.terminal.markdown import BOLD, CODE, Line, clip_spans, inline_spans, styled_lines
from choice.terminal.markdown import ITALIC as EMPHASIS
from choice.terminal.screens.files_screen import detach_lines, files_lines
from choice.terminal.screens.options_screen import Row, bounds, option_lines
from choice.terminal.screens.panels import LATEST_MESSAGES
from choice.terminal.screens.review_panels import deferral_box
from choice.terminal.screens.review_screen import review_hints, review_lines, reviewing
from choice.terminal.screens.settings_screen import settings_lines
from choice.terminal.screens.team_screen import team_lines, widen_hints, widen_lines
from choice.terminal.state import AnswerState
from choice.terminal.text import cell_width, clip, no_gap, safe_text, width, wrap

HINTS_MIN_HEIGHT = 10  # below this the key hints give their line to the question
MESSAGE_LINES = 3  # a long message (a portal error) wraps to this many lines at most


ITALIC = getattr(curses, "A_ITALIC", curses.A_UNDERLINE)  # older curses: underlined


def style_attr(style: int) -> int:
    """Markdown's style flags as curses attributes: code underlined, italic where the
    terminal has it."""
    return ((curses.A_BOLD if style & BOLD else 0) | (ITALIC if style & EMPHASIS else 0)
            | (curses.A_UNDERLINE if style & CODE else 0))


def remaining(expires_at: float) -> str:
    seconds = max(0, round(expires_at - now()))
    hours, rest = divmod(seconds, 3600)
    clock = f"{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
    return f"{hours}:{clock}" if hours else clock


class Screen:
    def __init__(self, window: Any, state: AnswerState, hints: Callable[[], bool]) -> None:
        self.window, self.state, self.hints = window, state, hints
        self.scroll = 0
        """The first body line shown (drawn)."""
        self.follow = 0
        """Where the view would be without `state.reveal`: just enough to show the focus."""
        self.answers = range(0)
        """The body lines of the options and the text row (set as the body is laid out)."""
        self.title_cut = False
        """The head could not show the whole title (set as it is drawn)."""

    @property
    def expires_at(self) -> float:
        return self.state.expires_at

    @expires_at.setter
    def expires_at(self, value: float) -> None:
        self.state.expires_at = value

    def put(self, row: int, col: int, text: str, attr: int = 0) -> None:
        height, cols = self.window.getmaxyx()
        if 0 <= row < height and col < cols - 1:
            # the last cell of the screen, or a resize mid-draw, raises: skip that text
            with contextlib.suppress(curses.error):
                self.window.addstr(row, col, clip(no_gap(text), cols - 1 - col), attr)

    def put_spans(self, row: int, col: int, spans: Line, attr: int) -> None:
        """Styled text (`markdown.py`): each span with the line's attribute and its own."""
        cols = self.window.getmaxyx()[1]
        for text, style in spans:
            if col >= cols - 1:
                return
            self.put(row, col, text, attr | style_attr(style))
            col += width(text)

    # -- the body: prompt, options, free text, the agent note ------------------------------
    def body(self, cols: int, rows: int = 0) -> tuple[list[Row], range]:
        """Lines to show and the ones that must stay in view: every option when they all
        fit in `rows` (a choice is never off-screen while there is room for it), else the
        focused option with its description, or the one focused line. Widened, fewer
        messages are shown when all of it would not fit: the options must stay in view."""
        lines, focus = self._body(cols, LATEST_MESSAGES)
        latest = LATEST_MESSAGES
        while self.state.team is not None and len(lines) > rows > 0 and latest > 1:
            latest -= 1
            lines, focus = self._body(cols, latest)
        answers = self.answers
        if answers.start <= focus.start and focus.stop <= answers.stop and len(answers) <= rows:
            return lines, answers
        return lines, focus

    def _body(self, cols: int, latest: int) -> tuple[list[Row], range]:
        _, q = self.state.translate, self.state.question
        self.answers = range(0)
        if self.state.help_open:
            return [(line, curses.A_BOLD if index == 0 else 0) for index, line in enumerate(
                help_lines(self.hint_parts(), help_key(self.state), _, cols - 2))], line_at(0)
        if self.state.stage in ("settings", "edit_setting"):
            return [*self.settings_lines()], line_at(self.state.setting_cursor + 1)
        if self.state.stage == "widen":
            return [*widen_lines(self.state, cols - 2)], line_at(0)
        if self.state.stage == "detach":
            picker, cursor = detach_lines(self.state, cols - 2)
            return [*picker], line_at(cursor)
        if reviewing(self.state):
            return [*review_lines(self.state, cols - 2)], line_at(0)
        widened = self.state.team is not None
        lines: list[Row] = []
        if widened:
            lines += team_lines(self.state, cols - 2, latest)
        else:
            hint = wrap(q.widen_hint, cols - 2) if q.widen_hint else []
            lines += [(line, curses.A_DIM) for line in hint]  # the agent's, never an action
            if self.state.deferral is not None:
                lines += [(line, 0) for line in deferral_box(self.state.deferral, _, cols - 2)]
            # the title is the prompt (a hitl_request): once, unless the head had to cut it
            prompt = q.prompt if self.title_cut else q.beyond_title
            if prompt:
                lines += [*((line, 0) for line in styled_lines(prompt, cols - 2)), ("", 0)]
            if q.files:  # shown in a browser: here, what they are and the command to see them
                lines += [*((line, curses.A_DIM) for line in wrap(q.files_line(_), cols - 2)),
                          ("", 0)]
        if self.state.stage == "confirm":
            lines.append((_("Please confirm:"), curses.A_BOLD))
            start = len(lines) - 1
            for option in q.options:
                if option.id in self.state.picked:
                    lines.append(("  " + option.label, 0))
            if self.state.text:
                lines.append(("  " + safe_text(self.state.text, keep_newlines=False), 0))
            return [*lines, *files_lines(self.state, cols - 2)], range(start, len(lines))
        answering, focused = option_lines(self.state, cols)
        focus = line_at(0) if focused is None else range(
            len(lines) + focused.start, len(lines) + focused.stop)
        self.answers = range(len(lines), len(lines) + len(answering))
        lines += answering
        return [*lines, *files_lines(self.state, cols - 2)], focus

    def bounds(self) -> str:
        return bounds(self.state)

    def settings_lines(self) -> list[tuple[str, int]]:
        return settings_lines(self.state)

    # -- the whole screen ------------------------------------------------------------------------
    def draw(self) -> None:
        _, state = self.state.translate, self.state
        height, cols = self.window.getmaxyx()
        self.window.erase()
        if height < 6 or cols < 20:
            self.put(0, 0, _("Window too small"))
            self.window.refresh()
            return
        top = self.head(cols)
        hints = self.hints() and height >= HINTS_MIN_HEIGHT
        # While writing, a message shows only in the review (a refused empty rationale).
        hidden = state.editor is not None and state.stage != "review"
        message = [] if hidden or not state.message else wrap(
            safe_text(state.message, keep_newlines=False), cols - 2)[:MESSAGE_LINES]
        editing = 1 if state.editor is not None else 0
        bottom = height - (2 if hints else 1) - max(1, editing + len(message))
        visible = bottom - top
        lines, focus = self.body(cols, visible)
        self.scroll = self.view(len(lines), focus, visible)
        for row, (text, attr) in enumerate(lines[self.scroll:self.scroll + visible]):
            if isinstance(text, str):
                self.put(top + row, 1, text, attr)
            else:
                self.put_spans(top + row, 1, text, attr)
        self.put(bottom, 0, "─" * (cols - 1), curses.A_DIM)
        self.more_marks(top - 1, bottom, self.scroll, len(lines) - self.scroll - visible)
        if state.editor is not None and not state.editor.typing:  # a yes/no line
            self.put(bottom + 1, 1, state.editor.label, curses.A_BOLD)
        elif state.editor is not None:
            mark = " >" if state.stage == "widen" else ":"  # the widen dialog's `Audience >`
            head = f"{state.editor.label}{mark} "
            typed = safe_text(state.editor.text, keep_newlines=False)
            # a long text (a pre-filled answer) shows its end: where the typing happens
            self.put(bottom + 1, 1, head + tail(typed, cols - 4 - width(head)) + "▏")
        for row, text in enumerate(message):
            self.put(bottom + 1 + editing + row, 1, text, curses.A_BOLD)
        if hints and state.help_open:
            self.put(height - 1, 1, clip(_("↑↓ scroll · any other key closes the help"),
                                         cols - 2), curses.A_DIM)
        elif hints:
            self.put(height - 1, 1, fit(self.hint_parts(), cols - 2, help_key(state)),
                     curses.A_DIM)
        self.window.refresh()

    def view(self, count: int, focus: range, visible: int) -> int:
        """The first body line shown. The help and the review scroll with ↑↓ (no focus);
        elsewhere the view moves only as far as it must to show all of `focus` (its start
        when it is taller than the view), then up by the lines the person asked to see
        above it (↑ on the first option: `state.reveal`)."""
        state = self.state
        most = max(0, count - visible)
        if state.help_open:
            state.help_scroll = max(0, min(state.help_scroll, most))
            return state.help_scroll
        if reviewing(state) and state.write_back is not None:
            state.write_back.scroll = max(0, min(state.write_back.scroll, most))
            return state.write_back.scroll
        follow = self.follow
        if focus.stop > follow + visible:
            follow = focus.stop - visible
        follow = max(0, min(follow, focus.start, most))
        self.follow = follow
        shown = max(0, follow - state.reveal)
        state.reveal = follow - shown  # no more than there is above
        return shown

    def more_marks(self, top_rule: int, bottom_rule: int, above: int, below: int) -> None:
        """`↑ 3 more` on the rule over the body and `↓ 5 more` on the rule under it, when
        lines are out of view that way: nothing is hidden without a sign."""
        _ = self.state.translate
        if above > 0:
            self.put(top_rule, 2, " " + _.ngettext("↑ {n} more", "↑ {n} more", above).format(
                n=above) + " ", curses.A_BOLD)
        if below > 0:
            self.put(bottom_rule, 2, " " + _.ngettext("↓ {n} more", "↓ {n} more", below).format(
                n=below) + " ", curses.A_BOLD)

    def head(self, cols: int) -> int:
        """The title with the countdown, when it was asked, a rule; the body's first row."""
        _, state = self.state.translate, self.state
        # a deferred question has no deadline running: no countdown to show
        clock = _("deferred") if state.deferral is not None else \
            _("{time} left").format(time=remaining(self.expires_at))  # zh: 剩余 9:47
        title = inline_spans(self.title)  # `code` in a title shows as code, without marks
        self.title_cut = sum(width(text) for text, _style in title) > cols - width(clock) - 4
        self.put_spans(0, 1, clip_spans(title, cols - width(clock) - 4), curses.A_BOLD)
        self.put(0, cols - width(clock) - 2, clock,
                 curses.A_BOLD if self.expires_at - now() <= 10 and state.deferral is None else 0)
        asked = _("asked at {time}").format(time=state.question.asked_at)
        if state.question.agent:
            asked += f" · {state.question.agent}"
        if state.question.signed_in is not None:  # a team server: which member, where
            member, server = state.question.signed_in
            asked += " · " + _("{member} on {server}").format(member=member, server=server)
        self.put(1, 1, asked, curses.A_DIM)
        self.put(2, 0, "─" * (cols - 1), curses.A_DIM)
        return 3

    @property
    def title(self) -> str:
        return self.state.question.title

    def hint_parts(self) -> list[Key]:
        """Every key of this stage (`key_table.py`), in display order, with its rank."""
        _, stage = self.state.translate, self.state.stage
        if stage == "widen":
            return widen_hints(self.state)
        if stage == "detach":
            return detach_keys(self.state)
        if reviewing(self.state) and self.state.editor is None:
            return review_hints(self.state)
        if self.state.editor is not None:
            return editor_keys(self.state)
        if stage == "confirm":
            return [Key(_("y confirm · b back · c cancel"), 0,
                        _("y or Enter sends the answer; b goes back to change it; c cancels "
                          "the question."))]
        if stage == "settings":
            return [Key(keyed(_, _("↑↓ move · {enter} change · {esc} back")), 0,
                        _("Move between the settings; Enter or space changes one (←/→ the "
                          "chime volume); Esc goes back to the question."))]
        return question_keys(self.state)


def line_at(index: int) -> range:
    """A focus of one line."""
    return range(index, index + 1)


def tail(text: str, cells: int) -> str:
    """The end of `text` that fits in `cells`, with `…` in front when something was cut."""
    if width(text) <= cells:
        return text
    kept: list[str] = []
    used = 0
    for char in reversed(text):
        used += cell_width(char)
        if used > cells - 1:
            break
        kept.append(char)
    return "…" + "".join(reversed(kept))
