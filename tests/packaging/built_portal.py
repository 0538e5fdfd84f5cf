"""What the packaging tests do with a portal run from a build (the wheel in a venv, the
one-file `.pyz`): an environment without the caller's `CHOICE_*`, `PYTHON*`, `PEX_*` and venv
variables, `choice serve` started and always stopped, and the checks a person's first look
makes: a question's page in English and in Chinese with its hashed bundle, and the MCP tools.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import READY_LINE

MCP_TOOLS = {"provide_choice", "hitl_request", "request_user_choice", "ask_user_question",
             "list_pending", "submit_candidate", "withdraw_question"}
LANGUAGES = [("en", "Submit"), ("zh", "提交")]
"""Each page language and its submit button's label."""


def clean_env(data_dir: Path, port: int, **extra: str) -> dict[str, str]:
    """The caller's environment without what would reach into the checkout or the test's
    venv, pointed at `data_dir` and `port`."""
    inherited = {k: v for k, v in os.environ.items()
                 if not k.startswith(("CHOICE_", "PYTHON", "PEX", "VIRTUAL_ENV"))}
    return {**inherited, "CHOICE_DATA_DIR": str(data_dir), "CHOICE_PORT": str(port),
            "CHOICE_OPEN_BROWSER": "0", **extra}


@dataclass(frozen=True)
class Served:
    base_url: str
    token: str

    def call(self, method: str, path: str, body: object = None) -> dict[str, object]:
        reply: dict[str, object] = PortalClient(self.base_url, self.token).call(method, path, body)
        return reply


@contextmanager
def serving(command: Sequence[str | Path], cwd: Path, env: dict[str, str]) -> Iterator[Served]:
    """`choice serve` as `command` runs it, from `cwd`; stopped on the way out, and killed if
    it does not get to serving (or the test is interrupted meanwhile)."""
    process = subprocess.Popen([str(part) for part in command], cwd=cwd, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    log = []
    try:
        for line in process.stdout:  # bounded: the process exits if it cannot start
            log.append(line)
            if READY_LINE in line:
                break
        else:
            pytest.fail(f"{command} did not start:\n" + "".join(log))
    except BaseException:
        process.kill()
        process.wait(timeout=10)
        raise
    try:
        token = (Path(env["CHOICE_DATA_DIR"]) / "token").read_text().strip()
        yield Served(f"http://127.0.0.1:{env['CHOICE_PORT']}", token)
    finally:
        process.terminate()
        process.wait(timeout=10)


def assert_renders_a_question(served: Served, language: str, submit: str) -> None:
    """A question asked in `language` opens signed in, in that language, with the scripts'
    messages and both halves of the hashed bundle, which answer."""
    created = served.call("POST", "/api/interactions", {
        "title": "Pick a database", "prompt": "Both fit.", "language": language,
        "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]})
    with httpx.Client(base_url=served.base_url, follow_redirects=True, timeout=10) as browser:
        page = browser.get("/login", params={"token": served.token,
                                             "next": f"/choice/{created['interaction_id']}"})
        assert page.status_code == 200
        assert f'<html lang="{language}">' in page.text
        assert submit in page.text and "PostgreSQL" in page.text
        assert '"{n} minute left":' in page.text  # the scripts' messages, found in the build
        bundles = re.findall(r'/static/bundle\.[0-9a-f]{16}\.(?:js|css)', page.text)
        assert {url.rsplit(".", 1)[1] for url in bundles} == {"js", "css"}
        for url in bundles:
            fetched = browser.get(url)
            assert fetched.status_code == 200 and len(fetched.content) > 1000


def stop_started_portal(port: int, data_dir: Path) -> None:
    """Stop the portal a `choice mcp` bridge started on `port`, if one runs: it is nobody's
    child here, and its pid is the owner's to see (`/healthz` with the token)."""
    client = PortalClient(f"http://127.0.0.1:{port}", None)
    if client.is_portal():
        owner = PortalClient(client.base_url, (data_dir / "token").read_text().strip())
        os.kill(owner.call("GET", "/healthz")["pid"], signal.SIGTERM)
