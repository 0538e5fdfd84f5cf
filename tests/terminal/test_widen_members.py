"""Widening to a team server's members from `choice answer <id>` in a real terminal, run on
the owner's machine against a real team portal (`CHOICE_URL`, `CHOICE_TOKEN`; a real
OpenID provider signs the members in): the audience box says how a member is named, an
email invites that member (who then finds it in their list), and an email no member signed
in with is refused in the owner's words with nothing changed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.oidc.provider import Member, OidcProvider, team_portal
from tests.portal_process import PortalProcess, free_port
from tests.terminal.conftest import need_tmux
from tests.terminal.tmux import Pane

pytestmark = pytest.mark.slow
HOW = "a member's email invites them signed in"


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("widen-terminal"), members=("ann", "bob")) as both:
        yield both


@pytest.fixture(scope="module")
def ann(team: tuple[OidcProvider, PortalProcess]) -> Member:
    return Member(team[1], "ann@example.com")


@pytest.fixture(scope="module")
def bob(team: tuple[OidcProvider, PortalProcess]) -> Member:
    return Member(team[1], "bob@example.com")


@pytest.fixture
def answer(ann: Member, tmp_path: Path) -> Iterator[object]:
    """`answer(id)`: `choice answer <id>` on Ann's laptop, in a tmux pane."""
    need_tmux()
    made = ann.call("POST", "/api/tokens", json={"name": "terminal"})
    assert made.status_code == 201, made.text
    env = {"CHOICE_DATA_DIR": str(tmp_path), "CHOICE_PORT": str(free_port()),
           "CHOICE_OPEN_BROWSER": "0", "TERM": "xterm-256color", "LANG": "C.UTF-8",
           "CHOICE_URL": ann.portal.base_url, "CHOICE_TOKEN": made.json()["token"],
           "PATH": os.environ.get("PATH", "")}
    panes: list[Pane] = []

    def answer_(interaction_id: str, *args: str) -> Pane:
        pane = Pane([sys.executable, "-m", "choice.cli", "answer", interaction_id, *args], env,
                    width=100, height=40).start()
        panes.append(pane)
        return pane

    yield answer_
    for pane in panes:
        pane.kill()


def test_an_email_at_the_audience_prompt_invites_that_member(
        ann: Member, bob: Member, answer: object) -> None:
    iid = ann.ask("Which queue, Bob?")
    pane = answer(iid)  # type: ignore[operator]
    pane.wait_for("left", "asked at")
    pane.press("w")
    pane.wait_for(HOW, "Audience >")
    pane.type("Bob@example.com")
    pane.press("Enter")
    pane.wait_for("Audience confirmed: Bob@example.com (1 member)", "[b/c]")
    pane.press("b")
    pane.wait_for("Widened ✓", f"/widened/{iid}")
    listed = bob.call("GET", "/api/interactions").json()["widened_to_me"]
    assert iid in {row["interaction_id"] for row in listed}
    people = ann.call("GET", f"/api/interactions/{iid}/team").json()["participants"]
    assert [p["name"] for p in people] == ["Bob"]  # named alone: nobody else


def test_an_email_no_member_signed_in_with_is_refused_in_the_owners_words(
        ann: Member, answer: object) -> None:
    iid = ann.ask("Which log, Zed?")
    pane = answer(iid, "--plain")  # type: ignore[operator]
    pane.wait_for("Which log, Zed?", "[w]iden")
    pane.press("w", "Enter")
    pane.wait_for(HOW, "Audience >")
    pane.type("zed@example.com")
    pane.press("Enter")
    pane.wait_for("[b/c]")
    pane.type("b")
    pane.press("Enter")
    pane.wait_for("no member has signed in here with zed@example.com", "type their name for a "
                  "guest link")
    assert ann.call("GET", f"/api/interactions/{iid}").json()["status"] == "pending"
