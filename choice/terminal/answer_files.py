"""The files a person sends back with the answer from the terminal (see
docs/guides/attachments.md): a path typed on one line read from disk, its type guessed from
its name, and the files the draft holds as the screen lists them (`Your files: shot.png
12 KB · log.txt 1 KB`).

The rules are the contract's (`ALLOWED_TYPES`, `ANSWER_LIMITS`), checked here only so a
file the portal would refuse is neither read nor sent; the portal still judges every file.
What is wrong is a translated sentence (`FileRefused`) a person can act on. No curses, no
network: uploading is `calls/files.py`.
"""

from __future__ import annotations

import glob
import mimetypes
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from choice.contract.attachments import ALLOWED_TYPES, ANSWER_LIMITS, MiB, file_size
from choice.core.i18n import Translator
from choice.terminal.text import safe_text

EXTRA_TYPES = {".md": "text/markdown", ".markdown": "text/markdown", ".log": "text/plain",
               ".diff": "text/x-diff", ".patch": "text/x-diff", ".yaml": "application/yaml",
               ".yml": "application/yaml", ".webp": "image/webp",
               ".ndjson": "application/x-ndjson", ".jsonl": "application/x-ndjson"}
"""Names Python's `mimetypes` does not know (or knows differently on some systems)."""


class FileRefused(Exception):
    """Why this file is not sent: a sentence for the person, already translated."""


@dataclass(frozen=True)
class AttachedFile:
    """A file the draft holds, made safe to draw."""

    id: str
    name: str
    size: int

    @classmethod
    def from_portal(cls, sent: dict[str, Any]) -> AttachedFile:
        return cls(id=str(sent.get("id") or ""),
                   name=safe_text(str(sent.get("name") or ""), keep_newlines=False),
                   size=int(sent.get("size") or 0))

    @property
    def shown(self) -> str:
        """`shot.png 12 KB`."""
        return f"{self.name} {file_size(self.size)}"


@dataclass(frozen=True)
class FileToSend:
    name: str
    mime_type: str
    data: bytes


def guess_type(name: str) -> str | None:
    """The type a file's name says: the list above, then `mimetypes`; a compressed file
    (`.gz`, `.tar.gz`) is `application/gzip`; None when the name says nothing."""
    lowered = name.lower()
    extension = os.path.splitext(lowered)[1]
    if extension in EXTRA_TYPES:
        return EXTRA_TYPES[extension]
    guessed, encoding = mimetypes.guess_type(lowered, strict=False)
    if encoding == "gzip":
        return "application/gzip"
    return None if encoding else guessed


def kinds(_: Translator) -> str:
    """What may be sent, in words."""
    return _("PNG, JPEG, GIF or WebP images, text (.txt, .md, .log, .csv, .diff), JSON, "
             "YAML, PDF, or a .zip, .tar or .gz archive")


def expanded(typed: str, cwd: str | None = None) -> str:
    """The path as typed: `~` expanded, relative to the current directory."""
    path = os.path.expanduser(typed.strip())
    return os.path.normpath(os.path.join(cwd or os.getcwd(), path))


def read_file(typed: str, _: Translator, *, held: int = 0, cwd: str | None = None) -> FileToSend:
    """The file at the typed path, ready to send; `FileRefused` saying what is wrong (no
    such file, a folder, unreadable, a kind not sent, too large, `held` files already)."""
    if not typed.strip():
        raise FileRefused(_("Type the path of a file to attach."))
    path = expanded(typed, cwd)
    name = os.path.basename(path)
    shown = safe_text(typed.strip(), keep_newlines=False)
    if held >= ANSWER_LIMITS.files:
        raise FileRefused(_.ngettext("{n} file is attached already: remove it first.",
                                     "{n} files are attached already: remove one first.",
                                     ANSWER_LIMITS.files).format(n=ANSWER_LIMITS.files))
    if os.path.isdir(path):
        raise FileRefused(_("{path} is a folder: attach a file (a .zip or .tar of the "
                            "folder, say).").format(path=shown))
    if not os.path.exists(path):
        raise FileRefused(_("No file at {path}: check the path (a relative one starts from "
                            "{cwd}).").format(path=shown, cwd=safe_text(
                                cwd or os.getcwd(), keep_newlines=False)))
    mime_type = guess_type(name)
    if mime_type is None or mime_type not in ALLOWED_TYPES:
        raise FileRefused(_("{name} is not a kind of file that can be sent: send {kinds}.")
                          .format(name=safe_text(name, keep_newlines=False), kinds=kinds(_)))
    try:
        size = os.path.getsize(path)
        if size > ANSWER_LIMITS.each:
            raise FileRefused(_("{name} is {size}: a file may have at most {limit} MiB.")
                              .format(name=safe_text(name, keep_newlines=False),
                                      size=file_size(size), limit=ANSWER_LIMITS.each // MiB))
        with open(path, "rb") as handle:
            data = handle.read(ANSWER_LIMITS.each + 1)
    except OSError as error:
        raise FileRefused(_("{path} cannot be read: {reason}.").format(
            path=shown, reason=error.strerror or error.__class__.__name__)) from None
    if len(data) > ANSWER_LIMITS.each:  # it grew since it was measured
        raise FileRefused(_("{name} is larger than {limit} MiB: send a smaller one.").format(
            name=safe_text(name, keep_newlines=False), limit=ANSWER_LIMITS.each // MiB))
    return FileToSend(name, mime_type, data)


def completed(typed: str, cwd: str | None = None) -> str:
    """Tab on the path line: the typed path completed as far as every match agrees (a
    folder gets its `/`); as typed when nothing matches."""
    base = os.path.expanduser(typed)
    if not os.path.isabs(base):
        base = os.path.join(cwd or os.getcwd(), base)
    matches = sorted(glob.glob(glob.escape(base) + "*"))
    if not matches:
        return typed
    common = os.path.commonprefix(matches)  # noqa: RUF071 - a shell's Tab: by character
    if len(matches) == 1 and os.path.isdir(common):
        common += os.sep
    return typed + common[len(base):]


def files_line(files: Sequence[AttachedFile], _: Translator) -> str:
    """`Your files: shot.png 12 KB · log.txt 1 KB`, or nothing."""
    if not files:
        return ""
    return _("Your files:") + " " + " · ".join(file.shown for file in files)
