"""Team mode under attack: does the owner's portal stay usable while participant
links are abused, and does its memory stay put?

How to run (from the repository root, with the test extras installed):

    python bench/abuse_bench.py              # 20 s of abuse
    python bench/abuse_bench.py --seconds 60 --frame-mb 8

It starts a real portal as a user runs it (`python server.py`, which serves with the portal's
own uvicorn settings, as `choice serve` does; fresh data dir), signs the owner in
through `/login?token=…`, widens one question to 25 teammates and fills its thread with
500 comments (written straight into the SQLite file: a setup shortcut, the abuse itself goes
through HTTP and WebSockets). Then, for `--seconds`, all at once:

- 100 participant sockets on `/ws/d/<secret>` (4 per link), half of them sending frames of
  `--frame-mb` MB over and over (reconnecting when the portal closes them);
- 20 links commenting at 20 a minute each;
- every link changing its vote as fast as the portal lets it (then waiting as told);
- 5 participants reloading their page of the 500-comment thread, once a second each;

while the owner, in a process of their own, loads their question page and answers fresh
questions (`POST .../response`) in a loop. It prints the owner's latencies (p50, p99, max),
the portal's RSS before, at its peak (VmHWM) and after, and what the abusers got (closes,
429s, refusals).

Targets: owner p99 <= 50 ms, RSS growth <= 50 MB. Linux only (/proc).

    python bench/abuse_bench.py --attack bodies

instead sends `--bodies` (20) answers of the largest size the answer route takes (5 files of
10 MiB, base64: about 67 MiB each) at once, with the token, to one open question, and prints
the portal's RSS growth (VmHWM - VmRSS before; target <= 100 MB) and what each sender got.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from core_bench import HOST, ROOT, Portal, free_port, pct, revision, wait_healthy

TEAM = [f"Teammate {n:02d}" for n in range(25)]
THREAD = 500
SOCKETS_PER_LINK = 4
COMMENTERS = 20
READERS = 5


@dataclass
class Abuse:
    """What the abusers got back, by kind of reply."""

    replies: Counter[str] = field(default_factory=Counter)

    def saw(self, what: str) -> None:
        self.replies[what] += 1


@dataclass
class Owner:
    page_ms: list[float] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    slowest: list[tuple[float, float, str]] = field(default_factory=list)
    """(ms, seconds into the run, which) of every request: the report names the slowest."""
    errors: Counter[str] = field(default_factory=Counter)


def question(title: str, **fields: Any) -> dict[str, Any]:
    return {"title": title, "prompt": "Which store should the sync service use?",
            "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}],
            "timeout_seconds": 3600, **fields}


def start_portal(data_dir: Path) -> Portal:
    """`python server.py` on a free port: the portal's own server settings (frame limits,
    the slow-client deadlines, where the release has them), not a bare uvicorn."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    env.update(CHOICE_DATA_DIR=str(data_dir), CHOICE_PORT=str(port), CHOICE_OPEN_BROWSER="0",
               CHOICE_MAX_SESSIONS="100000")
    log_path = data_dir.parent / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen([sys.executable, "server.py"], cwd=ROOT, env=env,
                                   stdout=log, stderr=subprocess.STDOUT)
    return Portal(process, port, data_dir, log_path)


async def setup(base: str, token: str, data_dir: Path) -> tuple[httpx.AsyncClient, str, list[str]]:
    """The owner's signed-in client, the widened question and its participants' secrets."""
    agent = {"Authorization": f"Bearer {token}"}
    owner = httpx.AsyncClient(base_url=base, timeout=30)
    signed = await owner.get(f"/login?token={quote(token)}&next=/", follow_redirects=False)
    if signed.status_code != 303:
        raise RuntimeError(f"sign-in: HTTP {signed.status_code}")
    settings = await owner.put("/api/settings", headers=agent,
                               json={"team": [{"name": name} for name in TEAM]})
    settings.raise_for_status()
    created = await owner.post("/api/interactions", headers=agent, json=question("Abused"))
    iid = created.json()["interaction_id"]
    widened = await owner.post(f"/api/interactions/{iid}/widen", headers=agent,
                               json={"mode": "block"})
    widened.raise_for_status()
    secrets = [p["link"].rsplit("/d/", 1)[1] for p in widened.json()["participants"]]
    # The owner has looked at the question they widened: what is measured is their page under
    # attack, not its first render after start (templates compiled on first use).
    (await owner.get(f"/choice/{iid}")).raise_for_status()
    participants = [p["participant_id"] for p in widened.json()["participants"]]
    with sqlite3.connect(data_dir / "choice.db", timeout=30) as db:  # the 500-comment thread
        now = time.time()
        db.executemany(
            "INSERT INTO comment (interaction_id, participant_id, author, text, at) "
            "VALUES (?, ?, ?, ?, ?)",
            [(iid, participants[n % len(participants)], TEAM[n % len(TEAM)],
              f"Comment {n}: " + "PostgreSQL has the replication we need. " * 8, now - THREAD + n)
             for n in range(THREAD)])
    return owner, iid, secrets


