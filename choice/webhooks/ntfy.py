"""An event as an ntfy publish (`CHOICE_WEBHOOK_FORMAT=ntfy`): a push to a phone.

ntfy publishes a POST to the topic URL: the body is the message (plain text), headers carry
the rest (ntfy reads `X-Title`/`Title`, `X-Click`/`Click`, `X-Tags`/`Tags`,
`X-Priority`/`Priority`, `Authorization`). We send `Title`, `Click`, `Tags` and
`X-Priority`: `Priority` is also RFC 9218's header, which proxies in front of ntfy set
(`u=1, i`) and ntfy then ignores, and ntfy reads `X-Priority` first.

What a topic may hear. A topic on public ntfy.sh is readable by anyone who knows its name
(the name is the only password), and the server keeps messages for hours. So a push never
carries a credential: no participant's link (an invitation's `participants` give the
count only; each link lets its holder read, comment and vote), no token, no sign-in code.
`Click` is always the owner's page of the question (`/choice/<id>`), which opens only with
the owner's token or session: a stranger who reads the topic learns the id, not a way in.
The question's own words do go out (the title, the prompt's first lines, the options, the
newest comments, the outcome): that is what a push is for. A question that must stay
private needs a topic only its reader can read: a self-hosted ntfy, or a reserved topic
with a token in `CHOICE_WEBHOOK_URL` (README: "Push to a phone").

Credentials in the URL. `https://user:pass@host/topic` becomes `Authorization: Basic`,
`https://:tk_…@host/topic` (or `https://tk_…@host/topic`) `Authorization: Bearer tk_…`, and
ntfy's own `?auth=<base64url of the Authorization value>` is decoded the same way. Either
way the URL we POST to has no credentials left: what ends up in an error, a log or an audit
detail never holds them (`Target`'s repr hides the header too).

Header values must be latin-1 for HTTP, so a title is one line (newlines, tabs and other
controls flattened: untrusted text cannot add a header), and any title that is not plain
ASCII (or holds `=?`, which ntfy would decode) goes as RFC 2047 encoded words
(`=?utf-8?b?…?=`), which ntfy decodes. The body is UTF-8 and stays under ntfy's 4,096-byte
message limit (a longer one would arrive as an attachment). Pure: no network, no clock.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from choice.contract import WAITING_REASONS
from choice.contract.safe_text import closed_bidi
from choice.core.i18n import N_, Translator
from choice.webhooks.messages import Event, shortened
from choice.webhooks.wording import OUTCOME_WORDS, SOURCE_WORDS, said

TITLE_CHARS = 250
PROMPT_CHARS = 400
LINE_CHARS = 160
LISTED = 6
"""Options (or questions) a new question's push lists; the rest are counted."""
BODY_BYTES = 3_800
"""Under ntfy's default `message-size-limit` (4,096 bytes), headroom included."""
ENCODED_WORD_BYTES = 45
"""UTF-8 bytes per encoded word: 60 base64 characters, 72 in all (RFC 2047: at most 75)."""
AUTH_PARAMETERS = frozenset({"auth", "authorization"})
"""ntfy's query parameters for the Authorization header (`readAuthHeader`)."""
CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
TAGS = {"interaction.created": "question", "interaction.widened": "busts_in_silhouette",
        "discussion.comments": "speech_balloon", "interaction.deferred": "pause_button",
        "discussion_idle": "hourglass", "unopened": "bell", "deadline": "alarm_clock",
        "answered": "white_check_mark", "cancelled": "x", "timed_out": "hourglass"}
"""ntfy shows a tag that names an emoji as that emoji, before the title."""
PRIORITIES = {"deadline": "urgent", "unopened": "high"}
"""A question's last minute is urgent (ntfy's 5: a long vibration, a pop-over); a question
nobody opened is high (4); everything else is ntfy's default (3)."""


@dataclass(frozen=True)
class Target:
    """Where to POST (the topic URL, credentials removed) and the `Authorization` value."""

    url: str
    authorization: str | None = field(default=None, repr=False)
    unreadable_auth: bool = False
    """The URL's `auth` parameter was not base64 of an Authorization value: dropped."""


@dataclass(frozen=True)
class Push:
    title: str
    body: str
    tags: tuple[str, ...] = ()
    priority: str | None = None


