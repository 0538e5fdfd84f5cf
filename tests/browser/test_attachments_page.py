"""Files an agent shows, on the question's page: an image inline and scaled to fit (its
option shows its own), a file as a download link with its size; the page itself loads them
with its session, and nothing else on it changes."""

from __future__ import annotations

import base64
import struct
import zlib
from typing import Any

import pytest
from playwright.sync_api import expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot


def png(width: int, height: int, hue: int) -> bytes:
    """A real PNG (a gradient), written out by hand: no imaging library needed."""
    rows = b"".join(b"\0" + b"".join(bytes(((x * 255 // width + hue) % 256, y * 255 // height,
                                            160)) for x in range(width)) for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(
        b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def file(name: str, mime_type: str, data: bytes, **extra: Any) -> dict[str, Any]:
    return {"name": name, "mime_type": mime_type, "data": base64.b64encode(data).decode(), **extra}


@pytest.mark.parametrize("phone", [False, True])
def test_images_show_inline_and_files_as_downloads(open_page: OpenPage, client: PortalClient,
                                                   phone: bool) -> None:
    body = question(
        title="Which chart reads better?", prompt="Two renderings of the same data.",
        attachments=[file("bars.png", "image/png", png(480, 270, 0), id="bars"),
                     file("lines.png", "image/png", png(480, 270, 90), id="lines"),
                     file("data.csv", "text/csv", b"month,sales\njan,10\n" * 40)],
        options=[{"id": "bars", "label": "Bars", "attachment_ids": ["bars"]},
                 {"id": "lines", "label": "Lines", "attachment_ids": ["lines"]}])
    iid = client.create(body)["interaction_id"]
    page = open_page(f"/choice/{iid}", phone=phone)
    gallery = page.get_by_test_id("attachments")  # the files no option shows as its own
    expect(gallery.get_by_test_id("attachment-image")).to_have_count(0)
    images = page.get_by_test_id("option-attachments").locator("img")
    expect(images).to_have_count(2)
    for index in range(2):  # loaded, with the session, as real images
        assert images.nth(index).evaluate("img => img.complete && img.naturalWidth") == 480
    box = images.first.bounding_box()
    assert box is not None and box["width"] <= page.viewport_size["width"]  # type: ignore[index]
    download = gallery.get_by_test_id("attachment-download")
    expect(download).to_have_text("data.csv")
    expect(gallery).to_contain_text("760 B")  # the size, as people read it
    with page.expect_download() as got:
        download.click()
    assert got.value.suggested_filename == "data.csv"
    option = page.locator("[data-option-id=lines]")
    expect(option.get_by_test_id("option-attachments").locator("img")).to_have_attribute(
        "alt", "lines.png")
    shoot(page, f"attachments-{'phone' if phone else 'desktop'}")
