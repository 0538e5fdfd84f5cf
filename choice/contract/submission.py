"""What a person sends: an answer (one question's fields, or `answers` for several), a
cancel, an interface switch, a deadline change. Checking an answer against its request is
`normalize.py`'s.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from choice.contract.attachments import ANSWER_LIMITS, Attachment
from choice.contract.vocabulary import (
    CUSTOM_INPUT_MAX,
    MAX_OPTIONS,
    NOTE_MAX,
    QUESTIONS_MAX,
    TIMEOUT_MAX,
    TIMEOUT_MIN,
    PortalInterface,
    Strict,
)


class Answer(Strict):
    """The answer to one question."""

    selected_ids: list[str] | None = Field(
        default=None, description="Omit to accept the defaults unchanged."
    )
    custom_input: str | None = Field(default=None, max_length=CUSTOM_INPUT_MAX)
    option_annotations: dict[str, Annotated[str, Field(max_length=NOTE_MAX)]] = Field(
        default_factory=dict, max_length=MAX_OPTIONS)


class Submission(Answer):
    """A human's answer, the same from the web form, the terminal and the API: the answer's
    fields for one question, or `answers` keyed by question id for several."""

    answers: dict[str, Answer] | None = Field(
        default=None, max_length=QUESTIONS_MAX,
        description="For a request with `questions`: each question's answer by its id "
                    "(a question left out keeps its defaults).")
    global_annotation: str | None = Field(default=None, max_length=NOTE_MAX)
    confirmed: bool | None = None
    submission: Literal["manual", "auto"] = Field(
        default="manual", description="`auto` when the UI submitted on first pick."
    )
    interface: PortalInterface | None = Field(
        default=None, description="Where the human answered; default the interaction's own."
    )
    attachments: list[Attachment] = Field(
        default_factory=list, max_length=ANSWER_LIMITS.files,
        description="Files sent with the answer, `{name, mime_type, data}` (`data`: base64; "
                    "at most 5, 10 MiB each, with any already attached to the draft): the "
                    "result lists them as `answer-1`, `answer-2`, ...")


class CancelBody(Strict):
    global_annotation: str | None = Field(default=None, max_length=NOTE_MAX)
    interface: PortalInterface | None = None


class WithdrawBody(Strict):
    """`POST /api/interactions/{id}/withdraw`: the agent takes its question back."""

    reason: str = Field(min_length=1, max_length=NOTE_MAX,
                        description="Why it is no longer needed; the person reads it.")


class InterfaceSwitch(Strict):
    """Continue a pending interaction in another interface."""

    interface: PortalInterface


class DeadlineChange(Strict):
    """Give exactly one: a total timeout counted from creation, or an absolute deadline."""

    timeout_seconds: int | None = Field(default=None, ge=TIMEOUT_MIN, le=TIMEOUT_MAX)
    expires_at: str | None = Field(default=None, description="ISO 8601 with a timezone.")
    interface: PortalInterface | None = Field(
        default=None, description="Where a person changed it (`terminal`: `choice answer`, "
                                  "audited as `human:terminal`); default the API's.")

