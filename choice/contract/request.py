"""The request: what an agent asks (`provide_choice`, `POST /api/interactions`), one
question or several. Cross-field rules live in `validation.py` (one question's in
`question_rules.py`).
"""

from __future__ import annotations

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

from choice.contract.attachments import ATTACHMENTS_MAX, Attachment
from choice.contract.vocabulary import (
    CONTEXT_VALUE_MAX,
    DESCRIPTION_MAX,
    HEADER_MAX,
    LABEL_MAX,
    MAX_OPTIONS,
    ONLY_QUESTION_ID,
    OPTION_ID_PATTERN,
    PLACEHOLDER_MAX,
    PROMPT_MAX,
    QUESTIONS_MAX,
    RATIONALE_MAX,
    TEAM_MAX,
    TIMEOUT_MAX,
    TIMEOUT_MIN,
    TITLE_MAX,
    WIDEN_HINT_MAX,
    InterfaceChoice,
    Language,
    OnTimeout,
    SelectionMode,
    Shape,
    Strict,
)


class Option(Strict):
    id: str = Field(pattern=OPTION_ID_PATTERN, description="Stable id returned in selected_ids.")
    label: str = Field(min_length=1, max_length=LABEL_MAX, description="Short text the human picks.")
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX)
    recommended: bool = False
    rationale: str | None = Field(
        default=None, max_length=RATIONALE_MAX, description="Why it is recommended."
    )
    attachment_ids: list[str] = Field(
        default_factory=list, max_length=ATTACHMENTS_MAX,
        description="The request's attachments this option shows (their ids), e.g. its mock-up.")


class Question(Strict):
    """One question of an interaction. A request's own single-question fields are the
    one-element case (`ChoiceRequest.asked`): every rule and every answer goes through this."""

    id: str = Field(pattern=OPTION_ID_PATTERN,
                    description="Unique in the request; the key of its answer in `answers`.")
    header: str | None = Field(default=None, max_length=HEADER_MAX,
                               description="A short chip shown in the tab bar, e.g. 'Database'.")
    prompt: str = Field(min_length=1, max_length=PROMPT_MAX, description="The question (Markdown).")
    selection_mode: SelectionMode = "single"
    options: list[Option] = Field(default_factory=list, max_length=MAX_OPTIONS)
    default_selection_ids: list[str] = Field(default_factory=list)
    min_selections: int | None = Field(default=None, ge=0)
    max_selections: int | None = Field(default=None, ge=0)
    placeholder: str | None = Field(default=None, max_length=PLACEHOLDER_MAX)
    allow_annotations: bool | None = Field(
        default=None, description="Notes on this question's options; default: the request's.")


SINGLE_QUESTION_FIELDS = ("selection_mode", "options", "default_selection_ids", "min_selections",
                          "max_selections", "placeholder", "single_submit_mode")
"""The request fields that describe its one question: never sent together with `questions`."""


class RequestContext(Strict):
    """Who is asking: shown in the interaction list and kept in the audit log."""

    agent: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    conversation_id: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    tool_call_id: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    project: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    tool: str | None = Field(
        default=None, max_length=CONTEXT_VALUE_MAX,
        description="The agent's own tool the question is about (`choice hook`: Bash, Edit, …).")
    tool_input_sha256: str | None = Field(
        default=None, max_length=CONTEXT_VALUE_MAX,
        description="A hash of that tool's input (the command, the edit), for the audit trail.")


class Quorum(Strict):
    """Let the team decide: once `min_votes` participants back the same option(s), the
    question resolves itself (`decided_by: quorum`), unless the owner acted first."""

    min_votes: int = Field(ge=1, le=TEAM_MAX,
                           description="How many participants must back the same option(s).")


class ChoiceRequest(Strict):
    """What an agent asks (`provide_choice`, `POST /api/interactions`).

    Optional knobs left as None are filled by `validate_request` from the saved preferences,
    so a validated request has every field decided and stays the same after a restart.
    """

    title: str = Field(min_length=1, max_length=TITLE_MAX)
    prompt: str | None = Field(
        default=None,
        min_length=1,
        max_length=PROMPT_MAX,
        description="The task context and why the choice is needed (Markdown). Required for "
                    "one question; with `questions`, optional context shown above them.",
    )
    questions: list[Question] | None = Field(
        default=None, min_length=1, max_length=QUESTIONS_MAX,
        description="Several questions answered in one submission (1-10), instead of the "
                    "single-question fields (selection_mode, options, ...).")
    selection_mode: SelectionMode = "single"
    options: list[Option] = Field(default_factory=list, max_length=MAX_OPTIONS)
    default_selection_ids: list[str] = Field(default_factory=list)
    min_selections: int | None = Field(default=None, ge=0)
    max_selections: int | None = Field(default=None, ge=0)
    single_submit_mode: bool | None = None
    placeholder: str | None = Field(default=None, max_length=PLACEHOLDER_MAX)
    require_confirmation: bool = False
    allow_annotations: bool | None = None
    timeout_seconds: int | None = Field(default=None, ge=TIMEOUT_MIN, le=TIMEOUT_MAX)
    on_timeout: OnTimeout = "timeout"
    interface: InterfaceChoice = "auto"
    language: Language | None = None
    context: RequestContext = Field(default_factory=RequestContext)
    widen_hint: str | None = Field(
        default=None, max_length=WIDEN_HINT_MAX,
        description="One line suggesting the owner consult the team; shown dimmed above the "
                    "question. Only the owner can widen: this is a hint, never an action.")
    shape: SkipJsonSchema[Shape] = Field(
        default="provide_choice",
        description="Set by the portal from the tool or body shape that asked; not sent.")
    quorum: Quorum | None = Field(
        default=None,
        description="If the owner widens the question to teammates: resolve it once this "
                    "many of them vote for the same option(s). The owner can change or "
                    "switch it off, and always decide first.")
    attachments: list[Attachment] = Field(
        default_factory=list,
        description="Files to show with the question (at most 8, 5 MiB each, 10 MiB in all): "
                    "PNG, JPEG, GIF and WebP images inline, text, JSON, PDF and archives as "
                    "downloads.")

    @property
    def several(self) -> bool:
        """Asked with `questions` (answered with `answers`), not the single-question fields."""
        return self.questions is not None

    def asked(self) -> list[Question]:
        """The questions, in order: a single-question request's fields are its only one."""
        if self.questions is not None:
            return self.questions
        return [Question.model_construct(
            id=ONLY_QUESTION_ID, header=None, prompt=self.prompt or "",
            selection_mode=self.selection_mode, options=self.options,
            default_selection_ids=self.default_selection_ids,
            min_selections=self.min_selections, max_selections=self.max_selections,
            placeholder=self.placeholder, allow_annotations=self.allow_annotations)]

