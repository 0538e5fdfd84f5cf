"""An answer checked against its question: the rules a submission must keep (known option
ids, the count within min/max, free text only where the question takes it, notes only where
they are allowed). Every problem is reported, each named as inside the answer; the caller
prefixes several questions' fields (`answers.<id>.`).

Pure: `normalize.py` calls these and builds the result from what they return.
"""

from __future__ import annotations

from choice.contract.errors import FieldError
from choice.contract.request import ChoiceRequest, Question
from choice.contract.result import QuestionAnswer
from choice.contract.submission import Answer, Submission
from choice.contract.summaries import labels_of
from choice.contract.vocabulary import ONLY_QUESTION_ID


def problem(field: str, code: str, message: str) -> FieldError:
    return FieldError(field=field, code=code, message=message)


def written(value: str | None) -> str | None:
    """An empty or whitespace-only answer or note is no answer or note."""
    return value if value is not None and value.strip() else None


def answers_of(request: ChoiceRequest,
                submission: Submission) -> tuple[dict[str, Answer], list[FieldError]]:
    """Each question's answer: the submission's own fields for one question, `answers`
    for several (never both; an empty own field, as a generic client sends, is no answer)."""
    own = {name for name in ("selected_ids", "custom_input", "option_annotations")
           if name in submission.model_fields_set and getattr(submission, name)}
    if not request.several:
        if submission.answers is not None:
            return {ONLY_QUESTION_ID: submission}, [problem("answers", "not_allowed",
                             "this interaction asks one question: send selected_ids / "
                             "custom_input / option_annotations, without answers.")]
        return {ONLY_QUESTION_ID: submission}, []
    errors = [problem(name, "not_allowed",
                   f"this interaction asks several questions: put {name} in "
                   "answers.<question id> instead.") for name in sorted(own)]
    asked = [question.id for question in request.asked()]
    for question_id in submission.answers or {}:
        if question_id not in asked:
            errors.append(problem(f"answers.{question_id}", "unknown_question",
                               f"'{question_id}' is not a question of this interaction: "
                               f"answer {', '.join(asked)}."))
    return dict(submission.answers or {}), errors


def checked_answer(request: ChoiceRequest, question: Question,
                    answer: Answer) -> tuple[QuestionAnswer, list[FieldError]]:
    """One answer against its question's rules (fields named as inside the answer)."""
    option_order = [option.id for option in question.options]
    errors: list[FieldError] = []
    touched = answer.selected_ids is not None
    chosen = answer.selected_ids if touched else question.default_selection_ids
    for index, option_id in enumerate(chosen or []):
        if option_id not in option_order:
            errors.append(problem(
                f"selected_ids[{index}]", "unknown_option",
                f"'{option_id}' is not an option of this question: use one of "
                f"{', '.join(option_order[:10]) or '(none: answer with custom_input)'}.",
            ))
    selected = [oid for oid in option_order if oid in set(chosen or [])]
    custom = written(answer.custom_input)
    # Count what was picked, known or not: an unknown id is a pick with a wrong id, so the
    # count rules say only what stays wrong once the ids are fixed (never "0 selected").
    errors += _check_counts(request, question, list(dict.fromkeys(chosen or [])), custom, answer)
    notes = {k: v for k, v in answer.option_annotations.items() if written(v)}
    errors += _check_notes(request, question, notes, option_order)
    return QuestionAnswer(
        selected_ids=selected, selected_labels=labels_of(question, selected), custom_input=custom,
        option_annotations=notes), errors


def _check_counts(
    request: ChoiceRequest, question: Question, selected: list[str], custom: str | None,
    answer: Answer,
) -> list[FieldError]:
    mode, count = question.selection_mode, len(selected)
    low, high = question.min_selections or 0, question.max_selections or 0
    if mode == "text_input":
        errors = []
        if answer.selected_ids:
            errors.append(problem("selected_ids", "not_allowed",
                               "this question takes a typed answer only: send custom_input."))
        if custom is None:
            errors.append(problem("custom_input", "required",
                               "this question needs a typed answer: send custom_input text."))
        return errors
    if mode != "hybrid" and answer.custom_input is not None and custom is not None:
        if request.shape == "hitl_request":
            return [problem("custom_input", "free_text_not_allowed",
                         "this hitl_request is options-only: send the picked option, "
                         "without custom_input.")]
        return [problem("custom_input", "not_allowed",
                     f"selection_mode '{mode}' takes options only: remove custom_input.")]
    if mode == "hybrid" and custom is not None:
        low = 0  # a typed answer stands in for picking
    elif mode == "hybrid":
        low = max(low, 1)
    if count > high:
        return [problem("selected_ids", "too_many",
                     f"{count} options selected but at most {high} are allowed: deselect some.")]
    if count < low:
        need = f"at least {low} option{'s' if low > 1 else ''}"
        hint = " or type an answer in custom_input" if mode == "hybrid" else ""
        return [problem("selected_ids", "too_few", f"{count} selected: choose {need}{hint}.")]
    return []


def _check_notes(
    request: ChoiceRequest, question: Question, notes: dict[str, str], option_ids: list[str]
) -> list[FieldError]:
    errors = []
    for option_id in notes:
        if option_id not in option_ids:
            errors.append(problem(f"option_annotations.{option_id}", "unknown_option",
                               f"'{option_id}' is not an option id: attach notes to options "
                               "that exist, or use global_annotation."))
    if request.shape == "hitl_request" and notes:
        errors.append(problem("option_annotations", "free_text_not_allowed",
                           "this hitl_request is options-only: send the picked option, "
                           "without notes."))
    elif not question.allow_annotations and notes:
        errors.append(problem("option_annotations", "annotations_off",
                           "notes are turned off for this question: remove them."))
    return errors
