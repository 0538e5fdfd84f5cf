"""Elicitation benchmark: the human answers inside the MCP client; how long until the agent's
tool call has the result.

    python bench/elicitation_bench.py            # 200 round trips
    python bench/elicitation_bench.py --quick    # 40

A real portal (`python server.py`, fresh data dir, free port) and the MCP SDK's own Python
client over Streamable HTTP with an `elicitation_callback`. Each run calls `provide_choice`
with `interface: client`; the callback answers the form at once and stamps the moment it
hands its answer back to the SDK; the clock stops when `call_tool` returns. So a round trip
is: the client SDK writes the elicitation result (an HTTP POST to `/mcp`), the portal's SDK
wakes the waiting tool, the answer is checked and durably committed (`synchronous=FULL`) as
interface `client` with its audit event, the tool's waiter wakes, and the result travels back
on the call's SSE stream to the client SDK. Target: p50 <= 5 ms. Nothing is
asserted: it prints.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx2  # noqa: E402
from mcp import types  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from tests.portal_process import PortalProcess  # noqa: E402

REQUEST = {"title": "bench", "prompt": "Which one? (benchmark)", "interface": "client",
           "timeout_seconds": 3600, "allow_annotations": False,
           "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}
TARGET_P50_MS = 5.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def round_trips(portal: PortalProcess, runs: int, warmup: int) -> list[float]:
    answered_at: list[float] = []

    async def answer(_context: Any, _params: types.ElicitRequestParams) -> types.ElicitResult:
        answered_at.append(time.perf_counter())
        return types.ElicitResult(action="accept", content={"answer": "b"})

    headers = {"Authorization": f"Bearer {portal.token}"}
    took: list[float] = []
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http, \
            streamable_http_client(f"{portal.base_url}/mcp", http_client=http) as streams, \
            ClientSession(streams[0], streams[1], elicitation_callback=answer) as session:
        await session.initialize()
        for run in range(warmup + runs):
            result = await session.call_tool("provide_choice", REQUEST)
            done = time.perf_counter()
            body = result.structured_content or {}
            if body.get("answered_via") != "client" or body.get("selected_ids") != ["b"]:
                raise RuntimeError(f"run {run}: not the client's answer: {body}")
            if run >= warmup:
                took.append((done - answered_at[-1]) * 1000)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 round trips instead of 200")
    args = parser.parse_args()
    runs = 40 if args.quick else 200
    with tempfile.TemporaryDirectory() as data_dir:
        portal = PortalProcess(Path(data_dir), CHOICE_MAX_SESSIONS="100000").start()
        try:
            took = asyncio.run(round_trips(portal, runs, warmup=10))
        finally:
            portal.stop()
    p50, p95 = statistics.median(took), percentile(took, 0.95)
    print(f"elicitation round trip, client answer -> agent result, {runs} runs (ms)")
    print(f"  p50 {p50:6.2f}   p95 {p95:6.2f}   max {max(took):6.2f}   "
          f"target p50 <= {TARGET_P50_MS:.0f}: {'met' if p50 <= TARGET_P50_MS else 'MISSED'}")


if __name__ == "__main__":
    main()
