"""Process settings: the `CHOICE_*` environment, read once into a frozen dataclass.

`variables.VARIABLES` is the one table of those variables: `Settings.from_env` reads each
from it, and the configuration reference is rendered from it, so the two cannot drift.

Owns where data lives, which address the portal binds, retention limits, and whether the
portal is one owner's (`CHOICE_AUTH=token`, the default) or a team's (`oidc`). Preferences a
user changes at run time (interface, timeout, language, ...) are not here: they live in the
database (`store/preferences.py`) so they survive restarts and reach every interface.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from choice.core.variables import VARIABLES


@dataclass(frozen=True)
class Settings:
    """What the `CHOICE_*` environment says (`VARIABLES` documents each field it fills)."""

    data_dir: Path
    db_url: str
    host: str
    port: int
    retention_days: int
    max_sessions: int
    open_browser: bool
    mcp_wait_seconds: int
    mcp_file_roots: tuple[Path, ...]
    """Where `choice mcp` may read attachments from, besides its working directory."""
    hook_wait_seconds: int
    hook_tools: tuple[str, ...]
    hook_start_portal: bool
    language: str | None
    allowed_hosts: tuple[str, ...]
    """Loopback, `CHOICE_ALLOWED_HOSTS`, the public URL's host and the bound host."""
    mcp_progress_seconds: float
    idle_exit_seconds: int
    public_url: str | None
    webhook_url: str | None
    webhook_format: str
    webhook_secret: str | None
    webhook_created: bool
    reminder_minutes: float
    webhook_retry_seconds: float
    webhook_coalesce_seconds: float
    summary_seconds: float
    remote_url: str | None = None
    """`CHOICE_URL`: a team server the clients ask instead of a portal here
    (`choice.client.connection` decides what that changes)."""
    remote_token: str | None = None
    """`CHOICE_TOKEN`: the bearer token for `remote_url` (present whenever it is)."""
    auth: str = "token"
    """`token` (local mode: one owner) or `oidc` (team mode: members sign in)."""
    oidc_issuer: str | None = None
    oidc_client_id: str | None = None
    oidc_client_secret: str | None = None
    oidc_allowed_domains: tuple[str, ...] = ()
    oidc_admins: tuple[str, ...] = ()
    oidc_admin_groups: tuple[str, ...] = ()
    max_body_bytes: int = 256 * 1024
    """Not a variable: request bodies above this get 413."""
    reminder_scan_seconds: float = 30.0
    """Not a variable: how often the reminder scheduler looks for questions to remind of
    (tests shorten it)."""

    @property
    def link_base(self) -> str:
        """The base of links other people open: `CHOICE_PUBLIC_URL`, else `base_url`."""
        return self.public_url or self.base_url

    @property
    def team_mode(self) -> bool:
        return self.auth == "oidc"

    @property
    def redirect_uri(self) -> str:
        """Where the OpenID provider sends a member back (team mode)."""
        return f"{self.link_base}/auth/callback"

    @property
    def token_path(self) -> Path:
        return self.data_dir / "token"

    @property
    def compiled_templates(self) -> Path:
        """The pages' compiled templates, kept between starts (`web/views/template_cache.py`)."""
        return self.data_dir / "cache" / "templates"

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

    def environment_of_the_bridge(self) -> dict[str, str]:
        """What an MCP client must give `choice mcp` (its configuration's `env`): how to
        reach this portal, and the bridge's own settings that differ from the defaults
        (clients such as Codex pass a server nothing of the user's shell)."""
        env = self.environment_to_reach()
        if self.mcp_file_roots:
            env["CHOICE_MCP_FILE_ROOTS"] = os.pathsep.join(str(root.resolve())
                                                           for root in self.mcp_file_roots)
        return env

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        values = {variable.field: variable.read(env) for variable in VARIABLES}
        # What the table's defaults cannot say alone: they depend on other variables.
        data_dir = values.pop("data_dir") or default_data_dir()
        values["db_url"] = values["db_url"] or f"sqlite:///{data_dir / 'choice.db'}"
        values["open_browser"] = values["open_browser"] and not env.get("CI")
        host, public_url = values["host"], values["public_url"]
        extra_hosts = values["allowed_hosts"]
        if public_url is not None:  # the proxy forwards the public name as the Host
            extra_hosts = (*extra_hosts, urlsplit(public_url).hostname or "")
        values["allowed_hosts"] = ("127.0.0.1", "localhost", "::1", *extra_hosts,
                                   *((host,) if host not in ("0.0.0.0", "::") else ()))
        if values["remote_url"] and not values["remote_token"]:
            raise SystemExit("CHOICE_URL is set but CHOICE_TOKEN is not: create a personal "
                             "agent token on the team server's settings page and set "
                             "CHOICE_TOKEN to it (or unset CHOICE_URL to use the portal on "
                             "this machine).")
        return cls(data_dir=data_dir, **values)

    def check_team_mode(self) -> None:
        """Stop a portal that would serve team mode without what it needs (`SystemExit`
        naming the variables). Only the portal asks: a client, the bridge or a hook started
        from a shell that holds the server's variables reads none of them."""
        missing = [name for name, field in TEAM_MODE_NEEDS if not getattr(self, field)]
        if self.team_mode and missing:
            raise SystemExit(f"CHOICE_AUTH=oidc needs {', '.join(missing)}: set "
                             f"{'it' if len(missing) == 1 else 'them'} (the provider's "
                             "issuer URL, the portal's client id and secret there, and "
                             "the portal's public root for the redirect URI).")
        if self.team_mode and self.webhook_created:
            raise SystemExit("CHOICE_WEBHOOK_CREATED would post every member's questions to "
                             "the one CHOICE_WEBHOOK_URL, where other members read them: on "
                             "a team server a question is its member's. Unset it; widened "
                             "questions still reach the webhook.")

    def prepare_data_dir(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)


TEAM_MODE_NEEDS = (("CHOICE_OIDC_ISSUER", "oidc_issuer"),
                   ("CHOICE_OIDC_CLIENT_ID", "oidc_client_id"),
                   ("CHOICE_OIDC_CLIENT_SECRET", "oidc_client_secret"),
                   ("CHOICE_PUBLIC_URL", "public_url"))
"""What team mode cannot start without: (variable, `Settings` field)."""


def default_data_dir() -> Path:
    """The user's data dir for `choice` (`~/.local/share/choice` on Linux); platformdirs is
    imported only when `CHOICE_DATA_DIR` does not say (not every start needs it)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("choice"))


@cache
def _unconfigured() -> Settings:
    """What `choice` uses with no `CHOICE_*` environment."""
    return Settings.from_env({})


def choice_command() -> list[str]:
    """The command that runs this very installation's `choice`, by absolute path (what the
    MCP and hook configurations name, and what starts a portal in the background: desktop
    clients and agents do not start from the user's shell and often lack `~/.local/bin` or
    the venv on their PATH). The one-file build is named by its file, run isolated by the
    interpreter that runs it now: the venv it unpacked itself into is only a cache."""
    archive = _running_archive()
    if archive is not None:
        return [os.path.realpath(sys.executable), "-I", archive]
    beside = Path(sys.executable).parent / ("choice.exe" if os.name == "nt" else "choice")
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    return [sys.executable, "-m", "choice.cli"]  # e.g. run from a checkout without installing


def _running_archive() -> str | None:
    """The zip application this process was started as (`python -I choice-portal.pyz ...`,
    `scripts/build-pyz`), if it was one: its path is `sys.argv[0]`, where both Python and
    pex's venv mode leave it."""
    import zipfile

    path = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return path if os.path.isfile(path) and zipfile.is_zipfile(path) else None
