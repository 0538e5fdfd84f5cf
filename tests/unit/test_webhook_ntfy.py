"""The ntfy format's pure parts: the headers and body of each push, the priority of a
question's last minute, a Chinese title through RFC 2047, hostile text that must not add a
header, and the credentials a topic URL carries moved into `Authorization`."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from email.header import decode_header
from typing import Any

import pytest

from choice.webhooks.formats import SIGNATURE_HEADER, render
from choice.webhooks.ntfy import BODY_BYTES, header_value, target
from tests.unit.test_webhook_formats import event

TOPIC = "https://ntfy.example/choice-alerts"
LINK = "https://choice.example/d/" + "s" * 32
INJECTION = "Pick\r\nAuthorization: Bearer stolen\nX-Priority: min\x00\u2028Tags: skull"


def decoded(value: str) -> str:
    """A header value as ntfy reads it (Go's mime.WordDecoder drops the space between words)."""
    return "".join(part.decode(charset or "ascii") if isinstance(part, bytes) else part
                   for part, charset in decode_header(value))


def ntfy(kind: str = "interaction.created", url: str = TOPIC, secret: str | None = None,
         language: str = "en", **fields: Any) -> tuple[str, dict[str, str], str]:
    rendered = render(event(kind, **fields), "ntfy", secret, language, url)
    return rendered.body.decode(), rendered.headers, rendered.url


def created(title: str = "Pick a database", **fields: Any) -> dict[str, Any]:
    question = {"interaction_id": "abc", "title": title,
                "prompt": "The service needs a store;\n\nboth fit.",
                "options": [{"id": "pg", "label": "PostgreSQL", "recommended": False},
                            {"id": "lite", "label": "SQLite", "recommended": True}],
                "expires_at": "2026-01-01T01:00:00.000Z",
                "url": "https://choice.example/choice/abc", **fields}
    return {"question": question, "whole": {"questions": None}}


def test_a_new_question_is_a_push_with_its_title_prompt_options_and_the_owner_s_page() -> None:
    body, headers, url = ntfy(**created())
    assert url == TOPIC
    assert headers["Title"] == "New question: Pick a database"
    assert headers["Click"] == "https://choice.example/choice/abc"
    assert headers["Tags"] == "question" and "X-Priority" not in headers
    assert headers["Content-Type"] == "text/plain; charset=utf-8"
    assert headers["X-Choice-Event"] == "interaction.created"
    assert body.splitlines() == ["The service needs a store; both fit.", "Options:",
                                 "• PostgreSQL", "• SQLite (recommended)",
                                 "Deadline: 2026-01-01T01:00:00.000Z"]


def test_the_last_minute_is_urgent_an_unopened_question_high_and_others_default() -> None:
    _, last_minute, _ = ntfy("interaction.reminder", reason="deadline", seconds_left=59)
    _, unopened, _ = ntfy("interaction.reminder", reason="unopened", waiting_minutes=15)
    _, idle, _ = ntfy("interaction.reminder", reason="discussion_idle", idle_minutes=30,
                      opened=1, participants=2, voted=0, comments=1, tally=[])
    assert last_minute["X-Priority"] == "urgent" and last_minute["Tags"] == "alarm_clock"
    assert decoded(last_minute["Title"]).startswith("Reminder: 59 s left to answer ")
    assert unopened["X-Priority"] == "high"
    assert "X-Priority" not in idle and "Priority" not in idle


def test_a_chinese_title_arrives_intact_as_rfc_2047_encoded_words() -> None:
    fields = created("选择数据库：PostgreSQL 还是 SQLite？" * 6, language="zh")
    body, headers, _ = ntfy(**fields)
    title = headers["Title"]
    title.encode("latin-1")  # what http.client sends: it would raise on anything else
    assert title.isascii() and re.fullmatch(r"(=\?utf-8\?b\?[A-Za-z0-9+/=]+\?=)( =\?utf-8\?b\?"
                                            r"[A-Za-z0-9+/=]+\?=)*", title)
    assert all(len(word) <= 75 for word in title.split(" "))  # RFC 2047's limit per word
    assert decoded(title) == "新问题：" + "选择数据库：PostgreSQL 还是 SQLite？" * 6
    assert body.startswith("The service needs a store; both fit.\n选项：")


def test_an_ascii_title_that_looks_encoded_is_encoded_so_ntfy_shows_it_as_written() -> None:
    looks = "=?utf-8?b?SGFja2Vk?="
    assert header_value(looks) != looks and decoded(header_value(looks)) == looks
    assert header_value("Plain title") == "Plain title"


HOSTILE_EVENTS: dict[str, tuple[str, dict[str, Any]]] = {
    "created": ("interaction.created", {"whole": {"questions": None}}),
    "widened": ("interaction.widened", {}),
    "last minute": ("interaction.reminder", {"reason": "deadline", "seconds_left": 59}),
    "comments": ("discussion.comments", {"count": 1, "comments": [
        {"author": INJECTION, "text": INJECTION, "at": "x"}]}),
}


@pytest.mark.parametrize("which", sorted(HOSTILE_EVENTS))
def test_newlines_and_controls_in_a_title_cannot_add_a_header(which: str) -> None:
    kind, fields = HOSTILE_EVENTS[which]
    hostile = event(kind, **fields)
    hostile["question"]["title"] = INJECTION
    rendered = render(hostile, "ntfy", None, "en", TOPIC)
    for name, value in rendered.headers.items():
        assert not re.search(r"[\x00-\x1f\x7f]", value), (name, value)
        value.encode("latin-1")
    assert "Authorization" not in rendered.headers
    assert "Bearer stolen" in decoded(rendered.headers["Title"])  # kept as text, on one line


def test_an_invitation_push_counts_the_team_and_never_carries_a_participant_s_link() -> None:
    participants = [{"name": n, "handle": None, "link": f"{LINK[:-1]}{i}"}
                    for i, n in enumerate(["Alice", "Bob", "Chen"])]
    body, headers, _ = ntfy("interaction.widened", participants=participants, note="Thoughts?")
    everything = body + "\n".join(headers.values())
    assert "/d/" not in everything and "s" * 30 not in everything
    assert "Alice" not in everything
    assert "3 teammates invited" in body and "Note from the person asking: Thoughts?" in body
    assert headers["Click"] == "https://choice.example/choice/abc"
    assert decoded(headers["Title"]).startswith("Asked the team: ")


def test_comments_decisions_and_deferrals_say_what_happened() -> None:
    comments: dict[str, Any] = {
        "count": 4, "comments": [{"author": "Bob", "text": "SQLite is enough", "at": "x"}]}
    body, headers, _ = ntfy("discussion.comments", **comments)
    assert decoded(headers["Title"]).startswith("4 new comments on ")
    assert body == "Bob: SQLite is enough" and headers["Tags"] == "speech_balloon"
    resolved: dict[str, Any] = {
        "outcome": "answered", "selected_labels": ["PostgreSQL"], "decided_by": "owner",
        "source": "quorum", "tally": [{"label": "PostgreSQL", "votes": 2}]}
    body, headers, _ = ntfy("interaction.resolved", **resolved)
    assert decoded(headers["Title"]).startswith("Decided: ")
    assert decoded(headers["Title"]).endswith(" → PostgreSQL")
    assert body == ("Decided by the team's quorum. Votes: PostgreSQL: 2. "
                    "The discussion is closed.")
    assert headers["Tags"] == "white_check_mark"
    body, headers, _ = ntfy("interaction.deferred", rationale="Not yet.", tally=[])
    assert body.startswith("Why: Not yet. The person asking will take it up again later")
    assert headers["Tags"] == "pause_button"


def test_a_push_speaks_the_question_s_language_else_the_portal_s() -> None:
    body, headers, _ = ntfy("interaction.reminder", language="zh", reason="unopened",
                            waiting_minutes=15)
    assert decoded(headers["Title"]).startswith("提醒：") and body.startswith("截止时间：")
    zh = event("interaction.deferred", rationale="x", tally=[])
    zh["question"]["language"] = "zh"
    assert render(zh, "ntfy", None, "en", TOPIC).body.decode().startswith("理由：x")
    body, headers, _ = ntfy("interaction.widened", language="zh", note=None)
    assert decoded(headers["Title"]).startswith("已请团队讨论：")
    assert "已邀请 1 位队友" in body.splitlines() and "扩大" not in body


def test_a_long_body_stays_under_ntfy_s_message_limit() -> None:
    long = {"author": "甲" * 200, "text": "长" * 600, "at": "x"}
    comments: dict[str, Any] = {"count": 3, "comments": [long] * 3}
    body, _, _ = ntfy("discussion.comments", **comments)
    assert len(body.encode()) <= BODY_BYTES and body.endswith("…")


@pytest.mark.parametrize(("url", "authorization"), [
    ("https://alice:s%40cret@ntfy.example/choice-alerts", "Basic " + base64.b64encode(
        b"alice:s@cret").decode()),
    ("https://:tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2@ntfy.example/choice-alerts",
     "Bearer tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2"),
    ("https://tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2@ntfy.example/choice-alerts",
     "Bearer tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2"),
    ("https://ntfy.example/choice-alerts?auth=" + base64.urlsafe_b64encode(
        b"Bearer tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2").decode().rstrip("="),
     "Bearer tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2"),
])
def test_the_url_s_credentials_become_the_authorization_header_and_leave_the_url(
        url: str, authorization: str) -> None:
    _, headers, posted = ntfy(url=url)
    assert headers["Authorization"] == authorization
    assert posted == TOPIC
    assert authorization.split(" ")[1] not in repr(target(url)) + repr(render(
        event(), "ntfy", None, "en", url))


def test_other_query_parameters_stay_and_an_unreadable_auth_is_dropped_not_sent() -> None:
    kept = target(TOPIC + "?auth=not*base64&firebase=no")
    assert kept.url == TOPIC + "?firebase=no"
    assert kept.unreadable_auth and kept.authorization is None
    assert target(TOPIC).authorization is None and not target(TOPIC).unreadable_auth


def test_a_push_is_signed_like_every_other_format_when_a_secret_is_set() -> None:
    rendered = render(event(), "ntfy", "s3cret", "en", TOPIC)
    expected = hmac.new(b"s3cret", rendered.body, hashlib.sha256).hexdigest()
    assert rendered.headers[SIGNATURE_HEADER] == f"sha256={expected}"
    assert SIGNATURE_HEADER not in render(event(), "ntfy", None, "en", TOPIC).headers
