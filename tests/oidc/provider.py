"""A real OpenID provider for team-mode tests: `oidc-provider` (npm, the exact version
`package.json` and its lock pin here), run by `provider.mjs` on 127.0.0.1.

`OidcProvider` starts it on a port (`stop()` then `start()` again on the same port is "the
provider down, then back"; each start makes a new signing key, so it is also a key
rotation), with one confidential client and the accounts of a JSON file the test rewrites
while it runs (`set_account`). `installed()` puts the package into a cache directory named
after the lock's hash, once (`npm ci`); without node and npm, or without the registry, the
test is skipped with why (under CI it fails: tests/missing_tool.py). `tamper_id_token`
makes the token endpoint answer a spoiled ID token (a mode of `TAMPERED` in provider.mjs)
until it is set back to None.

`callback_url` signs a member in without a browser: from the portal's `/login` redirect it
follows to the provider, posts the login form's `email`, and returns the portal's
`/auth/callback?...` URL the provider sends the browser to (the caller GETs it with the same
client, which holds the portal's attempt cookie). `Member` is a browser signed in that way.

`team_portal` runs a real team-mode portal with it; `team_instances` two of them on one
PostgreSQL database (`team_settings`: what both set).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
import shutil
import subprocess
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import httpx

from tests.missing_tool import unavailable
from tests.npm_cache import CACHE
from tests.portal_process import PortalProcess, free_port

HERE = Path(__file__).parent
MANIFESTS = ("package.json", "package-lock.json")
PURPOSE = "the team-mode sign-in tests (tests/oidc)"
READY = "listening "


def installed() -> Path:
    """The directory holding `oidc-provider` in its `node_modules` (installed now if this
    lock never was) and a copy of `provider.mjs`."""
    if not shutil.which("node") or not shutil.which("npm"):
        unavailable(f"node and npm are needed for {PURPOSE}: sudo apt-get install -y nodejs npm")
    lock = (HERE / "package-lock.json").read_bytes()
    home = CACHE / f"oidc-{hashlib.sha256(lock).hexdigest()[:16]}"
    home.mkdir(parents=True, exist_ok=True)
    with (home.parent / f"{home.name}.lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # two test workers: one installs, the other waits
        if not (home / "installed").is_file():
            for name in MANIFESTS:
                shutil.copyfile(HERE / name, home / name)
            ran = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=home,
                                 capture_output=True, text=True, timeout=600)
            if ran.returncode != 0:
                unavailable(f"npm ci could not install oidc-provider for {PURPOSE}: "
                            f"{ran.stderr.strip()[-400:]}")
            (home / "installed").write_text("npm ci done\n")
        # Node resolves `oidc-provider` from the script's own folder: the script runs there.
        shutil.copyfile(HERE / "provider.mjs", home / "provider.mjs")
    return home


@dataclass
class Account:
    sub: str
    email: str
    name: str
    email_verified: bool = True
    groups: list[str] = field(default_factory=list)


class OidcProvider:
    def __init__(self, workdir: Path, redirect_uri: str, port: int | None = None) -> None:
        self.home = installed()
        self.port = port or free_port()
        self.client_id = "choice-portal"
        self.client_secret = f"secret-{self.port}"
        self.accounts_file = workdir / "accounts.json"
        self.config_file = workdir / "provider.json"
        self.tamper_file = workdir / "tamper.json"
        self.config_file.write_text(json.dumps({
            "port": self.port, "client_id": self.client_id,
            "client_secret": self.client_secret, "redirect_uris": [redirect_uri],
            "accounts": str(self.accounts_file), "tamper": str(self.tamper_file)}))
        self.tamper_id_token(None)
        self._accounts: dict[str, Account] = {}
        self._write_accounts()
        self.process: subprocess.Popen[str] | None = None
        self.log: list[str] = []

    @property
    def issuer(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def set_account(self, sub: str, email: str, name: str, email_verified: bool = True,
                    groups: list[str] | None = None) -> Account:
        """Add or change an account; the provider reads the file at its next use."""
        account = Account(sub, email, name, email_verified, groups or [])
        self._accounts[sub] = account
        self._write_accounts()
        return account

    def _write_accounts(self) -> None:
        _write_whole(self.accounts_file, [vars(a) for a in self._accounts.values()])

    def tamper_id_token(self, mode: str | None) -> None:
        """From the next token response on, spoil the ID token as `mode` says (a key of
        `TAMPERED` in provider.mjs: `payload`, `foreign_key`, `aud`, `expired`, `alg_none`,
        ...); None: send it as made."""
        _write_whole(self.tamper_file, {} if mode is None else {"id_token": mode})

    def start(self, timeout: float = 30.0) -> OidcProvider:
        """Start it and return once it accepts connections (its "listening" line)."""
        self.process = subprocess.Popen(
            ["node", "provider.mjs", str(self.config_file)], cwd=self.home, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        ready = threading.Event()

        def read(stream: Any) -> None:
            for line in stream:
                self.log.append(line.rstrip())
                if line.startswith(READY):
                    ready.set()

        threading.Thread(target=read, args=(self.process.stdout,), daemon=True).start()
        if not ready.wait(timeout):
            self.stop()
            raise RuntimeError(f"the OpenID provider did not start within {timeout} s:\n"
                               + "\n".join(self.log[-30:]))
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None

    def __enter__(self) -> OidcProvider:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def _write_whole(path: Path, content: Any) -> None:
    partial = path.with_suffix(".tmp")
    partial.write_text(json.dumps(content))
    partial.replace(path)  # the provider never reads half a file


def callback_url(client: httpx.Client, login: httpx.Response, email: str) -> str:
    """The portal's `/auth/callback?...` URL after signing in as `email` at the provider,
    from the portal's answer to `GET /login` (a redirect to the provider). `client` does
    not follow redirects; it keeps the provider's cookies (a second sign-in in the same
    client skips the form: the provider remembers the person)."""
    assert login.status_code in (302, 303, 307), (login.status_code, login.text[:300])
    reply = client.get(login.headers["location"])
    for _hop in range(10):
        location = reply.headers.get("location")
        if reply.status_code in (302, 303, 307) and location:
            target = urljoin(str(reply.url), location)
            if "/auth/callback" in target:
                return target
            reply = client.get(target)
        elif reply.status_code == 200 and 'name="email"' in reply.text:
            action = reply.text.split('action="', 1)[1].split('"', 1)[0]
            reply = client.post(urljoin(str(reply.url), action), data={"email": email})
        else:
            raise AssertionError(f"the provider answered {reply.status_code}: "
                                 f"{reply.text[:400]}")
    raise AssertionError("the provider never sent the browser back to the portal")


ALLOWED_DOMAIN = "example.com"
ADMIN = "admin@example.com"


@contextmanager
def team_portal(workdir: Path, members: Iterable[str] = (), **env: str
                ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    """A real portal in team mode on a free port (`CHOICE_PUBLIC_URL` its loopback address,
    members of `ALLOWED_DOMAIN` allowed, `ADMIN` an admin; `env`: more settings) and the
    provider it signs in with, both stopped on the way out. `members`: handles whose
    accounts the provider has from the start (`ann`: ann@example.com, named Ann)."""
    port = free_port()
    public = f"http://127.0.0.1:{port}"
    with OidcProvider(workdir, f"{public}/auth/callback") as provider:
        for handle in members:
            provider.set_account(handle, f"{handle}@{ALLOWED_DOMAIN}", handle.title())
        portal = PortalProcess(workdir / "portal", port=port, **team_settings(provider, public),
                               CHOICE_OIDC_ALLOWED_DOMAINS=ALLOWED_DOMAIN,
                               CHOICE_OIDC_ADMINS=ADMIN, **env)
        portal.start()
        try:
            yield provider, portal
        finally:
            portal.stop()


def team_settings(provider: OidcProvider, public: str) -> dict[str, str]:
    """What a team-mode portal signing in with `provider` at `public` is set with."""
    return {"CHOICE_AUTH": "oidc", "CHOICE_OIDC_ISSUER": provider.issuer,
            "CHOICE_OIDC_CLIENT_ID": provider.client_id,
            "CHOICE_OIDC_CLIENT_SECRET": provider.client_secret, "CHOICE_PUBLIC_URL": public}


@contextmanager
def team_instances(workdir: Path, db_url: str, **env: str
                   ) -> Iterator[tuple[OidcProvider, PortalProcess, PortalProcess]]:
    """The provider, and team-mode instances A and B on the database `db_url`: one data dir
    (one token file), A's address the public URL."""
    port = free_port()
    public = f"http://127.0.0.1:{port}"
    with OidcProvider(workdir, f"{public}/auth/callback") as provider:
        settings = {**team_settings(provider, public), "CHOICE_DB_URL": db_url, **env}
        a = PortalProcess(workdir / "portal", port=port, **settings).start()
        try:
            b = PortalProcess(workdir / "portal", port=free_port(), **settings).start()
            try:
                yield provider, a, b
            finally:
                b.stop()
        finally:
            a.stop()


