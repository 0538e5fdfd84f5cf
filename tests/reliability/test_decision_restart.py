"""A real portal killed (kill -9) in the middle of a review: the owner has asked the agent
for a summary of the discussion, and for a second question the agent has already sent its
candidate. After the restart the review is where it was (the agent's poll still gets
`summary_requested`), its fallback timer is set again from the database (it fires at
`review_requested_at + CHOICE_SUMMARY_SECONDS`, not a full period after a restart), and
the candidate sent before the kill is still there and resolves as `discussion_extraction`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from choice.contract.clock import parse_iso
from tests.portal_process import PortalProcess
from tests.reliability.faults import wait_until
from tests.tally import faults

pytestmark = pytest.mark.slow
MARGIN = 4.0
"""Seconds of the review's period left at the second restart (the portal restarts in ~1-2 s)."""
FALLBACK_BOUND = MARGIN + 10.0
CANDIDATE = {"candidate_summary": "Alice and Bob agree on PostgreSQL.",
             "candidate_answer": "PostgreSQL.", "selected_ids": ["pg"],
             "source_hint": "discussion_extraction"}


@pytest.fixture
def portal(isolated_env: Path) -> Iterator[PortalProcess]:
    process = PortalProcess(isolated_env, CHOICE_SUMMARY_SECONDS="3600").start()
    yield process
    process.stop()


def widened_in_review(owner: PortalClient, title: str) -> str:
    iid: str = owner.call("POST", "/api/interactions", {
        "title": title, "prompt": "Both fit.", "timeout_seconds": 3600,
        "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}],
    })["interaction_id"]
    owner.call("POST", f"/api/interactions/{iid}/widen",
               {"audience": ["Alice", "Bob"], "mode": "block"})
    owner.call("POST", f"/api/interactions/{iid}/comments", {"text": "PostgreSQL for me."})
    assert owner.call("POST", f"/api/interactions/{iid}/review")["state"] == "awaiting_candidate"
    return iid


def review(owner: PortalClient, iid: str) -> dict[str, Any]:
    reviewed: dict[str, Any] = owner.call("GET", f"/api/interactions/{iid}/review")
    return reviewed


def events(owner: PortalClient, iid: str, kind: str) -> list[dict[str, Any]]:
    found = owner.call("GET", f"/api/interactions/{iid}/events")["events"]
    return [event for event in found if event["kind"] == kind]


def test_a_review_survives_kill_9_and_its_fallback_fires_on_the_original_clock(
        portal: PortalProcess) -> None:
    owner = portal.client()
    asked = widened_in_review(owner, "Awaiting the agent")
    answered = widened_in_review(owner, "Candidate in")
    owner.call("POST", f"/api/interactions/{answered}/candidate", CANDIDATE)
    before = {iid: review(owner, iid) for iid in (asked, answered)}
    requested_at = parse_iso(before[asked]["requested_at"])

    with faults("kill -9 mid review") as seen:
        portal.kill9()
        seen.tries()
        portal.start()  # the same hour-long period: the review must still be waiting
        owner = portal.client()
        # acknowledged before the kill: the owner's request for a review, the agent's candidate
        seen.answers([(iid, before[iid]["state"]) for iid in (asked, answered)],
                     [(iid, review(owner, iid)["state"]) for iid in (asked, answered)])
        after = review(owner, asked)
        assert after == before[asked], "the review came back as it was"
        polled = owner.poll(asked, wait=30)  # at once: the owner waits on the agent
        assert polled["action_status"] == "summary_requested"
        assert polled["discussion"]["messages"] == ["[Owner] PostgreSQL for me."]
        assert review(owner, answered) == before[answered]  # the candidate sent before the kill

        portal.kill9()  # the second: the timer must come back from the database
        seen.tries()
        # Restart with a period that ends MARGIN s from now, counted from the original request:
        # the timer must come back from the database, not start a new period at the restart.
        # (Under load the restart may outlast MARGIN: the review is then due at start and falls
        # back at once; when it fired is what is checked, not how fast the portal started.)
        period = math.ceil(time.time() - requested_at + MARGIN)
        portal.env["CHOICE_SUMMARY_SECONDS"] = str(period)
        portal.start()
        owner = portal.client()
        due = requested_at + period
        assert parse_iso(review(owner, asked)["due_at"]) == pytest.approx(due, abs=0.01)
        wait_until(lambda: review(owner, asked)["state"] == "timed_out", timeout=FALLBACK_BOUND,
                   what="the fallback after the restart")
        fired = events(owner, asked, "candidate_timed_out")
        assert len(fired) == 1 and fired[0]["detail"]["summary_seconds"] == period
        assert due - 0.01 <= parse_iso(fired[0]["at"]) <= due + FALLBACK_BOUND
        timed_out = review(owner, asked)
        assert (timed_out["llm_timed_out"], timed_out["source_hint"]) == (True, "manual")
        assert owner.poll(asked, wait=0.2)["action_status"] == "widened"  # the agent is let off

        assert review(owner, answered)["state"] == "candidate_ready"  # no fallback for it
        assert events(owner, answered, "candidate_timed_out") == []
        result = owner.call("POST", f"/api/interactions/{answered}/resolve",
                            {"final_answer": "PostgreSQL.", "selected_ids": ["pg"]})
        assert result["summary_json"] == {"text": CANDIDATE["candidate_summary"],
                                          "source": "discussion_extraction"}
        manual = owner.call("POST", f"/api/interactions/{asked}/resolve",
                            {"final_answer": "SQLite", "selected_ids": ["lite"]})
        assert manual["summary_json"]["source"] == "manual"
