"""The files an agent shows, on a participant's page: the team sees the mock-up they vote on
next to its option, and the question's other files under the prompt (an image inline and
scaled to fit, a file as a download with its size), loaded through the link alone in a
browser that never signed in."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import shoot
from tests.browser.team import TEAM_DESKTOP, TEAM_PHONE, links, widen
from tests.browser.test_attachments_page import file, png

pytestmark = pytest.mark.usefixtures("team_list")


@pytest.mark.parametrize("phone", [False, True])
def test_a_participant_sees_the_mock_ups_and_downloads_the_file(
        open_page: OpenPage, client: PortalClient, phone: bool) -> None:
    iid = client.create({
        "title": "Which header for the sign-up page?",
        "prompt": "Both follow the style guide; the overview shows where the header sits.",
        "attachments": [file("light.png", "image/png", png(640, 360, 0), id="light"),
                        file("dark.png", "image/png", png(640, 360, 120), id="dark"),
                        file("overview.png", "image/png", png(320, 180, 60), id="overview"),
                        file("brief.pdf", "application/pdf",
                             b"%PDF-1.4\n" + b"% brief\n" * 300 + b"%%EOF\n", id="brief")],
        "options": [{"id": "light", "label": "Light header", "attachment_ids": ["light"]},
                    {"id": "dark", "label": "Dark header", "attachment_ids": ["dark"]}],
    })["interaction_id"]
    path = links(widen(client, iid))["Bob Smith"]
    page = open_page(path, signed_in=False, viewport=TEAM_PHONE if phone else TEAM_DESKTOP)
    assert page.context.cookies() == []  # nothing of the owner's: the link is the credential

    dark = page.locator("[data-option-id=dark]").get_by_test_id("option-attachments")
    expect(dark.locator("img")).to_have_attribute("alt", "dark.png")
    options = page.get_by_test_id("option-attachments").locator("img")
    expect(options).to_have_count(2)
    for index in range(2):
        options.nth(index).scroll_into_view_if_needed()  # they load lazily
        expect(options.nth(index)).to_have_js_property("complete", True)
        assert options.nth(index).evaluate("img => img.naturalWidth") == 640
    box = options.first.bounding_box()
    assert box is not None and box["width"] <= page.viewport_size["width"]  # type: ignore[index]

    gallery = page.get_by_test_id("attachments")  # the files no option shows as its own
    overview = gallery.get_by_test_id("attachment-image").locator("img")
    expect(overview).to_have_attribute("alt", "overview.png")
    overview.scroll_into_view_if_needed()
    expect(overview).to_have_js_property("complete", True)
    assert overview.evaluate("img => img.naturalWidth") == 320
    download = gallery.get_by_test_id("attachment-download")
    expect(download).to_have_text("brief.pdf")
    expect(gallery).to_contain_text("2 KB")  # the size, as people read it
    with page.expect_download() as got:
        download.click()
    assert got.value.suggested_filename == "brief.pdf"
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, f"participant-files-{'phone' if phone else 'desktop'}")
