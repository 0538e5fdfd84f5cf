"""Files on both sides of a question (docs/guides/attachments.md): an agent shows `attachments` of
`{id, name, mime_type, data}` (`data`: base64) with its question, which options may point at
with `attachment_ids`; a person sends files back with the answer, which the result lists as
`SentFile`s (`{id, name, mime_type, size, sha256, url}`).

Owns the shape and the rules: at most `ATTACHMENTS_MAX` files, `FILE_MAX` bytes each and
`TOTAL_MAX` in all; images in PNG, JPEG, GIF and WebP are shown inline, the other listed
types are offered as downloads, and anything else (SVG, HTML, scripts, executables) is
refused with a field error naming `attachments[i].mime_type`. A person may send
`ANSWER_LIMITS` (5 files, 10 MiB each) of the same types. The bytes never stay in the
stored request: the service moves them to their own table and keeps `size` and `sha256`
here (`stored`).

A file's name is made safe where it is stored (`safe_file_name`): what a browser saves never
opens as something other than the declared type, and nothing in it reorders how it reads.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field, PrivateAttr

from choice.contract.errors import FieldError
from choice.contract.model import Model
from choice.contract.vocabulary import OPTION_ID_PATTERN, Strict

MiB = 1024 * 1024
ATTACHMENTS_MAX = 8
FILE_MAX = 5 * MiB
TOTAL_MAX = 10 * MiB
NAME_MAX = 200
SOURCE_PATH_MAX = 1000
ASKING_BODY_MAX = 16 * MiB
"""The largest body that asks a question, with its files as base64 (4/3 of `TOTAL_MAX`) and
room for the rest of the request: the API's asking route and the MCP endpoint, where a
tool call asks (every other body keeps the portal's 256 KiB)."""
ANSWER_FILE_PREFIX = "answer-"
"""A person's files are `answer-1`, `answer-2`, ... (skipping any id the agent's took)."""
INLINE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
"""Shown in the page, scaled to fit (the bytes are served as the type they claim, with
`nosniff`: a browser never runs them)."""
DOWNLOAD_TYPES = frozenset({
    "text/plain", "text/markdown", "text/csv", "text/x-diff", "text/x-log",
    "application/json", "application/pdf", "application/zip", "application/gzip",
    "application/x-tar", "application/yaml", "application/x-ndjson",
})
"""Offered as a download (`Content-Disposition: attachment`), never opened in the page."""
ALLOWED_TYPES = INLINE_TYPES | DOWNLOAD_TYPES
EXTENSIONS: dict[str, tuple[str, ...]] = {
    "image/png": ("png",), "image/jpeg": ("jpg", "jpeg"), "image/gif": ("gif",),
    "image/webp": ("webp",), "text/plain": ("txt", "text", "log"),
    "text/markdown": ("md", "markdown"), "text/csv": ("csv",), "text/x-diff": ("diff", "patch"),
    "text/x-log": ("log",), "application/json": ("json",), "application/pdf": ("pdf",),
    "application/zip": ("zip",), "application/gzip": ("gz", "tgz"), "application/x-tar": ("tar",),
    "application/yaml": ("yaml", "yml"), "application/x-ndjson": ("ndjson", "jsonl"),
}
"""The extensions a name of each type may end with; the first is the one appended to a name
that ends with any other (`safe_file_name`)."""
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                           "\u200e\u200f\u061c")


@dataclass(frozen=True)
class Limits:
    files: int
    each: int
    total: int

    def words(self) -> str:
        return (f"at most {self.files} files, {self.each // MiB} MiB each, "
                f"{self.total // MiB} MiB in all")


REQUEST_LIMITS = Limits(ATTACHMENTS_MAX, FILE_MAX, TOTAL_MAX)
"""What an agent may show with one question."""
ANSWER_LIMITS = Limits(5, 10 * MiB, 50 * MiB)
"""What a person may send with one answer (the page, the terminal and the API together)."""
ANSWER_BODY_MAX = ANSWER_LIMITS.total * 4 // 3 + MiB
"""The largest answer body: 50 MiB of files, base64, in its JSON."""


