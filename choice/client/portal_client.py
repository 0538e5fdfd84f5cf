"""A small HTTP client for a running portal, on the standard library only.

Used by the CLI (`choice ask`, `choice list`) and the terminal UI. It must start fast, so it
imports neither Litestar nor pydantic.
"""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlencode, urlsplit


class PortalUnreachable(ConnectionError):
    """Nothing answers at the portal's address (or it is not a choice portal)."""


class PortalGone(ConnectionError):
    """No portal answers (refused, reset, gone mid-reply), and none could be started."""


class PortalError(Exception):
    """The portal answered with an error status; `body` holds its `errors` list."""

    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.body = body if isinstance(body, dict) else {"errors": []}
        super().__init__(f"HTTP {status}")

    @property
    def errors(self) -> list[dict[str, Any]]:
        errors = self.body.get("errors")
        return errors if isinstance(errors, list) else []


class PortalClient:
    def __init__(self, base_url: str, token: str | None, timeout: float = 10.0) -> None:
        parts = urlsplit(base_url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.token = token
        self.timeout = timeout

    def request(self, method: str, path: str, body: Any = None, *,
                timeout: float | None = None) -> tuple[int, Any]:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout or self.timeout)
        try:
            conn.request(method, path, body=payload, headers=headers)
            response = conn.getresponse()
            raw = response.read()
        except (TimeoutError, ConnectionError, OSError) as exc:
            raise PortalUnreachable(f"no portal answers at {self.host}:{self.port} ({exc})") from exc
        finally:
            conn.close()
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            data = {"errors": [{"field": "response", "code": "not_json",
                                "message": raw[:200].decode(errors="replace")}]}
        return response.status, data

    def call(self, method: str, path: str, body: Any = None, *,
             timeout: float | None = None) -> Any:
        status, data = self.request(method, path, body, timeout=timeout)
        if status >= 400:
            raise PortalError(status, data)
        return data

    def is_portal(self) -> bool:
        try:
            status, data = self.request("GET", "/healthz", timeout=2.0)
        except PortalUnreachable:
            return False
        return status == 200 and isinstance(data, dict) and data.get("portal") == "choice"

    def create(self, request: dict[str, Any], wait: float = 0) -> Any:
        query = f"?{urlencode({'wait': wait})}" if wait else ""
        return self.call("POST", f"/api/interactions{query}", request, timeout=wait + 15)

    def poll(self, interaction_id: str, wait: float = 60, *, candidates: bool = True) -> Any:
        """The result, or the hand-off while open. `candidates=False`: a poller that cannot
        summarise a discussion (`choice ask`) is not handed the owner's summary request."""
        query = urlencode({"wait": wait} if candidates else {"wait": wait, "candidates": 0})
        return self.call("GET", f"/api/interactions/{interaction_id}?{query}", timeout=wait + 15)

    def cancel(self, interaction_id: str, note: str | None = None) -> Any:
        return self.call("POST", f"/api/interactions/{interaction_id}/cancel",
                         {"global_annotation": note} if note else {})

    def detail(self, interaction_id: str) -> Any:
        return self.call("GET", f"/api/interactions/{interaction_id}/detail")

    def respond(self, interaction_id: str, submission: dict[str, Any], *,
                dry_run: bool = False) -> Any:
        """The human's answer; with `dry_run` only checked (the same 409/422, nothing stored)."""
        query = "?dry_run=1" if dry_run else ""
        return self.call("POST", f"/api/interactions/{interaction_id}/response{query}", submission)

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

    def widen(self, interaction_id: str, audience: list[str] | None, mode: str) -> Any:
        """Invite teammates (`audience` None: the whole team list); the reply holds each
        participant's link, shown this once."""
        body: dict[str, Any] = {"mode": mode}
        if audience:
            body["audience"] = audience
        return self.call("POST", f"/api/interactions/{interaction_id}/widen", body)

    def team(self, interaction_id: str) -> Any:
        """The owner's view of a widened question: participants, thread, tally."""
        return self.call("GET", f"/api/interactions/{interaction_id}/team")

    # -- the write-back of a decision (the owner's calls; the terminal UI says so) ------------
    def review(self, interaction_id: str) -> Any:
        """The review as it stands (the seed's CandidateReview with its `state`)."""
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
