"""Files on both sides of a question, between the contract and the store.

- The agent's: a validated request's attachments become rows to store (bytes, size,
  sha256) and the request keeps only their description.
- The person's: a file attached while answering is kept with the draft (`draft` rows,
  `answer-N`); an answer sends the draft's files and any in its body (`answered_files`),
  and the transaction that ends the question keeps them as `answer` rows and drops the
  rest. No other ending sends them.
- Either read back a chunk at a time.

The contract holds the rules (`contract/attachments.py`); the store keeps the bytes
(`store/files.py`).
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Sequence

from choice.contract import ChoiceRequest, Submission
from choice.contract.attachments import (
    ANSWER_LIMITS,
    Attachment,
    SentFile,
    answer_file_id,
    decoded,
    file_errors,
    safe_file_name,
    stored,
)
from choice.contract.errors import FieldError
from choice.contract.field_errors import InvalidInput
from choice.contract.normalize import Completion
from choice.store import Store
from choice.store.files import file_chunk, stored_file
from choice.store.records import StoredFile


def files_of(req: ChoiceRequest, interaction_id: str, at: float,
             source_paths: Sequence[str | None] = ()) -> tuple[list[StoredFile], ChoiceRequest]:
    """The files a validated request shows, as rows to store, and the request as it is
    kept: each attachment described (id, size, sha256, and `source_paths`: where
    `choice mcp` read it), its bytes gone."""
    if not req.attachments:
        return [], req
    blobs, _ = decoded(req.attachments)  # the rules were checked: these decode
    kept = stored(req.attachments, blobs, source_paths)
    files = [StoredFile(interaction_id=interaction_id, attachment_id=meta["id"],
                        direction="request", name=meta["name"], mime_type=meta["mime_type"],
                        size=meta["size"], sha256=meta["sha256"], created_at=at, data=blob)
             for meta, blob in zip(kept, blobs, strict=True)]
    return files, req.model_copy(update={"attachments": [Attachment(**meta) for meta in kept]})


async def attachment(store: Store, interaction_id: str, attachment_id: str) -> StoredFile:
    """A file shown with the question (its description); `NotFound` when there is none."""
    return await store.read(stored_file, store.repo, interaction_id, attachment_id)


async def attachment_bytes(store: Store, file: StoredFile) -> AsyncIterator[bytes]:
    """Its bytes, a chunk at a time (`store.files.CHUNK`): never the whole file in memory."""
    offset = 0
    while offset < file.size:
        chunk = await store.read(file_chunk, store.repo, file.interaction_id,
                                 file.attachment_id, offset)
        if not chunk:
            return
        offset += len(chunk)
        yield chunk


def file_url(link_base: str, interaction_id: str, attachment_id: str) -> str:
    """Where a file is fetched from (with the token, or the owner's signed-in page)."""
    return f"{link_base}/api/interactions/{interaction_id}/attachments/{attachment_id}"


def sent_file(file: StoredFile, url: str) -> SentFile:
    return SentFile(id=file.attachment_id, name=file.name, mime_type=file.mime_type,
                    size=file.size, sha256=file.sha256, url=url)


def answered_files(request: ChoiceRequest, submission: Submission, done: Completion,
                   ) -> tuple[list[SentFile], list[StoredFile]]:
    """What an answer sends: the draft's files (`done.files`) and the ones in its body,
    which become rows to store now (`answer-N`). `InvalidInput`, naming
    `attachments[i].…`, when the body's break the rules or all of them are too many."""
    blobs, errors = decoded(submission.attachments, ANSWER_LIMITS, already=len(done.files))
    if errors:
        raise InvalidInput(errors)
    taken = {file.id for file in done.files} | {a.id or "" for a in request.attachments}
    new: list[StoredFile] = []
    for attachment, blob in zip(submission.attachments, blobs, strict=True):
        file_id = answer_file_id(taken)
        taken.add(file_id)
        new.append(StoredFile(
            interaction_id=done.interaction_id, attachment_id=file_id, direction="answer",
            name=safe_file_name(attachment.name, attachment.mime_type),
            mime_type=attachment.mime_type.lower(), size=len(blob),
            sha256=hashlib.sha256(blob).hexdigest(), created_at=done.completed_at, data=blob))
    return [*done.files, *(sent_file(f, done.file_url(f.attachment_id)) for f in new)], new


def draft_file(interaction_id: str, name: str, mime_type: str, data: bytes, at: float,
               ) -> StoredFile:
    """A file a person attaches before answering, as a `draft` row (its id is given when
    stored: the next free `answer-N`). `InvalidInput` naming `name`, `mime_type` or `data`."""
    errors = file_errors(name, mime_type, len(data), "", ANSWER_LIMITS)
    if not data:
        errors.append(FieldError(field="data", code="empty", message=(
            "the file is empty: send its bytes as the request's body.")))
    if errors:
        raise InvalidInput(errors)
    return StoredFile(interaction_id=interaction_id, attachment_id="", direction="draft",
                      name=safe_file_name(name, mime_type), mime_type=mime_type.lower(), size=len(data),
                      sha256=hashlib.sha256(data).hexdigest(), created_at=at, data=data)
