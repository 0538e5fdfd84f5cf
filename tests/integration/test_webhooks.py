"""The webhook outbox against a real local HTTP receiver (`tests/webhook_receiver.py`): the
portal runs in-process (the app with its lifespan, through Litestar's TestClient), the
receiver on its own port fails the first attempts as each test scripts.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from choice.contract.clock import parse_iso
from choice.core.config import Settings
from choice.core.service import InteractionService
from choice.portal import create_app
from choice.store import Store
from choice.webhooks.outbox import Outbox
from choice.webhooks.sender import RetryPolicy
from tests.reliability.faults import wait_until
from tests.webhook_receiver import WebhookReceiver, outbox_rows

BASE_URL = "http://127.0.0.1:8765"
SECRET = "test-webhook-secret"
RETRY = 0.2
TEAM = [{"name": "Alice", "handle": "@alice"}, {"name": "Bob"}, {"name": "Chen"}]


class Owner:
    """The owner's side over the JSON API, and the participants' (by their links)."""

    def __init__(self, client: TestClient[Litestar], token: str) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"}

    def call(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        response = self.client.request(method, path, json=body, headers=self.headers)
        assert response.status_code == status, response.text
        return response.json()

    def ask(self, title: str = "Pick a database", **fields: Any) -> str:
        body = {"title": title, "prompt": "The service needs a store; both fit.",
                "options": [{"id": "pg", "label": "PostgreSQL"},
                            {"id": "lite", "label": "SQLite", "recommended": True}], **fields}
        return str(self.call("POST", "/api/interactions", body, 201)["interaction_id"])

    def widen(self, interaction_id: str, **fields: Any) -> dict[str, str]:
        """Widen to the whole team; returns each participant's link by name."""
        reply = self.call("POST", f"/api/interactions/{interaction_id}/widen",
                          {"note": "Thoughts?", **fields}, 201)
        return {p["name"]: p["link"] for p in reply["participants"]}

    def comment(self, link: str, text: str) -> None:
        response = self.client.post(f"/api/d/{secret_of(link)}/comments", json={"text": text})
        assert response.status_code == 201, response.text

    def events(self, interaction_id: str, prefix: str = "webhook_") -> list[dict[str, Any]]:
        found = self.call("GET", f"/api/interactions/{interaction_id}/events")["events"]
        return [e for e in found if e["kind"].startswith(prefix)]


def secret_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as running:
        yield running


def settings_for(receiver: WebhookReceiver, **changes: Any) -> Settings:
    values: dict[str, Any] = {"webhook_url": receiver.url, "webhook_secret": SECRET,
                              "webhook_retry_seconds": RETRY, "webhook_coalesce_seconds": 0.3}
    return dataclasses.replace(Settings.from_env(), **{**values, **changes})


@contextmanager
def portal(settings: Settings) -> Iterator[Owner]:
    app = create_app(settings)
    with TestClient(app, base_url=BASE_URL) as client:
        owner = Owner(client, (settings.data_dir / "token").read_text().strip())
        owner.call("PUT", "/api/settings", {"team": TEAM})
        yield owner


def test_a_receiver_failing_twice_gets_the_signed_invitation_on_the_third_attempt(
        receiver: WebhookReceiver, isolated_env: Path) -> None:
    receiver.answer(200, script=[500, "drop"])
    with portal(settings_for(receiver)) as owner:
        iid = owner.ask()
        links = owner.widen(iid, mode="continue")
        got = receiver.wait_for(3)
        wait_until(lambda: len(owner.events(iid)) == 3, what="three attempts audited")
        attempts = owner.events(iid)

    assert [r.answered for r in got] == [500, "drop", 200]
    assert len({r.body for r in got}) == 1, "every retry sends the same bytes"
    assert len({r.headers["x-choice-delivery"] for r in got}) == 1
    for received in got:
        expected = hmac.new(SECRET.encode(), received.body, hashlib.sha256).hexdigest()
        assert received.headers["x-choice-signature-256"] == f"sha256={expected}"
        assert received.headers["x-choice-event"] == "interaction.widened"
    event = got[-1].json
    assert {p["name"]: p["link"] for p in event["participants"]} == links
    assert event["mode"] == "continue" and event["note"] == "Thoughts?"
    assert event["question"]["url"] == f"{BASE_URL}/choice/{iid}"

    assert [(e["kind"], e["actor"], e["detail"]["attempt"]) for e in attempts] == [
        ("webhook_failed", "system", 1), ("webhook_failed", "system", 2),
        ("webhook_delivered", "system", 3)]
    assert attempts[0]["detail"]["status"] == 500
    assert "RemoteDisconnected" in attempts[1]["detail"]["error"]
    assert attempts[2]["detail"]["status"] == 200
    for n, failed in enumerate(attempts[:2], start=1):  # full jitter below a doubling ceiling
        waited = parse_iso(failed["detail"]["next_attempt_at"]) - parse_iso(failed["at"])
        assert -0.002 <= waited <= RETRY * 2 ** (n - 1) + 0.002
        assert got[n].at >= parse_iso(failed["detail"]["next_attempt_at"]) - 0.002
    [row] = outbox_rows(isolated_env)
    assert row["attempts"] == 3 and row["delivered_at"] and row["failed_at"] is None


