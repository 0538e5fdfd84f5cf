"""A question about the agent's own tool call (`context.tool`, as `choice hook` asks it) is
decided by its owner only: widened, the team reads, comments and votes as advice, and no
quorum can be set, so no teammate's vote ever allows a command on the owner's machine. The
widen dialog and the question's page say so."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import owner
from tests.api.test_team_api import assert_field_errors, create, secret_of, state, widen

pytestmark = pytest.mark.usefixtures("backend")  # on SQLite and on PostgreSQL

Client = TestClient[Litestar]
PERMISSION = {"title": "Allow Bash: Deploy", "prompt": "```sh\nmake deploy\n```",
              "options": [{"id": "allow", "label": "Allow once"},
                          {"id": "always", "label": "Always allow this"},
                          {"id": "deny", "label": "Deny"}],
              "context": {"agent": "Claude Code", "tool": "Bash",
                          "tool_input_sha256": "ab" * 32}}


def permission(client: Client, **overrides: Any) -> str:
    return create(client, **{**PERMISSION, **overrides})


def test_widening_with_a_quorum_is_refused_and_changes_nothing(client: Client) -> None:
    iid = permission(client)
    before = state(client, iid)
    refused = client.post(f"/api/interactions/{iid}/widen",
                          json={"audience": ["Alice"], "quorum": {"min_votes": 1}})
    assert refused.status_code == 422
    error = assert_field_errors(refused.json())[0]
    assert (error["field"], error["code"]) == ("quorum.min_votes", "owner_only")
    assert "only its owner decides it" in error["message"] and "Bash" in error["message"]
    assert state(client, iid) == before


def test_a_teammate_s_vote_never_decides_it(client: Client) -> None:
    iid = permission(client)
    links = widen(client, iid, audience=["Alice"], mode="block")["participants"]
    refused = client.put(f"/api/interactions/{iid}/quorum", json={"min_votes": 1})
    assert refused.status_code == 422
    assert assert_field_errors(refused.json())[0]["code"] == "owner_only"
    vote = client.put(f"/api/d/{secret_of(links[0]['link'])}/vote", json={"option_ids": ["always"]})
    assert vote.status_code == 200
    polled = client.get(f"/api/interactions/{iid}?wait=0").json()
    assert (polled["status"], polled["action_status"]) == ("widened", "widened")


def test_an_ordinary_question_still_takes_a_quorum(client: Client) -> None:
    iid = create(client)
    widen(client, iid, audience=["Alice"], mode="block", quorum={"min_votes": 1})


def test_the_widen_dialog_and_the_page_say_only_the_owner_decides(client: Client) -> None:
    iid = permission(client)
    dialog = client.get(f"/choice/{iid}/widen", headers=owner(client))
    assert dialog.status_code == 200
    assert 'data-testid="widen-owner-only"' in dialog.text
    assert 'data-testid="widen-quorum"' not in dialog.text
    widen(client, iid, audience=["Alice"], mode="block")
    page = client.get(f"/choice/{iid}", headers=owner(client))
    assert "Only you decide: it asks to allow the agent&#39;s own action" in page.text
    assert 'data-testid="quorum-change"' not in page.text
    ordinary = create(client)
    assert 'data-testid="widen-quorum"' in client.get(f"/choice/{ordinary}/widen",
                                                         headers=owner(client)).text
