"""The domain's refusals: what a caller is told when an interaction is not there or not in a
state that allows what it asked. Raised by the store (inside the transaction that checked)
and by the core and features; the transports map them to replies (404, 409).

Each carries the row as it stands, so the reply can say what happened instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from choice.contract.model import Model

if TYPE_CHECKING:
    from choice.store.records import Interaction


# One problem with an input, as a value: which field, a stable code, and a message that says
# how to fix it. (No docstring: it would become the schema's description in every listing.)
class FieldError(Model):
    field: str
    code: str
    message: str


class NotFound(LookupError):
    def __init__(self, interaction_id: str) -> None:
        self.interaction_id = interaction_id
        super().__init__(interaction_id)


class FileNotFound(NotFound):
    """The question has no file `file_id` (or, on its draft, none by that id: `draft`)."""

    def __init__(self, interaction_id: str, file_id: str, *, draft: bool = False) -> None:
        super().__init__(interaction_id)
        self.file_id = file_id
        self.draft = draft


class AlreadyCompleted(Exception):
    """The interaction was already over: carries the row as it was finished."""

    def __init__(self, row: Interaction) -> None:
        self.row = row
        super().__init__(row.id)


class DeadlinePassed(AlreadyCompleted):
    """Still pending in the database, but its deadline has passed: the expiry decides."""


class AlreadyWidened(AlreadyCompleted):
    """Widening an interaction that is already widened: nothing changed."""


class NotWidened(AlreadyCompleted):
    """A team action (comment, vote) on an interaction that is not widened (any more)."""


class NotWidenedNow(AlreadyCompleted):
    """A review, a candidate or a quorum for a question that is not widened now (pending,
    deferred, or over): carries the row as it stands."""


class NotInReview(AlreadyCompleted):
    """A candidate for a widened question whose owner has not asked for one."""


class NotDeferred(AlreadyCompleted):
    """Taking up again a question that is not deferred."""


class TooManyComments(Exception):
    """A discussion, or one participant's link, holds as many comments as it may: nothing
    was added. `per` says which cap (`question` or `link`), `limit` how many it allows."""

    def __init__(self, per: str, limit: int) -> None:
        self.per = per
        self.limit = limit
        super().__init__(f"{per}: {limit}")
