"""Team server figures: 50 members x 4 agents on two portal instances in team mode, one
PostgreSQL database, 10,000 questions stored.

    python bench/team_server_bench.py            # 50 x 4, 10,000 questions (~2 min on 2 cores)
    python bench/team_server_bench.py --quick    # 10 x 4, 1,000 questions (~30 s)
    python bench/team_server_bench.py --members 20 --questions 4000 --rounds 300

Starts a throwaway PostgreSQL cluster (`tests/pg_cluster.py`), the real OpenID provider of
the tests (`tests/oidc/provider.py`: npm `oidc-provider`, installed once into the cache), and
instances A and B (`python server.py`, `CHOICE_AUTH=oidc`, one database, A's address the
public URL). Each member signs in through the provider, makes 4 agent tokens
(`POST /api/tokens`), and the questions are seeded through `POST /api/interactions` with
those tokens, from 32 keep-alive connections split over A and B. Then it measures, twice:
idle, and while the agents keep asking (`--asking` questions a second in the background,
round robin over every token and both instances; the list's page cache is dropped by each):

- **create -> visible**: one agent's `POST /api/interactions` on A or B (alternating), then
  its member's `GET /api/interactions` (the member's session cookie) polled on both
  instances until the new id is listed: from the create sent to the list reply naming it,
  on the instance that took the create and on the other (target p99 <= 50 ms, on both);
- **list**: a member's `GET /api/interactions` (newest 50 of ~200) p50/p99 (target p99
  <= 50 ms), and the list page `GET /` with the member's session, members in turn;
- **sign-in round trip** (once): `GET /login` (A or B) -> the provider's authorization
  endpoint -> its login form -> `/auth/callback` on A -> the session cookie, a new HTTP client
  each time (nobody signed in at the provider), and again with the provider remembering the
  person (its own session cookie kept): p50/p99.

Then `EXPLAIN ANALYZE` of one member's list query on PostgreSQL (the plan should use
`ix_interaction_member_created`). Prints one table with targets and the code revision;
asserts nothing. Needs Debian's `postgresql`, `node`/`npm` (and the npm registry or the
cache), httpx and psycopg (the `[test]` extra).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
from sqlalchemy import select
from sqlalchemy.dialects import postgresql

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core_bench import HOST, RawSession, Reply, ask, loop_name, pct, revision

from choice.store.tables import INTERACTIONS
from tests.oidc.provider import OidcProvider, callback_url
from tests.pg_cluster import Cluster, server_binaries
from tests.portal_process import PortalProcess, free_port

TARGET_P99_MS = 50.0
AGENTS_PER_MEMBER = 4
SEED_CONNECTIONS = 32
LIST_LIMIT = 50
"""`GET /api/interactions`'s default page: the newest 50."""
VISIBLE_WITHIN_S = 5.0
"""A created question not listed by then is counted as never seen."""
WARM_UP = 20
"""Untimed page and list requests on each instance before the passes."""
DOMAIN = "example.com"
SESSION_COOKIE = "choice_session"


@dataclass
class Member:
    email: str
    session: str = ""
    """The `choice_session` cookie's value."""
    tokens: list[str] = field(default_factory=list)


@dataclass
class Team:
    a: PortalProcess
    b: PortalProcess
    members: list[Member]

    @property
    def portals(self) -> tuple[PortalProcess, PortalProcess]:
        return self.a, self.b


# -- sign-in -----------------------------------------------------------------------------------
@dataclass
class SignIn:
    total_ms: float
    """From `GET /login` sent to the callback's reply read."""
    login_ms: float
    """The portal's `/login` alone (its redirect to the provider)."""
    callback_ms: float
    """The portal's `/auth/callback` alone (the code exchanged, the ID token checked, the
    member recorded, the session made)."""
    session: str


def sign_in(client: httpx.Client, login_at: PortalProcess, email: str) -> SignIn:
    """One round trip from `GET /login` to the callback's reply, and the session."""
    started = time.perf_counter()
    login = client.get(f"{login_at.base_url}/login")
    logged = time.perf_counter()
    back = callback_url(client, login, email)
    called = time.perf_counter()
    done = client.get(back)
    ended = time.perf_counter()
    session = done.cookies.get(SESSION_COOKIE)
    if done.status_code != 303 or not session:
        raise RuntimeError(f"sign-in of {email} ended with {done.status_code}: {done.text[:300]}")
    return SignIn((ended - started) * 1000, (logged - started) * 1000,
                  (ended - called) * 1000, session)


