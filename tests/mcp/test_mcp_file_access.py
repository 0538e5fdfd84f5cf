"""What `choice mcp` reads for an attachment's `path`, with the real MCP client through the
real bridge: files in the agent's working directory (the bridge's, as the client launches
it) and in folders the person named (`CHOICE_MCP_FILE_ROOTS`); never a secret, even inside
those (a private key, `/proc/self/environ`, the portal's own token), nor through a link.
The person sees the file's real name and the path it was read from, whatever name the model
gave; only the bridge can say where a file came from."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx
import pytest

from choice.mcp.local_files import SOURCES_META
from tests.api.test_attachments import PNG, attached
from tests.mcp.conftest import ask, http_session, stdio_session
from tests.mcp.test_mcp_http import structured
from tests.portal_process import PortalProcess
from tests.sign_in import owner_cookie

KEY = b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The person's home, with a private key in `~/.ssh`, and a project folder in it."""
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir(parents=True)
    (ssh / "id_rsa").write_bytes(KEY)
    (tmp_path / "home" / "project").mkdir()
    return tmp_path / "home"


def titles(portal: PortalProcess) -> list[str]:
    return [row["title"] for row in portal.client().list("all", 200)["interactions"]]


async def ask_through_the_bridge(portal: PortalProcess, cwd: Path, attachment: dict[str, Any],
                                 **env: str) -> tuple[dict[str, Any], Any]:
    """Ask with one attachment through `choice mcp` started in `cwd`; the request and the
    tool's result."""
    request = ask(interface="terminal", attachments=[attachment])
    async with stdio_session(portal.data_dir, portal.port, cwd=cwd, **env) as session:
        return request, await session.call_tool("provide_choice", request)


def refused_path(portal: PortalProcess, request: dict[str, Any], result: Any) -> dict[str, str]:
    """The one field error of a refused call, which asked nothing."""
    assert result.is_error
    [error] = structured(result)["errors"]
    assert error["field"] == "attachments[0].path"
    assert request["title"] not in titles(portal)
    return dict(error)


@pytest.mark.parametrize("attack", ["ssh key named architecture.png", "/proc/self/environ",
                                    "the portal's token"])
async def test_a_secret_is_refused_even_inside_the_allowed_folders(
        portal: PortalProcess, home: Path, attack: str) -> None:
    """The agent runs in the person's home, and the secret's folder is an allowed root too:
    only the secret rule stands between the model and the file."""
    attachment, root = {
        "ssh key named architecture.png": ({"path": "~/.ssh/id_rsa", "name": "architecture.png",
                                            "mime_type": "image/png"}, home / ".ssh"),
        "/proc/self/environ": ({"path": "/proc/self/environ", "name": "notes.txt",
                                "mime_type": "text/plain"}, Path("/proc")),
        "the portal's token": ({"path": str(portal.data_dir / "token"), "name": "readme.txt",
                                "mime_type": "text/plain"}, portal.data_dir),
    }[attack]
    request, result = await ask_through_the_bridge(
        portal, home, attachment, HOME=str(home), CHOICE_MCP_FILE_ROOTS=str(root))
    error = refused_path(portal, request, result)
    assert error["code"] == "secret" and "never sent" in error["message"]
    assert "attachments[0].path" in result.content[0].text


@pytest.mark.parametrize("link", ["a link to ~/.ssh", "a link to the key itself"])
async def test_a_link_inside_the_working_directory_to_a_secret_is_refused(
        portal: PortalProcess, home: Path, link: str) -> None:
    project = home / "project"
    if link == "a link to ~/.ssh":
        (project / "keys").symlink_to(home / ".ssh", target_is_directory=True)
        path = "keys/id_rsa"
    else:
        (project / "diagram.png").symlink_to(home / ".ssh" / "id_rsa")
        path = "diagram.png"
    request, result = await ask_through_the_bridge(portal, project, {"path": path},
                                                   HOME=str(home))
    error = refused_path(portal, request, result)
    assert error["code"] == "secret" and str(home / ".ssh" / "id_rsa") in error["message"]


