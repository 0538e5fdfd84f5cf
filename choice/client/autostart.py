"""A portal for `choice mcp` and `start_portal=True`: the one that answers, or one started
detached when none does.

A started portal exits by itself once idle (`choice serve --idle-exit`). When several
bridges start at once on a new data dir (an IDE opening two agent sessions), a lock file in
the data dir lets one of them start the portal while the others wait for it, instead of
every bridge starting one that then loses the race for the port (each costs a core for a
second or more). Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator

from choice.client.errors import PortalNotRunning
from choice.client.portal_client import PortalClient
from choice.core.config import Settings, choice_command

try:
    import fcntl
except ImportError:  # not on Windows: there every bridge may start one, and one wins the port
    fcntl = None  # type: ignore[assignment]

START_TIMEOUT = 30.0
IDLE_EXIT_SECONDS = 600
POLL_SECONDS = 0.01
"""A refused connection costs microseconds; each step of waiting is a step later on the page."""


@contextlib.contextmanager
def _starting_alone(settings: Settings) -> Iterator[None]:
    """Held while this process checks for a portal and starts one: released on exit, even
    a `kill -9`, since the kernel drops the lock with the process."""
    if fcntl is None:
        yield
        return
    with open(settings.data_dir / "portal-start.lock", "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure_portal(settings: Settings) -> None:
    """Return once a choice portal answers at the configured address; start one if needed
    (`PortalNotRunning` if it does not come up)."""
    client = PortalClient(settings.base_url, None)
    if client.is_portal():
        return
    settings.prepare_data_dir()
    with _starting_alone(settings):
        if client.is_portal():  # another bridge started it while this one waited
            return
        child = _start_detached(settings)
        deadline = time.monotonic() + START_TIMEOUT
        while not client.is_portal():
            # A child that exited may have lost the port to a portal started elsewhere:
            # only when nothing answers either is the start over.
            ended = child.poll() is not None and not client.is_portal()
            if ended or time.monotonic() > deadline:
                raise PortalNotRunning(settings.base_url,
                                       f"see {settings.data_dir / 'portal.log'}")
            time.sleep(POLL_SECONDS)  # the child's port is all there is to wait on


def _start_detached(settings: Settings) -> subprocess.Popen[bytes]:
    with open(settings.data_dir / "portal.log", "ab") as log:
        return subprocess.Popen(
            [*choice_command(), "serve", "--idle-exit", str(IDLE_EXIT_SECONDS)],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
            env={**os.environ, "CHOICE_OPEN_BROWSER": os.environ.get("CHOICE_OPEN_BROWSER", "1")},
        )
