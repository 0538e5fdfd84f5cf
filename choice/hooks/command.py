"""`choice hook [claude|codex]`: one hook call, start to end.

A `PermissionRequest`: reads the payload on stdin, asks the portal (starting one unless
`CHOICE_HOOK_START_PORTAL=0`, or the team server `CHOICE_URL` names, never started), waits
up to `CHOICE_HOOK_WAIT_SECONDS` for the person, and prints the decision. Every other way
out is a fall-through: nothing on stdout, exit 0, one line on stderr, and the agent shows
its own dialog. The question it asked is withdrawn then (`WITHDRAWN`), so nobody answers a
stale one; an answer that arrives while it is being withdrawn is still used, never lost. A
call of the portal's own MCP tools is allowed at once: it is a question to the portal
already.

The agent shows its own dialog while the hook waits, and the person may answer there. The
agent's later events (`MovedOn`: the call ran, the turn ended, a new prompt, the session
ended) reach the portal through the same command, which withdraws the question they make
moot; the waiting hook then sees it withdrawn and ends. Neither these nor a `Notification`
start a portal: with none running there is nothing to tell.
"""

from __future__ import annotations

import json
import os
import sys
import time
from contextlib import suppress
from pathlib import Path
from typing import IO, Any

from choice.client.connection import discover, ensure_started
from choice.client.errors import REMOTE_HINT, ClientError, PortalNotRunning, PortalRefused
from choice.client.portal_client import PortalClient
from choice.client.watch import OPEN_STATUSES
from choice.core.config import Settings
from choice.core.i18n import SUPPORTED, translator
from choice.hooks.decisions import allowed, decision_for
from choice.hooks.payload import (
    BadPayload,
    HookPayload,
    MovedOn,
    WaitingNotice,
    input_sha256,
    read_payload,
)
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
    if isinstance(payload, MovedOn):
        return tell_moved_on(payload, settings)
    if payload.asks_the_portal:
        return decide(stdout, allowed())
    if settings.hook_tools and payload.tool not in settings.hook_tools:
        return 0  # not one the person sends to the portal: the agent's dialog, quietly
    try:
        client = connect(settings)
        output, reply = ask(client, payload, settings)
    except ClientError as error:
        return fall_through(str(error))
    if output is None:
        return fall_through(why_no_decision(reply, settings))
    return decide(stdout, output)


def decide(stdout: IO[str], output: dict[str, Any]) -> int:
    stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
    stdout.flush()
    return 0


def why_no_decision(reply: dict[str, Any], settings: Settings) -> str:
    status, reason = reply.get("status"), reply.get("withdrawn_reason")
    if status == "withdrawn" and reason and reason != WITHDRAWN:
        return f"the portal's question was withdrawn ({reason})"
    if status in ("answered", "cancelled", "timed_out"):
        return f"the portal's question ended {status}, with no decision for the agent"
    return f"no answer in the portal within {settings.hook_wait_seconds} s"


def main(agent: str | None) -> int:
    """`choice hook`: one call; its exit code (always 0: a decision or a fall-through)."""
    return run(agent)


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


def tell_moved_on(moved: MovedOn, settings: Settings) -> int:
    """The agent went on without the portal: the portal withdraws what that makes moot. No
    portal is started, nothing is printed (these events decide nothing), and a portal that
    cannot be reached is no error: then no question of this agent is open."""
    body: dict[str, Any] = {"conversation_id": moved.session_id[:200], "event": moved.event,
                            "agent": moved.agent_name}
    if moved.event == "tool_done":
        body.update(tool=moved.tool or None, tool_call_id=moved.tool_use_id or None,
                    tool_input_sha256=input_sha256(moved.tool_input))
    with suppress(ClientError):
        client = discover(settings=settings).client()
        body["seconds_ago"] = round(min(process_age(), 3600.0), 3)
        client.call("POST", "/api/agent-moved-on", body)
    return 0


def process_age() -> float:
    """Seconds since this process started, which the agent did when the event happened
    (Linux: from /proc; elsewhere 0, which only makes the portal's cut-off a little late)."""
    try:
        with open("/proc/self/stat", "rb") as stat, open("/proc/uptime", "rb") as uptime:
            started = int(stat.read().rsplit(b")", 1)[1].split()[19])  # field 22, in ticks
            return max(0.0, float(uptime.read().split()[0]) - started / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def connect(settings: Settings) -> PortalClient:
    connection = discover(settings=settings)
    client = connection.client()
    if client.is_portal():
        return client
    if connection.remote:  # a team server is never started from here
        raise PortalNotRunning(connection.base_url, hint=REMOTE_HINT)
    if not settings.hook_start_portal:
        raise PortalNotRunning(settings.base_url, hint="CHOICE_HOOK_START_PORTAL=0")
    return ensure_started(settings.base_url).client()


def ask(client: PortalClient, payload: HookPayload,
        settings: Settings) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The decision to print (None: fall through), and the question's last reply."""
    deadline = time.monotonic() + settings.hook_wait_seconds
    saved = client.settings().get("language")
    chosen = saved if saved in SUPPORTED else settings.language
    _ = translator(chosen or "en")
    request = question_for(payload, _, max(QUESTION_MIN_SECONDS,
                                           settings.hook_wait_seconds + TIMEOUT_SLACK))
    if chosen is None:  # nobody chose one: the page speaks the person's browser's language
        del request["language"]
    interaction_id = client.create(request)["interaction_id"]
    reply: dict[str, Any] = {"status": "pending"}
    while reply.get("status") in OPEN_STATUSES and (left := deadline - time.monotonic()) > 0:
        reply = client.poll(interaction_id, wait=round(min(left, 60.0), 3), candidates=False)
    if reply.get("status") in (*OPEN_STATUSES, "deferred"):
        reply = withdraw(client, interaction_id)
    return decision_for(payload, reply), reply


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