async def flood_socket(url: str, origin: str, frame: bytes | None, until: float,
                       abuse: Abuse) -> None:
    """One participant socket; with `frame`, sending it again and again, reconnecting when
    the portal closes the socket."""
    while time.monotonic() < until:
        try:
            async with websockets.connect(url, origin=origin,  # type: ignore[arg-type]
                                          max_size=None, open_timeout=10) as socket:
                abuse.saw("socket opened")
                while time.monotonic() < until:
                    if frame is None:
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(socket.recv(), 1.0)
                        continue
                    await socket.send(frame)
                    abuse.saw("frame sent")
        except websockets.ConnectionClosed as closed:
            abuse.saw(f"socket closed {closed.rcvd.code if closed.rcvd else 'abnormally'}")
        except (OSError, websockets.InvalidStatus, TimeoutError) as refused:
            abuse.saw(f"socket refused: {type(refused).__name__}")
            await asyncio.sleep(0.5)  # refused at once: do not spin


async def comment_loop(client: httpx.AsyncClient, secret: str, until: float,
                       abuse: Abuse) -> None:
    n = 0
    while time.monotonic() < until:
        reply = await client.post(f"/api/d/{secret}/comments", json={"text": f"again {n}"})
        abuse.saw(f"comment {reply.status_code}")
        n += 1
        await asyncio.sleep(3.0)  # 20 a minute: the comment limit


async def vote_loop(client: httpx.AsyncClient, secret: str, until: float, abuse: Abuse) -> None:
    choices = (["pg"], ["lite"])
    n = 0
    while time.monotonic() < until:
        reply = await client.put(f"/api/d/{secret}/vote", json={"option_ids": choices[n % 2]})
        abuse.saw(f"vote {reply.status_code}")
        n += 1
        if reply.status_code == 429:  # at the limit: wait as told, within the run
            wait = float(reply.headers.get("retry-after", "1"))
            await asyncio.sleep(max(0.0, min(wait, until - time.monotonic())))


async def reader_loop(client: httpx.AsyncClient, secret: str, until: float,
                      abuse: Abuse) -> None:
    """A participant reloading their page once a second (a person's fastest)."""
    while time.monotonic() < until:
        reply = await client.get(f"/d/{secret}")
        abuse.saw(f"thread page {reply.status_code} ({len(reply.content) // 1000} KB)")
        await asyncio.sleep(1.0)


def owner_process(base: str, cookies: dict[str, str], token: str, iid: str,
                  until: float) -> Owner:
    """The owner, in a process of their own (as their browser is): the abusers' client work
    (100 socket handshakes, 4 MB frames to mask) never delays the owner's measured requests.
    `until` is CLOCK_MONOTONIC, which every process on the machine shares."""
    async def run_owner() -> Owner:
        seen = Owner()
        async with httpx.AsyncClient(base_url=base, timeout=60, cookies=cookies) as owner:
            await owner_loop(owner, token, iid, until, seen)
        return seen
    return asyncio.run(run_owner())


def ready() -> None:
    """The owner's process is up and has imported what it needs."""


async def owner_loop(owner: httpx.AsyncClient, token: str, iid: str, until: float,
                     seen: Owner) -> None:
    agent = {"Authorization": f"Bearer {token}"}
    n = 0
    while time.monotonic() < until:
        started = time.perf_counter()
        page = await owner.get(f"/choice/{iid}")
        seen.page_ms.append((time.perf_counter() - started) * 1000)
        seen.slowest.append((seen.page_ms[-1], time.monotonic() - until, "page"))
        if page.status_code != 200:
            seen.errors[f"page {page.status_code}"] += 1
        created = await owner.post("/api/interactions", headers=agent, json=question(f"Q{n}"))
        fresh = created.json()["interaction_id"]
        started = time.perf_counter()
        answered = await owner.post(f"/api/interactions/{fresh}/response", headers=agent,
                                    json={"selected_ids": ["pg"]})
        seen.answer_ms.append((time.perf_counter() - started) * 1000)
        seen.slowest.append((seen.answer_ms[-1], time.monotonic() - until, "answer"))
        if answered.status_code != 200:
            seen.errors[f"response {answered.status_code}"] += 1
        n += 1
        await asyncio.sleep(0.1)


