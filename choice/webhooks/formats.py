"""An event (`messages.py`) as the bytes and headers of one webhook POST, in the configured
format, signed when a secret is set.

- `json`: the event itself. With `CHOICE_WEBHOOK_SECRET`, `X-Choice-Signature-256:
  sha256=<hex>` is the HMAC-SHA256 of the exact body bytes under that secret (GitHub's
  scheme): the receiver recomputes it over the raw body before parsing it.
- `slack`: a Slack incoming-webhook message, `text` (the notification line) + `blocks`,
  in the question's language (else the portal's: `render`'s `language`), through the
  catalogs like every text a person reads.
  Every piece of untrusted text (title, prompt, options, names, comments, notes) goes
  through `mrkdwn()`: Slack treats `&`, `<` and `>` as control characters, so escaping them
  is what stops a model or a participant from writing `<!channel>`, a `<@U…>` mention or a
  disguised `<https://evil|link>`. Link unfurling is off: Slack's crawler must not open a
  participant's capability link (it would count as the participant opening it).
- `ntfy`: a push to a phone through an ntfy topic (`ntfy.py`: plain text and ntfy's
  headers, never a participant's link, the URL's credentials moved into `Authorization`).

Every POST carries `X-Choice-Event` (the event type) and `X-Choice-Delivery` (the event id,
the same on every retry). Pure: no network, no clock.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from choice.contract import WAITING_REASONS
from choice.contract.safe_text import closed_bidi
from choice.core.i18n import N_, Translator
from choice.webhooks import ntfy
from choice.webhooks.messages import Event, shortened
from choice.webhooks.wording import OUTCOME_WORDS, SOURCE_WORDS
from choice.webhooks.wording import said as _said

SIGNATURE_HEADER = "X-Choice-Signature-256"
SECTION_CHARS = 2_900
"""Slack refuses a section text over 3,000 characters."""


@dataclass(frozen=True)
class Rendered:
    body: bytes
    headers: dict[str, str] = field(repr=False)
    """`repr=False`: an ntfy push's `Authorization` must not reach a log through a repr."""
    url: str = ""
    """Where to POST: the configured URL (ntfy's without the credentials it carried)."""


def signature(secret: str, body: bytes) -> str:
    """The `X-Choice-Signature-256` value for `body`."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def render(event: Event, fmt: str, secret: str | None, language: str = "en",
           url: str = "") -> Rendered:
    """The POST to `url` (the webhook's) in format `fmt`; `language`: the portal's, for a
    Slack message or an ntfy push about a question that names none."""
    headers = {"Content-Type": "application/json; charset=utf-8"}
    if fmt == "ntfy":
        topic = ntfy.target(url)
        body, headers = ntfy.publication(event, language)
        if topic.authorization:
            headers["Authorization"] = topic.authorization
        url = topic.url
    else:
        payload = slack_message(event, language) if fmt == "slack" else event
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
        url, authorization = basic_auth_out_of(url)
        if authorization:
            headers["Authorization"] = authorization
    headers |= {"User-Agent": "choice-portal",
                "X-Choice-Event": str(event["type"]), "X-Choice-Delivery": str(event["id"])}
    if secret:
        headers[SIGNATURE_HEADER] = signature(secret, body)
    return Rendered(body, headers, url)


def basic_auth_out_of(url: str) -> tuple[str, str | None]:
    """`https://user:pass@host/path` as the URL without its userinfo and the `Basic`
    Authorization it stood for (urllib cannot send a URL's userinfo itself: every attempt
    failed); any other URL as it is."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url, None
    pair = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}"
    host = parts.netloc.rpartition("@")[2]
    return (urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment)),
            "Basic " + base64.b64encode(pair.encode()).decode())


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


def _tally(event: Event, _: Translator) -> str:
    counted = [_("{label}: {votes}").format(label=mrkdwn(t["label"]), votes=t["votes"])
               for t in event.get("tally", [])]
    return _("Votes: {votes}").format(votes=_(", ").join(counted)) if counted else ""


def _option(option: dict[str, Any], _: Translator) -> str:
    label = mrkdwn(option["label"])
    return "• " + (_("{label} (recommended)").format(label=label) if option.get("recommended")
                   else label)


def _widened(event: Event, _: Translator) -> tuple[str, list[dict[str, Any]]]:
    question = event["question"]
    blocks = [_section(f"*{_title(event)}*\n{mrkdwn(shortened(question['prompt'], 500))}")]
    if event.get("note"):
        note = _("Note from the person asking: {note}").format(note=mrkdwn(event["note"]))
        blocks.append(_section(note))
    options = [_option(o, _) for o in question["options"]]
    if options:
        blocks.append(_section("\n".join(options)))
    people = [f"• {_link(p['link'], p['name'])}"
              + (f" ({mrkdwn(p['handle'])})" if p.get("handle") else "")
              for p in event["participants"]]
    blocks += _packed(_("Your personal link (read, comment, vote; do not share it):"), people)
    waits = (_("The agent waits for the decision.") if event["mode"] == "block"
             else _("The agent carries on meanwhile."))
    blocks.append(_context(_said(waits, _("Deadline: {deadline}").format(
        deadline=question["expires_at"]))))
    return _("Your input is wanted: {title}").format(title=_title(event)), blocks


