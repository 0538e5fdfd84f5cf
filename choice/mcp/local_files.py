"""Files on the agent's machine, for `choice mcp`: a request attachment may name a `path`
instead of sending `data`.

The bridge runs where the agent runs, so it can read a file the portal cannot see (the
portal may be on another machine, or reached by a teammate). Before a `tools/call` is
forwarded, each attachment with a `path` has the file read (a regular file, at most
`PATH_FILE_MAX`, one that `file_access.py` lets it read: inside the working directory or a
configured root, not a secret), its bytes put in `data` (base64), `name` set to the real
file's name whatever the model said, `mime_type` guessed from that name (the model's only
when the name says nothing) and checked against the bytes (`content_mismatch`), and `path`
removed; the real path goes in the call's `_meta` (`SOURCES_META`), where the model cannot
write, and the portal shows it under the file. The portal gets an ordinary request and
checks it by its own rules. A path that cannot be sent refuses the call here, naming
`attachments[i].path`, and nothing is forwarded.

Only the bridge takes `path`: the portal's `/mcp` listing (`listing.json`) does not have it,
and the listing the bridge answers adds it (`advertised`). The path is the model's text:
nothing is read but the one regular file it names, and only what the portal will show.
Standard library only: the bridge must start fast.
"""

from __future__ import annotations

import base64
import copy
import json
import mimetypes
import os
import stat
from pathlib import Path
from typing import Any

from choice.mcp.file_access import Places, why_not_readable

PATH_FILE_MAX = 5 * 1024 * 1024
"""The largest file read from a path: `choice.contract.attachments.FILE_MAX`, the most one
attachment may hold (a test keeps the two equal; importing the contract here would load
pydantic into the bridge)."""
PATH_DESCRIPTION = (
    "A file in your working directory (relative to it, or absolute), instead of `data`: "
    "the bridge reads it (5 MiB at most) and sends its bytes. The person sees the file's "
    "own name and its real path; its type is guessed from its name and checked against "
    "its bytes. Files outside the working directory (and folders the person allowed) and "
    "secrets (.env, keys, ~/.ssh, ...) are refused.")


class Refused(Exception):
    """Some attachment's `path` cannot be sent; `errors` are the portal's field errors."""

    def __init__(self, errors: list[dict[str, str]]) -> None:
        super().__init__("; ".join(f"{e['field']}: {e['message']}" for e in errors))
        self.errors = errors


SOURCES_META = "choice-portal/source-paths"
"""The `tools/call` `_meta` key under which the bridge tells the portal where each attachment
was read from (a list in the attachments' order, null for those sent as `data`). The model
writes only `arguments`, never `_meta`, so it cannot claim a file came from a path; the
bridge drops any value a client put there."""


