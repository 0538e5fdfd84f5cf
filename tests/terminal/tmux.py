"""A real terminal for the tests: one private tmux server per pane.

`Pane` starts a command in a detached tmux session of a given size, sends keys, reads the
screen (`capture-pane`) and waits on conditions: every wait polls the screen until the
expected text shows, and fails with the last screen it saw. Nothing here sleeps to
synchronize. The command runs under `sh -c '...; echo "[exit $?]"; sleep 600'`, so once it
ends its last line and exit code stay readable until the server is killed.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from tests.missing_tool import unavailable

TMUX = "/usr/bin/tmux"
WAIT_SECONDS = 10.0
POLL_SECONDS = 0.05
EXIT_MARK = re.compile(r"\[exit (\d+)\]")


class Pane:
    def __init__(self, command: Sequence[str], env: Mapping[str, str], *, width: int = 100,
                 height: int = 30) -> None:
        self.socket = f"choice-test-{uuid.uuid4().hex[:12]}"
        self.width, self.height = width, height
        self.socket_path: Path | None = None
        assignments = [f"{name}={value}" for name, value in env.items()]
        self.shell = (shlex.join(["env", *assignments, *command])
                      + '; echo "[exit $?]"; sleep 600')

    def tmux(self, *args: str) -> str:
        done = subprocess.run([TMUX, "-L", self.socket, "-f", "/dev/null", *args],
                              capture_output=True, text=True, timeout=10, env=server_env())
        if done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    def start(self) -> Pane:
        self.tmux("new-session", "-d", "-x", str(self.width), "-y", str(self.height), self.shell)
        self.socket_path = Path(self.tmux("display-message", "-p", "#{socket_path}").strip())
        return self

    def kill(self) -> None:
        """Stop the server (and what runs in it) and remove its socket file."""
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        if self.socket_path is not None:
            self.socket_path.unlink(missing_ok=True)

    # -- reading -------------------------------------------------------------------------------
    def screen(self, *, escapes: bool = False) -> str:
        """What the pane shows now; with `escapes`, tmux's own attribute sequences too."""
        return self.tmux("capture-pane", "-p", *(["-e"] if escapes else []))

    def title(self) -> str:
        return self.tmux("display-message", "-p", "#{pane_title}").strip()

    def wait_until(self, ready: Callable[[str], bool], what: str,
                   timeout: float = WAIT_SECONDS) -> str:
        """Poll the screen until `ready(screen)`; fail showing the last screen."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {timeout:.0f} s for {what}; the screen was:\n"
                                     + framed(screen))
            time.sleep(POLL_SECONDS)  # a polling interval, not a synchronization

    def wait_for(self, *texts: str, timeout: float = WAIT_SECONDS) -> str:
        return self.wait_until(lambda screen: all(text in screen for text in texts),
                               " and ".join(repr(text) for text in texts), timeout)

    def wait_gone(self, text: str, timeout: float = WAIT_SECONDS) -> str:
        return self.wait_until(lambda screen: text not in screen, f"{text!r} to go", timeout)

    def line_with(self, text: str) -> str:
        """The first screen line containing `text` (waits for it)."""
        screen = self.wait_for(text)
        return next(line for line in screen.splitlines() if text in line)

    def exit_code(self, timeout: float = WAIT_SECONDS) -> int:
        """Wait for the command to end; its exit code."""
        screen = self.wait_until(lambda s: EXIT_MARK.search(s) is not None, "the command to end",
                                 timeout)
        found = EXIT_MARK.search(screen)
        assert found is not None
        return int(found.group(1))

    def output(self) -> list[str]:
        """The lines the ended command left on the screen (lines the terminal wrapped joined
        again), without blank ones and the exit mark."""
        lines = self.tmux("capture-pane", "-p", "-J").splitlines()
        return [line.rstrip() for line in lines if line.strip() and not EXIT_MARK.search(line)]

    # -- acting ----------------------------------------------------------------------------------
    def press(self, *keys: str) -> None:
        """tmux key names: `Down`, `Up`, `Enter`, `Space`, `Tab`, `Escape`, `BSpace`, `j`."""
        self.tmux("send-keys", *keys)

    def type(self, text: str) -> None:
        """Literal text, each character a key."""
        self.tmux("send-keys", "-l", text)

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-x", str(width), "-y", str(height))


def need_tmux() -> None:
    if not Path(TMUX).exists():
        unavailable(f"the terminal tests drive {TMUX}: apt-get install -y tmux")


def server_env() -> dict[str, str]:
    """The tmux server's own environment: the developer's CHOICE_* settings stay out (the
    pane gets its own through `env`)."""
    return {name: value for name, value in os.environ.items()
            if not name.startswith("CHOICE_") and name != "TMUX"}


def framed(screen: str) -> str:
    lines = screen.rstrip("\n").split("\n")
    width = max((len(line) for line in lines), default=0)
    rule = "+" + "-" * width + "+"
    return "\n".join([rule, *(f"|{line.ljust(width)}|" for line in lines), rule])
