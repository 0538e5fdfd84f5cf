"""The request / result contract between agents and the portal.

Owns the shapes only: the request an agent sends, the submission a human sends, the result
the agent gets back, and the preferences a user saves. Cross-field rules live in
`validation.py`; turning a submission into a result lives in `response.py`. Nothing here
touches the database or the network.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

SelectionMode = Literal["single", "multi", "text_input", "hybrid"]
OnTimeout = Literal["timeout", "submit_defaults", "cancel"]
InterfaceChoice = Literal["auto", "web", "terminal", "client"]
Interface = Literal["web", "terminal", "client"]
"""Where a question is asked: the portal's page, the terminal UI, or inside the agent's MCP
client (elicitation: `choice/mcp/elicitation.py`)."""
PortalInterface = Literal["web", "terminal"]
"""Where a person answers through the portal itself: what a page or the terminal may claim
(a body sent to the portal can never say it came from an MCP client)."""
ElicitationSetting = Literal["off", "form", "url"]
NotifyWhen = Literal["always", "unfocused", "hidden", "never"]
"""When the page shows a browser notification (and plays the chime): always, when the window
is not focused, when the tab is hidden, or never."""
SOUND_VOLUME_MAX = 100


def _notify_when(value: object) -> object:
    """Before the trigger setting, `notifications` was on/off: on means the default trigger."""
    if isinstance(value, bool):
        return "unfocused" if value else "never"
    return value
"""Whether `interface: auto` asks inside an MCP client that supports it: `off` never,
`form` with the client's own form, `url` by having the client open the portal's page."""
Language = Literal["en", "zh"]
Shape = Literal["provide_choice", "hitl_request", "request_user_choice", "ask_user_question"]
"""Which tool or body shape asked: the compatibility shapes answer the way their callers
expect (`hitl_request` is options-only with an explicit outcome; `request_user_choice`
answers with the chosen title or typed text; `ask_user_question`, Claude Code's
AskUserQuestion, with each question's text mapped to the chosen labels)."""
Status = Literal["pending", "widened", "deferred", "submitted", "auto_submitted", "cancelled",
                 "timeout"]
ActionStatus = Literal["selected", "custom_input", "cancelled", "timeout"]
SubmissionKind = Literal["manual", "auto", "timeout_default"]
AnsweredVia = Literal["web", "terminal", "api", "mcp", "client"]
"""How the answer reached the portal: a person in a page or the terminal UI, a script with
the token, an agent's MCP call, or an MCP client asking its user (elicitation)."""
DecidedBy = Literal["owner", "quorum"]
SummarySource = Literal["discussion_extraction", "owner_override", "manual", "quorum"]
"""Where a widened decision's final answer came from (seed §6; the seed's `slack_extraction`
is `discussion_extraction`: our discussions happen in the portal)."""
SCHEMA_VERSION: Literal[1] = 1

COMPLETED_STATUSES: tuple[Status, ...] = ("submitted", "auto_submitted", "cancelled", "timeout")
OPEN_STATUSES: tuple[Status, ...] = ("pending", "widened")
"""Still waiting for the owner's decision: `widened` is pending with teammates invited."""
UNRESOLVED_STATUSES: tuple[Status, ...] = (*OPEN_STATUSES, "deferred")
"""Not decided yet: open, or `deferred` by the owner with a rationale (no deadline runs; it
is taken up again or resolved later). Retention never drops these."""
WaitingReason = Literal["unopened", "deadline"]
WAITING_REASONS: tuple[WaitingReason, ...] = ("unopened", "deadline")
"""An `interaction.reminder`'s `reason` when a question waits for its person (nobody opened
it; its last minute), as opposed to a widened question's `discussion_idle`."""

OPTION_ID_PATTERN = r"^[A-Za-z0-9_.-]{1,64}$"
MAX_OPTIONS = 50
TITLE_MAX = 200
PROMPT_MAX = 20_000
LABEL_MAX = 200
DESCRIPTION_MAX = 2_000
RATIONALE_MAX = 1_000
PLACEHOLDER_MAX = 500
NOTE_MAX = 5_000
CUSTOM_INPUT_MAX = 20_000
CONTEXT_VALUE_MAX = 200
SUMMARY_MAX = 4_000
WIDEN_HINT_MAX = 200
NAME_MAX = 100
TEAM_MAX = 100
QUESTIONS_MAX = 10
HEADER_MAX = 12
ONLY_QUESTION_ID = "answer"
"""The id a single-question request's one question has inside the portal (never shown)."""
TIMEOUT_MIN = 10
TIMEOUT_MAX = 86_400
DEFAULT_TIMEOUT = 300

# Fields a model may send to hide or disable cancel. Cancel is always available: these are
# dropped with a warning instead of rejected, so an over-eager agent still gets its answer.
CANCEL_DISABLING_FIELDS = ("allow_cancel", "cancel_enabled", "hide_cancel")


class _Strict(BaseModel):
    """Unknown fields are errors: a typo must not silently change what the human sees."""

    model_config = ConfigDict(extra="forbid")


class Option(_Strict):
    id: str = Field(pattern=OPTION_ID_PATTERN, description="Stable id returned in selected_ids.")
    label: str = Field(min_length=1, max_length=LABEL_MAX, description="Short text the human picks.")
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX)
    recommended: bool = False
    rationale: str | None = Field(
        default=None, max_length=RATIONALE_MAX, description="Why it is recommended."
    )


