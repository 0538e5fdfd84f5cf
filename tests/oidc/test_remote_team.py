"""Team mode end to end from another machine: the clients reach a real team server (a real
OpenID provider, members signed in) with `CHOICE_URL` and a member's agent token
(`CHOICE_TOKEN`), start nothing and write nothing where they run; what they ask is that
member's, whom the member answers in their own browser session, and no other member sees.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.integration.test_cli import ASK, Asking
from tests.mcp.conftest import FAST, ask, stdio_session
from tests.oidc.provider import Member, OidcProvider, team_portal
from tests.portal_process import PortalProcess, free_port

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("remote-team"), members=("ann", "bob"),
                     **FAST) as both:
        yield both


@pytest.fixture
def client_env(ann: Member, tmp_path: Path) -> dict[str, str]:
    """Ann's laptop: her agent token for the team server, an empty data dir of its own, and a
    local address where nothing answers (ignored)."""
    made = ann.call("POST", "/api/tokens", json={"name": "laptop"})
    assert made.status_code == 201, made.text
    data_dir = tmp_path / "laptop"
    data_dir.mkdir()
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    return {**inherited, "CHOICE_DATA_DIR": str(data_dir), "CHOICE_PORT": str(free_port()),
            "CHOICE_OPEN_BROWSER": "0", "CHOICE_URL": ann.portal.base_url,
            "CHOICE_TOKEN": made.json()["token"], **FAST}


def appears(member: Member, title: str, within: float = 30.0) -> str:
    """The id of the member's question titled `title`, once their list shows it."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for row in member.call("GET", "/api/interactions").json()["interactions"]:
            if row["title"] == title:
                return str(row["interaction_id"])
    raise AssertionError(f"{title!r} never reached the member's list")


def nothing_written(env: dict[str, str]) -> None:
    assert list(Path(env["CHOICE_DATA_DIR"]).iterdir()) == []


async def test_a_remote_choice_mcp_asks_as_the_member_who_answers_in_their_browser(
        ann: Member, bob: Member, client_env: dict[str, str]) -> None:
    question: dict[str, Any] = {**ask(), "title": "Remote MCP question"}
    async with stdio_session(Path(client_env["CHOICE_DATA_DIR"]), int(client_env["CHOICE_PORT"]),
                             CHOICE_URL=client_env["CHOICE_URL"],
                             CHOICE_TOKEN=client_env["CHOICE_TOKEN"]) as session:
        asked = await session.call_tool("provide_choice", question)
        pending: dict[str, Any] = asked.structured_content
        assert pending["status"] == "pending", asked
        iid = pending["session_id"]
        assert appears(ann, "Remote MCP question") == iid
        assert bob.call("GET", f"/api/interactions/{iid}").status_code == 404
        answered = ann.call("POST", f"/api/interactions/{iid}/response",
                            json={"selected_ids": [question["options"][0]["id"]]})
        assert answered.status_code == 200, answered.text
        polled = await session.call_tool("provide_choice", {"session_id": iid})
        assert polled.structured_content["selected_ids"] == [question["options"][0]["id"]]
    nothing_written(client_env)


def test_a_remote_choice_ask_prints_the_members_answer(
        ann: Member, client_env: dict[str, str]) -> None:
    process = subprocess.Popen([sys.executable, "-m", "choice.cli", *ASK], env=client_env,
                               text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    asking = Asking(process)
    iid = asking.interaction_id()
    assert iid in {row["interaction_id"] for row in
                   ann.call("GET", "/api/interactions").json()["interactions"]}
    ann.call("POST", f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]})
    code, stdout = asking.finish()
    assert code == 0, asking.stderr
    assert json.loads(stdout)["selected_ids"] == ["pg"]
    nothing_written(client_env)


def test_a_remote_choice_hook_asks_the_member_and_hands_back_their_decision(
        ann: Member, client_env: dict[str, str]) -> None:
    from choice.client.portal_client import PortalClient
    from tests.hook_process import Hook, claude, output_of, project, question_of

    name = project()
    payload = claude("Bash", {"command": "make test", "description": "Run the tests"},
                     cwd=f"/home/dev/{name}")
    hook = Hook({**client_env, "CHOICE_HOOK_WAIT_SECONDS": "30"}, json.dumps(payload), "claude")
    agent = PortalClient(client_env["CHOICE_URL"], client_env["CHOICE_TOKEN"])
    iid = str(question_of(agent, name, hook)["interaction_id"])
    assert iid in {row["interaction_id"] for row in
                   ann.call("GET", "/api/interactions").json()["interactions"]}
    ann.call("POST", f"/api/interactions/{iid}/response", json={"selected_ids": ["allow"]})
    assert hook.decision() == output_of({"behavior": "allow"})
    nothing_written(client_env)


def test_a_remote_choice_open_prints_the_page_which_signs_a_browser_in_through_the_provider(
        ann: Member, client_env: dict[str, str]) -> None:
    iid = ann.ask("Opened from a laptop")
    printed = subprocess.run([sys.executable, "-m", "choice.cli", "open", iid, "--print"],
                             env=client_env, text=True, capture_output=True, timeout=60)
    assert printed.returncode == 0, printed.stderr
    link = printed.stdout.strip().splitlines()[-1]
    assert link == f"{ann.portal.base_url}/choice/{iid}"  # the public URL; no one-time code
    with httpx.Client(timeout=20) as browser:  # a browser nobody signed in yet
        sent = browser.get(link)
        assert sent.status_code == 303 and sent.headers["location"] == f"/login?next=/choice/{iid}"
    page = ann.client.get(link)  # Ann's own browser, signed in
    assert page.status_code == 200 and "Opened from a laptop" in page.text
    nothing_written(client_env)
