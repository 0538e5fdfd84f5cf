"""The owner's own editor for the final answer (seed §6.2): `$VISUAL`, else `$EDITOR`, on
a temporary file pre-filled with the agent's candidate answer.

Only running the editor and reading the file back live here; the full-screen UI suspends
curses around it (`session.py`), and with neither variable set the built-in line editor
is used instead (`review.open_final`).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path


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
