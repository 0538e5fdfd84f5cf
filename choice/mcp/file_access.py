"""Which files `choice mcp` may read for an attachment's `path`: the one place that says so.

The path is the model's text, and the bridge can read whatever the person can. So a file is
read only when, symlinks resolved, it lies inside the agent's working directory (the
bridge's, which the MCP client sets) or a folder the person named in
`CHOICE_MCP_FILE_ROOTS`, and is not a secret, wherever it lies: the portal's own data dir
(its token), or what `choice.core.secret_files` lists (`~/.ssh` and the like, `/proc`,
`.env` files, private keys, credential files). A refusal says what is wrong and how to fix
it; it never reads the file. What a path may reach is decided here; reading it is
`local_files.py`'s.
Standard library only: the bridge must start fast.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from choice.core.secret_files import SECRET_FILES, SECRET_FOLDERS, SYSTEM_FOLDERS, secret_reason


@dataclass(frozen=True)
class Places:
    """Where files may come from, and the portal's data dir, which never may."""

    working_dir: Path
    roots: tuple[Path, ...]
    data_dir: Path

    @classmethod
    def of(cls, roots: tuple[Path, ...], data_dir: Path) -> Places:
        """This bridge's: its working directory now, the configured roots."""
        return cls(Path.cwd().resolve(), tuple(root.resolve() for root in roots),
                   data_dir.resolve())


def why_not_readable(given: Path, real: Path, places: Places) -> tuple[str, str] | None:
    """(code, message) when the file at `given` (`real`: symlinks resolved) may not be
    read; None when it may."""
    shown = str(real)[:300]
    secret = _secret(given, real, places)
    if secret is not None:
        return "secret", (f"{shown!r} {secret}, which is never sent: show the person what "
                          "they need another way (a copy without the secret, or a summary "
                          "in the prompt).")
    if not any(real.is_relative_to(root) for root in (places.working_dir, *places.roots)):
        roots = "".join(f", {str(root)[:200]!r}" for root in places.roots)
        return "outside", (f"{shown!r} is outside the working directory "
                           f"{str(places.working_dir)[:200]!r}{roots}: copy the file into "
                           "it, or have the person add its folder to CHOICE_MCP_FILE_ROOTS.")
    return None


def _secret(given: Path, real: Path, places: Places) -> str | None:
    """What makes the file a secret, in words; None if nothing does. Both the name the
    model gave and the real one count (a link named `notes.txt` to `.env` is `.env`)."""
    if real.is_relative_to(places.data_dir):
        return "is in the portal's data dir (its token, its database)"
    return secret_reason(given) or secret_reason(real)


def listed() -> list[tuple[str, str]]:
    """What is refused, for the guide: (what, why)."""
    home = "~" if os.name != "nt" else "%USERPROFILE%"
    return [
        ("the portal's data dir (`CHOICE_DATA_DIR`)", "its token and database"),
        *((f"`{folder}`", "the kernel's and devices' files") for folder in SYSTEM_FOLDERS),
        (", ".join(f"`{folder}`" for folder in SECRET_FOLDERS),
         f"key and credential folders, in {home} or anywhere else"),
        (", ".join(f"`{name}`" for name in SECRET_FILES),
         "file names of secrets (any case)"),
    ]
