"""The `kill -9` cycle shared by `test_kill9.py` and `bench/kill9_bench.py`.

One cycle on a running portal: a question whose deadline will pass around the restart, then
client threads streaming creates and submits until the portal is killed at a random moment.
The database file is checked (`PRAGMA integrity_check`, every acknowledged change present,
every change whose reply was lost either absent or whole), the portal restarts on the same
data dir, and the API must agree. A `Ledger` carries what the clients were told across
cycles. Nothing here asserts: checks return what they found, so a test can assert and the
bench can count.
"""

from __future__ import annotations

import itertools
import json
import random
import sqlite3
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

from choice.client.portal_client import PortalClient
from choice.contract.clock import iso, parse_iso
from choice.instances.relay import libpq_url
from tests.portal_process import PortalProcess
from tests.reliability.faults import ReplyLost, question, send

OPTIONS = ("a", "b", "c", "d")
DAY = 86_400
KILL9_ENV = {"CHOICE_MAX_SESSIONS": "1000000"}
"""Retention must not delete the answered interactions a kill test goes on checking."""


@dataclass
class Ledger:
    """What the clients were told, across every cycle on one data dir."""

    created: dict[str, str] = field(default_factory=dict)
    """Acknowledged creates: id -> `expires_at` as the 201 said."""
    answered: dict[str, str] = field(default_factory=dict)
    """Acknowledged submits: id -> the option chosen."""
    open: list[str] = field(default_factory=list)
    """Acknowledged, unanswered, and nothing in doubt: what the next submits pick from."""
    expiring: list[str] = field(default_factory=list)
    """Acknowledged, with a deadline that passes around the restart: must time out."""
    unsure_creates: set[str] = field(default_factory=set)
    """Titles of creates whose reply was lost in a kill."""
    unsure_submits: dict[str, str] = field(default_factory=dict)
    """Submits whose reply was lost: id -> option."""
    unexpected: list[str] = field(default_factory=list)
    """Replies the workload never expects (a 409, a 422, a 500)."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take_open(self, rng: random.Random) -> str | None:
        with self.lock:
            if not self.open:
                return None
            index = rng.randrange(len(self.open))
            self.open[index], self.open[-1] = self.open[-1], self.open[index]
            return self.open.pop()


@dataclass
class CycleOutcome:
    traffic_s: float
    restart_s: float
    integrity: str
    lost: list[str]
    """Acknowledged changes missing or different after the kill."""
    problems: list[str]
    """Anything else inconsistent: half-applied changes, phantom rows, unexpected replies."""


def _create(client: PortalClient, ledger: Ledger, title: str) -> None:
    try:
        status, body = send(client, "POST", "/api/interactions",
                            question(title, OPTIONS, timeout_seconds=DAY))
    except ReplyLost:
        with ledger.lock:
            ledger.unsure_creates.add(title)
        raise
    with ledger.lock:
        if status == 201:
            ledger.created[body["interaction_id"]] = body["expires_at"]
            ledger.open.append(body["interaction_id"])
        else:
            ledger.unexpected.append(f"create {title!r}: {status} {body}")


def _submit(client: PortalClient, ledger: Ledger, interaction_id: str, option: str) -> None:
    try:
        status, body = send(client, "POST", f"/api/interactions/{interaction_id}/response",
                            {"selected_ids": [option]})
    except ReplyLost:
        with ledger.lock:
            ledger.unsure_submits[interaction_id] = option
        raise
    with ledger.lock:
        if status == 200 and body["selected_ids"] == [option]:
            ledger.answered[interaction_id] = option
        else:
            ledger.unexpected.append(f"submit {interaction_id} {option}: {status} {body}")


def _ask_expiring(client: PortalClient, ledger: Ledger, cycle: int) -> None:
    """One question whose deadline passes while the portal is down (or just after it is back):
    the restarted portal must expire it, which only a restored deadline does."""
    iid = client.create(question(f"k9 {cycle} expiring", OPTIONS))["interaction_id"]
    for _ in range(5):  # a deadline may be moved to no less than 1 s from now: on a loaded
        # machine the PATCH can arrive after that margin is gone (422); ask again from now
        deadline = iso(time.time() + 1.3)
        status, moved = client.request("PATCH", f"/api/interactions/{iid}",
                                       {"expires_at": deadline})
        if status != 422:
            break
    assert status == 200, (status, moved)
    ledger.created[iid] = moved["expires_at"]
    ledger.expiring.append(iid)


def _client_loop(client: PortalClient, ledger: Ledger, rng: random.Random, prefix: str) -> None:
    """Create and answer, half and half, until a reply is lost (the portal died)."""
    for n in itertools.count():
        target = ledger.take_open(rng) if rng.random() < 0.5 else None
        try:
            if target is None:
                _create(client, ledger, f"{prefix}.{n}")
            else:
                _submit(client, ledger, target, rng.choice(OPTIONS))
        except ReplyLost:
            return


ROWS = "SELECT id, title, status, expires_at, result_json FROM interaction"
EVENTS = "SELECT interaction_id, kind FROM audit_event"
Row = dict[str, Any]


def _database_state(database: Path | str) -> tuple[str, dict[str, Row], Counter[tuple[str, str]]]:
    """A SQLite file (checked with `PRAGMA integrity_check`) or a PostgreSQL URL (its own
    checks run on every read: "ok" once the rows are read)."""
    if isinstance(database, str):
        with psycopg.connect(libpq_url(database), row_factory=dict_row) as pg:
            rows = {row["id"]: row for row in pg.execute(ROWS).fetchall()}
            found = pg.execute(EVENTS).fetchall()
        return "ok", rows, Counter((row["interaction_id"], row["kind"]) for row in found)
    conn = sqlite3.connect(database)
    try:
        conn.row_factory = sqlite3.Row
        integrity = str(conn.execute("PRAGMA integrity_check").fetchone()[0])
        rows = {row["id"]: dict(row) for row in conn.execute(ROWS)}
        events = Counter((row["interaction_id"], row["kind"]) for row in conn.execute(EVENTS))
    finally:
        conn.close()
    return integrity, rows, events


def _selected(row: Row) -> list[str] | None:
    """The answer's option ids: `result_json` as the driver gives it, JSON text on SQLite,
    a decoded `json` value on PostgreSQL."""
    result = row["result_json"]
    if isinstance(result, str):
        result = json.loads(result)
    return result["selected_ids"] if result else None


def check_database(database: Path | str, ledger: Ledger) -> tuple[str, list[str], list[str]]:
    """After a kill, before the restart: integrity, then every acknowledged change, then the
    changes in doubt, each settled either way (and the ledger updated to match). `database`:
    the SQLite file, or the PostgreSQL URL. Returns (integrity check, lost, other problems)."""
    integrity, rows, events = _database_state(database)
    lost: list[str] = []
    problems: list[str] = []
    answered_once = {iid for (iid, kind), n in events.items() if kind == "answered" and n == 1}
    for iid, option in ledger.answered.items():
        row = rows.get(iid)
        if row is None or row["status"] != "submitted" or _selected(row) != [option]:
            lost.append(f"answer {iid}={option}: stored {dict(row) if row else None}")
        elif iid not in answered_once:
            problems.append(f"answer {iid}: {events[(iid, 'answered')]} 'answered' events")
    for iid, expires_at in ledger.created.items():
        row = rows.get(iid)
        if row is None:
            lost.append(f"create {iid}: missing")
        elif iso(row["expires_at"]) != expires_at:
            problems.append(f"create {iid}: expires_at {iso(row['expires_at'])} != {expires_at}")
    for iid in ledger.open:
        row = rows.get(iid)
        if row is not None and (row["status"] != "pending" or events[(iid, "answered")]):
            problems.append(f"{iid} was never answered but is {row['status']}")

    for iid, option in ledger.unsure_submits.items():  # applied whole, or not at all
        row = rows.get(iid)
        if row is None:
            continue  # its create is reported lost above
        if row["status"] == "pending" and not events[(iid, "answered")]:
            ledger.open.append(iid)
        elif row["status"] == "submitted" and _selected(row) == [option] and iid in answered_once:
            ledger.answered[iid] = option
        else:
            problems.append(f"submit in doubt {iid}={option}: half applied {dict(row)}")
    by_title = {row["title"]: row for row in rows.values()}
    for title in ledger.unsure_creates:
        row = by_title.get(title)
        if row is None:
            continue
        if row["status"] == "pending" and events[(row["id"], "created")] == 1:
            ledger.created[row["id"]] = iso(row["expires_at"])
            ledger.open.append(row["id"])
        else:
            problems.append(f"create in doubt {title!r}: half applied {dict(row)}")
    ledger.unsure_submits.clear()
    ledger.unsure_creates.clear()
    phantoms = set(rows) - set(ledger.created)
    if phantoms:
        problems.append(f"rows nobody created: {sorted(phantoms)[:5]}")
    return integrity, lost, problems


def check_api(portal: PortalProcess, ledger: Ledger, answered_before: set[str]) -> list[str]:
    """After the restart: the question that was due expires, every pending interaction is
    back with its deadline (GET, and scheduled again per `/healthz`), and the answers of
    this cycle read back exactly."""
    client, problems = portal.client(), []
    for iid in ledger.expiring:
        got = client.poll(iid, 10)
        ended = parse_iso(got["completed_at"]) if got.get("completed_at") else 0.0
        if got["status"] != "timeout" or ended < parse_iso(ledger.created[iid]):
            problems.append(f"deadline {ledger.created[iid]} of {iid} not kept after the "
                            f"restart: {got['status']} at {got.get('completed_at')}")
    ledger.expiring.clear()
    listed = {row["interaction_id"]: row for row in client.list("active", 200)["interactions"]}
    for iid in ledger.open:
        got = listed.get(iid) or client.poll(iid, 0)  # one request for the newest 200
        if got["status"] != "pending" or got["expires_at"] != ledger.created[iid]:
            problems.append(f"pending {iid}: after restart {got['status']} {got['expires_at']}")
    for iid, option in ledger.answered.items():
        if iid not in answered_before:
            got = client.poll(iid, 0)
            if got["status"] != "submitted" or got["selected_ids"] != [option]:
                problems.append(f"answer {iid}={option}: after restart {got}")
    scheduled = client.call("GET", "/healthz")["pending"]
    if scheduled != len(ledger.open):
        problems.append(f"{scheduled} deadlines scheduled after restart, {len(ledger.open)} pending")
    return problems


def kill9_cycle(portal: PortalProcess, ledger: Ledger, rng: random.Random, cycle: int,
                clients: int = 4) -> CycleOutcome:
    """On a running portal: traffic from `clients` threads, `kill -9` after a random
    0.05-0.5 s, check the database, restart, check the API. Leaves the portal running."""
    answered_before = set(ledger.answered)
    _ask_expiring(portal.client(), ledger, cycle)
    traffic = rng.uniform(0.05, 0.5)
    threads = [threading.Thread(target=_client_loop, daemon=True, args=(
        portal.client(), ledger, random.Random(rng.getrandbits(32)), f"k9 {cycle}.{i}"))
        for i in range(clients)]
    for thread in threads:
        thread.start()
    time.sleep(traffic)  # the fault itself: the kill lands at a random point of the traffic
    portal.kill9()
    for thread in threads:
        thread.join(timeout=30)  # each stops at its first lost reply
    problems = [f"client thread {t.name} still running" for t in threads if t.is_alive()]
    integrity, lost, found = check_database(
        portal.env.get("CHOICE_DB_URL") or portal.data_dir / "choice.db", ledger)
    started = time.perf_counter()
    portal.start()
    restart = time.perf_counter() - started
    problems += found + check_api(portal, ledger, answered_before)
    with ledger.lock:
        problems += ledger.unexpected
        ledger.unexpected.clear()
    return CycleOutcome(traffic, restart, integrity, lost, problems)
