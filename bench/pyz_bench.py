"""One-file portal (`scripts/build-pyz`): its size, and how long it takes from the command to
the first `/healthz` 200, on its first start (unpacking) and on later ones.

    scripts/build-pyz && python bench/pyz_bench.py
    python bench/pyz_bench.py --python /usr/bin/python3.12 --python /usr/bin/python3.13
    python bench/pyz_bench.py --runs 5 path/to/choice-portal.pyz

The file is copied alone into an empty directory and started from there as
`python -I choice-portal.pyz serve --port N`, with no `CHOICE_*`, `PYTHON*` or `PEX_*`
variable of the caller. Each interpreter (default: the one under this venv) gets a new HOME,
so pex unpacks into a new `~/.cache/pex`, and a new data dir. Rows:
- first: the new HOME (pex unpacks this Python's wheels and makes its venv) and a new data
  dir (the database is made);
- later: the same HOME and data dir again (median, min-max of `--runs`);
- HOME not writable: HOME names a file, so pex warns and unpacks into a temporary PEX_ROOT
  (under TMPDIR, here one of this run's): every start is a first start, and what is left
  there once the portal has stopped (SIGINT) is printed (pex deletes it only on an exit that
  runs Python's exit handlers, which `choice serve`'s does not).
Also the PEX_ROOT's size after the first start, and, for comparison, a later start of
`choice serve` installed in this venv. Each portal is stopped with SIGINT before the
next starts. Nothing is asserted: it prints.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from core_bench import free_port
from startup_bench import HOST, stop_child, wait_up

from choice.client.portal_client import PortalClient

ROOT = Path(__file__).resolve().parents[1]
PYZ = ROOT / "dist" / "choice-portal.pyz"


def base_interpreter() -> Path:
    """The interpreter this venv was made from: no venv, no packages of ours."""
    return Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"


def clean_env(home: Path, data_dir: Path) -> dict[str, str]:
    kept = {k: v for k, v in os.environ.items()
            if not k.startswith(("CHOICE_", "PYTHON", "PEX", "VIRTUAL_ENV"))}
    return {**kept, "HOME": str(home), "CHOICE_DATA_DIR": str(data_dir),
            "CHOICE_OPEN_BROWSER": "0", "CHOICE_HOST": HOST}


def start_to_healthz(python: Path, pyz: Path, home: Path, data_dir: Path,
                     **extra: str) -> float:
    return timed_serve([python, "-I", pyz.name], pyz.parent,
                       {**clean_env(home, data_dir), **extra})


def timed_serve(command: list[str | Path], cwd: Path, env: dict[str, str]) -> float:
    """Seconds from spawning `command serve --port N` to its first `/healthz` 200."""
    port = free_port()
    began = time.perf_counter()
    process = subprocess.Popen([*command, "serve", "--port", str(port)], cwd=cwd, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        seconds = wait_up(port, began, process, " ".join(map(str, command)))
        assert PortalClient(f"http://{HOST}:{port}", None).is_portal()
        return seconds
    finally:
        stop_child(process)


def size_mb(folder: Path) -> float:
    return sum(path.stat().st_size for path in folder.rglob("*")
               if path.is_file() and not path.is_symlink()) / 1e6


def bench(python: Path, pyz: Path, runs: int, work: Path) -> list[str]:
    version = subprocess.run([python, "-I", "-c", "import platform; print(platform.python_version())"],
                             capture_output=True, text=True, check=True).stdout.strip()
    home, data_dir = work / "home", work / "data"
    home.mkdir()
    first = start_to_healthz(python, pyz, home, data_dir)
    unpacked = size_mb(home / ".cache" / "pex")
    later = [start_to_healthz(python, pyz, home, data_dir) for _ in range(runs)]
    not_a_dir, tmp = work / "home-is-a-file", work / "tmp"
    not_a_dir.touch()
    tmp.mkdir()
    fallback = start_to_healthz(python, pyz, not_a_dir, work / "data-fallback", TMPDIR=str(tmp))
    return [f"CPython {version} ({python})",
            f"  first start (new PEX_ROOT, new data dir)   {first:6.2f} s   "
            f"PEX_ROOT afterwards: {unpacked:.0f} MB",
            f"  later start (median of {runs}; min-max)       {statistics.median(later):6.2f} s   "
            f"{min(later):.2f}-{max(later):.2f} s",
            f"  HOME not writable (temporary PEX_ROOT)     {fallback:6.2f} s   "
            f"left in TMPDIR once stopped: {size_mb(tmp):.0f} MB"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pyz", nargs="?", type=Path, default=PYZ)
    parser.add_argument("--python", action="append", type=Path,
                        help="an interpreter to run it with (repeatable; default: this venv's base)")
    parser.add_argument("--runs", type=int, default=3, help="later starts to time (default 3)")
    args = parser.parse_args()
    if not args.pyz.is_file():
        sys.exit(f"{args.pyz} is missing: run scripts/build-pyz first")
    print(f"{args.pyz}: {args.pyz.stat().st_size / 1e6:.1f} MB")
    installed = Path(sys.executable).with_name("choice")
    if installed.exists():  # the same start from this venv's install, for comparison
        with tempfile.TemporaryDirectory(prefix="pyz-bench-") as tmp:
            env = clean_env(Path.home(), Path(tmp))
            timed_serve([installed], Path(tmp), env)  # the new data dir's first start
            later = [timed_serve([installed], Path(tmp), env) for _ in range(args.runs)]
        print(f"this venv's `choice serve`, later start (median of {args.runs})"
              f"   {statistics.median(later):6.2f} s")
    for python in args.python or [base_interpreter()]:
        with tempfile.TemporaryDirectory(prefix="pyz-bench-") as tmp:
            alone = Path(tmp) / "run"
            alone.mkdir()
            pyz = Path(shutil.copy(args.pyz, alone / "choice-portal.pyz"))
            print("\n".join(bench(python, pyz, args.runs, Path(tmp))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
