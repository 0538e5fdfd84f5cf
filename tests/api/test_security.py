"""Security from the first line: Host allowlist, same-origin writes, the bearer token."""

from __future__ import annotations

import stat
from pathlib import Path

from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import ask

Client = TestClient[Litestar]


def test_foreign_host_is_refused_everywhere(client: Client) -> None:
    for method, path in (("GET", "/healthz"), ("GET", "/api/interactions"),
                         ("POST", "/api/interactions"), ("GET", "/schema/openapi.json")):
        response = client.request(method, path, headers={"Host": "evil.example"}, json=ask())
        assert response.status_code == 421, (method, path)
        assert response.json()["errors"][0]["code"] == "host_not_allowed"


def test_rebinding_name_with_our_port_is_still_refused(client: Client) -> None:
    response = client.get("/healthz", headers={"Host": "attacker.test:8765"})
    assert response.status_code == 421


def test_localhost_names_are_allowed(client: Client) -> None:
    for host in ("localhost:8765", "127.0.0.1:8765", "[::1]:8765", "LOCALHOST"):
        assert client.get("/healthz", headers={"Host": host}).status_code == 200, host


def test_write_from_a_foreign_origin_is_refused(client: Client) -> None:
    response = client.post("/api/interactions", json=ask(),
                           headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    assert response.json()["errors"][0]["code"] == "origin_not_allowed"
    assert client.get("/api/interactions").json()["interactions"] == []


def test_write_from_another_local_port_is_refused(client: Client) -> None:
    response = client.post("/api/interactions", json=ask(),
                           headers={"Origin": "http://127.0.0.1:3000"})
    assert response.status_code == 403


def test_write_from_the_same_origin_is_allowed(client: Client) -> None:
    response = client.post("/api/interactions", json=ask(),
                           headers={"Origin": "http://127.0.0.1:8765"})
    assert response.status_code == 201


def test_null_origin_is_refused(client: Client) -> None:
    response = client.post("/api/interactions", json=ask(), headers={"Origin": "null"})
    assert response.status_code == 403


def test_a_plain_form_post_from_our_own_page_is_allowed(client: Client) -> None:
    """no-referrer pages post forms with `Origin: null`; the browser's own Sec-Fetch-Site
    header says it came from the portal."""
    response = client.post("/api/interactions", json=ask(),
                           headers={"Origin": "null", "Sec-Fetch-Site": "same-origin"})
    assert response.status_code == 201


def test_cross_site_fetch_metadata_is_refused(client: Client) -> None:
    response = client.post("/api/interactions", json=ask(),
                           headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403
    assert response.json()["errors"][0]["code"] == "cross_site"


def test_api_needs_the_bearer_token(anonymous: Client) -> None:
    for method, path in (("GET", "/api/interactions"), ("POST", "/api/interactions"),
                         ("GET", "/api/settings"), ("GET", "/api/stream")):
        response = anonymous.request(method, path, json=ask())
        assert response.status_code == 401, (method, path)
        assert response.headers["WWW-Authenticate"] == "Bearer"


def test_a_wrong_token_is_refused_and_changes_nothing(client: Client, app: Litestar) -> None:
    response = client.post("/api/interactions", json=ask(),
                           headers={"Authorization": "Bearer not-the-token"})
    assert response.status_code == 401
    assert client.get("/api/interactions").json()["interactions"] == []


def test_token_file_is_private(client: Client, isolated_env: Path) -> None:
    token_file = isolated_env / "token"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(isolated_env.stat().st_mode) == 0o700


def test_responses_carry_protective_headers(client: Client) -> None:
    response = client.get("/api/interactions")
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_error_responses_carry_protective_headers_too(anonymous: Client) -> None:
    response = anonymous.get("/api/interactions")
    assert response.status_code == 401
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_schema_says_which_routes_need_the_bearer_token(anonymous: Client) -> None:
    schema = anonymous.get("/schema/openapi.json").json()
    assert schema["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    operations = [(path, method, operation) for path, item in schema["paths"].items()
                  for method, operation in item.items()]
    for path, method, operation in operations:
        # A participant's link is its own credential: /api/d/<secret> takes no token.
        needs_token = path.startswith("/api/") and not path.startswith("/api/d/")
        assert (operation.get("security") == [{"bearer": []}]) == needs_token, (method, path)
