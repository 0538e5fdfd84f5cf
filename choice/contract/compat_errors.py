"""Field errors in the words of the shape that asked: the caller of a compatibility shape
reads only about fields its own tool has.

Owns the way back from our request's errors to a compatibility shape's: fields renamed
(`prompt` -> `question`, an option's `label` -> `title`), pydantic's union branch names left
out, and the messages about a field the shape fills by itself (`selection_mode`,
`default_selection_ids`, `max_selections`) said in the shape's own terms, or dropped where
another error already says it. `compat.py` maps the requests; this maps their errors back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from choice.contract import FieldError, Shape
from choice.contract.field_errors import shown


def _not_ours(shape: str, where: str) -> str:
    return (f"prompt is not a field of {shape}: write the task context and the reason you "
            f"are asking into {where}, above what you ask (prompt belongs to provide_choice).")


ANY_CODE = "*"
REWORDED: dict[Shape, tuple[tuple[str, str, str | None], ...]] = {
    "hitl_request": (
        ("prompt", "unknown_field", _not_ours("hitl_request", "question")),
        ("options", "required",
         "hitl_request is options-only and needs at least one option: add options."),
        ("on_timeout", "needs_defaults",
         "hitl_request has no default option for the deadline to submit: use on_timeout "
         "'timeout' (the agent learns nobody answered) or 'cancel'."),
    ),
    "request_user_choice": (
        ("prompt", "unknown_field", _not_ours("request_user_choice", "question")),
        ("options", "required",
         "request_user_choice needs at least one option: add options, each {title, "
         "description, isRecommended} (the human may still answer in their own words)."),
    ),
    "ask_user_question": (
        ("prompt", "unknown_field", _not_ours("ask_user_question", "each question's question")),
        (r"questions\[\d+\]\.options", "required",
         "{field} is empty: give 2-4 options, each {label, description} (the user may still "
         "answer 'Other' in their own words)."),
        # Set from multiSelect and the number of options: the options' own error says it.
        (r"questions\[\d+\]\.(max|min)_selections", ANY_CODE, None),
    ),
}
"""Per shape: (field pattern, code, the message in the shape's words or None to drop it)."""


def in_their_words(shape: Shape, errors: Iterable[FieldError],
                   renames: dict[str, str] | None = None) -> list[FieldError]:
    """`errors` as the caller of `shape` reads them, each once. `renames`: our field names
    -> theirs (`.label` as a suffix, `prompt` as a whole name), for errors about the mapped
    request; errors about their own payload already use their names."""
    kept: dict[tuple[str, str, str], FieldError] = {}
    for error in errors:
        said = _reworded(shape, _renamed(error, renames or {}))
        if said is not None:
            kept.setdefault((said.field, said.code, said.message), said)
    return list(kept.values())


def _reworded(shape: Shape, error: FieldError) -> FieldError | None:
    for pattern, code, message in REWORDED.get(shape, ()):
        if re.fullmatch(pattern, error.field) and code in (ANY_CODE, error.code):
            if message is None:
                return None
            return error.model_copy(update={"message": message.replace("{field}", error.field)})
    return error


def _renamed(error: FieldError, renames: dict[str, str]) -> FieldError:
    """Say `question` where the caller wrote `question`, not our internal `prompt`."""
    field = error.field
    for ours, theirs in renames.items():
        if ours.startswith("."):
            if field.endswith(ours):
                field = field[: -len(ours)] + theirs
        elif field == ours:
            field = theirs
    message = error.message.replace(error.field, field, 1) if field != error.field else error.message
    return error.model_copy(update={"field": field, "message": message})


def without_union_branches(errors: list[FieldError], options: Any) -> list[FieldError]:
    """`options[1].HitlOption.label` -> `options[1].label`: no pydantic union branch names.

    An object option keeps the object branch's errors; anything that is neither a string nor
    an object gets one error saying both are accepted.
    """
    kept: dict[tuple[str, str], FieldError] = {}
    for error in errors:
        match = re.fullmatch(r"(options\[(\d+)\])\.(str|HitlOption)(.*)", error.field)
        if match is None or not isinstance(options, list):
            kept.setdefault((error.field, error.message), error)
            continue
        head, index, branch, rest = match.groups()
        item = options[int(index)]
        if isinstance(item, dict) and branch == "HitlOption":
            field = head + rest
            message = error.message.replace(error.field, field, 1)
            renamed = error.model_copy(update={"field": field, "message": message})
            kept.setdefault((field, message), renamed)
        elif not isinstance(item, dict):
            kept.setdefault((head, ""), FieldError(
                field=head, code="invalid_type",
                message=f"{head} must be a string or an object with a label; "
                f"got {type(item).__name__} {shown(item)}.",
            ))
    return list(kept.values())
