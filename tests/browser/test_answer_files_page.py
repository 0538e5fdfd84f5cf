"""A person sends files back from the question's page
(docs/guides/attachments.md#the-person-sends-files-back), in a real Chromium against a real
portal: the file picker, pasting an image, dropping a file. Each file is kept with the draft
(a reload shows it), can be removed before submitting, and reaches the agent's result with
its bytes intact. The script that sends them loads only when used."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.browser.test_attachments_page import png

pytestmark = pytest.mark.browser


def result_of(client: PortalClient, iid: str) -> dict[str, object]:
    return client.poll(iid, wait=5)


def file_list(page: Page):  # type: ignore[no-untyped-def]
    return page.get_by_test_id("answer-file-list").locator("li")


def files_script_loaded(page: Page) -> bool:
    return bool(page.evaluate("() => Boolean(window.ChoicePortal.files)"))


@pytest.mark.parametrize("phone", [False, True])
def test_picked_files_stay_with_the_draft_and_reach_the_agent(
        open_page: OpenPage, client: PortalClient, tmp_path: Path, phone: bool) -> None:
    shot, log, extra = tmp_path / "screen shot.png", tmp_path / "build.log", tmp_path / "x.txt"
    shot.write_bytes(png(320, 200, 40))
    log.write_text("step 3 failed: exit 2\n")
    extra.write_text("not needed after all\n")
    iid = client.create(question(title="Does the new header look right?"))["interaction_id"]
    page = open_page(f"/choice/{iid}", phone=phone)
    expect(page.get_by_test_id("answer-files")).to_be_visible()
    assert not files_script_loaded(page)  # nobody attached yet: not loaded
    page.get_by_test_id("file-input").set_input_files([str(shot), str(log), str(extra)])
    expect(file_list(page)).to_have_count(3)
    assert files_script_loaded(page)
    image = page.get_by_test_id("answer-file-list").locator("img")
    expect(image).to_have_attribute("alt", "screen shot.png")
    assert image.evaluate("img => img.complete && img.naturalWidth") == 320
    shoot(page, f"answer-files-{'phone' if phone else 'desktop'}")

    page.reload()  # kept with the draft
    expect(file_list(page)).to_have_count(3)
    page.locator("[data-attachment-id] >> text=x.txt").locator("xpath=..").get_by_test_id(
        "remove-file").click()
    expect(file_list(page)).to_have_count(2)
    page.locator("[data-option-id=lite] [data-testid=option-label]").click()
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()

    result = result_of(client, iid)
    sent = result["attachments"]
    assert isinstance(sent, list)
    assert [(f["name"], f["sha256"]) for f in sent] == [
        ("screen shot.png", hashlib.sha256(shot.read_bytes()).hexdigest()),
        ("build.log", hashlib.sha256(log.read_bytes()).hexdigest())]
    expect(page.get_by_test_id("outcome").locator("img")).to_have_attribute("alt",
                                                                            "screen shot.png")


PASTE = """async ([name, type, b64]) => {
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  const data = new DataTransfer();
  data.items.add(new File([bytes], name, { type }));
  const target = document.querySelector("#global-note") || document.body;
  target.focus();
  target.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true,
                                                     cancelable: true }));
}"""
DROP = """([name, type, text]) => {
  const data = new DataTransfer();
  data.items.add(new File([text], name, { type }));
  const box = document.querySelector("[data-answer-files]");
  box.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
  const highlighted = box.classList.contains("dropping");
  box.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  return highlighted;
}"""


def test_a_pasted_image_and_a_dropped_file_are_attached(open_page: OpenPage,
                                                        client: PortalClient) -> None:
    iid = client.create(question(allow_annotations=True))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    image = png(64, 48, 200)
    page.evaluate(PASTE, ["image.png", "image/png", base64.b64encode(image).decode()])
    expect(file_list(page)).to_have_count(1)
    assert page.locator("#global-note").input_value() == ""  # the image did not paste as text
    assert page.evaluate(DROP, ["trace.json", "application/json", '{"ok": false}']) is True
    expect(file_list(page)).to_have_count(2)
    page.locator("[data-option-id=pg] [data-testid=option-label]").click()
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    sent = result_of(client, iid)["attachments"]
    assert isinstance(sent, list)
    assert [(f["name"], f["mime_type"], f["size"]) for f in sent] == [
        ("image.png", "image/png", len(image)), ("trace.json", "application/json", 13)]


def test_a_refused_file_says_why_and_attaches_nothing(open_page: OpenPage, client: PortalClient,
                                                      tmp_path: Path) -> None:
    svg = tmp_path / "logo.svg"
    svg.write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    iid = client.create(question())["interaction_id"]
    page = open_page(f"/choice/{iid}")
    page.get_by_test_id("file-input").set_input_files(str(svg))
    status = page.get_by_test_id("answer-files-status")
    expect(status).to_contain_text("logo.svg")
    expect(status).to_contain_text("SVG")
    expect(file_list(page)).to_have_count(0)
    assert client.draft_files(iid) == []


def test_a_file_the_terminal_attaches_appears_on_the_open_page(open_page: OpenPage,
                                                               client: PortalClient) -> None:
    iid = client.create(question())["interaction_id"]
    page = open_page(f"/choice/{iid}")
    page.locator("html[data-live]").wait_for(state="attached")
    client.attach_file(iid, "from-terminal.txt", "text/plain", b"hello", interface="terminal")
    expect(page.get_by_test_id("answer-file-list")).to_contain_text("from-terminal.txt")
