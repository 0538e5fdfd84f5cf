"""Whether a request's files are ones it may show: each file's own rules
(`attachments.decoded`) and every option's `attachment_ids` naming one of them. Apart from
`attachments.py`, which the request itself imports for the `Attachment` shape.
"""

from __future__ import annotations

from collections.abc import Sequence

from choice.contract.attachments import Attachment, decoded, source_path_errors
from choice.contract.errors import FieldError
from choice.contract.request import Question


def attachment_errors(attachments: list[Attachment], questions: Sequence[Question], *,
                      several: bool) -> list[FieldError]:
    """The files' own rules, and every option's `attachment_ids` naming one of them."""
    _, errors = decoded(attachments)
    errors += source_path_errors(attachments)
    known = {attachment.id or f"a{index + 1}" for index, attachment in enumerate(attachments)}
    prefix = "questions[{q}]." if several else ""
    for q, question in enumerate(questions):
        for o, option in enumerate(question.options):
            for a, wanted in enumerate(option.attachment_ids):
                if wanted not in known:
                    errors.append(FieldError(
                        field=f"{prefix.format(q=q)}options[{o}].attachment_ids[{a}]",
                        code="unknown",
                        message=f"{wanted[:64]!r} is no attachment of this request: use one "
                                f"of {sorted(known) or 'none (send attachments first)'}."))
    return errors
