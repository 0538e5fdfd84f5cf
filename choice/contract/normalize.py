"""The one path to a result: a person's answer, an owner's decision after a discussion, the
team's quorum, a cancel and a deadline all become the normalized `ChoiceResult` here, under
the question's own rules.

Owns the result's rules (docs/reference/contract.md#the-result): selected ids in option
order, min/max enforced again, untouched defaults returned as defaults, confirmation,
annotations, who decided and where a widened decision came from, and what each
compatibility shape promises its caller. Pure functions: the core decides when they run
and stores what they return.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec import Struct

from choice.contract.answer_rules import answers_of, checked_answer, problem, written
from choice.contract.ask_user_question import answers_by_question
from choice.contract.attachments import SentFile
from choice.contract.clock import iso
from choice.contract.field_errors import InvalidInput
from choice.contract.request import ChoiceRequest
from choice.contract.result import (
    ChoiceResult,
    OptionVotes,
    QuestionAnswer,
    SelectedOption,
    SummaryJson,
)
from choice.contract.submission import Answer, Submission
from choice.contract.summaries import (
    clip,
    decided_sentence,
    in_option_order,
    labels_of,
    summary_of,
    with_note,
)
from choice.contract.vocabulary import (
    AnsweredVia,
    DecidedBy,
    Interface,
    Status,
    SubmissionKind,
    SummarySource,
)


class Completion(Struct, frozen=True):
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
    files: tuple[SentFile, ...] = ()
    """The files the person attached to the draft: they go with an answer, and nowhere else."""
    file_url: Callable[[str], str] = str
    """The URL an attachment id is fetched from."""
    member: str | None = None
    """Team mode: the email of the member who acts as the owner (the question's), if a
    person ends it."""

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
        result.decided_by_member = self.member if decided_by == "owner" else None
        result.participants = list(self.participants)
        result.votes = list(self.votes)
        return shape_fields(request, result)


def shape_fields(request: ChoiceRequest, result: ChoiceResult) -> ChoiceResult:
    """What a compatibility shape's caller reads. An `ask_user_question`'s answers by
    question text. A `hitl_request`'s explicit outcome: `confirmed` with the
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


def normalize_submission(
    request: ChoiceRequest, submission: Submission, done: Completion
) -> tuple[ChoiceResult, Status]:
    """Check a submission against the request it answers; raises `InvalidInput` with every
    problem, each answer's named after its question (`answers.<id>.selected_ids`)."""
    answers, errors = answers_of(request, submission)
    checked: dict[str, QuestionAnswer] = {}
    for question in request.asked():
        at = f"answers.{question.id}." if request.several else ""
        answer, problems = checked_answer(request, question, answers.get(question.id, Answer()))
        errors += [found.model_copy(update={"field": at + found.field}) for found in problems]
        checked[question.id] = answer
    global_note = written(submission.global_annotation)
    if global_note and (request.shape == "hitl_request" or not request.allow_annotations):
        errors.append(problem("global_annotation", "free_text_not_allowed" if request.shape ==
                           "hitl_request" else "annotations_off",
                           "this hitl_request is options-only: send the picked option, without "
                           "notes." if request.shape == "hitl_request" else
                           "notes are turned off for this interaction: remove them."))
    if request.require_confirmation and submission.confirmed is not True:
        errors.append(problem(
            "confirmed", "confirmation_required",
            "this interaction needs an explicit confirmation: send confirmed: true once the "
            "human confirmed, or cancel it instead.",
        ))
    if submission.submission == "auto" and not request.single_submit_mode:
        errors.append(problem(
            "submission", "not_allowed",
            "'auto' is only for interactions in single_submit_mode: send 'manual'.",
        ))
    if errors:
        raise InvalidInput(errors)
    result = _result(request, checked, done, global_note,
                     confirmed=True if request.require_confirmation else None,
                     submission=submission.submission)
    return result, "auto_submitted" if submission.submission == "auto" else "submitted"



class Provenance(Struct, frozen=True):
    """Where a decision on a widened (or deferred) question came from (see
    docs/guides/write-back.md): the discussion's summary as recorded (`summary_json.text`),
    its source, and the owner's reason. A quorum's summary says who voted for what."""

    source: SummarySource
    summary: str = ""
    rationale: str | None = None
    note: str | None = None
    """The owner's words that the answer's own fields do not hold (on an options-only
    question, more than the chosen option's label): the result's `global_annotation`."""

    @property
    def decided_by(self) -> DecidedBy:
        return "quorum" if self.source == "quorum" else "owner"


def normalize_decision(request: ChoiceRequest, submission: Submission, done: Completion,
                       provenance: Provenance) -> ChoiceResult:
    """An owner's decision on a widened or deferred question, or the team's quorum: the
    very checks and result of a person's answer (`normalize_submission`), plus where it
    came from and a summary that says who decided. Always `submitted`. The owner's `note`
    is kept whatever the request's rules on notes: they are the decision's words, not a
    participant's annotation."""
    result, _status = normalize_submission(request, submission, done)
    if provenance.note:
        result.global_annotation = provenance.note
        result.summary = with_note(request, result.summary, provenance.note, done.translate)
    result.summary_json = SummaryJson(text=provenance.summary, source=provenance.source)
    result.rationale = provenance.rationale
    answer = provenance.summary if provenance.source == "quorum" else result.summary
    result.summary = decided_sentence(answer, provenance.source, len(done.participants),
                                      done.translate)
    return result

def _result(request: ChoiceRequest, answers: dict[str, QuestionAnswer], done: Completion,
            global_note: str | None, *, confirmed: bool | None,
            submission: SubmissionKind) -> ChoiceResult:
    """The result for these answers: one question's fields at the top, or `answers`."""
    by_deadline = submission == "timeout_default"
    questions = request.asked()
    summary = summary_of(request, answers, done.translate, global_note, by_deadline)
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
    return _ending(request, done, "cancelled", written(note), summary)


def withdrawn_result(request: ChoiceRequest, done: Completion, reason: str) -> ChoiceResult:
    """The agent took its question back: nobody chose (a cancel, by the agent)."""
    _ = done.translate
    result = _ending(request, done, "cancelled", None, _(
        "You withdrew this question; nobody chose. Your reason: {reason}").format(
        reason=clip(reason)))
    return result.model_copy(update={"withdrawn_reason": reason})


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
