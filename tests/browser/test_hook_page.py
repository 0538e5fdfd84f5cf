"""A coding agent's Bash approval (`choice hook`) on the question page: the command shows as
code (text, never markup), the page fits a phone, and a click on "Allow once" then Submit
is the decision the hook prints."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Locator, Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import shoot
from tests.hook_process import claude, output_of, question_of, run_hook
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow

COMMAND = ('docker run --rm -v "$PWD:/src" -w /src node:22 sh -c '
           '\'npm ci && npm run build && echo "<b>built</b>" > dist/STATUS.html\'')
RULE = {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "docker run:*"}],
        "behavior": "allow", "destination": "localSettings"}
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


def the_command(page: Page) -> Locator:
    return page.get_by_test_id("prompt").locator("pre > code")


def test_a_bash_approval_shows_the_command_as_code_and_a_click_allows_it(
        open_page: OpenPage, portal: PortalProcess, client: PortalClient) -> None:
    project = f"site-{uuid.uuid4().hex[:8]}"
    tool_input = {"command": COMMAND, "description": "Build the site in Docker"}
    hook = run_hook(portal, claude("Bash", tool_input, cwd=f"/home/dev/{project}",
                                   suggestions=[RULE]), CHOICE_HOOK_WAIT_SECONDS="60")
    try:
        iid = str(question_of(client, project, hook)["interaction_id"])
        phone = open_page(f"/choice/{iid}", phone=True)
        expect(the_command(phone)).to_have_text(COMMAND)
        assert phone.evaluate(NO_SIDEWAYS_SCROLL), "the command widens the phone page"
        shoot(phone, "hook-bash-phone")

        page = open_page(f"/choice/{iid}")
        expect(page.get_by_test_id("title")).to_have_text("Allow Bash: Build the site in Docker")
        code = the_command(page)
        expect(code).to_have_text(COMMAND)
        expect(code.locator("b")).to_have_count(0)  # the agent's text stays text
        prompt = page.get_by_test_id("prompt")
        expect(prompt.locator("code").filter(has_text=f"/home/dev/{project}")).to_have_count(1)
        expect(page.get_by_test_id("option-label")).to_have_text(
            ["Allow once", "Always allow this", "Deny"])
        expect(page.locator("[data-option-id=always]").locator("code")).to_have_text(
            "Bash(docker run:*)")
        shoot(page, "hook-bash-desktop")

        page.get_by_test_id("option-label").filter(has_text="Allow once").click()
        page.get_by_test_id("submit").click()
        expect(page.get_by_test_id("outcome")).to_be_visible()
        listed = page.get_by_test_id("list-item").filter(has_text=project)
        expect(listed.get_by_test_id("status-badge")).not_to_have_text("Pending")
        shoot(page, "hook-bash-answered-desktop")
        decision = hook.decision()
    finally:
        hook.kill()
    assert decision == output_of({"behavior": "allow"})
    result = client.poll(iid, 0)
    assert (result["selected_ids"], result["interface"]) == (["allow"], "web")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_an_agent_waiting_at_its_prompt_shows_on_the_open_list(
        open_page: OpenPage, client: PortalClient, language: str) -> None:
    """What `choice hook` sends from Claude Code's Notification hook: the open page says
    which agent waits, where, and what it said."""
    client.save_settings({"language": language})
    try:
        page = open_page("/")
        client.call("POST", "/api/agent-waiting", {
            "message": "Claude needs your permission to use Bash", "agent": "Claude Code",
            "project": "billing", "waiting_for": "permission"})
        said = {"en": "Claude Code asks for a permission in its terminal (billing)",
                "zh": "Claude Code 在它的终端里请求权限（billing）"}[language]
        expect(page.get_by_test_id("toast").last).to_have_text(
            f"{said}: Claude needs your permission to use Bash")
    finally:
        client.save_settings({"language": "en"})
