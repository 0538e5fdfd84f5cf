"""Interface `client` (asking inside an MCP client) seen from the HTTP side: only an MCP
client that can ask gets it, nobody can claim it from a page or the API, and the
elicitation setting is saved like every other preference."""

from __future__ import annotations

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import ask, token

pytestmark = pytest.mark.usefixtures("backend")  # on SQLite and on PostgreSQL

Client = TestClient[Litestar]
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def test_an_api_request_for_the_client_is_asked_in_the_page_with_a_warning(
        client: Client) -> None:
    response = client.post("/api/interactions", json=ask(interface="client"))
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["interface"] == "web"
    assert any("interface 'client'" in warning for warning in body["warnings"])


def test_nobody_can_claim_an_answer_came_from_the_client(client: Client) -> None:
    iid = client.post("/api/interactions", json=ask()).json()["interaction_id"]
    refused = client.post(f"/api/interactions/{iid}/response",
                          json={"selected_ids": ["pg"], "interface": "client"})
    assert refused.status_code == 422 and "interface" in refused.text
    switched = client.post(f"/api/interactions/{iid}/interface", json={"interface": "client"})
    assert switched.status_code == 422
    assert client.get(f"/api/interactions/{iid}").json()["status"] == "pending"


def test_the_setting_is_saved_through_the_api_and_the_page(client: Client) -> None:
    assert client.get("/api/settings").json()["elicitation"] == "off"
    assert client.put("/api/settings", json={"elicitation": "url"}).json()["elicitation"] == "url"
    assert client.put("/api/settings", json={"elicitation": "always"}).status_code == 422
    client.get(f"/login?token={token()}&next=/", follow_redirects=False)
    del client.headers["Authorization"]
    page = client.get("/settings").text
    assert 'value="url" selected' in page
    saved = client.post("/settings", content="interface=web&elicitation=form&timeout_seconds=300",
                        headers={**FORM, "HX-Request": "true"})
    assert saved.status_code == 200 and 'value="form" selected' in saved.text
    client.headers["Authorization"] = f"Bearer {token()}"
    assert client.get("/api/settings").json()["elicitation"] == "form"
