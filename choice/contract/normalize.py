"""Results: a human's submission, a cancel or a timeout -> the normalized `ChoiceResult`.

Owns the result table of DESIGN.md: selected ids in option order, min/max enforced again,
untouched defaults returned as defaults, confirmation, annotations, and the one-line
summary. Pure functions: the service decides when they run and stores what they return.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from choice.contract import (
    ONLY_QUESTION_ID,
    Answer,
    AnsweredVia,
    ChoiceRequest,
    ChoiceResult,
    DecidedBy,
    FieldError,
    Interface,
    OptionVotes,
    Question,
    QuestionAnswer,
    SelectedOption,
    Status,
    Submission,
    SubmissionKind,
)
from choice.contract.ask_user_question import answers_by_question
from choice.contract.bidi import closed_bidi
from choice.contract.clock import iso
from choice.contract.field_errors import InvalidInput


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
    """What a compatibility shape's caller reads. An `ask_user_question`'s answers by
    question text. A `hitl_request`'s explicit outcome (seed 002): `confirmed` with the
    option only when a person picked one (and confirmed, if asked); a cancel, a timeout, or
    defaults submitted by the deadline are `canceled`, with no option."""
    if request.shape == "ask_user_question" and result.answers is not None:
        result.answers_by_question = answers_by_question(request, result)
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
    """Check a submission against the request it answers; raises `InvalidInput` with every
    problem, each answer's named after its question (`answers.<id>.selected_ids`)."""
    answers, errors = _answers_of(request, submission)
    checked: dict[str, QuestionAnswer] = {}
    for question in request.asked():
        at = f"answers.{question.id}." if request.several else ""
        answer, problems = _checked_answer(request, question, answers.get(question.id, Answer()))
        errors += [problem.model_copy(update={"field": at + problem.field})
                   for problem in problems]
        checked[question.id] = answer
    global_note = _text(submission.global_annotation)
    if global_note and (request.shape == "hitl_request" or not request.allow_annotations):
        errors.append(_err("global_annotation", "free_text_not_allowed" if request.shape ==
                           "hitl_request" else "annotations_off",
                           "this hitl_request is options-only: send the picked option, without "
                           "notes." if request.shape == "hitl_request" else
                           "notes are turned off for this interaction: remove them."))
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
    result = _result(request, checked, done, global_note,
                     confirmed=True if request.require_confirmation else None,
                     submission=submission.submission)
    return result, "auto_submitted" if submission.submission == "auto" else "submitted"


def _answers_of(request: ChoiceRequest,
                submission: Submission) -> tuple[dict[str, Answer], list[FieldError]]:
    """Each question's answer: the submission's own fields for one question, `answers`
    for several (never both; an empty own field, as a generic client sends, is no answer)."""
    own = {name for name in ("selected_ids", "custom_input", "option_annotations")
           if name in submission.model_fields_set and getattr(submission, name)}
    if not request.several:
        if submission.answers is not None:
            return {ONLY_QUESTION_ID: submission}, [_err("answers", "not_allowed",
                             "this interaction asks one question: send selected_ids / "
                             "custom_input / option_annotations, without answers.")]
        return {ONLY_QUESTION_ID: submission}, []
    errors = [_err(name, "not_allowed",
                   f"this interaction asks several questions: put {name} in "
                   "answers.<question id> instead.") for name in sorted(own)]
    asked = [question.id for question in request.asked()]
    for question_id in submission.answers or {}:
        if question_id not in asked:
            errors.append(_err(f"answers.{question_id}", "unknown_question",
                               f"'{question_id}' is not a question of this interaction: "
                               f"answer {', '.join(asked)}."))
    return dict(submission.answers or {}), errors


def _checked_answer(request: ChoiceRequest, question: Question,
                    answer: Answer) -> tuple[QuestionAnswer, list[FieldError]]:
    """One answer against its question's rules (fields named as inside the answer)."""
    option_order = [option.id for option in question.options]
    errors: list[FieldError] = []
    touched = answer.selected_ids is not None
    chosen = answer.selected_ids if touched else question.default_selection_ids
    for index, option_id in enumerate(chosen or []):
        if option_id not in option_order:
            errors.append(_err(
                f"selected_ids[{index}]", "unknown_option",
                f"'{option_id}' is not an option of this question: use one of "
                f"{', '.join(option_order[:10]) or '(none: answer with custom_input)'}.",
            ))
    selected = [oid for oid in option_order if oid in set(chosen or [])]
    custom = _text(answer.custom_input)
    # Count what was picked, known or not: an unknown id is a pick with a wrong id, so the
    # count rules say only what stays wrong once the ids are fixed (never "0 selected").
    errors += _check_counts(request, question, list(dict.fromkeys(chosen or [])), custom, answer)
    notes = {k: v for k, v in answer.option_annotations.items() if _text(v)}
    errors += _check_notes(request, question, notes, option_order)
    return QuestionAnswer(
        selected_ids=selected, selected_labels=labels_of(question, selected), custom_input=custom,
        option_annotations=notes), errors


