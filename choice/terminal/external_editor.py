"""The owner's own editor for the final answer (see docs/guides/write-back.md): `$VISUAL`,
else `$EDITOR`, on a temporary file pre-filled with the agent's candidate answer.

Only running the editor, reading the file back, and giving the terminal to it from the
full-screen UI (`suspended`) live here; with neither variable set the built-in line editor
is used instead (`review.open_final`).
"""

from __future__ import annotations

import contextlib
import curses
import os
import shlex
import signal
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def editor_command() -> list[str] | None:
    """`$VISUAL`, else `$EDITOR`, split as a shell would (`code --wait` works); None when
    neither is set."""
    for name in ("VISUAL", "EDITOR"):
        value = os.environ.get(name, "").strip()
        if value:
            try:
                return shlex.split(value)
            except ValueError:
                return [value]
    return None


class EditorFailed(Exception):
    """The editor could not start, or ended with an error: nothing was saved."""


def edit_text(command: list[str], text: str) -> str:
    """Run the editor on a temporary file holding `text`; what it saved. The file is
    removed afterwards: it may hold what the team said."""
    handle, name = tempfile.mkstemp(prefix="choice-answer-", suffix=".txt")
    path = Path(name)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text + ("\n" if text and not text.endswith("\n") else ""))
        try:
            done = subprocess.run([*command, str(path)], check=False)
        except OSError as error:
            raise EditorFailed(f"{command[0]}: {error.strerror or error}") from None
        if done.returncode != 0:
            raise EditorFailed(f"{shlex.join(command)} exited with {done.returncode}")
        return path.read_text(encoding="utf-8", errors="replace")
    finally:
        path.unlink(missing_ok=True)


def suspended(window: Any, run: Callable[[], T]) -> T:
    """Run `run` (the owner's editor) on the plain terminal, then give the screen back to
    curses as it was. Ctrl+C belongs to the editor meanwhile (vi uses it), not to us."""
    curses.def_prog_mode()
    curses.endwin()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return run()
    finally:
        signal.signal(signal.SIGINT, previous)
        curses.reset_prog_mode()
        with contextlib.suppress(curses.error):
            curses.curs_set(0)
        window.clearok(True)  # the editor drew over everything: repaint it all
        window.refresh()
