"""Claude Code's interactive UI in tmux with the portal's MCP server (`choice mcp`, from
`choice mcp-config json`): a `provide_choice` question with `interface: "client"` is asked
in Claude Code's own elicitation form ("MCP server “choice” requests your input"). Picked
and accepted there with the keys a person would press, it is the tool result the model gets
and the portal lists it as answered in the client; Esc or Decline in the form cancels it,
with the reason, and the model gets that cancelled result."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from tests.agents.claude_code import ClaudeCode
from tests.agents.fake_model import AnthropicModel, ModelServer, Say, ToolResult, ToolUse
from tests.agents.portal_questions import question_for, questions_of
from tests.terminal.tmux import Pane, need_tmux

pytestmark = [pytest.mark.agents, pytest.mark.slow, pytest.mark.tmux]

TOOL = "mcp__choice__provide_choice"
FORM = "requests your input"
SCREEN_SECONDS = 60.0
CURSOR = "❯"
ACCEPT_SECONDS = 1.0
Start = Callable[..., ClaudeCode]


def ask_in_client(title: str) -> dict[str, Any]:
    return {"title": title, "prompt": "The service needs a store; both fit.",
            "interface": "client",
            "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]}


@pytest.fixture
def claude(claude: Start) -> Start:
    """Claude Code's TUI with the MCP server, started with the first prompt: with the hooks
    from `choice hook-config claude` (whose `permissions.allow` lets the portal's own tools
    run unasked), or without them and the tool allowed on the command line."""
    need_tmux()

    def start(model: AnthropicModel, *, hooks: bool) -> ClaudeCode:
        agent = claude(model, mcp=True, hooks=hooks)
        allowed = () if hooks else (f"--allowedTools={TOOL}",)
        agent.tui(extra=(*allowed, "Do the task."))
        return agent
    return start


def form_of(agent: ClaudeCode, title: str) -> Pane:
    """The pane once Claude Code shows the form for the question `title`."""
    assert agent.pane is not None
    agent.pane.wait_for(FORM, title, timeout=SCREEN_SECONDS)
    return agent.pane


def under_cursor(screen: str) -> str:
    """What the form's cursor points at (in an open pick list, the option; on the buttons'
    row, the button): the text after the last cursor mark below the form's title."""
    form = screen[screen.find(FORM):] if FORM in screen else ""
    marked = [line for line in form.splitlines() if CURSOR in line]
    return marked[-1].split(CURSOR, 1)[1].strip() if marked else ""


def moved_from(before: str, screen: str) -> bool:
    return under_cursor(screen) != before


def move_to(pane: Pane, text: str, *, key: str = "Down", tries: int = 6) -> None:
    """Press `key` until the form's cursor points at what starts with `text`."""
    for _ in range(tries):
        before = under_cursor(pane.screen())
        if before.startswith(text):
            return
        pane.press(key)
        pane.wait_until(partial(moved_from, before), f"the cursor to move from {before!r}",
                        SCREEN_SECONDS)
    raise AssertionError(f"the cursor never reached {text!r}; the screen was:\n{pane.screen()}")


def press(pane: Pane, button: str) -> int:
    """Press Enter on `button` (Accept, Decline) until the form closes; how many Enters it
    took. Claude Code refuses an Enter that comes too soon after the form opened, the cursor
    reached the button or a key was typed (its guard against submitting by accident: a few
    tenths of a second here), and a refused Enter starts that guard again; so each Enter
    waits, bounded, for the form to close before the next."""
    deadline = time.monotonic() + SCREEN_SECONDS
    pressed = 0
    while time.monotonic() < deadline:
        pane.press("Enter")
        pressed += 1
        try:
            pane.wait_gone(FORM, timeout=ACCEPT_SECONDS)
            return pressed
        except AssertionError:
            screen = pane.screen()
            if FORM not in screen:
                return pressed
            if not under_cursor(screen).startswith(button):
                raise
    raise AssertionError(f"the form stayed open after {pressed} Enters on {button}; the "
                         f"screen was:\n{pane.screen()}")


def result_shown(model: ModelServer, pane: Pane) -> ToolResult:
    """What Claude Code sent the model for the tool call (waits); failing, with the screen."""
    try:
        return model.result_of(0)
    except AssertionError as missing:
        raise AssertionError(f"{missing}\nthe screen was:\n{pane.screen()}") from None


def test_an_option_picked_in_claude_code_s_form_reaches_the_model(
        claude: Start, client: PortalClient) -> None:
    title = f"Pick a store {uuid.uuid4().hex[:8]}"
    with AnthropicModel([ToolUse(TOOL, ask_in_client(title)), Say("Using it.")]) as model:
        agent = claude(model, hooks=True)
        pane = form_of(agent, title)
        item = question_for(client, lambda: True, title=title)
        assert item["interface"] == "client"  # listed as being asked in the client
        pane.press("Right")  # open the pick list of the answer field
        pane.wait_for("◯ PostgreSQL", "◯ SQLite", timeout=SCREEN_SECONDS)
        move_to(pane, "◯ SQLite")
        pane.press("Enter")
        pane.wait_for("Your answer: SQLite", timeout=SCREEN_SECONDS)
        move_to(pane, "Note (optional)")
        pane.type("Keep it small.")
        pane.wait_for("Keep it small.", timeout=SCREEN_SECONDS)
        move_to(pane, "Accept")
        press(pane, "Accept")
        result = result_shown(model, pane)
        pane.wait_for("Using it.", timeout=SCREEN_SECONDS)
    assert not result.is_error, result.text
    answer = json.loads(result.text)
    assert answer["status"] == "submitted", answer
    assert (answer["selected_ids"], answer["selected_labels"]) == (["lite"], ["SQLite"])
    assert (answer["interface"], answer["answered_via"]) == ("client", "client")
    assert answer["global_annotation"] == "Keep it small."
    listed = next(q for q in client.list("all", 100)["interactions"]
                  if q["interaction_id"] == item["interaction_id"])
    assert (listed["status"], listed["interface"]) == ("submitted", "client")
    events = client.call("GET", f"/api/interactions/{item['interaction_id']}/events")["events"]
    assert [e["actor"] for e in events if e["kind"] == "answered"] == ["human:client"]
    assert questions_of(client, agent.project) == []  # the hook asked nothing before it


@pytest.mark.parametrize(("leave", "reason"), [
    ("Esc", "Dismissed in the MCP client without an answer."),
    ("Decline", "Declined in the MCP client.")], ids=["esc", "decline"])
def test_leaving_claude_code_s_form_cancels_the_question_saying_why(
        claude: Start, client: PortalClient, leave: str, reason: str) -> None:
    title = f"Pick a store {uuid.uuid4().hex[:8]}"
    with AnthropicModel([ToolUse(TOOL, ask_in_client(title)), Say("Stopping.")]) as model:
        agent = claude(model, hooks=False)
        pane = form_of(agent, title)
        if leave == "Esc":
            pane.press("Escape")
        else:  # down past the empty answer and the note to the Decline button
            move_to(pane, "Decline")
            press(pane, "Decline")
        result = result_shown(model, pane)
    answer = json.loads(result.text)
    assert (answer["status"], answer["selected_ids"]) == ("cancelled", []), answer
    assert answer["global_annotation"] == reason
    ended = client.poll(answer["interaction_id"], 0)
    assert (ended["status"], ended["global_annotation"]) == ("cancelled", reason)
