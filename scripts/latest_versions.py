"""`scripts/test --latest`: what the fresh venv holds, set against requirements.lock.

Run with the venv's own interpreter after `pip install -e '.[EXTRAS]'`. Prints
1. each direct dependency (`[project].dependencies` in pyproject.toml and the named extras)
   as `name==version`, with the lock's pin beside it when they differ;
2. every distribution in the venv whose version is not the lock's, that the lock does not
   pin, or that the lock pins for this interpreter and platform but the venv lacks.

It only reports: a difference is what `--latest` is for, never a failure. Reads the venv
through `importlib.metadata` and the lock's markers through `packaging` (pytest needs it, so
the test extra brings it).
"""

from __future__ import annotations

import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

CHECKOUT = Path(__file__).resolve().parent.parent
PROJECT = "choice-portal"


def locked_versions(lock_path: Path) -> dict[str, str]:
    """The lock's pins that apply to this interpreter and platform, by canonical name."""
    pins: dict[str, str] = {}
    for line in lock_path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "==" not in line:
            continue
        spec, _, marker = line.partition(";")
        if marker.strip() and not Marker(marker.strip()).evaluate():
            continue
        name, _, version = spec.partition("==")
        pins[canonicalize_name(name.strip())] = version.strip()
    return pins


def installed_versions() -> dict[str, tuple[str, str]]:
    """Every distribution in this environment: canonical name → (name as published, version)."""
    found: dict[str, tuple[str, str]] = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        found[canonicalize_name(name)] = (name, dist.version)
    return found


def direct_dependencies(extras: list[str]) -> list[str]:
    """The canonical names pyproject.toml asks for directly, with the given extras."""
    project = tomllib.loads((CHECKOUT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = list(project["dependencies"])
    for extra in extras:
        specs.extend(project["optional-dependencies"][extra])
    names: list[str] = []
    for spec in specs:
        name = canonicalize_name(Requirement(spec).name)
        if name not in names:
            names.append(name)
    return names


def main(extras: list[str]) -> int:
    pins = locked_versions(CHECKOUT / "requirements.lock")
    installed = installed_versions()
    # The venv's own tools and the project itself: not pinned by the lock, not compared.
    ignored = {canonicalize_name(PROJECT), "pip", "setuptools", "wheel"}

    extras_named = ", ".join(extras) or "no extras"
    print(f"Direct dependencies, newest that pyproject.toml allows ({extras_named}):")
    for name in direct_dependencies(extras):
        if name not in installed:
            print(f"  {name}: not installed")
            continue
        shown, version = installed[name]
        locked = pins.get(name)
        note = "" if locked == version else f"   (lock: {locked or 'not pinned'})"
        print(f"  {shown}=={version}{note}")

    changed: list[str] = []
    for name in sorted(set(installed) | set(pins)):
        if name in ignored:
            continue
        locked = pins.get(name)
        if name not in installed:
            changed.append(f"  {name}: lock {locked}, not installed")
            continue
        shown, version = installed[name]
        if locked is None:
            changed.append(f"  {shown}=={version}: not in the lock")
        elif locked != version:
            changed.append(f"  {shown}: lock {locked} -> {version}")
    print(f"Differences from requirements.lock ({len(changed)}):")
    print("\n".join(changed) if changed else "  none")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
