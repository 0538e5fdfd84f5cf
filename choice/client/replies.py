"""The wire, without the network: the body `ask` sends, and what each reply means.

Shared by the blocking and the async client, so both read replies the same way. The typed
result is the contract's own `Outcome` (pydantic, which the portal's contract is written
in and which every caller of this package already has installed through it): one
definition of a result, never a second copy that drifts; likewise the portal's own models
of a deferral and of a widened question. Each keeps fields a newer portal adds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from choice.client.errors import InvalidRequest, PortalRefused
from choice.contract import OPEN_STATUSES, Outcome
from choice.decision.models import DeferredReply
from choice.team.models import WidenedReply

MAX_WAIT = 60
"""The portal's longest `?wait` window (seconds); the client polls again after each."""


class Result(Outcome):
    """The contract's `Outcome` (the result with its final `status`), keeping any field a
    newer portal adds (reachable as attributes and through `model_extra`)."""

    model_config = ConfigDict(extra="allow")


class Deferral(DeferredReply):
    """The owner set the decision aside, saying why (`rationale`): not an answer, and not
    an error. The question stays on the portal; `Client.collect(interaction_id)` waits for
    the decision once it is taken up again."""

    model_config = ConfigDict(extra="allow")


class Widening(WidenedReply):
    """The owner invited teammates (`participants`): the wait goes on until they decide."""

    model_config = ConfigDict(extra="allow")


Answer = Result | Deferral
OnWidened = Callable[[Widening], None]


def request_body(request: Mapping[str, Any] | BaseModel | None,
                 fields: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON body: a dict, a contract model (`ChoiceRequest`, `HitlRequest`,
    `RequestUserChoice`) or keyword fields; keyword fields win over the request's own."""
    if request is None:
        body: dict[str, Any] = {}
    elif isinstance(request, BaseModel):
        body = request.model_dump(mode="json", exclude_unset=True)
        body.pop("shape", None)  # set by the portal from the body's shape, never sent
    elif isinstance(request, Mapping):
        body = dict(request)
    else:
        raise TypeError(f"request: expected a dict or a choice.models request, "
                        f"not {type(request).__name__}")
    body.update(fields)
    return body


def checked(status: int, text: str) -> dict[str, Any]:
    """The reply's JSON body, or the exception its error status stands for."""
    try:
        body = json.loads(text) if text else None
    except ValueError:
        body = {"errors": [{"field": "response", "code": "not_json", "message": text[:200]}]}
    errors = body.get("errors") if isinstance(body, dict) else None
    errors = errors if isinstance(errors, list) else []
    if status == 422:
        raise InvalidRequest(errors)
    if status == 401:
        raise PortalRefused(status, errors, hint=" (pass token=, or run `choice token` to "
                                                 "see the one in CHOICE_DATA_DIR)")
    if status >= 400 or not isinstance(body, dict):
        raise PortalRefused(status, errors)
    return body


def settled(reply: dict[str, Any]) -> Answer | None:
    """The typed answer once the question is over or deferred; None while it is open."""
    status = reply.get("status")
    if status in OPEN_STATUSES:
        return None
    if status == "deferred":
        return Deferral.model_validate(reply)
    return Result.model_validate(reply)


class Watch:
    """Reads the replies of one wait in turn: the answer once settled, and a widening
    passed to `on_widened` the first time only (later windows say it again)."""

    def __init__(self, on_widened: OnWidened | None) -> None:
        self.on_widened = on_widened
        self.heard = False

    def answer(self, reply: dict[str, Any]) -> Answer | None:
        if reply.get("status") == "widened" and not self.heard:
            self.heard = True
            if self.on_widened is not None:
                self.on_widened(Widening.model_validate(reply))
        return settled(reply)


def check_poll_seconds(seconds: float) -> float:
    if not 1 <= seconds <= MAX_WAIT:
        raise ValueError(f"poll_seconds={seconds}: give 1 to {MAX_WAIT} (the portal's longest "
                         "wait window); the client polls again after each window")
    return seconds
