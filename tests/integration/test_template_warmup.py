"""`choice serve` on a new data dir has its page templates compiled by a child process
while it starts: the cache fills with no page asked for, and the child is gone afterwards
(reaped, not a zombie)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from choice.web.views.templating import make_environment
from tests.portal_process import free_port
from tests.reliability.faults import wait_until


def children_of(pid: int) -> list[str]:
    """The states of a process's children ('Z': exited, never reaped), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # it exited meanwhile
            continue
        if int(fields[1]) == pid:
            found.append(fields[0])
    return found


def test_a_new_data_dirs_templates_are_compiled_beside_the_start(tmp_path: Path) -> None:
    data_dir, port = tmp_path / "data", free_port()
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")},
           "CHOICE_DATA_DIR": str(data_dir), "CHOICE_PORT": str(port),
           "CHOICE_HOST": "127.0.0.1", "CHOICE_OPEN_BROWSER": "0"}
    portal = subprocess.Popen([sys.executable, "-m", "choice.cli", "serve"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        kept = data_dir / "cache" / "templates"
        templates = len(make_environment().list_templates(extensions=["html"]))
        wait_until(lambda: len(list(kept.glob("*.jinja"))) == templates, 60,
                   "every page template compiled, with no page asked for")
        wait_until(lambda: children_of(portal.pid) == [], 30, "the warm-up child reaped")
        assert portal.poll() is None  # the portal serves on
        assert (kept.stat().st_mode & 0o777) == 0o700
    finally:
        portal.kill()
        portal.wait(timeout=30)
