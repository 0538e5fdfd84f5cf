"""Team mode in the terminal: Bob runs `choice answer`, `choice list` and `choice open` on
his own machine against a real team server (`CHOICE_URL` and his agent token,
`CHOICE_TOKEN`), in a real pseudo-terminal (tmux). His screens show his questions and what
Ann widened to him, never anything else of Ann's: not while his terminal is open and Ann's
agent asks (the live stream's reminders), not when he names her question by its id (the
same "not found" as a made-up id). Every screen read while a test runs is kept and
searched, not only the last. A real OpenID provider, a real portal, members signed in.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from choice.client.portal_client import PortalClient
from tests.oidc.provider import MISSING, Member, OidcProvider, team_portal
from tests.portal_process import PortalProcess, free_port
from tests.terminal.tmux import Pane, framed, need_tmux

pytestmark = pytest.mark.slow

WAIT_SECONDS = 30.0
OPTIONS = [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]
ANN_PROMPT = "Ann's private context: the acquisition closes Friday."


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    need_tmux()
    # A question nobody opened reminds every 3 s: what an open terminal hears of others.
    with team_portal(tmp_path_factory.mktemp("terminal-team"), members=("ann", "bob", "cat"),
                     CHOICE_REMINDER_MINUTES="0.05") as both:
        yield both


def agent_token(member: Member) -> str:
    made = member.call("POST", "/api/tokens", json={"name": "terminal laptop"})
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def agent_of(member: Member) -> PortalClient:
    """The member's agent: an API client with one of their agent tokens."""
    return PortalClient(member.portal.base_url, agent_token(member))


def asks(agent: PortalClient, title: str, prompt: str = "Which store?") -> str:
    created = agent.create({"title": title, "prompt": prompt, "options": OPTIONS,
                            "timeout_seconds": 600, "interface": "terminal"})
    assert created["status"] == "pending", created
    return str(created["interaction_id"])


class Terminal:
    """Bob's machine: `choice ...` in tmux panes with his token for the team server, and
    every screen any of them showed while the test watched."""

    def __init__(self, member: Member, data_dir: Path) -> None:
        data_dir.mkdir()
        made = member.call("POST", "/api/tokens", json={"name": "terminal laptop"})
        assert made.status_code == 201, made.text
        self.token_id = str(made.json()["id"])
        self.env = {"CHOICE_URL": member.portal.base_url, "CHOICE_TOKEN": made.json()["token"],
                    "CHOICE_DATA_DIR": str(data_dir), "CHOICE_PORT": str(free_port()),
                    "CHOICE_OPEN_BROWSER": "0", "TERM": "xterm-256color", "LANG": "C.UTF-8"}
        self.panes: list[Pane] = []
        self.seen: list[str] = []

    def run(self, *args: str, width: int = 120, height: int = 30) -> Pane:
        pane = Pane([sys.executable, "-m", "choice.cli", *args], self.env, width=width,
                    height=height)
        self.panes.append(pane)
        return pane.start()

    def look(self, pane: Pane) -> str:
        screen = pane.screen()
        self.seen.append(screen)
        return screen

    def until(self, pane: Pane, ready: Callable[[str], bool], what: str,
              timeout: float = WAIT_SECONDS) -> str:
        """Watch `pane` (keeping every screen) until `ready(screen)`, or fail with it."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.look(pane)
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {timeout:.0f} s for {what}; the screen was:\n"
                                     + framed(screen))
            time.sleep(0.05)  # a polling interval, not a synchronization

    def wait_for(self, pane: Pane, *texts: str) -> str:
        return self.until(pane, lambda s: all(t in s for t in texts),
                          " and ".join(repr(t) for t in texts))

    def ended(self, pane: Pane) -> tuple[int, list[str]]:
        """The command's exit code and the lines it left (wrapped lines joined again)."""
        code = pane.exit_code(WAIT_SECONDS)
        self.look(pane)
        lines = pane.output()
        self.seen.append("\n".join(lines))
        return code, lines

    def never_showed(self, *secrets: str) -> None:
        for secret in secrets:
            shown = [screen for screen in self.seen if secret in screen]
            assert not shown, f"{secret!r} reached Bob's terminal:\n" + framed(shown[0])

    def close(self) -> None:
        for pane in self.panes:
            pane.kill()