def test_slack_messages_escape_hostile_text_and_link_the_public_url(
        receiver: WebhookReceiver, isolated_env: Path) -> None:
    settings = settings_for(receiver, webhook_format="slack", webhook_secret=None,
                            public_url="https://choice.example")
    with portal(settings) as owner:
        owner.call("PUT", "/api/settings", {"team": [{"name": "Mallory <!channel>",
                                                      "handle": "<@U0ADMIN>"}]})
        iid = owner.ask(title="<!here> Pick & <https://evil.example|click>")
        [link] = owner.widen(iid).values()
        owner.comment(link, "vote <https://evil.example|here> & ping <!everyone>")
        got = receiver.wait_until(lambda got: len(got) >= 2, what="invitation and comment")

    assert link.startswith("https://choice.example/d/")
    for received in got:
        assert "x-choice-signature-256" not in received.headers  # no secret, no signature
        message = received.json
        assert set(message) == {"text", "blocks", "unfurl_links", "unfurl_media"}
        assert message["unfurl_links"] is False
        raw = received.body.decode()
        for control in ("<!here>", "<!channel>", "<!everyone>", "<@U0ADMIN>", "<https://evil"):
            assert control not in raw
        assert "&lt;!here&gt; Pick &amp; &lt;https://evil.example|click&gt;" in message["text"]
    invitation = "\n".join(b["text"]["text"] for b in got[0].json["blocks"] if "text" in b)
    assert f"<{link}|Mallory &lt;!channel&gt;> (&lt;@U0ADMIN&gt;)" in invitation


def test_comments_close_together_go_out_as_one_message_after_the_invitation(
        receiver: WebhookReceiver, isolated_env: Path) -> None:
    receiver.answer(200, script=[503])  # the invitation's first attempt fails
    with portal(settings_for(receiver, webhook_coalesce_seconds=1.0)) as owner:
        iid = owner.ask()
        links = owner.widen(iid)
        for name, text in (("Alice", "PG, we know it"), ("Bob", "SQLite is enough"),
                           ("Chen", "x" * 1000), ("Alice", "agreed with Bob")):
            owner.comment(links[name], text)
        got = receiver.wait_until(lambda got: len(receiver.delivered("discussion.comments")) == 1,
                                  what="the coalesced comments")
        owner.comment(links["Bob"], "one more")
        receiver.wait_until(lambda got: len(receiver.delivered("discussion.comments")) == 2,
                            what="the next window's message")

    first_comments = next(i for i, r in enumerate(got) if r.event_type == "discussion.comments")
    assert receiver.delivered()[0].event_type == "interaction.widened"
    assert got[first_comments - 1].event_type == "interaction.widened", \
        "the comments waited for the invitation"
    burst, later = (r.json for r in receiver.delivered("discussion.comments"))
    assert burst["count"] == 4 and later["count"] == 1
    assert [c["author"] for c in burst["comments"]] == ["Bob", "Chen", "Alice"]
    assert burst["comments"][1]["text"].endswith("…") and len(burst["comments"][1]["text"]) <= 280
    assert later["comments"][0]["text"] == "one more"


def test_a_decision_on_a_widened_question_is_announced_and_no_other_is(
        receiver: WebhookReceiver, isolated_env: Path) -> None:
    with portal(settings_for(receiver)) as owner:
        alone = owner.ask("Asked of the owner alone")
        owner.call("POST", f"/api/interactions/{alone}/response", {"selected_ids": ["lite"]})
        iid = owner.ask()
        links = owner.widen(iid)
        vote = owner.client.put(f"/api/d/{secret_of(links['Bob'])}/vote",
                                json={"option_ids": ["pg"]})
        assert vote.status_code == 200
        owner.call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["pg"]})
        receiver.wait_until(lambda got: receiver.delivered("interaction.resolved") != [],
                            what="the decision")
        cancelled = owner.ask("Cancelled after widening")
        owner.widen(cancelled)
        owner.call("POST", f"/api/interactions/{cancelled}/cancel", {})
        receiver.wait_until(lambda got: len(receiver.delivered("interaction.resolved")) == 2,
                            what="the cancellation")

    decided, withdrawn = (r.json for r in receiver.delivered("interaction.resolved"))
    assert decided["question"]["interaction_id"] == iid
    assert decided["outcome"] == "answered" and decided["selected_labels"] == ["PostgreSQL"]
    assert {t["option_id"]: t["votes"] for t in decided["tally"]} == {"pg": 1, "lite": 0}
    assert withdrawn["outcome"] == "cancelled" and withdrawn["selected_labels"] == []
    assert alone not in {r.json["question"]["interaction_id"] for r in receiver.received}