# -- the URL -------------------------------------------------------------------------------
def target(url: str) -> Target:
    """`url` split into the topic URL and its credentials (userinfo or `?auth=`)."""
    parts = urlsplit(url)
    authorization = _from_userinfo(parts.username, parts.password)
    unreadable = False
    kept = []
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if name.lower() not in AUTH_PARAMETERS:
            kept.append((name, value))
            continue
        decoded = _auth_parameter(value)
        unreadable = decoded is None
        authorization = decoded or authorization
    host = parts.netloc.rpartition("@")[2]
    bare = urlunsplit((parts.scheme, host, parts.path, urlencode(kept), parts.fragment))
    return Target(bare, authorization, unreadable)


def _from_userinfo(username: str | None, password: str | None) -> str | None:
    user, secret = unquote(username or ""), unquote(password or "")
    if not user and not secret:
        return None
    if not user or (password is None and user.startswith("tk_")):
        return f"Bearer {secret or user}"  # ntfy's access token
    basic = base64.b64encode(f"{user}:{secret}".encode()).decode()
    return f"Basic {basic}"


def _auth_parameter(value: str) -> str | None:
    """ntfy's `auth`: base64 (URL-safe, unpadded) of the whole header value."""
    raw = value.strip().replace("+", "-").replace("/", "_").rstrip("=")
    try:
        decoded = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode("ascii").strip()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    scheme = decoded.split(" ", 1)[0].lower()
    return decoded if scheme in ("basic", "bearer") and decoded.isprintable() else None


# -- header-safe text ------------------------------------------------------------------------
def plain(text: str, limit: int) -> str:
    """Untrusted text as one line of at most `limit` characters: no control character (a
    newline would end the header), an open bidi override closed."""
    return shortened(CONTROLS.sub(" ", closed_bidi(text)), limit)


def header_value(text: str) -> str:
    """`text` (one line) as ASCII: as is when it is plain ASCII, else RFC 2047 encoded words."""
    if text.isascii() and text.isprintable() and "=?" not in text:
        return text
    words: list[bytes] = [b""]
    for char in text:
        encoded = char.encode()
        if len(words[-1]) + len(encoded) > ENCODED_WORD_BYTES:
            words.append(b"")
        words[-1] += encoded
    return " ".join(f"=?utf-8?b?{base64.b64encode(word).decode()}?=" for word in words if word)


def _ascii_url(url: str) -> str:
    """Our own link (the link base and an id), percent-encoded where it is not ASCII."""
    return quote(CONTROLS.sub("", url), safe=":/?#[]@!$&'()*+,;=%~")


def _fitted(body: str) -> str:
    encoded = body.encode()
    if len(encoded) <= BODY_BYTES:
        return body
    return encoded[: BODY_BYTES - 3].decode(errors="ignore").rstrip() + "…"


# -- the pushes -----------------------------------------------------------------------------
def _title(event: Event) -> str:
    return plain(event["question"]["title"], TITLE_CHARS)


def _prompt(event: Event) -> str:
    return plain(event["question"].get("prompt") or "", PROMPT_CHARS)


def _deadline(event: Event, _: Translator) -> str:
    return _("Deadline: {deadline}").format(deadline=event["question"]["expires_at"])


def _tally(event: Event, _: Translator) -> str:
    counted = [_("{label}: {votes}").format(label=plain(t["label"], LINE_CHARS), votes=t["votes"])
               for t in event.get("tally", [])]
    return _("Votes: {votes}").format(votes=_(", ").join(counted)) if counted else ""


def _listed(lines: list[str]) -> list[str]:
    shown = [f"• {line}" for line in lines[:LISTED]]
    return shown + (["• …"] if len(lines) > LISTED else [])


def _created(event: Event, _: Translator) -> Push:
    asked = [q["header"] or q["prompt"] for q in (event.get("whole") or {}).get("questions") or []]
    options = [_("{label} (recommended)").format(label=plain(o["label"], LINE_CHARS))
               if o.get("recommended") else plain(o["label"], LINE_CHARS)
               for o in event["question"]["options"]]
    lines = [plain(text, LINE_CHARS) for text in asked] or options
    body = [_prompt(event), _("Asked:") if asked else _("Options:"), *_listed(lines),
            _deadline(event, _)]
    return Push(_("New question: {title}").format(title=_title(event)),
                "\n".join(line for line in body if line), (TAGS[event["type"]],))


