"""The one HTTP client of the portal's API, on the standard library only.

Owns what every caller sends and gets back: the address (`base_url`, http or https, with an
optional path prefix), the headers and the bearer token, one request per connection with
its timeout, the JSON body, the error family (`choice.client.errors`: nothing answers, or an
error status) and one method per endpoint. Used by the Python API (`Client`, and
`AsyncClient` on worker threads), `choice ask`, `choice list`, `choice open`, the terminal UI
and the start of a portal (`autostart.py`). It must start fast, so it imports neither
httpx, pydantic nor Litestar; and it does not wait or retry: the poll loop
(`choice.client.watch`) decides when to ask again.
"""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlencode, urlsplit

from choice.client.errors import (
    TOKEN_HINT,
    PortalError,
    PortalGone,
    PortalNotRunning,
    PortalRefused,
    PortalUnreachable,
    refusal,
)

__all__ = ["PortalClient", "PortalError", "PortalGone", "PortalNotRunning", "PortalRefused",
           "PortalUnreachable", "address", "auth_headers"]

POLL_MARGIN = 15.0
"""Seconds a wait may outlast its window before the call gives up: the portal answers at the
window's end, so only a portal that stopped answering takes longer."""


def address(base_url: str) -> tuple[str, int]:
    """The host and port `base_url` names (the stdio bridge's `/mcp` link uses it too)."""
    parts = urlsplit(base_url)
    return parts.hostname or "127.0.0.1", parts.port or (443 if parts.scheme == "https" else 80)


