"""A request as an MCP elicitation form, and the form's content as our `Submission`.

MCP form elicitation takes a flat object schema of primitive fields (protocol 2025-11-25):
one question becomes one field named by its id (an enum with titles for single, an array of
enum with min/maxItems for multi, a string for text_input), a hybrid question gets a second,
optional string field for the human's own words, and the request gets an optional note field
when notes are allowed and a required confirmation box when it asks for one. Extra field
names start with `:`, which no question id can (ids are `[A-Za-z0-9_.-]`).

Everything a model wrote (title, prompt, header, labels, descriptions) goes to the client
through `safe_text`: IDE clients render it in terminals and panes we do not control. The
content coming back is only shaped here; `InteractionService.submit` judges it by the same
rules as a page's answer. This module neither sends nor stores anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from choice.contract import (
    CUSTOM_INPUT_MAX,
    NOTE_MAX,
    ChoiceRequest,
    FieldError,
    Question,
    Submission,
)
from choice.contract.field_errors import InvalidInput, parse_model
from choice.contract.safe_text import safe_text
from choice.core.i18n import Translator

TEXT_SUFFIX = ":text"
NOTE_FIELD = ":note"
CONFIRM_FIELD = ":confirm"
DESCRIBED_OPTIONS_MAX = 20
"""Option descriptions listed under a field, at most (the enum itself has only titles)."""
DESCRIPTION_CLIP = 300

Content = dict[str, Any]


@dataclass(frozen=True)
class Form:
    message: str
    schema: dict[str, Any]


def _clip(text: str, limit: int = DESCRIPTION_CLIP) -> str:
    text = safe_text(text, keep_newlines=False).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _option_title(label: str, recommended: bool, _: Translator) -> str:
    title = safe_text(label, keep_newlines=False)
    return f"{title} ({_('recommended')})" if recommended else title


def _described(question: Question) -> str:
    """The question, then the options' descriptions (a form's enum shows only titles)."""
    lines = [safe_text(question.prompt)]
    described = [option for option in question.options if option.description]
    for option in described[:DESCRIBED_OPTIONS_MAX]:
        lines.append(f"- {_clip(option.label, 80)}: {_clip(option.description or '')}")
    return "\n".join(lines)


def _question_fields(question: Question, several: bool, _: Translator) -> tuple[
        dict[str, dict[str, Any]], list[str]]:
    title = _clip(question.header or (question.prompt if several else _("Your answer")), 80)
    described = _described(question)
    mode, qid = question.selection_mode, question.id
    if mode == "text_input":
        field: dict[str, Any] = {"type": "string", "title": title, "description": described,
                                 "maxLength": CUSTOM_INPUT_MAX}
        return {qid: field}, [qid]
    choices = [{"const": option.id,
                "title": _option_title(option.label, option.recommended, _)}
               for option in question.options]
    high = question.max_selections if question.max_selections is not None else 1
    low = question.min_selections or 0
    if mode == "single" or (mode == "hybrid" and high <= 1):
        field = {"type": "string", "title": title, "description": described, "oneOf": choices}
        if question.default_selection_ids:
            field["default"] = question.default_selection_ids[0]
    else:
        field = {"type": "array", "title": title, "description": described,
                 "items": {"anyOf": choices}, "maxItems": high}
        if low:
            field["minItems"] = low
        if question.default_selection_ids:
            field["default"] = list(question.default_selection_ids)
    fields, required = {qid: field}, [qid] if low and mode != "hybrid" else []
    if mode == "hybrid":
        fields[qid + TEXT_SUFFIX] = {
            "type": "string", "maxLength": CUSTOM_INPUT_MAX,
            "title": _("Or in your own words"),
            "description": safe_text(question.placeholder or "", keep_newlines=False)}
    return fields, required


def form_for(request: ChoiceRequest, _: Translator) -> Form:
    """The elicitation message and requested schema for a validated request."""
    properties: dict[str, dict[str, Any]] = {}
    required: list[str] = []
    for question in request.asked():
        fields, needed = _question_fields(question, request.several, _)
        properties.update(fields)
        required += needed
    if any(question.allow_annotations for question in request.asked()):
        properties[NOTE_FIELD] = {"type": "string", "maxLength": NOTE_MAX,
                                  "title": _("Note (optional)"),
                                  "description": _("Anything the agent should know.")}
    if request.require_confirmation:
        properties[CONFIRM_FIELD] = {"type": "boolean", "default": False,
                                     "title": _("I confirm this answer")}
        required.append(CONFIRM_FIELD)
    head = safe_text(request.title, keep_newlines=False)
    context = request.prompt if request.several else request.asked()[0].prompt
    message = f"{head}\n\n{safe_text(context)}" if context else head
    return Form(message, {"type": "object", "properties": properties, "required": required})


def _wrong(field: str, message: str) -> FieldError:
    return FieldError(field=field, code="invalid_type", message=message)


def _text(content: Content, name: str, errors: list[FieldError]) -> str | None:
    value = content.get(name)
    if value is None or isinstance(value, str):
        return value
    errors.append(_wrong(name, "send a string."))
    return None


def _selected(question: Question, value: object, errors: list[FieldError]) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    errors.append(_wrong(question.id, "send an option id, or a list of option ids."))
    return None


def _answer(question: Question, content: Content, errors: list[FieldError]) -> dict[str, Any]:
    if question.selection_mode == "text_input":
        return {"custom_input": _text(content, question.id, errors)}
    selected = _selected(question, content.get(question.id), errors)
    text = (_text(content, question.id + TEXT_SUFFIX, errors)
            if question.selection_mode == "hybrid" else None)
    if selected is None and text and text.strip():
        selected = []  # their own words instead of a pick: not the defaults plus the words
    return {"selected_ids": selected, "custom_input": text}


def submission_from(request: ChoiceRequest, content: Content | None) -> Submission:
    """The accepted form's content as the submission a page would send; `InvalidInput`
    for a value of the wrong type (the response rules judge everything else)."""
    content = content or {}
    errors: list[FieldError] = []
    answers = {question.id: _answer(question, content, errors) for question in request.asked()}
    note = _text(content, NOTE_FIELD, errors)
    confirmed = content.get(CONFIRM_FIELD)
    if confirmed is not None and not isinstance(confirmed, bool):
        errors.append(_wrong(CONFIRM_FIELD, "send true or false."))
        confirmed = None
    if errors:
        raise InvalidInput(errors)
    shared: dict[str, Any] = {"global_annotation": note, "confirmed": confirmed}
    if request.several:
        return parse_model(Submission, {"answers": answers, **shared})
    return parse_model(Submission, {**next(iter(answers.values())), **shared})
