"""The plain-line fallback: pipes, `TERM=dumb`, `--plain`, or when curses cannot start.

Numbered options, the default in brackets, one answer per line from stdin (so a script
can answer), `!cancel [why]` to cancel. It produces the same `Effect`s as the curses UI.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import IO

from choice.field_errors import InvalidInput
from choice.i18n import Translator
from choice.terminal.question import Question
from choice.terminal.state import AnswerState, Effect
from choice.terminal.text import safe_text

MAX_ATTEMPTS = 5


def _print(out: IO[str], text: str = "") -> None:
    out.write(text + "\n")
    out.flush()


def _read(read: IO[str], out: IO[str]) -> str | None:
    """One line of input, None at its end. A script's answer is not echoed by a terminal:
    write it after the prompt, so the transcript reads as it would have been typed."""
    line = read.readline()
    if not line:
        _print(out)  # end the prompt's line: the input ended, nothing was echoed
        return None
    if not read.isatty():
        _print(out, line.rstrip("\n"))
    return line.rstrip("\n")


def show(question: Question, out: IO[str], _: Callable[[str], str]) -> None:
    _print(out, question.title)
    _print(out, question.prompt)
    for number, option in enumerate(question.options, start=1):
        badge = f" ({_('recommended')})" if option.recommended else ""
        about = f" — {option.description}" if option.description else ""
        _print(out, f"  {number}) {option.label}{badge}{about}".replace("\n", " "))


def prompt_line(question: Question, _: Translator) -> str:
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
    hints = [_("[enter]=accept default") if defaults else "",
             _("[text]=type answer") + example if question.has_text else "", _("[!cancel]")]
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


def run_plain(state: AnswerState, read: IO[str], out: IO[str]) -> Effect | None:
    """One question, answered from `read`; None when the input ended without an answer."""
    question, _ = state.question, state.translate
    show(question, out, _)
    for _attempt in range(MAX_ATTEMPTS):
        _print(out, prompt_line(question, _))
        out.write("> ")
        out.flush()
        line = _read(read, out)
        if line is None:
            return None
        if line.strip().startswith("!cancel"):
            return Effect("cancel", line.strip()[len("!cancel"):].strip() or None)
        try:
            if not line.strip():
                state.picked = set(question.request.default_selection_ids)
                state.text = ""
            else:
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
            state.key("y")
        if state.effects:
            return state.effects[-1]
        _print(out, state.message)
    return None

