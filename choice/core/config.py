"""Process settings: the `CHOICE_*` environment, read once into a frozen dataclass.

Owns where data lives, which address the portal binds, and retention limits. Preferences a
user changes at run time (interface, timeout, language, ...) are not here: they live in the
database (`store/preferences.py`) so they survive restarts and reach every interface.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs

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


def _seconds(env: dict[str, str], name: str, default: float) -> float:
    return _number(env, name, default, 0.1, 3600, "seconds")


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


def _webhook_url(env: dict[str, str]) -> str | None:
    return _http_url(env, "CHOICE_WEBHOOK_URL")


@dataclass(frozen=True)
class Settings:
    data_dir: Path
    """`CHOICE_DATA_DIR`: the database, the API token and logs (created 0700)."""
    db_url: str
    """`CHOICE_DB_URL`: any SQLAlchemy URL; default SQLite `choice.db` in the data dir."""
    host: str = "127.0.0.1"
    """`CHOICE_HOST`: the address to bind. Anything but loopback exposes the portal."""
    port: int = 8765
    """`CHOICE_PORT`."""
    retention_days: int = 30
    """`CHOICE_RETENTION_DAYS`: completed interactions older than this are deleted."""
    max_sessions: int = 1000
    """`CHOICE_MAX_SESSIONS`: beyond this many stored, the oldest completed go first."""
    open_browser: bool = True
    """`CHOICE_OPEN_BROWSER=0` never opens a browser (always off under CI)."""
    mcp_wait_seconds: int = 50
    """`CHOICE_MCP_WAIT_SECONDS`: how long one MCP call blocks before answering `pending`."""
    hook_wait_seconds: int = 50
    """`CHOICE_HOOK_WAIT_SECONDS`: how long `choice hook` waits for a person before the agent
    shows its own dialog (below the agents' hook timeout; `choice hook-config` adds 10 s)."""
    hook_tools: tuple[str, ...] = ()
    """`CHOICE_HOOK_TOOLS` (comma-separated tool names, e.g. `Bash,Edit`): only these go to
    the portal; the others show the agent's own dialog. Empty: every tool that would ask."""
    hook_start_portal: bool = True
    """`CHOICE_HOOK_START_PORTAL=0`: `choice hook` never starts a portal (no portal: the
    agent's own dialog)."""
    language: str | None = None
    """`CHOICE_LANG`: en or zh, the default language when neither request nor settings say."""
    allowed_hosts: tuple[str, ...] = field(default=("127.0.0.1", "localhost", "::1"))
    """`CHOICE_ALLOWED_HOSTS` (comma-separated) adds names the Host header may carry."""
    max_body_bytes: int = 256 * 1024
    """Request bodies above this get 413."""
    mcp_progress_seconds: float = 15.0
    """`CHOICE_MCP_PROGRESS_SECONDS`: how often a waiting MCP call sends progress."""
    idle_exit_seconds: int = 0
    """`CHOICE_IDLE_EXIT` (`choice serve --idle-exit`): stop after this long with nothing to
    do; 0 never. Portals that `choice mcp` starts on demand use it."""
    public_url: str | None = None
    """`CHOICE_PUBLIC_URL`: how teammates reach this portal (e.g. `https://choice.example`
    behind a TLS proxy); the base of every link in pages and webhooks. Default `base_url`."""
    webhook_url: str | None = None
    """`CHOICE_WEBHOOK_URL`: where team messages are POSTed (widen, comments, reminders,
    resolution); unset sends none."""
    webhook_format: str = "json"
    """`CHOICE_WEBHOOK_FORMAT`: `slack` (incoming-webhook text + blocks), `json` (our event,
    signed with `CHOICE_WEBHOOK_SECRET`) or `ntfy` (a push to the ntfy topic that
    `CHOICE_WEBHOOK_URL` names, with the credentials it carries as `Authorization`)."""
    webhook_secret: str | None = None
    """`CHOICE_WEBHOOK_SECRET`: the HMAC-SHA256 key of `X-Choice-Signature-256`."""
    webhook_created: bool = False
    """`CHOICE_WEBHOOK_CREATED`: also POST `interaction.created` (the whole question and the
    request's `context`) for every new question: for a chat UI behind the webhook. Off by
    default: a team channel should hear about widened questions only."""
    reminder_minutes: float = 15.0
    """`CHOICE_REMINDER_MINUTES`: remind of a question nobody has opened, every this long,
    and the owner of a widened question idle this long (decimals allowed, 0.05 to 10080: a
    few seconds is for trying it out)."""
    webhook_retry_seconds: float = 2.0
    """`CHOICE_WEBHOOK_RETRY_SECONDS`: the backoff before the first retry (at most; full
    jitter), doubling per attempt up to 10 minutes. Tests shorten it."""
    webhook_coalesce_seconds: float = 10.0
    """`CHOICE_WEBHOOK_COALESCE_SECONDS`: comments this close together go out as one message."""
    summary_seconds: float = 30.0
    """`CHOICE_SUMMARY_SECONDS`: how long the owner waits for the agent's candidate summary
    before writing the answer by hand (1 to 3600)."""
    reminder_scan_seconds: float = 30.0
    """How often the reminder scheduler looks for questions to remind of (tests shorten it)."""

    @property
    def link_base(self) -> str:
        """The base of links other people open: `CHOICE_PUBLIC_URL`, else `base_url`."""
        return self.public_url or self.base_url

    @property
    def token_path(self) -> Path:
        return self.data_dir / "token"

    @property
    def base_url(self) -> str:
        host = self.host if self.host not in ("0.0.0.0", "::") else "127.0.0.1"
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}"

    def environment_to_reach(self) -> dict[str, str]:
        """The `CHOICE_*` variables another `choice` process (`choice answer`, an MCP
        client's `choice mcp`) needs to reach this very portal: those that differ from the
        defaults. Other loopback names and the wildcard addresses are reached through the
        default host."""
        default, env = _unconfigured(), {}
        if self.port != default.port:
            env["CHOICE_PORT"] = str(self.port)
        if self.host not in (default.host, "localhost", "0.0.0.0", "::"):
            env["CHOICE_HOST"] = self.host
        if self.data_dir != default.data_dir:
            env["CHOICE_DATA_DIR"] = str(self.data_dir)
        return env

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        data_dir = Path(env.get("CHOICE_DATA_DIR") or platformdirs.user_data_dir("choice"))
        extra_hosts = tuple(h.strip() for h in env.get("CHOICE_ALLOWED_HOSTS", "").split(",")
                            if h.strip())
        host = env.get("CHOICE_HOST") or "127.0.0.1"
        public_url = _public_url(env)
        if public_url is not None:  # the proxy forwards the public name as the Host
            extra_hosts = (*extra_hosts, urlsplit(public_url).hostname or "")
        return cls(
            data_dir=data_dir,
            db_url=env.get("CHOICE_DB_URL") or f"sqlite:///{data_dir / 'choice.db'}",
            host=host,
            port=_int(env, "CHOICE_PORT", 8765, 1, 65535),
            retention_days=_int(env, "CHOICE_RETENTION_DAYS", 30, 1, 36500),
            max_sessions=_int(env, "CHOICE_MAX_SESSIONS", 1000, 10, 10_000_000),
            open_browser=_flag(env, "CHOICE_OPEN_BROWSER", True) and not env.get("CI"),
            mcp_wait_seconds=_int(env, "CHOICE_MCP_WAIT_SECONDS", 50, 1, 300),
            hook_wait_seconds=_int(env, "CHOICE_HOOK_WAIT_SECONDS", 50, 5, 3600),
            hook_tools=tuple(t.strip() for t in env.get("CHOICE_HOOK_TOOLS", "").split(",")
                             if t.strip()),
            hook_start_portal=_flag(env, "CHOICE_HOOK_START_PORTAL", True),
            mcp_progress_seconds=_seconds(env, "CHOICE_MCP_PROGRESS_SECONDS", 15.0),
            idle_exit_seconds=_int(env, "CHOICE_IDLE_EXIT", 0, 0, 10_000_000),
            language=language_from_env(env.get("CHOICE_LANG")),
            public_url=public_url,
            webhook_url=_webhook_url(env),
            webhook_format=_choice(env, "CHOICE_WEBHOOK_FORMAT", ("json", "slack", "ntfy")),
            webhook_secret=env.get("CHOICE_WEBHOOK_SECRET") or None,
            webhook_created=_flag(env, "CHOICE_WEBHOOK_CREATED", False),
            reminder_minutes=_number(env, "CHOICE_REMINDER_MINUTES", 15.0, 0.05, 10_080,
                                     "minutes"),
            summary_seconds=_number(env, "CHOICE_SUMMARY_SECONDS", 30.0, 1, 3600, "seconds"),
            webhook_retry_seconds=_seconds(env, "CHOICE_WEBHOOK_RETRY_SECONDS", 2.0),
            webhook_coalesce_seconds=_seconds(env, "CHOICE_WEBHOOK_COALESCE_SECONDS", 10.0),
            allowed_hosts=("127.0.0.1", "localhost", "::1", *extra_hosts,
                           *((host,) if host not in ("0.0.0.0", "::") else ())),
        )

    def prepare_data_dir(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)


@cache
def _unconfigured() -> Settings:
    """What `choice` uses with no `CHOICE_*` environment."""
    return Settings.from_env({})


def choice_command() -> list[str]:
    """The command that runs this very installation's `choice`, by absolute path (what the
    MCP and hook configurations name: desktop clients and agents do not start from the
    user's shell and often lack `~/.local/bin` or the venv on their PATH)."""
    beside = Path(sys.executable).parent / ("choice.exe" if os.name == "nt" else "choice")
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    return [sys.executable, "-m", "choice.cli"]  # e.g. run from a checkout without installing
