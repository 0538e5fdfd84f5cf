"""The answer path against `GET /healthz`, for `core_bench.py`: the human's
`POST /api/interactions/{id}/response` (a durable commit, synchronous=FULL, before the 200)
and the cheapest request the portal serves, measured in the same run.

Two clients, because the ratio depends on what the client itself costs:
- one keep-alive connection, each request sent when the previous one was answered (the
  server's own cost, alternating the two kinds so that a load change hits both alike);
- a new connection per request, as `choice answer` sends answers (`PortalClient`).
Plus the server's CPU per request of each kind (all its threads, from /proc), which other
processes on the machine disturb less than latencies.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from choice.client.portal_client import PortalClient

ANSWER = {"selected_ids": ["a"]}


class Session(Protocol):
    async def request(self, method: str, path: str, body: Any = None) -> Any: ...

    async def aclose(self) -> None: ...


@dataclass
class AnswerPath:
    healthz_ms: list[float]
    response_ms: list[float]
    fresh_healthz_ms: list[float]
    fresh_response_ms: list[float]
    healthz_cpu_us: float
    response_cpu_us: float


async def _timed(session: Session, method: str, path: str, body: Any = None) -> float:
    t0 = time.perf_counter_ns()
    reply = await session.request(method, path, body)
    if reply.status != 200:
        raise RuntimeError(f"{method} {path}: HTTP {reply.status} {reply.body[:300]!r}")
    return float(reply.t_done - t0) / 1e6


def _fresh_connections(client: PortalClient, ids: list[str]) -> tuple[list[float], list[float]]:
    healthz, response = [], []
    for iid in ids:
        t0 = time.perf_counter()
        client.request("GET", "/healthz")
        t1 = time.perf_counter()
        client.respond(iid, ANSWER)
        t2 = time.perf_counter()
        healthz.append((t1 - t0) * 1000)
        response.append((t2 - t1) * 1000)
    return healthz, response


async def bench_answer_path(session: Session, client: PortalClient, cpu_ns: Callable[[], int],
                            create: Callable[[int], Awaitable[list[str]]], n: int) -> AnswerPath:
    """`create(k)` makes k pending interactions and returns their ids."""
    warm, ids = 50, await create(3 * n + 50)
    for iid in ids[:warm]:
        await _timed(session, "GET", "/healthz")
        await _timed(session, "POST", f"/api/interactions/{iid}/response", ANSWER)
    ids = ids[warm:]

    started = cpu_ns()
    for _ in range(n // 2):
        await _timed(session, "GET", "/healthz")
    healthz_cpu = (cpu_ns() - started) / (n // 2) / 1e3
    started = cpu_ns()
    for iid in ids[:n // 2]:
        await _timed(session, "POST", f"/api/interactions/{iid}/response", ANSWER)
    response_cpu = (cpu_ns() - started) / (n // 2) / 1e3

    healthz, response = [], []
    for iid in ids[n:2 * n]:
        healthz.append(await _timed(session, "GET", "/healthz"))
        response.append(await _timed(session, "POST", f"/api/interactions/{iid}/response", ANSWER))
    fresh_healthz, fresh_response = await asyncio.to_thread(_fresh_connections, client,
                                                            ids[2 * n:3 * n])
    return AnswerPath(healthz, response, fresh_healthz, fresh_response, healthz_cpu, response_cpu)
