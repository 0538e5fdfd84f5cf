"""Files an agent shows with its question
(docs/guides/attachments.md#the-agent-shows-files): stored apart from the request (which
keeps their description), served to the token or the owner's page only, images inline and
the rest as downloads; the limits and refused types are field errors that create nothing."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import ask
from tests.api.test_team_pages import agent, owner

Client = TestClient[Litestar]
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")


def attached(name: str, mime_type: str, data: bytes, **extra: Any) -> dict[str, Any]:
    return {"name": name, "mime_type": mime_type, "data": base64.b64encode(data).decode(), **extra}


def test_files_are_stored_apart_and_served_as_they_should_be_shown(anonymous: Client) -> None:
    body = ask(attachments=[attached("mock-a.png", "image/png", PNG, id="mock-a"),
                            attached("notes.md", "text/markdown", b"# Notes\n<script>x</script>")],
               options=[{"id": "a", "label": "Mock-up A", "attachment_ids": ["mock-a"]},
                        {"id": "b", "label": "Neither"}])
    created = anonymous.post("/api/interactions", json=body, headers=agent())
    assert created.status_code == 201, created.text
    iid = created.json()["interaction_id"]
    detail = anonymous.get(f"/api/interactions/{iid}/detail", headers=agent()).json()
    kept = detail["request"]["attachments"]
    assert [(a["id"], a["size"], a["sha256"], a["data"]) for a in kept] == [
        ("mock-a", len(PNG), hashlib.sha256(PNG).hexdigest(), None),
        ("a2", 26, hashlib.sha256(b"# Notes\n<script>x</script>").hexdigest(), None)]
    image = anonymous.get(f"/api/interactions/{iid}/attachments/mock-a", headers=owner(anonymous))
    assert image.status_code == 200 and image.content == PNG
    assert image.headers["content-type"] == "image/png"
    assert image.headers["x-content-type-options"] == "nosniff"
    assert "sandbox" in image.headers["content-security-policy"]
    assert image.headers["content-disposition"].startswith("inline")
    notes = anonymous.get(f"/api/interactions/{iid}/attachments/a2", headers=agent())
    assert notes.headers["content-disposition"] == "attachment; filename*=UTF-8''notes.md"
    assert notes.content == b"# Notes\n<script>x</script>"
    kinds = [e["kind"] for e in anonymous.get(f"/api/interactions/{iid}/events",
                                               headers=agent()).json()["events"]]
    assert kinds[:3] == ["created", "attachment_added", "attachment_added"]


def test_a_file_is_refused_without_credentials_and_an_unknown_one_is_404(anonymous: Client) -> None:
    body = ask(attachments=[attached("a.png", "image/png", PNG)])
    iid = anonymous.post("/api/interactions", json=body, headers=agent()).json()["interaction_id"]
    assert anonymous.get(f"/api/interactions/{iid}/attachments/a1").status_code == 401
    assert anonymous.get(f"/api/interactions/{iid}/attachments/a9", headers=agent()).status_code == 404


def test_a_files_name_is_saved_with_its_types_extension_and_without_bidi_controls(
        anonymous: Client) -> None:
    body = ask(attachments=[attached("report.html", "text/plain", b"<script>x</script>"),
                            attached("invoice.pdf.exe", "application/pdf", b"PK\x03\x04"),
                            attached("invoice\u202egpj.exe", "image/jpeg", PNG)])
    created = anonymous.post("/api/interactions", json=body, headers=agent())
    assert created.status_code == 201, created.text
    iid = created.json()["interaction_id"]
    detail = anonymous.get(f"/api/interactions/{iid}/detail", headers=agent()).json()
    assert [a["name"] for a in detail["request"]["attachments"]] == [
        "report.html.txt", "invoice.pdf.exe.pdf", "invoicegpj.exe.jpg"]
    served = [anonymous.get(f"/api/interactions/{iid}/attachments/a{n}", headers=agent())
              for n in (1, 2, 3)]
    assert [r.headers["content-disposition"] for r in served] == [
        "attachment; filename*=UTF-8''report.html.txt",
        "attachment; filename*=UTF-8''invoice.pdf.exe.pdf",
        "inline; filename*=UTF-8''invoicegpj.exe.jpg"]
    assert [r.headers["content-type"].split(";")[0] for r in served] == [
        "text/plain", "application/pdf", "image/jpeg"]


@pytest.mark.parametrize(("files", "field"), [
    ([attached("x.svg", "image/svg+xml", b"<svg/>")], "attachments[0].mime_type"),
    ([attached("x.html", "text/html", b"<p>")], "attachments[0].mime_type"),
    ([attached("run.sh", "application/x-sh", b"rm -rf /")], "attachments[0].mime_type"),
    ([{"name": "x.png", "mime_type": "image/png", "data": "not base64!"}], "attachments[0].data"),
    ([attached("../x.png", "image/png", PNG)], "attachments[0].name"),
    ([attached(f"{i}.png", "image/png", PNG) for i in range(9)], "attachments"),
    ([attached("big.png", "image/png", b"\0" * (5 * 1024 * 1024 + 1))], "attachments[0].data"),
    ([attached(f"{i}.png", "image/png", b"\0" * (3 * 1024 * 1024 + 512 * 1024)) for i in range(3)],
     "attachments"),
])
def test_limits_and_refused_types_name_the_field_and_create_nothing(
        anonymous: Client, files: list[dict[str, Any]], field: str) -> None:
    before = len(anonymous.get("/api/interactions?status=all&limit=200", headers=agent()).json()[
        "interactions"])
    refused = anonymous.post("/api/interactions", json=ask(attachments=files), headers=agent())
    assert refused.status_code == 422, refused.text
    assert field in [e["field"] for e in refused.json()["errors"]]
    after = anonymous.get("/api/interactions?status=all&limit=200", headers=agent()).json()
    assert len(after["interactions"]) == before


def test_an_option_points_only_at_a_file_of_the_request(anonymous: Client) -> None:
    body = ask(options=[{"id": "a", "label": "A", "attachment_ids": ["nope"]},
                        {"id": "b", "label": "B"}])
    refused = anonymous.post("/api/interactions", json=body, headers=agent())
    assert refused.status_code == 422
    assert [e["field"] for e in refused.json()["errors"]] == ["options[0].attachment_ids[0]"]


def test_a_body_over_the_asking_limit_is_413_and_other_routes_keep_theirs(anonymous: Client) -> None:
    huge = b'{"title": "x", "prompt": "' + b"y" * (17 * 1024 * 1024) + b'"}'
    too_big = anonymous.post("/api/interactions", content=huge, headers={
        **agent(), "Content-Type": "application/json"})
    assert too_big.status_code == 413 and "16 MiB" in too_big.json()["errors"][0]["message"]
    settings = b'{"language": "' + b"e" * (300 * 1024) + b'"}'
    assert anonymous.put("/api/settings", content=settings, headers={
        **agent(), "Content-Type": "application/json"}).status_code == 413
