"""Two portal processes on one PostgreSQL database: an answer taken by one wakes the agent
and the event stream of the other, a dead instance's deadlines still fire, concurrent
answers split across both have one winner, a dropped LISTEN connection loses nothing, a
sign-in link works on either (once), the webhook outbox delivers each message once, and an
open page or an agent on one instance hears what happened on the other."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from choice.client.portal_client import PortalUnreachable
from choice.contract.clock import iso, parse_iso
from choice.instances.relay import libpq_url
from choice.store.schema import HEAD
from tests.integration.test_real_server import wait_until
from tests.pg_cluster import Cluster
from tests.portal_process import ROOT, PortalProcess
from tests.reliability.faults import outcome
from tests.sign_in import owner_cookie, sign_in
from tests.sse import sse_events
from tests.tally import faults
from tests.webhook_receiver import WebhookReceiver, accepted

pytestmark = pytest.mark.slow
AREA = "Two instances on PostgreSQL"


def request(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"title": "Pick", "prompt": "Context and reason.",
                            "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}],
                            "timeout_seconds": 600}
    body.update(overrides)
    return body


class Pair:
    """Instance A and instance B: one database, one data dir (so one API token), one
    webhook receiver that hears every new question."""

    def __init__(self, data_dir: Path, db_url: str, receiver: WebhookReceiver) -> None:
        self.data_dir, self.db_url, self.receiver = data_dir, db_url, receiver
        self.a = self.instance()
        self.b = self.instance()

    def instance(self) -> PortalProcess:
        return PortalProcess(self.data_dir, CHOICE_DB_URL=self.db_url,
                             CHOICE_WEBHOOK_URL=self.receiver.url, CHOICE_WEBHOOK_FORMAT="json",
                             CHOICE_WEBHOOK_SECRET="s" * 32, CHOICE_WEBHOOK_CREATED="1",
                             CHOICE_WEBHOOK_RETRY_SECONDS="0.3",
                             CHOICE_SUMMARY_SECONDS="2").start()

    def stop(self) -> None:
        self.a.stop()
        self.b.stop()


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory, pg_cluster: Cluster) -> Iterator[Pair]:
    """One pair for the module (starting two portals costs seconds); a test that kills
    an instance starts it again."""
    with WebhookReceiver() as receiver:
        both = Pair(tmp_path_factory.mktemp("instances"), pg_cluster.new_database(), receiver)
        yield both
        both.stop()


def test_healthz_reports_the_store_and_the_listener(pair: Pair) -> None:
    health = pair.a.client().call("GET", "/healthz")
    assert health["store"]["kind"] == "postgresql" and health["store"]["listening"] is True


def test_an_answer_on_b_wakes_the_agent_and_the_stream_on_a(pair: Pair) -> None:
    on_a, on_b = pair.a.client(), pair.b.client()
    iid = on_a.create(request())["interaction_id"]
    replayed, heard = threading.Event(), threading.Event()

    def listen() -> None:
        for kind, data in sse_events(pair.a):
            if data.get("replay"):
                replayed.set()
            if kind == "interaction.completed" and data["interaction_id"] == iid:
                heard.set()
                return

    threading.Thread(target=listen, daemon=True).start()
    assert replayed.wait(10), "A's event stream did not start"
    # how soon A's agent wakes is a figure: bench/instances_bench.py ("wake A after an answer on B")
    with faults(AREA) as seen, ThreadPoolExecutor(1) as pool:
        seen.tries()
        poll = pool.submit(on_a.poll, iid, 30)
        wait_until(lambda: on_a.call("GET", "/healthz")["waiting"] == 1)
        acknowledged = outcome(on_b.respond(iid, {"selected_ids": ["b"]}))
        seen.answers([acknowledged], [outcome(poll.result(timeout=10))])
    assert acknowledged[1:] == ("submitted", ("b",))
    assert heard.wait(10), "A's event stream did not hear B's answer"


def test_an_answer_on_b_updates_the_open_page_on_a(pair: Pair) -> None:
    """The page's live socket on A (as a browser tab opens it) hears B's answer."""
    iid = pair.a.client().create(request())["interaction_id"]
    url = f"ws://127.0.0.1:{pair.a.port}/ws/choice/{iid}"
    with connect(url, origin=Origin(pair.a.base_url),
                 additional_headers=owner_cookie(pair.a.base_url, pair.a.token),
                 open_timeout=10) as page:
        first = json.loads(page.recv(timeout=10))
        assert (first["type"], first["status"]) == ("deadline", "pending")
        pair.b.client().respond(iid, {"selected_ids": ["a"]})
        while True:
            message = json.loads(page.recv(timeout=10))
            if message["type"] == "status":
                break
    assert (message["interaction_id"], message["status"]) == (iid, "submitted")


def test_an_agent_whose_instance_dies_gets_the_answer_from_the_other(pair: Pair) -> None:
    on_a = pair.a.client()
    iid = on_a.create(request())["interaction_id"]
    with faults(AREA) as seen, ThreadPoolExecutor(1) as pool:
        seen.tries()
        poll = pool.submit(on_a.poll, iid, 30)
        wait_until(lambda: on_a.call("GET", "/healthz")["waiting"] == 1)
        pair.a.kill9()
        try:
            with pytest.raises(PortalUnreachable):
                poll.result(timeout=10)
            acknowledged = outcome(pair.b.client().respond(iid, {"selected_ids": ["b"]}))
            result = pair.b.client().poll(iid, 10)  # the agent polls again, through B
            seen.answers([acknowledged], [outcome(result)])
        finally:
            pair.a = pair.instance()
    assert result["status"] == "submitted" and result["selected_ids"] == ["b"]


def test_a_review_asked_on_a_dead_instance_falls_back_on_the_other(pair: Pair) -> None:
    """The owner asks the agent for a summary on A (`CHOICE_SUMMARY_SECONDS=2` here); A
    dies; B times the review out on time, so the owner can write the answer."""
    on_a = pair.a.client()
    iid = on_a.create(request())["interaction_id"]
    on_a.widen(iid, ["Alice"], "block")
    asked = on_a.request_review(iid)
    assert asked["state"] == "awaiting_candidate"
    due = parse_iso(asked["due_at"])
    pair.a.kill9()
    try:
        on_b = pair.b.client()
        wait_until(lambda: on_b.review(iid)["state"] == "timed_out", timeout=10)
    finally:
        pair.a = pair.instance()
    events = on_b.call("GET", f"/api/interactions/{iid}/events")["events"]
    fired = [e for e in events if e["kind"] == "candidate_timed_out"]
    assert len(fired) == 1
    # not before it was due; how late after is a figure (bench/timing_bench.py)
    fired_at = parse_iso(fired[0]["at"])
    assert fired_at >= due - 0.01, f"fired {due - fired_at:.2f} s early"


def test_a_dead_instance_deadline_fires_on_the_other_on_time(pair: Pair) -> None:
    """How late after its deadline B expires it is a figure (bench/instances_bench.py); here:
    B expires it, and not before its deadline."""
    on_a = pair.a.client()
    iid = on_a.create(request(timeout_seconds=10))["interaction_id"]
    due = time.time() + 2.5
    on_a.call("PATCH", f"/api/interactions/{iid}", {"expires_at": iso(due)})
    with faults(AREA) as seen:
        seen.tries()
        pair.a.kill9()
        try:
            on_b = pair.b.client()
            result = on_b.poll(iid, 15)
        finally:
            pair.a = pair.instance()
    assert result["status"] == "timeout"
    ended = parse_iso(on_b.detail(iid)["completed_at"])
    assert ended >= due - 0.01, f"expired {due - ended:.2f} s before its deadline"


def test_fifty_submits_split_across_both_instances_have_one_winner(pair: Pair) -> None:
    iid = pair.a.client().create(request())["interaction_id"]
    barrier = threading.Barrier(50)

    def submit(index: int) -> tuple[int, Any]:
        portal = pair.a if index % 2 else pair.b
        client = portal.client()
        barrier.wait()
        return client.request("POST", f"/api/interactions/{iid}/response",
                              {"selected_ids": ["a" if index % 3 else "b"]})

    with faults(AREA) as seen, ThreadPoolExecutor(50) as pool:
        replies = list(pool.map(submit, range(50)))
        seen.tries(len(replies))
        seen.fact("submits", len(replies))
        seen.answers([outcome(body) for status, body in replies if status == 200],
                     [outcome(pair.b.client().poll(iid, 0))])
    statuses = [status for status, _ in replies]
    assert sorted(set(statuses)) == [200, 409] and statuses.count(200) == 1
    events = pair.b.client().call("GET", f"/api/interactions/{iid}/events")
    assert [e["kind"] for e in events["events"]].count("answered") == 1


def test_a_dropped_listen_connection_loses_no_wake_up(pair: Pair) -> None:
    on_a, on_b = pair.a.client(), pair.b.client()
    iid = on_a.create(request())["interaction_id"]
    with faults(AREA) as seen, ThreadPoolExecutor(1) as pool:
        seen.tries()
        poll = pool.submit(on_a.poll, iid, 30)
        wait_until(lambda: on_a.call("GET", "/healthz")["waiting"] == 1)
        with psycopg.connect(libpq_url(pair.db_url), autocommit=True) as admin:
            dropped = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name LIKE 'choice-listen-%' AND pid IN ("
                "  SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN%')").fetchall()
        assert dropped, "no listening connection found"
        # while A may not be listening
        acknowledged = outcome(on_b.respond(iid, {"selected_ids": ["a"]}))
        result = poll.result(timeout=15)
        seen.answers([acknowledged], [outcome(result)])
    assert result["status"] == "submitted" and result["selected_ids"] == ["a"]
    wait_until(lambda: on_a.call("GET", "/healthz")["store"]["listening"])
    assert on_a.call("GET", "/healthz")["store"]["reconnects"] >= 1


def test_a_sign_in_link_from_a_works_once_on_b(pair: Pair) -> None:
    link = pair.a.client().login_link("/")
    on_b = link.replace(pair.a.base_url, pair.b.base_url)
    assert on_b != link
    first = httpx.get(on_b, follow_redirects=False)
    assert first.status_code in (302, 303) and "choice_session" in first.headers["set-cookie"]
    again = httpx.get(link, follow_redirects=False)  # the same code, back on A
    assert again.status_code == 401 and "choice_session" not in again.headers.get("set-cookie", "")


def test_a_session_from_a_opens_b_and_a_sign_out_on_b_ends_it_on_a(pair: Pair) -> None:
    iid = pair.a.client().create(request(title="Seen on both"))["interaction_id"]
    name, value = sign_in(pair.a.base_url, pair.a.token)
    cookie = {"Cookie": f"{name}={value}"}
    for instance in (pair.a, pair.b):
        page = httpx.get(f"{instance.base_url}/choice/{iid}", headers=cookie)
        assert page.status_code == 200 and "Seen on both" in page.text
    out = httpx.post(f"{pair.b.base_url}/logout", headers={
        **cookie, "Origin": pair.b.base_url, "Content-Type": "application/x-www-form-urlencoded"})
    assert out.status_code == 303
    for instance in (pair.a, pair.b):
        page = httpx.get(f"{instance.base_url}/choice/{iid}", headers=cookie)
        assert page.status_code == 401 and "Seen on both" not in page.text


def test_the_outbox_delivers_each_message_once_across_instances(pair: Pair) -> None:
    """Every first attempt fails, so each message is retried when it falls due, and both
    instances' workers look for it then: one of them claims it."""
    receiver = pair.receiver
    ids = [(pair.a if n % 2 else pair.b).client().create(request(title=f"hook {n}"))
           ["interaction_id"] for n in range(10)]
    receiver.answer(200, script=[500] * 10)  # the messages already sent went out: count anew

    def created_ok(got: list[Any]) -> set[str]:
        return {r.json["question"]["interaction_id"] for r in got
                if accepted(r) and r.event_type == "interaction.created"}

    more = [(pair.a if n % 2 else pair.b).client().create(request(title=f"retried {n}"))
            ["interaction_id"] for n in range(10)]
    got = receiver.wait_until(lambda got: set(ids + more) <= created_ok(got), 30,
                              "every new question delivered")
    ours = set(ids + more)  # the module's other tests asked questions too
    ok = [r.json["question"]["interaction_id"] for r in got if accepted(r)
          and r.event_type == "interaction.created" and r.json["question"]["interaction_id"] in ours]
    assert sorted(ok) == sorted(ids + more), "a message was delivered twice"


