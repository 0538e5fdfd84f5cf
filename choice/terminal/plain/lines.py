"""The plain-line fallback: pipes, `TERM=dumb`, `--plain`, or when curses cannot start.

Numbered options, the default in brackets, one answer per line from stdin (so a script
can answer), `!cancel [why]` to cancel, `w` to widen it to the team (the `Audience >` and
`[b/c]` prompts follow), `d` to defer it; once widened `f` to show the discussion again and
`s` to ask the agent for its summary and review it (fetch & review, `plain/review.py`: a
separate word, so a script's `f` never waits on the agent);
a deferred one `r` to take it up again. It produces the same `Effect`s as the curses UI.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from typing import IO, Protocol

from choice.contract.field_errors import InvalidInput
from choice.core.i18n import Translator
from choice.terminal.keys import Effect
from choice.terminal.markdown import inline_spans, plain
from choice.terminal.question import Question
from choice.terminal.screens.panels import (
    audience_box,
    audience_confirmed,
    discussion_lines,
    invited_box,
    link_lines,
    mode_question,
    votes_text,
    waiting_box,
    warning_lines,
)
from choice.terminal.screens.review_panels import deferral_box
from choice.terminal.stages.press import press
from choice.terminal.state import AnswerState
from choice.terminal.text import no_gap, safe_text

MAX_ATTEMPTS = 5
PLAIN_MESSAGES = 10  # the newest messages `f` prints (the full-screen UI shows fewer)


class Lines(Protocol):
    """What the prompts read from: stdin, or stdin that saves the draft before each wait
    (`drafts.DraftedLines`)."""

    def readline(self) -> str: ...

    def isatty(self) -> bool: ...


def _print(out: IO[str], text: str = "") -> None:
    out.write(no_gap(text) + "\n")
    out.flush()


def _read(read: Lines, out: IO[str]) -> str | None:
    """One line of input, None at its end. A script's answer is not echoed by a terminal:
    write it after the prompt, so the transcript reads as it would have been typed."""
    line = read.readline()
    if not line:
        _print(out)  # end the prompt's line: the input ended, nothing was echoed
        return None
    if not read.isatty():  # what a script sent may hold escapes too: echo it harmless
        _print(out, safe_text(line.rstrip("\n"), keep_newlines=False))
    return line.rstrip("\n")


def _cols() -> int:
    return shutil.get_terminal_size((80, 24)).columns


def show(question: Question, out: IO[str], _: Callable[[str], str]) -> None:
    _print(out, "".join(text for text, _style in inline_spans(question.title)))
    if question.widen_hint:  # the agent's suggestion, marked as such: never an action
        _print(out, _("Agent's hint:") + " " + question.widen_hint)
    if question.beyond_title:  # a hitl_request's question is its title: shown once
        _print(out, plain(question.beyond_title))  # Markdown read, its marks taken off
    if question.files:
        _print(out, question.files_line(_))
    recommended = _("recommended")  # outside the f-string: Babel reads no f-strings
    for number, option in enumerate(question.options, start=1):
        badge = f" ({recommended})" if option.recommended else ""
        about = f" — {plain(option.description, one_line=True)}" if option.description else ""
        why = "  " + _("Why:") + " " + plain(option.rationale, one_line=True) \
            if option.rationale else ""
        _print(out, f"  {number}) {option.label}{badge}{about}{why}".replace("\n", " "))


def prompt_line(question: Question, _: Translator, *, widen: bool = False,
                widened: bool = False, defer: bool = False, deferred: bool = False,
                draft: bool = False) -> str:
    defaults = [str(i) for i, o in enumerate(question.options, 1)
                if o.id in question.request.default_selection_ids]
    request = question.request
    example = f" ({question.placeholder})" if question.placeholder else ""
    if not question.options:
        ask = _("Type your answer") + example
    elif question.multi:
        high = request.max_selections or 0
        ask = _.ngettext("Choose {low} to {n} number", "Choose {low} to {n} numbers",
                         high).format(low=request.min_selections, n=high)
    else:
        ask = _("Choose a number")
    default = f" [{','.join(defaults)}]" if defaults else ""
    enter = _("[enter]=keep the draft") if draft else \
        _("[enter]=accept default") if defaults else ""
    hints = [enter,
             _("[text]=type answer") + example if question.has_text else "",
             _("[w]iden") if widen else "", _("[f]etch the discussion") if widened else "",
             _("[s]ummary & review") if widened else "",
             _("[r] take it up again") if deferred else "", _("[d]efer") if defer else "",
             _("[!cancel]")]
    return f"{ask}{default}  ({' | '.join(h for h in hints if h)})"


def parse_answer(line: str, question: Question) -> tuple[list[str] | None, str | None]:
    """`2`, `1,3`, `1 3` pick options; other text is a typed answer (text/hybrid)."""
    tokens = [t for t in re.split(r"[,\s]+", line.strip()) if t]
    if tokens and all(t.isdigit() for t in tokens) and question.options:
        picked = []
        for token in tokens:
            index = int(token) - 1
            if not 0 <= index < len(question.options):
                raise InvalidInput([])
            picked.append(question.options[index].id)
        return picked, None
    if not question.has_text:
        raise InvalidInput([])  # words where only numbers fit: say so in the human's terms
    return [], line.strip() or None


def chosen(state: AnswerState) -> str:
    """What the answer is, on one line: the picked labels and the typed text."""
    picked = [o.label for o in state.question.options if o.id in state.picked]
    typed = [f'"{safe_text(state.text, keep_newlines=False)}"'] if state.text else []
    return ", ".join(picked + typed)


def has_draft(state: AnswerState) -> bool:
    """The state holds more than the request's defaults: a draft was restored into it."""
    return (state.picked != set(state.question.request.default_selection_ids)
            or bool(state.text or state.global_note.strip() or any(state.notes.values())))