@dataclass
class SignIns:
    fresh: list[SignIn] = field(default_factory=list)
    remembered: list[SignIn] = field(default_factory=list)


def sign_in_everyone(team: Team, provider: OidcProvider, rounds: int) -> SignIns:
    """Every member signs in (their session kept for the rest), then more sign-ins up to
    `rounds` of each kind, `/login` alternating between A and B."""
    timings = SignIns()
    for n in range(max(rounds, len(team.members))):
        member = team.members[n % len(team.members)]
        login_at = team.portals[n % 2]
        with httpx.Client(timeout=30) as client:
            signed = sign_in(client, login_at, member.email)
            if not member.session:
                member.session = signed.session
            if n < rounds:
                timings.fresh.append(signed)
                # The provider remembers the person now: no login form.
                timings.remembered.append(sign_in(client, team.portals[1 - n % 2],
                                                  member.email))
    return timings


def make_tokens(team: Team) -> None:
    for n, member in enumerate(team.members):
        portal = team.portals[n % 2]
        with httpx.Client(base_url=portal.base_url, timeout=30,
                          cookies={SESSION_COOKIE: member.session}) as client:
            for agent in range(AGENTS_PER_MEMBER):
                made = client.post("/api/tokens", json={"name": f"agent {agent}"})
                if made.status_code != 201:
                    raise RuntimeError(f"POST /api/tokens: {made.status_code} {made.text[:300]}")
                member.tokens.append(made.json()["token"])


# -- raw HTTP as one caller ----------------------------------------------------------------------
class Caller:
    """One keep-alive connection to one instance (core_bench's raw client), whose requests
    carry the credentials named per request: an agent's token or a member's session."""

    def __init__(self, portal: PortalProcess) -> None:
        self.portal = portal
        self.raw = RawSession(portal.port, "")

    async def call(self, method: str, path: str, credentials: str, body: Any = None,
                   sent: Callable[[], None] | None = None) -> Reply:
        self.raw.auth = f"{credentials}\r\nHost: {HOST}:{self.portal.port}\r\n"
        reply = await self.raw.request(method, path, body, sent)
        if reply.status >= 300:
            raise RuntimeError(f"{method} {path} on :{self.portal.port}: {reply.status} "
                               f"{reply.body[:300]!r}")
        return reply

    async def aclose(self) -> None:
        await self.raw.aclose()


class Stamp:
    """Called once a request's bytes are handed to the kernel: `perf_counter_ns()` then."""

    ns = 0

    def __call__(self) -> None:
        self.ns = time.perf_counter_ns()


def bearer(token: str) -> str:
    return f"Authorization: Bearer {token}"


def cookie(member: Member) -> str:
    return f"Cookie: {SESSION_COOKIE}={member.session}"


def agents(team: Team) -> list[tuple[Member, str]]:
    return [(member, token) for member in team.members for token in member.tokens]


async def seed(team: Team, questions: int) -> float:
    """`questions` creates, spread evenly over every agent token, both instances; creates/s."""
    everyone = agents(team)
    jobs: asyncio.Queue[tuple[int, str]] = asyncio.Queue()
    for n in range(questions):
        jobs.put_nowait((n, everyone[n % len(everyone)][1]))

    async def worker(index: int) -> None:
        caller = Caller(team.portals[index % 2])
        try:
            while not jobs.empty():
                n, token = jobs.get_nowait()
                await caller.call("POST", "/api/interactions", bearer(token), ask(n))
        finally:
            await caller.aclose()

    started = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(SEED_CONNECTIONS)))
    return questions / (time.perf_counter() - started)


# -- CPU over a pass (Linux /proc) ------------------------------------------------------------
def machine_busy_s() -> float:
    """CPU seconds the whole machine has been busy (every core, every process)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def process_cpu_s(pid: int) -> float:
    """CPU seconds run by every thread of `pid` so far (schedstat: ns)."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            total += int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0])
    return total / 1e9


@dataclass
class Cpu:
    """Cores used over a pass: the whole machine, the two portals, this client."""

    machine: float
    portals: float
    client: float


class CpuMeter:
    def __init__(self, team: Team) -> None:
        self.pids = [p.process.pid for p in team.portals if p.process is not None]
        self.start = self.sample()

    def sample(self) -> tuple[float, float, float, float]:
        return (time.perf_counter(), machine_busy_s(), sum(map(process_cpu_s, self.pids)),
                process_cpu_s(os.getpid()))

    def stop(self) -> Cpu:
        wall, machine, portals, client = (b - a for a, b in zip(self.start, self.sample(),
                                                                 strict=True))
        return Cpu(machine / wall, portals / wall, client / wall)


