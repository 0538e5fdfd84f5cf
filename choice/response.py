"""Results: a human's submission, a cancel or a timeout -> the normalized `ChoiceResult`.

Owns the result table of DESIGN.md: selected ids in option order, min/max enforced again,
untouched defaults returned as defaults, confirmation, annotations, and the one-line
summary. Pure functions: the service decides when they run and stores what they return.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from choice.bidi import closed_bidi
from choice.clock import iso
from choice.contract import (
    AnsweredVia,
    ChoiceRequest,
    ChoiceResult,
    DecidedBy,
    FieldError,
    Interface,
    OptionVotes,
    SelectedOption,
    Status,
    Submission,
)
from choice.field_errors import InvalidInput


@dataclass(frozen=True)
class Completion:
    """When and where an interaction ended; the same for every kind of ending."""

    interaction_id: str
    interface: Interface
    created_at: float
    completed_at: float
    placeholder_shown: bool
    translate: Callable[[str], str] = str
    via: AnsweredVia | None = None
    """How the answer arrived (None: the deadline ended it)."""
    participants: tuple[str, ...] = ()
    """A widened question's teammates, and their votes: every result of it carries them."""
    votes: tuple[OptionVotes, ...] = ()

    @property
    def created_at_iso(self) -> str:
        return iso(self.created_at)

    @property
    def completed_at_iso(self) -> str:
        return iso(self.completed_at)

    def stamped(self, result: ChoiceResult, decided_by: DecidedBy | None,
                request: ChoiceRequest) -> ChoiceResult:
        """The result with who decided, how it arrived, the team's part, and what the
        request's shape promised its caller (`shape_fields`)."""
        result.answered_via = self.via
        result.decided_by = decided_by
        result.participants = list(self.participants)
        result.votes = list(self.votes)
        return shape_fields(request, result)


def shape_fields(request: ChoiceRequest, result: ChoiceResult) -> ChoiceResult:
    """A `hitl_request`'s explicit outcome (seed 002): `confirmed` with the option only
    when a person picked one (and confirmed, if asked); a cancel, a timeout, or defaults
    submitted by the deadline are `canceled`, with no option."""
    if request.shape != "hitl_request":
        return result
    confirmed = (result.action_status == "selected" and bool(result.selected_ids)
                 and result.submission in ("manual", "auto") and result.confirmed is not False)
    result.outcome = "confirmed" if confirmed else "canceled"
    result.selected_option = SelectedOption(id=result.selected_ids[0],
                                            label=result.selected_labels[0]) if confirmed else None
    return result


def _err(field: str, code: str, message: str) -> FieldError:
    return FieldError(field=field, code=code, message=message)


def _text(value: str | None) -> str | None:
    """An empty or whitespace-only answer or note is no answer or note."""
    return value if value is not None and value.strip() else None


def normalize_submission(
    request: ChoiceRequest, submission: Submission, done: Completion
) -> tuple[ChoiceResult, Status]:
    """Check a submission against the request it answers; raises `InvalidInput`."""
    option_order = [option.id for option in request.options]
    errors: list[FieldError] = []
    touched = submission.selected_ids is not None
    chosen = submission.selected_ids if touched else request.default_selection_ids
    for index, option_id in enumerate(chosen or []):
        if option_id not in option_order:
            errors.append(_err(
                f"selected_ids[{index}]", "unknown_option",
                f"'{option_id}' is not an option of this interaction: use one of "
                f"{', '.join(option_order[:10]) or '(none: answer with custom_input)'}.",
            ))
    selected = [oid for oid in option_order if oid in set(chosen or [])]
    custom = _text(submission.custom_input)
    errors += _check_counts(request, selected, custom, submission)
    notes = {k: v for k, v in submission.option_annotations.items() if _text(v)}
    global_note = _text(submission.global_annotation)
    errors += _check_notes(request, notes, global_note, option_order)
    if request.require_confirmation and submission.confirmed is not True:
        errors.append(_err(
            "confirmed", "confirmation_required",
            "this interaction needs an explicit confirmation: send confirmed: true once the "
            "human confirmed, or cancel it instead.",
        ))
    if submission.submission == "auto" and not request.single_submit_mode:
        errors.append(_err(
            "submission", "not_allowed",
            "'auto' is only for interactions in single_submit_mode: send 'manual'.",
        ))
    if errors:
        raise InvalidInput(errors)
    defaults = in_option_order(request, request.default_selection_ids)
    defaults_used = bool(selected) and selected == defaults
    result = ChoiceResult(
        interaction_id=done.interaction_id,
        action_status="custom_input" if custom is not None and not selected else "selected",
        selected_ids=selected,
        selected_labels=labels_of(request, selected),
        custom_input=custom,
        option_annotations=notes,
        global_annotation=global_note,
        confirmed=True if request.require_confirmation else None,
        submission=submission.submission,
        defaults_used=defaults_used,
        placeholder_shown=done.placeholder_shown,
        interface=done.interface,
        created_at=iso(done.created_at),
        completed_at=iso(done.completed_at),
        summary=_answer_summary(request, selected, custom, notes, global_note, done.translate),
    )
    return result, "auto_submitted" if submission.submission == "auto" else "submitted"


