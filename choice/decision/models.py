"""The shapes of the write-back: what the agent sends as its candidate, what the owner sends
to resolve, defer or set the quorum, and the review as the owner and agents read it (the
`CandidateReview`, with the review's state; see docs/guides/write-back.md).

Shapes only, like `choice.contract`: the rules that need the interaction live in
`decision/service.py`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from choice.contract import (
    CUSTOM_INPUT_MAX,
    MAX_OPTIONS,
    QUESTIONS_MAX,
    RATIONALE_MAX,
    SCHEMA_VERSION,
    SUMMARY_MAX,
    Answer,
    PortalInterface,
)
from choice.contract.model import Model
from choice.contract.result import DiscussionData

SourceHint = Literal["discussion_extraction", "manual"]
ReviewState = Literal["not_requested", "awaiting_candidate", "candidate_ready", "timed_out"]


class _Strict(Model):
    model_config = ConfigDict(extra="forbid")


class CandidateBody(_Strict):
    """The agent's candidate (`submit_candidate`, `POST /api/interactions/{id}/candidate`):
    the fields of the candidate review that the agent writes."""

    candidate_summary: str = Field(
        max_length=SUMMARY_MAX,
        description="A concise summary of where the discussion landed (who agreed on what).")
    candidate_answer: str = Field(
        max_length=CUSTOM_INPUT_MAX,
        description="The proposed answer to the question, as the owner would give it; name "
                    "the option(s) by their label when the discussion settled on some.")
    selected_ids: list[str] = Field(
        default_factory=list, max_length=MAX_OPTIONS,
        description="The ids of the option(s) the discussion settled on, if any: the owner's "
                    "Accept picks them, Edit starts from them.")
    source_hint: Literal["discussion_extraction", "slack_extraction", "manual"] = Field(
        default="discussion_extraction",
        description="`discussion_extraction`: drawn from the discussion "
                    "(`slack_extraction` is taken as the same); `manual`: the discussion gives "
                    "no answer (leave candidate_answer empty).")
    decision_id: str | None = Field(
        default=None, description="Another name for the interaction id; if given, it must "
                                  "be this interaction's.")


class ResolveBody(_Strict):
    """`POST /api/interactions/{id}/resolve`: the owner's final answer. The portal decides
    `summary_json.source` by comparing it with the agent's candidate."""

    final_answer: str = Field(
        default="", max_length=CUSTOM_INPUT_MAX,
        description="The decision in words: the result's custom_input where the question "
                    "takes typed answers (text_input, hybrid); on an options-only question "
                    "selected_ids decide and the words are recorded as summary_json.text and, "
                    "unless they only name the chosen option, as global_annotation.")
    selected_ids: list[str] = Field(
        default_factory=list, max_length=MAX_OPTIONS,
        description="The options the decision picks, within the question's "
                    "min_selections/max_selections.")
    answers: dict[str, Answer] | None = Field(
        default=None, max_length=QUESTIONS_MAX,
        description="For a request with `questions`: every question's answer by its id.")
    rationale: str | None = Field(
        default=None, max_length=RATIONALE_MAX,
        description="Why, in the owner's words (optional; asked for after a material edit).")
    summary: str | None = Field(
        default=None, max_length=SUMMARY_MAX,
        description="The discussion's summary to record; default the agent's candidate summary.")
    interface: PortalInterface | None = Field(
        default=None, description="Where the owner decided (the terminal UI sends terminal).")


class DeferBody(_Strict):
    """`POST /api/interactions/{id}/defer`: set the decision aside, saying why."""

    rationale: str = Field(max_length=RATIONALE_MAX,
                           description="Why it is deferred (required): the agent gets it.")
    interface: PortalInterface | None = None


class ResumeBody(_Strict):
    interface: PortalInterface | None = None


class CandidateReview(Model):
    """The candidate review (schema_version 1) with the review's state: what the
    owner reviews. While no candidate has come, `candidate_*` are empty; once the fallback
    time passes without one, `llm_timed_out` is true and `source_hint` is `manual`."""

    schema_version: Literal[1] = SCHEMA_VERSION
    decision_id: str
    state: ReviewState
    discussion_fetch: DiscussionData | None = Field(
        description="The discussion as the agent was shown it; null for a question never "
                    "widened.")
    candidate_summary: str
    candidate_answer: str
    candidate_selected_ids: list[str] = Field(
        default_factory=list, description="The options the candidate picks (Accept keeps them).")
    source_hint: SourceHint
    llm_timed_out: bool
    requested_at: str | None
    due_at: str | None = Field(description="When the review falls back to a manual answer.")
    candidate_at: str | None
    quorum_min_votes: int | None
    deferred_at: str | None
    defer_rationale: str | None


class QuestionBrief(Model):
    id: str
    label: str


class QuestionShown(Model):
    title: str
    prompt: str
    selection_mode: str
    options: list[QuestionBrief]


class SummaryRequested(Model):
    """What an agent gets when the owner asks it to summarise the discussion:
    send the candidate (`submit_candidate`, or POST .../candidate) before `due_at`."""

    interaction_id: str
    session_id: str
    decision_id: str = Field(description="The same id, under another name.")
    status: Literal["widened"]
    action_status: Literal["summary_requested"] = Field(
        description="Not an answer: the owner asks you for a candidate summary and answer.")
    schema_version: Literal[1]
    question: QuestionShown
    discussion: DiscussionData
    url: str
    due_at: str = Field(description="After this, the owner writes the answer without you.")
    expires_at: str
    instructions: str


class DeferredReply(Model):
    """What an agent gets for a deferred question: not an answer, not the end (it may be
    taken up again and resolved later; poll with `session_id`)."""

    interaction_id: str
    session_id: str
    status: Literal["deferred"]
    action_status: Literal["deferred"]
    schema_version: Literal[1]
    rationale: str | None = Field(description="Why the owner deferred it.")
    outcome: Literal["deferred"] | None = Field(
        default=None, description="hitl_request only: `deferred` (never a success).")
    deferred_at: str | None
    url: str
    instructions: str