# -- the measured paths --------------------------------------------------------------------------
@dataclass
class Figures:
    create_ms: list[float] = field(default_factory=list)
    visible_same_ms: list[float] = field(default_factory=list)
    visible_other_ms: list[float] = field(default_factory=list)
    polls_beyond_first: int = 0
    never_seen: int = 0
    list_ms: list[float] = field(default_factory=list)
    page_ms: list[float] = field(default_factory=list)
    asked_in_background: int = 0
    cpu: Cpu | None = None


async def until_listed(caller: Caller, member: Member, interaction_id: str, t0: int,
                       figures: Figures) -> float | None:
    """ms from `t0` to the first list reply of `caller`'s instance naming the question."""
    deadline = time.monotonic() + VISIBLE_WITHIN_S
    first = True
    while time.monotonic() < deadline:
        reply = await caller.call("GET", f"/api/interactions?limit={LIST_LIMIT}", cookie(member))
        if any(row["interaction_id"] == interaction_id for row in reply.json()["interactions"]):
            return (reply.t_done - t0) / 1e6
        if first:
            figures.polls_beyond_first += 1
            first = False
    figures.never_seen += 1
    return None


async def create_then_visible(team: Team, rounds: int, figures: Figures) -> None:
    everyone = agents(team)
    callers = {p.port: (Caller(p), Caller(p)) for p in team.portals}  # (agent, member)
    try:
        for n in range(rounds):
            member, token = everyone[(n * 7) % len(everyone)]  # members and agents in turn
            on, other = team.portals[n % 2], team.portals[1 - n % 2]
            sent = Stamp()
            reply = await callers[on.port][0].call(
                "POST", "/api/interactions", bearer(token), ask(10**6 + n), sent=sent)
            figures.create_ms.append((reply.t_done - sent.ns) / 1e6)
            interaction_id = reply.json()["interaction_id"]
            same, across = await asyncio.gather(
                until_listed(callers[on.port][1], member, interaction_id, sent.ns, figures),
                until_listed(callers[other.port][1], member, interaction_id, sent.ns, figures))
            if same is not None:
                figures.visible_same_ms.append(same)
            if across is not None:
                figures.visible_other_ms.append(across)
    finally:
        for pair in callers.values():
            for caller in pair:
                await caller.aclose()


async def timed_gets(team: Team, path: str, rounds: int, into: list[float]) -> None:
    """Sequential GETs of `path` with each member's session in turn, A and B alternating."""
    callers = [Caller(p) for p in team.portals]
    try:
        for n in range(rounds):
            member = team.members[n % len(team.members)]
            sent = Stamp()
            reply = await callers[n % 2].call("GET", path, cookie(member), sent=sent)
            into.append((reply.t_done - sent.ns) / 1e6)
    finally:
        for caller in callers:
            await caller.aclose()


async def agents_asking(team: Team, per_second: float, stop: asyncio.Event,
                        figures: Figures) -> None:
    """Background load: questions at `per_second` from every agent in turn, on A and B
    (paced by the clock, not a synchronisation: what is measured meanwhile waits on replies)."""
    if per_second <= 0:
        return
    callers = [Caller(p) for p in team.portals]
    everyone = agents(team)
    interval = 1.0 / per_second
    next_at = time.monotonic()
    try:
        for n in itertools.count():
            if stop.is_set():
                return
            _member, token = everyone[n % len(everyone)]
            await callers[n % 2].call("POST", "/api/interactions", bearer(token), ask(2 * 10**6 + n))
            figures.asked_in_background += 1
            next_at += interval
            with_time = next_at - time.monotonic()
            if with_time > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), with_time)
    finally:
        for caller in callers:
            await caller.aclose()


async def measure(team: Team, rounds: int, asking: float) -> Figures:
    figures = Figures()
    meter = CpuMeter(team)
    stop = asyncio.Event()
    background = asyncio.create_task(agents_asking(team, asking, stop, figures))
    steps: list[Awaitable[None]] = [
        create_then_visible(team, rounds, figures),
        timed_gets(team, f"/api/interactions?limit={LIST_LIMIT}", rounds, figures.list_ms),
        timed_gets(team, "/", rounds, figures.page_ms)]
    try:
        for step in steps:
            await step
    finally:
        stop.set()
        await background
    figures.cpu = meter.stop()
    return figures


