"""The real agent CLIs, Claude Code and Codex, at the exact versions `package.json` and its
`package-lock.json` here pin, installed with `npm ci` into a cache directory named after the
lock's hash and reused by every later run (the platform's native binary comes from the
lock's optional dependencies). Without node and npm, or when the registry cannot be reached,
the tests that need them are skipped with why; under CI they fail instead (tests/missing_tool.py)."""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.missing_tool import unavailable
from tests.npm_cache import CACHE

HERE = Path(__file__).parent
MANIFESTS = ("package.json", "package-lock.json")
PURPOSE = "the agents tier (tests/agents)"


@dataclass(frozen=True)
class AgentClis:
    bin: Path

    @property
    def claude(self) -> str:
        return str(self.bin / "claude")

    @property
    def codex(self) -> str:
        return str(self.bin / "codex")


def installed() -> AgentClis:
    """The installed CLIs (installing them now if this lock was never installed)."""
    if not shutil.which("node") or not shutil.which("npm"):
        unavailable(f"node and npm are needed for {PURPOSE}: sudo apt-get install -y nodejs npm")
    lock = (HERE / "package-lock.json").read_bytes()
    home = CACHE / f"agents-{hashlib.sha256(lock).hexdigest()[:16]}"
    done = home / "installed"
    home.mkdir(parents=True, exist_ok=True)
    with (home.parent / f"{home.name}.lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # two test workers: one installs, the other waits
        if not done.is_file():
            for name in MANIFESTS:
                shutil.copyfile(HERE / name, home / name)
            ran = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=home,
                                 capture_output=True, text=True, timeout=600)
            if ran.returncode != 0:
                unavailable(f"npm ci could not install the agent CLIs for {PURPOSE}: "
                            f"{ran.stderr.strip()[-400:]}")
            done.write_text("npm ci done\n")
    clis = AgentClis(home / "node_modules" / ".bin")
    for binary in (clis.claude, clis.codex):
        version = subprocess.run([binary, "--version"], capture_output=True, text=True,
                                 timeout=60)
        if version.returncode != 0:
            unavailable(f"{binary} does not run here: {version.stderr.strip()[-300:]}")
    return clis
