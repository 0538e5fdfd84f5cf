"""An event (`messages.py`) as the bytes and headers of one webhook POST, in the configured
format, signed when a secret is set.

- `json`: the event itself. With `CHOICE_WEBHOOK_SECRET`, `X-Choice-Signature-256:
  sha256=<hex>` is the HMAC-SHA256 of the exact body bytes under that secret (GitHub's
  scheme): the receiver recomputes it over the raw body before parsing it.
- `slack`: a Slack incoming-webhook message, `text` (the notification line) + `blocks`.
  Every piece of untrusted text (title, prompt, options, names, comments, notes) goes
  through `mrkdwn()`: Slack treats `&`, `<` and `>` as control characters, so escaping them
  is what stops a model or a participant from writing `<!channel>`, a `<@U…>` mention or a
  disguised `<https://evil|link>`. Link unfurling is off: Slack's crawler must not open a
  participant's capability link (it would count as the participant opening it).

Every POST carries `X-Choice-Event` (the event type) and `X-Choice-Delivery` (the event id,
the same on every retry). Pure: no network, no clock.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any

from choice.contract import WAITING_REASONS
from choice.contract.bidi import closed_bidi
from choice.webhooks.messages import Event, shortened

SIGNATURE_HEADER = "X-Choice-Signature-256"
SECTION_CHARS = 2_900
"""Slack refuses a section text over 3,000 characters."""
OUTCOME_WORDS = {"answered": "Decided", "cancelled": "Cancelled", "timed_out": "Timed out"}
SOURCE_WORDS = {
    "discussion_extraction": "Decided by the owner, from the summary of this discussion.",
    "owner_override": "Decided by the owner, who changed the discussion's summary materially.",
    "manual": "Decided by the owner, in their own words.",
    "quorum": "Decided by the team's quorum.",
}
"""`summary_json.source`, said for people (README: "The result" explains the rule)."""


@dataclass(frozen=True)
class Rendered:
    body: bytes
    headers: dict[str, str]


def signature(secret: str, body: bytes) -> str:
    """The `X-Choice-Signature-256` value for `body`."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def render(event: Event, fmt: str, secret: str | None) -> Rendered:
    payload = slack_message(event) if fmt == "slack" else event
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    headers = {"Content-Type": "application/json; charset=utf-8",
               "User-Agent": "choice-portal",
               "X-Choice-Event": str(event["type"]), "X-Choice-Delivery": str(event["id"])}
    if secret:
        headers[SIGNATURE_HEADER] = signature(secret, body)
    return Rendered(body, headers)


# -- Slack -------------------------------------------------------------------------------------
def mrkdwn(text: str) -> str:
    """Untrusted text, safe inside Slack mrkdwn: only `&`, `<`, `>` are special (Slack's
    own rule: encode those three and nothing else), and an open bidi override is closed."""
    return closed_bidi(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _link(url: str, label: str) -> str:
    """`<url|label>`; the url is ours (link base + id or secret), the label untrusted."""
    return f"<{mrkdwn(url)}|{mrkdwn(label)}>"


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text[:SECTION_CHARS]}}


def _packed(heading: str, lines: list[str]) -> list[dict[str, Any]]:
    """`lines` in as few sections as fit (a long team list would pass one section's limit)."""
    sections: list[str] = []
    current = heading
    for line in lines:
        if current and len(current) + 1 + len(line) > SECTION_CHARS:
            sections.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    return [_section(text) for text in [*sections, current] if text]


def _context(text: str) -> dict[str, Any]:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text[:SECTION_CHARS]}]}


def _title(event: Event) -> str:
    return mrkdwn(event["question"]["title"])


def _tally(event: Event) -> str:
    counted = [f"{mrkdwn(t['label'])}: {t['votes']}" for t in event.get("tally", [])]
    return "Votes: " + ", ".join(counted) if counted else ""


def _widened(event: Event) -> tuple[str, list[dict[str, Any]]]:
    question = event["question"]
    blocks = [_section(f"*{_title(event)}*\n{mrkdwn(shortened(question['prompt'], 500))}")]
    if event.get("note"):
        blocks.append(_section(f"Note from the owner: {mrkdwn(event['note'])}"))
    options = [f"• {mrkdwn(o['label'])}" + (" (recommended)" if o.get("recommended") else "")
               for o in question["options"]]
    if options:
        blocks.append(_section("\n".join(options)))
    people = [f"• {_link(p['link'], p['name'])}"
              + (f" ({mrkdwn(p['handle'])})" if p.get("handle") else "")
              for p in event["participants"]]
    blocks += _packed("Your personal link (read, comment, vote; do not share it):", people)
    waits = ("The agent waits for the decision." if event["mode"] == "block"
             else "The agent carries on meanwhile.")
    blocks.append(_context(f"{waits} Deadline: {question['expires_at']}"))
    return f"Your input is wanted: {_title(event)}", blocks