def explain(db_url: str, member_email: str) -> list[str]:
    """PostgreSQL's plan for one member's list (`GET /api/interactions`, newest 50)."""
    dsn = db_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn) as connection:
        row = connection.execute("SELECT id FROM member WHERE email = %s",
                                 (member_email,)).fetchone()
        assert row is not None, member_email
        query = (select(INTERACTIONS).where(INTERACTIONS.c.member_id == row[0])
                 .order_by(INTERACTIONS.c.created_at.desc()).limit(LIST_LIMIT))
        sql = str(query.compile(dialect=postgresql.dialect(),
                                compile_kwargs={"literal_binds": True}))
        connection.execute("ANALYZE interaction")
        plan = connection.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}").fetchall()
    return [line for (line,) in plan]


# -- the report ----------------------------------------------------------------------------------
def p50_p99(values: list[float]) -> str:
    return f"{pct(values, 50):.2f} / {pct(values, 99):.2f}"


def report(args: argparse.Namespace, team: Team, signed: SignIns, seeded_per_s: float,
           runs: dict[str, Figures], plan: list[str], loads: list[str]) -> str:
    """`loads`: the load average at start and at the end, then the client's event loop."""
    rows: list[tuple[str, str, str, str]] = []

    def row(name: str, value: str, target: str = "", ok: bool | None = None) -> None:
        rows.append((name, value, target, "" if ok is None else ("yes" if ok else "MISSED")))

    members, questions = len(team.members), args.questions
    row(f"seeded: {members} members x {AGENTS_PER_MEMBER} agents, {questions} questions "
        "(creates/s)", f"{seeded_per_s:.0f}")
    for label, f in runs.items():
        n = len(f.create_ms)
        row(f"[{label}] create -> listed, same instance, p50 / p99 (ms, n={n})",
            p50_p99(f.visible_same_ms), "p99 <= 50",
            pct(f.visible_same_ms, 99) <= TARGET_P99_MS and not f.never_seen)
        row(f"[{label}] create -> listed, other instance, p50 / p99 (ms)",
            p50_p99(f.visible_other_ms), "p99 <= 50",
            pct(f.visible_other_ms, 99) <= TARGET_P99_MS and not f.never_seen)
        row(f"[{label}]   of which the create, p50 / p99 (ms)", p50_p99(f.create_ms))
        row(f"[{label}]   lists that missed it / never listed in {VISIBLE_WITHIN_S:.0f} s",
            f"{f.polls_beyond_first} / {f.never_seen}")
        row(f"[{label}] GET /api/interactions, p50 / p99 (ms, n={len(f.list_ms)})",
            p50_p99(f.list_ms), "p99 <= 50", pct(f.list_ms, 99) <= TARGET_P99_MS)
        row(f"[{label}] list page GET /, p50 / p99 (ms, n={len(f.page_ms)})",
            p50_p99(f.page_ms), "p99 <= 50", pct(f.page_ms, 99) <= TARGET_P99_MS)
        if f.asked_in_background:
            row(f"[{label}]   questions asked meanwhile", f"{f.asked_in_background}")
        if f.cpu is not None:
            row(f"[{label}] cores busy: machine / both portals / this client",
                f"{f.cpu.machine:.2f} / {f.cpu.portals:.2f} / {f.cpu.client:.2f}")
    for kind, done in (("new browser", signed.fresh),
                       ("provider remembers them", signed.remembered)):
        row(f"sign-in round trip, {kind}, p50 / p99 (ms, n={len(done)})",
            p50_p99([s.total_ms for s in done]), "report" if kind == "new browser" else "")
        row("  of which the portal's /login, p50 / p99 (ms)", p50_p99([s.login_ms for s in done]))
        row("  of which the portal's /auth/callback, p50 / p99 (ms)",
            p50_p99([s.callback_ms for s in done]))

    width, vw = max(len(r[0]) for r in rows), max(len(r[1]) for r in rows)
    lines = [f"{'metric':<{width}}  {'value':>{vw}}  {'target':>9}  ok", "-" * (width + vw + 19)]
    lines += [f"{n:<{width}}  {v:>{vw}}  {t:>9}  {o}".rstrip() for n, v, t, o in rows]
    lines += ["", "one member's list on PostgreSQL (EXPLAIN ANALYZE):",
              *(f"  {line}" for line in plan), "",
              f"instances A :{team.a.port} and B :{team.b.port}, PostgreSQL, client on "
              f"{loads[2]}; {os.cpu_count()} CPUs; code: {revision()}",
              "machine cores busy beyond the portals and this client are PostgreSQL's and "
              "other work's: near the CPU count, the p99s measure the queue for a core",
              f"load average 1/5/15 min at start: {loads[0]}; at the end: {loads[1]}"]
    return "\n".join(lines)


