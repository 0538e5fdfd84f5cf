"""The files an agent shows with its question, between the contract and the store: a
validated request's attachments become rows to store (bytes, size, sha256) and the request
keeps only their description; and a stored file read back a chunk at a time. The contract
checked the rules (`contract/attachments.py`); the store keeps the bytes
(`Repository.attachment_chunk`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from choice.contract import ChoiceRequest
from choice.contract.attachments import Attachment, decoded, stored
from choice.store import Store
from choice.store.records import StoredFile


def files_of(req: ChoiceRequest, interaction_id: str,
             at: float) -> tuple[list[StoredFile], ChoiceRequest]:
    """The files a validated request shows, as rows to store, and the request as it is
    kept: each attachment described (id, size, sha256), its bytes gone."""
    if not req.attachments:
        return [], req
    blobs, _ = decoded(req.attachments)  # the rules were checked: these decode
    kept = stored(req.attachments, blobs)
    files = [StoredFile(interaction_id=interaction_id, attachment_id=meta["id"],
                        direction="request", name=meta["name"], mime_type=meta["mime_type"],
                        size=meta["size"], sha256=meta["sha256"], created_at=at, data=blob)
             for meta, blob in zip(kept, blobs, strict=True)]
    return files, req.model_copy(update={"attachments": [Attachment(**meta) for meta in kept]})


async def attachment(store: Store, interaction_id: str, attachment_id: str) -> StoredFile:
    """A file shown with the question (its description); `NotFound` when there is none."""
    return await store.read(store.repo.attachment, interaction_id, attachment_id)


async def attachment_bytes(store: Store, file: StoredFile) -> AsyncIterator[bytes]:
    """Its bytes, a chunk at a time (`Repository.CHUNK`): never the whole file in memory."""
    offset = 0
    while offset < file.size:
        chunk = await store.read(store.repo.attachment_chunk, file.interaction_id,
                                 file.attachment_id, offset)
        if not chunk:
            return
        offset += len(chunk)
        yield chunk
