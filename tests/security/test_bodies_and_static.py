"""What a request body may be: JSON only on the API (415 otherwise), at most 256 KiB with
or without a Content-Length (413; 16 MiB to ask a question, by the API or `/mcp`), at most
50 options, and never so deeply nested that parsing it costs a 500. And what `/static`
serves: the two hashed bundles, nothing else, however the path is encoded.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from choice.contract.attachments import ANSWER_BODY_MAX
from choice.web.api.answer_files import FILE_BODY_MAX
from tests.portal_process import ROOT, PortalProcess
from tests.security.conftest import (
    FORM,
    JSON,
    Body,
    Reply,
    bearer,
    chunks,
    field_errors,
    interaction_count,
    mcp_ask,
    mcp_session,
    refusal_code,
    send,
    signed_in,
    state_of,
)
from tests.tally import attacks

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def portal(network_portal: PortalProcess) -> PortalProcess:
    return network_portal

LIMIT = 256 * 1024
ASKING_LIMIT = 16 * 1024 * 1024
ANSWER_LIMIT = ANSWER_BODY_MAX  # an answer may carry 5 files of 10 MiB, base64
FILE_LIMIT = FILE_BODY_MAX  # one file attached to the draft, its raw bytes
"""`POST /api/interactions` and `/mcp` alone: a question may carry 10 MiB of files."""
SAME_ORIGIN = {"Origin": "null", "Sec-Fetch-Site": "same-origin"}


def question(**overrides: Any) -> dict[str, Any]:
    return {"title": "Bodies", "prompt": "Context.",
            "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}], **overrides}


def padded(size: int) -> bytes:
    """A well-formed JSON request of exactly `size` bytes (the padding is the prompt)."""
    empty = len(json.dumps(question(prompt="")).encode())
    body = json.dumps(question(prompt="x" * (size - empty))).encode()
    assert len(body) == size
    return body


@pytest.fixture(scope="module")
def bundle(portal: PortalProcess) -> str:
    """`bundle.<hash>.js`, as the page names it."""
    page = send(portal, "GET", "/", None, signed_in(portal)).text
    found = re.search(r"/static/(bundle\.[0-9a-f]+\.js)", page)
    assert found
    return found.group(1)


def traversals(bundle: str) -> list[str]:
    repo = str(ROOT).lstrip("/")
    return [
        "/static/../pyproject.toml", "/static/../../../../etc/passwd",
        "/static/%2e%2e/pyproject.toml", "/static/%2e%2e%2fpyproject.toml",
        "/static/..%2fpyproject.toml", "/static/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/static/%252e%252e%252fpyproject.toml", "/static/%252e%252e/pyproject.toml",
        "/static/..\\pyproject.toml", "/static/..%5cpyproject.toml", "/static/..%5c..%5cetc%5cpasswd",
        "/static//etc/passwd", "/static/%2fetc%2fpasswd", f"/static/%2f{repo}%2fpyproject.toml",
        f"/static/{bundle}/../../pyproject.toml", f"/static/{bundle}%2f..%2f..%2fpyproject.toml",
        f"/static/{bundle}/..%2f..%2fpyproject.toml", f"/static/{bundle}%00",
        "/static/bundle.%2e%2e.js", "/static/bundle..%2f..%2fpyproject.toml",
        "/static/%c0%ae%c0%ae/pyproject.toml", "/static/..;/pyproject.toml",
        "/static/....//....//pyproject.toml", "/static/./pyproject.toml",
        "/static/js/swaps.js", "/static/vendor/htmx.min.js", "/static/js/config.js",
        "/static/fallback.js",
        "/static/../manifest.toml", "/static/%2e%2e/manifest.toml", "/%2e%2e/pyproject.toml",
        "/../pyproject.toml", "//etc/passwd", "/static/pyproject.toml", "/static/",
    ]


FILE_TEXT = ["[project]", "[tool.ruff]", "root:x:0:0", "HX-Request", "[js]", "function"]


def test_static_serves_no_file_by_path(portal: PortalProcess, bundle: str) -> None:
    credentials = {**signed_in(portal), **bearer(portal)}
    assert "[project]" in Path(ROOT / "pyproject.toml").read_text()  # the probe is real
    with attacks("Static traversal") as seen:
        for path in traversals(bundle):
            reply: Reply = send(portal, "GET", path, None, credentials)
            leaked = [text for text in FILE_TEXT if text in reply.text]
            seen.refused_if(reply.status in (400, 404) and not leaked, (path, reply.status, leaked))


def test_the_bundle_itself_is_served(portal: PortalProcess, bundle: str) -> None:
    """The control: the hashed bundle is there, as JavaScript, immutable."""
    reply = send(portal, "GET", f"/static/{bundle}")
    assert reply.status == 200 and "hx-swap-oob" in reply.text
    assert reply.headers.get_content_type() == "text/javascript"
    assert "immutable" in reply.headers["Cache-Control"]


def test_a_body_of_exactly_256_kib_is_read(portal: PortalProcess) -> None:
    """The boundary: at the limit the body is parsed, and refused for what it says."""
    reply = send(portal, "POST", "/api/interactions", padded(LIMIT), {**bearer(portal), **JSON})
    assert reply.status == 422
    assert [error["field"] for error in field_errors(reply)] == ["prompt"]


def test_more_than_50_options_is_a_422_on_options(portal: PortalProcess) -> None:
    before = interaction_count(portal)
    options = [{"id": f"o{n}", "label": f"Option {n}"} for n in range(51)]
    with attacks("Body limits") as seen:
        seen.fact("options", len(options))
        reply = send(portal, "POST", "/api/interactions", json.dumps(question(options=options)),
                     {**bearer(portal), **JSON})
        fields = [error["field"] for error in field_errors(reply)] if reply.status == 422 else []
        seen.refused_if("options" in fields, (reply.status, reply.text[:200]))
        seen.unchanged(before, interaction_count(portal))
    fifty = send(portal, "POST", "/api/interactions", json.dumps(question(options=options[:50])),
                 {**bearer(portal), **JSON})
    assert fifty.status == 201  # the control: 50 is allowed


def test_json_with_a_charset_is_still_json(portal: PortalProcess) -> None:
    """The control for the test above."""
    reply = send(portal, "POST", "/api/interactions", json.dumps(question()),
                 {**bearer(portal), "Content-Type": "application/json; charset=utf-8"})
    assert reply.status == 201


def test_bodies_over_256_kib_get_413_with_or_without_a_length(portal: PortalProcess,
                                                               pending: str) -> None:
    big = padded(LIMIT + 1)
    asking_big = padded(ASKING_LIMIT + 1)  # the asking route takes 10 MiB of files, base64
    form = b"selected=a&action=submit&global_annotation=" + b"x" * LIMIT
    mcp = mcp_session(portal)
    call = mcp_ask().encode()
    # `/mcp` takes what the asking route takes: a tool call may ask with files
    mcp_big = call[:-1] + b', "padding": "' + b"x" * ASKING_LIMIT + b'"}'
    targets: list[tuple[str, str, bytes, dict[str, str]]] = [
        ("POST", "/api/interactions", asking_big, {**bearer(portal), **JSON}),
        ("POST", f"/api/interactions/{pending}/response", padded(ANSWER_LIMIT + 1),
         {**bearer(portal), **JSON}),
        ("POST", f"/api/interactions/{pending}/draft/files?name=x.png", b"\0" * (FILE_LIMIT + 1),
         {**bearer(portal), "Content-Type": "image/png"}),
        ("POST", f"/api/interactions/{pending}/cancel", big, {**bearer(portal), **JSON}),
        ("PATCH", f"/api/interactions/{pending}", big, {**bearer(portal), **JSON}),
        ("PUT", "/api/settings", big, {**bearer(portal), **JSON}),
        ("POST", f"/choice/{pending}/submit", form, {**signed_in(portal), **FORM, **SAME_ORIGIN}),
        ("POST", "/mcp", mcp_big, mcp),
    ]
    before = state_of(portal, pending)
    with attacks("Body limits") as seen:
        for method, path, data, headers in targets:
            for body in (data, chunks(data)):
                reply = send(portal, method, path, body, headers)
                # a page's form post is a person's: it gets the error page, not the JSON
                refused = reply.status == 413 and (
                    "too much to send" in reply.text if path.startswith("/choice/")
                    else refusal_code(reply) == "too_large")
                seen.refused_if(refused, (method, path, reply.status, reply.text[:200]))
        seen.unchanged(before, state_of(portal, pending))


def nested(depth: int) -> list[tuple[str, str]]:
    """(name, JSON text) nested `depth` levels, alone and inside a valid request."""
    inside = json.dumps(question(context={"agent": "NEST"})).replace(
        '"NEST"', "[" * depth + "]" * depth)
    return [("arrays", "[" * depth + "]" * depth),
            ("objects", '{"a":' * depth + "1" + "}" * depth),
            ("inside a request", inside)]


def test_deeply_nested_json_is_refused_without_a_500(portal: PortalProcess, pending: str) -> None:
    base = f"/api/interactions/{pending}"
    targets = [("POST", "/api/interactions"), ("POST", f"{base}/response"),
               ("POST", f"{base}/cancel"), ("PATCH", base), ("PUT", "/api/settings"),
               ("POST", "/api/login-links")]
    before = state_of(portal, pending)
    mcp = mcp_session(portal)
    depths = (5000, 100_000)
    with attacks("Body limits") as seen:
        seen.fact("shallow", depths[0])
        seen.fact("deep", depths[1])
        for depth in depths:
            for name, text in nested(depth):
                for method, path in targets:
                    reply = send(portal, method, path, text, {**bearer(portal), **JSON})
                    refused = reply.status in (413, 422) and refusal_code(reply) is not None
                    seen.refused_if(refused, (depth, name, method, path, reply.status))
                # MCP is JSON-RPC: its parse error is a 400 with code -32700, never a 500.
                over_mcp = send(portal, "POST", "/mcp", text, mcp)
                refused = over_mcp.status == 413 or (
                    over_mcp.status == 400 and over_mcp.json()["error"]["code"] == -32700)
                seen.refused_if(refused, (depth, name, over_mcp.status))
        seen.unchanged(before, state_of(portal, pending))


NOT_JSON = [
    {"Content-Type": "text/plain"},
    {"Content-Type": "text/plain; charset=utf-8"},
    {"Content-Type": "multipart/form-data; boundary=x"},
    {"Content-Type": "application/x-www-form-urlencoded"},
    {"Content-Type": "application/jsonp"},
    {"Content-Type": "text/json"},
    {},  # no Content-Type at all
]


def test_api_bodies_that_are_not_json_get_415(portal: PortalProcess, pending: str) -> None:
    """Each body is valid JSON text, so only the media type stands in the way: a page on
    another site can send these types without a CORS preflight."""
    base = f"/api/interactions/{pending}"
    targets: list[tuple[str, str, Body]] = [
        ("POST", "/api/interactions", json.dumps(question())),
        ("POST", f"{base}/response", '{"selected_ids": ["a"]}'),
        ("POST", f"{base}/cancel", '{"global_annotation": "typed"}'),
        ("PATCH", base, '{"timeout_seconds": 4000}'),
        ("POST", f"{base}/interface", '{"interface": "terminal"}'),
        ("POST", f"{base}/opened", '{"interface": "terminal"}'),
        ("PUT", "/api/settings", '{"timeout_seconds": 777}'),
        ("POST", "/api/login-links", '{"next": "/"}'),
    ]
    session = {k: v for k, v in mcp_session(portal).items() if k != "Content-Type"}
    before = state_of(portal, pending)
    with attacks("Media type") as seen:
        for media_type in NOT_JSON:
            for method, path, body in targets:
                reply = send(portal, method, path, body, {**bearer(portal), **media_type})
                refused = reply.status == 415 and refusal_code(reply) == "unsupported_media_type"
                seen.refused_if(refused, (media_type, method, path, reply.status, reply.text[:200]))
            over_mcp = send(portal, "POST", "/mcp", mcp_ask(), {**session, **media_type})
            seen.refused_if(over_mcp.status in (400, 415), (media_type, over_mcp.status))
        # The portal's forms, for their part, take nothing but a form.
        form_routes = [f"/choice/{pending}/submit", f"/choice/{pending}/cancel", "/settings"]
        for path in form_routes:
            reply = send(portal, "POST", path, '{"selected": "a"}',
                         {**signed_in(portal), **JSON, **SAME_ORIGIN})
            seen.refused_if(reply.status == 415, (path, reply.status))
        seen.unchanged(before, state_of(portal, pending))
