"""Files in the database: a question's (the agent's), and the ones a person attaches to the
answer being written (`draft` rows, named `answer-N`). Writes run on the store's writer
thread; the transaction that ends a question keeps or drops a draft's files
(`Repository.complete`). Reads give a file's description, or its bytes a chunk at a time.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace
from sqlalchemy import delete, func, insert, select

from choice.contract import UNRESOLVED_STATUSES
from choice.contract.attachments import answer_file_id
from choice.contract.errors import AlreadyCompleted, FileNotFound
from choice.store.records import AuditEvent, StoredFile, values_of
from choice.store.repository import FILE_COLUMNS, IS_DRAFT_FILE, Repository
from choice.store.tables import ATTACHMENTS

CHUNK = 256 * 1024
"""An attachment is read this much at a time: ten 5 MiB downloads at once hold ~2.5 MB."""


class TooManyFiles(Exception):
    """A draft holds as many files as an answer may send."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"at most {limit} files")
        self.limit = limit


def add_draft_file(repo: Repository, file: StoredFile, limit: int,
                   event: Callable[[StoredFile], AuditEvent]) -> StoredFile:
    """Attach `file` to an undecided question's draft as the next free `answer-N`, and
    audit it. `AlreadyCompleted` once the question is over, `TooManyFiles` when the draft
    holds `limit` already."""
    with repo.transaction() as conn:
        row = repo.find(conn, file.interaction_id)
        if row.status not in UNRESOLVED_STATUSES:
            raise AlreadyCompleted(row)
        ids = conn.execute(select(ATTACHMENTS.c.attachment_id, ATTACHMENTS.c.direction).where(
            ATTACHMENTS.c.interaction_id == file.interaction_id)).all()
        if sum(1 for _, direction in ids if direction == "draft") >= limit:
            raise TooManyFiles(limit)
        file = replace(file, attachment_id=answer_file_id({i for i, _ in ids}))
        conn.execute(insert(ATTACHMENTS), [values_of(file)])
        repo.add_events(conn, [event(file)])
        return replace(file, data=None)


def drop_draft_file(repo: Repository, interaction_id: str, attachment_id: str,
                    event: AuditEvent) -> None:
    """Take a file off an undecided question's draft; `FileNotFound` if it holds none by
    that id (a sent file stays: it is part of the answer)."""
    with repo.transaction() as conn:
        gone = conn.execute(delete(ATTACHMENTS).where(
            ATTACHMENTS.c.interaction_id == interaction_id,
            ATTACHMENTS.c.attachment_id == attachment_id, IS_DRAFT_FILE))
        if gone.rowcount != 1:
            raise FileNotFound(interaction_id, attachment_id, draft=True)
        repo.add_events(conn, [event])
    repo.forget_dropped(f"the bytes of file {attachment_id}")


def stored_file(repo: Repository, interaction_id: str, attachment_id: str) -> StoredFile:
    """One file's description (not its bytes: `file_chunk` reads those); `FileNotFound`."""
    with repo.engine.connect() as conn:
        found = conn.execute(select(*FILE_COLUMNS).where(
            ATTACHMENTS.c.interaction_id == interaction_id,
            ATTACHMENTS.c.attachment_id == attachment_id)).mappings().first()
    if found is None:
        raise FileNotFound(interaction_id, attachment_id)
    return StoredFile(**found)


def file_chunk(repo: Repository, interaction_id: str, attachment_id: str, offset: int) -> bytes:
    """`CHUNK` bytes of a file from `offset` (SQL `substr`: the row is never read whole
    into memory)."""
    with repo.engine.connect() as conn:
        chunk = conn.execute(select(func.substr(ATTACHMENTS.c.data, offset + 1, CHUNK)).where(
            ATTACHMENTS.c.interaction_id == interaction_id,
            ATTACHMENTS.c.attachment_id == attachment_id)).scalar()
    return bytes(chunk or b"")
