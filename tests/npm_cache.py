"""npm packages the tests drive (the TypeScript MCP SDK, axe-core), installed pinned into
`~/.cache/choice-portal/<name>-<version>` once and reused by later runs. Without node or
npm, or when the registry cannot be reached, the test that asked is skipped with why; under
CI (`CI` set, as `.ci/run` does) it fails instead, as a missing PostgreSQL does: CI installs
node and npm (`scripts/test`), so a skip there would hide the TypeScript-client and
accessibility checks behind a green run."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests.missing_tool import unavailable

CACHE = Path.home() / ".cache" / "choice-portal"


def npm_package(name: str, version: str, purpose: str) -> Path:
    """The directory whose `node_modules` holds `name@version` (installed now if needed)."""
    if not shutil.which("node") or not shutil.which("npm"):
        unavailable(f"node and npm are needed for {purpose}: sudo apt-get install -y nodejs npm")
    home = CACHE / f"{name.replace('@', '').replace('/', '-')}-{version}"
    home.mkdir(parents=True, exist_ok=True)
    if not (home / "node_modules" / name / "package.json").is_file():
        (home / "package.json").write_text(json.dumps({
            "private": True, "type": "module", "description": f"for {purpose}",
            "dependencies": {name: version}}))
        installed = subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=home,
                                   capture_output=True, text=True, timeout=240)
        if installed.returncode != 0:
            unavailable(f"npm could not install {name}@{version} for {purpose}: "
                        f"{installed.stderr.strip()[-300:]}")
    return home
