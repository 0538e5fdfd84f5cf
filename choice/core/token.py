"""The API bearer token: generated on first start, stored 0600 as `<data dir>/token`.

Agents (`/api`, `/mcp`) send it as `Authorization: Bearer <token>`; `choice token` prints it;
`choice ask`, `choice answer` and `choice mcp` read it themselves.

Several processes may create it at once (two MCP clients each starting a portal on a new
data dir): the token is written whole to a private temporary file, which is then linked
to its final name. A link never replaces a file, so exactly one process wins, and the file
is complete from the moment it has its name; every other process reads the winner's.
`secrets` and `tempfile` are imported only to create one: `secrets` loads OpenSSL's
libcrypto (~3.7 MB), and `choice mcp`, which only reads the token, must stay small.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


class TokenFileError(RuntimeError):
    """The token file exists but holds no token: the message says how to fix it."""


def ensure_token(path: Path) -> str:
    """Read the token, creating it (mode 0600, never world-readable) if it does not exist."""
    existing = read_token(path)
    if existing:
        return existing
    import secrets
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    token = secrets.token_urlsafe(32)
    fd, written = tempfile.mkstemp(prefix=".token-", dir=path.parent)  # 0600
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(token + "\n")
            handle.flush()
            os.fsync(handle.fileno())  # never a named but empty token after a power cut
        try:
            os.link(written, path)
        except FileExistsError:
            winner = read_token(path)
            if winner is None:
                raise TokenFileError(
                    f"{path} exists but is empty (an interrupted start of an older version?): "
                    "delete it and start again; a new token will be made.") from None
            return winner
        return token
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(written)


def read_token(path: Path) -> str | None:
    try:
        return path.read_text().strip() or None
    except FileNotFoundError:
        return None
