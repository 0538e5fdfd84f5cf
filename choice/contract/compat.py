"""The compatibility shapes `hitl_request`, `request_user_choice` and `ask_user_question`
(mapped in `ask_user_question.py`), mapped onto our request.

Owns only the mapping (`compat_errors.py` maps the field errors back into the caller's
words); every rule is still checked once, by `validation.validate_request`. A problem in the
caller's own payload does not hide the others: a refused optional field is left out and the
rest is still mapped and checked, so one reply names them all.
"""

from __future__ import annotations

import re
from typing import Any, get_args

from pydantic import BaseModel, ConfigDict, Field

from choice.contract import (
    TITLE_MAX,
    ChoiceRequest,
    FieldError,
    InterfaceChoice,
    Language,
    OnTimeout,
    Preferences,
    RequestContext,
    Shape,
    ask_user_question,
)
from choice.contract.compat_errors import in_their_words, without_union_branches
from choice.contract.field_errors import InvalidInput, parse_model
from choice.contract.knobs import pop_cancel_disabling
from choice.contract.model import Model
from choice.contract.validation import ValidatedRequest, validate_request

SHAPES: tuple[Shape, ...] = get_args(Shape)

# What an agent might send to get a free-text box out of the options-only hitl_request.
FREE_TEXT_FIELDS = (
    "placeholder", "allow_free_text", "free_text", "allow_custom_input", "custom_input",
    "text_input", "allow_other",
)


class _Compat(Model):
    model_config = ConfigDict(extra="forbid")


class HitlOption(_Compat):
    id: str | None = None
    label: str
    description: str | None = None


QUESTION = ("What you ask, with the task context and the reason you are asking (Markdown): "
            "the human sees only what you write here.")
TITLE = "A short heading; default: the question's first line."


class HitlRequest(_Compat):
    """Options-only question with an explicit confirm step."""

    question: str = Field(description=QUESTION)
    options: list[str | HitlOption] = Field(description="The choices: each a label, or "
                                                        "{id, label, description}.")
    confirm: bool = Field(default=False, description="The human confirms the pick explicitly.")
    title: str | None = Field(default=None, description=TITLE)
    timeout_seconds: int | None = None
    on_timeout: OnTimeout = "timeout"
    interface: InterfaceChoice = "auto"
    language: Language | None = None
    context: RequestContext = Field(default_factory=RequestContext)


class UserChoiceOption(_Compat):
    title: str
    description: str | None = None
    isRecommended: bool = False


class RequestUserChoice(_Compat):
    """Question plus options with `isRecommended`; free text stays possible (hybrid)."""

    question: str = Field(description=QUESTION)
    options: list[UserChoiceOption]
    title: str | None = Field(default=None, description=TITLE)
    timeout_seconds: int | None = None
    interface: InterfaceChoice = "auto"
    language: Language | None = None
    context: RequestContext = Field(default_factory=RequestContext)


def detect_shape(payload: Any) -> Shape:
    """`question` without `prompt` is a compatibility shape; option `title`s mark `request_user_choice`;
    `questions` carrying `question`s are Claude Code's AskUserQuestion."""
    if ask_user_question.looks_like(payload):
        return "ask_user_question"
    if not isinstance(payload, dict) or "question" not in payload or "prompt" in payload:
        return "provide_choice"
    options = payload.get("options")
    if isinstance(options, list) and any(
        isinstance(o, dict) and ("title" in o or "isRecommended" in o) for o in options
    ):
        return "request_user_choice"
    return "hitl_request"


def derive_title(question: str) -> str:
    """A heading from the question: its first line, cut to the title limit."""
    first = next((line.strip() for line in question.splitlines() if line.strip()), "")
    first = re.sub(r"\s+", " ", first)
    return first if len(first) <= TITLE_MAX else first[: TITLE_MAX - 1] + "…"


def parse_request(
    payload: Any, preferences: Preferences | None = None, shape: Shape | None = None
) -> ValidatedRequest:
    """Validate any accepted shape into one decided request (raises `InvalidInput`)."""
    shape = shape or detect_shape(payload)
    if shape == "provide_choice":
        if isinstance(payload, dict) and "shape" in payload:
            raise InvalidInput([FieldError(
                field="shape", code="unknown_field",
                message="shape is set by the portal, not sent: remove it (to ask options-only "
                        "with an explicit confirm, use the hitl_request tool or shape).")])
        return validate_request(payload, preferences)
    if not isinstance(payload, dict):
        return validate_request(payload, preferences)  # reports the body type error
    payload, warnings = pop_cancel_disabling(payload)
    mapped, renames, problems = _mapped(shape, payload)
    if shape == "request_user_choice":
        warnings += _adr_advice(mapped["options"])
    try:
        validated = validate_request(mapped, preferences)
    except InvalidInput as exc:
        raise InvalidInput(in_their_words(shape, problems)
                           + in_their_words(shape, exc.errors, renames)) from None
    if problems:
        raise InvalidInput(in_their_words(shape, problems))
    request = validated.request.model_copy(update={"shape": shape})
    return ValidatedRequest(request, warnings + validated.warnings)


