"""Where the portal is and which token to send: the one discovery, for every caller.

The address comes from `base_url=`, else the `CHOICE_HOST` / `CHOICE_PORT` settings (default
http://127.0.0.1:8765); the token from `token=`, else the token file `choice token` prints
(`<CHOICE_DATA_DIR>/token`). The Python API, `choice ask`, `choice list`, `choice open`,
`choice answer` and the stdio bridge all find it here, and get their `PortalClient` from
`Connection.client`. `ensure_started` also starts a detached portal (`autostart.py`) when
none answers: the Python API with `start_portal=True`, like `choice mcp`. `choice ask` starts
one inside its own process instead (`choice.cli.ask`). This module makes no request of its
own beyond `/healthz`. Standard library and the core's settings only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit

from choice.client.errors import PortalNotRunning
from choice.client.portal_client import PortalClient
from choice.core.config import Settings
from choice.core.token import read_token


@dataclass(frozen=True)
class Connection:
    base_url: str
    token: str | None

    def client(self, *, hint: str = "", timeout: float = 10.0) -> PortalClient:
        """The HTTP client for this portal (`hint`: see `PortalClient`)."""
        return PortalClient(self.base_url, self.token, timeout, hint=hint)


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


def discover(base_url: str | None = None, token: str | None = None, *,
             settings: Settings | None = None) -> Connection:
    """The portal's address and token, from the arguments, else `settings` (a command's
    own, already read), else the environment."""
    settings = settings or settings_for(base_url)
    url = (base_url or settings.base_url).rstrip("/")
    return Connection(url, token if token is not None else read_token(settings.token_path))


def ensure_started(base_url: str | None = None, token: str | None = None, *,
                   hint: str = "") -> Connection:
    """Make sure a portal answers (starting a detached one if none does), then discover:
    the token file exists once a portal has started."""
    from choice.client.autostart import ensure_portal

    settings = settings_for(base_url)
    try:
        ensure_portal(settings)
    except PortalNotRunning as exc:
        raise PortalNotRunning(base_url or settings.base_url, exc.detail, hint) from exc
    return discover(base_url, token, settings=settings)
