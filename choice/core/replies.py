"""What an agent gets back about an interaction: the result once it is over, or the pending
hand-off (where to answer, how to poll). Shared by the HTTP API, the MCP tools and the CLI.

A reply is a typed `AgentReply` until a transport sends it: `to_json()` is the one place it
becomes the JSON object the contract pins (its keys in the order of its fields). A feature
adds its own replies as subclasses (`choice.core.extension.Extension.agent_reply`).
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Any

from msgspec import Struct, to_builtins
from pydantic import BaseModel

from choice.contract import (
    UNRESOLVED_STATUSES,
    ChoiceRequest,
    Option,
    Question,
    SelectionMode,
    Shape,
)
from choice.contract.clock import iso
from choice.core.config import Settings

if TYPE_CHECKING:  # rows are only read here: the store (and SQLAlchemy) stay unimported
    from choice.store.records import Interaction


def terminal_command(settings: Settings, interaction_id: str) -> str:
    """Copy-paste ready, including the environment needed to reach this very portal (a
    `choice answer` without it would look for the default one)."""
    env = [f"{name}={shlex.quote(value)}" for name, value in settings.environment_to_reach().items()]
    return " ".join([*env, "choice", "answer", interaction_id])


def interaction_url(settings: Settings, interaction_id: str) -> str:
    """The bare page URL: it carries no secret (the browser logs in through /login). Under
    `CHOICE_PUBLIC_URL` it is the public one: the owner may read it on another machine,
    and it agrees with the links in webhooks and DiscussionData's `thread_url`."""
    return f"{settings.link_base}/choice/{interaction_id}"


def _builtin(value: Any) -> Any:
    """A contract model inside a reply (a discussion) as the JSON it dumps to."""
    if isinstance(value, BaseModel):
        return value.model_dump()
    raise NotImplementedError(f"no JSON for {type(value).__name__} in a reply")


class AgentReply(Struct, frozen=True):
    """What an agent gets for a question. Subclasses declare their fields in the order
    the JSON object has its keys."""

    def to_json(self) -> dict[str, Any]:
        """The JSON object a transport sends (the HTTP body, the MCP structured content)."""
        built: dict[str, Any] = to_builtins(self, enc_hook=_builtin)
        return built

    def under_review(self, note: str) -> AgentReply | None:
        """This reply while the owner reviews the agent's candidate answer (`note` said
        before its instructions), or None when this kind of reply cannot say so."""
        return None


class Handoff(AgentReply, frozen=True):
    """A question still to answer: where the person answers, and how to poll meanwhile."""

    interaction_id: str
    session_id: str
    status: str
    interface: str
    url: str
    terminal_command: str
    expires_at: str
    instructions: str


class Finished(AgentReply, frozen=True):
    """A question that has a result: the stored result (a `ChoiceResult`'s JSON, as the
    contract wrote it when it ended) with the row's final `status`."""

    result: dict[str, Any]
    status: str

    def to_json(self) -> dict[str, Any]:
        return {**self.result, "status": self.status}


def handoff(row: Interaction, settings: Settings, poll_hint: str) -> Handoff:
    command = terminal_command(settings, row.id)
    if row.interface == "terminal":
        where = f"The human answers in a terminal: run `{command}` where they can see it."
    elif row.interface == "client":
        where = ("The human is asked inside your MCP client (elicitation); they can also "
                 "answer in the browser at url.")
    else:
        where = "The human answers in the browser at url (the portal shows it to them)."
    return Handoff(
        interaction_id=row.id,
        session_id=row.id,
        status=row.status,
        interface=row.interface,
        url=interaction_url(settings, row.id),
        terminal_command=command,
        expires_at=iso(row.expires_at),
        instructions=f"{where} {poll_hint} An answer given between polls is kept.",
    )


def reply(row: Interaction, settings: Settings, poll_hint: str) -> AgentReply:
    """The result with its final `status`, or the hand-off while pending."""
    if row.status == "pending" or row.result_json is None:
        return handoff(row, settings, poll_hint)
    return Finished(row.result_json, row.status)


def answered_in(row: Interaction) -> str:
    """Where a question is, as a list says it: while it is still to decide, where it is
    being asked (`row.interface`, which a switch changes); once it has a result, where it
    was answered (the result's `interface`: a web question answered in the terminal says
    terminal, one asked in an MCP client and answered on its page says web)."""
    if row.status in UNRESOLVED_STATUSES or not row.result_json:
        return row.interface
    answered = row.result_json.get("interface")
    return answered if isinstance(answered, str) and answered else row.interface


def listing(row: Interaction) -> dict[str, Any]:
    """One line of the interaction list (API, SSE, web list, `choice list`)."""
    return {
        "interaction_id": row.id,
        "title": row.title,
        "status": row.status,
        "interface": answered_in(row),
        "selection_mode": row.selection_mode,
        "agent": row.agent,
        "project": row.project,
        "created_at": iso(row.created_at),
        # A deferred question has no running deadline (its reply says none either).
        "expires_at": None if row.status == "deferred" else iso(row.expires_at),
        "completed_at": iso(row.completed_at) if row.completed_at else None,
        "question_count": question_count(row),
    }


def question_count(row: Interaction) -> int:
    """How many questions a row asks: 1, or the several of a `questions` request (the list's
    badge, `choice list`)."""
    if row.selection_mode != "questions":
        return 1
    questions = row.request_json.get("questions")
    return len(questions) if isinstance(questions, list) else 1


class WholeQuestion(Struct, frozen=True):
    """The whole question as a chat UI shows it: every field the human sees."""

    title: str
    prompt: str | None
    selection_mode: SelectionMode
    options: list[Option]
    default_selection_ids: list[str]
    min_selections: int | None
    max_selections: int | None
    placeholder: str | None
    require_confirmation: bool
    shape: Shape
    questions: list[Question] | None

    def to_json(self) -> dict[str, Any]:
        """The JSON object an event carries (its options and questions dumped whole)."""
        built: dict[str, Any] = to_builtins(self, enc_hook=_builtin)
        return built


def whole_question(request: ChoiceRequest) -> WholeQuestion:
    """The whole question as a chat UI shows it: every field the human sees;
    `/api/stream` and the webhook's `interaction.created` carry it."""
    return WholeQuestion(
        title=request.title, prompt=request.prompt, selection_mode=request.selection_mode,
        options=request.options, default_selection_ids=request.default_selection_ids,
        min_selections=request.min_selections, max_selections=request.max_selections,
        placeholder=request.placeholder, require_confirmation=request.require_confirmation,
        shape=request.shape, questions=request.questions)
