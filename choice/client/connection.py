"""Where the portal is and which token to send: the same discovery as `choice ask`.

The address comes from `base_url=`, else the `CHOICE_HOST` / `CHOICE_PORT` settings (default
http://127.0.0.1:8765); the token from `token=`, else the token file `choice token` prints
(`<CHOICE_DATA_DIR>/token`). A portal is started only when the caller asks
(`start_portal=True`): then, like `choice mcp`, a detached `choice serve` that exits by
itself once idle, so it outlives this process for a question answered later. This module
makes no request of its own beyond `/healthz`.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from choice.client.errors import PortalNotRunning
from choice.core.config import Settings
from choice.core.token import read_token


@dataclass(frozen=True)
class Connection:
    base_url: str
    token: str | None

    @property
    def headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers


def settings_for(base_url: str | None) -> Settings:
    """The configured settings, pointed at `base_url` when one is given (its host and port
    decide where a started portal listens)."""
    env = dict(os.environ)
    if base_url:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url {base_url!r}: give an http URL such as "
                             "http://127.0.0.1:8765")
        env["CHOICE_HOST"] = parts.hostname
        env["CHOICE_PORT"] = str(parts.port or (443 if parts.scheme == "https" else 80))
    return Settings.from_env(env)


def discover(base_url: str | None = None, token: str | None = None) -> Connection:
    """The portal's address and token, from the arguments or the environment."""
    settings = settings_for(base_url)
    url = (base_url or settings.base_url).rstrip("/")
    return Connection(url, token if token is not None else read_token(settings.token_path))


def ensure_started(base_url: str | None = None, token: str | None = None) -> Connection:
    """Make sure a portal answers (starting a detached one if none does), then discover:
    the token file exists once a portal has started."""
    from choice.client.autostart import ensure_portal
    from choice.client.portal_client import PortalGone

    settings = settings_for(base_url)
    try:
        ensure_portal(settings)
    except PortalGone as exc:
        raise PortalNotRunning(base_url or settings.base_url, str(exc)) from exc
    return discover(base_url, token)


class Outage:
    """One call's view of an unreachable portal: a restart is waited out for `limit`
    seconds (pending questions come back with it), then the call gives up."""

    def __init__(self, base_url: str, limit: float, retry: bool) -> None:
        self.base_url, self.limit, self.retry = base_url, limit, retry
        self.since: float | None = None

    def give_up_or_go_on(self, error: Exception) -> None:
        """`PortalNotRunning` once it has lasted too long (or retrying is off)."""
        self.since = self.since or time.monotonic()
        if not self.retry or time.monotonic() - self.since > self.limit:
            raise PortalNotRunning(self.base_url, str(error)) from error