def large_answer(files: int = 5, each: int = 10 * 2**20) -> bytes:
    """An answer at the answer route's size limit: `files` files of `each` bytes, base64."""
    data = base64.b64encode(os.urandom(each)).decode()
    attachments = [{"name": f"dump-{n}.bin", "mime_type": "application/zip", "data": data}
                   for n in range(files)]
    return json.dumps({"selected_ids": ["pg"], "attachments": attachments}).encode()


async def run_large_bodies(args: argparse.Namespace) -> int:
    """`--bodies` large answers at once to one open question: the portal's memory, and
    that it still answers afterwards."""
    with tempfile.TemporaryDirectory(prefix="abuse-bench-") as tmp:
        data_dir = Path(tmp) / "data"
        portal = start_portal(data_dir)
        try:
            await wait_healthy(portal)
            portal.token = (data_dir / "token").read_text().strip()
            agent = {"Authorization": f"Bearer {portal.token}",
                     "Content-Type": "application/json"}
            body = large_answer()
            async with httpx.AsyncClient(base_url=f"http://{HOST}:{portal.port}",
                                         timeout=300) as client:
                created = await client.post("/api/interactions", headers=agent,
                                            json=question("Large bodies"))
                iid = created.json()["interaction_id"]
                rss_before = portal.status_mb("VmRSS")
                got: Counter[str] = Counter()

                async def send_one() -> None:
                    try:
                        reply = await client.post(f"/api/interactions/{iid}/response",
                                                  headers=agent, content=body)
                        code = ""
                        with contextlib.suppress(ValueError, KeyError, IndexError):
                            code = " " + reply.json()["errors"][0]["code"]
                        got[f"{reply.status_code}{code}"] += 1
                    except httpx.HTTPError as exc:
                        got[type(exc).__name__] += 1

                started = time.monotonic()
                await asyncio.gather(*(send_one() for _ in range(args.bodies)))
                elapsed = time.monotonic() - started
                rss_after, peak = portal.status_mb("VmRSS"), portal.status_mb("VmHWM")
                health = await client.get("/healthz")
        finally:
            portal.stop()
    print(f"\n{args.bodies} answers of {len(body) / 2**20:.1f} MiB at once, in {elapsed:.1f} s\n")
    rows = [("portal RSS before / after / peak (MB)",
             f"{rss_before:.1f} / {rss_after:.1f} / {peak:.1f}", ""),
            ("RSS growth, peak - before (MB)", f"{peak - rss_before:.1f}", "<= 100"),
            ("/healthz afterwards", str(health.status_code), "200")]
    for name, value, target in rows:
        print(f"{name:<50} {value:>30}   {target}")
    print("\nwhat the senders got:")
    for what, count in sorted(got.items()):
        print(f"  {what:<46} {count:>8}")
    print(f"\ncode: {revision()}")
    return 0


async def run(args: argparse.Namespace) -> int:
    if args.attack == "bodies":
        return await run_large_bodies(args)
    with tempfile.TemporaryDirectory(prefix="abuse-bench-") as tmp:
        data_dir = Path(tmp) / "data"
        portal = start_portal(data_dir)
        try:
            await wait_healthy(portal)
            portal.token = (data_dir / "token").read_text().strip()
            base, origin = f"http://{HOST}:{portal.port}", f"http://{HOST}:{portal.port}"
            owner, iid, secrets = await setup(base, portal.token, data_dir)
            rss_before = portal.status_mb("VmRSS")
            loop = asyncio.get_running_loop()
            owners = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            await loop.run_in_executor(owners, ready)
            until = time.monotonic() + args.seconds
            abuse = Abuse()
            if os.environ.get("ABUSE_PID_FILE"):  # for a profiler to attach to as abuse begins
                Path(os.environ["ABUSE_PID_FILE"]).write_text(str(portal.pid))
            frame = b"x" * int(args.frame_mb * 1_000_000)
            people = [httpx.AsyncClient(base_url=base, timeout=60) for _ in secrets]
            without = set(args.without)
            tasks = [
                *(flood_socket(f"ws://{HOST}:{portal.port}/ws/d/{secret}", origin,
                               frame if k % 2 else None, until, abuse)
                  for secret in secrets for k in range(SOCKETS_PER_LINK) if "sockets" not in without),
                *(comment_loop(people[n], secrets[n], until, abuse)
                  for n in range(COMMENTERS) if "comments" not in without),
                *(vote_loop(people[n], secret, until, abuse)
                  for n, secret in enumerate(secrets) if "votes" not in without),
                *(reader_loop(people[n], secrets[n], until, abuse)
                  for n in range(READERS) if "readers" not in without)]
            started, client_cpu = time.monotonic(), time.process_time()
            server_cpu = portal.cpu_ns()
            owner_done = loop.run_in_executor(owners, owner_process, base,
                                              dict(owner.cookies), portal.token, iid, until)
            await asyncio.gather(*tasks, return_exceptions=True)
            seen = await owner_done
            owners.shutdown()
            elapsed = time.monotonic() - started
            cpu = ((time.process_time() - client_cpu) / elapsed,
                   (portal.cpu_ns() - server_cpu) / 1e9 / elapsed)
            rss_after, peak = portal.status_mb("VmRSS"), portal.status_mb("VmHWM")
            for client in (*people, owner):
                await client.aclose()
        finally:
            portal.stop()
    report(args, elapsed, cpu, rss_before, rss_after, peak, seen, abuse)
    return 0


