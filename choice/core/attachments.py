"""The files an agent shows with its question, between the contract and the store: a
validated request's attachments become rows to store (bytes, size, sha256) and the request
keeps only their description. The contract checked the rules (`contract/attachments.py`);
the store keeps and serves the bytes (`Repository.attachment_chunk`).
"""

from __future__ import annotations

from choice.contract import ChoiceRequest
from choice.contract.attachments import Attachment, decoded, stored
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
