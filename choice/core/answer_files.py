"""The files a person attaches to the answer being written: kept with the draft (`draft`
rows, `answer-N`) until an answer sends them (`attachments.answered_files`, in the
completing transaction) or the question ends otherwise and drops them.

Owns attaching, taking off and listing them, each change audited and published as
`interaction.draft` (with `files`) so an open page or terminal shows it. The rules are the
contract's (`ANSWER_LIMITS`); the bytes are the store's.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec import Struct

from choice.contract.attachments import ANSWER_LIMITS, SentFile
from choice.contract.errors import FieldError
from choice.contract.field_errors import InvalidInput
from choice.core.actors import OWNER, Actor
from choice.core.attachments import draft_file, file_url, sent_file
from choice.core.endings import audit, file_added
from choice.core.notifier import Change, LocalNotifier
from choice.store import Store
from choice.store.files import TooManyFiles, add_draft_file, drop_draft_file
from choice.store.records import StoredFile


class AnswerFiles(Struct):
    store: Store
    notifier: LocalNotifier
    clock: Callable[[], float]
    link_base: str

    async def attach(self, interaction_id: str, name: str, mime_type: str, data: bytes,
                     actor: Actor = OWNER, tab: str | None = None) -> SentFile:
        """Attach a file to an undecided question's draft (`answer-N`), audited as
        `attachment_added`. `InvalidInput` naming `name`, `mime_type` or `data` (type,
        size, a sixth file); `AlreadyCompleted` once the question is over."""
        file = draft_file(interaction_id, name, mime_type, data, self.clock())
        try:
            kept = await self.store.write(add_draft_file, self.store.repo, file,
                                          ANSWER_LIMITS.files,
                                          lambda added: file_added(added, actor, added.created_at))
        except TooManyFiles as too_many:
            raise InvalidInput([FieldError(field="data", code="too_many", message=(
                f"{too_many.limit} files are attached already: remove one first."))]) from None
        self._changed(interaction_id, tab)
        return self._sent(kept)

    async def detach(self, interaction_id: str, attachment_id: str, actor: Actor = OWNER,
                     tab: str | None = None) -> None:
        """Take a file off the draft (`attachment_removed`); `NotFound` for no such
        question, `FileNotFound` if its draft holds no such file."""
        await self.store.read(self.store.repo.get, interaction_id)
        event = audit(interaction_id, "attachment_removed", actor,
                      {"attachment_id": attachment_id}, self.clock())
        await self.store.write(drop_draft_file, self.store.repo, interaction_id,
                               attachment_id, event)
        self._changed(interaction_id, tab)

    async def listed(self, interaction_id: str) -> list[SentFile]:
        """The files attached to the draft, oldest first; `NotFound` for no such question."""
        await self.store.read(self.store.repo.get, interaction_id)
        return [self._sent(file)
                for file in await self.store.read(self.store.repo.draft_files, interaction_id)]

    def _sent(self, file: StoredFile) -> SentFile:
        return sent_file(file, file_url(self.link_base, file.interaction_id, file.attachment_id))

    def _changed(self, interaction_id: str, tab: str | None) -> None:
        self.notifier.publish(Change("interaction.draft", interaction_id,
                                     {"tab": tab, "files": True}))