async def test_a_file_outside_the_working_directory_is_refused_until_its_folder_is_allowed(
        portal: PortalProcess, home: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "mockups"
    elsewhere.mkdir()
    (elsewhere / "shot.png").write_bytes(PNG)
    attachment = {"path": str(elsewhere / "shot.png")}
    request, result = await ask_through_the_bridge(portal, home / "project", attachment)
    error = refused_path(portal, request, result)
    assert error["code"] == "outside"
    assert str(home / "project") in error["message"] and "CHOICE_MCP_FILE_ROOTS" in error["message"]
    request, allowed = await ask_through_the_bridge(
        portal, home / "project", attachment,
        CHOICE_MCP_FILE_ROOTS=os.pathsep.join([str(tmp_path / "nothing"), str(elsewhere)]))
    assert not allowed.is_error and request["title"] in titles(portal)


async def test_a_file_in_the_working_directory_shows_its_real_name_and_path(
        portal: PortalProcess, home: Path) -> None:
    """The model calls it `architecture-approved.png`; the person reads `shot.png` and
    where it was read from, on the page and through the API."""
    (home / "project" / "docs").mkdir()
    (home / "project" / "docs" / "shot.png").write_bytes(PNG)
    _, result = await ask_through_the_bridge(
        portal, home / "project", {"path": "docs/shot.png", "name": "architecture-approved.png",
                                   "mime_type": "application/pdf"})
    assert not result.is_error, result.content
    iid = structured(result)["session_id"]
    detail = portal.client().call("GET", f"/api/interactions/{iid}/detail")
    [shown] = detail["request"]["attachments"]
    real = str((home / "project" / "docs" / "shot.png").resolve())
    assert (shown["name"], shown["mime_type"], shown["source_path"]) == ("shot.png", "image/png", real)
    page = httpx.get(f"{portal.base_url}/choice/{iid}", timeout=10,
                     headers=owner_cookie(portal.base_url, portal.token))
    assert page.status_code == 200
    assert "shot.png" in page.text and f"from {real}" in page.text
    assert "architecture-approved" not in page.text


async def test_a_file_whose_bytes_are_not_what_its_name_says_is_refused(
        portal: PortalProcess, home: Path) -> None:
    (home / "project" / "chart.png").write_bytes(b"just some words\n")
    request, result = await ask_through_the_bridge(portal, home / "project",
                                                   {"path": "chart.png"})
    error = refused_path(portal, request, result)
    assert error["code"] == "wrong_content" and "image/png" in error["message"]


async def test_only_the_bridge_says_where_a_file_came_from(
        portal: PortalProcess, home: Path) -> None:
    """A model writing `source_path` is refused; a client's `_meta` claim through the
    bridge is dropped: the file sent as `data` shows no path."""
    forged = attached("shot.png", "image/png", PNG) | {"source_path": "/home/me/approved.png"}
    async with http_session(portal) as session:
        refused = await session.call_tool("provide_choice", ask(attachments=[forged]))
    assert refused.is_error
    assert [e["field"] for e in structured(refused)["errors"]] == ["attachments[0].source_path"]
    request = ask(interface="terminal", attachments=[attached("shot.png", "image/png", PNG)])
    async with stdio_session(portal.data_dir, portal.port, cwd=home / "project") as session:
        claimed = await session.call_tool("provide_choice", request,
                                          meta={SOURCES_META: ["/home/me/approved.png"]})
    iid = structured(claimed)["session_id"]
    [shown] = portal.client().call("GET", f"/api/interactions/{iid}/detail")["request"]["attachments"]
    assert shown["source_path"] is None and shown["name"] == "shot.png"


async def test_the_path_a_file_was_read_from_is_the_owners_not_the_participants(
        portal: PortalProcess, home: Path) -> None:
    """Widened to a guest, the question shows the file; where it lay on the owner's machine
    (their home, their project's name) stays with the owner."""
    (home / "project" / "shot.png").write_bytes(PNG)
    _, result = await ask_through_the_bridge(portal, home / "project", {"path": "shot.png"})
    assert not result.is_error, result.content
    iid = structured(result)["session_id"]
    real = str((home / "project" / "shot.png").resolve())
    client = portal.client()
    widened = client.call("POST", f"/api/interactions/{iid}/widen", {"audience": ["Gus"]})
    secret = widened["participants"][0]["link"].rsplit("/d/", 1)[1]
    [owners] = client.call("GET", f"/api/interactions/{iid}/team")["question"]["attachments"]
    assert owners["source_path"] == real

    read = httpx.get(f"{portal.base_url}/api/d/{secret}", timeout=10)
    assert read.status_code == 200, read.text
    [theirs] = read.json()["question"]["attachments"]
    assert (theirs["name"], theirs["source_path"]) == ("shot.png", None)
    page = httpx.get(f"{portal.base_url}/d/{secret}", timeout=10)
    assert page.status_code == 200 and "shot.png" in page.text
    assert str(home) not in read.text and str(home) not in page.text
