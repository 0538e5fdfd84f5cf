"""Reminders reach the page (docs/guides/browser.md#reminders-of-a-waiting-question): a
question nobody has opened reminds every `CHOICE_REMINDER_MINUTES` (here 0.05, three
seconds): an open list page that is not focused shows a notification and a toast that opens
the question."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question
from tests.browser.test_attention import ATTENTION_SPIES
from tests.portal_process import PortalProcess

REMINDER_BOUND_MS = 30_000  # three seconds of waiting, on a loaded machine


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("portal"), CHOICE_REMINDER_MINUTES="0.05")
    yield process.start()
    process.stop()


def test_an_unopened_question_reminds_the_open_list_page(
        open_page: OpenPage, client: PortalClient) -> None:
    page = open_page("/", permissions=["notifications"],
                     prepare=lambda p: p.add_init_script(ATTENTION_SPIES))
    # Answered in the terminal: the list announces it without opening it, so nobody has.
    iid = client.create(question(title="Which <i>log</i> store?", interface="terminal"))[
        "interaction_id"]
    page.wait_for_function("() => window.__notifications.some(n => n.body.startsWith('Still'))",
                           timeout=REMINDER_BOUND_MS)
    bodies = [n["body"] for n in page.evaluate("window.__notifications")]
    assert "Still waiting for your answer: Which <i>log</i> store?" in bodies
    toast = page.get_by_test_id("toast").filter(has_text="Still waiting for your answer")
    expect(toast.first).to_contain_text("Which <i>log</i> store?")  # text, not markup
    toast.first.get_by_role("link", name="Open").click()
    page.wait_for_url(f"**/choice/{iid}")
    client.cancel(iid)
