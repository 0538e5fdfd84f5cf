"""Request validation: a raw payload -> a fully decided `ChoiceRequest`, or every field error.

Owns the request's rules (docs/reference/contract.md#the-request); what the portal then
decides for the caller (cancel, the optional knobs) is `knobs.py`. Invalid requests never
reach a human, and one reply names every problem: the cross-field rules still run beside
pydantic's errors, on the stand-in `salvage.py` builds, each rule quiet when it reads a
field pydantic refused. The compatibility shapes are mapped in `compat.py` and come
through here too.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct, field

from choice.contract import SINGLE_QUESTION_FIELDS, ChoiceRequest, FieldError, Preferences
from choice.contract.attachment_rules import attachment_errors
from choice.contract.field_errors import InvalidInput, parse_model
from choice.contract.knobs import max_for, pop_cancel_disabling, resolve_defaults
from choice.contract.question_rules import (
    BOUNDS_READ,
    NONE,
    OPTIONS_READ,
    check_question,
    rule_error,
)
from choice.contract.salvage import salvaged


class ValidatedRequest(Struct, frozen=True):
    """A request whose every knob is decided, plus what the agent should be told about it."""

    request: ChoiceRequest
    warnings: list[str] = field(default_factory=list)


def validate_request(payload: Any, preferences: Preferences | None = None) -> ValidatedRequest:
    """Check a `provide_choice` payload and fill its optional knobs from `preferences`.

    Raises `InvalidInput` with all the problems found.
    """
    prefs = preferences or Preferences()
    if isinstance(payload, dict):
        payload, warnings = pop_cancel_disabling(payload)
    else:
        warnings = []
    try:
        request = parse_model(ChoiceRequest, payload)
    except InvalidInput as invalid:
        if isinstance(payload, dict):  # one round trip: what the rules can say, now too
            invalid.errors += _rules_despite(payload, {error.field for error in invalid.errors})
        raise
    errors = check_rules(request)
    if errors:
        raise InvalidInput(errors)
    return ValidatedRequest(resolve_defaults(request, prefs), warnings)


def missing_prompt() -> FieldError:
    """Made when needed, not at import: a model's first instance builds pydantic's first
    validator, which a start need not wait for."""
    return rule_error("prompt", "required",
                      "prompt is missing: give the task context and why the choice is needed "
                      "(or send several questions in `questions`).")


def _rules_despite(payload: dict[str, Any], reported: set[str]) -> list[FieldError]:
    """The cross-field rules on what pydantic refused, about fields it did not name."""
    stand_in = salvaged(payload)
    if stand_in is None:
        return []
    return [error for error in check_rules(stand_in.request, stand_in.unsure)
            if error.field not in reported]


def check_rules(req: ChoiceRequest, unsure: frozenset[str] = NONE) -> list[FieldError]:
    """The cross-field rules pydantic cannot express, all of them at once. A rule reading a
    field in `unsure` (refused by pydantic: its value is not the caller's) stays quiet."""
    errors: list[FieldError] = []
    if not req.title.strip():
        errors.append(rule_error("title", "blank", "title is only whitespace: write a short heading."))
    if req.prompt is not None and not req.prompt.strip():
        errors.append(rule_error(
            "prompt", "blank",
            "prompt is only whitespace: give the task context and why the choice is needed.",
        ))
    if req.prompt is None and req.questions is None and not unsure & {"prompt", "questions"}:
        errors.append(missing_prompt())
    if "questions" not in unsure:  # else it was meant to ask several: none of these apply
        errors += _check_questions(req) if req.several else _check_single(req, unsure)
    if req.attachments or any(o.attachment_ids for q in req.asked() for o in q.options):
        errors += attachment_errors(req.attachments, req.asked(), several=req.several)
    if req.widen_hint is not None and ("\n" in req.widen_hint or "\r" in req.widen_hint):
        errors.append(rule_error("widen_hint", "one_line",
                                 "widen_hint is shown as one dimmed line: remove the line breaks."))
    return errors


def _check_single(req: ChoiceRequest, unsure: frozenset[str]) -> list[FieldError]:
    question = req.asked()[0]
    submits = req.on_timeout == "submit_defaults"
    errors = check_question(question, deadline_submits=submits, needs_defaults=submits,
                            unsure=unsure)
    if req.single_submit_mode and not unsure & BOUNDS_READ and (
            question.selection_mode not in ("single", "hybrid") or max_for(question) != 1):
        errors.append(rule_error(
            "single_submit_mode", "not_allowed",
            "single_submit_mode submits on the first pick, so it needs selection_mode 'single' "
            "or 'hybrid' with max_selections 1: remove it or change the mode.",
        ))
    if req.quorum is not None and not unsure & OPTIONS_READ and (
            not req.options or req.selection_mode == "text_input"):
        errors.append(rule_error("quorum", "no_options",
                                 "a quorum counts teammates' votes for options, and this question "
                                 "has none to vote on: leave quorum out."))
    return errors


def _check_questions(req: ChoiceRequest) -> list[FieldError]:
    """`questions`: never with the single-question fields; ids unique; each question's own
    rules, reported under `questions[i].`."""
    assert req.questions is not None
    errors = [rule_error(name, "conflicts_with_questions",
                         f"a request has either the single-question fields or `questions`, never "
                         f"both: move {name} into each question, or drop `questions`.")
              for name in SINGLE_QUESTION_FIELDS if name in req.model_fields_set]
    if req.quorum is not None:
        errors.append(rule_error("quorum", "not_allowed",
                                 "a quorum counts votes on one question's options: leave quorum "
                                 "out when sending several questions."))
    first_seen: dict[str, int] = {}
    for index, question in enumerate(req.questions):
        at = f"questions[{index}]."
        if question.id in first_seen:
            errors.append(rule_error(at + "id", "duplicate",
                                     f"question id '{question.id}' is already used by "
                                     f"questions[{first_seen[question.id]}]: give every question "
                                     "its own id."))
        first_seen.setdefault(question.id, index)
        if not question.prompt.strip():
            errors.append(rule_error(at + "prompt", "blank",
                                     "the question is only whitespace: write what you ask."))
        errors += [error.model_copy(update={"field": at + error.field})
                   for error in check_question(
                       question, deadline_submits=req.on_timeout == "submit_defaults",
                       needs_defaults=False)]
    if req.on_timeout == "submit_defaults" and not any(q.default_selection_ids
                                                       for q in req.questions):
        errors.append(rule_error(
            "on_timeout", "needs_defaults",
            "on_timeout 'submit_defaults' needs default_selection_ids on at least one "
            "question (the others time out): add them, or use on_timeout 'timeout'."))
    return errors
