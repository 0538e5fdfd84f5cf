"""Files with a question: what a 5 MiB image costs the portal.

    python bench/attachments_bench.py   # 5 asks with a 5 MiB file; 10 downloads at once, 3 times

Prints, against a real portal (`core_bench.py`'s start: a fresh data dir, a free port):
- ask with one 5 MiB PNG -> 201 (the POST, base64 in JSON, stored in the database), p50/max;
- ten concurrent downloads of that file: the wall time, every byte checked (sha256), and
  the portal's RSS before and at its peak while serving them (target: growth <= 30 MB; the
  bytes are read in 256 KiB chunks, never whole);
- the person's side: a 5 MiB file uploaded (the raw bytes to `.../draft/files`, as the page
  and the terminal send it) and the answer submitted, until the agent's waiting poll
  returns the result listing it; and until the agent has fetched its bytes too (sha256
  checked); p50/max over 5 questions;
- the peak RSS growth over the whole run (VmHWM).
Standard library only, besides the project.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from core_bench import HOST, start_portal, wait_healthy

FILE_BYTES = 5 * 1024 * 1024
DOWNLOADS = 10
ROUNDS = 3


def request(port: int, token: str, method: str, path: str, body: bytes | None = None,
            content_type: str = "application/json") -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    try:
        headers = {"Authorization": f"Bearer {token}"}
        if body is not None:
            headers["Content-Type"] = content_type
        conn.request(method, path, body=body, headers=headers)
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


def download(port: int, token: str, path: str) -> str:
    """Stream it, 64 KiB at a time, and return its sha256 (nothing held whole here either)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    digest = hashlib.sha256()
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        reply = conn.getresponse()
        assert reply.status == 200, reply.status
        while chunk := reply.read(64 * 1024):
            digest.update(chunk)
    finally:
        conn.close()
    return digest.hexdigest()


def rss_mb(pid: int, key: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024 / 1e6
    raise RuntimeError(f"{key} not found")


async def run() -> int:
    blob = b"\x89PNG\r\n\x1a\n" + os.urandom(FILE_BYTES - 8)
    digest = hashlib.sha256(blob).hexdigest()
    body = json.dumps({"title": "Which mock-up?", "prompt": "One large image.", "options": [
        {"id": "a", "label": "A"}, {"id": "b", "label": "B"}], "timeout_seconds": 3600,
        "attachments": [{"name": "mock.png", "mime_type": "image/png",
                         "data": base64.b64encode(blob).decode()}]}).encode()
    with tempfile.TemporaryDirectory(prefix="choice-attach-bench-") as tmp:
        portal = start_portal(Path(tmp) / "data", max_sessions=1000)
        try:
            await wait_healthy(portal)
            token = (portal.data_dir / "token").read_text().strip()
            pid = portal.process.pid
            asks, walls, growths = [], [], []
            iid = ""
            for _ in range(5):
                started = time.perf_counter()
                status, reply = await asyncio.to_thread(
                    request, portal.port, token, "POST", "/api/interactions", body)
                asks.append((time.perf_counter() - started) * 1000)
                assert status == 201, (status, reply[:300])
                iid = json.loads(reply)["interaction_id"]
            path = f"/api/interactions/{iid}/attachments/a1"
            await asyncio.to_thread(download, portal.port, token, path)  # warm
            for _ in range(ROUNDS):
                before = rss_mb(pid)
                peak = [before]
                stop = threading.Event()

                def sample(peak: list[float] = peak, stop: threading.Event = stop) -> None:
                    while not stop.is_set():
                        peak.append(rss_mb(pid))
                        stop.wait(0.005)

                sampler = threading.Thread(target=sample, daemon=True)
                sampler.start()
                started = time.perf_counter()
                got = await asyncio.gather(*(asyncio.to_thread(download, portal.port, token, path)
                                             for _ in range(DOWNLOADS)))
                walls.append((time.perf_counter() - started) * 1000)
                stop.set()
                sampler.join()
                assert got == [digest] * DOWNLOADS, "a download differs from the file"
                growths.append(max(peak) - before)
            print(f"ask with one 5 MiB PNG -> 201, p50 / max (ms, n=5): "
                  f"{statistics.median(asks):.0f} / {max(asks):.0f}")
            print(f"{DOWNLOADS} concurrent downloads of it, wall p50 (ms, n={ROUNDS}): "
                  f"{statistics.median(walls):.0f}; every byte checked (sha256)")
            print(f"portal RSS growth while serving them, max over rounds (MB): "
                  f"{max(growths):.1f}   target <= 30  {'yes' if max(growths) <= 30 else 'MISSED'}")
            to_result, to_bytes = await answers_with_a_file(portal.port, token, blob, digest)
            print(f"a person's 5 MiB upload + answer -> the agent's poll has the result, p50 / "
                  f"max (ms, n=5): {statistics.median(to_result):.0f} / {max(to_result):.0f}")
            print(f"  ... and the agent has the file's bytes (sha256 checked), p50 / max (ms): "
                  f"{statistics.median(to_bytes):.0f} / {max(to_bytes):.0f}")
            print(f"portal RSS now / VmHWM (MB): {rss_mb(pid):.1f} / {rss_mb(pid, 'VmHWM'):.1f}; "
                  f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
        finally:
            portal.stop()
    return 0


async def answers_with_a_file(port: int, token: str, blob: bytes, digest: str,
                              ) -> tuple[list[float], list[float]]:
    """Per question: the agent waits (a long poll); the person uploads `blob` and answers.
    From the upload's start to the poll's return, and to the agent holding the bytes."""
    asked = json.dumps({"title": "Does it look right?", "prompt": "Send a screenshot.",
                        "options": [{"id": "a", "label": "Yes"}, {"id": "b", "label": "No"}],
                        "timeout_seconds": 3600}).encode()
    to_result, to_bytes = [], []
    for _ in range(5):
        status, reply = await asyncio.to_thread(request, port, token, "POST",
                                                "/api/interactions", asked)
        iid = json.loads(reply)["interaction_id"]
        poll = asyncio.create_task(asyncio.to_thread(
            request, port, token, "GET", f"/api/interactions/{iid}?wait=60"))
        started = time.perf_counter()
        status, reply = await asyncio.to_thread(
            request, port, token, "POST", f"/api/interactions/{iid}/draft/files?name=shot.png",
            blob, "image/png")
        assert status == 201, (status, reply[:300])
        status, reply = await asyncio.to_thread(
            request, port, token, "POST", f"/api/interactions/{iid}/response",
            json.dumps({"selected_ids": ["b"]}).encode())
        assert status == 200, (status, reply[:300])
        status, reply = await poll
        result = json.loads(reply)
        to_result.append((time.perf_counter() - started) * 1000)
        assert result["attachments"][0]["sha256"] == digest, result
        path = "/" + result["attachments"][0]["url"].split("/", 3)[3]
        assert await asyncio.to_thread(download, port, token, path) == digest
        to_bytes.append((time.perf_counter() - started) * 1000)
    return to_result, to_bytes


if __name__ == "__main__":
    sys.exit(asyncio.run(run()))