def test_a_receiver_refusing_for_good_is_not_retried(receiver: WebhookReceiver,
                                                     isolated_env: Path) -> None:
    receiver.answer(200, script=[404])
    with portal(settings_for(receiver)) as owner:
        iid = owner.ask()
        links = owner.widen(iid)
        wait_until(lambda: owner.events(iid) != [], what="the refusal audited")
        owner.comment(links["Alice"], "still here")
        wait_until(lambda: len(owner.events(iid)) == 2, what="the next message audited")
        [refused, delivered] = owner.events(iid)

    assert [r.event_type for r in receiver.received] == ["interaction.widened",
                                                         "discussion.comments"]
    assert refused["kind"] == "webhook_failed" and refused["detail"]["gave_up"] is True
    assert refused["detail"]["status"] == 404 and "next_attempt_at" not in refused["detail"]
    assert delivered["kind"] == "webhook_delivered"
    invitation = outbox_rows(isolated_env)[0]
    assert invitation["failed_at"] and invitation["attempts"] == 1
    assert invitation["last_error"] == "HTTP 404"


def test_a_hanging_receiver_slows_neither_the_owner_nor_the_participants(
        receiver: WebhookReceiver, isolated_env: Path) -> None:
    """The comment and the answer return while the invitation's POST is still held open:
    its attempt has neither succeeded nor failed (the send's 10 s timeout would have marked
    it) when they are done. How long they take then is a figure: bench/timing_bench.py."""
    receiver.answer(200, script=["hold"])
    with portal(settings_for(receiver)) as owner:
        iid = owner.ask()
        links = owner.widen(iid)
        receiver.wait_for(1)  # the invitation's POST is now held open by the receiver
        owner.comment(links["Alice"], "while the webhook hangs")
        owner.call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["pg"]})
        invitation = outbox_rows(isolated_env)[0]
        receiver.release()
        receiver.wait_until(lambda got: receiver.delivered("interaction.resolved") != [],
                            what="everything, once the receiver answers")

    assert invitation["kind"] == "interaction.widened"
    assert (invitation["delivered_at"], invitation["last_error"]) == (None, None), invitation
    assert [r.event_type for r in receiver.delivered()] == [
        "interaction.widened", "discussion.comments", "interaction.resolved"]


def test_without_a_webhook_url_nothing_is_queued(isolated_env: Path) -> None:
    with portal(Settings.from_env()) as owner:
        iid = owner.ask()
        links = owner.widen(iid)
        owner.comment(links["Bob"], "nobody hears this outside the portal")
        owner.call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["pg"]})
    assert outbox_rows(isolated_env) == []


async def test_the_outbox_gives_up_after_its_last_attempt(receiver: WebhookReceiver,
                                                          isolated_env: Path) -> None:
    receiver.answer(500)
    settings = Settings.from_env()
    settings.prepare_data_dir()
    store = Store(settings.db_url).open()
    outbox = Outbox(store, receiver.url, "json", SECRET, InteractionService(store, settings).clock,
                    RetryPolicy(base=0.05, max_attempts=2))
    outbox.start()
    try:
        message_id = await outbox.enqueue("0123456789abcdef", {"id": "e" * 32, "type": "x"})
        for _ in range(200):
            [row] = await store.read(outbox.rows.messages)
            if row.failed_at is not None:
                break
            await asyncio.sleep(0.02)
        events = await store.read(store.repo.events, "0123456789abcdef")
    finally:
        await outbox.stop()
        store.close()
    assert row.id == message_id and row.failed_at is not None and row.attempts == 2
    assert [r.answered for r in receiver.received] == [500, 500]
    assert [(e.kind, e.actor) for e in events] == [("webhook_failed", "system")] * 2
    assert (events[-1].detail_json or {})["gave_up"] is True


def test_json_webhooks_without_a_secret_go_unsigned_with_one_warning_at_start(
        receiver: WebhookReceiver, isolated_env: Path) -> None:
    warned: list[str] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: warned.append(record.getMessage())  # type: ignore[method-assign]
    logging.getLogger("choice.webhooks").addHandler(handler)  # the app's logging config
    try:  # replaces the root's handlers, pytest's capture among them
        with portal(settings_for(receiver, webhook_secret=None)) as owner:
            owner.widen(owner.ask())
            [received] = receiver.wait_for(1)
    finally:
        logging.getLogger("choice.webhooks").removeHandler(handler)
    assert [w for w in warned if "CHOICE_WEBHOOK_SECRET" in w and "unsigned" in w] == warned
    assert len(warned) == 1
    assert "x-choice-signature-256" not in received.headers