def draft_lines(state: AnswerState) -> list[str]:
    """A restored draft, shown before the prompt: what Enter would send, notes included
    (the plain lines cannot edit notes; nothing is sent unseen)."""
    _, labels = state.translate, {o.id: o.label for o in state.question.options}
    lines = [_("Your draft (saved earlier, here or in the browser):") + " " + chosen(state)]
    lines += ["  " + _("Note on {label}: {text}").format(
        label=labels.get(option_id, option_id), text=safe_text(note, keep_newlines=False))
        for option_id, note in state.notes.items() if note.strip()]
    if state.global_note.strip():
        lines.append("  " + _("Note for the agent") + ": "
                     + safe_text(state.global_note, keep_newlines=False))
    return lines


def run_plain(state: AnswerState, read: Lines, out: IO[str], *,
              first: bool = True) -> Effect | None:
    """One question, answered from `read`; None when the input ended without an answer.
    `first`: show the question (later calls come back after a widen or a fetch)."""
    question, _ = state.question, state.translate
    drafted = has_draft(state)
    if first:
        show(question, out, _)
        if drafted:
            for row in draft_lines(state):
                _print(out, row)
        if state.team is not None:
            show_team(state, out)
        if state.deferral is not None:
            for row in deferral_box(state.deferral, _, _cols()):
                _print(out, row)
    for _attempt in range(MAX_ATTEMPTS):
        widened = state.team is not None
        _print(out, prompt_line(question, _, widen=state.can_widen, widened=widened,
                                defer=state.can_defer, deferred=state.deferral is not None,
                                draft=drafted))
        out.write(_("Waiting") + " > " if widened else "> ")  # widened: `Waiting >`
        out.flush()
        line = _read(read, out)
        if line is None:
            return None
        word = line.strip().lower()
        if word == "w" and state.can_widen:
            return Effect("widen_open")
        if word == "f" and widened:
            return Effect("refresh_team")
        if word == "s" and state.can_review:
            return Effect("review")
        if word == "d" and state.can_defer:
            return Effect("defer_open")
        if word == "r" and state.deferral is not None:
            return Effect("resume")
        if line.strip().startswith("!cancel"):
            why = line.strip()[len("!cancel"):].strip() or None
            if why and state.options_only:  # the portal would refuse it: say so here
                _print(out, _("This question is options-only: type !cancel without a reason."))
                continue
            return Effect("cancel", why)
        try:
            if not line.strip() and not drafted:
                state.picked = set(question.request.default_selection_ids)
                state.text = ""
            elif line.strip():
                picked, text = parse_answer(line, question)
                state.picked, state.text = set(picked or []), text or ""
        except InvalidInput:
            _print(out, _("No such option: use the numbers shown."))
            continue
        state.effects.clear()
        state.submit()
        if state.stage == "confirm":
            _print(out, _("Please confirm:") + " " + chosen(state))
            _print(out, _("Confirm? [y/N]"))
            out.write("> ")
            if (_read(read, out) or "").strip().lower() not in ("y", "yes"):
                state.stage, state.pending = "choose", None
                continue
            press(state, "y")
        if state.effects:
            return state.effects[-1]
        _print(out, state.message)
    return None



