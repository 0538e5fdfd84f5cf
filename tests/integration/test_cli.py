"""The `choice` command as a shell script uses it: exit codes, output, auto-start."""

from __future__ import annotations

import json
import os
import queue
import re
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from choice.client.portal_client import PortalClient
from choice.core.token import read_token
from tests.portal_process import PortalProcess, free_port

pytestmark = pytest.mark.slow
ASK = ["ask", "Pick a database", "--prompt", "The service needs a store; both fit.",
       "--option", "pg=PostgreSQL", "--option", "lite=SQLite", "--mode", "single",
       "--timeout", "120"]


def choice(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "choice.cli", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


class Asking:
    """A running `choice ask`: read its stderr until it says where to answer."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.stderr: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def interaction_id(self, timeout: float = 20.0) -> str:
        while (line := self._lines.get(timeout=timeout)) is not None:
            found = re.search(r"choice answer ([0-9a-f]+)", line)
            if found:
                return found.group(1)
        raise AssertionError("choice ask ended early:\n" + "".join(self.stderr))

    def all_stderr(self, timeout: float = 10.0) -> list[str]:
        """Everything it wrote to stderr, once it has closed it."""
        while self._lines.get(timeout=timeout) is not None:
            pass
        return self.stderr

    def finish(self) -> tuple[int, str]:
        stdout, _ = self.process.communicate(timeout=30)
        return self.process.returncode, stdout


@pytest.fixture
def portal(isolated_env: Path) -> Iterator[PortalProcess]:
    process = PortalProcess(isolated_env).start()
    yield process
    process.stop()


def env_for(portal: PortalProcess) -> dict[str, str]:
    return {**os.environ, "CHOICE_DATA_DIR": str(portal.data_dir), "CHOICE_PORT": str(portal.port)}


def test_ask_prints_the_result_and_exits_0_when_answered(portal: PortalProcess) -> None:
    asking = Asking(choice(*ASK, env=env_for(portal)))
    iid = asking.interaction_id()
    portal.client().call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["lite"]})
    code, stdout = asking.finish()
    assert code == 0
    result = json.loads(stdout)
    assert result["selected_ids"] == ["lite"] and result["status"] == "submitted"
    assert any("http://127.0.0.1" in line for line in asking.stderr)


def test_ask_exits_3_when_cancelled(portal: PortalProcess) -> None:
    asking = Asking(choice(*ASK, env=env_for(portal)))
    iid = asking.interaction_id()
    portal.client().call("POST", f"/api/interactions/{iid}/cancel", {"global_annotation": "no"})
    code, stdout = asking.finish()
    assert code == 3
    assert json.loads(stdout)["action_status"] == "cancelled"


def test_ask_exits_4_on_timeout(portal: PortalProcess) -> None:
    asking = Asking(choice(*ASK, env=env_for(portal)))
    iid = asking.interaction_id()
    soon = (datetime.now(UTC) + timedelta(seconds=1.5)).isoformat()
    portal.client().call("PATCH", f"/api/interactions/{iid}", {"expires_at": soon})
    code, stdout = asking.finish()
    assert code == 4
    assert json.loads(stdout)["action_status"] == "timeout"


def test_ask_exits_2_with_field_errors_for_an_invalid_request(portal: PortalProcess) -> None:
    process = choice("ask", "Title", "--prompt", "why", "--mode", "multi", "--max", "3",
                     "--option", "a=A", env=env_for(portal))
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 2
    assert "max_selections" in stderr and "lower it" in stderr
    assert portal.client().list()["interactions"] == []


def test_ask_exits_2_for_a_malformed_option_flag(portal: PortalProcess) -> None:
    process = choice("ask", "Title", "--prompt", "why", "--option", "noequals", env=env_for(portal))
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 2
    assert "ID=LABEL" in stderr


def test_ask_starts_a_portal_in_process_when_none_answers(isolated_env: Path) -> None:
    port = free_port()
    env = {**os.environ, "CHOICE_DATA_DIR": str(isolated_env), "CHOICE_PORT": str(port)}
    asking = Asking(choice(*ASK, env=env))
    iid = asking.interaction_id()
    client = PortalClient(f"http://127.0.0.1:{port}", read_token(isolated_env / "token"))
    client.call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["pg"]})
    code, stdout = asking.finish()
    assert code == 0
    assert json.loads(stdout)["selected_labels"] == ["PostgreSQL"]
    said = asking.all_stderr()
    assert any("started a portal" in line for line in said)
    # The person sees where to answer, not the in-process portal's start-up log.
    assert not [line for line in said if line.startswith("INFO")], said


def test_token_prints_the_private_token(isolated_env: Path) -> None:
    env = {**os.environ, "CHOICE_DATA_DIR": str(isolated_env)}
    output = subprocess.run([sys.executable, "-m", "choice.cli", "token"], env=env, text=True,
                            capture_output=True, check=True).stdout.strip()
    token_file = isolated_env / "token"
    assert output == token_file.read_text().strip() and len(output) >= 40
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600


def test_list_shows_interactions(portal: PortalProcess) -> None:
    portal.client().create({"title": "Listed one", "prompt": "p",
                            "options": [{"id": "a", "label": "A"}]})
    output = subprocess.run([sys.executable, "-m", "choice.cli", "list"], env=env_for(portal),
                            text=True, capture_output=True, check=True).stdout
    assert "Listed one" in output and "pending" in output


def test_open_prints_a_one_time_link_that_signs_a_browser_in(portal: PortalProcess) -> None:
    iid = portal.client().create({"title": "t", "prompt": "p",
                                  "options": [{"id": "a", "label": "A"}]})["interaction_id"]
    link = subprocess.run([sys.executable, "-m", "choice.cli", "open", iid, "--print"],
                          env=env_for(portal), text=True, capture_output=True,
                          check=True).stdout.strip()
    assert link.startswith(f"{portal.base_url}/login?code=") and link.endswith(f"/choice/{iid}")
    with httpx.Client() as browser:
        landed = browser.get(link, follow_redirects=True)
        assert landed.status_code == 200 and str(landed.url).endswith(f"/choice/{iid}")
        assert "data-testid=\"interaction\"" in landed.text
        assert browser.get(link).status_code == 401  # single use


def test_ask_attaches_files_and_refuses_a_type_it_does_not_show(portal: PortalProcess,
                                                                 tmp_path: Path) -> None:
    chart, page = tmp_path / "chart.png", tmp_path / "page.html"
    chart.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    page.write_text("<script>alert(1)</script>")
    asking = Asking(choice(*ASK, "--attach", str(chart), env=env_for(portal)))
    iid = asking.interaction_id()
    client = portal.client()
    kept = client.detail(iid)["request"]["attachments"]
    assert [(a["name"], a["mime_type"], a["size"]) for a in kept] == [("chart.png", "image/png", 72)]
    client.respond(iid, {"selected_ids": ["pg"]})
    assert asking.finish()[0] == 0
    refused = choice(*ASK, "--attach", str(page), env=env_for(portal))
    _, stderr = refused.communicate(timeout=30)
    assert refused.returncode == 2 and "attachments[0].mime_type" in stderr
    missing = choice(*ASK, "--attach", str(tmp_path / "nope.png"), env=env_for(portal))
    _, stderr = missing.communicate(timeout=30)
    assert missing.returncode == 2 and "--attach" in stderr and "cannot read it" in stderr