def test_a_written_back_decision_says_who_decided_and_from_what_and_a_deferral_says_why(
        receiver: WebhookReceiver, isolated_env: Path) -> None:
    with portal(settings_for(receiver)) as owner:
        alone = owner.ask("Deferred by the owner alone")
        owner.call("POST", f"/api/interactions/{alone}/defer", {"rationale": "Not yet."})
        iid = owner.ask()
        owner.widen(iid)
        owner.call("POST", f"/api/interactions/{iid}/review")
        owner.call("POST", f"/api/interactions/{iid}/candidate", {
            "candidate_summary": "Everyone leans to PostgreSQL.",
            "candidate_answer": "PostgreSQL"})
        owner.call("POST", f"/api/interactions/{iid}/resolve",
                   {"final_answer": "PostgreSQL", "selected_ids": ["pg"]})
        later = owner.ask("Set aside")
        owner.widen(later)
        owner.call("POST", f"/api/interactions/{later}/defer",
                   {"rationale": "Waiting for the <load test> & the budget."})
        receiver.wait_until(lambda got: receiver.delivered("interaction.resolved") != []
                            and receiver.delivered("interaction.deferred") != [],
                            what="the decision and the deferral")

    decided = receiver.delivered("interaction.resolved")[0].json
    assert decided["question"]["interaction_id"] == iid
    assert (decided["decided_by"], decided["source"]) == ("owner", "discussion_extraction")
    assert decided["selected_labels"] == ["PostgreSQL"]
    set_aside = receiver.delivered("interaction.deferred")[0]
    assert set_aside.headers["x-choice-event"] == "interaction.deferred"
    assert set_aside.json["question"]["interaction_id"] == later
    assert set_aside.json["rationale"] == "Waiting for the <load test> & the budget."
    every = [r.json for r in receiver.received]
    assert {event["schema_version"] for event in every} == {1}
    assert alone not in {event["question"]["interaction_id"] for event in every}


def test_new_questions_reach_the_webhook_only_when_asked_for(
        receiver: WebhookReceiver, isolated_env: Path) -> None:
    """`CHOICE_WEBHOOK_CREATED` (docs/guides/team-mode.md#webhooks): the whole question and
    its context, for a chat UI; off, a new question sends nothing (a team channel hears of
    widenings only)."""
    with portal(settings_for(receiver)) as owner:
        quiet = owner.ask("Nobody outside should hear of this")
        owner.call("POST", f"/api/interactions/{quiet}/cancel", {})
    assert outbox_rows(isolated_env) == [] and receiver.received == []
    with portal(settings_for(receiver, webhook_created=True)) as owner:
        iid = owner.ask(context={"conversation_id": "conv-7", "tool_call_id": "call-3"})
        [got] = receiver.wait_for(1)
    event = got.json
    assert got.headers["x-choice-event"] == "interaction.created"
    assert event["question"]["interaction_id"] == iid
    assert event["context"] == {"conversation_id": "conv-7", "tool_call_id": "call-3"}
    whole = event["whole"]
    assert [o["id"] for o in whole["options"]] == ["pg", "lite"]
    assert whole["options"][1]["recommended"] is True and whole["questions"] is None


def test_a_team_reminder_is_delivered_once_and_settled(receiver: WebhookReceiver,
                                                       isolated_env: Path) -> None:
    """A reminder's `participants` is a count, and settling it (dropping
    links from the stored event) raised on it, so the delivery was never recorded and the
    same message went out again every retry, forever, across restarts."""
    settings = settings_for(receiver, reminder_minutes=0.05, reminder_scan_seconds=0.5)
    with portal(settings) as owner:
        iid = owner.ask()
        owner.widen(iid)
        receiver.wait_until(lambda got: receiver.delivered("interaction.reminder") != [],
                            what="the discussion's reminder")
        wait_until(lambda: all(row["delivered_at"] is not None
                               for row in outbox_rows(settings.data_dir)
                               if json.loads(row["payload_json"])["type"]
                               == "interaction.reminder"),
                   what="the reminder's delivery recorded")
    reminders = [r.json for r in receiver.received if r.event_type == "interaction.reminder"]
    ids = [event["id"] for event in reminders]
    assert len(ids) == len(set(ids))  # each reminder once, never the same one again
    assert all(isinstance(event["participants"], int) for event in reminders)
