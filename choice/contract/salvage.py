"""What the cross-field rules can still say about a request pydantic refused.

Owns the stand-in: a refused payload repaired just enough to validate, and the fields whose
value is then not the caller's. `validation.validate_request` runs the cross-field rules on
it, and every rule that reads one of those fields stays quiet, so one reply reports every
problem (an empty `title` together with `min_selections: 3` on two options) and never one
about a value the caller did not send. Nothing here decides a rule, and nothing it builds
is stored or shown.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct
from pydantic import ValidationError

from choice.contract import ChoiceRequest

STAND_INS: dict[str, object] = {
    "title": "title", "prompt": "prompt", "label": "label", "placeholder": "placeholder",
    "header": None, "description": None, "rationale": None, "recommended": False,
    "allow_annotations": None, "widen_hint": None,
}
"""A valid value for a refused field whose value no cross-field rule weighs (the rules weigh
ids, counts and modes, and only whether a text is there at all): the field stays present,
so what the rules say about the rest still holds. Its own error is already reported."""


class Salvaged(Struct, frozen=True):
    request: ChoiceRequest
    unsure: frozenset[str]
    """Top-level fields left out because pydantic refused them: a rule reading any of them
    stays quiet."""


def salvaged(payload: dict[str, Any]) -> Salvaged | None:
    """The request with each refused location repaired: an unknown field dropped, a text or
    flag given its stand-in, anything else (an id, a count, a mode, an option that is not an
    object) dropped with its whole top-level field. None if even that does not validate."""
    try:
        return Salvaged(ChoiceRequest.model_validate(payload), frozenset())
    except ValidationError as exc:
        refused = exc.errors()
    repaired, unsure = dict(payload), set[str]()
    copied = {id(repaired)}  # what is ours to change: the caller's payload stays as sent
    for error in refused:
        loc = tuple(error["loc"])
        if not loc or not isinstance(loc[0], str):
            continue
        container, leaf = _writable(repaired, loc[:-1], copied), loc[-1]
        if container is not None and error["type"] == "extra_forbidden":
            container.pop(str(leaf), None)  # reported as unknown; no rule reads it
        elif container is not None and isinstance(leaf, str) and leaf in STAND_INS:
            container[leaf] = STAND_INS[leaf]
        else:
            unsure.add(loc[0])
            repaired.pop(loc[0], None)
    try:
        return Salvaged(ChoiceRequest.model_validate(repaired), frozenset(unsure))
    except (ValidationError, RecursionError):
        return None


def _writable(root: dict[str, Any], path: tuple[Any, ...],
              copied: set[int]) -> dict[str, Any] | None:
    """The object at `path` inside `root`, if there is one, copied on the way down (only
    along the path: a deep copy of a hostile payload nested a thousand levels would
    overflow the stack)."""
    node: Any = root
    for part in path:
        in_list = isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node)
        in_dict = isinstance(part, str) and isinstance(node, dict) and part in node
        if not (in_list or in_dict):
            return None
        child = node[part]
        if isinstance(child, dict | list) and id(child) not in copied:
            child = dict(child) if isinstance(child, dict) else list(child)
            copied.add(id(child))
            node[part] = child
        node = child
    return node if isinstance(node, dict) else None
