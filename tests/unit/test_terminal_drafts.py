"""choice/terminal/calls/drafts.py: the plain lines' saves, at most one write a second and the
newest never left unsent, with a fake portal and clock (no network)."""

from __future__ import annotations

import io
import threading
from typing import Any, cast

from choice.client.portal_client import PortalClient
from choice.terminal.calls.drafts import GAP, DraftedLines, DraftSync
from choice.terminal.plain.lines import run_plain
from tests.unit.test_terminal_state import state


class Portal:
    """Records the draft PUTs; `sent` is set on each."""

    def __init__(self) -> None:
        self.puts: list[dict[str, Any]] = []
        self.sent = threading.Event()

    def call(self, method: str, path: str, body: Any = None) -> Any:
        if method == "GET":
            return {"draft": None}
        self.puts.append(body)
        self.sent.set()
        return {}


def sync(portal: Portal, clock: list[float]) -> DraftSync:
    return DraftSync(cast(PortalClient, portal), "i-1", clock=lambda: clock[0])


def test_a_changed_draft_is_sent_at_once_and_an_unchanged_one_not_at_all() -> None:
    portal, clock, answer = Portal(), [100.0], state(selection_mode="hybrid")
    drafts = sync(portal, clock)
    drafts.start([answer], None)
    drafts.save([answer], None)
    assert portal.puts == []
    answer.text = "Valkey"
    drafts.save([answer], None)
    drafts.save([answer], None)
    assert portal.puts == [{"selected_ids": [], "custom_input": "Valkey",
                            "interface": "terminal"}]


def test_a_second_change_within_the_gap_waits_and_only_the_newest_is_sent() -> None:
    portal, clock, answer = Portal(), [100.0], state(selection_mode="hybrid")
    drafts = sync(portal, clock)
    drafts.start([answer], None)
    answer.text = "one"
    drafts.save([answer], None)
    portal.sent.clear()
    clock[0] += GAP - 0.8  # the timer waits the 0.8 s left of the gap
    answer.text = "two"
    drafts.save([answer], None)
    answer.text = "three"
    drafts.save([answer], None)
    assert [put["custom_input"] for put in portal.puts] == ["one"]
    assert portal.sent.wait(5)
    assert [put["custom_input"] for put in portal.puts] == ["one", "three"]


def test_what_waits_when_the_lines_end_is_sent_then() -> None:
    portal, clock, answer = Portal(), [100.0], state(selection_mode="hybrid")
    drafts = sync(portal, clock)
    drafts.start([answer], None)
    answer.text = "one"
    drafts.save([answer], None)
    answer.text = "two"
    drafts.save([answer], None)
    drafts.stop()
    assert [put["custom_input"] for put in portal.puts] == ["one", "two"]
    drafts.stop()
    assert len(portal.puts) == 2


def test_the_lines_save_before_each_wait_on_a_line() -> None:
    saved: list[str] = []

    class Input:
        def readline(self) -> str:
            saved.append("read")
            return "2\n"

        def isatty(self) -> bool:
            return False

    lines = DraftedLines(cast(Any, Input()), lambda: saved.append("saved"))
    assert lines.readline() == "2\n"
    assert (saved, lines.isatty()) == (["saved", "read"], False)


def test_plain_lines_show_a_restored_draft_notes_included_and_enter_keeps_it() -> None:
    """A draft typed in the browser is never sent unseen: the plain lines print it (notes
    too, which they cannot edit) and Enter submits what they printed."""
    answer = state(selection_mode="hybrid", allow_annotations=True,
                   default_selection_ids=["pg"])
    answer.picked, answer.notes = {"duck"}, {"duck": "for the \x1b[2Jreports"}
    answer.global_note = "ask ops first"
    out = io.StringIO()
    effect = run_plain(answer, io.StringIO("\n"), out)
    shown = out.getvalue()
    assert "Your draft (saved earlier, here or in the browser): DuckDB" in shown
    assert "  Note on DuckDB: for the ␛reports" in shown and "\x1b" not in shown
    assert "  Note for the agent: ask ops first" in shown
    assert "[enter]=keep the draft" in shown and "accept default" not in shown
    assert effect is not None and effect.kind == "submit"
    sent = effect.payload
    assert sent.selected_ids == ["duck"]
    assert sent.option_annotations == {"duck": "for the \x1b[2Jreports"}  # as typed
    assert sent.global_annotation == "ask ops first"


def test_plain_lines_without_a_draft_still_take_enter_as_the_defaults() -> None:
    answer = state(default_selection_ids=["pg"])
    out = io.StringIO()
    effect = run_plain(answer, io.StringIO("\n"), out)
    assert "Your draft" not in out.getvalue() and "[enter]=accept default" in out.getvalue()
    assert effect is not None and effect.payload.selected_ids == ["pg"]