def load_average() -> str:
    with open("/proc/loadavg") as load:
        return " / ".join(load.read().split()[:3])


Measured = tuple[float, dict[str, Figures], str]
"""Seeded creates/s, the figures of each pass, the client's event loop."""


async def run_benches(args: argparse.Namespace, team: Team) -> Measured:
    print(f"seeding {args.questions} questions from {SEED_CONNECTIONS} connections ...",
          flush=True)
    seeded = await seed(team, args.questions)
    warm: list[float] = []  # templates compiled, connections pooled: as web_bench.py does
    await timed_gets(team, "/", 2 * WARM_UP, warm)
    await timed_gets(team, f"/api/interactions?limit={LIST_LIMIT}", 2 * WARM_UP, warm)
    runs: dict[str, Figures] = {}
    print(f"measuring, idle ({args.rounds} rounds each) ...", flush=True)
    runs["idle"] = await measure(team, args.rounds, 0)
    if args.asking > 0:
        print(f"measuring, agents asking {args.asking:g}/s ...", flush=True)
        runs[f"asking {args.asking:g}/s"] = await measure(team, args.rounds, args.asking)
    return seeded, runs, loop_name()


def on_fastest_loop(benches: Coroutine[Any, Any, Measured]) -> Measured:
    """uvloop when installed (it comes with uvicorn[standard]), as core_bench.py runs."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(benches)
    return uvloop.run(benches)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="10 members, 1,000 questions, 100 rounds, 20 sign-ins")
    parser.add_argument("--members", type=int, help="members signed in (default 50)")
    parser.add_argument("--questions", type=int, help="questions seeded (default 10,000)")
    parser.add_argument("--rounds", type=int, help="measured requests per path (default 500)")
    parser.add_argument("--sign-ins", type=int, help="measured sign-ins of each kind (default 100)")
    parser.add_argument("--asking", type=float, default=10.0,
                        help="background questions a second in the second pass (0: no second "
                             "pass; default 10)")
    args = parser.parse_args()
    quick = {"members": 10, "questions": 1_000, "rounds": 100, "sign_ins": 20}
    full = {"members": 50, "questions": 10_000, "rounds": 500, "sign_ins": 100}
    for name, value in (quick if args.quick else full).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    binaries = server_binaries()
    if binaries is None:
        print("no PostgreSQL server: sudo apt-get install -y postgresql", file=sys.stderr)
        return 1
    loads = [load_average()]
    cluster = Cluster(binaries).start()
    try:
        with tempfile.TemporaryDirectory(prefix="choice-team-bench-") as tmp:
            workdir = Path(tmp)
            db_url = cluster.new_database()
            port = free_port()
            public = f"http://{HOST}:{port}"
            with OidcProvider(workdir, f"{public}/auth/callback") as provider:
                members = [Member(f"member{n:02d}@{DOMAIN}") for n in range(args.members)]
                for n, member in enumerate(members):
                    provider.set_account(f"m{n:02d}", member.email, f"Member {n:02d}")
                settings = {"CHOICE_AUTH": "oidc", "CHOICE_OIDC_ISSUER": provider.issuer,
                            "CHOICE_OIDC_CLIENT_ID": provider.client_id,
                            "CHOICE_OIDC_CLIENT_SECRET": provider.client_secret,
                            "CHOICE_OIDC_ALLOWED_DOMAINS": DOMAIN, "CHOICE_PUBLIC_URL": public,
                            "CHOICE_DB_URL": db_url, "CHOICE_MAX_SESSIONS": "1000000"}
                a = PortalProcess(workdir / "portal", port=port, **settings).start()
                try:
                    b = PortalProcess(workdir / "portal", **settings).start()
                    try:
                        team = Team(a, b, members)
                        print(f"signing in {len(members)} members ...", flush=True)
                        signed = sign_in_everyone(team, provider, args.sign_ins)
                        make_tokens(team)
                        seeded, runs, loop = on_fastest_loop(run_benches(args, team))
                        plan = explain(db_url, members[0].email)
                    finally:
                        b.stop()
                finally:
                    a.stop()
    finally:
        cluster.stop()
    loads.append(load_average())
    print()
    print(report(args, team, signed, seeded, runs, plan, [*loads, loop]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
