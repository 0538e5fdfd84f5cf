"""An owner's decision on a widened or deferred question, in the contract's terms: the
resolve body becomes a `Submission` that the one normalisation checks under the question's
own rules (`choice.contract.normalize`), plus where it came from (`Provenance`).

- Free text alone decides only a question that takes free text (`text_input`, `hybrid`).
- On an options-only question the decision picks options within min/max; the owner's words
  are recorded as the discussion's summary (`summary_json.text`) and, unless they are just
  the chosen option's label, kept as the owner's note (`global_annotation`).
- Several questions resolve with `answers` for every one of them.
- The agent's candidate may propose options: a decision that keeps them (and its text)
  takes the candidate's summary (`discussion_extraction`).

Pure. Errors speak the resolve body's words (`final_answer`, not `custom_input`).
"""

from __future__ import annotations

from choice.contract import ChoiceRequest, FieldError, Submission, SummarySource
from choice.contract.field_errors import InvalidInput
from choice.decision.models import ResolveBody
from choice.decision.provenance import normalised, summary_source
from choice.store.records import Decision


def candidate_of(decision: Decision | None) -> str | None:
    """The agent's candidate answer for the current review, if one came."""
    if decision is None or decision.candidate_at is None:
        return None
    return decision.candidate_answer


def candidate_ids(decision: Decision | None) -> list[str]:
    """The options the agent's candidate picks (none before a candidate came)."""
    if candidate_of(decision) is None or decision is None \
            or not decision.candidate_selected_ids_json:
        return []
    return [str(option_id) for option_id in decision.candidate_selected_ids_json]


def takes_text(request: ChoiceRequest) -> bool:
    return not request.several and request.selection_mode in ("text_input", "hybrid")


def source_of(final: str, selected_ids: list[str], decision: Decision | None) -> SummarySource:
    """`manual` without a candidate; `owner_override` when the decision picks other options
    than the candidate did or changes its words materially (`provenance.py`), else
    `discussion_extraction`."""
    candidate, proposed = candidate_of(decision), candidate_ids(decision)
    if candidate is None:
        return "manual"
    if proposed and set(selected_ids) != set(proposed):
        return "owner_override"
    if proposed and not final:
        return "discussion_extraction"  # the candidate's options, taken as they were
    return summary_source(final, candidate)


def _error(field: str, code: str, message: str) -> InvalidInput:
    return InvalidInput([FieldError(field=field, code=code, message=message)])


def submission_of(request: ChoiceRequest, body: ResolveBody) -> Submission:
    """The decision as the answer it is; `InvalidInput` for what no question could take."""
    final = body.final_answer.strip()
    if request.several:
        asked = [question.id for question in request.asked()]
        if body.answers is None:
            raise _error("answers", "required",
                         "this interaction asks several questions: send answers with every "
                         f"question's answer by its id ({', '.join(asked)}).")
        missing = [question_id for question_id in asked if question_id not in body.answers]
        if missing or body.selected_ids:
            raise InvalidInput(
                [FieldError(field=f"answers.{question_id}", code="required",
                            message=f"answer question '{question_id}' too: a decision "
                                    "answers every question.") for question_id in missing]
                + ([FieldError(field="selected_ids", code="not_allowed",
                               message="this interaction asks several questions: put each "
                                       "one's selected_ids in answers.<question id>.")]
                   if body.selected_ids else []))
        return Submission(answers=body.answers, confirmed=True)
    if not body.selected_ids and takes_text(request) and not final:
        raise _error("final_answer", "required",
                     "an empty answer decides nothing: write the decision in final_answer "
                     "(or pick selected_ids), or defer it with a rationale.")
    if not body.selected_ids and not takes_text(request) and (request.min_selections or 0) > 0:
        raise _error("selected_ids", "required",
                     "this question is answered by its options: pick the decision's option(s) "
                     "in selected_ids (final_answer is kept as the summary), or defer it with "
                     "a rationale.")
    return Submission(selected_ids=list(body.selected_ids),
                      custom_input=(final or None) if takes_text(request) else None,
                      confirmed=True)


def owner_note(request: ChoiceRequest, body: ResolveBody) -> str | None:
    """The owner's words where the answer's own fields would not keep them: on an
    options-only question (or one with several questions), `final_answer` unless it only
    names the chosen option(s) by label (case and spacing aside; several joined by ", ").
    Kept as the result's `global_annotation`, so a resolve never drops what it was given."""
    final = body.final_answer.strip()
    if not final or takes_text(request):
        return None
    if not request.several:
        labels = {option.id: option.label for option in request.options}
        chosen = [labels[option_id] for option_id in body.selected_ids if option_id in labels]
        plain = normalised(final).casefold()
        if plain in {normalised(label).casefold() for label in [*chosen, ", ".join(chosen)]}:
            return None
    return final


def summary_text(request: ChoiceRequest, body: ResolveBody, decision: Decision | None,
                 source: SummarySource) -> str:
    """`summary_json.text`: the summary sent; else the candidate's summary when the owner
    took the candidate; else the owner's words where they are not the answer itself (an
    options-only question); else the candidate's summary, if one came."""
    if body.summary is not None:
        return body.summary.strip()
    candidate_summary = (decision.candidate_summary or "") if decision is not None \
        and candidate_of(decision) is not None else None
    if source == "discussion_extraction" and candidate_summary is not None:
        return candidate_summary
    final = body.final_answer.strip()
    if final and not takes_text(request):
        return final
    return candidate_summary or ""


def in_resolve_terms(invalid: InvalidInput) -> InvalidInput:
    """The normalisation's errors named as in the resolve body (`final_answer` is where a
    typed answer goes)."""
    return InvalidInput([
        error if error.field.startswith("answers.") else error.model_copy(update={
            "field": error.field.replace("custom_input", "final_answer"),
            "message": error.message.replace("custom_input", "final_answer")})
        for error in invalid.errors])
