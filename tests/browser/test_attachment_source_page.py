"""A file `choice mcp` read from the agent's disk, on the question's page: shown by its real
name, with the path it was read from under it, at desktop and phone widths (whatever name
the model gave it)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import OpenPage
from tests.browser.support import shoot
from tests.browser.test_attachments_page import png
from tests.mcp.conftest import ask, stdio_session
from tests.portal_process import PortalProcess


async def ask_with_a_local_file(portal: PortalProcess, project: Path) -> Any:
    async with stdio_session(portal.data_dir, portal.port, cwd=project) as session:
        return await session.call_tool("provide_choice", ask(
            title="Ship this layout?", prompt="The new settings page, as the mock-up shows it.",
            interface="terminal",
            attachments=[{"path": "design/mockup.png", "name": "approved-by-security.png"},
                         {"path": "design/notes.md"}]))


@pytest.mark.parametrize("phone", [False, True])
def test_a_file_read_from_the_agents_disk_shows_its_real_name_and_path(
        open_page: OpenPage, portal: PortalProcess, tmp_path: Path, phone: bool) -> None:
    design = tmp_path / "project" / "design"
    design.mkdir(parents=True)
    (design / "mockup.png").write_bytes(png(480, 270, 40))
    (design / "notes.md").write_text("# Notes\nSpacing follows the grid.\n")
    with ThreadPoolExecutor(1) as aside:  # the page's driver holds this thread's event loop
        result = aside.submit(asyncio.run, ask_with_a_local_file(portal, tmp_path / "project")
                              ).result(timeout=60)
    assert not result.is_error, result.content
    page = open_page(f"/choice/{result.structured_content['session_id']}", phone=phone)
    files = page.get_by_test_id("attachments")
    expect(files.locator("img")).to_have_attribute("alt", "mockup.png")
    sources = files.get_by_test_id("attachment-source")
    expect(sources).to_have_text([f"from {(design / 'mockup.png').resolve()}",
                                  f"from {(design / 'notes.md').resolve()}"])
    expect(files).not_to_contain_text("approved-by-security")
    box = sources.first.bounding_box()
    assert box is not None and box["x"] + box["width"] <= page.viewport_size["width"]  # type: ignore[index]
    shoot(page, f"attachment-source-{'phone' if phone else 'desktop'}")
