"""A real portal in a subprocess (uvicorn on a free port), for tests that need one."""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from choice.client.portal_client import PortalClient

ROOT = Path(__file__).resolve().parents[1]
READY_LINE = "Uvicorn running on"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PortalProcess:
    def __init__(self, data_dir: Path, port: int | None = None, **env: str) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        inherited = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
        # The developer's own CHOICE_LANG or CHOICE_DB_URL must not leak into a test portal.
        self.env = {**inherited, "CHOICE_DATA_DIR": str(data_dir), "CHOICE_PORT": str(self.port),
                    "CHOICE_OPEN_BROWSER": "0", "CHOICE_HOST": "127.0.0.1", **env}
        self.process: subprocess.Popen[str] | None = None
        self.log: list[str] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def token(self) -> str:
        return (self.data_dir / "token").read_text().strip()

    def client(self) -> PortalClient:
        return PortalClient(self.base_url, self.token)

    def start(self, timeout: float = 20.0) -> PortalProcess:
        """Start `python server.py` (what `choice serve` runs) and return once uvicorn
        reports startup complete, within `timeout` s. A portal that does not get there (it
        exits, runs out of time, or the test is interrupted meanwhile) is killed before the
        error (with its log) is raised: a fixture that fails to start one leaves no process."""
        self.process = subprocess.Popen(
            [sys.executable, "server.py"],
            cwd=ROOT, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        try:
            return self._started(timeout)
        except BaseException:
            self._discard()
            raise

    def _started(self, timeout: float) -> PortalProcess:
        lines: queue.Queue[str | None] = queue.Queue()

        def pump() -> None:
            assert self.process is not None and self.process.stdout is not None
            for line in self.process.stdout:
                self.log.append(line)
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"portal did not start within {timeout} s:\n"
                                   + "".join(self.log)) from None
            if line is None:
                raise RuntimeError("portal exited:\n" + "".join(self.log))
            if READY_LINE in line:
                return self

    def _discard(self) -> None:
        """Kill a portal that did not start, and reap it."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)

    def kill9(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill9()
