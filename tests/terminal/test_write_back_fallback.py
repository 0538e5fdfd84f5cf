"""The review's fallback in a real terminal (docs/guides/write-back.md#on-the-page): no
candidate within `CHOICE_SUMMARY_SECONDS` (1 s on this module's portal), so the owner is
told and writes the answer in the built-in line editor; it resolves as `manual`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Answer, Ask, finished
from tests.terminal.test_write_back import NO_EDITOR

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("portal"),
                            CHOICE_SUMMARY_SECONDS="1").start()
    yield process
    process.stop()


def test_no_candidate_in_time_and_the_owner_writes_the_answer(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, nobody summarises", selection_mode="hybrid")
    client.widen(iid, ["Alice"], "block")
    pane = answer(iid, env=NO_EDITOR)
    pane.wait_for("Waiting for widened discussion")
    pane.press("f")
    pane.wait_for("Summarization timed out or produced invalid output. Write the answer "
                  "yourself.", "Proposed answer:", "(none)", "e write the answer",
                  "f ask the agent again", "d defer")
    assert "[a]ccept" not in pane.screen()
    pane.press("a")
    pane.wait_for("There is no proposed answer to accept: press e to write it.")
    pane.press("e")
    pane.wait_for("Final answer: ")
    pane.type("SQLite, it is a small service")
    pane.press("Enter")
    pane.wait_for("Optional rationale (press Enter to skip): ",
                  "Your final answer: SQLite, it is a small service")
    pane.press("Enter")  # skipped
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert result["summary_json"] == {"text": "", "source": "manual"}
    assert (result["custom_input"], result["rationale"]) == ("SQLite, it is a small service",
                                                             None)