MODELS: dict[Shape, type[BaseModel]] = {
    "hitl_request": HitlRequest, "request_user_choice": RequestUserChoice,
    "ask_user_question": ask_user_question.AskUserQuestion}


def _mapped(shape: Shape, payload: dict[str, Any]
            ) -> tuple[dict[str, Any], dict[str, str], list[FieldError]]:
    """Our request for the caller's payload, our field names -> theirs, and the problems
    found in their payload on the way. A refused optional field is left out so the rest is
    still checked; a refused required one (the question, the options) stops here."""
    problems = _free_text(payload) if shape == "hitl_request" else []
    payload = {k: v for k, v in payload.items() if k not in {e.field for e in problems}}
    model = MODELS[shape]
    try:
        parsed = parse_model(model, payload)
    except InvalidInput as exc:
        refused = without_union_branches(exc.errors, payload.get("options"))
        problems += refused
        tops = {re.split(r"[.\[]", error.field, maxsplit=1)[0] for error in refused}
        required = {name for name, field in model.model_fields.items() if field.is_required()}
        if tops & required:
            raise InvalidInput(in_their_words(shape, problems)) from None
        try:
            parsed = parse_model(model, {k: v for k, v in payload.items() if k not in tops})
        except InvalidInput:
            raise InvalidInput(in_their_words(shape, problems)) from None
    if isinstance(parsed, HitlRequest):
        return (*_map_hitl(parsed), problems)
    if isinstance(parsed, RequestUserChoice):
        return (*_map_user_choice(parsed), problems)
    assert isinstance(parsed, ask_user_question.AskUserQuestion)
    return (*ask_user_question.mapped(parsed), problems)


def _free_text(payload: dict[str, Any]) -> list[FieldError]:
    """What would ask the options-only hitl_request for typed text."""
    free_text = [name for name in FREE_TEXT_FIELDS if name in payload]
    if payload.get("selection_mode") in ("text_input", "hybrid"):
        free_text.append("selection_mode")
    return [FieldError(
        field=name, code="free_text_not_allowed",
        message=f"hitl_request is options-only, so {name} is not accepted: remove it. "
        "For a typed answer use provide_choice with selection_mode 'hybrid' or 'text_input'.",
    ) for name in free_text]


def _map_hitl(hitl: HitlRequest) -> tuple[dict[str, Any], dict[str, str]]:
    options: list[dict[str, str | None]] = []
    renames = {"prompt": "question"} if hitl.title else {"prompt": "question", "title": "question"}
    for index, option in enumerate(hitl.options):
        if isinstance(option, str):
            options.append({"id": str(index + 1), "label": option})
            renames[f"options[{index}].label"] = f"options[{index}]"  # the string is the label
        else:
            options.append({
                "id": option.id or str(index + 1), "label": option.label,
                "description": option.description,
            })
    mapped = {
        "title": hitl.title or derive_title(hitl.question),
        "prompt": hitl.question,
        "selection_mode": "single",
        "options": options,
        "require_confirmation": hitl.confirm,
        "allow_annotations": False,  # options-only: no notes, no free text anywhere
        "timeout_seconds": hitl.timeout_seconds,
        "on_timeout": hitl.on_timeout,
        "interface": hitl.interface,
        "language": hitl.language,
        "context": hitl.context.model_dump(),
    }
    return mapped, renames


def _map_user_choice(choice: RequestUserChoice) -> tuple[dict[str, Any], dict[str, str]]:
    mapped = {
        "title": choice.title or derive_title(choice.question),
        "prompt": choice.question,
        "selection_mode": "hybrid",
        "options": [
            {"id": str(index + 1), "label": option.title, "description": option.description,
             "recommended": option.isRecommended}
            for index, option in enumerate(choice.options)
        ],
        "timeout_seconds": choice.timeout_seconds,
        "interface": choice.interface,
        "language": choice.language,
        "context": choice.context.model_dump(),
    }
    renames = {"prompt": "question", ".label": ".title", ".recommended": ".isRecommended"}
    if not choice.title:
        renames["title"] = "question"  # derived from the question
    return mapped, renames


def _adr_advice(options: list[dict[str, Any]]) -> list[str]:
    """`request_user_choice`'s prompt rules (two distinct options at least, one
    recommended), as advice: the question is still asked."""
    advice = []
    if len({" ".join(str(o["label"]).split()).casefold() for o in options}) < 2:
        advice.append("request_user_choice asks for at least two distinct options: next time "
                      "offer two or more different choices (the human may still type their own).")
    if options and not any(o["recommended"] for o in options):
        advice.append("request_user_choice asks you to set isRecommended: true on the option "
                      "you recommend: next time mark one.")
    return advice


def user_choice_required(request: ChoiceRequest, listed: dict[str, Any]) -> dict[str, Any]:
    """The `user_choice_required` event for a `request_user_choice` interaction: the
    question and its options in that shape's own words, so a chat UI can show them (and block
    its input while the choice is pending)."""
    return {**listed, "question": request.prompt,
            "options": [{"id": o.id, "title": o.label, "description": o.description,
                         "isRecommended": o.recommended} for o in request.options],
            "conversation_id": request.context.conversation_id,
            "tool_call_id": request.context.tool_call_id}