def test_choice_db_upgrade_brings_an_empty_postgresql_database_to_head(
        pg_cluster: Cluster, isolated_env: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    url = pg_cluster.new_database(migrated=False).replace("choice@", "choice:s3cret-pw@")
    env.update(CHOICE_DB_URL=url, CHOICE_DATA_DIR=str(isolated_env))

    def db(action: str) -> str:
        done = subprocess.run([sys.executable, "-m", "choice.cli", "db", action], env=env,
                              cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
        return done.stdout + done.stderr

    assert "empty" in db("current")
    upgraded = db("upgrade")
    assert HEAD in upgraded and "s3cret-pw" not in upgraded  # the password stays hidden
    assert HEAD in db("current")


def test_instances_starting_at_once_on_an_empty_database_migrate_it_once(
        pg_cluster: Cluster, tmp_path: Path) -> None:
    """The first to take the advisory lock migrates; the others wait and start on head."""
    url = pg_cluster.new_database(migrated=False)
    portals = [PortalProcess(tmp_path, CHOICE_DB_URL=url) for _ in range(3)]
    try:
        with ThreadPoolExecutor(3) as pool:
            list(pool.map(lambda portal: portal.start(), portals))
        assert all(p.client().call("GET", "/healthz")["store"]["listening"] for p in portals)
        with psycopg.connect(libpq_url(url)) as db:
            assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD,)]
        upgraded = [line for p in portals for line in p.log if "upgraded from" in line]
        assert len(upgraded) == 1, upgraded
    finally:
        for portal in portals:
            portal.stop()


async def test_an_agents_mcp_call_on_a_gets_the_answer_given_on_b(pair: Pair) -> None:
    """The MCP tool call blocks on A (Streamable HTTP, the SDK's client); the human
    answers through B."""
    from tests.mcp.conftest import ask, http_session
    from tests.mcp.test_mcp_http import asked, structured

    async with http_session(pair.a) as session:
        question = ask(title="Across instances")
        call = asyncio.create_task(session.call_tool("provide_choice", question))
        iid = await asked(pair.a, "Across instances")
        await asyncio.to_thread(pair.b.client().respond, iid, {"selected_ids": ["lite"]})
        result = await asyncio.wait_for(call, 10)
    body = structured(result)
    assert body["status"] == "submitted" and body["selected_ids"] == ["lite"]
