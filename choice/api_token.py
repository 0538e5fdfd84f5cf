"""The API bearer token: generated on first start, stored 0600 as `<data dir>/token`.

Agents (`/api`, `/mcp`) send it as `Authorization: Bearer <token>`; `choice token` prints it;
`choice ask`, `choice answer` and `choice mcp` read it themselves.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def ensure_token(path: Path) -> str:
    """Read the token, creating it (mode 0600, never world-readable) if it does not exist."""
    existing = read_token(path)
    if existing:
        return existing
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    token = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process won the race: use its token
        return read_token(path) or token
    with os.fdopen(fd, "w") as handle:
        handle.write(token + "\n")
    return token


def read_token(path: Path) -> str | None:
    try:
        return path.read_text().strip() or None
    except FileNotFoundError:
        return None
