"""Files both ways over MCP (docs/guides/attachments.md): an agent asks with an image, over
HTTP or through `choice mcp` (which also reads a local file named by `path`); the person
answers with an image and a text file through the API; the tool's result carries the image
as an `image` block (its bytes) and the text file as a `resource_link`, next to the
structured content that lists both. `/mcp` takes a body as large as the asking route's, and
no larger."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp.client.session import ClientSession
from mcp.types import CallToolResult, ImageContent, ResourceLink, TextContent

from choice.contract.attachments import ASKING_BODY_MAX, FILE_MAX
from choice.mcp.local_files import PATH_FILE_MAX
from tests.api.test_attachments import PNG, attached
from tests.mcp.conftest import ask, http_session, stdio_session
from tests.mcp.test_bridge import MCP_HEADERS
from tests.mcp.test_mcp_http import answer_when_asked, asked, structured
from tests.portal_process import PortalProcess

MOCKUP = PNG + b"\0" * (300 * 1024)
"""The agent's image: a PNG (trailing bytes after its end) over the portal's usual 256 KiB
body, so only the asking limit lets it through."""
ANSWER_PNG = PNG + b"answer"
NOTES = b"the person's notes\n"


def stored_bytes(portal: PortalProcess, iid: str, attachment_id: str) -> bytes:
    got = httpx.get(f"{portal.base_url}/api/interactions/{iid}/attachments/{attachment_id}",
                    headers={"Authorization": f"Bearer {portal.token}"}, timeout=10)
    assert got.status_code == 200, got.text
    return got.content


async def answer_with_files(portal: PortalProcess, iid: str) -> None:
    """The person: a text file attached to the draft (raw bytes), then the answer with an
    image in its body."""
    client = portal.client()
    await asyncio.to_thread(client.attach_file, iid, "notes.txt", "text/plain", NOTES)
    await asyncio.to_thread(client.call, "POST", f"/api/interactions/{iid}/response", {
        "selected_ids": ["pg"], "attachments": [attached("answer.png", "image/png", ANSWER_PNG)]})


async def until_over(session: ClientSession, result: CallToolResult) -> CallToolResult:
    """Poll while pending (each poll waits up to the portal's wait window), bounded."""
    for _ in range(10):
        if structured(result).get("status") not in ("pending", "widened"):
            return result
        result = await session.call_tool("provide_choice",
                                         {"session_id": structured(result)["session_id"]})
    raise AssertionError("the question never ended")


def check_files(result: CallToolResult) -> None:
    listed = {f["name"]: f for f in structured(result)["attachments"]}
    assert structured(result)["status"] == "submitted" and set(listed) == {"notes.txt", "answer.png"}
    text, *blocks = result.content
    assert isinstance(text, TextContent) and "2 files came with the answer" in text.text
    images = [block for block in blocks if isinstance(block, ImageContent)]
    links = [block for block in blocks if isinstance(block, ResourceLink)]
    assert len(images) == 1 and len(links) == 1 and len(blocks) == 2
    assert base64.b64decode(images[0].data) == ANSWER_PNG and images[0].mime_type == "image/png"
    assert hashlib.sha256(ANSWER_PNG).hexdigest() == listed["answer.png"]["sha256"]
    link = links[0]
    assert (str(link.uri), link.name, link.mime_type, link.size) == (
        listed["notes.txt"]["url"], "notes.txt", "text/plain", len(NOTES))


async def test_over_http_an_image_goes_out_and_the_persons_files_come_back(
        portal: PortalProcess) -> None:
    request = ask(attachments=[attached("mockup.png", "image/png", MOCKUP)])
    async with http_session(portal) as session:
        call = asyncio.create_task(session.call_tool("provide_choice", request))
        iid = await asked(portal, str(request["title"]))
        await answer_with_files(portal, iid)
        result = await until_over(session, await asyncio.wait_for(call, 20))
        polled = await session.call_tool("provide_choice", {"session_id": iid})
        control = ask()
        call = asyncio.create_task(session.call_tool("provide_choice", control))
        await answer_when_asked(portal, str(control["title"]), {"selected_ids": ["pg"]})
        plain = await until_over(session, await asyncio.wait_for(call, 20))
    check_files(result)
    check_files(polled)  # every later poll carries them too
    assert stored_bytes(portal, iid, "a1") == MOCKUP
    assert structured(plain)["attachments"] == [] and len(plain.content) == 1  # as before


async def test_the_portal_itself_does_not_take_a_path(portal: PortalProcess, tmp_path: Path) -> None:
    """`path` is the bridge's: over HTTP the portal cannot read the agent's disk."""
    image = tmp_path / "shot.png"
    image.write_bytes(PNG)
    async with http_session(portal) as session:
        refused = await session.call_tool("provide_choice", ask(attachments=[
            {"path": str(image), "name": "shot.png", "mime_type": "image/png"}]))
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert refused.is_error and "attachments[0].path" in [
        e["field"] for e in structured(refused)["errors"]]
    item = tools["provide_choice"].input_schema["properties"]["attachments"]["items"]
    assert "path" not in item["properties"]


async def test_through_the_bridge_a_local_file_goes_by_path_and_files_come_back(
        portal: PortalProcess, tmp_path: Path) -> None:
    image = tmp_path / "mockup.png"
    image.write_bytes(MOCKUP)
    async with stdio_session(portal.data_dir, portal.port, cwd=tmp_path) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        first = await session.call_tool("provide_choice", ask(attachments=[{"path": str(image)}]))
        pending = structured(first)
        assert pending["status"] == "pending" and len(first.content) == 1  # unchanged
        await answer_with_files(portal, pending["session_id"])
        result = await until_over(session, first)
    item = tools["provide_choice"].input_schema["properties"]["attachments"]["items"]
    assert "path" in item["properties"] and "name" not in item.get("required", [])
    check_files(result)
    iid = pending["session_id"]
    detail = portal.client().call("GET", f"/api/interactions/{iid}/detail")
    [sent] = detail["request"]["attachments"]
    assert (sent["name"], sent["mime_type"], sent["size"]) == ("mockup.png", "image/png", len(MOCKUP))
    assert sent["sha256"] == hashlib.sha256(MOCKUP).hexdigest()
    assert hashlib.sha256(stored_bytes(portal, iid, sent["id"])).digest() == \
        hashlib.sha256(MOCKUP).digest()


@pytest.mark.parametrize("problem", ["missing", "directory", "too large", "no type"])
async def test_a_path_the_bridge_cannot_send_is_refused_and_asks_nothing(
        portal: PortalProcess, tmp_path: Path, problem: str) -> None:
    target, field = {
        "missing": (tmp_path / "nowhere.png", "attachments[1].path"),
        "directory": (tmp_path, "attachments[1].path"),
        "too large": (tmp_path / "huge.png", "attachments[1].path"),
        "no type": (tmp_path / "README", "attachments[1].mime_type"),
    }[problem]
    if problem == "too large":
        target.write_bytes(b"\0" * (PATH_FILE_MAX + 1))
    elif problem == "no type":
        target.write_bytes(b"plain words")
    request = ask(attachments=[attached("ok.png", "image/png", PNG), {"path": str(target)}])
    async with stdio_session(portal.data_dir, portal.port, cwd=tmp_path) as session:
        refused = await session.call_tool("provide_choice", request)
    assert refused.is_error
    assert [e["field"] for e in structured(refused)["errors"]] == [field]
    assert field in refused.content[0].text  # type: ignore[union-attr]
    titles = [row["title"] for row in portal.client().list("all", 200)["interactions"]]
    assert request["title"] not in titles


def test_the_bridge_reads_files_no_larger_than_an_attachment_may_be() -> None:
    assert PATH_FILE_MAX == FILE_MAX


def mcp_headers(portal: PortalProcess) -> dict[str, str]:
    """An initialized MCP session's headers, as a client holds them."""
    headers = {**MCP_HEADERS, "Authorization": f"Bearer {portal.token}"}
    opened = httpx.post(f"{portal.base_url}/mcp", headers=headers, timeout=10, json={
        "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "tests", "version": "1"}}})
    headers.update({"Mcp-Session-Id": opened.headers["mcp-session-id"],
                    "MCP-Protocol-Version": "2025-06-18"})
    httpx.post(f"{portal.base_url}/mcp", headers=headers, timeout=10,
               json={"jsonrpc": "2.0", "method": "notifications/initialized"})
    return headers


def pieces(data: bytes, size: int = 1024 * 1024) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start:start + size]


@pytest.mark.parametrize("sent", ["with a length", "chunked"])
def test_an_mcp_ask_over_the_asking_limit_is_413_and_asks_nothing(
        portal: PortalProcess, sent: str) -> None:
    title = f"Too big {uuid.uuid4().hex[:8]}"
    data = base64.b64encode(b"\0" * (ASKING_BODY_MAX * 3 // 4 + 1024)).decode()
    body = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "provide_choice", "arguments": {**ask(title=title), "interface": "terminal",
                                               "attachments": [{"name": "big.png",
                                                                "mime_type": "image/png",
                                                                "data": data}]}}}).encode()
    assert len(body) > ASKING_BODY_MAX
    content: Any = body if sent == "with a length" else pieces(body)
    reply = httpx.post(f"{portal.base_url}/mcp", content=content, headers=mcp_headers(portal),
                       timeout=30)
    assert reply.status_code == 413
    [error] = reply.json()["errors"]
    assert error["code"] == "too_large" and "16 MiB" in error["message"]
    titles = [row["title"] for row in portal.client().list("all", 200)["interactions"]]
    assert title not in titles


def test_an_mcp_ask_just_under_the_limit_gets_through_to_the_rules(portal: PortalProcess) -> None:
    """The control: a body under 16 MiB reaches the tool, whose rules refuse 15 MiB of
    files (10 MiB at most) with a field error, not a 413."""
    data = base64.b64encode(b"\0" * (11 * 1024 * 1024)).decode()
    body = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "provide_choice", "arguments": {**ask(), "interface": "terminal", "attachments": [
            {"name": "big.png", "mime_type": "image/png", "data": data}]}}}
    reply = httpx.post(f"{portal.base_url}/mcp", json=body, headers=mcp_headers(portal), timeout=30)
    assert reply.status_code == 200
    events = [line[5:].strip() for line in reply.text.splitlines() if line.startswith("data:")]
    result = json.loads(events[-1] if events else reply.text)["result"]
    assert result["isError"] and "attachments[0].data" in [
        e["field"] for e in result["structuredContent"]["errors"]]