@pytest.fixture
def bobs_terminal(bob: Member, tmp_path: Path) -> Iterator[Terminal]:
    terminal = Terminal(bob, tmp_path / "bob")
    yield terminal
    terminal.close()


def reminders_sent(agent: PortalClient, interaction_id: str) -> int:
    events = agent.call("GET", f"/api/interactions/{interaction_id}/events")["events"]
    return sum(1 for event in events if event["kind"] == "reminder_sent")


def test_bobs_terminal_shows_his_question_and_nothing_of_anns_even_as_she_asks_more(
        ann: Member, bob: Member, bobs_terminal: Terminal) -> None:
    anns_agent, bobs_agent = agent_of(ann), agent_of(bob)
    anns_first = asks(anns_agent, "Ann's merger timeline", ANN_PROMPT)
    bobs = asks(bobs_agent, "Bob's cache for the build farm", "Redis or memcached, Bob?")
    pane = bobs_terminal.run("answer", bobs)
    screen = bobs_terminal.wait_for(pane, "Bob's cache for the build farm",
                                    "Redis or memcached, Bob?", "left", "asked at")
    server = bob.portal.base_url.removeprefix("http://")
    assert f"bob@example.com on {server}" in screen.splitlines()[1]  # who, and where

    anns_second = asks(anns_agent, "Ann's layoffs list", ANN_PROMPT)
    # The portal has announced her new question twice (each reminder is recorded before it
    # is published) while Bob's terminal listens.
    bobs_terminal.until(pane, lambda _s: reminders_sent(anns_agent, anns_second) >= 2,
                        "two reminders of Ann's new question")
    # Then Bob's own unopened question: his terminal hears of it, after anything before it.
    asks(bobs_agent, "Bob's flaky test triage")
    bobs_terminal.wait_for(pane, "Another question still waits: Bob's flaky test triage")

    pane.press("Enter")
    code, _lines = bobs_terminal.ended(pane)
    assert code == 0
    assert bobs_agent.poll(bobs, 5)["selected_ids"] == ["pg"]
    bobs_terminal.never_showed("Ann's merger timeline", "Ann's layoffs list", ANN_PROMPT,
                               anns_first, anns_second)
    assert anns_agent.poll(anns_first, 0)["status"] == "pending"  # untouched


def test_the_header_names_the_member_and_server_in_the_questions_language(
        bob: Member, bobs_terminal: Terminal) -> None:
    created = agent_of(bob).create({"title": "用哪个存储？", "prompt": "构建农场的缓存。",
                                     "options": OPTIONS, "timeout_seconds": 600,
                                     "interface": "terminal", "language": "zh"})
    pane = bobs_terminal.run("answer", str(created["interaction_id"]))
    screen = bobs_terminal.wait_for(pane, "用哪个存储？", "剩余")
    server = bob.portal.base_url.removeprefix("http://")
    assert f"bob@example.com（{server}）" in screen.splitlines()[1]


def not_found_lines(terminal: Terminal, *args: str) -> list[str]:
    pane = terminal.run(*args)
    code, lines = terminal.ended(pane)
    assert code == 1, lines
    return lines


def test_naming_anns_question_by_id_is_the_same_not_found_as_a_made_up_id(
        ann: Member, bobs_terminal: Terminal) -> None:
    anns = asks(agent_of(ann), "Ann's salary review", ANN_PROMPT)
    hers = not_found_lines(bobs_terminal, "answer", anns)
    made_up = not_found_lines(bobs_terminal, "answer", MISSING)
    assert [line.replace(anns, MISSING) for line in hers] == made_up
    assert any("no question has the id" in line for line in made_up), made_up
    bobs_terminal.never_showed("Ann's salary review", ANN_PROMPT)
    assert "opened" not in [event["kind"] for event in
                            ann.call("GET", f"/api/interactions/{anns}/events").json()["events"]]