# -- widening (docs/guides/team-mode.md) ------------------------------------------------------
def run_widen(state: AnswerState, read: Lines, out: IO[str]) -> Effect | None:
    """`Audience >` then `[b/c]`; the widen call to make, or None when the owner cancelled
    (`cancel`, Ctrl+C, the input ending, or too many attempts)."""
    dialog, _ = state.widen, state.translate
    assert dialog is not None
    for line in audience_box(dialog.title, dialog.team_names, _, _cols(), dialog.team_mode):
        _print(out, line)
    try:
        for _attempt in range(MAX_ATTEMPTS):
            out.write(_("Audience") + " > ")
            out.flush()
            typed = _read(read, out)
            verdict = "cancel" if typed is None else dialog.take_audience(typed)
            if verdict == "cancel":
                return None
            if verdict == "next":
                break
            _print(out, dialog.error)
        else:
            return None
        _print(out, audience_confirmed(dialog.chosen, _))
        for warning in warning_lines(dialog.warnings, _):
            _print(out, warning)
        for line in mode_question(_):
            _print(out, line)
        for _attempt in range(MAX_ATTEMPTS):
            out.write("> ")
            out.flush()
            typed = _read(read, out)
            if typed is None:
                return None
            mode = dialog.take_mode(typed)
            if mode is not None:
                return Effect("widen", dialog.request(mode))
            _print(out, _("Type b or c (Enter means b)."))
    except KeyboardInterrupt:  # Ctrl+C is the same as `cancel`
        _print(out)
    return None


def show_widened(state: AnswerState, out: IO[str]) -> None:
    """The just-widened box, each person's link (shown this once), then the waiting view."""
    _, invitation = state.translate, state.invitation
    assert invitation is not None
    mode = state.team.mode if state.team else "block"
    for line in [*invited_box(invitation, state.question.title, mode, _, _cols()),
                 *link_lines(invitation, _)]:
        _print(out, line)
    show_team(state, out, boxed=False)  # the box above says what the waiting box would


def show_team(state: AnswerState, out: IO[str], *, boxed: bool = True) -> None:
    """The waiting box, the newest messages and the votes so far."""
    _, view = state.translate, state.team
    if view is None:
        return
    lines = waiting_box(state.question.title, view, _, _cols(), state.discussion_url) \
        if boxed else [_("Discussion:") + " " + state.discussion_url] if state.discussion_url \
        else []
    lines += discussion_lines(view, _, _cols(), PLAIN_MESSAGES, whole=True)
    for number, option in enumerate(state.question.options, start=1):
        if view.votes.get(option.id):
            lines.append(f"  {number}) {option.label} — {votes_text(view.votes[option.id], _)}")
    lines.append(_("Answer here to decide now; that closes the discussion."))
    for line in lines:
        _print(out, line)