class Attachment(Strict):
    """A file the agent shows. `data` is sent and never stored; `size` and `sha256` are
    the portal's, set when it stores the bytes."""

    id: str | None = Field(default=None, pattern=OPTION_ID_PATTERN,
                           description="How options point at it (`attachment_ids`); "
                                       "default `a1`, `a2`, ... in order.")
    name: str = Field(min_length=1, max_length=NAME_MAX, description="The file's name, shown.")
    mime_type: str = Field(min_length=1, max_length=100,
                           description="PNG, JPEG, GIF or WebP images show inline; text, "
                                       "JSON, PDF and archives are downloads; others are "
                                       "refused.")
    data: str | None = Field(default=None, description="The bytes, base64; required when "
                                                       "asking, never returned.")
    size: int | None = Field(default=None, description="Set by the portal.")
    sha256: str | None = Field(default=None, description="Set by the portal.")
    source_path: str | None = Field(
        default=None, max_length=SOURCE_PATH_MAX,
        description="Set by `choice mcp` when it read the file from a `path`: the real path "
                    "on the agent's machine, shown under the file. Never sent.")
    _received: bytes | None = PrivateAttr(default=None)
    """The bytes, when the body was decoded as it arrived (`web/api/streamed_answer.py`)
    instead of carried in `data`."""

    def received(self, blob: bytes) -> None:
        """Its bytes, already decoded from the body (then `data` is left out)."""
        self._received = blob

    @property
    def content(self) -> bytes | None:
        """Its bytes; None when `data` is missing or not base64."""
        return self._received if self._received is not None else _bytes(self.data)

    @property
    def inline(self) -> bool:
        return self.mime_type in INLINE_TYPES


def safe_file_name(name: str, mime_type: str) -> str:
    """`name` as the portal stores, shows and serves it: without bidi controls, control
    characters or line separators (so `invoice\\u202egpj.exe` cannot read as
    "invoiceexe.jpg"), without trailing dots and spaces (which Windows drops), and ending
    with an extension of its declared type: one it does not end with is appended, never
    replaced (`report.svg` sent as `text/plain` becomes `report.svg.txt`, `invoice.pdf.exe`
    sent as `application/pdf` becomes `invoice.pdf.exe.pdf`). The result keeps within
    `NAME_MAX`, and the same name made safe twice stays the same."""
    kept = "".join(char for char in name if char not in _BIDI_CONTROLS
                   and unicodedata.category(char) not in ("Cc", "Zl", "Zp"))
    kept = kept.rstrip(". ")
    extensions = EXTENSIONS.get(mime_type.lower())
    if extensions is None:  # a type the rules refuse: nothing is stored under it
        return kept[:NAME_MAX] or "file"
    stem, dot, extension = kept.rpartition(".")
    if dot and stem and extension.lower() in extensions and len(kept) <= NAME_MAX:
        return kept
    suffix = "." + extensions[0]
    return (kept[:NAME_MAX - len(suffix)].rstrip(". ") or "file") + suffix


def file_errors(name: str, mime_type: str, size: int, at: str = "",
                limits: Limits = REQUEST_LIMITS) -> list[FieldError]:
    """What is wrong with one file (its type, its name, its size); `at` prefixes the field
    names (`attachments[2].`)."""
    errors: list[FieldError] = []
    if mime_type.lower() not in ALLOWED_TYPES:
        errors.append(FieldError(field=at + "mime_type", code="not_allowed", message=(
            f"{mime_type[:60]!r} is not shown here: send a PNG, JPEG, GIF or WebP image, or "
            "text, JSON, PDF or an archive (SVG, HTML and programs are refused).")))
    if not name or len(name) > NAME_MAX:
        errors.append(FieldError(field=at + "name", code="invalid", message=(
            f"give the file a name of 1 to {NAME_MAX} characters.")))
    elif "/" in name or "\\" in name or name in (".", ".."):
        errors.append(FieldError(field=at + "name", code="invalid", message=(
            "a file name, not a path: drop the directories.")))
    if size > limits.each:
        errors.append(FieldError(field=at + "data", code="too_large", message=(
            f"{size:,} bytes: one file may have at most {limits.each:,} "
            f"({limits.each // MiB} MiB); send a smaller one or a link.")))
    return errors