class Question(_Strict):
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


class RequestContext(_Strict):
    """Who is asking: shown in the interaction list and kept in the audit log."""

    agent: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    conversation_id: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    tool_call_id: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)
    project: str | None = Field(default=None, max_length=CONTEXT_VALUE_MAX)


class Quorum(_Strict):
    """Let the team decide: once `min_votes` participants back the same option(s), the
    question resolves itself (`decided_by: quorum`), unless the owner acted first."""

    min_votes: int = Field(ge=1, le=TEAM_MAX,
                           description="How many participants must back the same option(s).")


class ChoiceRequest(_Strict):
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


class Answer(_Strict):
    """The answer to one question."""

    selected_ids: list[str] | None = Field(
        default=None, description="Omit to accept the defaults unchanged."
    )
    custom_input: str | None = Field(default=None, max_length=CUSTOM_INPUT_MAX)
    option_annotations: dict[str, Annotated[str, Field(max_length=NOTE_MAX)]] = Field(
        default_factory=dict, max_length=MAX_OPTIONS)


class Submission(Answer):
    """A human's answer, the same from the web form, the terminal and the API: the answer's
    fields for one question, or `answers` keyed by question id for several."""

    answers: dict[str, Answer] | None = Field(
        default=None, max_length=QUESTIONS_MAX,
        description="For a request with `questions`: each question's answer by its id "
                    "(a question left out keeps its defaults).")
    global_annotation: str | None = Field(default=None, max_length=NOTE_MAX)
    confirmed: bool | None = None
    submission: Literal["manual", "auto"] = Field(
        default="manual", description="`auto` when the UI submitted on first pick."
    )
    interface: PortalInterface | None = Field(
        default=None, description="Where the human answered; default the interaction's own."
    )


class CancelBody(_Strict):
    global_annotation: str | None = Field(default=None, max_length=NOTE_MAX)
    interface: PortalInterface | None = None


class InterfaceSwitch(_Strict):
    """Continue a pending interaction in another interface."""

    interface: PortalInterface


class DeadlineChange(_Strict):
    """Give exactly one: a total timeout counted from creation, or an absolute deadline."""

    timeout_seconds: int | None = Field(default=None, ge=TIMEOUT_MIN, le=TIMEOUT_MAX)
    expires_at: str | None = Field(default=None, description="ISO 8601 with a timezone.")
    interface: PortalInterface | None = Field(
        default=None, description="Where a person changed it (`terminal`: `choice answer`, "
                                  "audited as `human:terminal`); default the API's.")


class SummaryJson(BaseModel):
    """Where a widened decision came from: the discussion's summary and its provenance."""

    text: str = Field(description="The summary of the discussion ('' when written by hand).")
    source: SummarySource


class OptionVotes(BaseModel):
    """One option's votes in a widened discussion, with who cast them."""

    option_id: str
    label: str
    votes: int
    voters: list[str]


class SelectedOption(BaseModel):
    id: str
    label: str


class QuestionAnswer(BaseModel):
    """One question's answer in a result with several questions."""

    selected_ids: list[str] = Field(default_factory=list)
    selected_labels: list[str] = Field(default_factory=list)
    custom_input: str | None = None
    option_annotations: dict[str, str] = Field(default_factory=dict)
    state: Literal["answered", "defaulted", "unanswered"] = Field(
        default="answered", description="`defaulted`: the deadline submitted its defaults; "
                                        "`unanswered`: nobody answered it and it had none.")