def _widened(event: Event, _: Translator) -> Push:
    """The invitation without the links: the count of people asked, never their links."""
    invited = len(event.get("participants") or [])
    note = (_("Note from the person asking: {note}").format(note=plain(event["note"], PROMPT_CHARS))
            if event.get("note") else "")
    body = [_prompt(event), note,
            _.ngettext("{n} teammate invited", "{n} teammates invited", invited).format(n=invited),
            _deadline(event, _)]
    return Push(_("Asked the team: {title}").format(title=_title(event)),
                "\n".join(line for line in body if line), (TAGS[event["type"]],))


def _comments(event: Event, _: Translator) -> Push:
    count = event["count"]
    what = _.ngettext("{n} new comment", "{n} new comments", count).format(n=count)
    lines = [f"{plain(c['author'], LINE_CHARS)}: {plain(c['text'], LINE_CHARS * 2)}"
             for c in event["comments"]]
    return Push(_("{comments} on {title}").format(comments=what, title=_title(event)),
                "\n".join(lines) or what, (TAGS[event["type"]],))


def _reminder(event: Event, _: Translator) -> Push:
    reason = str(event.get("reason") or "discussion_idle")
    title = _title(event)
    if reason == "deadline":
        line = _("{seconds} s left to answer {title}").format(seconds=event["seconds_left"],
                                                             title=title)
        body = _deadline(event, _)
    elif reason in WAITING_REASONS:
        line = _("Nobody has opened {title} for {minutes} min").format(
            title=title, minutes=event["waiting_minutes"])
        body = _deadline(event, _)
    else:
        line = _("No activity for {minutes} min on {title}").format(
            minutes=event["idle_minutes"], title=title)
        comments = _.ngettext("{n} comment", "{n} comments", event["comments"]).format(
            n=event["comments"])
        body = said(_("{opened} of {invited} opened their link, {voted} voted, {comments}.")
                    .format(opened=event["opened"], invited=event["participants"],
                            voted=event["voted"], comments=comments), _tally(event, _))
    return Push(_("Reminder: {line}").format(line=line), body, (TAGS[reason],),
                PRIORITIES.get(reason))


def _resolved(event: Event, _: Translator) -> Push:
    outcome = str(event["outcome"])
    labels = _(", ").join(plain(label, LINE_CHARS) for label in event["selected_labels"])
    title = _("{outcome}: {title}").format(outcome=_(OUTCOME_WORDS.get(outcome, N_("Closed"))),
                                           title=_title(event)) + (f" → {labels}" if labels else "")
    how = _(SOURCE_WORDS[str(event["source"])]) if event.get("source") in SOURCE_WORDS else ""
    if not how and event.get("decided_by") == "owner":
        how = _("Decided by the person asking.")
    tally = _tally(event, _)
    body = said(how, _("{votes}.").format(votes=tally) if tally else "",
                _("The discussion is closed."))
    return Push(title, body, (TAGS.get(outcome, "x"),))


def _deferred(event: Event, _: Translator) -> Push:
    why = _("Why: {rationale}").format(rationale=plain(event["rationale"], PROMPT_CHARS * 2))
    body = said(why, _("The person asking will take it up again later; the discussion stays open."),
                _tally(event, _))
    return Push(_("Deferred: {title}").format(title=_title(event)), body, (TAGS[event["type"]],))


PUSHES = {"interaction.created": _created, "interaction.widened": _widened,
          "discussion.comments": _comments, "interaction.reminder": _reminder,
          "interaction.resolved": _resolved, "interaction.deferred": _deferred}


def push(event: Event, language: str = "en") -> Push:
    """The event as a push, in the question's language (else `language`, the portal's)."""
    return PUSHES[event["type"]](event, Translator(event["question"].get("language") or language))


def publication(event: Event, language: str = "en") -> tuple[bytes, dict[str, str]]:
    """The body and ntfy's headers of the event's push (the caller adds ours and the
    credentials)."""
    message = push(event, language)
    headers = {"Content-Type": "text/plain; charset=utf-8",
               "Title": header_value(plain(message.title, TITLE_CHARS)),
               "Click": _ascii_url(event["question"]["url"]), "Tags": ",".join(message.tags)}
    if message.priority:
        headers["X-Priority"] = message.priority
    return _fitted(message.body).encode(), headers
