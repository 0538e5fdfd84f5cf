"""The Python API's types on the wire: the body `ask` sends, and each reply typed.

Shared by the blocking and the async client, so both read replies the same way; the HTTP
(`portal_client.py`) and the loop's decisions (`watch.py`) are elsewhere. The typed
result is the contract's own `Outcome` (pydantic, which the portal's contract is written
in and which every caller of this package already has installed through it): one
definition of a result, never a second copy that drifts; likewise the portal's own models
of a deferral and of a widened question. Each keeps fields a newer portal adds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from choice.contract import Outcome
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


def typed(reply: dict[str, Any]) -> Answer:
    """The settled reply (`watch.Settled`) typed: a `Deferral`, else the `Result`."""
    if reply.get("status") == "deferred":
        return Deferral.model_validate(reply)
    return Result.model_validate(reply)


def heard_widened(on_widened: OnWidened | None) -> Callable[[dict[str, Any]], None] | None:
    """`on_widened` as the poll loop calls it (with the reply's JSON): typed first."""
    if on_widened is None:
        return None
    return lambda reply: on_widened(Widening.model_validate(reply))


def check_poll_seconds(seconds: float) -> float:
    if not 1 <= seconds <= MAX_WAIT:
        raise ValueError(f"poll_seconds={seconds}: give 1 to {MAX_WAIT} (the portal's longest "
                         "wait window); the client polls again after each window")
    return seconds
