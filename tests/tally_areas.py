"""What each row of the hardening tables means: its suite and what the suite tries there,
as the docs show it (docs/security.md, docs/reliability.md). A `{name}` (or `{name:,}`) in a
description is a fact the tests counted in this run (`Seen.fact` in `tests/tally.py`):
rounds, cycles, bridges, so the docs never quote a number the code does not run. Owns the
words only; the figures come from the run.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Area:
    suite: str
    """"security" or "reliability"."""
    what: str
    """What the suite tries, with `{fact}` fields."""
    answers: bool = True
    """Reliability only: False where no answers are given (the column shows "–")."""


def security(what: str) -> Area:
    return Area("security", what)


def reliability(what: str, *, answers: bool = True) -> Area:
    return Area("reliability", what, answers)


AREAS: dict[str, Area] = {
    "Host allowlist": security(
        "foreign and rebinding `Host` values on pages, API, both sockets and `/mcp`"),
    "Origin / fetch metadata": security(
        "foreign, `null` and malformed `Origin`, `Sec-Fetch-Site: cross-site`, on {writes} kinds "
        "of write, with cookie and with token"),
    "WebSocket origin": security("handshakes from other origins, refused before accept"),
    "Sockets": security(
        "messages over 4 KiB (text, binary, fragmented, multi-byte) on participant and owner "
        "sockets: 1009 (or a reset, to a client still sending); {extra_pages} pages of one "
        "link beyond 8, a tab beyond a session's cap: the oldest closed (4409); a "
        "participant's socket once its question ended (4410) or its link was withdrawn "
        "(4404); a link's handshake past {handshakes} a 10 s: refused before it is looked "
        "up (403)"),
    "Credentials": security(
        "no, wrong, empty, foreign or query-string token on every `/api` route and `/mcp`; "
        "made-up sessions and the old release's fixed cookie; reused one-time codes"),
    "Anonymous health check": security(
        "`/healthz` with no token, a wrong one, a participant's link as the token, the token "
        "in the query, a forged cookie: `ok` and that it is a choice portal, nothing else"),
    "Open redirect": security("`next` values that try to leave the portal"),
    "Slow clients": security(
        "{bodies} requests that trickle a body (API, form, `/mcp`): 408 once the body is "
        "30 s late; nothing stored, everyone else served (a trickled head is the reverse "
        "proxy's to cut off)"),
    "Media type": security("form, multipart, text and missing content types on the API"),
    "Body limits": security(
        "over 256 KiB (with and without Content-Length), {options} options, nesting "
        "{shallow:,} and {deep:,} deep"),
    "Field limits": security(
        "{characters:,} characters in every limited field, by API and by the page's form"),
    "Protective headers": security(
        "CSP, `nosniff`, `no-referrer` on pages, JSON, every error status, static files, "
        "`/healthz`, `/schema`"),
    "GET is safe": security(
        "GET and HEAD on every page, API and action URL, with prefetch headers"),
    "Static traversal": security(
        "`../`, encoded, double-encoded, backslash and absolute paths"),
    "Hostile text in the browser": security(
        "`<script>`, `<img onerror>`, `<svg onload>`, `javascript:` and `data:` links, template "
        "syntax, U+2028, RTL override, NUL, in every field of every mode, on the question, "
        "outcome and list pages and over the live socket; no script runs, no element is "
        "injected"),
    "Hostile text in the terminal": security(
        "colour, title, clear-screen, cursor, OSC 8, C1, BEL, bidi and NUL sequences in every "
        "field, in the curses UI, `--plain` and `choice list`"),
    "Team: link vs owner routes": security(
        "a participant's link (its cookies, the secret as bearer token, as the owner's cookie, "
        "its stored hash, `?token=`) on every owner route the app has, every method, sockets "
        "and `/mcp` included: 401/403/404, never the owner's cookie"),
    "Team: public origin": security(
        "behind a TLS proxy (`CHOICE_PUBLIC_URL`): other sites, the public name's `http://` "
        "twin and other ports, look-alike names, the public origin written as no browser "
        "writes it, on every write route and socket the app has"),
    "Team: secrets stored and logged": security(
        "each link looked for in every table, the audit trail and the portal's log"),
    "Team: unknown-link oracle": security(
        "random, off-by-one, withdrawn, hashed, short, long, encoded links: the same 404 body"),
    "Team: comments": security(
        "over 4,000 characters, blank, 21st in a minute (429), hostile text kept verbatim as "
        "JSON"),
    "Team: participant origin": security("comments and votes from foreign origins"),
    "Team: link scope": security(
        "naming another question through `/api/d` (query, body, path, traversal)"),
    "Team: bad widen input": security(
        "unknown or ended question, widening twice, empty audience, control, bidi and comma "
        "in names, long names, timeout out of range"),
    "Team: protective headers": security(
        "every `/api/d` answer, 200 to 429: CSP, `nosniff`, `no-referrer`, `no-store`"),
    "Team: link revocation": security(
        "writes after the question ended (409, outcome still readable) or the link was "
        "withdrawn (404)"),
    "Team: votes": security(
        "unknown, duplicate, too many and mistyped option ids; a question with no options; the "
        "11th change in a minute (429); a burst of changes kept as one audit row"),
    "Team: participants' share": security(
        "participants' pages, API calls, comments and sockets while their queue is full: "
        "503 with `Retry-After` (a socket: 1013), nothing stored, the owner's page, API and "
        "socket served as usual"),
    "Sessions": security(
        "logged-out and run-out sessions; sessions, sign-in codes and the token after "
        "`choice token --rotate`; the plain cookie on the public https host; logout from "
        "other sites: each on a page, the API and the socket; a renewed cookie on a "
        "cacheable response"),
    "Secrets in logs": security(
        "`/login?token=` and `?code=` (right, wrong, used, re-encoded names) and the start-up "
        "banner: the token and every code looked for in the portal's own log"),
    "Secrets on disk": security(
        "after an invitation was delivered or given up on, each link and its secret looked "
        "for in the bytes of every file of the data dir, the database's `-wal` and `-shm` "
        "included"),
    "Team: long discussions": security(
        "a {comments}-comment thread read through every cursor of the API (50 a reply) and every "
        "\"Show earlier\" of both pages (20 a page); {events} audit events (200 a reply); the "
        "101st comment of a link and the 501st of a question (409); malformed cursors and "
        "limits (422)"),

    "Concurrent submits": reliability(
        "{answers_at_once} answers released at once on one question, in {answer_rounds} "
        "rounds; {mixed_at_once} answers and cancels at once, in {cancel_rounds} rounds: "
        "exactly one 200, the rest 409, the stored result is the winner's"),
    "Answer vs deadline": reliability(
        "{answers} answers fired from {ms_before} ms before to {ms_after} ms after their "
        "deadline: one terminal state each, the reply agrees with what is stored and with a "
        "waiting poller"),
    "kill -9 during writes": reliability(
        "{cycles} cycles of creates and answers from {threads} threads, `kill -9` at a random "
        "point: `PRAGMA integrity_check` ok, every acknowledged create and answer present, "
        "pending ones back with the same deadline"),
    "kill -9 during writes (PostgreSQL)": reliability(
        "the same cycle on a PostgreSQL database, {cycles} cycles"),
    "Two instances on PostgreSQL": reliability(
        "an answer on one wakes the other's agent; a dead instance's agent and deadline are "
        "served by the other; {submits} submits split across both: one winner; the LISTEN "
        "connection dropped mid-wait: no lost wake-up"),
    "Agent disconnects mid-wait": reliability(
        "HTTP long-polls closed and reset, MCP calls cancelled and dropped: still pending, the "
        "answer reaches the next poll"),
    "Schemathesis (OpenAPI)": reliability(
        "generated requests for every operation and walks along the OpenAPI links: no 5xx, "
        "every response as documented", answers=False),
    "State machine": reliability(
        "Hypothesis over create / answer / cancel / expire / restart ({examples} machines "
        "run), invariants checked after every step"),
    "First start race": reliability(
        "{bridges} `choice mcp` bridges started at once on a new data dir, {rounds} rounds: one "
        "portal serves, one token, the schema made once, every request of every bridge "
        "answered"),
    "Many waiters": reliability(
        "{waits:,} long-polls and {sockets:,} countdown sockets open at once, then all answered: "
        "each gets its own answer; file descriptors back to baseline"),
    "Restart mid discussion": reliability(
        "a portal stopped and one killed (`kill -9`) in a widened discussion while the webhook "
        "receiver is down: participants, comments, votes and links are all there after the "
        "restart, and every queued webhook message is delivered once"),
    "kill -9 mid review": reliability(
        "`kill -9` while a review waits for the agent's candidate and after one came in: the "
        "review comes back as it was and the fallback fires on the original clock"),
}
