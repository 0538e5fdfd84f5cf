"""What can go wrong when a Python program asks a human through the portal.

Owns the client's exceptions only. A deferral is not one of them: the owner setting a
question aside is an answer of sorts, returned as a `Deferral` value (see `replies.py`).
"""

from __future__ import annotations

from typing import Any

START_HINT = "start one with `choice serve` (or pass start_portal=True to ask())"


class ClientError(Exception):
    """Anything the client cannot turn into a result."""


class PortalNotRunning(ClientError, ConnectionError):
    """No choice portal answers at the address: the message says how to start one."""

    def __init__(self, base_url: str, detail: str = "") -> None:
        self.base_url = base_url
        reason = f" ({detail})" if detail else ""
        super().__init__(f"no choice portal answers at {base_url}{reason}: {START_HINT}; "
                         "set CHOICE_HOST / CHOICE_PORT (or base_url=) if it runs elsewhere")


class PortalRefused(ClientError):
    """The portal answered with an error status (a wrong token, an unknown interaction).
    `errors` holds its `[{field, code, message}]` list."""

    def __init__(self, status: int, errors: list[dict[str, Any]], hint: str = "") -> None:
        self.status = status
        self.errors = errors
        said = "; ".join(f"{e.get('field')}: {e.get('message')}" for e in errors) or "-"
        super().__init__(f"the portal refused the call (HTTP {status}): {said}{hint}")


class InvalidRequest(PortalRefused):
    """HTTP 422: the request breaks the contract, and no human saw it. `errors` names each
    field (`options[1].id`) with a message saying how to fix it."""

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__(422, errors)
        self.args = ("the request is invalid: " + "; ".join(
            f"{e.get('field')}: {e.get('message')}" for e in errors),)

    @property
    def fields(self) -> list[str]:
        return [str(e.get("field")) for e in self.errors]
