"""One question's rules: its options, its selection bounds, its defaults and what its mode
allows, with fields named as inside the question. `validation.py` runs them on a single
question's request and on each of several questions (naming those `questions[i].`).
"""

from __future__ import annotations

from choice.contract import FieldError, Question
from choice.contract.knobs import max_for, min_for

NONE: frozenset[str] = frozenset()


def rule_error(field: str, code: str, message: str) -> FieldError:
    return FieldError(field=field, code=code, message=message)


OPTIONS_READ = frozenset({"selection_mode", "options"})
BOUNDS_READ = OPTIONS_READ | {"min_selections", "max_selections"}
DEFAULTS_READ = BOUNDS_READ | {"default_selection_ids", "on_timeout"}
FLAGS_READ = frozenset({"selection_mode", "placeholder"})
"""What each group of a question's rules reads (of a single question's request fields)."""


def check_question(question: Question, deadline_submits: bool, needs_defaults: bool,
                   unsure: frozenset[str] = NONE) -> list[FieldError]:
    """One question's rules, with fields named as inside the question. `deadline_submits`:
    the deadline may submit its defaults, which must then be a valid answer; with
    `needs_defaults` it must have some (one question; of several, those without time out).
    A group of rules reading a field in `unsure` stays quiet."""
    errors = [] if unsure & OPTIONS_READ else _check_options(question)
    errors += [] if unsure & BOUNDS_READ else _check_bounds(question)
    errors += [] if unsure & DEFAULTS_READ else _check_defaults(question, deadline_submits,
                                                                 needs_defaults)
    return errors + ([] if unsure & FLAGS_READ else _check_mode_flags(question))


def _check_options(req: Question) -> list[FieldError]:
    errors = []
    mode = req.selection_mode
    if mode == "text_input" and req.options:
        errors.append(rule_error(
            "options", "not_allowed",
            "text_input takes no options: remove them, or use selection_mode 'hybrid' "
            "for options plus free text.",
        ))
    if mode != "text_input" and not req.options:
        errors.append(rule_error(
            "options", "required",
            f"selection_mode '{mode}' needs at least one option: add options, or use "
            "selection_mode 'text_input' for a free-text answer.",
        ))
    first_seen: dict[str, int] = {}
    for index, option in enumerate(req.options):
        if option.id in first_seen:
            errors.append(rule_error(
                f"options[{index}].id", "duplicate",
                f"option id '{option.id}' is already used by options[{first_seen[option.id]}]: "
                "give every option its own id.",
            ))
        first_seen.setdefault(option.id, index)
        if not option.label.strip():
            errors.append(rule_error(
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
                errors.append(rule_error(
                    name, "not_allowed", f"text_input has no options: remove {name}."
                ))
        return errors
    if mode == "single":
        if high is not None and high != 1:
            errors.append(rule_error(
                "max_selections", "out_of_range",
                f"single allows exactly one pick, so max_selections must be 1 (got {high}): "
                "remove it, or use selection_mode 'multi'.",
            ))
        if low is not None and low > 1:
            errors.append(rule_error(
                "min_selections", "out_of_range",
                f"single allows one pick, so min_selections must be 0 or 1 (got {low}).",
            ))
        return errors
    if high is not None and n and high > n:
        errors.append(rule_error(
            "max_selections", "out_of_range",
            f"max_selections is {high} but there are only {n} options: lower it to {n} or less.",
        ))
    if high is not None and high == 0:
        errors.append(rule_error(
            "max_selections", "out_of_range",
            "max_selections must be at least 1, or the human could pick nothing.",
        ))
    if low is not None and high is not None and low > high:
        errors.append(rule_error(
            "min_selections", "inverted",
            f"min_selections ({low}) is greater than max_selections ({high}): swap or fix them.",
        ))
    elif low is not None and n and low > n:
        errors.append(rule_error(
            "min_selections", "out_of_range",
            f"min_selections is {low} but there are only {n} options: lower it.",
        ))
    elif low is not None and high is None and n and low > max_for(req):
        errors.append(rule_error(
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
            errors.append(rule_error(
                where, "unknown_option",
                f"'{default_id}' is not an option id: use one of the ids in options"
                + (" (text_input has none)." if req.selection_mode == "text_input" else "."),
            ))
        elif default_id in seen:
            errors.append(rule_error(where, "duplicate", f"'{default_id}' is listed twice: keep one."))
        seen.add(default_id)
    high = max_for(req)
    if req.selection_mode != "text_input" and len(seen) > high:
        errors.append(rule_error(
            "default_selection_ids", "too_many",
            f"{len(seen)} defaults but at most {high} may be selected: "
            "remove some defaults or raise max_selections.",
        ))
    low = min_for(req)
    if needs_defaults and not req.default_selection_ids:
        errors.append(rule_error(
            "on_timeout", "needs_defaults",
            "on_timeout 'submit_defaults' needs default_selection_ids: add them, or use "
            "on_timeout 'timeout' so the agent learns nobody answered.",
        ))
    elif deadline_submits and seen and len(seen) < low:
        errors.append(rule_error(
            "default_selection_ids", "too_few",
            f"on_timeout 'submit_defaults' would submit {len(seen)} defaults but "
            f"min_selections is {low}: add defaults or lower min_selections.",
        ))
    return errors


def _check_mode_flags(req: Question) -> list[FieldError]:
    errors = []
    mode = req.selection_mode
    if req.placeholder is not None and mode not in ("text_input", "hybrid"):
        errors.append(rule_error(
            "placeholder", "not_allowed",
            f"placeholder only applies to text_input and hybrid, not '{mode}': remove it.",
        ))
    return errors