def decoded(attachments: list[Attachment], limits: Limits = REQUEST_LIMITS,
            already: int = 0) -> tuple[list[bytes], list[FieldError]]:
    """Each attachment's bytes, and every rule it breaks (named `attachments[i].…`).
    `already`: how many files the same answer holds besides these (a draft's)."""
    errors: list[FieldError] = []
    blobs: list[bytes] = []
    if len(attachments) + already > limits.files:
        held = f" (with the {already} already attached)" if already else ""
        errors.append(FieldError(field="attachments", code="too_many", message=(
            f"{len(attachments) + already} files{held}: send at most {limits.files}.")))
    for index, attachment in enumerate(attachments):
        at = f"attachments[{index}]."
        blob = attachment.content
        if blob is None:
            errors.append(FieldError(field=at + "data", code="invalid_base64", message=(
                "send the file's bytes as standard base64 (`base64 -w0 FILE`).")))
            blob = b""
        errors += file_errors(attachment.name, attachment.mime_type, len(blob), at, limits)
        blobs.append(blob)
    if sum(len(blob) for blob in blobs) > limits.total:
        errors.append(FieldError(field="attachments", code="too_large", message=(
            f"{sum(len(b) for b in blobs):,} bytes in all: at most {limits.total:,} "
            f"({limits.total // MiB} MiB).")))
    ids = [attachment.id for attachment in attachments]
    for index, given in enumerate(ids):
        if given is not None and given in ids[:index]:
            errors.append(FieldError(field=f"attachments[{index}].id", code="duplicate",
                                     message=f"{given!r} is used twice: give each its own id."))
    return blobs, errors


def _bytes(data: str | None) -> bytes | None:
    if not data:
        return None
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None


def stored(attachments: list[Attachment], blobs: list[bytes],
           source_paths: Sequence[str | None] = ()) -> list[dict[str, Any]]:
    """The attachments as the stored request keeps them: ids filled in, names made safe
    (`safe_file_name`), no bytes, their size and sha256, and where `choice mcp` read each
    (`source_paths`, in order; the request's own `source_path` never counts:
    `source_path_errors` refuses it)."""
    kept = []
    for index, (attachment, blob) in enumerate(zip(attachments, blobs, strict=True)):
        meta = {**attachment.model_dump(exclude={"data", "source_path"}),
                "id": attachment.id or f"a{index + 1}",
                "name": safe_file_name(attachment.name, attachment.mime_type),
                "mime_type": attachment.mime_type.lower(),
                "size": len(blob), "sha256": hashlib.sha256(blob).hexdigest()}
        source = source_paths[index] if index < len(source_paths) else None
        if source:
            meta["source_path"] = source[:SOURCE_PATH_MAX]
        kept.append(meta)
    return kept


def source_path_errors(attachments: list[Attachment]) -> list[FieldError]:
    """`source_path` is what `choice mcp` saw, never the asker's word."""
    return [FieldError(field=f"attachments[{index}].source_path", code="not_allowed", message=(
        "source_path is set by `choice mcp` when it reads a file named by `path`: remove "
        "it (through `choice mcp`, send `path` instead of `data`)."))
        for index, attachment in enumerate(attachments) if attachment.source_path is not None]


class SentFile(Model):
    """A file a person sent with the answer, as the result lists it: fetch its bytes from
    `url` with the token."""

    id: str
    name: str
    mime_type: str
    size: int
    sha256: str
    url: str


def answer_file_id(taken: set[str]) -> str:
    """The next free `answer-N`."""
    number = 1
    while f"{ANSWER_FILE_PREFIX}{number}" in taken:
        number += 1
    return f"{ANSWER_FILE_PREFIX}{number}"


def file_size(size: int) -> str:
    """`1.4 MB`, `820 KB`, `12 B`: a file's size as people read it (decimal units)."""
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f} MB"
    return f"{max(1, round(size / 1000))} KB" if size >= 1000 else f"{size} B"