def _result(request: ChoiceRequest, answers: dict[str, QuestionAnswer], done: Completion,
            global_note: str | None, *, confirmed: bool | None,
            submission: SubmissionKind) -> ChoiceResult:
    """The result for these answers: one question's fields at the top, or `answers`."""
    by_deadline = submission == "timeout_default"
    questions = request.asked()
    summary = _summary(request, answers, done.translate, global_note, by_deadline)
    only = answers[questions[0].id]
    defaults = [in_option_order(question, question.default_selection_ids) for question in questions]
    defaults_used = all(answer.selected_ids and answer.selected_ids == default
                        for answer, default in zip(answers.values(), defaults, strict=True))
    typed = all(answer.custom_input is not None and not answer.selected_ids
                for answer in answers.values())
    return ChoiceResult(
        interaction_id=done.interaction_id,
        action_status="custom_input" if typed else "selected",
        answers=answers if request.several else None,
        selected_ids=[] if request.several else only.selected_ids,
        selected_labels=[] if request.several else only.selected_labels,
        custom_input=None if request.several else only.custom_input,
        option_annotations={} if request.several else only.option_annotations,
        global_annotation=global_note, confirmed=confirmed, submission=submission,
        defaults_used=defaults_used or by_deadline, placeholder_shown=done.placeholder_shown,
        interface=done.interface, created_at=iso(done.created_at),
        completed_at=iso(done.completed_at), summary=summary,
    )


def _summary(request: ChoiceRequest, answers: dict[str, QuestionAnswer],
             _: Callable[[str], str], global_note: str | None, by_deadline: bool) -> str:
    """One line for one question; for several, a line per question under its header."""
    questions = request.asked()
    note = _("Note: {note}.").format(note=clip(global_note, 80)) if global_note else ""
    if not request.several:
        only = questions[0]
        if by_deadline:
            return _("No answer before the deadline; the defaults were submitted: "
                     "{choices}.").format(choices=quoted_choices(
                         only, answers[only.id].selected_ids))
        return " ".join(part for part in (_answer_line(only, answers[only.id], _), note) if part)
    lines = [f"{question.header or question.id}: {_answer_line(question, answers[question.id], _)}"
             for question in questions]
    if by_deadline:
        defaulted = [question.header or question.id for question in questions
                     if answers[question.id].state == "defaulted"]
        lines.insert(0, _("No answer before the deadline; the defaults were submitted for "
                          "{count} of {total} questions ({names}), the others were not "
                          "answered.").format(count=len(defaulted), total=len(questions),
                                              names=", ".join(defaulted)))
    return "\n".join([*lines, note] if note else lines)


def _answer_line(question: Question, answer: QuestionAnswer, _: Callable[[str], str]) -> str:
    if answer.state == "unanswered":
        return _("Not answered (no defaults).")
    parts = []
    if answer.selected_ids:
        parts.append(_("Selected {choices}.").format(
            choices=quoted_choices(question, answer.selected_ids)))
    if answer.custom_input:
        parts.append(_("Typed answer: {text}.").format(text=clip(answer.custom_input)))
    for option_id, text in answer.option_annotations.items():
        parts.append(_("Note on {option}: {note}.").format(option=option_id, note=clip(text, 80)))
    return " ".join(parts) or _("Nothing selected.")


def _check_counts(
    request: ChoiceRequest, question: Question, selected: list[str], custom: str | None,
    answer: Answer,
) -> list[FieldError]:
    mode, count = question.selection_mode, len(selected)
    low, high = question.min_selections or 0, question.max_selections or 0
    if mode == "text_input":
        errors = []
        if answer.selected_ids:
            errors.append(_err("selected_ids", "not_allowed",
                               "this question takes a typed answer only: send custom_input."))
        if custom is None:
            errors.append(_err("custom_input", "required",
                               "this question needs a typed answer: send custom_input text."))
        return errors
    if mode != "hybrid" and answer.custom_input is not None and custom is not None:
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
    request: ChoiceRequest, question: Question, notes: dict[str, str], option_ids: list[str]
) -> list[FieldError]:
    errors = []
    for option_id in notes:
        if option_id not in option_ids:
            errors.append(_err(f"option_annotations.{option_id}", "unknown_option",
                               f"'{option_id}' is not an option id: attach notes to options "
                               "that exist, or use global_annotation."))
    if request.shape == "hitl_request" and notes:
        errors.append(_err("option_annotations", "free_text_not_allowed",
                           "this hitl_request is options-only: send the picked option, "
                           "without notes."))
    elif not question.allow_annotations and notes:
        errors.append(_err("option_annotations", "annotations_off",
                           "notes are turned off for this question: remove them."))
    return errors


def in_option_order(question: Question | ChoiceRequest, ids: list[str]) -> list[str]:
    wanted = set(ids)
    return [option.id for option in question.options if option.id in wanted]


def labels_of(question: Question | ChoiceRequest, ids: list[str]) -> list[str]:
    by_id = {option.id: option.label for option in question.options}
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
    """`on_timeout: submit_defaults`: each question's defaults, marked as nobody's choice
    (of several questions, those without defaults come back `unanswered`)."""
    answers = {}
    for question in request.asked():
        selected = in_option_order(question, question.default_selection_ids)
        answers[question.id] = QuestionAnswer(
            selected_ids=selected, selected_labels=labels_of(question, selected),
            state="defaulted" if selected else "unanswered")
    return _result(request, answers, done, None,
                   confirmed=False if request.require_confirmation else None,
                   submission="timeout_default")


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


def quoted_choices(question: Question | ChoiceRequest, ids: list[str]) -> str:
    return ", ".join(f"{clip(label, 60)} ({oid})" for oid, label in
                     zip(ids, labels_of(question, ids), strict=True))
