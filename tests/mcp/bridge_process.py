"""A real `choice mcp` process driven over its stdin and stdout with raw JSON-RPC lines, as
an MCP client would (the SDK's own client hides what the bridge writes and when). Used by
the bridge tests and by `bench/mcp_bench.py`.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from choice.client.portal_client import PortalClient

INITIALIZE_PARAMS: dict[str, Any] = {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "tests", "version": "1"}}


def bridge_env(data_dir: Path, port: int, **extra: str) -> dict[str, str]:
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    return {**inherited, "CHOICE_DATA_DIR": str(data_dir), "CHOICE_PORT": str(port),
            "CHOICE_OPEN_BROWSER": "0", **extra}


class BridgeProcess:
    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "choice.cli", "mcp"], env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.arrived: dict[Any, int] = {}
        """perf_counter_ns() when the reply to each request id was read from stdout."""
        self.next_id = 100
        threading.Thread(target=self._pump, daemon=True).start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            arrived = time.perf_counter_ns()
            message = json.loads(raw)
            if "id" in message:
                self.arrived[message["id"]] = arrived
            self.lines.put(message)
        self.lines.put(None)

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def answer(self, request_id: Any, timeout: float = 20.0) -> dict[str, Any]:
        """The reply to `request_id` (notifications before it are skipped)."""
        while True:
            try:
                message = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no answer to {request_id!r} within {timeout} s") from None
            if message is None:
                raise AssertionError(f"the bridge exited before answering {request_id!r}")
            if message.get("id") == request_id:
                return message

    def request(self, method: str, params: dict[str, Any] | None = None,
                timeout: float = 20.0) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.answer(self.next_id, timeout)

    def initialize(self, params: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = self.request("initialize", params or INITIALIZE_PARAMS)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def close(self, timeout: float = 20.0) -> int:
        """Close stdin, as a client does when it is done, and wait for the exit."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=timeout)

    def terminate(self, timeout: float = 10.0) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=timeout)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def stop_portal_at(port: int, data_dir: Path | None = None) -> None:
    """SIGINT the portal answering on `port` (one a bridge started detached), if any, and
    wait until it is gone. `data_dir`: the portal's, when it is not this test's."""
    client = PortalClient(f"http://127.0.0.1:{port}", owner_token(data_dir))
    if not client.is_portal():
        return
    pid = int(client.call("GET", "/healthz")["pid"])  # the pid is the owner's to see
    os.kill(pid, signal.SIGINT)
    deadline = time.monotonic() + 15
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # another process's exit: nothing to wait on but its /proc entry


def owner_token(data_dir: Path | None = None) -> str | None:
    """The token of the portal in `data_dir`, by default this test's (`CHOICE_DATA_DIR`):
    `/healthz` shows its pid only to the owner."""
    from choice.core.config import Settings
    from choice.core.token import read_token

    return read_token(data_dir / "token" if data_dir else Settings.from_env().token_path)
