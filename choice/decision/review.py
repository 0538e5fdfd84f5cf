"""The review as the owner reads it (`CandidateReview`, with its state), and the
options a candidate may propose. Pure: `DecisionService` reads the rows and writes.
"""

from __future__ import annotations

import re

from choice.contract import ChoiceRequest, FieldError
from choice.contract.clock import iso
from choice.contract.field_errors import InvalidInput
from choice.contract.result import DiscussionData
from choice.decision.models import CandidateReview, ReviewState
from choice.decision.outcome import candidate_ids, candidate_of
from choice.store.records import Decision, Interaction


def review_of(row: Interaction, decision: Decision | None, quorum: int | None,
              discussion: DiscussionData | None, summary_seconds: float) -> CandidateReview:
    """`quorum`: the team's (its feature owns it; None when off)."""
    requested = decision.review_requested_at if decision else None
    candidate = candidate_of(decision)
    timed_out = bool(decision and decision.candidate_timed_out_at) and candidate is None
    state: ReviewState
    if requested is None:
        state = "not_requested"
    elif candidate is not None:
        state = "candidate_ready"
    else:
        state = "timed_out" if timed_out else "awaiting_candidate"
    return CandidateReview(
        decision_id=row.id, state=state, discussion_fetch=discussion,
        candidate_summary=(decision.candidate_summary or "") if candidate and decision else "",
        candidate_answer=candidate or "",
        candidate_selected_ids=candidate_ids(decision),
        source_hint="discussion_extraction" if candidate else "manual",
        llm_timed_out=timed_out,
        requested_at=iso(requested) if requested else None,
        due_at=iso(requested + summary_seconds) if requested else None,
        candidate_at=iso(decision.candidate_at) if decision and decision.candidate_at else None,
        quorum_min_votes=quorum,
        deferred_at=iso(decision.deferred_at) if decision and decision.deferred_at else None,
        defer_rationale=decision.defer_rationale if decision else None)


_SEPARATORS = re.compile(r"\s*(?:[,;、，；]|\band\b|和)\s*")


def _plain(text: str) -> str:
    return " ".join(text.casefold().split()).strip(" .。!！")


def named_ids(request: ChoiceRequest, answer: str) -> list[str]:
    """The options a candidate's answer names by label or id when it sent no
    `selected_ids` ("Redis 7", "Redis 7, Memcached"): the whole answer, or each part of
    it, is an option's name. Anything else (a sentence about an option) names none: the
    owner picks them in Edit."""
    if request.several or not request.options or request.selection_mode == "text_input":
        return []
    by_name: dict[str, str] = {}
    for option in request.options:
        by_name.setdefault(_plain(option.id), option.id)
        by_name.setdefault(_plain(option.label), option.id)
    whole = by_name.get(_plain(answer))
    if whole is not None:
        return [whole]
    parts = [_plain(part) for part in _SEPARATORS.split(answer) if _plain(part)]
    if len(parts) < 2 or not all(part in by_name for part in parts):
        return []
    named = {by_name[part] for part in parts}
    return [option.id for option in request.options if option.id in named]


def proposed_ids(request: ChoiceRequest, selected_ids: list[str], answer: str = "") -> list[str]:
    """The candidate's options in option order (or, when it sent none, those its answer
    names: `named_ids`); `InvalidInput` for an id the question does not have (the agent
    may send it again)."""
    if not selected_ids:
        selected_ids = named_ids(request, answer)
    options = [option.id for option in request.options] if not request.several else []
    unknown = [option_id for option_id in selected_ids if option_id not in options]
    if unknown:
        named = ", ".join(repr(option_id[:64]) for option_id in unknown[:5])
        raise InvalidInput([FieldError(
            field="selected_ids", code="unknown_option",
            message=f"{named} not an option of this question: use "
                    f"{', '.join(options[:10]) or 'none (it takes typed answers)'}.")])
    return [option_id for option_id in options if option_id in set(selected_ids)]
