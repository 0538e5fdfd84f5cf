"""OpenAPI for what Litestar cannot infer: bodies we parse ourselves, replies we build as
dicts, and the errors our exception handlers send.

Bodies with one fixed shape are typed (`data: SomeModel`) and Litestar documents them. Four
are read as raw JSON instead, so `body_of` documents them from the contract models: the
request (three compatible shapes; cancel-disabling fields become warnings, not errors), the
cancel and sign-in-link bodies, which may be left out (Litestar documents every typed body
as required), and the answer (Litestar would document its `option_annotations`, a dict of
notes, as an array). The handlers return plain dicts (`choice.core.replies`), so the models below
only describe those replies for the schema (`responses=` on each route); nothing is
serialized through them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, Literal

from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Link, OpenAPIMediaType, OpenAPIResponse, Operation, RequestBody
from pydantic import BaseModel, Field

from choice.contract import (
    ChoiceRequest,
    ChoiceResult,
    FieldError,
    Handoff,
    Interface,
    Outcome,
    SelectionMode,
    Status,
)
from choice.contract.model import Model
from choice.contract.schemas import inline_schema
from choice.core.config import Settings
from choice.decision.models import DeferredReply, SummaryRequested
from choice.team.models import WidenedReply


@dataclass
class OperationWithBody(Operation):
    """An operation whose JSON request body is one of `body_models`; `body_links` are added
    to the responses with those status codes. Each route gets a plain subclass with its
    own (`body_of`): one dataclass for all, so a start does not
    make a dataclass per route. Subclassing `Operation` and passing it as a handler's
    `operation_class` is Litestar's documented way to describe a body it cannot infer
    (its OpenAPI guide, "Customizing Operation class")."""

    body_models: ClassVar[tuple[type[BaseModel], ...]] = ()
    body_required: ClassVar[bool] = True
    body_links: ClassVar[dict[int, dict[str, Link]]] = {}

    def __post_init__(self) -> None:
        self.request_body = RequestBody(
            required=self.body_required,
            content={"application/json": OpenAPIMediaType(schema=body_schema(self.body_models))},  # type: ignore[arg-type]
        )
        for status, status_links in self.body_links.items():
            response = (self.responses or {}).get(str(status))
            if isinstance(response, OpenAPIResponse):
                response.links = {**(response.links or {}), **status_links}


def body_of(*models: type[BaseModel], required: bool = True,
            links: dict[int, dict[str, Link]] | None = None) -> type[Operation]:
    """The operation class of a route whose body is one of `models`. Its schema is made
    with the OpenAPI document (`/schema`), not at import: making it slowed every start."""
    return type("WithBody", (OperationWithBody,), {
        "body_models": models, "body_required": required, "body_links": links or {}})


@cache
def body_schema(models: tuple[type[BaseModel], ...]) -> dict[str, Any]:
    """One model's schema, or `oneOf` several, with their `$defs` inlined."""
    schemas = [inline_schema(model) for model in models]
    return schemas[0] if len(schemas) == 1 else {"oneOf": schemas}


def interaction_links(*operation_ids: str) -> dict[str, Link]:
    """OpenAPI links from a reply carrying `interaction_id` to the operations on that
    interaction (clients and stateful testers follow them)."""
    return {operation_id: Link(operation_id=operation_id,
                               parameters={"path.interaction_id": "$response.body#/interaction_id"})
            for operation_id in operation_ids}


class CheckedAnswer(ChoiceResult):
    """`?dry_run=1`: what the answer would produce. Nothing was stored; still pending, so
    not completed either (`completed_at` is null)."""

    status: Literal["pending"]
    stored: Literal[False]
    completed_at: None = None  # type: ignore[assignment]


class CreatedHandoff(Handoff):
    warnings: list[str]


class CreatedWidened(WidenedReply):
    """Widened with `continue` within `wait`: the agent may carry on and poll later."""

    warnings: list[str]


class CreatedOutcome(Outcome):
    warnings: list[str]


class Listing(Model):
    interaction_id: str
    title: str
    status: Status
    interface: Interface
    selection_mode: SelectionMode | Literal["questions"] = Field(
        description="The question's mode, or `questions` when it asks several.")
    agent: str | None
    project: str | None
    created_at: str
    expires_at: str
    completed_at: str | None
    question_count: int = Field(description="How many questions it asks (1 unless several).")


class InteractionList(Model):
    interactions: list[Listing]
    widened_to_me: list[Listing] | None = Field(
        default=None, description="Team mode only: other members' questions widened to you, "
                                  "still under discussion; take part at "
                                  "`/api/widened/{interaction_id}` (or the page "
                                  "`/widened/{interaction_id}`).")


class Detail(Listing):
    request: ChoiceRequest
    placeholder_shown: bool
    language: str
    result: ChoiceResult | None


class AuditEntry(Model):
    kind: str
    actor: str
    at: str
    detail: dict[str, Any] | None


class AuditTrail(Model):
    events: list[AuditEntry]
    events_after: int | None = Field(
        description="The cursor of the next page (`?after=`); null once this page reaches "
                    "the end of the trail.")


class ErrorBody(Model):
    """Every error. A 409 adds the interaction as it stands and the result that stands."""

    errors: list[FieldError]
    interaction: Listing | None = None
    result: ChoiceResult | None = None


Reply = Handoff | WidenedReply | SummaryRequested | DeferredReply | Outcome

ERRORS = {
    400: "The request could not be read.",
    401: "Missing or wrong bearer token: the portal's (`choice token` prints it); on a team "
         "server, a member's agent token (`chp_...`) or their signed-in session.",
    404: "No interaction with that id (or it was removed by retention).",
    409: "Already completed: nothing changed; the standing result is included. On a "
         "comment: the discussion has ended, or holds 500 comments (`discussion_full`), or "
         "the link wrote 100 (`too_many_comments`).",
    413: f"The body is over {Settings.max_body_bytes // 1024} KiB.",
    415: "The body is not sent as application/json.",
    422: "Invalid request, answer or parameter: every problem at once, each with its fix.",
    429: "Too many comments (20) or vote changes (10) in a minute: wait the `Retry-After` "
         "seconds.",
}
BODY_ERRORS = (413, 415, 422)


def described(container: Any, description: str, media_type: str = "application/json"
              ) -> ResponseSpec:
    return ResponseSpec(data_container=container, description=description,
                        media_type=media_type, generate_examples=False)


def errors(*statuses: int) -> dict[int, ResponseSpec]:
    """The error responses of an `/api` operation: 400 and 401 always, plus `statuses`."""
    return {status: described(ErrorBody, ERRORS[status])
            for status in sorted({400, 401, *statuses})}
