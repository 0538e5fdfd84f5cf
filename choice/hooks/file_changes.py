"""An Edit, MultiEdit or Write as the change it makes to the file on disk: the hook runs on
the agent's machine, reads the target file (a regular file of at most `READ_MAX` bytes, in
UTF-8), applies the edit to it as the agent's tool would, and diffs the two with the file's
real line numbers (`@@ -41,3 +41,4 @@`). A Write over an existing file is such a diff; a
Write of a new file is its content.

When the file cannot be used (too large, unreadable, not text, a name that holds secrets,
or the text to replace is not in it), the change falls back to a diff of the strings the
agent sent, and `Change.fallback` says why, for the question to tell the person. Never
writes; nothing here is translated.
"""

from __future__ import annotations

import difflib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from choice.core.secret_files import secret_reason

READ_MAX = 1_000_000
"""The most of a file the hook reads (bytes): a larger one is diffed as strings only."""
TOO_LARGE, UNREADABLE, NOT_TEXT, SECRET, NOT_IN_FILE, MISSING = (
    "too_large", "unreadable", "not_text", "secret", "not_in_file", "missing")


@dataclass(frozen=True)
class Change:
    text: str
    """A unified diff, or a new file's content (`new_file`)."""
    new_file: bool = False
    fallback: str | None = None
    """Why the file on disk was not used (`TOO_LARGE`, ...), or None."""


def change_of(tool: str, given: dict[str, Any], path: str, cwd: str, shown: str) -> Change:
    """The change `tool` with input `given` makes to `path` (relative to `cwd` if it is
    not absolute), its diff naming the file `shown`."""
    target = os.path.join(cwd, path) if cwd and not os.path.isabs(path) else path
    before, why = _read(target)
    if tool == "Write":
        after = str(given.get("content") or "")
        if before is None and why is None:
            return Change(after, new_file=True)
        if before is None:
            return Change(after, new_file=True, fallback=why)
        return Change(_diff(before, after, shown))
    edits = given.get("edits") if tool == "MultiEdit" else [given]
    edits = [edit for edit in edits or [] if isinstance(edit, dict)]
    if before is not None:
        edited = _applied(before, edits)
        if edited is not None:
            return Change(_diff(before, edited, shown))
        why = NOT_IN_FILE
    elif why is None:
        why = MISSING
    strings = "\n".join(_diff(str(edit.get("old_string") or ""), str(edit.get("new_string") or ""),
                              shown) for edit in edits)
    return Change(strings, fallback=why)


def _read(target: str) -> tuple[str | None, str | None]:
    """The file's text, or None and why; (None, None) when there is no such file."""
    # what it holds would be stored by the portal, and shared with the team if widened
    if secret_reason(Path(target)) or secret_reason(Path(os.path.realpath(target))):
        return None, SECRET
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return None, None
    except OSError:
        return None, UNREADABLE
    if not stat.S_ISREG(info.st_mode):  # never open a device or a pipe: it may never end
        return None, UNREADABLE
    if info.st_size > READ_MAX:
        return None, TOO_LARGE
    try:
        with open(target, "rb") as file:
            data = file.read(READ_MAX + 1)
    except OSError:
        return None, UNREADABLE
    if len(data) > READ_MAX:
        return None, TOO_LARGE
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return None, NOT_TEXT


def _applied(text: str, edits: list[dict[str, Any]]) -> str | None:
    """`text` with each edit made in turn, as the agent's tool makes it; None if an edit's
    text to replace is not there."""
    for edit in edits:
        old, new = str(edit.get("old_string") or ""), str(edit.get("new_string") or "")
        if not old or old not in text:
            return None
        text = text.replace(old, new) if edit.get("replace_all") else text.replace(old, new, 1)
    return text


def _diff(before: str, after: str, path: str) -> str:
    lines = difflib.unified_diff(before.splitlines(), after.splitlines(),
                                 f"a/{path}", f"b/{path}", lineterm="", n=3)
    return "\n".join(lines)
