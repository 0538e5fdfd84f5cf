"""`choice hook [claude|codex]`: one hook call, start to end.

Reads the payload on stdin, asks the portal (starting one unless
`CHOICE_HOOK_START_PORTAL=0`), waits up to `CHOICE_HOOK_WAIT_SECONDS` for the person, and
prints the decision. Every other way out is a fall-through: nothing on stdout, exit 0, one
line on stderr, and the agent shows its own dialog. The question it asked is withdrawn then
(`withdrawn`: "The agent no longer needs this: it asks in its own terminal now"), so nobody
answers a stale one; an answer that arrives while it is being withdrawn is still used,
never lost.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import IO, Any, NoReturn

from choice.client.connection import discover, ensure_started
from choice.client.errors import ClientError, PortalNotRunning, PortalRefused
from choice.client.portal_client import PortalClient
from choice.client.watch import OPEN_STATUSES
from choice.core.config import Settings
from choice.core.i18n import resolve_language, translator
from choice.hooks.decisions import decision_for
from choice.hooks.payload import BadPayload, HookPayload, WaitingNotice, read_payload
from choice.hooks.questions import question_for

WITHDRAWN = "nobody answered here in time; it asks in its own terminal now"
"""Why a question the hook stopped waiting for was withdrawn, as the person reads it."""
TIMEOUT_SLACK = 2
"""The question's own deadline is this much later than the hook's wait: the hook withdraws
it first, with the reason above, instead of the question timing out on its own."""
QUESTION_MIN_SECONDS = 10
"""The shortest deadline the portal takes (`TIMEOUT_MIN`): a shorter wait still asks."""


def run(agent: str | None, stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout) -> int:
    try:
        settings = Settings.from_env()
        payload = read_payload(stdin.read(), agent)
    except (BadPayload, SystemExit) as error:
        return fall_through(str(error))
    if isinstance(payload, WaitingNotice):
        return tell_pages(payload, settings)
    if settings.hook_tools and payload.tool not in settings.hook_tools:
        return 0  # not one the person sends to the portal: the agent's dialog, quietly
    try:
        client = connect(settings)
        output = ask(client, payload, settings)
    except ClientError as error:
        return fall_through(str(error))
    if output is None:
        return fall_through(f"no answer in the portal within {settings.hook_wait_seconds} s")
    stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
    stdout.flush()
    return 0


def main(agent: str | None) -> NoReturn:
    """`choice hook`: run, then end the process at once. The agent waits for it to end, and
    the interpreter's own shutdown (clearing modules, collecting) took 14 of the 17 ms from
    the answer to the exit: the decision is written and flushed, nothing else is left to
    do (bench/hook_bench.py)."""
    code = run(agent)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def fall_through(why: str) -> int:
    """Leave it to the agent's own dialog: nothing on stdout, and why on stderr."""
    print(f"choice hook: {why}; the agent asks in its own dialog", file=sys.stderr)
    return 0


def tell_pages(notice: WaitingNotice, settings: Settings) -> int:
    """A Notification hook: the portal's open pages say the agent waits at its prompt. No
    portal is started for it (nobody has a page open then), and it prints nothing: a
    Notification hook decides nothing."""
    client = discover(settings=settings).client()
    try:
        client.call("POST", "/api/agent-waiting", {
            "message": notice.message or notice.waiting_for, "agent": notice.agent_name,
            "project": Path(notice.cwd).name or None, "waiting_for": notice.waiting_for})
    except ClientError as error:
        print(f"choice hook: the portal's pages were not told ({error})", file=sys.stderr)
    return 0


def connect(settings: Settings) -> PortalClient:
    client = discover(settings=settings).client()
    if client.is_portal():
        return client
    if not settings.hook_start_portal:
        raise PortalNotRunning(settings.base_url, hint="CHOICE_HOOK_START_PORTAL=0")
    return ensure_started(settings.base_url).client()


def ask(client: PortalClient, payload: HookPayload, settings: Settings) -> dict[str, Any] | None:
    deadline = time.monotonic() + settings.hook_wait_seconds
    saved = client.settings().get("language")
    _ = translator(resolve_language(None, saved, settings.language))
    request = question_for(payload, _, max(QUESTION_MIN_SECONDS,
                                           settings.hook_wait_seconds + TIMEOUT_SLACK))
    interaction_id = client.create(request)["interaction_id"]
    reply: dict[str, Any] = {"status": "pending"}
    while reply.get("status") in OPEN_STATUSES and (left := deadline - time.monotonic()) > 0:
        reply = client.poll(interaction_id, wait=round(min(left, 60.0), 3), candidates=False)
    if reply.get("status") in (*OPEN_STATUSES, "deferred"):
        reply = withdraw(client, interaction_id)
    return decision_for(payload, reply)


def withdraw(client: PortalClient, interaction_id: str) -> dict[str, Any]:
    """Withdraw the question the agent's dialog now asks; if it ended meanwhile (an answer
    came in just now), that ending is the reply."""
    try:
        reply: dict[str, Any] = client.withdraw(interaction_id, WITHDRAWN)
    except PortalRefused as refused:
        if refused.status != 409:
            raise
        return client.poll(interaction_id, wait=0, candidates=False)
    return reply
