"""Where the portal is and which token to send: the one discovery, for every caller.

The address comes from `base_url=`, else `CHOICE_URL` (a team server: see below), else the
`CHOICE_HOST` / `CHOICE_PORT` settings (default http://127.0.0.1:8765); the token from
`token=`, else `CHOICE_TOKEN` with `CHOICE_URL`, else the token file `choice token` prints
(`<CHOICE_DATA_DIR>/token`). A team server (`Connection.remote`) is never started, its
address is not this machine's, and nothing of it lives in the data dir: no token file is
read, and the errors its clients raise name `CHOICE_URL` and `CHOICE_TOKEN`. The Python API,
`choice ask`, `choice list`, `choice open`, `choice answer` and the stdio bridge all find it
here, and get their `PortalClient` from `Connection.client`. `ensure_started` also starts a
detached portal (`autostart.py`) when none answers: the Python API with `start_portal=True`,
like `choice mcp`. `choice ask` starts one inside its own process instead
(`choice.cli.ask`). This module makes no request of its own beyond `/healthz`. Standard
library and the core's settings only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from choice.client.errors import REMOTE_HINT, REMOTE_TOKEN_HINT, PortalNotRunning
from choice.client.portal_client import PortalClient
from choice.core.config import Settings
from choice.core.token import read_token


@dataclass(frozen=True)
class Connection:
    base_url: str
    token: str | None
    remote: bool = False
    """A team server (`CHOICE_URL`): nothing is started for it, nothing written for it."""

    def client(self, *, hint: str = "", timeout: float = 10.0) -> PortalClient:
        """The HTTP client for this portal (`hint`: see `PortalClient`; a team server's
        clients say what to check in `CHOICE_URL` and `CHOICE_TOKEN` instead)."""
        if self.remote:
            return PortalClient(self.base_url, self.token, timeout, hint=REMOTE_HINT,
                                token_hint=REMOTE_TOKEN_HINT)
        return PortalClient(self.base_url, self.token, timeout, hint=hint)


def team_server(settings: Settings) -> Connection | None:
    """The team server `CHOICE_URL` names, with `CHOICE_TOKEN` (`Settings.from_env` has
    checked both); None when the portal is this machine's."""
    if settings.remote_url is None:
        return None
    return Connection(settings.remote_url, settings.remote_token, remote=True)


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
    remote = None if base_url else team_server(settings)
    if remote is not None:
        return remote if token is None else replace(remote, token=token)
    url = (base_url or settings.base_url).rstrip("/")
    return Connection(url, token if token is not None else read_token(settings.token_path))


def ensure_started(base_url: str | None = None, token: str | None = None, *,
                   hint: str = "") -> Connection:
    """Make sure a portal answers (starting a detached one if none does), then discover:
    the token file exists once a portal has started. A team server is only discovered:
    its first request says whether it answers."""
    from choice.client.autostart import ensure_portal

    settings = settings_for(base_url)
    if base_url is None and settings.remote_url is not None:
        return discover(None, token, settings=settings)
    try:
        ensure_portal(settings)
    except PortalNotRunning as exc:
        raise PortalNotRunning(base_url or settings.base_url, exc.detail, hint) from exc
    return discover(base_url, token, settings=settings)
