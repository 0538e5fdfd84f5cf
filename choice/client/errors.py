"""What can go wrong when anything asks the portal over HTTP: the one family of errors.

Owns the exceptions of every caller of `PortalClient` (the Python API, `choice ask`,
`choice list`, `choice answer`, the stdio bridge) and `refusal`, which turns an error status
into one of them. Two things can go wrong: nothing answers (`PortalNotRunning`), or the
portal answered with an error status (`PortalRefused`, and `InvalidRequest` for a 422).
A deferral is not one of them: the owner setting a question aside is an answer of sorts,
returned as a `Deferral` value (`replies.py`). Standard library only: the commands that
must start fast import it. It must not say how to start a portal to a caller that cannot
act on the advice: the hint comes from whoever builds the client.
"""

from __future__ import annotations

from typing import Any

START_HINT = ("start one with `choice serve` (or pass start_portal=True to ask()); set "
              "CHOICE_HOST / CHOICE_PORT (or base_url=) if it runs elsewhere")
"""What the Python API says when nothing answers (its callers can pass those arguments)."""
TOKEN_HINT = " (the token is the one `choice token` prints, from CHOICE_DATA_DIR; pass token= " \
             "from Python)"
REMOTE_HINT = ("check that CHOICE_URL is the team server's address and that the server is up "
               "(nothing is started on this machine while CHOICE_URL is set)")
"""What every caller says when the team server `CHOICE_URL` names does not answer."""
REMOTE_TOKEN_HINT = (" (the team server refused CHOICE_TOKEN: create a new personal agent "
                     "token on its settings page and set CHOICE_TOKEN to it)")
"""Ends a 401 from the team server: the token is the one thing the caller can fix."""


class ClientError(Exception):
    """Anything a caller of the portal cannot turn into a result."""


class PortalNotRunning(ClientError, ConnectionError):
    """Nothing answers at the portal's address (refused, reset, timed out, gone mid-reply,
    or it could not be started). `hint` says what the caller can do about it."""

    def __init__(self, base_url: str, detail: str = "", hint: str = "") -> None:
        self.base_url = base_url
        self.detail = detail
        reason = f" ({detail})" if detail else ""
        super().__init__(f"no choice portal answers at {base_url}{reason}"
                         + (f": {hint}" if hint else ""))


class PortalRefused(ClientError):
    """The portal answered with an error status (a wrong token, an unknown interaction, a
    completed one). `errors` holds its `[{field, code, message}]` list and `body` the whole
    reply (a 409 carries the standing result there)."""

    def __init__(self, status: int, body: Any, hint: str = "") -> None:
        """`body`: the reply's JSON (`{"errors": [...], ...}`) or the errors list itself."""
        self.status = status
        self.body: dict[str, Any] = (body if isinstance(body, dict)
                                     else {"errors": body if isinstance(body, list) else []})
        said = "; ".join(f"{e.get('field')}: {e.get('message')}" for e in self.errors) or "-"
        super().__init__(f"the portal refused the call (HTTP {status}): {said}{hint}")

    @property
    def errors(self) -> list[dict[str, Any]]:
        errors = self.body.get("errors")
        return [e for e in errors if isinstance(e, dict)] if isinstance(errors, list) else []


class InvalidRequest(PortalRefused):
    """HTTP 422: the request (or an answer) breaks the contract, and nothing was stored.
    `errors` names each field (`options[1].id`) with a message saying how to fix it."""

    def __init__(self, errors: list[dict[str, Any]], body: dict[str, Any] | None = None) -> None:
        super().__init__(422, body if body is not None else {"errors": errors})
        self.args = ("the request is invalid: " + "; ".join(
            f"{e.get('field')}: {e.get('message')}" for e in self.errors),)

    @property
    def fields(self) -> list[str]:
        return [str(e.get("field")) for e in self.errors]


def refusal(status: int, body: Any, token_hint: str = TOKEN_HINT) -> PortalRefused:
    """The exception an error status stands for; a 401 ends with `token_hint` (where the
    token comes from: the token file, or `CHOICE_TOKEN` for a team server)."""
    if status == 422:
        refused = PortalRefused(status, body)
        return InvalidRequest(refused.errors, refused.body)
    return PortalRefused(status, body, token_hint if status == 401 else "")


# The names the terminal, the CLI and the tests knew before the family was one: the same
# classes, so `except PortalError` catches what `except PortalRefused` does.
PortalUnreachable = PortalNotRunning
PortalGone = PortalNotRunning
PortalError = PortalRefused
