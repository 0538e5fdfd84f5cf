"""What the agent gets back: the result once a question is over (`ChoiceResult`, with its
lifecycle status as `Outcome`), the hand-off while it is pending, and the discussion data a
write-back step reads.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from choice.contract.attachments import SentFile
from choice.contract.model import Model
from choice.contract.vocabulary import (
    SCHEMA_VERSION,
    ActionStatus,
    AnsweredVia,
    DecidedBy,
    Interface,
    SubmissionKind,
    SummarySource,
)

DISCUSSION_MESSAGES_MAX = 50
"""`DiscussionData` carries at most this many messages: the summarising model's context is finite."""


class SummaryJson(Model):
    """Where a widened decision came from: the discussion's summary and its provenance."""

    text: str = Field(description="The summary of the discussion ('' when written by hand).")
    source: SummarySource


class OptionVotes(Model):
    """One option's votes in a widened discussion, with who cast them."""

    option_id: str
    label: str
    votes: int
    voters: list[str]


class SelectedOption(Model):
    id: str
    label: str


class QuestionAnswer(Model):
    """One question's answer in a result with several questions."""

    selected_ids: list[str] = Field(default_factory=list)
    selected_labels: list[str] = Field(default_factory=list)
    custom_input: str | None = None
    option_annotations: dict[str, str] = Field(default_factory=dict)
    state: Literal["answered", "defaulted", "unanswered"] = Field(
        default="answered", description="`defaulted`: the deadline submitted its defaults; "
                                        "`unanswered`: nobody answered it and it had none.")


class ChoiceResult(Model):
    """What the agent gets back once the interaction is over.

    The fields after `summary` are additive (schema_version 1): who decided and how, and
    for a question widened to teammates, the discussion's provenance and the votes."""

    interaction_id: str
    action_status: ActionStatus
    answers: dict[str, QuestionAnswer] | None = Field(
        default=None, description="A request with `questions`: each one's answer by its id "
                                  "(then selected_ids and custom_input stay empty); null for "
                                  "one question, or when nothing was answered.")
    selected_ids: list[str] = Field(default_factory=list)
    selected_labels: list[str] = Field(default_factory=list)
    custom_input: str | None = None
    option_annotations: dict[str, str] = Field(default_factory=dict)
    global_annotation: str | None = None
    confirmed: bool | None = None
    submission: SubmissionKind | None = None
    defaults_used: bool = False
    placeholder_shown: bool = False
    interface: Interface
    created_at: str
    completed_at: str
    summary: str
    schema_version: Literal[1] = SCHEMA_VERSION
    answered_via: AnsweredVia | None = Field(
        default=None, description="How the answer arrived; null when the deadline ended it.")
    decided_by: DecidedBy | None = Field(
        default=None, description="`owner` (a person), `quorum` (the team's votes); null "
                                  "when the deadline ended it.")
    decided_by_member: str | None = Field(
        default=None, description="Team mode: the email of the member who decided (the "
                                  "question's owner) when `decided_by` is `owner`; null "
                                  "otherwise, and always on a portal in local mode.")
    summary_json: SummaryJson | None = Field(
        default=None, description="The discussion's summary and where the final answer came "
                                  "from, for a decision resolved through the write-back "
                                  "(resolve, quorum); null for a plain answer.")
    rationale: str | None = Field(default=None, description="The owner's reason, if given.")
    participants: list[str] = Field(default_factory=list,
                                    description="The teammates invited (widened questions).")
    votes: list[OptionVotes] = Field(default_factory=list,
                                     description="Per option, how many voted and who.")
    outcome: Literal["confirmed", "canceled"] | None = Field(
        default=None, description="hitl_request only: `confirmed` when the human picked and "
                                  "confirmed, `canceled` otherwise (a cancel or a timeout "
                                  "never reads as success); null for other shapes.")
    selected_option: SelectedOption | None = Field(
        default=None, description="hitl_request only: the option confirmed; null when "
                                  "canceled or timed out.")
    withdrawn_reason: str | None = Field(
        default=None, description="Set when the agent withdrew its question (status "
                                  "`withdrawn`, action_status `cancelled`): the reason it gave.")
    attachments: list[SentFile] = Field(
        default_factory=list, description="The files the person sent with the answer "
                                          "(images, text, PDF...): fetch each from its `url` "
                                          "with the token.")
    answers_by_question: dict[str, str] | None = Field(
        default=None, description="ask_user_question only (AskUserQuestion's own answer "
                                  "shape): each question's text -> the chosen label(s) "
                                  "joined by ', ', then the 'Other' text; null for other "
                                  "shapes and when nothing was answered.")


class Outcome(ChoiceResult):
    """The reply once over: the result with its lifecycle `status`."""

    status: Literal["submitted", "auto_submitted", "cancelled", "timeout", "withdrawn"]


class Handoff(Model):
    """The reply while pending: where the human answers and how to poll."""

    interaction_id: str
    session_id: str
    status: Literal["pending"]
    interface: Interface
    url: str
    terminal_command: str
    expires_at: str
    instructions: str


class DiscussionData(Model):
    """The discussion as the write-back step reads it: `messages` are at most 50,
    the newest, each `[Name] text`; `truncated` when there were more."""

    participants: list[str]
    message_count: int
    messages: list[str] = Field(max_length=DISCUSSION_MESSAGES_MAX)
    truncated: bool
    thread_url: str | None