def _comments(event: Event, _: Translator) -> tuple[str, list[dict[str, Any]]]:
    count = event["count"]
    what = _.ngettext("{n} new comment", "{n} new comments", count).format(n=count)
    blocks = [_section(_("{comments} on {title}").format(comments=f"*{what}*",
                                                          title=_title(event)))]
    blocks += [_section(f"*{mrkdwn(c['author'])}*: {mrkdwn(c['text'])}")
               for c in event["comments"]]
    blocks.append(_context(_("Reply through your personal link from the invitation.")))
    return _("{comments} on {title}").format(comments=what, title=_title(event)), blocks


def _reminder(event: Event, _: Translator) -> tuple[str, list[dict[str, Any]]]:
    if event.get("reason") in WAITING_REASONS:
        return _waiting(event, _)
    line = _("No activity for {minutes} min on {title}").format(
        minutes=event["idle_minutes"], title=_title(event))
    comments = _.ngettext("{n} comment", "{n} comments", event["comments"]).format(
        n=event["comments"])
    blocks = [_section(_("*Reminder*: {line}. {link}").format(
                  line=line, link=_link(event["question"]["url"], _("Decide")))),
              _context(_said(_("{opened} of {invited} opened their link, {voted} voted, "
                               "{comments}.").format(
                  opened=event["opened"], invited=event["participants"],
                  voted=event["voted"], comments=comments), _tally(event, _)))]
    return _("Reminder: {line}").format(line=line), blocks


def _waiting(event: Event, _: Translator) -> tuple[str, list[dict[str, Any]]]:
    if event["reason"] == "deadline":
        line = _("{seconds} s left to answer {title}").format(
            seconds=event["seconds_left"], title=_title(event))
    else:
        line = _("Nobody has opened {title} for {minutes} min").format(
            title=_title(event), minutes=event["waiting_minutes"])
    blocks = [_section(_("*Reminder*: {line}. {link}").format(
                  line=line, link=_link(event["question"]["url"], _("Answer it")))),
              _context(_("Deadline: {deadline}").format(
                  deadline=event["question"]["expires_at"]))]
    return _("Reminder: {line}").format(line=line), blocks


def _resolved(event: Event, _: Translator) -> tuple[str, list[dict[str, Any]]]:
    word = _(OUTCOME_WORDS.get(event["outcome"], N_("Closed")))
    labels = _(", ").join(mrkdwn(label) for label in event["selected_labels"])
    line = _("{outcome}: {title}").format(outcome=word, title=_title(event)) \
        + (f" → {labels}" if labels else "")
    blocks = [_section(f"*{line}*")]
    how = _(SOURCE_WORDS[str(event["source"])]) if event.get("source") in SOURCE_WORDS else ""
    if not how and event.get("decided_by") == "owner":  # answered without the write-back
        how = _("Decided by the person asking.")
    if event.get("tally") or how:
        tally = _tally(event, _)
        blocks.append(_context(_said(how, _("{votes}.").format(votes=tally) if tally else "",
                                     _("The discussion is closed."))))
    return line, blocks


def _deferred(event: Event, _: Translator) -> tuple[str, list[dict[str, Any]]]:
    line = _("Deferred: {title}").format(title=_title(event))
    why = _("Why: {rationale}").format(rationale=mrkdwn(event["rationale"]))
    blocks = [_section(f"*{line}*\n{why}"),
              _context(_said(_("The person asking will take it up again later; the discussion "
                               "stays open."), _tally(event, _)))]
    return line, blocks


def _created(event: Event, _: Translator) -> tuple[str, list[dict[str, Any]]]:
    question, whole = event["question"], event["whole"]
    asked = [q["header"] or q["prompt"] for q in whole["questions"] or []]
    lines = [f"• {mrkdwn(shortened(text, 80))}" for text in asked] or [
        _option(o, _) for o in question["options"]]
    blocks = [_section(f"*{_title(event)}*\n{mrkdwn(shortened(question['prompt'], 500))}")]
    blocks += _packed(_("Asked:") if asked else _("Options:"), lines)
    blocks.append(_context(_said(_link(question["url"], _("Answer it")) + ".",
                                 _("Deadline: {deadline}").format(
                                     deadline=question["expires_at"]))))
    return _("New question: {title}").format(title=_title(event)), blocks


RENDERERS = {"interaction.created": _created, "interaction.widened": _widened,
             "discussion.comments": _comments, "interaction.reminder": _reminder,
             "interaction.resolved": _resolved, "interaction.deferred": _deferred}


def slack_message(event: Event, language: str = "en") -> dict[str, Any]:
    """The event as a Slack message, in the question's language (else `language`)."""
    translator = Translator(event["question"].get("language") or language)
    text, blocks = RENDERERS[event["type"]](event, translator)
    return {"text": text, "blocks": blocks, "unfurl_links": False, "unfurl_media": False}
