"""Team mode: a member's agent sees, apart from its own and marked as not its own, the
questions other members widened to its member: `list_pending` over a remote `choice mcp`
and `choice list` on another machine, both with the member's token (`CHOICE_URL`,
`CHOICE_TOKEN`). Withdrawn, the question leaves both; a member it was not widened to sees
nothing of it. A real portal in team mode, a real OpenID provider.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mcp.conftest import FAST, stdio_session
from tests.oidc.provider import Member, OidcProvider, team_portal
from tests.portal_process import PortalProcess, free_port

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("widened-agent"), members=("ann", "bob", "cat"),
                     **FAST) as both:
        yield both


def laptop(member: Member, where: Path) -> dict[str, str]:
    """The member's machine: their agent token for the team server and a data dir of its own."""
    made = member.call("POST", "/api/tokens", json={"name": "laptop"})
    assert made.status_code == 201, made.text
    where.mkdir()
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    return {**inherited, "CHOICE_DATA_DIR": str(where), "CHOICE_PORT": str(free_port()),
            "CHOICE_OPEN_BROWSER": "0", "CHOICE_URL": member.portal.base_url,
            "CHOICE_TOKEN": made.json()["token"], **FAST}


def widened_to_bob(ann: Member, title: str) -> tuple[str, str]:
    """Ann's question widened to Bob: its id, and Bob's participant id."""
    iid = ann.ask(title)
    reply = ann.call("POST", f"/api/interactions/{iid}/widen", json={"members": ["bob@example.com"]})
    assert reply.status_code == 201, reply.text
    return iid, str(reply.json()["participants"][0]["participant_id"])


def choice_list(env: dict[str, str]) -> str:
    ran = subprocess.run([sys.executable, "-m", "choice.cli", "list"], env=env, text=True,
                         capture_output=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def test_choice_list_shows_what_is_widened_to_the_member_apart_and_marked(
        ann: Member, bob: Member, cat: Member, tmp_path: Path) -> None:
    iid, bobs = widened_to_bob(ann, "Ann's queue question")
    own = bob.ask("Bob's own question")
    shown = choice_list(laptop(bob, tmp_path / "bob"))
    mine, _, theirs = shown.partition("Widened to you by other members")
    assert own in mine and iid not in mine, shown
    line = next(row for row in theirs.splitlines() if iid in row)
    assert "widened to you" in line and "Ann's queue question" in line
    assert line.endswith(f"{bob.portal.base_url}/widened/{iid}")

    assert iid not in choice_list(laptop(cat, tmp_path / "cat"))  # not widened to Cat
    gone = ann.call("DELETE", f"/api/interactions/{iid}/participants/{bobs}")
    assert gone.status_code == 204, gone.text
    assert iid not in choice_list(laptop(bob, tmp_path / "bob-after"))


async def test_list_pending_over_a_remote_mcp_marks_what_is_widened_to_the_member(
        ann: Member, bob: Member, tmp_path: Path) -> None:
    iid, _ = widened_to_bob(ann, "Ann's broker question")
    env = laptop(bob, tmp_path / "bob")
    async with stdio_session(Path(env["CHOICE_DATA_DIR"]), int(env["CHOICE_PORT"]),
                             CHOICE_URL=env["CHOICE_URL"],
                             CHOICE_TOKEN=env["CHOICE_TOKEN"]) as session:
        listed = await session.call_tool("list_pending", {})
    content = listed.structured_content
    assert iid not in {row["session_id"] for row in content["interactions"]}  # not Bob's
    theirs = {row["interaction_id"]: row for row in content["widened_to_me"]}
    assert theirs[iid]["title"] == "Ann's broker question"
    assert theirs[iid]["link"] == f"{bob.portal.base_url}/widened/{iid}"
    text = listed.content[0].text  # type: ignore[union-attr]
    heading = text.index("Widened to your person by other members")
    assert text.index(f"- {iid} [widened to you]") > heading
