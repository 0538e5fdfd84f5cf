"""An answer whose body carries files, parsed as it arrives: neither the body nor a file's
base64 text is ever held whole, only each file's bytes.

`POST /api/interactions/{id}/response` may carry five files of 10 MiB each as base64: a
67 MB body. Read whole and then parsed, it was held three times at once (the body, the
parsed base64 strings and the decoded bytes). Here the body goes chunk by chunk into
ijson's incremental parser; the JSON is built as its events come, and each
`attachments[i].data` string is decoded to bytes as soon as it is complete, its text then
dropped. The rules that can be checked as the body arrives are checked then, and stop the
reading: a sixth file, a file over the limit, anything but files that is larger than an
ordinary body. The rest of the answer's rules are the contract's, once it is parsed
(`contract.attachments.decoded` uses the bytes read here).
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass, field
from typing import Any

import ijson
from litestar import Request
from litestar.exceptions import HTTPException

from choice.contract import FieldError, Submission
from choice.contract.attachments import ANSWER_LIMITS, Limits, MiB
from choice.contract.field_errors import InvalidInput, parse_model

DEPTH_MAX = 64
"""Deeper than any answer nests (it needs 4); past it the body is refused as it arrives."""
FILES_KEY = "attachments"
DATA_KEY = "data"


@dataclass
class StreamedAnswer:
    """The answer's JSON without the files' `data`, and each file's bytes by its place in
    `attachments` (a `data` that is not base64 stays in the JSON, for the contract to name)."""

    body: Any
    files: dict[int, bytes] = field(default_factory=dict)

    def submission(self) -> Submission:
        """The answer under the contract's rules (`InvalidInput`), its files' bytes in it."""
        submission = parse_model(Submission, self.body)
        for index, blob in self.files.items():
            submission.attachments[index].received(blob)
        return submission


class AnswerBuilder:
    """Builds the JSON value from ijson's events, taking each file's bytes aside."""

    def __init__(self, limits: Limits, text_limit: int) -> None:
        self.limits = limits
        self.text_limit = text_limit
        self.stack: list[Any] = []
        self.keys: list[str | None] = []
        self.root: Any = None
        self.files: dict[int, bytes] = {}
        self.file_bytes = 0
        self.text_bytes = 0

    def event(self, name: str, value: Any) -> None:
        if name == "map_key":
            self.counted(value)
            self.keys[-1] = value
        elif name in ("start_map", "start_array"):
            container: Any = {} if name == "start_map" else []
            if self.in_files() and name == "start_map":
                self.file_started(len(self.stack[-1]))
            if len(self.stack) >= DEPTH_MAX:
                raise InvalidInput([FieldError(field="body", code="invalid_json", message=(
                    f"the body is not valid JSON (it is nested more than {DEPTH_MAX} levels "
                    "deep): send one JSON object."))])
            self.put(container)
            self.stack.append(container)
            self.keys.append(None)
        elif name in ("end_map", "end_array"):
            self.stack.pop()
            self.keys.pop()
        elif name == "string" and self.is_file_data() and (blob := self.file_data(value)):
            self.files[len(self.stack[1]) - 1] = blob
        else:
            if name == "string":
                self.counted(value)
            self.put(value)

    def counted(self, text: str) -> None:
        """Text other than the files' adds up to at most an ordinary body."""
        self.text_bytes += len(text)
        if self.text_bytes > self.text_limit:
            raise InvalidInput([FieldError(field="body", code="too_large", message=(
                f"the answer's text is over {self.text_limit // 1024} KiB: only the "
                "files' `data` may be larger."))])

    def put(self, value: Any) -> None:
        if not self.stack:
            self.root = value
        elif isinstance(self.stack[-1], list):
            self.stack[-1].append(value)
        else:
            self.stack[-1][self.keys[-1]] = value

    def in_files(self) -> bool:
        """Directly inside the top-level `attachments` array."""
        return (len(self.stack) == 2 and isinstance(self.stack[0], dict)
                and isinstance(self.stack[1], list) and self.keys[0] == FILES_KEY)

    def is_file_data(self) -> bool:
        """At the `data` key of one of the top-level `attachments`."""
        return (len(self.stack) == 3 and isinstance(self.stack[2], dict)
                and self.keys[2] == DATA_KEY and self.keys[0] == FILES_KEY
                and isinstance(self.stack[1], list))

    def file_started(self, index: int) -> None:
        if index >= self.limits.files:
            raise InvalidInput([FieldError(field=FILES_KEY, code="too_many", message=(
                f"more than {self.limits.files} files: send at most {self.limits.files}."))])

    def file_data(self, text: str) -> bytes | None:
        """The file's bytes; None when `text` is not base64, which then stays in the body
        for the contract to name."""
        index = len(self.stack[1]) - 1
        if len(text) // 4 * 3 - 2 > self.limits.each:
            raise InvalidInput([FieldError(field=f"{FILES_KEY}[{index}].{DATA_KEY}",
                                           code="too_large", message=(
                f"one file may have at most {self.limits.each:,} bytes "
                f"({self.limits.each // MiB} MiB); send a smaller one or a link."))])
        try:  # straight from the text: `base64.b64decode` would first copy it as bytes
            blob = binascii.a2b_base64(text, strict_mode=True)
        except (binascii.Error, ValueError):
            return None
        self.file_bytes += len(blob)
        if self.file_bytes > self.limits.total:
            raise InvalidInput([FieldError(field=FILES_KEY, code="too_large", message=(
                f"more than {self.limits.total:,} bytes in all ({self.limits.total // MiB} "
                "MiB): send fewer or smaller files."))])
        return blob


async def streamed_answer(request: Request[Any, Any, Any], text_limit: int) -> StreamedAnswer:
    """The answer in `request`'s body, read as it arrives. 415 for a body that is not JSON;
    `InvalidInput` for malformed JSON or a rule broken on the way (`AnswerBuilder`);
    Litestar's 413 past the route's limit."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise HTTPException(
            status_code=415,
            detail="send the body as JSON with 'Content-Type: application/json'.",
        )
    builder = AnswerBuilder(ANSWER_LIMITS, text_limit)
    events = ijson.sendable_list()
    parser = ijson.basic_parse_coro(events, use_float=True)
    try:
        async for chunk in request.stream():
            if not chunk:
                continue  # the stream's last, empty chunk: to the parser, the end
            parser.send(chunk)
            for name, value in events:
                builder.event(name, value)
            del events[:]
        parser.close()
        for name, value in events:
            builder.event(name, value)
    except ijson.JSONError as exc:
        reason = (str(exc).strip().splitlines() or ["it ends early"])[0]  # yajl's first line
        raise InvalidInput([FieldError(
            field="body", code="invalid_json",
            message=f"the body is not valid JSON ({reason[:120]}): send one JSON object.",
        )]) from None
    return StreamedAnswer(builder.root, builder.files)
