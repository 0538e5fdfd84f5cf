"""A real portal process stopped (SIGINT) or killed (kill -9) in the middle of a widened
discussion, while its webhook receiver is down: after the restart nothing is lost. The
participants, their comments and votes are there, their links still work, the discussion
goes on, and every webhook message queued before the end is delivered afterwards (the same
messages, by their delivery ids, not new ones).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.reliability.faults import wait_until
from tests.tally import faults
from tests.webhook_receiver import WebhookReceiver, outbox_rows

pytestmark = pytest.mark.slow
TEAM = [{"name": "Alice"}, {"name": "Bob"}, {"name": "Chen"}]
VOTES = {"Alice": ["pg"], "Bob": ["lite"], "Chen": ["pg"]}
FAST = {"CHOICE_WEBHOOK_RETRY_SECONDS": "0.1", "CHOICE_WEBHOOK_COALESCE_SECONDS": "0.2",
        "CHOICE_WEBHOOK_SECRET": "restart-secret"}


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver(then=503) as running:  # down until the test says otherwise
        yield running


@pytest.fixture
def portal(isolated_env: Path, receiver: WebhookReceiver) -> Iterator[PortalProcess]:
    process = PortalProcess(isolated_env, CHOICE_WEBHOOK_URL=receiver.url, **FAST).start()
    yield process
    process.stop()


def participants(portal: PortalProcess) -> PortalClient:
    """The participants' side: no token, only their links' secrets (`/api/d/<secret>`)."""
    return PortalClient(portal.base_url, None)


def api(link: str) -> str:
    return "/api/d/" + link.rsplit("/", 1)[1]


def kinds(rows: list[dict[str, Any]]) -> list[str]:
    return [row["kind"] for row in rows]


@pytest.mark.parametrize("end", ["kill -9", "stop"])
def test_a_restart_mid_discussion_loses_no_comment_vote_participant_or_webhook(
        portal: PortalProcess, receiver: WebhookReceiver, isolated_env: Path, end: str) -> None:
    owner = portal.client()
    owner.call("PUT", "/api/settings", {"team": TEAM})
    iid = owner.call("POST", "/api/interactions", {
        "title": "Pick a database", "prompt": "Both fit.",
        "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]},
    )["interaction_id"]
    widened = owner.call("POST", f"/api/interactions/{iid}/widen",
                         {"mode": "continue", "timeout_seconds": 3600})
    links = {p["name"]: p["link"] for p in widened["participants"]}
    assert kinds(outbox_rows(isolated_env)) == ["interaction.widened"], \
        "the owner has the links only once the invitation is stored"
    them = participants(portal)
    acknowledged: list[tuple[str, ...]] = []  # every write the portal said yes to
    for name, link in links.items():
        text = f"{name} thinks {VOTES[name][0]}"
        them.call("POST", f"{api(link)}/comments", {"text": text})
        acknowledged.append(("comment", text))
        them.call("PUT", f"{api(link)}/vote", {"option_ids": VOTES[name]})
        acknowledged.append(("vote", name, *VOTES[name]))
    # The receiver is down: the invitation is being retried, the comments wait behind it.
    receiver.wait_until(lambda got: len(got) >= 2, what="the invitation retried")
    wait_until(lambda: kinds(outbox_rows(isolated_env)) == ["interaction.widened",
                                                            "discussion.comments"],
               what="the comments queued")

    portal.kill9() if end == "kill -9" else portal.stop()
    queued = outbox_rows(isolated_env)
    assert [row["delivered_at"] for row in queued] == [None, None]
    assert queued[0]["attempts"] >= 2 and queued[1]["attempts"] == 0

    acknowledged += [("webhook", row["kind"], json.loads(row["payload_json"])["id"])
                     for row in queued]  # in the outbox: the portal has taken them on

    receiver.answer(200)
    portal.start()
    with faults("Restart mid discussion") as seen:
        seen.tries()
        # Bounded past the lease (timeout 10 s + 5 s): a kill can land during an attempt,
        # which is then due again only when its lease runs out.
        receiver.wait_until(lambda got: {"interaction.widened", "discussion.comments"}
                            <= {r.event_type for r in receiver.delivered()}, timeout=40,
                            what="the queued messages")
        team = owner.call("GET", f"/api/interactions/{iid}/team")
        seen.answers(acknowledged, [
            *(("comment", message["text"]) for message in team["comments"]),
            *(("vote", p["name"], *p["vote"]) for p in team["participants"]),
            *(("webhook", r.event_type, r.headers["x-choice-delivery"])
              for r in receiver.delivered())])
    ids_before = {row["kind"]: json.loads(row["payload_json"])["id"] for row in queued}
    assert {r.event_type: r.headers["x-choice-delivery"] for r in receiver.delivered()} == ids_before
    comments = receiver.delivered("discussion.comments")[0].json
    assert comments["count"] == 3

    assert sorted(p["name"] for p in team["participants"]) == sorted(links)
    assert {p["name"]: p["vote"] for p in team["participants"]} == VOTES
    assert [m["text"] for m in team["comments"]] == [f"{n} thinks {VOTES[n][0]}" for n in links]
    for name, link in links.items():  # every link still opens, with the thread and the vote
        seen = them.call("GET", api(link))
        assert seen["open"] is True and seen["you"]["vote"] == VOTES[name]
        assert len(seen["comments"]) == 3
    them.call("POST", f"{api(links['Bob'])}/comments", {"text": "after the restart"})
    owner.call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["pg"]})
    receiver.wait_until(lambda got: receiver.delivered("interaction.resolved") != [],
                        what="the decision after the restart")
    later = [r.json for r in receiver.delivered("discussion.comments")][1:]
    assert [c["text"] for event in later for c in event["comments"]] == ["after the restart"]
