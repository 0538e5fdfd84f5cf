"""`choice answer <id>`: load the question, pick the UI (curses on a terminal that can
show it, plain lines otherwise), run a `Session`, and print its one summary line.

Exit codes: 0 answered, 3 cancelled, 4 timed out, 5 continued in the browser, 6 left while
widened (the question stays open for the team), 7 deferred (here or elsewhere), 1 anything
else (no portal, unknown id, input ended; on a team server, another member's question
widened to you: its owner answers it, and the message gives the page where you take part).

On a team server (`CHOICE_URL`) the header also names the member this terminal answers as
(the token's, from `GET /api/me`) and the server.
"""

from __future__ import annotations

import curses
import os
import re
import sys
from dataclasses import replace
from typing import TextIO
from urllib.parse import urlsplit

from choice.client.portal_client import PortalClient, PortalError, PortalUnreachable
from choice.contract import UNRESOLVED_STATUSES
from choice.core.config import Settings
from choice.core.i18n import Translator, resolve_language, translator
from choice.terminal.live import Live
from choice.terminal.question import Question
from choice.terminal.session.endings import EXIT, outcome
from choice.terminal.session.questions import QuestionsSession
from choice.terminal.session.session import Session
from choice.terminal.text import safe_text

ID_SHAPE = re.compile(r"[A-Za-z0-9._~-]{1,64}")
"""What can name a question in the portal's URLs: anything else names none, and is not sent
(a space or a control character would not even make a request)."""


WIDENED_LOOKUP = 200
"""How many of the questions widened to you are looked through (the list's largest page)."""


def use_curses(plain: bool) -> bool:
    term = os.environ.get("TERM", "")
    return not plain and sys.stdin.isatty() and sys.stdout.isatty() and term not in ("", "dumb")


def answer(client: PortalClient, interaction_id: str, plain: bool = False,
           out: TextIO | None = None, settings: Settings | None = None) -> int:
    """Answer in this terminal; the summary line goes to `out` (stdout by default)."""
    out = out or sys.stdout
    settings = settings or Settings.from_env()
    if not ID_SHAPE.fullmatch(interaction_id):
        print("choice answer: " + unknown_question(interaction_id, person_translator(
            client, settings)), file=sys.stderr)
        return 1
    try:
        detail = client.detail(interaction_id)
        if detail["status"] not in UNRESOLVED_STATUSES:
            _ = translator(detail.get("language") or "en")
            line = _("Already finished elsewhere:") + " " + outcome(detail.get("result") or {}, _)
            several = bool(detail["request"].get("questions"))
            for part in line.split("\n") if several else [line]:  # several: a line for each
                print(safe_text(part, keep_newlines=False), file=out)
            return EXIT.get(detail["status"], 1)
        question = Question.from_detail(detail)
        if settings.remote_url is not None:
            question = replace(question, signed_in=signed_in(client))
        session = QuestionsSession(
            client, question, client.settings(), open_browser=settings.open_browser,
            placeholder_shown=bool(detail.get("placeholder_shown"))) \
            if question.request.several else \
            Session(client, question, client.settings(), open_browser=settings.open_browser)
        session.team.team_server = settings.remote_url is not None  # members by email
        client.opened(interaction_id, "terminal")
        if detail["status"] == "widened":
            session.team.refresh()
            session.decision.greet()
        if detail["status"] == "deferred" and not session.decision.deferred():
            print(f"choice answer: {session.state.message}", file=sys.stderr)
            return 1
    except (PortalError, PortalUnreachable) as error:
        message = "; ".join(str(e.get("message")) for e in error.errors) \
            if isinstance(error, PortalError) else str(error)
        if isinstance(error, PortalError) and error.status == 401 \
                and settings.remote_url is not None:
            message = str(error)  # with what to do: a new token in CHOICE_TOKEN
        if isinstance(error, PortalError) and error.status == 404:
            _ = person_translator(client, settings)
            message = (widened_to_me(client, interaction_id, _)
                       if settings.remote_url is not None else "") \
                or unknown_question(interaction_id, _)
        print(f"choice answer: {message}", file=sys.stderr)
        return 1
    ending = None
    live = Live(client, interaction_id)
    if use_curses(plain):
        os.environ.setdefault("ESCDELAY", "25")  # Esc cancels at once, not after a second
        try:
            ending = session.run_curses(live)
        except curses.error:
            ending = None  # a terminal curses cannot drive: fall back to plain lines
    if ending is None:  # prompts where the summary goes: stdout stays clean
        ending = session.run_plain(out, live)
    # model text: made safe; several questions' summary has a line for each
    for line in ending.line.split("\n") if question.request.several else [ending.line]:
        print(safe_text(line, keep_newlines=False), file=out)
    return ending.code


def signed_in(client: PortalClient) -> tuple[str, str] | None:
    """Team server: the member whose token this terminal uses (`GET /api/me`) and the
    server, made safe to draw; None when the portal does not say."""
    try:
        me = client.call("GET", "/api/me")
    except (PortalError, PortalUnreachable):
        return None
    email = me.get("email") if isinstance(me, dict) else None
    if not email:
        return None
    return (safe_text(str(email), keep_newlines=False),
            safe_text(urlsplit(client.base_url).netloc, keep_newlines=False))


def person_translator(client: PortalClient, settings: Settings) -> Translator:
    """The person's language before any question is loaded: saved, else CHOICE_LANG."""
    try:
        saved = client.settings().get("language")
    except (PortalError, PortalUnreachable):
        saved = None
    return translator(resolve_language(None, saved, settings.language))


def unknown_question(interaction_id: str, _: Translator) -> str:
    """An id no question has: say which id, and where the person finds the right one."""
    shown = safe_text(interaction_id[:64], keep_newlines=False)
    return _('no question has the id "{id}": `choice list` shows the open ones and their '
             "ids.").format(id=shown)


def widened_to_me(client: PortalClient, interaction_id: str, _: Translator) -> str:
    """Team server: a question another member widened to you is answered by its owner; you
    take part in its discussion signed in, on its page. Say so, with the page. '' for any
    other id: from your own list (`widened_to_me`), so someone else's question that was not
    widened to you gets the very "not found" a made-up id gets."""
    try:
        rows = client.list("all", WIDENED_LOOKUP).get("widened_to_me") or []
    except (PortalError, PortalUnreachable):
        return ""
    for row in rows:
        if row.get("interaction_id") == interaction_id:
            title = safe_text(str(row.get("title") or ""), keep_newlines=False)
            return _('"{title}" was widened to you by another member: its owner answers it, '
                     "and you take part signed in at {url}").format(
                title=title, url=f"{client.base_url}/widened/{interaction_id}")
    return ""