QUESTION = {"title": "Which store for the sync service?", "prompt": "A's private context.",
            "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]}


class Member:
    """A signed-in browser of one member: its session cookie, and its writes' Origin."""

    def __init__(self, portal: PortalProcess, email: str) -> None:
        self.portal = portal
        self.client = httpx.Client(timeout=20, headers={"Origin": portal.base_url})
        login = self.client.get(f"{portal.base_url}/login", params={"next": "/"})
        landed = self.client.get(callback_url(self.client, login, email))
        assert landed.status_code in (302, 303), landed.text[:300]
        self.cookie = f"choice_session={self.client.cookies['choice_session']}"

    def call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        return self.client.request(method, f"{self.portal.base_url}{path}", **kwargs)

    def ask(self, title: str = QUESTION["title"]) -> str:
        created = self.call("POST", "/api/interactions", json={**QUESTION, "title": title})
        assert created.status_code == 201, created.text
        return str(created.json()["interaction_id"])


MISSING = "0123456789abcdef"
"""An id no question has (the shape of a real one)."""


def routes_about_one_question(member: Member) -> list[tuple[str, str]]:
    """(method, path template) of every API operation whose path names a question."""
    schema = member.call("GET", "/schema/openapi.json").json()
    return [(method.upper(), path) for path, operations in schema["paths"].items()
            if "{interaction_id}" in path for method in operations
            if method in ("get", "post", "put", "patch", "delete")]


def filled(template: str, interaction_id: str) -> str:
    return re.sub(r"\{[a-z_]+\}", "x", template.replace("{interaction_id}", interaction_id))
