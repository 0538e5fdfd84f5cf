"""`scripts/build-pyz`: the portal and everything it imports, in one file (a PEX zipapp).

1. The wheel, built with uv as `tests/packaging/test_wheel.py` builds it: `templates/`,
   `static/`, `locales/` and `manifest.toml` go inside as `choice/_resources/`
   (`hatch_build.py`), whatever those folders hold.
2. pex resolves that wheel's own requirements (`dependencies` in pyproject.toml and the
   `postgres` extra; nothing of `test` or `docs`) with requirements.lock as constraints,
   once for each target in `TARGETS`, from the index pip is configured with
   (`--use-pip-config`). pex keeps what it downloads in its cache (`~/.cache/pex`).
3. Every distribution inside is checked against the lock: one the lock does not pin, or pins
   at another version, fails the build (run scripts/lock, then build again).

Why pex rather than shiv: shiv installs with `pip install --target` for one interpreter, so
one file per Python version; pex resolves for several platforms into one file and picks
each package's wheel for the running interpreter. shiv unpacks into `~/.shiv` and fails when
that cannot be written; pex falls back to a temporary directory.

The file is a venv-mode PEX: its first run unpacks it under PEX_ROOT (default
`~/.cache/pex`; a temporary one when that is not writable) and makes a venv there, later
runs start that venv at once. `PEX_*` variables reach the portal's own children
(`--no-strip-pex-env`), so a portal that `choice mcp` starts unpacks to the same PEX_ROOT.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
OUTPUT = ROOT / "dist" / "choice-portal.pyz"
EXTRAS = "postgres"
"""PostgreSQL's driver (psycopg with its own libpq) rides along: a server that grows to
several instances needs no other file. It makes the file larger, per Python version."""
TARGETS = (
    "manylinux2014_x86_64-cp-3.11.0-cp311",
    "manylinux2014_x86_64-cp-3.12.0-cp312",
    "manylinux2014_x86_64-cp-3.13.0-cp313",
)
"""pex's abbreviated platforms: Linux x86_64 with glibc 2.17 or newer (manylinux2014), one
per CPython minor version; the patch level is what markers like `python_full_version` are
evaluated against. Another version is one more line (its wheels must exist for every
compiled dependency)."""


def _run(*command: str | Path) -> str:
    done = subprocess.run([str(part) for part in command], cwd=ROOT, capture_output=True,
                          text=True)
    if done.returncode != 0:
        missing = "No module named" in done.stderr
        sys.exit(f"build-pyz: {' '.join(map(str, command[:4]))} ... failed:\n{done.stdout}"
                 f"{done.stderr}" + ("install the test extra (pex, uv): pip install -c "
                                     "requirements.lock -e '.[test]'" if missing else ""))
    return done.stdout


def build_wheel(work: Path) -> Path:
    _run(sys.executable, "-m", "uv", "build", "--wheel", "--quiet", "--out-dir", work)
    (wheel,) = work.glob("choice_portal-*.whl")
    return wheel


def build_pex(wheel: Path, output: Path, pex_args: list[str]) -> None:
    platforms = [argument for target in TARGETS for argument in ("--platform", target)]
    _run(sys.executable, "-m", "pex", f"choice-portal[{EXTRAS}] @ {wheel.as_uri()}",
         "--constraints", LOCK, *platforms, "--use-pip-config",
         "--console-script", "choice", "--venv", "--no-strip-pex-env",
         "--python-shebang", "/usr/bin/env python3", "--output-file", output, *pex_args)


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked_versions() -> dict[str, set[str]]:
    """Each project the lock pins, and its versions (one per environment marker)."""
    pins: dict[str, set[str]] = {}
    for name, version in re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)",
                                    LOCK.read_text(), re.M):
        pins.setdefault(_normalized(name), set()).add(version)
    return pins


def distributions(pex: Path) -> dict[str, set[str]]:
    """Each project inside (from PEX-INFO's wheel file names) and its versions."""
    with zipfile.ZipFile(pex) as archive:
        info = json.loads(archive.read("PEX-INFO"))
    found: dict[str, set[str]] = {}
    for filename in info["distributions"]:
        name, version = filename.split("-")[:2]
        found.setdefault(_normalized(name), set()).add(version)
    return found


def unlocked(pex: Path) -> list[str]:
    """What is inside but not pinned so by the lock (the project itself aside)."""
    pins = locked_versions()
    return [f"{name} {', '.join(sorted(versions))} "
            f"(lock: {', '.join(sorted(pins.get(name, ()))) or 'not pinned'})"
            for name, versions in sorted(distributions(pex).items())
            if name != "choice-portal" and not versions <= pins.get(name, set())]


def main() -> int:
    parser = argparse.ArgumentParser(prog="scripts/build-pyz", description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT,
                        help=f"where to write it (default {OUTPUT.relative_to(ROOT)})")
    parser.add_argument("pex_args", nargs="*",
                        help="after `--`: more pex options, e.g. -- --index-url URL")
    args = parser.parse_args()
    output = args.output.resolve()
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="build-pyz-") as work:
        build_pex(build_wheel(Path(work)), output, args.pex_args)
    wrong = unlocked(output)
    if wrong:
        output.unlink()
        sys.exit("build-pyz: these are not the versions requirements.lock pins; run "
                 "scripts/lock (and commit the lock), then build again:\n  " + "\n  ".join(wrong))
    inside = distributions(output)
    print(f"{output}: {output.stat().st_size / 1e6:.1f} MB, {len(inside)} projects, "
          f"for {', '.join(TARGETS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