class ChoiceResult(BaseModel):
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
    answers_by_question: dict[str, str] | None = Field(
        default=None, description="ask_user_question only (AskUserQuestion's own answer "
                                  "shape): each question's text -> the chosen label(s) "
                                  "joined by ', ', then the 'Other' text; null for other "
                                  "shapes and when nothing was answered.")


class Outcome(ChoiceResult):
    """The reply once over: the result with its lifecycle `status`."""

    status: Literal["submitted", "auto_submitted", "cancelled", "timeout"]


class Handoff(BaseModel):
    """The reply while pending: where the human answers and how to poll."""

    interaction_id: str
    session_id: str
    status: Literal["pending"]
    interface: Interface
    url: str
    terminal_command: str
    expires_at: str
    instructions: str


class TeamMember(_Strict):
    """One teammate the owner may widen a question to (settings' team list)."""

    name: str = Field(min_length=1, max_length=NAME_MAX,
                      description="Shown to everyone in the discussion; unique in the list.")
    handle: str | None = Field(default=None, max_length=NAME_MAX,
                               description="Chat handle, e.g. @alice, put in webhook messages.")
    email: str | None = Field(default=None, max_length=254)

    @field_validator("name")
    @classmethod
    def _plain_name(cls, name: str) -> str:
        name = " ".join(name.split())
        if not name:
            raise PydanticCustomError("blank", "the name is only whitespace: write the "
                                               "person's name.")
        if "," in name:
            raise PydanticCustomError(
                "invalid_characters", "{name} has a comma, and commas separate names when the "
                "owner trims the audience: write it without one (e.g. 'Jane Smith').",
                {"name": repr(name)})
        if not name.isprintable():
            raise PydanticCustomError("invalid_characters", "{name} holds a control "
                                      "character: type the name plainly.", {"name": repr(name)})
        return name


def _unique_names(team: list[TeamMember] | None) -> list[TeamMember] | None:
    seen: dict[str, int] = {}
    for index, member in enumerate(team or []):
        first = seen.setdefault(member.name.casefold(), index)
        if first != index:
            raise PydanticCustomError(
                "duplicate", "{name} is in the team list twice (team[{first}] and "
                "team[{index}]): names are matched case-insensitively, so give each person a "
                "distinct name.", {"name": repr(member.name), "first": first, "index": index})
    return team


class Preferences(_Strict):
    """What a user saves once and every interaction starts from."""

    interface: PortalInterface = "web"
    elicitation: ElicitationSetting = Field(
        default="off", description="Whether `interface: auto` asks inside an MCP client that "
                                   "supports elicitation: off, form (the client's own form) "
                                   "or url (the client opens the portal's page).")
    timeout_seconds: int = Field(default=DEFAULT_TIMEOUT, ge=TIMEOUT_MIN, le=TIMEOUT_MAX)
    language: Language | None = None
    allow_annotations: bool = True
    show_placeholder: bool = True
    single_submit: bool = False
    notifications: NotifyWhen = Field(
        default="unfocused", description="When the page notifies (and chimes): always, "
                                         "unfocused (the window is not focused), hidden (the "
                                         "tab is hidden) or never. true/false mean unfocused/never.")
    sound: bool = True
    sound_volume: int = Field(default=50, ge=0, le=SOUND_VOLUME_MAX)
    terminal_hints: bool = True
    team: list[TeamMember] = Field(default_factory=list, max_length=TEAM_MAX)
    _team_names = field_validator("team")(_unique_names)
    _notify_when = field_validator("notifications", mode="before")(_notify_when)


class PreferencesPatch(_Strict):
    """`PUT /api/settings`: any subset of the preferences."""

    interface: PortalInterface | None = None
    elicitation: ElicitationSetting | None = None
    timeout_seconds: int | None = Field(default=None, ge=TIMEOUT_MIN, le=TIMEOUT_MAX)
    language: Language | None = None
    allow_annotations: bool | None = None
    show_placeholder: bool | None = None
    single_submit: bool | None = None
    notifications: NotifyWhen | None = None
    sound: bool | None = None
    sound_volume: int | None = Field(default=None, ge=0, le=SOUND_VOLUME_MAX)
    terminal_hints: bool | None = None
    team: list[TeamMember] | None = Field(default=None, max_length=TEAM_MAX)
    _team_names = field_validator("team")(_unique_names)
    _notify_when = field_validator("notifications", mode="before")(_notify_when)


class FieldError(BaseModel):
    field: str
    code: str
    message: str
