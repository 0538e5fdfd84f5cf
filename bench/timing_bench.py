"""The timings the tests no longer bound: how soon a waiting agent hears a `continue` widen,
how long an owner's answer and a participant's comment take while the webhook receiver
holds a POST open, and how late a dead instance's deadline and review fallback fire on the
other instance. The tests check that each happens (woken, not timed out; not slowed behind
the webhook; fired on the other, not before it was due); this prints how fast.

    python bench/timing_bench.py              # 20 rounds each (~1 min, more with PostgreSQL)
    python bench/timing_bench.py --rounds 5
    python bench/timing_bench.py --no-postgres

Each figure is printed with p50 and max; nothing here passes or fails. Run it on a quiet
machine: the load average at the end says how quiet it was.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from choice.client.portal_client import PortalClient, PortalUnreachable  # noqa: E402
from choice.contract.clock import iso, parse_iso  # noqa: E402
from tests.pg_cluster import Cluster, server_binaries  # noqa: E402
from tests.portal_process import PortalProcess  # noqa: E402
from tests.webhook_receiver import WebhookReceiver  # noqa: E402

REQUEST = {"title": "timing", "prompt": "Which one? (benchmark)", "timeout_seconds": 3600,
           "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}


def waiting(client: PortalClient, count: int = 1) -> None:
    """Until `count` requests wait in the portal (another process's state: polled)."""
    deadline = time.monotonic() + 30
    while client.call("GET", "/healthz")["waiting"] < count:
        if time.monotonic() > deadline:
            raise RuntimeError("the agent's request never started waiting")
        threading.Event().wait(0.001)


def woken_by_widen(portal: PortalProcess, blocked: Callable[[PortalClient, str], Any]) -> float:
    """Milliseconds from the owner's `continue` widen to the blocked agent's reply."""
    owner, agent = portal.client(), portal.client()
    iid = owner.create(REQUEST)["interaction_id"]
    with ThreadPoolExecutor(1) as pool:
        reply = pool.submit(blocked, agent, iid)
        waiting(owner)
        sent = time.perf_counter()
        owner.call("POST", f"/api/interactions/{iid}/widen",
                   {"audience": ["Alice"], "mode": "continue"})
        reply.result(timeout=30)
        return (time.perf_counter() - sent) * 1000


def blocked_poll(agent: PortalClient, iid: str) -> Any:
    return agent.poll(iid, 30)


def blocked_create(agent: PortalClient, _iid: str) -> Any:
    """A create that waits; the widen goes to the question it made (the newest)."""
    return agent.request("POST", "/api/interactions?wait=30", REQUEST, timeout=40)


def woken_by_widen_after_create(portal: PortalProcess) -> float:
    owner, agent = portal.client(), portal.client()
    with ThreadPoolExecutor(1) as pool:
        reply = pool.submit(blocked_create, agent, "")
        waiting(owner)
        iid = owner.list("active", 1)["interactions"][0]["interaction_id"]
        sent = time.perf_counter()
        owner.call("POST", f"/api/interactions/{iid}/widen",
                   {"audience": ["Alice"], "mode": "continue"})
        reply.result(timeout=30)
        return (time.perf_counter() - sent) * 1000


def behind_a_held_webhook(root: Path, rounds: int) -> list[float]:
    """Milliseconds for a participant's comment and the owner's answer, sent while the
    receiver holds the invitation's POST open."""
    took = []
    with WebhookReceiver() as receiver:
        portal = PortalProcess(root / "webhook", CHOICE_WEBHOOK_URL=receiver.url,
                               CHOICE_WEBHOOK_SECRET="s" * 32).start()
        try:
            owner, them = portal.client(), PortalClient(portal.base_url, None)
            for _ in range(rounds):
                receiver.answer(200, script=["hold"])
                before = len(receiver.received)
                iid = owner.create(REQUEST)["interaction_id"]
                link = owner.widen(iid, ["Alice"], "continue")["participants"][0]["link"]
                receiver.wait_for(before + 1)
                sent = time.perf_counter()
                them.call("POST", "/api/d/" + link.rsplit("/", 1)[1] + "/comments",
                          {"text": "while the webhook hangs"})
                owner.respond(iid, {"selected_ids": ["a"]})
                took.append((time.perf_counter() - sent) * 1000)
                receiver.release()
        finally:
            portal.stop()
    return took


def late_on_the_other(root: Path, db_url: str, rounds: int) -> tuple[list[float], list[float]]:
    """Seconds after it was due that B expires a question A made, and times out a review A
    asked for, once A is killed (`CHOICE_SUMMARY_SECONDS=2`)."""
    env = {"CHOICE_DB_URL": db_url, "CHOICE_SUMMARY_SECONDS": "2"}
    a = PortalProcess(root / "pair", **env).start()
    b = PortalProcess(root / "pair", **env).start()
    deadlines, reviews = [], []
    try:
        for _ in range(rounds):
            on_a, on_b = a.client(), b.client()
            iid = on_a.create({**REQUEST, "timeout_seconds": 10})["interaction_id"]
            due = time.time() + 2.0
            on_a.call("PATCH", f"/api/interactions/{iid}", {"expires_at": iso(due)})
            asked = on_a.create(REQUEST)["interaction_id"]
            on_a.widen(asked, ["Alice"], "block")
            review_due = parse_iso(on_a.request_review(asked)["due_at"])
            a.kill9()
            # when the agent's poll on B returns, and when B shows the review timed out:
            # what a waiting agent and the owner see (the stored times are the due times)
            assert on_b.poll(iid, 15)["status"] == "timeout"
            deadlines.append(time.time() - due)
            while on_b.review(asked)["state"] != "timed_out":
                threading.Event().wait(0.01)
            reviews.append(time.time() - review_due)
            a.start()
    except PortalUnreachable as gone:
        raise RuntimeError(f"an instance went away: {gone}") from gone
    finally:
        a.stop()
        b.stop()
    return deadlines, reviews


def row(label: str, values: list[float], unit: str) -> str:
    return (f"{label:62}{statistics.median(values):>10.2f}{max(values):>10.2f}  {unit}"
            f"  (n={len(values)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    rows = [f"{'':62}{'p50':>10}{'max':>10}"]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        portal = PortalProcess(root / "one").start()
        try:
            woken_by_widen(portal, blocked_poll)  # warm-up
            polls = [woken_by_widen(portal, blocked_poll) for _ in range(args.rounds)]
            creates = [woken_by_widen_after_create(portal) for _ in range(args.rounds)]
        finally:
            portal.stop()
        rows.append(row("`continue` widen -> a blocked poll returns", polls, "ms"))
        rows.append(row("`continue` widen -> a blocked create returns", creates, "ms"))
        rows.append(row("a comment and an answer behind a held webhook POST",
                        behind_a_held_webhook(root, args.rounds), "ms"))
        binaries = None if args.no_postgres else server_binaries()
        if binaries is not None:
            cluster = Cluster(binaries).start()
            try:
                rounds = max(1, args.rounds // 5)  # each round kills and restarts an instance
                deadlines, reviews = late_on_the_other(root, cluster.new_database(), rounds)
            finally:
                cluster.stop()
            rows.append(row("A killed: B's agent hears the timeout, after the deadline",
                            deadlines, "s"))
            rows.append(row("A killed: B shows the review timed out, after it was due",
                            reviews, "s"))
        else:
            rows.append("(no PostgreSQL: the two-instance timings are skipped)")
    print("\n".join(rows))
    with open("/proc/loadavg") as load:
        print("load average 1/5/15 min at the end:", " / ".join(load.read().split()[:3]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
