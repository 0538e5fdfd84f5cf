"""Request validation: a raw payload -> a fully decided `ChoiceRequest`, or every field error.

Owns the rules of the request table in DESIGN.md; what the portal then decides for the
caller (cancel, the optional knobs) is `knobs.py`. Invalid requests never reach a human, and
one reply names every problem: the cross-field rules still run beside pydantic's errors, on
the stand-in `salvage.py` builds, each rule quiet when it reads a field pydantic refused.
The compatibility shapes are mapped in `compat.py` and come through here too.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct, field

from choice.contract import SINGLE_QUESTION_FIELDS, ChoiceRequest, FieldError, Preferences, Question
from choice.contract.attachment_rules import attachment_errors
from choice.contract.field_errors import InvalidInput, parse_model
from choice.contract.knobs import max_for, min_for, pop_cancel_disabling, resolve_defaults
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


def _error(field: str, code: str, message: str) -> FieldError:
    return FieldError(field=field, code=code, message=message)


def missing_prompt() -> FieldError:
    """Made when needed, not at import: a model's first instance builds pydantic's first
    validator (~7 ms of every start)."""
    return _error("prompt", "required",
                  "prompt is missing: give the task context and why the choice is needed "
                  "(or send several questions in `questions`).")
NONE: frozenset[str] = frozenset()


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
        errors.append(_error("title", "blank", "title is only whitespace: write a short heading."))
    if req.prompt is not None and not req.prompt.strip():
        errors.append(_error(
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
        errors.append(_error("widen_hint", "one_line",
                             "widen_hint is shown as one dimmed line: remove the line breaks."))
    return errors


def _check_single(req: ChoiceRequest, unsure: frozenset[str]) -> list[FieldError]:
    question = req.asked()[0]
    submits = req.on_timeout == "submit_defaults"
    errors = _check_question(question, deadline_submits=submits, needs_defaults=submits,
                             unsure=unsure)
    if req.single_submit_mode and not unsure & _BOUNDS_READ and (
            question.selection_mode not in ("single", "hybrid") or max_for(question) != 1):
        errors.append(_error(
            "single_submit_mode", "not_allowed",
            "single_submit_mode submits on the first pick, so it needs selection_mode 'single' "
            "or 'hybrid' with max_selections 1: remove it or change the mode.",
        ))
    if req.quorum is not None and not unsure & _OPTIONS_READ and (
            not req.options or req.selection_mode == "text_input"):
        errors.append(_error("quorum", "no_options",
                             "a quorum counts teammates' votes for options, and this question "
                             "has none to vote on: leave quorum out."))
    return errors


def _check_questions(req: ChoiceRequest) -> list[FieldError]:
    """`questions`: never with the single-question fields; ids unique; each question's own
    rules, reported under `questions[i].`."""
    assert req.questions is not None
    errors = [_error(name, "conflicts_with_questions",
                     f"a request has either the single-question fields or `questions`, never "
                     f"both: move {name} into each question, or drop `questions`.")
              for name in SINGLE_QUESTION_FIELDS if name in req.model_fields_set]
    if req.quorum is not None:
        errors.append(_error("quorum", "not_allowed",
                             "a quorum counts votes on one question's options: leave quorum "
                             "out when sending several questions."))
    first_seen: dict[str, int] = {}
    for index, question in enumerate(req.questions):
        at = f"questions[{index}]."
        if question.id in first_seen:
            errors.append(_error(at + "id", "duplicate",
                                 f"question id '{question.id}' is already used by "
                                 f"questions[{first_seen[question.id]}]: give every question "
                                 "its own id."))
        first_seen.setdefault(question.id, index)
        if not question.prompt.strip():
            errors.append(_error(at + "prompt", "blank",
                                 "the question is only whitespace: write what you ask."))
        errors += [error.model_copy(update={"field": at + error.field})
                   for error in _check_question(
                       question, deadline_submits=req.on_timeout == "submit_defaults",
                       needs_defaults=False)]
    if req.on_timeout == "submit_defaults" and not any(q.default_selection_ids
                                                       for q in req.questions):
        errors.append(_error(
            "on_timeout", "needs_defaults",
            "on_timeout 'submit_defaults' needs default_selection_ids on at least one "
            "question (the others time out): add them, or use on_timeout 'timeout'."))
    return errors


_OPTIONS_READ = frozenset({"selection_mode", "options"})
_BOUNDS_READ = _OPTIONS_READ | {"min_selections", "max_selections"}
_DEFAULTS_READ = _BOUNDS_READ | {"default_selection_ids", "on_timeout"}
_FLAGS_READ = frozenset({"selection_mode", "placeholder"})
"""What each group of a question's rules reads (of a single question's request fields)."""


def _check_question(question: Question, deadline_submits: bool, needs_defaults: bool,
                    unsure: frozenset[str] = NONE) -> list[FieldError]:
    """One question's rules, with fields named as inside the question. `deadline_submits`:
    the deadline may submit its defaults, which must then be a valid answer; with
    `needs_defaults` it must have some (one question; of several, those without time out).
    A group of rules reading a field in `unsure` stays quiet."""
    errors = [] if unsure & _OPTIONS_READ else _check_options(question)
    errors += [] if unsure & _BOUNDS_READ else _check_bounds(question)
    errors += [] if unsure & _DEFAULTS_READ else _check_defaults(question, deadline_submits,
                                                                 needs_defaults)
    return errors + ([] if unsure & _FLAGS_READ else _check_mode_flags(question))


def _check_options(req: Question) -> list[FieldError]:
    errors = []
    mode = req.selection_mode
    if mode == "text_input" and req.options:
        errors.append(_error(
            "options", "not_allowed",
            "text_input takes no options: remove them, or use selection_mode 'hybrid' "
            "for options plus free text.",
        ))
    if mode != "text_input" and not req.options:
        errors.append(_error(
            "options", "required",
            f"selection_mode '{mode}' needs at least one option: add options, or use "
            "selection_mode 'text_input' for a free-text answer.",
        ))
    first_seen: dict[str, int] = {}
    for index, option in enumerate(req.options):
        if option.id in first_seen:
            errors.append(_error(
                f"options[{index}].id", "duplicate",
                f"option id '{option.id}' is already used by options[{first_seen[option.id]}]: "
                "give every option its own id.",
            ))
        first_seen.setdefault(option.id, index)
        if not option.label.strip():
            errors.append(_error(
                f"options[{index}].label", "blank",
                f"options[{index}].label is only whitespace: write the text the human picks.",
            ))
    return errors


def _check_bounds(req: Question) -> list[FieldError]:
    errors = []
    n, low, high, mode = len(req.options), req.min_selections, req.max_selections, req.selection_mode
    if mode == "text_input":
        for name, value in (("min_selections", low), ("max_selections", high)):
            if value:
                errors.append(_error(
                    name, "not_allowed", f"text_input has no options: remove {name}."
                ))
        return errors
    if mode == "single":
        if high is not None and high != 1:
            errors.append(_error(
                "max_selections", "out_of_range",
                f"single allows exactly one pick, so max_selections must be 1 (got {high}): "
                "remove it, or use selection_mode 'multi'.",
            ))
        if low is not None and low > 1:
            errors.append(_error(
                "min_selections", "out_of_range",
                f"single allows one pick, so min_selections must be 0 or 1 (got {low}).",
            ))
        return errors
    if high is not None and n and high > n:
        errors.append(_error(
            "max_selections", "out_of_range",
            f"max_selections is {high} but there are only {n} options: lower it to {n} or less.",
        ))
    if high is not None and high == 0:
        errors.append(_error(
            "max_selections", "out_of_range",
            "max_selections must be at least 1, or the human could pick nothing.",
        ))
    if low is not None and high is not None and low > high:
        errors.append(_error(
            "min_selections", "inverted",
            f"min_selections ({low}) is greater than max_selections ({high}): swap or fix them.",
        ))
    elif low is not None and n and low > n:
        errors.append(_error(
            "min_selections", "out_of_range",
            f"min_selections is {low} but there are only {n} options: lower it.",
        ))
    elif low is not None and high is None and n and low > max_for(req):
        errors.append(_error(
            "min_selections", "inverted",
            f"min_selections ({low}) is greater than the default max_selections ({max_for(req)}) "
            f"of '{mode}': set max_selections, or lower min_selections.",
        ))
    return errors


def _check_defaults(req: Question, deadline_submits: bool, needs_defaults: bool) -> list[FieldError]:
    errors = []
    ids = {option.id for option in req.options}
    seen: set[str] = set()
    for index, default_id in enumerate(req.default_selection_ids):
        where = f"default_selection_ids[{index}]"
        if default_id not in ids:
            errors.append(_error(
                where, "unknown_option",
                f"'{default_id}' is not an option id: use one of the ids in options"
                + (" (text_input has none)." if req.selection_mode == "text_input" else "."),
            ))
        elif default_id in seen:
            errors.append(_error(where, "duplicate", f"'{default_id}' is listed twice: keep one."))
        seen.add(default_id)
    high = max_for(req)
    if req.selection_mode != "text_input" and len(seen) > high:
        errors.append(_error(
            "default_selection_ids", "too_many",
            f"{len(seen)} defaults but at most {high} may be selected: "
            "remove some defaults or raise max_selections.",
        ))
    low = min_for(req)
    if needs_defaults and not req.default_selection_ids:
        errors.append(_error(
            "on_timeout", "needs_defaults",
            "on_timeout 'submit_defaults' needs default_selection_ids: add them, or use "
            "on_timeout 'timeout' so the agent learns nobody answered.",
        ))
    elif deadline_submits and seen and len(seen) < low:
        errors.append(_error(
            "default_selection_ids", "too_few",
            f"on_timeout 'submit_defaults' would submit {len(seen)} defaults but "
            f"min_selections is {low}: add defaults or lower min_selections.",
        ))
    return errors


def _check_mode_flags(req: Question) -> list[FieldError]:
    errors = []
    mode = req.selection_mode
    if req.placeholder is not None and mode not in ("text_input", "hybrid"):
        errors.append(_error(
            "placeholder", "not_allowed",
            f"placeholder only applies to text_input and hybrid, not '{mode}': remove it.",
        ))
    return errors
