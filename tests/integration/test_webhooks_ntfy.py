"""`CHOICE_WEBHOOK_FORMAT=ntfy` against a real local receiver standing in for an ntfy server
(`tests/webhook_receiver.py`): the portal in-process with its lifespan, its clock moved to
reach a question's last minute; the receiver fails the first attempts as each test scripts.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from email.header import decode_header
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from choice.core.config import Settings
from choice.portal import create_app
from tests.integration.test_service import Clock
from tests.integration.test_webhooks import BASE_URL, TEAM, Owner, secret_of
from tests.reliability.faults import wait_until
from tests.webhook_receiver import WebhookReceiver, outbox_rows

TOKEN = "tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2"
PASSWORD = "pa55-w0rd-for-ntfy"
TITLE = "选择数据库：PostgreSQL 还是 SQLite？"


def title_of(headers: dict[str, str]) -> str:
    """The Title header as ntfy reads it (RFC 2047 encoded words decoded)."""
    return "".join(part.decode(charset or "ascii") if isinstance(part, bytes) else part
                   for part, charset in decode_header(headers["title"]))


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as running:
        yield running


@contextmanager
def portal(receiver: WebhookReceiver, url: str, clock: Clock | None = None,
           **changes: Any) -> Iterator[Owner]:
    settings = dataclasses.replace(Settings.from_env(), webhook_url=url, webhook_format="ntfy",
                                   webhook_retry_seconds=0.2, webhook_coalesce_seconds=0.2,
                                   **changes)
    app = create_app(settings, clock=clock) if clock else create_app(settings)
    with TestClient(app, base_url=BASE_URL) as client:
        owner = Owner(client, (settings.data_dir / "token").read_text().strip())
        owner.call("PUT", "/api/settings", {"team": TEAM})
        yield owner


def test_a_new_question_and_its_last_minute_reach_the_topic_retried_and_authenticated(
        receiver: WebhookReceiver, isolated_env: Path) -> None:
    """`CHOICE_WEBHOOK_CREATED=1`: the new question (after two 5xx), then the reminder of
    its last minute, urgent; the access token from `?auth=` sent as a header only."""
    receiver.answer(200, script=[500, 503])
    auth = base64.urlsafe_b64encode(f"Bearer {TOKEN}".encode()).decode().rstrip("=")
    clock = Clock()
    with portal(receiver, f"{receiver.url}?auth={auth}", clock, webhook_created=True,
                reminder_minutes=120.0, reminder_scan_seconds=0.2) as owner:
        iid = owner.ask(TITLE, timeout_seconds=600)
        receiver.wait_until(lambda got: receiver.delivered("interaction.created") != [],
                            what="the new question, third time")
        clock.advance(600 - 59)  # the last minute has begun
        receiver.wait_until(lambda got: receiver.delivered("interaction.reminder") != [],
                            what="the last minute's reminder")
        wait_until(lambda: len(owner.events(iid)) == 4, what="four attempts audited")
        attempts = owner.events(iid)
        everything_audited = json.dumps(owner.events(iid, prefix=""))

    new, *rest = [r for r in receiver.received if r.event_type == "interaction.created"]
    assert [r.answered for r in (new, *rest)] == [500, 503, 200]
    assert {r.body for r in rest} == {new.body}, "every retry sends the same bytes"
    for received in receiver.received:
        assert received.path == "/hook", "the token left the URL"
        assert received.headers["authorization"] == f"Bearer {TOKEN}"
        assert received.headers["content-type"] == "text/plain; charset=utf-8"
        assert received.headers["click"] == f"{BASE_URL}/choice/{iid}"
    assert title_of(new.headers) == f"New question: {TITLE}"
    assert new.headers["tags"] == "question" and "x-priority" not in new.headers
    assert new.body.decode().splitlines()[:4] == [
        "The service needs a store; both fit.", "Options:", "• PostgreSQL",
        "• SQLite (recommended)"]
    [last_minute] = receiver.delivered("interaction.reminder")
    assert re.fullmatch(rf"Reminder: 5\d s left to answer {TITLE}", title_of(last_minute.headers))
    assert last_minute.headers["x-priority"] == "urgent"
    assert last_minute.headers["tags"] == "alarm_clock"

    assert [(e["kind"], e["detail"].get("status")) for e in attempts] == [
        ("webhook_failed", 500), ("webhook_failed", 503), ("webhook_delivered", 200),
        ("webhook_delivered", 200)]
    stored = json.dumps(outbox_rows(isolated_env))
    for secret in (TOKEN, auth):
        assert secret not in everything_audited and secret not in stored


def test_an_invitation_push_uses_the_url_s_password_and_carries_no_participant_link(
        receiver: WebhookReceiver, isolated_env: Path) -> None:
    """userinfo in the topic URL becomes Basic auth (urllib would take `user:pass@` for a
    host and port); the invitation counts the team, and a comment follows it."""
    url = receiver.url.replace("http://", f"http://alice:{PASSWORD}@")
    with portal(receiver, url) as owner:
        iid = owner.ask()
        links = owner.widen(iid)
        owner.comment(links["Alice"], "PG, we know it")
        receiver.wait_until(lambda got: len(receiver.delivered()) == 2,
                            what="the invitation and the comment")
        everything_audited = json.dumps(owner.events(iid, prefix=""))

    invitation, comment = receiver.delivered()
    basic = base64.b64encode(f"alice:{PASSWORD}".encode()).decode()
    for received in (invitation, comment):
        assert received.path == "/hook"
        assert received.headers["authorization"] == f"Basic {basic}"
        sent = received.body.decode() + json.dumps(received.headers)
        assert "/d/" not in sent
        assert not any(secret_of(link) in sent for link in links.values())
    assert invitation.event_type == "interaction.widened"
    assert title_of(invitation.headers) == "Asked the team: Pick a database"
    assert "3 teammates invited" in invitation.body.decode().splitlines()
    assert title_of(comment.headers) == "1 new comment on Pick a database"
    assert comment.body.decode() == "Alice: PG, we know it"
    assert PASSWORD not in everything_audited and basic not in everything_audited