def test_choice_open_with_anns_id_leads_bob_to_nothing_of_hers(
        ann: Member, bob: Member, bobs_terminal: Terminal) -> None:
    anns = asks(agent_of(ann), "Ann's board deck", ANN_PROMPT)
    pane = bobs_terminal.run("open", anns, "--print")
    code, lines = bobs_terminal.ended(pane)
    bobs_terminal.never_showed("Ann's board deck", ANN_PROMPT)
    assert code == 0, lines
    link = lines[-1]
    assert link == f"{bob.portal.base_url}/choice/{anns}"  # a page: no sign-in code
    # Opened in Bob's browser: he is signed in as himself, and her page is the missing page.
    page = bob.client.get(link, follow_redirects=True)
    missing = bob.call("GET", f"/choice/{MISSING}")
    assert page.status_code == missing.status_code == 404
    assert page.text.replace(anns, MISSING) == missing.text
    assert "Ann's board deck" not in page.text and ANN_PROMPT not in page.text


def test_what_ann_widened_to_bob_is_listed_apart_and_answer_says_where_he_takes_part(
        ann: Member, bob: Member, cat: Member, bobs_terminal: Terminal, tmp_path: Path) -> None:
    anns_agent = agent_of(ann)
    widened = asks(anns_agent, "Ann's API naming question", "Plural or singular routes?")
    reply = ann.call("POST", f"/api/interactions/{widened}/widen",
                     json={"members": ["bob@example.com"]})
    assert reply.status_code == 201, reply.text
    private = asks(anns_agent, "Ann's private hiring question", ANN_PROMPT)
    bobs = asks(agent_of(bob), "Bob's logging format")

    code, lines = bobs_terminal.ended(bobs_terminal.run("list", "--limit", "50"))
    assert code == 0
    heading = next(i for i, line in enumerate(lines) if "Widened to you by other members" in line)
    assert any(bobs in line and "Bob's logging format" in line for line in lines[:heading])
    theirs = [line for line in lines[heading:] if widened in line]
    assert len(theirs) == 1 and "widened to you" in theirs[0], lines
    assert "Ann's API naming question" in theirs[0]
    assert theirs[0].endswith(f"{bob.portal.base_url}/widened/{widened}")
    assert all(widened not in line for line in lines[:heading])

    for status in ("active", "widened", "deferred", "completed"):
        code, lines = bobs_terminal.ended(bobs_terminal.run("list", "--status", status))
        assert code == 0, (status, lines)
        assert (any(widened in line and "widened to you" in line for line in lines)
                == (status == "active")), (status, lines)  # the one filter with the team's

    code, lines = bobs_terminal.ended(bobs_terminal.run("answer", widened))
    assert code == 1
    told = " ".join(lines)
    assert "widened to you" in told and f"{bob.portal.base_url}/widened/{widened}" in told
    assert "no question has the id" not in told
    bobs_terminal.never_showed("Ann's private hiring question", private, ANN_PROMPT)

    cats = Terminal(cat, tmp_path / "cat")
    try:
        code, lines = cats.ended(cats.run("list", "--limit", "50"))
        assert code == 0
        cats.never_showed(widened, "Ann's API naming question", private)
        code, lines = cats.ended(cats.run("answer", widened))
        assert code == 1 and any("no question has the id" in line for line in lines), lines
        cats.never_showed("Ann's API naming question", "Plural or singular routes?")
    finally:
        cats.close()




def test_a_revoked_token_gets_a_clear_error_from_every_terminal_command(
        bob: Member, bobs_terminal: Terminal) -> None:
    bobs = asks(agent_of(bob), "Bob's question before the revocation")
    revoked = bob.call("DELETE", f"/api/tokens/{bobs_terminal.token_id}")
    assert revoked.status_code in (200, 204), revoked.text
    for command in (("answer", bobs), ("list",), ("open", bobs, "--print")):
        code, lines = bobs_terminal.ended(bobs_terminal.run(*command))
        told = " ".join(lines)
        assert code == 1, (command, lines)
        assert told.startswith(f"choice {command[0]}: ") and "Traceback" not in told, lines
        assert "revoked bearer token" in told and "set CHOICE_TOKEN" in told, lines
    bobs_terminal.never_showed("Bob's question before the revocation")
