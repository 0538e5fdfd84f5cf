"""Files on the agent's machine, for `choice mcp`: a request attachment may name a `path`
instead of sending `data`.

The bridge runs where the agent runs, so it can read a file the portal cannot see (the
portal may be on another machine, or reached by a teammate). Before a `tools/call` is
forwarded, each attachment with a `path` has the file read (a regular file, at most
`PATH_FILE_MAX`), its bytes put in `data` (base64), `name` set to the file's own name and
`mime_type` guessed from it (`mimetypes`) when left out, and `path` removed: the portal gets
an ordinary request and checks it by its own rules. A path that cannot be read refuses the
call here, naming `attachments[i].path`, and nothing is forwarded.

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
import stat
from pathlib import Path
from typing import Any

PATH_FILE_MAX = 5 * 1024 * 1024
"""The largest file read from a path: `choice.contract.attachments.FILE_MAX`, the most one
attachment may hold (a test keeps the two equal; importing the contract here would load
pydantic into the bridge)."""
PATH_DESCRIPTION = (
    "A file on the machine running `choice mcp` (absolute, or relative to its working "
    "directory), instead of `data`: the bridge reads it (5 MiB at most) and sends its "
    "bytes; `name` defaults to the file's own name and `mime_type` is guessed from it.")


class Refused(Exception):
    """Some attachment's `path` cannot be sent; `errors` are the portal's field errors."""

    def __init__(self, errors: list[dict[str, str]]) -> None:
        super().__init__("; ".join(f"{e['field']}: {e['message']}" for e in errors))
        self.errors = errors


def with_local_files(line: bytes, message: dict[str, Any]) -> bytes:
    """The line to forward: as it came, or, when a `tools/call` attachment names a `path`,
    the message with those files read in. `Refused` when any cannot be."""
    params = message.get("params")
    arguments = params.get("arguments") if isinstance(params, dict) else None
    attachments = arguments.get("attachments") if isinstance(arguments, dict) else None
    if message.get("method") != "tools/call" or not isinstance(attachments, list) or not any(
            isinstance(item, dict) and "path" in item for item in attachments):
        return line
    errors: list[dict[str, str]] = []
    for index, item in enumerate(attachments):
        if isinstance(item, dict) and "path" in item:
            errors += _read_in(item, f"attachments[{index}].")
    if errors:
        raise Refused(errors)
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()


def _read_in(item: dict[str, Any], at: str) -> list[dict[str, str]]:
    """Fill one attachment from its `path`, in place; the errors instead, if any."""
    given = item.pop("path")
    if not isinstance(given, str) or not given.strip():
        return [_error(at + "path", "invalid", "give the path of a file as a string.")]
    if item.get("data") is not None:
        return [_error(at + "path", "conflict", "send `path` or `data`, not both.")]
    path = Path(given).expanduser()
    where = str(path.resolve() if not path.is_absolute() else path)[:300]
    try:
        found = path.stat()
    except FileNotFoundError:
        return [_error(at + "path", "not_found", f"no file at {where!r} on the machine "
                       "running `choice mcp`: check the path (it is read there).")]
    except OSError as failure:
        return [_error(at + "path", "unreadable", f"{where!r} cannot be read: "
                       f"{failure.strerror or failure}.")]
    if not stat.S_ISREG(found.st_mode):
        return [_error(at + "path", "not_a_file", f"{where!r} is not a regular file: name "
                       "one file (not a directory or a device).")]
    try:
        with path.open("rb") as source:
            data = source.read(PATH_FILE_MAX + 1)
    except OSError as failure:
        return [_error(at + "path", "unreadable", f"{where!r} cannot be read: "
                       f"{failure.strerror or failure}.")]
    if len(data) > PATH_FILE_MAX:
        return [_error(at + "path", "too_large", f"{where!r} is over {PATH_FILE_MAX:,} "
                       "bytes (5 MiB): send a smaller file, or a link in the prompt.")]
    item["data"] = base64.b64encode(data).decode("ascii")
    if not item.get("name"):
        item["name"] = path.name
    if not item.get("mime_type"):
        guessed = (mimetypes.guess_type(str(item["name"]), strict=False)[0]
                   or mimetypes.guess_type(path.name, strict=False)[0])
        if guessed is None:
            return [_error(at + "mime_type", "unknown", f"the type of {path.name!r} cannot be "
                           "guessed from its name: send mime_type (e.g. image/png).")]
        item["mime_type"] = guessed
    return []


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
