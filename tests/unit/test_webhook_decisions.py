"""The webhook's words for a decision written back and for a deferral: the Slack message
says who decided and from what, and why a question was set aside, with every piece of
untrusted text escaped."""

from __future__ import annotations

from typing import Any

import pytest

from choice.webhooks.formats import render, slack_message
from choice.webhooks.wording import SOURCE_WORDS
from tests.unit.test_webhook_formats import HOSTILE, OUR_LINK, event, mrkdwn_texts

TALLY = [{"option_id": "a", "label": HOSTILE, "votes": 2}]


def resolved(**fields: Any) -> dict[str, Any]:
    return event("interaction.resolved", outcome="answered", selected_labels=[HOSTILE],
                 tally=TALLY, **fields)


@pytest.mark.parametrize("source", sorted(SOURCE_WORDS))
def test_a_resolution_says_where_the_answer_came_from(source: str) -> None:
    decided_by = "quorum" if source == "quorum" else "owner"
    message = slack_message(resolved(decided_by=decided_by, source=source))
    context = message["blocks"][-1]["elements"][0]["text"]
    assert context.startswith(SOURCE_WORDS[source]) and "The discussion is closed." in context


def test_an_answer_outside_the_write_back_says_only_who_decided() -> None:
    context = slack_message(resolved(decided_by="owner", source=None))["blocks"][-1]
    assert context["elements"][0]["text"].startswith("Decided by the person asking. Votes:")
    timed_out = slack_message(event("interaction.resolved", outcome="timed_out",
                                    selected_labels=[], tally=[], decided_by=None, source=None))
    assert timed_out["text"].startswith("Timed out:")
    assert [b["type"] for b in timed_out["blocks"]] == ["section"]  # nobody decided


def test_a_deferral_says_why_and_that_the_discussion_stays_open() -> None:
    message = slack_message(event("interaction.deferred", rationale="Budget first.",
                                  tally=TALLY))
    assert message["text"].startswith("Deferred: ")
    assert "Why: Budget first." in message["blocks"][0]["text"]["text"]
    assert "the discussion stays open" in message["blocks"][1]["elements"][0]["text"]
    assert render(event("interaction.deferred", rationale="x", tally=[]), "json",
                  None).headers["X-Choice-Event"] == "interaction.deferred"


def test_no_hostile_rationale_or_label_opens_a_control_sequence() -> None:
    for message in (slack_message(event("interaction.deferred", rationale=HOSTILE, tally=TALLY)),
                    slack_message(resolved(decided_by="owner", source="owner_override"))):
        for text in mrkdwn_texts(message):
            assert "<" not in OUR_LINK.sub("", text) and ">" not in OUR_LINK.sub("", text), text
        assert message["unfurl_links"] is False
