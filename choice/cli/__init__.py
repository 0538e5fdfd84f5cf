"""`choice`: the command line (serve, ask, answer, list, open, token, db, mcp). The entry
point: it may import any transport; nothing imports it. `commands.py` reads the arguments
and runs one; each command imports only what it needs (`choice mcp` must start at once).
"""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    """The `choice` console script (and `python -m choice.cli`)."""
    from choice.cli.commands import main as run

    return run(argv)
