"""The `CHOICE_*` variables, as one table (`VARIABLES`): how each is read and checked (a value
out of range stops the process with a message naming the variable), and what the
configuration reference (docs/gen/configuration.py) says of it. `Settings.from_env`
(`config.py`) reads every one from here, so the two cannot drift.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from choice.core.i18n import language_from_env


def _int(env: dict[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SystemExit(f"{name}={raw!r} is not a whole number: set it to {low}..{high}.") from None
    if not low <= value <= high:
        raise SystemExit(f"{name}={value} is out of range: set it to {low}..{high}.")
    return value


def _number(env: dict[str, str], name: str, default: float, low: float, high: float,
            unit: str) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SystemExit(f"{name}={raw!r} is not a number of {unit}.") from None
    if not low <= value <= high:
        raise SystemExit(f"{name}={value} is out of range: set it to {low:g}..{high:g} {unit}.")
    return value


def _flag(env: dict[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() not in ("0", "false", "no", "off")


def _choice(env: dict[str, str], name: str, allowed: tuple[str, ...]) -> str:
    raw = (env.get(name) or allowed[0]).strip().lower()
    if raw not in allowed:
        raise SystemExit(f"{name}={raw!r} is not one of {', '.join(allowed)}.")
    return raw


def _http_url(env: dict[str, str], name: str) -> str | None:
    raw = (env.get(name) or "").strip()
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        shown = parts._replace(netloc=parts.netloc.rpartition("@")[2], query="").geturl()
        raise SystemExit(f"{name}={shown!r} is not an http(s) URL: e.g. https://choice.example."
                         + (" (Its credentials and query are left out.)" if shown != raw else ""))
    return raw


def origin_of(url: str) -> str | None:
    """`https://Choice.example:443/` -> `https://choice.example`: scheme, host and a port
    only when not the scheme's default, as a browser writes `Origin`; None for anything
    that is not a bare origin (a path, a query, credentials, a malformed port)."""
    parts = urlsplit(url.strip())
    try:
        port = parts.port
    except ValueError:
        return None
    if (parts.scheme not in ("http", "https") or not parts.hostname or parts.username
            or parts.password or parts.path not in ("", "/") or parts.query or parts.fragment):
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{host}" + (f":{port}" if port not in (None, default) else "")


def _remote_url(env: dict[str, str]) -> str | None:
    """The team server's base URL, without a trailing slash: http(s), a host, maybe a port
    and a path prefix (a proxy's `/choice`); never credentials, a query or a fragment,
    which no request to it could carry."""
    url = _http_url(env, "CHOICE_URL")
    if url is None:
        return None
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 (it raises on a malformed port)
    except ValueError:
        raise SystemExit(f"CHOICE_URL={url!r} has a malformed port: write it as "
                         "https://choice.example:8443.") from None
    if parts.username or parts.password:
        raise SystemExit("CHOICE_URL must not hold credentials: put the token in CHOICE_TOKEN "
                         "and give the server's address alone, e.g. https://choice.example.")
    if parts.query or parts.fragment or url.rstrip().endswith(("?", "#")):
        raise SystemExit(f"CHOICE_URL={parts._replace(query='', fragment='').geturl()!r} must "
                         "not have a query or a fragment: give the team server's base URL, "
                         "e.g. https://choice.example (a path prefix such as /choice is fine).")
    return url.rstrip("/")


def _public_url(env: dict[str, str]) -> str | None:
    """The public root, written as a browser writes its `Origin`: links start with it and
    the Origin check compares with it."""
    url = _http_url(env, "CHOICE_PUBLIC_URL")
    if url is None:
        return None
    origin = origin_of(url)
    if origin is None:
        raise SystemExit(f"CHOICE_PUBLIC_URL={url!r} must be the portal's root (a scheme, a "
                         "host, maybe a port; no path): e.g. https://choice.example.")
    return origin


Kind = Literal["text", "path", "paths", "whole", "number", "flag", "choice", "names", "url",
               "public_url", "remote_url", "secret", "language"]


@dataclass(frozen=True)
class Variable:
    """One `CHOICE_*` variable: how `Settings.from_env` reads it, and what the configuration
    reference (docs/gen/configuration.py) says of it. Unset and empty mean the default."""

    name: str
    field: str
    """The `Settings` attribute it fills."""
    kind: Kind
    """text, path: as given; paths: folders separated by `os.pathsep` (`:`; `;` on
    Windows), `~` expanded; whole, number: within low..high (else the process exits saying
    so); flag: anything but 0/false/no/off is on; choice: one of `choices`, any case; names:
    comma-separated; url: http(s); public_url: an http(s) root; remote_url: an http(s) base
    URL, no query; secret: text never printed back in an error; language: en or zh."""
    default: Any
    doc: str
    low: float | None = None
    high: float | None = None
    unit: str = ""
    choices: tuple[str, ...] = ()
    shown_default: str | None = None
    """The default as the docs show it, when it is worked out rather than a plain value."""
    read_by: str = "the portal"
    """Which processes read it (all of them read it through `Settings.from_env`)."""
    option: str | None = None
    """The command-line option that sets it for one run."""

    def read(self, env: dict[str, str]) -> Any:
        name, raw = self.name, env.get(self.name)
        if self.kind == "whole":
            assert self.low is not None and self.high is not None
            return _int(env, name, self.default, int(self.low), int(self.high))
        if self.kind == "number":
            assert self.low is not None and self.high is not None
            return _number(env, name, self.default, self.low, self.high, self.unit)
        if self.kind == "flag":
            return _flag(env, name, self.default)
        if self.kind == "choice":
            return _choice(env, name, self.choices)
        if self.kind == "names":
            return tuple(part.strip() for part in (raw or "").split(",") if part.strip())
        if self.kind == "url":
            return _http_url(env, name)
        if self.kind == "public_url":
            return _public_url(env)
        if self.kind == "remote_url":
            return _remote_url(env)
        if self.kind == "secret":
            return (raw or "").strip() or self.default
        if self.kind == "language":
            return language_from_env(raw)
        if self.kind == "path":
            return Path(raw) if raw else self.default
        if self.kind == "paths":
            return tuple(Path(part.strip()).expanduser()
                         for part in (raw or "").split(os.pathsep) if part.strip())
        return raw or self.default


_EVERY = "every `choice` command"
_HOOK = "`choice hook`, `choice hook-config`"
_CLIENTS = ("`choice ask`, `choice mcp`, `choice hook`, `choice list`, `choice open`, "
            "`choice answer`, `choice mcp-config`, `choice hook-config`, the Python client")
_TEAM = "the portal (team mode)"

# Every `CHOICE_*` variable. Read in this order: when several are wrong, the first one named
# here is the one reported.
VARIABLES: tuple[Variable, ...] = (
    Variable("CHOICE_DATA_DIR", "data_dir", "path", None,
             "The database, the API token and logs (created 0700). Another `choice` process "
             "finds the portal's token here.",
             shown_default="the user data dir (platformdirs), e.g. `~/.local/share/choice`",
             read_by=_EVERY),
    Variable("CHOICE_DB_URL", "db_url", "text", None,
             "Any SQLAlchemy URL, e.g. `postgresql+psycopg://...` for several instances on "
             "one database.", shown_default="`sqlite:///<CHOICE_DATA_DIR>/choice.db`",
             read_by="the portal, `choice token`, `choice db`"),
    Variable("CHOICE_HOST", "host", "text", "127.0.0.1",
             "The address to bind. Anything but loopback exposes the portal.",
             read_by=_EVERY, option="`choice serve --host`"),
    Variable("CHOICE_PUBLIC_URL", "public_url", "public_url", None,
             "How teammates reach this portal (e.g. `https://choice.example` behind a TLS "
             "proxy): the portal's root, no path. The base of every link in pages and "
             "webhooks, and the origin the Origin check accepts; its host name is allowed "
             "as a Host header.", shown_default="unset: links use `http://<host>:<port>`"),
    Variable("CHOICE_ALLOWED_HOSTS", "allowed_hosts", "names", (),
             "Comma-separated names the Host header may carry, besides 127.0.0.1, localhost, "
             "::1, the bound host and the public URL's host.", shown_default="none"),
    Variable("CHOICE_PORT", "port", "whole", 8765, "The port to bind, and to reach.",
             low=1, high=65535, read_by=_EVERY, option="`choice serve --port`"),
    Variable("CHOICE_URL", "remote_url", "remote_url", None,
             "A team server's base URL (e.g. `https://choice.example`; a path prefix such "
             "as `/choice` is kept). When set, the clients ask that server with "
             "`CHOICE_TOKEN` instead of a portal on this machine: none is started, "
             "`CHOICE_HOST` and `CHOICE_PORT` are ignored, and nothing is written to "
             "`CHOICE_DATA_DIR`. No query, fragment or credentials.",
             shown_default="unset: the portal on this machine", read_by=_CLIENTS),
    Variable("CHOICE_TOKEN", "remote_token", "secret", None,
             "Your personal agent token on the team server that `CHOICE_URL` names (from "
             "its settings page), sent as `Authorization: Bearer`. Required with "
             "`CHOICE_URL`; read only with it (on this machine the token file is used).",
             shown_default="unset", read_by=_CLIENTS),
    Variable("CHOICE_RETENTION_DAYS", "retention_days", "whole", 30,
             "Completed interactions older than this are deleted.", low=1, high=36500,
             unit="days"),
    Variable("CHOICE_MAX_SESSIONS", "max_sessions", "whole", 1000,
             "Beyond this many stored, the oldest completed go first (in team mode, beyond "
             "this many of one member's: another member's never go for theirs).", low=10,
             high=10_000_000),
    Variable("CHOICE_OPEN_BROWSER", "open_browser", "flag", True,
             "`0` never opens a browser; always off when `CI` is set.",
             read_by="`choice serve`, `choice open`, `choice answer`, a portal started on "
             "demand"),
    Variable("CHOICE_MCP_WAIT_SECONDS", "mcp_wait_seconds", "whole", 50,
             "How long one MCP call blocks before answering `pending` (under the 60 s "
             "request timeout of common MCP clients).", low=1, high=300, unit="seconds"),
    Variable("CHOICE_HOOK_WAIT_SECONDS", "hook_wait_seconds", "whole", 50,
             "How long `choice hook` waits for a person before the agent shows its own "
             "dialog (below the agents' hook timeout: `choice hook-config` adds 10 s).",
             low=5, high=3600, unit="seconds", read_by=_HOOK),
    Variable("CHOICE_HOOK_TOOLS", "hook_tools", "names", (),
             "Comma-separated tool names (e.g. `Bash,Edit`): only these go to the portal; "
             "the others show the agent's own dialog.",
             shown_default="every tool that would ask", read_by="`choice hook`"),
    Variable("CHOICE_HOOK_START_PORTAL", "hook_start_portal", "flag", True,
             "`0`: `choice hook` never starts a portal (no portal: the agent's own dialog).",
             read_by="`choice hook`"),
    Variable("CHOICE_MCP_FILE_ROOTS", "mcp_file_roots", "paths", (),
             "Folders, besides the agent's working directory, whose files an attachment's "
             "`path` may name through `choice mcp` (e.g. `~/Pictures/mockups`). Secrets are "
             "refused even inside them (the attachments guide lists which).",
             shown_default="none: the working directory only",
             read_by="`choice mcp`, `choice mcp-config`"),
    Variable("CHOICE_MCP_PROGRESS_SECONDS", "mcp_progress_seconds", "number", 15.0,
             "How often a waiting MCP call sends progress.", low=0.1, high=3600,
             unit="seconds"),
    Variable("CHOICE_IDLE_EXIT", "idle_exit_seconds", "whole", 0,
             "Stop after this long with nothing pending and no requests; 0 never. Portals "
             "that `choice mcp` and the client start on demand use it.", low=0,
             high=10_000_000, unit="seconds", option="`choice serve --idle-exit`"),
    Variable("CHOICE_LANG", "language", "language", None,
             "`en` or `zh`: the language when neither the request nor the saved settings "
             "say (anything else logs a warning and means English).",
             shown_default="English", read_by=_EVERY),
    Variable("CHOICE_WEBHOOK_URL", "webhook_url", "url", None,
             "Where team messages are POSTed (widen, comments, reminders, resolution).",
             shown_default="unset: no webhook"),
    Variable("CHOICE_WEBHOOK_FORMAT", "webhook_format", "choice", "json",
             "`json` (our event, signed with `CHOICE_WEBHOOK_SECRET`), `slack` "
             "(incoming-webhook text and blocks) or `ntfy` (a push to the ntfy topic that "
             "`CHOICE_WEBHOOK_URL` names, its credentials sent as `Authorization`).",
             choices=("json", "slack", "ntfy")),
    Variable("CHOICE_WEBHOOK_SECRET", "webhook_secret", "text", None,
             "The HMAC-SHA256 key of `X-Choice-Signature-256`.",
             shown_default="unset: messages go out unsigned (with a warning)"),
    Variable("CHOICE_WEBHOOK_CREATED", "webhook_created", "flag", False,
             "Also POST `interaction.created` (the whole question and the request's "
             "`context`) for every new question: for a chat UI behind the webhook. Off by "
             "default: a team channel should hear about widened questions only. A team "
             "server (`CHOICE_AUTH=oidc`) refuses to start with it."),
    Variable("CHOICE_REMINDER_MINUTES", "reminder_minutes", "number", 15.0,
             "Remind of a question nobody has opened, every this long, and the owner of a "
             "widened question idle this long (decimals allowed: a few seconds is for "
             "trying it out).", low=0.05, high=10_080, unit="minutes"),
    Variable("CHOICE_SUMMARY_SECONDS", "summary_seconds", "number", 30.0,
             "How long the owner waits for the agent's candidate summary before writing the "
             "answer by hand.", low=1, high=3600, unit="seconds"),
    Variable("CHOICE_WEBHOOK_RETRY_SECONDS", "webhook_retry_seconds", "number", 2.0,
             "The backoff before a webhook's first retry (at most; full jitter), doubling "
             "per attempt up to 10 minutes.", low=0.1, high=3600, unit="seconds"),
    Variable("CHOICE_WEBHOOK_COALESCE_SECONDS", "webhook_coalesce_seconds", "number", 10.0,
             "Comments this close together go out as one message.", low=0.1, high=3600,
             unit="seconds"),
    # Team mode (`config.Settings.from_env` checks these together).
    Variable("CHOICE_AUTH", "auth", "choice", "token",
             "`token`: one owner, the API token and its sign-in links (local mode). `oidc`: "
             "team mode, members sign in with the OpenID provider `CHOICE_OIDC_ISSUER` names "
             "(needs `CHOICE_OIDC_CLIENT_ID`, `CHOICE_OIDC_CLIENT_SECRET` and "
             "`CHOICE_PUBLIC_URL`).", choices=("token", "oidc")),
    Variable("CHOICE_OIDC_ISSUER", "oidc_issuer", "url", None,
             "The OpenID provider's issuer URL (its discovery document is "
             "`<issuer>/.well-known/openid-configuration`).", shown_default="unset",
             read_by=_TEAM),
    Variable("CHOICE_OIDC_CLIENT_ID", "oidc_client_id", "text", None,
             "The portal's client id at the provider; its redirect URI is "
             "`<CHOICE_PUBLIC_URL>/auth/callback`.", shown_default="unset", read_by=_TEAM),
    Variable("CHOICE_OIDC_CLIENT_SECRET", "oidc_client_secret", "text", None,
             "The client's secret (sent as `client_secret_basic`).", shown_default="unset",
             read_by=_TEAM),
    Variable("CHOICE_OIDC_ALLOWED_DOMAINS", "oidc_allowed_domains", "names", (),
             "Comma-separated email domains whose members may sign in (e.g. `example.com`); "
             "a verified email is required either way.",
             shown_default="empty: every account the provider signs in", read_by=_TEAM),
    Variable("CHOICE_OIDC_ADMINS", "oidc_admins", "names", (),
             "Comma-separated emails of the members who are admins (checked at each "
             "sign-in).", shown_default="none", read_by=_TEAM),
    Variable("CHOICE_OIDC_ADMIN_GROUPS", "oidc_admin_groups", "names", (),
             "Comma-separated groups whose members are admins: matched, exactly, against "
             "the `groups` claim of the provider's ID token at each sign-in (a member taken "
             "out of the group is no admin from their next sign-in).", shown_default="none",
             read_by=_TEAM),
)

OTHER_ENVIRONMENT: tuple[tuple[str, str], ...] = (
    ("CI", "set and not empty: never open a browser, whatever `CHOICE_OPEN_BROWSER` says."),
    ("VISUAL, EDITOR", "the owner's editor for the final answer in `choice answer` "
     "(`$VISUAL`, else `$EDITOR`, e.g. `code --wait`); neither set: the built-in editor."),
)
"""Variables not ours that `choice` reads, for the configuration reference."""