def auth_headers(token: str | None) -> dict[str, str]:
    """The bearer token as a header (none without a token: `/healthz` and participants)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


def _not_json(raw: bytes) -> dict[str, str]:
    return {"field": "response", "code": "not_json",
            "message": raw[:200].decode(errors="replace")}


class PortalClient:
    """`hint` ends the message of `PortalNotRunning`: what this caller can do when nothing
    answers (the Python API's `START_HINT`; the commands say it in their own words).
    `token_hint` ends the message of a 401: where the token comes from."""

    def __init__(self, base_url: str, token: str | None, timeout: float = 10.0, *,
                 hint: str = "", token_hint: str = TOKEN_HINT) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = address(base_url)
        self.https = parts.scheme == "https"
        self.prefix = parts.path.rstrip("/")
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.hint = hint
        self.token_hint = token_hint

    def request(self, method: str, path: str, body: Any = None, *,
                timeout: float | None = None) -> tuple[int, Any]:
        """The status and the JSON body, whatever the status (a body that is not JSON
        becomes an `errors` list); `PortalNotRunning` when nothing answers."""
        status, raw = self._exchange(method, path, body, timeout)
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, {"errors": [_not_json(raw)]}

    def call(self, method: str, path: str, body: Any = None, *,
             timeout: float | None = None, raw_body: tuple[bytes, str] | None = None) -> Any:
        """The JSON body of a success; the family's exception for anything else (an error
        status, or a success that is not JSON: a proxy's page is no portal's answer).
        `raw_body`: bytes and their content type, sent as they are instead of `body`."""
        status, raw = self._exchange(method, path, body, timeout, raw_body)
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            raise refusal(status, [_not_json(raw)], self.token_hint) from None
        if status >= 400:
            raise refusal(status, data, self.token_hint)
        return data

    def _object(self, method: str, path: str, body: Any = None, *,
                timeout: float | None = None) -> dict[str, Any]:
        """An interaction's reply: a JSON object, or `PortalRefused`."""
        data = self.call(method, path, body, timeout=timeout)
        if not isinstance(data, dict):
            raise PortalRefused(200, [{"field": "response", "code": "not_an_object",
                                       "message": str(data)[:200]}])
        return data

    def _exchange(self, method: str, path: str, body: Any,
                  timeout: float | None, raw: tuple[bytes, str] | None = None,
                  ) -> tuple[int, bytes]:
        """One request on a connection of its own: the status and the raw body. `raw`:
        bytes to send as they are, with their content type, instead of a JSON body."""
        headers = {"Accept": "application/json", **auth_headers(self.token)}
        payload = None
        if raw is not None:
            payload, headers["Content-Type"] = raw
        elif body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        kind = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        conn = kind(self.host, self.port, timeout=timeout or self.timeout)
        try:
            conn.request(method, self.prefix + path, body=payload, headers=headers)
            response = conn.getresponse()
            return response.status, response.read()
        except (TimeoutError, ConnectionError, OSError, http.client.HTTPException) as exc:
            raise PortalNotRunning(self.base_url, str(exc) or type(exc).__name__,
                                   self.hint) from exc
        finally:
            conn.close()

    def is_portal(self) -> bool:
        try:
            status, data = self.request("GET", "/healthz", timeout=2.0)
        except PortalNotRunning:
            return False
        return status == 200 and isinstance(data, dict) and data.get("portal") == "choice"

    def create(self, request: dict[str, Any], wait: float = 0) -> dict[str, Any]:
        """Ask: the hand-off (201), or with `wait` the result if it came in that window.
        Never retried here: a second POST would ask the human twice."""
        query = f"?{urlencode({'wait': wait})}" if wait else ""
        return self._object("POST", f"/api/interactions{query}", request,
                            timeout=wait + POLL_MARGIN)

    def poll(self, interaction_id: str, wait: float = 60, *,
             candidates: bool = True) -> dict[str, Any]:
        """The result, or the hand-off while open. `candidates=False`: a poller that cannot
        summarise a discussion (`choice ask`, the Python API) is not handed the owner's
        summary request."""
        query = urlencode({"wait": wait} if candidates else {"wait": wait, "candidates": 0})
        return self._object("GET", f"/api/interactions/{interaction_id}?{query}",
                            timeout=wait + POLL_MARGIN)

    def cancel(self, interaction_id: str, note: str | None = None) -> Any:
        return self.call("POST", f"/api/interactions/{interaction_id}/cancel",
                         {"global_annotation": note} if note else {})

    def withdraw(self, interaction_id: str, reason: str) -> Any:
        """The agent takes its question back: `withdrawn`, with the reason the person reads
        (`PortalRefused` 409 once it has ended)."""
        return self.call("POST", f"/api/interactions/{interaction_id}/withdraw",
                         {"reason": reason})

    def detail(self, interaction_id: str) -> Any:
        return self.call("GET", f"/api/interactions/{interaction_id}/detail")

    def respond(self, interaction_id: str, submission: dict[str, Any], *,
                dry_run: bool = False) -> Any:
        """The human's answer; with `dry_run` only checked (the same 409/422, nothing stored)."""
        query = "?dry_run=1" if dry_run else ""
        return self.call("POST", f"/api/interactions/{interaction_id}/response{query}", submission)

    def attach_file(self, interaction_id: str, name: str, mime_type: str, data: bytes, *,
                    interface: str | None = None) -> dict[str, Any]:
        """Attach a file to the answer being written (it goes with whichever answer comes):
        its description, `{id, name, mime_type, size, sha256, url}`. `PortalRefused` 422
        names what is wrong (type, size, a sixth file), 409 once the question is over."""
        query = urlencode({"name": name, **({"interface": interface} if interface else {})})
        return dict(self.call("POST", f"/api/interactions/{interaction_id}/draft/files?{query}",
                              raw_body=(data, mime_type), timeout=max(self.timeout, 60.0)))

    def draft_files(self, interaction_id: str) -> list[dict[str, Any]]:
        """The files attached so far, oldest first."""
        return list(self.call("GET", f"/api/interactions/{interaction_id}/draft/files")["files"])

    def detach_file(self, interaction_id: str, file_id: str, *,
                    interface: str | None = None) -> None:
        """Take a file off the answer being written."""
        query = f"?{urlencode({'interface': interface})}" if interface else ""
        self.call("DELETE", f"/api/interactions/{interaction_id}/draft/files/{file_id}{query}")

    def switch_interface(self, interaction_id: str, interface: str) -> Any:
        return self.call("POST", f"/api/interactions/{interaction_id}/interface",
                         {"interface": interface})

    def opened(self, interaction_id: str, interface: str) -> None:
        self.call("POST", f"/api/interactions/{interaction_id}/opened", {"interface": interface})

    def login_link(self, target: str) -> str:
        return str(self.call("POST", "/api/login-links", {"next": target})["url"])

    def settings(self) -> Any:
        return self.call("GET", "/api/settings")

    def save_settings(self, changes: dict[str, Any]) -> Any:
        return self.call("PUT", "/api/settings", changes)

    def widen(self, interaction_id: str, audience: list[str] | None, mode: str,
              members: list[str] | None = None) -> Any:
        """Invite teammates (`audience` None: the whole team list, unless `members` names
        some: a team server's members by email); the reply holds each participant's link,
        shown this once."""
        body: dict[str, Any] = {"mode": mode}
        if audience:
            body["audience"] = audience
        if members:
            body["members"] = members
        return self.call("POST", f"/api/interactions/{interaction_id}/widen", body)

    def team(self, interaction_id: str) -> Any:
        """The owner's view of a widened question: participants, thread, tally."""
        return self.call("GET", f"/api/interactions/{interaction_id}/team")

    # -- the write-back of a decision (the owner's calls; the terminal UI says so) ------------
    def review(self, interaction_id: str) -> Any:
        """The review as it stands (the candidate review with its `state`)."""
        return self.call("GET", f"/api/interactions/{interaction_id}/review")

    def request_review(self, interaction_id: str) -> Any:
        """Fetch & review: ask the agent to summarise the discussion."""
        return self.call("POST", f"/api/interactions/{interaction_id}/review")

    def resolve(self, interaction_id: str, final_answer: str, *,
                selected_ids: list[str] | None = None, rationale: str | None = None) -> Any:
        """The owner's final answer; the portal decides where it came from."""
        body: dict[str, Any] = {"final_answer": final_answer, "interface": "terminal"}
        if selected_ids:
            body["selected_ids"] = selected_ids
        if rationale:
            body["rationale"] = rationale
        return self.call("POST", f"/api/interactions/{interaction_id}/resolve", body)

    def defer(self, interaction_id: str, rationale: str) -> Any:
        return self.call("POST", f"/api/interactions/{interaction_id}/defer",
                         {"rationale": rationale, "interface": "terminal"})

    def resume(self, interaction_id: str) -> Any:
        return self.call("POST", f"/api/interactions/{interaction_id}/resume",
                         {"interface": "terminal"})

    def list(self, status: str = "all", limit: int = 20) -> Any:
        query = urlencode({"status": status, "limit": limit})
        return self.call("GET", f"/api/interactions?{query}")