def _comments(event: Event) -> tuple[str, list[dict[str, Any]]]:
    count = event["count"]
    what = "1 new comment" if count == 1 else f"{count} new comments"
    blocks = [_section(f"*{what}* on {_title(event)}")]
    blocks += [_section(f"*{mrkdwn(c['author'])}*: {mrkdwn(c['text'])}")
               for c in event["comments"]]
    blocks.append(_context("Reply through your personal link from the invitation."))
    return f"{what} on {_title(event)}", blocks


def _reminder(event: Event) -> tuple[str, list[dict[str, Any]]]:
    if event.get("reason") in WAITING_REASONS:
        return _waiting(event)
    line = f"No activity for {event['idle_minutes']} min on {_title(event)}"
    blocks = [_section(f"*Reminder*: {line}. {_link(event['question']['url'], 'Decide')}"),
              _context(f"{event['opened']} of {event['participants']} opened their link, "
                       f"{event['voted']} voted, {event['comments']} comment(s). "
                       + _tally(event))]
    return f"Reminder: {line}", blocks


def _waiting(event: Event) -> tuple[str, list[dict[str, Any]]]:
    if event["reason"] == "deadline":
        line = f"{event['seconds_left']} s left to answer {_title(event)}"
    else:
        line = f"Nobody has opened {_title(event)} for {event['waiting_minutes']} min"
    blocks = [_section(f"*Reminder*: {line}. {_link(event['question']['url'], 'Answer it')}"),
              _context(f"Deadline: {event['question']['expires_at']}")]
    return f"Reminder: {line}", blocks


def _resolved(event: Event) -> tuple[str, list[dict[str, Any]]]:
    word = OUTCOME_WORDS.get(event["outcome"], "Closed")
    labels = ", ".join(mrkdwn(label) for label in event["selected_labels"])
    line = f"{word}: {_title(event)}" + (f" → {labels}" if labels else "")
    blocks = [_section(f"*{line}*")]
    how = SOURCE_WORDS.get(str(event.get("source")), "")
    if not how and event.get("decided_by") == "owner":  # answered without the write-back
        how = "Decided by the owner."
    if event.get("tally") or how:
        said = [how, _tally(event) + "." if event.get("tally") else "", "The discussion is closed."]
        blocks.append(_context(" ".join(part for part in said if part)))
    return line, blocks


def _deferred(event: Event) -> tuple[str, list[dict[str, Any]]]:
    line = f"Deferred: {_title(event)}"
    blocks = [_section(f"*{line}*\nWhy: {mrkdwn(event['rationale'])}"),
              _context("The owner will take it up again later; the discussion stays open. "
                       + _tally(event))]
    return line, blocks


def _created(event: Event) -> tuple[str, list[dict[str, Any]]]:
    question, whole = event["question"], event["whole"]
    asked = [q["header"] or q["prompt"] for q in whole["questions"] or []]
    lines = [f"• {mrkdwn(shortened(text, 80))}" for text in asked] or [
        f"• {mrkdwn(o['label'])}" + (" (recommended)" if o.get("recommended") else "")
        for o in question["options"]]
    blocks = [_section(f"*{_title(event)}*\n{mrkdwn(shortened(question['prompt'], 500))}")]
    blocks += _packed("Asked:" if asked else "Options:", lines)
    blocks.append(_context(f"{_link(question['url'], 'Answer it')}. Deadline: "
                           f"{question['expires_at']}"))
    return f"New question: {_title(event)}", blocks


RENDERERS = {"interaction.created": _created, "interaction.widened": _widened,
             "discussion.comments": _comments, "interaction.reminder": _reminder,
             "interaction.resolved": _resolved, "interaction.deferred": _deferred}


def slack_message(event: Event) -> dict[str, Any]:
    text, blocks = RENDERERS[event["type"]](event)
    return {"text": text, "blocks": blocks, "unfurl_links": False, "unfurl_media": False}
