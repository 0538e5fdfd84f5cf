"""How long the package's modules are: the longest ones, and how many are long or short.

    python bench/module_sizes.py                 # the 20 longest modules of choice/
    python bench/module_sizes.py --top 40 choice/web

A figure to read beside a module's cohesion, not a limit: a module that holds one concern
may be long, and two short modules may be one concern cut in two. Lines are counted as
the file has them (docstrings, comments and blank lines included). Nothing is asserted:
it prints, and exits 0.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LONG, SHORT = 300, 60
"""Where the counts of long and short modules are drawn (lines)."""


def sizes(folder: Path) -> dict[str, int]:
    """Each module under `folder` (as its dotted name) and its number of lines."""
    found = {}
    for path in sorted(folder.rglob("*.py")):
        dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[dotted.removesuffix(".__init__")] = len(path.read_text().splitlines())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="choice",
                        help="a folder of the repository (default: choice)")
    parser.add_argument("--top", type=int, default=20, help="how many of the longest to list")
    arguments = parser.parse_args()
    folder = (ROOT / arguments.folder).resolve()
    measured = sizes(folder)
    if not measured:
        print(f"no Python modules under {folder}")
        return
    lines = list(measured.values())
    print(f"{arguments.folder}: {len(measured)} modules, {sum(lines):,} lines; per module "
          f"median {statistics.median(lines):.0f}, longest {max(lines)}")
    print(f"  over {LONG} lines: {sum(count > LONG for count in lines)}; "
          f"under {SHORT} lines: {sum(count < SHORT for count in lines)}")
    print(f"\nThe {min(arguments.top, len(measured))} longest:")
    for name, count in sorted(measured.items(), key=lambda item: -item[1])[:arguments.top]:
        print(f"  {count:5}  {name}")


if __name__ == "__main__":
    main()
