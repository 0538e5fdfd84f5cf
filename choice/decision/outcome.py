"""What resolving a decision writes: the result (with `summary_json`, the rationale, who
decided) and its audit events, for the owner's final answer and for the team's quorum.

Pure, like `choice.core.endings`: each function gets the undecided row, its decision row and a
`Completion`, and returns the `Completed` the repository writes in the same transaction as
its check that the row is still undecided.
"""

from __future__ import annotations

from choice.contract import ChoiceRequest, ChoiceResult, FieldError, SummaryJson, SummarySource
from choice.contract.field_errors import InvalidInput
from choice.contract.normalize import Completion, clip, labels_of, quoted_choices
from choice.core.endings import audit, request_of
from choice.core.i18n import N_
from choice.decision.models import ResolveBody
from choice.decision.quorum import Reached
from choice.store.records import Decision, Interaction
from choice.store.repository import Completed
from choice.team.discussion import checked_option_ids

SOURCE_WORDS: dict[SummarySource, str] = {
    "discussion_extraction": N_("taking the agent's summary of the discussion"),
    "owner_override": N_("in their own words over the agent's summary"),
    "manual": N_("in their own words"),
    "quorum": N_("by the team's quorum"),
}
"""How the summary sentence says where the answer came from (`summary_json.source`)."""


def candidate_of(decision: Decision | None) -> str | None:
    """The agent's candidate answer for the current review, if one came."""
    if decision is None or decision.candidate_at is None:
        return None
    return decision.candidate_answer


def checked_selection(request: ChoiceRequest, selected_ids: list[str]) -> list[str]:
    """The options a resolution picks, in option order; `InvalidInput` naming each problem."""
    if selected_ids and (not request.options or request.selection_mode == "text_input"):
        raise InvalidInput([FieldError(
            field="selected_ids", code="not_allowed",
            message="this question takes a typed answer only: write final_answer and leave "
                    "selected_ids out.")])
    return checked_option_ids(request, selected_ids, "selected_ids")


def _sentence(request: ChoiceRequest, done: Completion, ids: list[str], final: str,
              source: SummarySource) -> str:
    _ = done.translate
    parts = []
    if ids:
        parts.append(_("Selected {choices}.").format(choices=quoted_choices(request, ids)))
    if final:
        parts.append(_("Final answer: {text}.").format(text=clip(final)))
    answer = " ".join(parts)
    if not done.participants:
        return _("Decided by the owner: {answer}").format(answer=answer)
    return _("Decided by the owner after discussing it with {count} teammate(s), "
             "{how}: {answer}").format(count=len(done.participants),
                                       how=_(SOURCE_WORDS[source]), answer=answer)


def resolved(row: Interaction, decision: Decision | None, body: ResolveBody, done: Completion,
             actor: str, source: SummarySource) -> Completed:
    """The owner's final answer, its `source` decided by `provenance.summary_source`;
    `InvalidInput` if it picks unknown options or says nothing."""
    request = request_of(row)
    ids = checked_selection(request, body.selected_ids)
    final = body.final_answer.strip()
    if not final and not ids:
        raise InvalidInput([FieldError(
            field="final_answer", code="required",
            message="an empty answer decides nothing: write the decision in final_answer "
                    "(or pick selected_ids), or defer it with a rationale.")])
    candidate = candidate_of(decision)
    if body.summary is not None:
        summary_text = body.summary.strip()
    else:
        summary_text = (decision.candidate_summary or "") if candidate is not None and decision \
            else ""
    rationale = body.rationale.strip() if body.rationale and body.rationale.strip() else None
    result = ChoiceResult(
        interaction_id=row.id, action_status="selected" if ids else "custom_input",
        selected_ids=ids, selected_labels=labels_of(request, ids), custom_input=final or None,
        confirmed=True if request.require_confirmation else None, submission="manual",
        placeholder_shown=done.placeholder_shown, interface=done.interface,
        created_at=done.created_at_iso, completed_at=done.completed_at_iso,
        summary=_sentence(request, done, ids, final, source),
        summary_json=SummaryJson(text=summary_text, source=source), rationale=rationale)
    done.stamped(result, "owner", request)
    event = audit(row.id, "resolved", actor, {
        "source": source, "selected_ids": ids, "from": row.status,
        "candidate": candidate is not None, "rationale": rationale is not None,
        "via": done.via}, done.completed_at)
    return Completed("submitted", result.model_dump_json(), done.completed_at, [event])


def by_quorum(row: Interaction, reached: Reached, min_votes: int, done: Completion) -> Completed:
    """The team's votes decide: the option set `reached` names."""
    request = request_of(row)
    _ = done.translate
    text = _("{votes} of {count} teammates voted for {choices} (quorum {quorum}).").format(
        votes=reached.votes, count=len(done.participants), quorum=min_votes,
        choices=quoted_choices(request, reached.option_ids))
    result = ChoiceResult(
        interaction_id=row.id, action_status="selected", selected_ids=reached.option_ids,
        selected_labels=labels_of(request, reached.option_ids), submission="manual",
        placeholder_shown=done.placeholder_shown, interface=done.interface,
        created_at=done.created_at_iso, completed_at=done.completed_at_iso,
        summary=_("Decided by quorum: {text}").format(text=text),
        summary_json=SummaryJson(text=text, source="quorum"))
    done.stamped(result, "quorum", request)
    at = done.completed_at
    events = [audit(row.id, "quorum_reached", "system", {
                  "option_ids": reached.option_ids, "votes": reached.votes,
                  "voters": reached.voters, "min_votes": min_votes}, at),
              audit(row.id, "resolved", "system", {
                  "source": "quorum", "selected_ids": reached.option_ids, "from": row.status,
                  "candidate": False, "rationale": False, "via": done.via}, at)]
    return Completed("submitted", result.model_dump_json(), at, events)