def report(args: argparse.Namespace, elapsed: float, cpu: tuple[float, float],
           rss_before: float, rss_after: float, peak: float, seen: Owner, abuse: Abuse) -> None:
    rows = [
        ("owner's page p50 / p99 / max (ms)",
         f"{pct(seen.page_ms, 50):.1f} / {pct(seen.page_ms, 99):.1f} / {max(seen.page_ms):.1f}",
         "p99 <= 50"),
        ("owner's POST .../response p50 / p99 / max (ms)",
         f"{pct(seen.answer_ms, 50):.1f} / {pct(seen.answer_ms, 99):.1f} / "
         f"{max(seen.answer_ms):.1f}", "p99 <= 50"),
        ("owner requests (page, answer)", f"{len(seen.page_ms)}, {len(seen.answer_ms)}", ""),
        ("owner errors", json.dumps(dict(seen.errors)) if seen.errors else "none", ""),
        ("portal RSS before / after / peak (MB)",
         f"{rss_before:.1f} / {rss_after:.1f} / {peak:.1f}", ""),
        ("RSS growth, peak - before (MB)", f"{peak - rss_before:.1f}", "<= 50"),
        ("CPU used, this bench's client / the portal (cores)", f"{cpu[0]:.2f} / {cpu[1]:.2f}",
         f"of {os.cpu_count()}"),
    ]
    print(f"\nabuse for {elapsed:.1f} s: {len(TEAM)} links, {SOCKETS_PER_LINK * len(TEAM)} "
          f"sockets (half sending {args.frame_mb:g} MB frames), {COMMENTERS} commenters, "
          f"{len(TEAM)} voters, {READERS} readers of a {THREAD}-comment thread\n")
    for name, value, target in rows:
        print(f"{name:<50} {value:>30}   {target}")
    worst = sorted(seen.slowest, reverse=True)[:5]
    print("\nslowest owner requests: " + ", ".join(
        f"{which} {ms:.0f} ms at {args.seconds + at:.1f} s" for ms, at, which in worst))
    if args.timeline:
        print("\nowner's requests, second by second (count, median and slowest ms):")
        for second in range(int(args.seconds) + 1):
            here = sorted(ms for ms, at, _ in seen.slowest if int(args.seconds + at) == second)
            if here:
                print(f"  {second:>3} s  {len(here):>3}  {here[len(here) // 2]:6.1f}  "
                      f"{here[-1]:6.1f}")
    print("\nwhat the abusers got:")
    for what, count in sorted(abuse.replies.items()):
        print(f"  {what:<46} {count:>8}")
    print(f"\ncode: {revision()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--frame-mb", type=float, default=4.0)
    parser.add_argument("--attack", choices=["team", "bodies"], default="team",
                        help="team: the participant links' abuse (default); bodies: large "
                             "answer bodies at once, with the token")
    parser.add_argument("--bodies", type=int, default=20,
                        help="with --attack bodies: how many answers are sent at once")
    parser.add_argument("--timeline", action="store_true",
                        help="also print the owner's latencies second by second")
    parser.add_argument("--without", action="append", default=[],
                        choices=["sockets", "comments", "votes", "readers"],
                        help="leave one kind of abuse out (to see what costs the owner most)")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
