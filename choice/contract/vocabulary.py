"""The contract's vocabulary: the named values (modes, statuses, interfaces, shapes) and the
limits every shape shares, and the strict base model. No shape lives here.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from choice.contract.model import Model

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
"""Whether `interface: auto` asks inside an MCP client that supports it: `off` never,
`form` with the client's own form, `url` by having the client open the portal's page."""
NotifyWhen = Literal["always", "unfocused", "hidden", "never"]
"""When the page shows a browser notification (and plays the chime): always, when the window
is not focused, when the tab is hidden, or never."""
NoteFocus = Literal["tab", "pick"]
"""The terminal's annotation focus: a note opens with Tab only, or picking an
option opens its note at once."""
SOUND_VOLUME_MAX = 100
Language = Literal["en", "zh"]
Shape = Literal["provide_choice", "hitl_request", "request_user_choice", "ask_user_question"]
"""Which tool or body shape asked: the compatibility shapes answer the way their callers
expect (`hitl_request` is options-only with an explicit outcome; `request_user_choice`
answers with the chosen title or typed text; `ask_user_question`, Claude Code's
AskUserQuestion, with each question's text mapped to the chosen labels)."""
Status = Literal["pending", "widened", "deferred", "submitted", "auto_submitted", "cancelled",
                 "timeout", "withdrawn"]
ActionStatus = Literal["selected", "custom_input", "cancelled", "timeout"]
SubmissionKind = Literal["manual", "auto", "timeout_default"]
AnsweredVia = Literal["web", "terminal", "api", "mcp", "client"]
"""How the answer reached the portal: a person in a page or the terminal UI, a script with
the token, an agent's MCP call, or an MCP client asking its user (elicitation)."""
DecidedBy = Literal["owner", "quorum"]
SummarySource = Literal["discussion_extraction", "owner_override", "manual", "quorum"]
"""Where a widened decision's final answer came from (docs/guides/write-back.md). An agent's
`slack_extraction` is taken as `discussion_extraction`: our discussions happen in the portal."""
SCHEMA_VERSION: Literal[1] = 1

COMPLETED_STATUSES: tuple[Status, ...] = ("submitted", "auto_submitted", "cancelled", "timeout",
                                          "withdrawn")
"""`withdrawn`: the agent took its question back (it found its answer elsewhere)."""
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


class Strict(Model):
    """Unknown fields are errors: a typo must not silently change what the human sees."""

    model_config = ConfigDict(extra="forbid")