def with_local_files(line: bytes, message: dict[str, Any], places: Places) -> bytes:
    """The line to forward: as it came, or, when a `tools/call` attachment names a `path`,
    the message with those files read in and their real paths in `_meta`. `Refused` when
    any cannot be sent."""
    params = message.get("params")
    arguments = params.get("arguments") if isinstance(params, dict) else None
    attachments = arguments.get("attachments") if isinstance(arguments, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    claimed = isinstance(meta, dict) and SOURCES_META in meta
    if message.get("method") != "tools/call" or not isinstance(attachments, list) or not any(
            isinstance(item, dict) and "path" in item for item in attachments):
        if not claimed:
            return line
        assert isinstance(meta, dict)
        meta.pop(SOURCES_META)
        return _line(message)
    assert isinstance(params, dict)
    errors: list[dict[str, str]] = []
    sources: list[str | None] = []
    for index, item in enumerate(attachments):
        source = None
        if isinstance(item, dict) and "path" in item:
            source, refused = _read_in(item, f"attachments[{index}].", places)
            errors += refused
        sources.append(source)
    if errors:
        raise Refused(errors)
    params["_meta"] = {**(meta if isinstance(meta, dict) else {}), SOURCES_META: sources}
    return _line(message)


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()


def _read_in(item: dict[str, Any], at: str,
             places: Places) -> tuple[str | None, list[dict[str, str]]]:
    """Fill one attachment from its `path`, in place: its bytes, and the name and type of
    the real file. Its real path, or the errors instead."""
    given = item.pop("path")
    if not isinstance(given, str) or not given.strip():
        return None, [_error(at + "path", "invalid", "give the path of a file as a string.")]
    if item.get("data") is not None:
        return None, [_error(at + "path", "conflict", "send `path` or `data`, not both.")]
    path = places.working_dir / Path(given).expanduser()
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        return None, [_error(at + "path", "not_found", f"no file at {str(path)[:300]!r} on "
                             "the machine running `choice mcp`: check the path (it is read "
                             "there, relative to the agent's working directory).")]
    except (OSError, RuntimeError) as failure:  # a loop of links, a folder it may not enter
        return None, [_error(at + "path", "unreadable",
                             f"{str(path)[:300]!r} cannot be read: {failure}.")]
    refused = why_not_readable(path, real, places)
    if refused is not None:
        return None, [_error(at + "path", *refused)]
    where = str(real)[:300]
    try:  # the resolved path, not followed again: a link put there since is not read
        descriptor = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as failure:
        return None, [_error(at + "path", "unreadable", f"{where!r} cannot be read: "
                             f"{failure.strerror or failure}.")]
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None, [_error(at + "path", "not_a_file", f"{where!r} is not a regular "
                                 "file: name one file (not a directory or a device).")]
        with open(descriptor, "rb", closefd=False) as opened:  # read() loops to the size
            data = opened.read(PATH_FILE_MAX + 1)
    except OSError as failure:
        return None, [_error(at + "path", "unreadable", f"{where!r} cannot be read: "
                             f"{failure.strerror or failure}.")]
    finally:
        os.close(descriptor)
    if len(data) > PATH_FILE_MAX:
        return None, [_error(at + "path", "too_large", f"{where!r} is over {PATH_FILE_MAX:,} "
                             "bytes (5 MiB): send a smaller file, or a link in the prompt.")]
    # The file's own name and type: the model's `name` could disguise it (`id_rsa` shown
    # as `architecture.png`); its `mime_type` counts only when the name says nothing.
    item["name"] = real.name
    mime_type = mimetypes.guess_type(real.name, strict=False)[0] or item.get("mime_type")
    if not isinstance(mime_type, str) or not mime_type:
        return None, [_error(at + "mime_type", "unknown", f"the type of {real.name!r} cannot "
                             "be guessed from its name: send mime_type (e.g. text/plain).")]
    item["mime_type"] = mime_type
    mismatch = content_mismatch(mime_type, data)
    if mismatch is not None:
        return None, [_error(at + "path", "wrong_content", f"{where!r} {mismatch}: send the "
                             "file it should be, or give it the name of what it holds.")]
    item["data"] = base64.b64encode(data).decode("ascii")
    return str(real), []


SIGNATURES: dict[str, tuple[bytes, ...]] = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "application/pdf": (b"%PDF-",),
    "application/zip": (b"PK\x03\x04", b"PK\x05\x06"),
    "application/gzip": (b"\x1f\x8b",),
}
"""How the files of these types begin (WebP: `RIFF`, a size, `WEBP`)."""
TEXT_TYPES = ("application/json", "application/yaml", "application/x-ndjson")


def content_mismatch(mime_type: str, data: bytes) -> str | None:
    """Why `data` is not a file of `mime_type`, in words; None when it may be. Images,
    PDF and archives by how they begin, text by being UTF-8 without NUL; other types
    are not checked (the portal refuses the types it does not show)."""
    kind = mime_type.lower()
    if kind.startswith("text/") or kind in TEXT_TYPES:
        return None if b"\0" not in data and _utf8(data) else f"is not UTF-8 text, as {kind} is"
    if kind == "image/webp":
        ok = data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    elif kind in SIGNATURES:
        ok = data.startswith(SIGNATURES[kind])
    else:
        return None
    return None if ok else f"does not begin as a {kind} file does"


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _error(field: str, code: str, message: str) -> dict[str, str]:
    return {"field": field, "code": code, "message": message}


def refusal(request_id: Any, refused: Refused) -> bytes:
    """The tool result the portal gives a request it refuses (`replies.invalid`): nothing
    was asked."""
    text = "Invalid request, nothing was asked: " + "; ".join(
        f"{e['field']}: {e['message']}" for e in refused.errors)
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "result": {
        "content": [{"type": "text", "text": text}],
        "structuredContent": {"errors": refused.errors}, "isError": True}},
        ensure_ascii=False, separators=(",", ":")).encode()


def advertised(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The portal's tools as the bridge lists them: each attachment may have a `path`, and
    then needs neither `name` nor `mime_type`."""
    listed = copy.deepcopy(tools)
    for tool in listed:
        attachments = tool.get("inputSchema", {}).get("properties", {}).get("attachments")
        item = attachments.get("items") if isinstance(attachments, dict) else None
        if isinstance(item, dict) and isinstance(item.get("properties"), dict):
            item["properties"]["path"] = {"type": "string", "minLength": 1,
                                          "description": PATH_DESCRIPTION}
            item["required"] = [name for name in item.get("required", [])
                                if name not in ("name", "mime_type")]
    return listed
