"""A person's own files from `choice answer`
(docs/guides/attachments.md#the-person-sends-files-back): `a` asks for a path (`~` and
relative paths work), the file is attached to the draft and listed with its size, `A` takes
one off, and the answer carries what is listed; a file that cannot be sent says why on the
status line and the question stays answerable. Real portal, real tmux; the result and the
bytes are read back through the API."""

from __future__ import annotations

import hashlib
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Answer, Ask, Run, finished
from tests.terminal.test_questions import ask_several

pytestmark = pytest.mark.slow
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 47  # 12,040 bytes: "12 KB"
LOG = b"boom at line 3\n" * 70  # 1,050 bytes: "1 KB"


def fetched(portal: PortalProcess, url: str) -> bytes:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {portal.token}"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return bytes(reply.read())


def described(files: list[dict[str, Any]]) -> list[tuple[str, int, str]]:
    return [(f["name"], f["size"], f["sha256"]) for f in files]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The pane's $HOME, holding the files to attach."""
    (tmp_path / "shot.png").write_bytes(PNG)
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "run.log").write_bytes(LOG)
    (tmp_path / "diagram.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    return tmp_path


def test_a_file_attached_by_its_path_goes_with_the_answer(
        ask: Ask, answer: Answer, client: PortalClient, portal: PortalProcess,
        home: Path) -> None:
    iid = ask("Which store, with a screenshot?")
    pane = answer(iid, env={"HOME": str(home)}, width=130)
    pane.wait_for("a attach")
    pane.press("a")
    pane.wait_for("File to attach: ▏", "Enter attach · Esc back")
    pane.type("~/shot.png")
    pane.press("Enter")
    pane.wait_for("Attached shot.png (12 KB).", "Your files: shot.png 12 KB")
    pane.press("a")
    pane.type(f"{home}/lo")  # Tab completes the folder, then the file in it
    pane.press("Tab")
    pane.wait_for(f"File to attach: {home}/logs/▏")
    pane.press("Tab")
    pane.wait_for(f"File to attach: {home}/logs/run.log▏")
    pane.press("Enter")
    pane.wait_for("Your files: shot.png 12 KB · run.log 1 KB")
    assert described(client.draft_files(iid)) == [
        ("shot.png", len(PNG), hashlib.sha256(PNG).hexdigest()),
        ("run.log", len(LOG), hashlib.sha256(LOG).hexdigest())]
    pane.press("Enter")  # the option under the cursor
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert result["selected_ids"] == ["pg"]
    assert described(result["attachments"]) == [
        ("shot.png", len(PNG), hashlib.sha256(PNG).hexdigest()),
        ("run.log", len(LOG), hashlib.sha256(LOG).hexdigest())]
    assert fetched(portal, result["attachments"][0]["url"]) == PNG
    assert fetched(portal, result["attachments"][1]["url"]) == LOG
    added = client.call("GET", f"/api/interactions/{iid}/events")["events"]
    assert [e["actor"] for e in added if e["kind"] == "attachment_added"] == [
        "human:terminal", "human:terminal"]


def test_a_file_that_cannot_be_sent_says_why_and_the_answer_goes_on(
        ask: Ask, answer: Answer, client: PortalClient, home: Path) -> None:
    iid = ask("Which store, refusing a drawing?", selection_mode="hybrid")
    pane = answer(iid, env={"HOME": str(home)}, width=140)
    pane.press("Down", "Down", "Down")  # the text row: letters type, Ctrl-A attaches
    pane.wait_for("› Or write your own answer: ▏", "^A attach")
    pane.type("Redis")
    pane.press("C-a")
    pane.type("~/diagram.svg")
    pane.press("Enter")
    pane.wait_for("diagram.svg is not a kind of file that can be sent: send PNG, JPEG, GIF "
                  "or WebP images")
    pane.press("C-a")  # the refused path comes back to be fixed
    pane.wait_for("File to attach: ~/diagram.svg▏")
    for _ in "diagram.svg":
        pane.press("BSpace")
    pane.type("nowhere.png")
    pane.press("Enter")
    pane.wait_for("No file at ~/nowhere.png: check the path")
    pane.press("C-a", "C-u")
    pane.type("~/logs")
    pane.press("Enter")
    pane.wait_for("~/logs is a folder")
    pane.wait_for("› Or write your own answer: Redis▏")  # nothing typed was lost
    assert client.draft_files(iid) == []
    pane.press("Enter")
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert (result["custom_input"], result.get("attachments") or []) == ("Redis", [])


def test_the_portals_refusal_shows_and_the_list_catches_up(
        ask: Ask, answer: Answer, client: PortalClient, home: Path) -> None:
    iid = ask("Which store, with too many files?")
    pane = answer(iid, env={"HOME": str(home)}, width=140, height=34)
    for number in range(1, 6):  # attached elsewhere once the terminal had loaded the list
        client.attach_file(iid, f"page-{number}.log", "text/plain", LOG)
    pane.press("a")
    pane.type("~/shot.png")
    pane.press("Enter")
    pane.wait_for("Not attached: 5 files are attached already: remove one first.",
                  "Your files: page-1.log 1 KB · page-2.log 1 KB · page-3.log 1 KB · "
                  "page-4.log 1 KB · page-5.log 1 KB")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert [f["name"] for f in finished(client, iid)["attachments"]] == [
        f"page-{number}.log" for number in range(1, 6)]


def test_a_file_removed_before_the_answer_is_not_sent(
        ask: Ask, answer: Answer, client: PortalClient, home: Path) -> None:
    iid = ask("Which store, after second thoughts?")
    client.attach_file(iid, "from-the-page.png", "image/png", PNG)  # attached on the page
    pane = answer(iid, env={"HOME": str(home)}, width=150)
    pane.wait_for("Your files: from-the-page.png 12 KB", "A remove file")
    pane.press("a")
    pane.type("~/logs/run.log")
    pane.press("Enter")
    pane.wait_for("Your files: from-the-page.png 12 KB · run.log 1 KB")
    pane.press("A")
    pane.wait_for("Remove which file from your answer?", "› from-the-page.png  12 KB",
                  "↑↓ move · Enter remove · Esc back")
    pane.press("Escape")  # keeps them all
    pane.wait_for("Your files: from-the-page.png 12 KB · run.log 1 KB")
    pane.press("A", "Down", "Enter")
    pane.wait_for("Removed run.log.", "Your files: from-the-page.png 12 KB")
    assert [f["name"] for f in client.draft_files(iid)] == ["from-the-page.png"]
    pane.press("j", "Enter")
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert result["selected_ids"] == ["lite"]
    assert described(result["attachments"]) == [
        ("from-the-page.png", len(PNG), hashlib.sha256(PNG).hexdigest())]


def test_several_questions_attach_from_any_question_and_from_the_review(
        answer: Answer, client: PortalClient, home: Path) -> None:
    iid = ask_several(client, "Files with several questions")
    pane = answer(iid, env={"HOME": str(home)}, width=140)
    pane.press("a")
    pane.type("~/shot.png")
    pane.press("Enter")
    pane.wait_for("Your files: shot.png 12 KB")
    pane.press("Tab")  # the next question shows the same files: they go with the answers
    pane.wait_for("Which features?", "Your files: shot.png 12 KB")
    pane.press("Right", "Right")
    pane.wait_for("Review your answers", "a attach")
    pane.press("a")  # on the review, `a` attaches too
    pane.type("~/logs/run.log")
    pane.press("Enter")
    pane.wait_for("Your files: shot.png 12 KB · run.log 1 KB")
    assert [f["name"] for f in client.draft_files(iid)] == ["shot.png", "run.log"]


def test_the_keys_are_in_the_help_in_chinese(ask: Ask, run: Run, home: Path) -> None:
    iid = ask("Which store, in Chinese?", language="zh")
    pane = run("answer", iid, env={"HOME": str(home)})
    pane.wait_for("剩余", "提问于")
    pane.press("a")
    pane.type("~/shot.png")
    pane.press("Enter")
    pane.wait_for("你的文件：shot.png 12 KB")
    pane.press("?")
    pane.wait_for("a 附加文件", "A 移除文件")
