"""The decision is visible to the team: a candidate that names an option by its label
proposes it even without `selected_ids`, Accept keeps the candidate's options, Edit starts
from them, and a participant's JSON (`GET /api/d/<secret>`) and page show the final answer,
the chosen options, who decided and where the answer came from, in English and Chinese."""

from __future__ import annotations

import re
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import ask
from tests.api.test_team_pages import FORM, HTMX, TEAM, agent, owner

Client = TestClient[Litestar]
OPTIONS = [{"id": "redis", "label": "Redis 7"}, {"id": "mc", "label": "Memcached"},
           {"id": "none", "label": "No cache"}]
SUMMARY = "Alice and Bob both want Redis 7: it is already in the stack."


@pytest.fixture
def web(anonymous: Client) -> Client:
    assert anonymous.put("/api/settings", json={"team": TEAM}, headers=agent()).status_code == 200
    return anonymous


def in_review(web: Client, **overrides: Any) -> tuple[str, dict[str, str]]:
    """A question widened to the team, its review asked for; each participant's secret."""
    body = ask(title="Pick a cache", prompt="Which cache?", options=OPTIONS, **overrides)
    iid = web.post("/api/interactions", json=body, headers=agent()).json()["interaction_id"]
    reply = web.post(f"/api/interactions/{iid}/widen", json={}, headers=agent())
    assert reply.status_code == 201, reply.text
    assert web.post(f"/api/interactions/{iid}/review", headers=agent()).status_code == 200
    return iid, {p["name"]: p["link"].rsplit("/d/", 1)[1] for p in reply.json()["participants"]}


def propose(web: Client, iid: str, answer: str, **extra: Any) -> dict[str, Any]:
    reply = web.post(f"/api/interactions/{iid}/candidate", headers=agent(),
                     json={"candidate_summary": SUMMARY, "candidate_answer": answer, **extra})
    assert reply.status_code == 200, reply.text
    review: dict[str, Any] = reply.json()
    return review


def post(web: Client, iid: str, data: dict[str, Any]) -> Any:
    return web.post(f"/choice/{iid}/resolve", data=data, headers={**HTMX, **owner(web)})


def outcome(web: Client, secret: str) -> dict[str, Any]:
    reply = web.get(f"/api/d/{secret}")
    assert reply.status_code == 200, reply.text
    found: dict[str, Any] = reply.json()["outcome"]
    return found


@pytest.mark.parametrize(("answer", "named"), [
    ("Redis 7", ["redis"]), ("  redis 7. ", ["redis"]), ("redis", ["redis"]),
    ("Memcached, Redis 7", ["redis", "mc"]), ("Redis 7 and Memcached", ["redis", "mc"]),
    ("Redis 7、Memcached", ["redis", "mc"]),
    ("Redis 7, because it is in the stack", []), ("Something else entirely", [])])
def test_a_candidate_naming_options_by_label_proposes_them(
        web: Client, answer: str, named: list[str]) -> None:
    iid, _ = in_review(web, selection_mode="multi", max_selections=3)
    assert propose(web, iid, answer)["candidate_selected_ids"] == named


def test_the_candidates_own_selected_ids_win_over_its_words(web: Client) -> None:
    iid, _ = in_review(web)
    assert propose(web, iid, "Redis 7", selected_ids=["mc"])["candidate_selected_ids"] == ["mc"]


def test_accept_keeps_the_proposed_option_and_the_team_sees_the_decision(web: Client) -> None:
    iid, secrets = in_review(web)
    stamp = propose(web, iid, "Redis 7")["candidate_at"]
    done = post(web, iid, {"action": "accept", "candidate_at": stamp})
    assert done.status_code == 200, done.text
    result = web.get(f"/api/interactions/{iid}", headers=agent()).json()
    assert (result["selected_ids"], result["selected_labels"]) == (["redis"], ["Redis 7"])
    seen = outcome(web, secrets["Bob"])
    assert seen["selected_ids"] == ["redis"] and seen["selected_labels"] == ["Redis 7"]
    assert (seen["decided_by"], seen["source"]) == ("owner", "discussion_extraction")
    assert seen["summary"] == SUMMARY and seen["answer"] is None  # options decide this one

    english = web.get(f"/d/{secrets['Bob']}").text
    assert re.search(r'data-testid="team-outcome-choices">\s*<li>Redis 7</li>', english)
    assert "accepted the agent&#39;s summary of the discussion" in english
    assert "the person asking" in english and SUMMARY in english
    chinese = web.get(f"/d/{secrets['Bob']}?lang=zh").text
    assert "<li>Redis 7</li>" in chinese and "提问者" in chinese
    assert "accepted the agent" not in chinese and "Decided by" not in chinese


def test_edit_starts_from_the_proposed_option(web: Client) -> None:
    iid, _ = in_review(web)
    propose(web, iid, "Redis 7")
    page = web.get(f"/choice/{iid}", headers=owner(web)).text
    edit = page.split('data-testid="edit-form"', 1)[1].split("</form>", 1)[0]
    checked = re.findall(r'value="(\w+)" id="edit-opt-\d+"\s*checked', edit)
    assert checked == ["redis"]


def test_an_edited_answer_in_words_reaches_the_team(web: Client) -> None:
    iid, secrets = in_review(web, selection_mode="hybrid", min_selections=0)
    propose(web, iid, "Redis 7")
    edited = "Memcached for now: Redis 7 needs a second host we do not have yet."
    asked = post(web, iid, {"action": "edit", "final_answer": edited, "selected": "mc"})
    assert 'data-testid="rationale-step"' in asked.text  # a material change asks why first
    done = post(web, iid, {"action": "edit", "step": "rationale", "final_answer": edited,
                           "selected": "mc", "rationale": "Budget."})
    assert done.status_code == 200, done.text
    seen = outcome(web, secrets["Alice Johnson"])
    assert (seen["selected_labels"], seen["answer"]) == (["Memcached"], edited)
    assert (seen["source"], seen["rationale"]) == ("owner_override", "Budget.")
    page = web.get(f"/d/{secrets['Alice Johnson']}").text
    assert 'data-testid="team-outcome-answer">Memcached for now' in page
    assert "edited: changed from the agent&#39;s proposal" in page


def test_the_owners_own_answer_without_a_candidate_is_written_by_hand(web: Client) -> None:
    iid, secrets = in_review(web)
    done = web.post(f"/choice/{iid}/resolve", data={"action": "write", "selected": "none"},
                    headers={**FORM, **owner(web)}, follow_redirects=False)
    assert done.status_code in (200, 303), done.text
    seen = outcome(web, secrets["Bob"])
    assert (seen["selected_labels"], seen["source"]) == (["No cache"], "manual")
    assert "written by the person asking" in web.get(f"/d/{secrets['Bob']}").text
