"""The webhook's pure parts: events, Slack escaping, the signature, the retry policy, and
when a reminder is due."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
from typing import Any

from choice.store.records import Comment, Widening
from choice.team.reminders import is_due
from choice.webhooks.formats import SIGNATURE_HEADER, mrkdwn, render, slack_message
from choice.webhooks.messages import COMMENT_CHARS, NEWEST_COMMENTS, add_comment
from choice.webhooks.sender import Reply, RetryPolicy

HOSTILE = "<!channel> & <@U123> <https://evil.example|click me> \u202eevil"


def event(kind: str = "interaction.widened", **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "d" * 32, "type": kind, "at": "2026-01-01T00:00:00.000Z",
        "question": {"interaction_id": "abc", "title": HOSTILE, "prompt": HOSTILE,
                     "options": [{"id": "a", "label": HOSTILE, "recommended": True}],
                     "expires_at": "2026-01-01T01:00:00.000Z",
                     "url": "https://choice.example/choice/abc"},
        "mode": "block", "note": HOSTILE,
        "participants": [{"name": HOSTILE, "handle": HOSTILE,
                          "link": "https://choice.example/d/" + "s" * 32}],
    }
    base.update(fields)
    return base


def mrkdwn_texts(message: dict[str, Any]) -> list[str]:
    texts = [message["text"]]
    for block in message["blocks"]:
        if "text" in block:
            texts.append(block["text"]["text"])
        texts += [element["text"] for element in block.get("elements", [])]
    return texts


OUR_LINK = re.compile(r"<https://choice\.example/(?:d|choice)/[A-Za-z0-9_-]+\|[^<>]*>")


def test_mrkdwn_escapes_exactly_slacks_three_control_characters() -> None:
    assert mrkdwn("a & b <c> 'd' \"e\" *f*") == "a &amp; b &lt;c&gt; 'd' \"e\" *f*"


def test_mrkdwn_closes_an_open_right_to_left_override() -> None:
    assert mrkdwn("\u202eevil").endswith("\u202c")


def test_no_slack_message_lets_untrusted_text_open_a_control_sequence() -> None:
    comments = {"count": 1, "comments": [{"author": HOSTILE, "text": HOSTILE, "at": "x"}]}
    reminder = {"idle_minutes": 61, "opened": 0, "participants": 1, "voted": 0, "comments": 0,
                "tally": [{"option_id": "a", "label": HOSTILE, "votes": 1}]}
    resolved = {"outcome": "answered", "selected_labels": [HOSTILE],
                "tally": [{"option_id": "a", "label": HOSTILE, "votes": 1}]}
    several = {"whole": {"questions": [{"header": None, "prompt": HOSTILE}]}}
    for message in (slack_message(event()), slack_message(event("discussion.comments", **comments)),
                    slack_message(event("interaction.created", whole={"questions": None})),
                    slack_message(event("interaction.created", **several)),
                    slack_message(event("interaction.reminder", **reminder)),
                    slack_message(event("interaction.reminder", reason="unopened",
                                        waiting_minutes=15)),
                    slack_message(event("interaction.reminder", reason="deadline",
                                        seconds_left=59)),
                    slack_message(event("interaction.resolved", **resolved))):
        for text in mrkdwn_texts(message):
            assert "<" not in OUR_LINK.sub("", text) and ">" not in OUR_LINK.sub("", text), text
            assert "<!channel>" not in text and "<@U123>" not in text
        assert message["unfurl_links"] is False and message["unfurl_media"] is False


def test_the_slack_invitation_links_each_participant_by_name() -> None:
    texts = "\n".join(mrkdwn_texts(slack_message(event())))
    assert f"<https://choice.example/d/{'s' * 32}|&lt;!channel&gt; &amp; " in texts


def test_a_long_team_list_is_split_into_sections_slack_accepts() -> None:
    people = [{"name": f"Person {i} " + "&" * 90, "handle": None,
               "link": f"https://choice.example/d/{i:032d}"} for i in range(100)]
    message = slack_message(event(participants=people))
    sections = [b["text"]["text"] for b in message["blocks"] if b["type"] == "section"]
    assert all(len(text) <= 3000 for text in sections) and len(message["blocks"]) <= 50
    assert sum(text.count("https://choice.example/d/") for text in sections) == 100


def test_the_json_signature_is_the_hmac_of_the_exact_body() -> None:
    rendered = render(event(), "json", "s3cret")
    expected = hmac.new(b"s3cret", rendered.body, hashlib.sha256).hexdigest()
    assert rendered.headers[SIGNATURE_HEADER] == f"sha256={expected}"
    assert rendered.headers["X-Choice-Event"] == "interaction.widened"
    assert rendered.headers["X-Choice-Delivery"] == "d" * 32
    assert json.loads(rendered.body) == event()


def test_without_a_secret_nothing_is_signed() -> None:
    assert SIGNATURE_HEADER not in render(event(), "json", None).headers


def test_coalesced_comments_keep_the_count_and_only_the_newest_texts_shortened() -> None:
    merged = event("discussion.comments", count=0, comments=[])
    for i in range(5):
        merged = add_comment(merged, Comment("abc", f"P{i}", f"{i} " + "x" * 1000, at=float(i)))
    assert merged["count"] == 5
    assert [c["author"] for c in merged["comments"]] == [f"P{i}" for i in range(5)][-NEWEST_COMMENTS:]
    assert all(len(c["text"]) <= COMMENT_CHARS and c["text"].endswith("…")
               for c in merged["comments"])


def test_backoff_doubles_its_ceiling_up_to_the_cap_with_full_jitter() -> None:
    policy, rng = RetryPolicy(base=2.0, cap=600.0), random.Random(7)
    for attempt, ceiling in ((1, 2.0), (2, 4.0), (5, 32.0), (10, 600.0), (40, 600.0)):
        delays = [policy.backoff(attempt, rng) for _ in range(400)]
        assert min(delays) >= 0 and max(delays) <= ceiling
        assert min(delays) < ceiling * 0.1 and max(delays) > ceiling * 0.9  # spread, not fixed


def test_the_policy_gives_up_after_max_attempts_or_max_age() -> None:
    policy = RetryPolicy(base=1.0, cap=10.0, max_attempts=3, max_age=100.0)
    assert policy.next_attempt(created_at=0, attempt=2, at=5) is not None
    assert policy.next_attempt(created_at=0, attempt=3, at=5) is None
    assert policy.next_attempt(created_at=0, attempt=1, at=100.5) is None


def test_only_a_lasting_refusal_is_final() -> None:
    assert Reply(404, None, 0).final and Reply(400, None, 0).final and Reply(301, None, 0).final
    for later in (Reply(500, None, 0), Reply(429, None, 0), Reply(408, None, 0),
                  Reply(None, "ConnectionRefusedError", 0)):
        assert not later.final and not later.ok


def test_a_reminder_is_due_once_per_idle_period() -> None:
    widening = Widening("abc", "block", widened_at=0, widened_by="owner", last_activity_at=0)
    assert not is_due(widening, 3600, 3599) and is_due(widening, 3600, 3600)
    widening.reminded_at = 3600
    assert not is_due(widening, 3600, 99_999)  # no new activity since the reminder
    widening.last_activity_at = 4000
    assert not is_due(widening, 3600, 7599) and is_due(widening, 3600, 7600)


def test_a_new_question_in_slack_lists_its_options_or_its_questions_and_links_the_page() -> None:
    one = slack_message(event("interaction.created", whole={"questions": None}))
    assert one["text"].startswith("New question: ")
    texts = "\n".join(mrkdwn_texts(one))
    assert "Options:" in texts and "(recommended)" in texts
    assert "<https://choice.example/choice/abc|Answer it>" in texts
    several = slack_message(event("interaction.created", whole={"questions": [
        {"header": "Database", "prompt": "Which?"}, {"header": None, "prompt": "Why so?"}]}))
    assert "Asked:\n• Database\n• Why so?" in "\n".join(mrkdwn_texts(several))


def test_a_waiting_question_s_reminder_in_slack_says_why_and_links_the_page() -> None:
    unopened = slack_message(event("interaction.reminder", reason="unopened", waiting_minutes=30))
    assert unopened["text"].startswith("Reminder: Nobody has opened ")
    assert unopened["text"].endswith(" for 30 min")
    assert "<https://choice.example/choice/abc|Answer it>" in unopened["blocks"][0]["text"]["text"]
    deadline = slack_message(event("interaction.reminder", reason="deadline", seconds_left=59))
    assert deadline["text"].startswith("Reminder: 59 s left to answer ")


def _chinese(text: str) -> str:
    """`text` with our own English-free parts kept: titles, links and labels taken out."""
    return re.sub(r"<[^>]*>|&[a-z]+;|[\u202a-\u202e\u2066-\u2069]", "", text.replace(
        mrkdwn(HOSTILE), "")).replace("2026-01-01T01:00:00.000Z", "")


def test_slack_speaks_the_questions_language_else_the_portals() -> None:
    zh = event("interaction.resolved", outcome="answered", selected_labels=["SQLite"],
               decided_by="owner", source="discussion_extraction",
               tally=[{"label": "SQLite", "votes": 2}])
    zh["question"]["language"] = "zh"
    message = slack_message(zh, "en")
    assert message["text"].startswith("已决定：")
    context = message["blocks"][1]["elements"][0]["text"]
    assert context == "由提问者根据这次讨论的总结决定。投票：SQLite：2。讨论已关闭。"
    invitation = event()  # no language of its own: the portal's
    texts = "\n".join(mrkdwn_texts(slack_message(invitation, "zh")))
    assert "你的个人链接" in texts and "智能体在等待决定。截止时间：" in texts
    assert not re.search(r"[A-Za-z]{3,}", _chinese(texts).replace("choice.example", ""))
    english = "\n".join(mrkdwn_texts(slack_message(invitation)))
    assert "Your personal link" in english and "The agent waits for the decision." in english


def test_a_reminder_counts_comments_with_a_plural_not_a_bracketed_s() -> None:
    one = slack_message(event("interaction.reminder", reason="discussion_idle", idle_minutes=30,
                              opened=1, participants=2, voted=0, comments=1, tally=[]))
    said = one["blocks"][1]["elements"][0]["text"]
    assert said == "1 of 2 opened their link, 0 voted, 1 comment."
    assert "(s)" not in json.dumps(one)


def test_a_url_s_user_and_password_go_as_basic_auth_and_leave_the_url() -> None:
    """urllib cannot send a URL's userinfo: a webhook behind basic auth failed every try."""
    for fmt in ("json", "slack"):
        rendered = render(event(), fmt, None, url="https://bot:p%40ss@hooks.example/in?x=1")
        assert rendered.url == "https://hooks.example/in?x=1"
        assert rendered.headers["Authorization"] == "Basic Ym90OnBAc3M="  # bot:p@ss
        assert "p@ss" not in repr(rendered)
    plain = render(event(), "json", None, url="https://hooks.example/in")
    assert plain.url == "https://hooks.example/in" and "Authorization" not in plain.headers
