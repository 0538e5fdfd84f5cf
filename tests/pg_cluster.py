"""A throwaway PostgreSQL cluster for the tests: Debian's server binaries, `initdb` in a
temporary directory (as the `postgres` user when the tests run as root: PostgreSQL refuses
root), a free port on 127.0.0.1, stopped and deleted at the end. Its life is tied to the
test process: a watchdog holds a pipe from it and stops the server the moment the pipe
closes, however the test process ended (`kill -9` included); the next cluster started also
clears any that one missed. Each caller asks it for a fresh database by name."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg

from choice.store import Store

SERVER_USER = "postgres"
"""The system account the server runs as when the tests run as root."""
ROLE = "choice"
OWNER = "owner.pid"
"""The test process a cluster belongs to, in its directory."""
WATCHDOG = """
import shutil, subprocess, sys
sys.stdin.buffer.read()  # returns when the test process closes the pipe or dies
subprocess.run(sys.argv[1:-1], capture_output=True, timeout=60)
shutil.rmtree(sys.argv[-1], ignore_errors=True)
"""
"""Stops the server (the command in its arguments) and deletes the cluster's directory (the
last argument) once its stdin closes: in its own session, so a signal to the test run's
process group does not take it down before it has done so."""


def server_binaries() -> Path | None:
    """The newest installed server's bin directory, or None when none is installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda path: int(Path(path).parent.parent.name))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    def __init__(self, binaries: Path) -> None:
        self._bin = binaries
        self._root = Path(tempfile.mkdtemp(prefix="choice-pg-"))
        self._data = self._root / "data"
        self.port = _free_port()
        self._databases = 0
        self._template_ready = False
        self._watchdog: subprocess.Popen[bytes] | None = None

    def _command(self, *command: str) -> list[str]:
        as_user = ["runuser", "-u", SERVER_USER, "--"] if os.geteuid() == 0 else []
        return [*as_user, *command]

    def _run(self, *command: str) -> None:
        subprocess.run(self._command(*command), check=True, capture_output=True, timeout=60)

    def _stop_command(self, data: Path) -> list[str]:
        return self._command(str(self._bin / "pg_ctl"), "-D", str(data), "-m", "immediate",
                             "-w", "stop")

    def start(self) -> Cluster:
        self._stop_orphans()
        (self._root / OWNER).write_text(str(os.getpid()))
        if os.geteuid() == 0:
            shutil.chown(self._root, SERVER_USER)
        self._run(str(self._bin / "initdb"), "-D", str(self._data), "-A", "trust",
                  "-U", ROLE, "-E", "UTF8", "--no-sync", "--locale=C")
        options = (f"-p {self.port} -k {self._root} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c full_page_writes=off -c max_connections=300")
        # The watchdog first: a test process killed while the server starts leaves nothing.
        self._watchdog = subprocess.Popen(
            [sys.executable, "-c", WATCHDOG, *self._stop_command(self._data), str(self._root)],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        self._run(str(self._bin / "pg_ctl"), "-D", str(self._data), "-o", options,
                  "-l", str(self._root / "server.log"), "-w", "start")
        return self

    def _stop_orphans(self) -> None:
        """Clusters whose test process died without stopping them (a killed run): stopped
        and deleted, so they do not pile up on the machine."""
        for owner in Path(tempfile.gettempdir()).glob(f"choice-pg-*/{OWNER}"):
            try:
                pid = int(owner.read_text())
                os.kill(pid, 0)
                continue  # its test process still runs
            except ProcessLookupError:
                pass
            except (OSError, ValueError):
                continue  # not ours to judge (another user's, or being written)
            with contextlib.suppress(subprocess.SubprocessError, OSError):
                subprocess.run(self._stop_command(owner.parent / "data"), check=True,
                               capture_output=True, timeout=60)
            shutil.rmtree(owner.parent, ignore_errors=True)

    def admin_url(self) -> str:
        return f"postgresql://{ROLE}@127.0.0.1:{self.port}/postgres"

    def new_database(self, migrated: bool = True) -> str:
        """A fresh database, its SQLAlchemy URL: a copy of one already brought to the head
        revision (a file copy, ~10x faster than migrating each), or empty."""
        if migrated and not self._template_ready:
            Store(self._create("migrated", "template0")).open().close()
            self._template_ready = True
        self._databases += 1
        return self._create(f"t{self._databases}", "migrated" if migrated else "template0")

    def _create(self, name: str, template: str) -> str:
        with psycopg.connect(self.admin_url(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return f"postgresql+psycopg://{ROLE}@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """Stop the server and delete the cluster (the watchdog's work, done now)."""
        watchdog = self._watchdog
        if watchdog is not None and watchdog.stdin is not None:
            watchdog.stdin.close()
            watchdog.wait(timeout=90)
        shutil.rmtree(self._root, ignore_errors=True)


def chosen_database(data_dir: Path) -> str:
    """The database URL the `backend` fixture chose: PostgreSQL, or SQLite in `data_dir`."""
    return os.environ.get("CHOICE_DB_URL") or f"sqlite:///{data_dir / 'choice.db'}"