def _check_counts(
    request: ChoiceRequest, selected: list[str], custom: str | None, submission: Submission
) -> list[FieldError]:
    mode, count = request.selection_mode, len(selected)
    low, high = request.min_selections or 0, request.max_selections or 0
    if mode == "text_input":
        errors = []
        if submission.selected_ids:
            errors.append(_err("selected_ids", "not_allowed",
                               "this interaction takes a typed answer only: send custom_input."))
        if custom is None:
            errors.append(_err("custom_input", "required",
                               "this interaction needs a typed answer: send custom_input text."))
        return errors
    if mode != "hybrid" and submission.custom_input is not None and custom is not None:
        if request.shape == "hitl_request":
            return [_err("custom_input", "free_text_not_allowed",
                         "this hitl_request is options-only: send the picked option, "
                         "without custom_input.")]
        return [_err("custom_input", "not_allowed",
                     f"selection_mode '{mode}' takes options only: remove custom_input.")]
    if mode == "hybrid" and custom is not None:
        low = 0  # a typed answer stands in for picking
    elif mode == "hybrid":
        low = max(low, 1)
    if count > high:
        return [_err("selected_ids", "too_many",
                     f"{count} options selected but at most {high} are allowed: deselect some.")]
    if count < low:
        need = f"at least {low} option{'s' if low > 1 else ''}"
        hint = " or type an answer in custom_input" if mode == "hybrid" else ""
        return [_err("selected_ids", "too_few", f"{count} selected: choose {need}{hint}.")]
    return []


def _check_notes(
    request: ChoiceRequest, notes: dict[str, str], global_note: str | None, option_ids: list[str]
) -> list[FieldError]:
    errors = []
    for option_id in notes:
        if option_id not in option_ids:
            errors.append(_err(f"option_annotations.{option_id}", "unknown_option",
                               f"'{option_id}' is not an option id: attach notes to options "
                               "that exist, or use global_annotation."))
    if request.shape == "hitl_request" and (notes or global_note):
        errors.append(_err("option_annotations" if notes else "global_annotation",
                           "free_text_not_allowed",
                           "this hitl_request is options-only: send the picked option, "
                           "without notes."))
    elif not request.allow_annotations and (notes or global_note):
        errors.append(_err("option_annotations" if notes else "global_annotation", "annotations_off",
                           "notes are turned off for this interaction: remove them."))
    return errors


def in_option_order(request: ChoiceRequest, ids: list[str]) -> list[str]:
    wanted = set(ids)
    return [option.id for option in request.options if option.id in wanted]


def labels_of(request: ChoiceRequest, ids: list[str]) -> list[str]:
    by_id = {option.id: option.label for option in request.options}
    return [by_id[i] for i in ids]


def cancelled_result(
    request: ChoiceRequest, done: Completion, note: str | None, *, by_timeout: bool = False
) -> ChoiceResult:
    _ = done.translate
    if by_timeout:
        summary = _("No answer before the deadline, and the request asked to cancel on timeout: "
                    "the human did not choose. Do not ask again in a loop.")
    else:
        summary = _("The human cancelled: do not go ahead with any option, and do not ask "
                    "again in a loop.")
    return _ending(request, done, "cancelled", _text(note), summary)


def timeout_result(request: ChoiceRequest, done: Completion) -> ChoiceResult:
    _ = done.translate
    summary = _("No answer before the deadline: the human did not choose. Do not ask again in "
                "a loop; go on without this decision or stop and report.")
    return _ending(request, done, "timeout", None, summary)


def timeout_defaults_result(request: ChoiceRequest, done: Completion) -> ChoiceResult:
    """`on_timeout: submit_defaults`: the defaults, marked as nobody's choice."""
    selected = in_option_order(request, request.default_selection_ids)
    _ = done.translate
    summary = _("No answer before the deadline; the defaults were submitted: {choices}.").format(
        choices=quoted_choices(request, selected))
    return ChoiceResult(
        interaction_id=done.interaction_id, action_status="selected", selected_ids=selected,
        selected_labels=labels_of(request, selected), submission="timeout_default",
        defaults_used=True, confirmed=False if request.require_confirmation else None,
        placeholder_shown=done.placeholder_shown, interface=done.interface,
        created_at=iso(done.created_at), completed_at=iso(done.completed_at), summary=summary,
    )


def _ending(
    request: ChoiceRequest, done: Completion, status: str, note: str | None, summary: str
) -> ChoiceResult:
    if note:
        _ = done.translate
        summary += " " + _("Their note: {note}").format(note=clip(note))
    return ChoiceResult(
        interaction_id=done.interaction_id,
        action_status="cancelled" if status == "cancelled" else "timeout",
        global_annotation=note, confirmed=False if request.require_confirmation else None,
        placeholder_shown=done.placeholder_shown, interface=done.interface,
        created_at=iso(done.created_at), completed_at=iso(done.completed_at), summary=summary,
    )


def clip(text: str, limit: int = 120) -> str:
    """One line, bounded: summaries are read by models and by people scanning a log."""
    flat = re.sub(r"\s+", " ", text).strip()
    clipped = flat if len(flat) <= limit else flat[: limit - 1] + "…"
    return '"' + closed_bidi(clipped) + '"'  # an open RTL override must not mirror the rest


def quoted_choices(request: ChoiceRequest, ids: list[str]) -> str:
    return ", ".join(f"{clip(label, 60)} ({oid})" for oid, label in
                     zip(ids, labels_of(request, ids), strict=True))


def _answer_summary(
    request: ChoiceRequest, selected: list[str], custom: str | None,
    notes: dict[str, str], global_note: str | None, _: Callable[[str], str],
) -> str:
    parts = []
    if selected:
        parts.append(_("Selected {choices}.").format(choices=quoted_choices(request, selected)))
    if custom:
        parts.append(_("Typed answer: {text}.").format(text=clip(custom)))
    for option_id, note in notes.items():
        parts.append(_("Note on {option}: {note}.").format(option=option_id, note=clip(note, 80)))
    if global_note:
        parts.append(_("Note: {note}.").format(note=clip(global_note, 80)))
    return " ".join(parts) or _("Nothing selected.")
